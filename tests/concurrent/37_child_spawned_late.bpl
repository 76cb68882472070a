// Main writes x in round 0, yields (it may move on to round 1) and then spawns the child,
// which starts in main's round. No one else writes x, so the round-1 state the child sees
// carries main's write: the child reads 1 in any round.
// RUN: /k:2 => no bugs
// RUN: /k:3 => no bugs
var x: int;

procedure child()
{
  assert x == 1;
}

procedure main()
{
  x := 1;
  yield;
  async call child();
}
