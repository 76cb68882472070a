// A lock taken by an atomic test-and-set (corral_atomic_begin/end): the counter's update is
// protected, so after both workers x = 2, at every bound.
// RUN: /k:2 => no bugs
// RUN: /k:3 => no bugs
var lock: bool;
var x: int;
var done: int;
procedure corral_atomic_begin();
procedure corral_atomic_end();

procedure acquire()
{
  call corral_atomic_begin();
  assume !lock;
  lock := true;
  call corral_atomic_end();
}

procedure release()
{
  lock := false;
}

procedure worker()
{
  var t: int;
  call acquire();
  t := x;
  x := t + 1;
  call release();
  call corral_atomic_begin();
  done := done + 1;
  call corral_atomic_end();
}

procedure main()
{
  lock := false;
  x := 0;
  done := 0;
  async call worker();
  async call worker();
  assume done == 2;
  assert x == 2;
}
