// main spawns a, which spawns b; b checks y, which main sets after spawning a. As in 04, b
// runs in round 0 at its spawn unless it can switch to round 1 (K = 2), after main's write.
// RUN: /k:1 => no bugs
// RUN: /k:2 => bug at 15,3 needing /k:2
// RUN: /k:3 => bug at 15,3 needing /k:2
var y: int;

procedure a()
{
  async call b();
}

procedure b()
{
  assert y != 7;
}

procedure main()
  modifies y;
{
  y := 0;
  async call a();
  y := 7;
}
