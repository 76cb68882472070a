// A thread that spins forever (its loop cut by the recursion bound: `assume false` past the
// last iteration) must not hide another thread's failure: a cut thread stops instead.
// RUN: /k:1 => bug at 14,3 needing /k:1
// RUN: /k:2 => bug at 14,3 needing /k:1
var stop: bool;

procedure spinner()
{
  while (!stop) { }
}

procedure failer()
{
  assert stop;
}

procedure main()
{
  stop := false;
  async call spinner();
  async call failer();
}
