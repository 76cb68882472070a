// A failing assertion inside an atomic block, followed in the same block by an assumption
// that blocks on that very path. The failure counts (as in a sequential Boogie program, an
// assertion that fails is not excused by an assumption after it).
// main sets x to 0, then spawns t2 (x := 1) and t1. Even with one round per thread (K = 1)
// t2 runs to its end before t1 starts, so t1 sees x = 1: its assertion fails, and the
// `assume x == 0` after it would block. The bug must be reported at K = 1.
// RUN: /k:1 => bug at 22,3 needing /k:1
// RUN: /k:2 => bug at 22,3 needing /k:1
var x: int;
procedure corral_atomic_begin();
procedure corral_atomic_end();

procedure t2()
  modifies x;
{
  x := 1;
}

procedure t1()
{
  call corral_atomic_begin();
  assert x == 0;
  assume x == 0;
  call corral_atomic_end();
}

procedure main()
  modifies x;
{
  x := 0;
  async call t2();
  async call t1();
}
