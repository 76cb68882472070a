// Under /cooperative a thread gives up the processor only at `yield`: foo's write and check
// cannot be separated. Preemptively (no /cooperative), bar's write may come between them.
// RUN: /k:2 /cooperative => no bugs
// RUN: /k:3 /cooperative => no bugs
// RUN: /k:2 => bug at 13,3 needing /k:2
// RUN: /k:3 => bug at 13,3 needing /k:2
var x: int;

procedure foo()
  modifies x;
{
  x := 1;
  assert x == 1;
}
procedure bar() modifies x; { x := 2; }

procedure main()
{
  async call foo();
  async call bar();
}
