// The assertion in the body fails in the 4th execution of the body (i = 3 then). Bound N
// checks N executions of the body, so bound 4 finds it and bound 3 does not.
// RUN: /recursionBound:3 => no bugs within the bound
// RUN: /recursionBound:4 => bug at 10,5
procedure main()
{
  var i: int;
  i := 0;
  while (true) {
    assert i < 3; // @BUG
    i := i + 1;
  }
}
