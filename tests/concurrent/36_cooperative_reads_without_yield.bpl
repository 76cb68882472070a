// 35 without the yields: under /cooperative the reader's three reads are one segment and
// see one value, at any bound.
// RUN: /k:3 /cooperative => no bugs
// RUN: /k:4 /cooperative => no bugs
var x: int;

procedure reader()
{
  var a, b, c: int;
  a := x;
  b := x;
  c := x;
  assert a == b && b == c;
}
procedure w1() { x := 1; }
procedure w2() { x := 2; }

procedure main()
{
  x := 0;
  async call reader();
  async call w1();
  async call w2();
}
