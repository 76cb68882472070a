// OPTIONS: /noVerify /loopUnroll:1 /soundLoopUnrolling /printInstrumented
// Under /soundLoopUnrolling the cut asserts false instead of assuming it, so a path that
// would need more iterations than the bound is an error rather than ignored.

procedure Count(n: int)
{
  var i: int;
  i := 0;
  while (i < n)
    invariant i >= 0;
  {
    i := i + 1;
  }
}
