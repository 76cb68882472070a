// The loop calls `add2` 3 times: s = 6 after it. Leaving after 3 iterations needs
// bound 4; each iteration's call is not recursive.
// RUN: /recursionBound:3 => no bugs within the bound
// RUN: /recursionBound:4 => bug at 11,3
procedure add2(x: int) returns (r: int) { r := x + 2; }
procedure main()
{
  var i, s: int;
  i := 0; s := 0;
  while (i < 3) { call s := add2(s); i := i + 1; }
  assert s != 6; // @BUG
}
