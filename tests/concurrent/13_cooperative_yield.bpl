// 12 with a `yield` between foo's write and its check: with two rounds, bar's write comes in
// between even under /cooperative. One round: foo runs to its end first.
// RUN: /k:1 /cooperative => no bugs
// RUN: /k:2 /cooperative => bug at 13,3 needing /k:2
// RUN: /cooperative /k:3 => bug at 13,3 needing /k:2
var x: int;

procedure foo()
  modifies x;
{
  x := 1;
  yield;
  assert x == 1;
}
procedure bar() modifies x; { x := 2; }

procedure main()
{
  async call foo();
  async call bar();
}
