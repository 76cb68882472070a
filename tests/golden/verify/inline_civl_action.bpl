// OPTIONS: /timeLimit:30
// A Civl action has a body (an implementation the inliner must leave alone) beside an
// {:inline} procedure: no crash. The action is pure, has no mover type or specification and
// no caller, so Civl checks nothing for it (src/passes/civl.rs drops it) and Caller verifies:
// Twice(2) inlined gives y == 4.
pure action Check(b: bool)
{
  assert b;
}

procedure {:inline 1} Twice(x: int) returns (y: int)
{
  y := x + x;
}

procedure Caller()
{
  var y: int;
  call y := Twice(2);
  assert y == 4;
}
