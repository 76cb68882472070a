// The reader sees x = 0, then 1, then 2. Writers w1 (x := 1) and w2 (x := 2) each write once.
// Within one of its rounds the reader runs without interruption, so three different values
// need three rounds of the reader: round 0 reads 0 (before w1's round-0 write), round 1 reads
// 1 (w2 writes in round 1, after the reader's round-1 segment), round 2 reads 2. With two
// rounds per thread the three reads take at most two segments: two of them see one value.
// RUN: /k:2 => no bugs
// RUN: /k:3 => bug at 17,3 needing /k:3
// RUN: /k:4 => bug at 17,3 needing /k:3
var x: int;

procedure reader()
{
  var a, b, c: int;
  a := x;
  b := x;
  c := x;
  assert !(a == 0 && b == 1 && c == 2);
}
procedure w1() modifies x; { x := 1; }
procedure w2() modifies x; { x := 2; }

procedure main()
  modifies x;
{
  x := 0;
  async call reader();
  async call w1();
  async call w2();
}
