// A failure in main that needs no other thread: found with one round.
// RUN: /k:1 => bug at 14,3 needing /k:1
// RUN: /k:2 => bug at 14,3 needing /k:1
var x: int;

procedure child()
{
}

procedure main()
{
  x := 1;
  async call child();
  assert x == 2;
}
