// A thread counts to 10 before it fails; the loop's exit after its 10th iteration needs
// recursion bound 11 (bound N lets N - 1 iterations complete, as in Corral).
// RUN: /k:2 /recursionBound:10 => no bugs within the bound
// RUN: /k:2 /recursionBound:11 => bug at 12,3
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
