// 01 with each increment inside corral_atomic_begin/end: no switch can come between an
// increment's read and its write, so both increments land and x = 2 whenever done = 2, at
// every context bound.
// RUN: /k:2 => no bugs
// RUN: /k:3 => no bugs
var x: int;
var done: int;
procedure corral_atomic_begin();
procedure corral_atomic_end();

procedure incr()
  modifies x, done;
{
  var t: int;
  call corral_atomic_begin();
  t := x;
  x := t + 1;
  done := done + 1;
  call corral_atomic_end();
}

procedure main()
  modifies x, done;
{
  x := 0;
  done := 0;
  async call incr();
  async call incr();
  assume done == 2;
  assert x == 2;
}
