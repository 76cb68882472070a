// As 08 with an even argument: the requires holds and so does the result.
// RUN: /recursionBound:1 => no bugs
procedure half(x: int) returns (r: int)
  requires x mod 2 == 0;
{
  r := x div 2;
}
procedure main()
{
  var y: int;
  call y := half(4);
  assert y == 2;
}
