// Modular checking with loops. P's second assertion reads A after a loop whose invariant
// says nothing of A: vcgen's cut havocs A at the loop head, so the assertion cannot be
// proved (an error with and without abstraction). The abstract counterexample's path enters
// the loop's head: its replay cuts the loop as vcgen does (invariant checked, what the loop
// modifies havocked, invariant assumed), so it is feasible with the property's field A
// concrete: a real error, and P is checked unabstracted from then on. Q reads B and writes A
// in its loop; its assertion needs neither: it verifies with B and N abstracted.
// RUN: => 1 verified, 1 error tracking A
var A: [int]int;
var B: [int]int;
var N: [int]int;
procedure P(n: int)
  requires n >= 0;
  modifies A, B, N;
{
  var i: int;
  i := 0;
  while (i < n)
    invariant 0 <= i && i <= n;
  {
    A[i] := 0;
    B[i] := N[i];
    i := i + 1;
  }
  assert i == n;
  assert A[0] == 0 || n == 0;
}
procedure Q(n: int)
  modifies A, B, N;
{
  var i: int;
  i := 0;
  while (i < n)
  {
    A[i] := B[i];
    i := i + 1;
  }
  assert i >= n;
}
