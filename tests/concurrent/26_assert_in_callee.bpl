// The failing check is in a procedure the thread calls (inlined into it): with two rounds
// the thread sees main's write made after the spawn.
// RUN: /k:1 => no bugs
// RUN: /k:2 => bug at 10,3 needing /k:2
// RUN: /k:3 => bug at 10,3 needing /k:2
var x: int;

procedure check(v: int)
{
  assert v == 0;
}

procedure child()
{
  var v: int;
  v := x;
  call check(v);
}

procedure main()
{
  x := 0;
  async call child();
  x := 5;
}
