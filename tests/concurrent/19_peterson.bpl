// Peterson's mutual exclusion for two threads: each raises its flag, gives the turn away and
// waits (an `assume`: a thread that would wait forever stops) until the other's flag is down
// or the turn is its own. Under interleaving semantics both are never inside at once, so
// `cs == 1` holds inside at every bound.
// RUN: /k:2 => no bugs
// RUN: /k:3 => no bugs
var flag0, flag1: bool;
var turn: int;
var cs: int;

procedure p0()
{
  flag0 := true;
  turn := 1;
  assume !(flag1 && turn == 1);
  cs := cs + 1;
  assert cs == 1;
  cs := cs - 1;
  flag0 := false;
}

procedure p1()
{
  flag1 := true;
  turn := 0;
  assume !(flag0 && turn == 0);
  cs := cs + 1;
  assert cs == 1;
  cs := cs - 1;
  flag1 := false;
}

procedure main()
{
  flag0 := false;
  flag1 := false;
  cs := 0;
  async call p0();
  async call p1();
}
