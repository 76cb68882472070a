// sum(2) = 2 + 1 + 0 = 3, computed by sum(2) -> sum(1) -> sum(0): 3 levels. The claim
// sum(2) == 4 fails at bound 3 and not at 2.
// RUN: /recursionBound:2 => no bugs within the bound
// RUN: /recursionBound:3 => bug at 14,3
procedure sum(n: int) returns (r: int)
{
  var t: int;
  if (n == 0) { r := 0; } else { call t := sum(n - 1); r := n + t; }
}
procedure main()
{
  var s: int;
  call s := sum(2);
  assert s != 3; // @BUG
}
