// Three unlocked increments: all three threads may read 0 in round 0 and write 1 in round 1,
// so x = 1 once all are done. One round per thread: each increment is atomic, x = 3.
// RUN: /k:1 => no bugs
// RUN: /k:2 => bug at 29,3 needing /k:2
// RUN: /k:3 => bug at 29,3 needing /k:2
var x: int;
var done: int;
procedure corral_atomic_begin();
procedure corral_atomic_end();

procedure incr()
{
  var t: int;
  t := x;
  x := t + 1;
  call corral_atomic_begin();
  done := done + 1;
  call corral_atomic_end();
}

procedure main()
{
  x := 0;
  done := 0;
  async call incr();
  async call incr();
  async call incr();
  assume done == 3;
  assert x >= 2;
}
