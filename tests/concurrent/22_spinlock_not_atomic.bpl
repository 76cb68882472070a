// 21 with the test and the set apart: both workers may see the lock free (two rounds) and
// the update is lost.
// RUN: /k:1 => no bugs
// RUN: /k:2 => bug at 43,3 needing /k:2
// RUN: /k:3 => bug at 43,3 needing /k:2
var lock: bool;
var x: int;
var done: int;
procedure corral_atomic_begin();
procedure corral_atomic_end();

procedure acquire()
{
  assume !lock;
  lock := true;
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
