// A thread counts to 10 before it fails; the loop's exit after its 10th iteration needs
// recursion bound 11 (bound N lets N - 1 iterations complete, as in Corral). The thread is
// alone: one round shows the bug.
// RUN: /k:2 /recursionBound:10 => no bugs within the bound
// RUN: /k:2 /recursionBound:11 => bug at 14,3 needing /k:1
// RUN: /recursionBound:11 /k:3 => bug at 14,3 needing /k:1
var x: int;

procedure counter()
  modifies x;
{
  x := 0;
  while (x < 10) { x := x + 1; }
  assert x != 10;
}

procedure main()
{
  async call counter();
}
