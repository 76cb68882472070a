// The loop runs exactly 3 times and leaves i = 3. Bound N lets the body run N times, the
// last without returning to the head, so leaving after 3 iterations needs N = 4.
// RUN: /recursionBound:3 => no bugs within the bound
// RUN: /recursionBound:4 => bug at 10,3
procedure main()
{
  var i: int;
  i := 0;
  while (i < 3) { i := i + 1; }
  assert i != 3; // @BUG
}
