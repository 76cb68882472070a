// 03 under /cooperative with a `yield` between the reads, and one in w2 before its write (a
// thread without a yield runs to its end where it is spawned, in round 0): the reader needs
// three rounds to see 0, then w1's 1, then w2's 2 (written in round 1 after the reader's
// second read).
// RUN: /k:2 /cooperative => no bugs
// RUN: /k:3 /cooperative => bug at 18,3 needing /k:3
// RUN: /cooperative /k:4 => bug at 18,3 needing /k:3
var x: int;

procedure reader()
{
  var a, b, c: int;
  a := x;
  yield;
  b := x;
  yield;
  c := x;
  assert !(a == 0 && b == 1 && c == 2);
}
procedure w1() { x := 1; }
procedure w2() { yield; x := 2; }

procedure main()
{
  x := 0;
  async call reader();
  async call w1();
  async call w2();
}
