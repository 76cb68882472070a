// Atomic blocks exclude switches inside them, not between them: a thread's two atomic
// steps (read, then write) may have the other's write in between (two rounds).
// RUN: /k:1 => no bugs
// RUN: /k:2 => bug at 30,3 needing /k:2
// RUN: /k:3 => bug at 30,3 needing /k:2
var x: int;
var done: int;
procedure corral_atomic_begin();
procedure corral_atomic_end();

procedure incr()
{
  var t: int;
  call corral_atomic_begin();
  t := x;
  call corral_atomic_end();
  call corral_atomic_begin();
  x := t + 1;
  done := done + 1;
  call corral_atomic_end();
}

procedure main()
{
  x := 0;
  done := 0;
  async call incr();
  async call incr();
  assume done == 2;
  assert x == 2;
}
