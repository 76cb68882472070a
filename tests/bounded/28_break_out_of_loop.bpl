// The loop leaves by `break` in the 4th execution of its body (i = 3 then), without going
// back to the head: bound 4 lets the body run 4 times.
// RUN: /recursionBound:3 => no bugs within the bound
// RUN: /recursionBound:4 => bug at 13,3
procedure main()
{
  var i: int;
  i := 0;
  while (true) {
    if (i == 3) { break; }
    i := i + 1;
  }
  assert i != 3; // @BUG
}
