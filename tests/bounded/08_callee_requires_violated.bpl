// `half` requires an even argument; main passes 3. The requires is asserted at the call
// (the call's position is reported).
// RUN: /recursionBound:1 => bug at 12,3
procedure half(x: int) returns (r: int)
  requires x mod 2 == 0;
{
  r := x div 2;
}
procedure main()
{
  var y: int;
  call y := half(3); // @BUG
}
