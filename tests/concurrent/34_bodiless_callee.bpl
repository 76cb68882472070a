// A procedure without a body returns anything its contract allows: 5 among others.
// RUN: /k:1 => bug at 11,3 needing /k:1
// RUN: /k:2 => bug at 11,3 needing /k:1
procedure nondet() returns (r: int);
  ensures r >= 0;

procedure child()
{
  var r: int;
  call r := nondet();
  assert r != 5;
}

procedure main()
{
  async call child();
}
