// c2s's dialect: `call {:async} P()` posts a task, `assume {:yield} true` gives up the
// processor. As 13.
// RUN: /k:1 /cooperative => no bugs
// RUN: /k:2 /cooperative => bug at 13,3 needing /k:2
// RUN: /cooperative /k:3 => bug at 13,3 needing /k:2
var x: int;

procedure foo()
  modifies x;
{
  x := 1;
  assume {:yield} true;
  assert x == 1;
}
procedure bar() modifies x; { x := 2; }

procedure main()
  modifies x;
{
  call {:async} foo();
  call {:async} bar();
}
