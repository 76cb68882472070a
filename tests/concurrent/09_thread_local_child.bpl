// The child's copy of a thread-local global is not its parent's: it may hold anything.
// RUN: /k:1 => bug at 8,3 needing /k:1
// RUN: /k:2 => bug at 8,3 needing /k:1
var {:thread_local} tl: int;

procedure child()
{
  assert tl == 1;
}

procedure main()
  modifies tl;
{
  tl := 1;
  async call child();
}
