// Two children: the first waits for x = 5, which never happens (it blocks); the second fails.
// In the sequential program the first runs first: it must be able to stop where it blocks, or
// the second's failure would be hidden.
// RUN: /k:1 => bug at 16,3 needing /k:1
// RUN: /k:2 => bug at 16,3 needing /k:1
var x: int;

procedure waiter()
{
  assume x == 5;
  assert false;
}

procedure failer()
{
  assert x == 5;
}

procedure main()
  modifies x;
{
  x := 0;
  async call waiter();
  async call failer();
}
