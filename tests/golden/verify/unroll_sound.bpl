// OPTIONS: /timeLimit:30 /loopUnroll:2 /soundLoopUnrolling
// Under /soundLoopUnrolling a path that reaches the cut at the bound is an error, reported at
// the loop head: the unrolling did not cover every execution. The cut is at the head, before
// the loop test, so two unrolled iterations cover loops of at most one.

procedure Bounded(n: int)
  requires 0 <= n && n <= 1;
{
  var i: int;
  i := 0;
  while (i < n)
  {
    i := i + 1;
  }
  assert i == n;
}

procedure Unbounded(n: int)
{
  var i: int;
  i := 0;
  while (i < n)
  {
    i := i + 1;
  }
}
