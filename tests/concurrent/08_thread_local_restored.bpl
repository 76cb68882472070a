// `{:thread_local}` globals are per thread: the child starts with its own (arbitrary) copy
// and the parent's is restored when the child's code ends. The parent sees its own 1.
// RUN: /k:1 => no bugs
// RUN: /k:2 => no bugs
var {:thread_local} tl: int;

procedure child()
  modifies tl;
{
  tl := 2;
}

procedure main()
  modifies tl;
{
  tl := 1;
  async call child();
  assert tl == 1;
}
