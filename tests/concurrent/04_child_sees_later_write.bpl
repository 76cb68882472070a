// The child runs where it is spawned, in its parent's round. With one round it runs to its
// end before the parent's `x := 1`, and reads 0. With two, it may switch to round 1, which
// starts after the parent's round-0 write: it reads 1.
// RUN: /k:1 => no bugs
// RUN: /k:2 => bug at 11,3 needing /k:2
// RUN: /k:3 => bug at 11,3 needing /k:2
var x: int;

procedure child()
{
  assert x == 0;
}

procedure main()
  modifies x;
{
  x := 0;
  async call child();
  x := 1;
}
