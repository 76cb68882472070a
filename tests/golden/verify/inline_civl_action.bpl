// OPTIONS: /timeLimit:30
// EXIT: 2
// Bad input for the inliner: a Civl action has a body (an implementation the inliner must
// leave alone) beside an {:inline} procedure. Civl is refused with a message, no crash.
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
