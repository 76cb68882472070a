// Corral's /stackDepthBound:N: a call with N calls above it on the stack (its own making N + 1)
// is cut, as a call past the recursion bound is. main calls check(1) and then a chain
// a -> b -> c; only c's assertion can fail (it asserts false), and it is reached at stack
// depth 3 (main -> a is depth 1, a -> b depth 2, b -> c depth 3). check's assertion holds
// (n is 1 > 0 at its only call).
// - No stack bound: the chain is inlined whole and c's assertion fails (line 22).
// - /stackDepthBound:3: c's call is at depth 3, allowed: the same bug.
// - /stackDepthBound:2: the call of c is cut (assume false): no path reaches the failing
//   assertion, and the cut makes it "no bugs" within the bound only.
// - /stackDepthBound:0 is Corral's "no bound".
// RUN: /recursionBound:1 => bug at 22,3
// RUN: /recursionBound:1 /stackDepthBound:3 => bug at 22,3
// RUN: /recursionBound:1 /stackDepthBound:2 => no bugs within the bound
// RUN: /recursionBound:1 /stackDepthBound:0 => bug at 22,3
procedure check(n: int)
{
  assert n > 0;
}

procedure c()
{
  assert false;
}

procedure b()
{
  call c();
}

procedure a()
{
  call b();
}

procedure main()
{
  call check(1);
  call a();
}
