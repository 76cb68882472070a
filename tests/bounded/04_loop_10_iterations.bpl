// As 03 with 10 iterations: the exit after the 10th iteration needs bound 11.
// RUN: /recursionBound:10 => no bugs within the bound
// RUN: /recursionBound:11 => bug at 9,3
procedure main()
{
  var i: int;
  i := 0;
  while (i < 10) { i := i + 1; }
  assert i != 10; // @BUG
}
