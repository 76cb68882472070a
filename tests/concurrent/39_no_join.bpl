// 38 without waiting for the flag: main may read the result before the child writes it; the
// child (spawned first) has to move its write to round 1 for that.
// RUN: /k:1 => no bugs
// RUN: /k:2 => bug at 20,3 needing /k:2
// RUN: /k:3 => bug at 20,3 needing /k:2
var result: int;
var finished: bool;

procedure child()
{
  result := 7;
  finished := true;
}

procedure main()
{
  result := 0;
  finished := false;
  async call child();
  assert result == 7;
}
