// x is arbitrary but above 5, so x > 4 always holds.
// RUN: /recursionBound:1 => no bugs
procedure main()
{
  var x: int;
  havoc x;
  assume x > 5;
  assert x > 4;
}
