// Two threads increment x without a lock: t1 reads x = 0, is preempted before its write, t2
// reads 0 and writes 1, then t1 writes 1. After both, main sees x = 1.
// Main spawns t1 and t2 (each runs from main's round), then checks x after they finish,
// which it knows through the `done` counter. With one round per thread (K = 1) each thread
// runs atomically, so x = 2 whenever done = 2. With K = 2 the interleaving above exists:
// t1 (round 0) reads 0, switches to round 1; t2 (round 0) reads 0 and writes 1 ... and the
// lost update shows.
// RUN: /k:1 => no bugs
// RUN: /k:2 => bug at 31,3 needing /k:2
// RUN: /k:3 => bug at 31,3 needing /k:2
var x: int;
var done: int;

procedure incr()
  modifies x, done;
{
  var t: int;
  t := x;
  x := t + 1;
  done := done + 1;
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
