// As 23 with the true claim sum(2) == 3: no bug at any bound, always within the bound.
// RUN: /recursionBound:2 => no bugs within the bound
// RUN: /recursionBound:5 => no bugs within the bound
procedure sum(n: int) returns (r: int)
{
  var t: int;
  if (n == 0) { r := 0; } else { call t := sum(n - 1); r := n + t; }
}
procedure main()
{
  var s: int;
  call s := sum(2);
  assert s == 3;
}
