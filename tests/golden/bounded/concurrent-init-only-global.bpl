// OPTIONS: /main:Main /k:2 --print-after=sequentialize
// A global that only the entry point writes, and only before it spawns a thread, is a
// constant to the threads: sequentialization leaves it one variable (no map over rounds,
// `cfg` read as it is in the Worker's copy), and reading it is no switch point. `x` is written
// by the Worker and stays shared (`seq$x`). By hand: the Worker copies cfg (5) into x, before
// or after Main's assertion reads x: x is 0 or 5, so the program has no bugs.
// (concurrent-global-written-after-spawn.bpl writes cfg after the spawn: a bug.)
var cfg: int;
var x: int;

procedure Worker()
  modifies x;
{
  x := cfg;
}

procedure Main()
  modifies cfg, x;
{
  cfg := 5;
  x := 0;
  async call Worker();
  assert x == 0 || x == 5;
}
