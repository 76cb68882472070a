// As 31 with unbounded recursion instead of a loop: the recursion bound cuts it, and the
// cut thread stops.
// RUN: /k:1 => bug at 14,3 needing /k:1
// RUN: /k:2 => bug at 14,3 needing /k:1
var n: int;

procedure rec()
{
  call rec();
}

procedure failer()
{
  assert n == 1;
}

procedure main()
{
  n := 0;
  async call rec();
  async call failer();
}
