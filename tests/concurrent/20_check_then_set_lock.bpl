// A broken lock: each thread checks that the other's flag is down and only then raises its
// own. Both may check in round 0 before either raises its flag. For p1 to find cs = 2, p0's
// increment must come before p1's and its decrement after: p0 runs round 0 (check), round 1
// (flag, increment) and round 2 (decrement), while p1 checks in round 0 and enters in round
// 1. A thread stops for good only where it yields or would block, so with two rounds p0's
// increment and decrement stay together.
// RUN: /k:2 => no bugs
// RUN: /k:3 => bug at 26,3 needing /k:3
// RUN: /k:4 => bug at 26,3 needing /k:3
var flag0, flag1: bool;
var cs: int;

procedure p0()
{
  assume !flag1;
  flag0 := true;
  cs := cs + 1;
  cs := cs - 1;
}

procedure p1()
{
  assume !flag0;
  flag1 := true;
  cs := cs + 1;
  assert cs == 1;
  cs := cs - 1;
}

procedure main()
{
  flag0 := false;
  flag1 := false;
  cs := 0;
  async call p0();
  async call p1();
}
