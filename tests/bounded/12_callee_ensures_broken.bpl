// `inc` promises r > x but returns x: the ensures, asserted at the callee's return,
// fails (reported at the ensures, as the inlined return has no position of its own).
// RUN: /recursionBound:1 => bug at 5,3
procedure inc(x: int) returns (r: int)
  ensures r > x; // @BUG
{
  r := x;
}
procedure main()
{
  var y: int;
  call y := inc(1);
}
