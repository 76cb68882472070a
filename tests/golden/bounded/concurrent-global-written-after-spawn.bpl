// OPTIONS: /main:Main /k:2
// As concurrent-init-only-global.bpl, but Main writes cfg again after spawning the Worker:
// cfg is shared then (a write once a thread may run), and the Worker can read the new value.
// By hand: the Worker switches to round 1 before its read; Main, in round 0, writes cfg := 6
// and switches to round 1 before its assertion; in round 1 the Worker reads 6 and writes x,
// and Main's assertion reads x == 6: it fails, with one switch per thread (/k:2).
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
  cfg := 6;
  assert x == 0 || x == 5;
}
