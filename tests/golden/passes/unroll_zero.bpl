// OPTIONS: /noVerify /loopUnroll:0 /soundLoopUnrolling /printInstrumented
// With /loopUnroll:0 every loop is cut where it is entered. Boogie's unroller passes
// /soundLoopUnrolling to every level but the outermost, so at depth 0 the cut stays
// `assume false`; rboogie keeps that quirk.

procedure Count(n: int)
{
  var i: int;
  i := 0;
  while (i < n)
  {
    i := i + 1;
  }
  assert i == n;
}
