// OPTIONS: /print:target/golden-moved-tokens.bpl /env:0
// Printed to a file, the tokens move into that file: the errors name
// target/golden-moved-tokens.bpl at the printed places (columns as Boogie's writer counts
// them, from 0): the postcondition of `up` as related location, the assertion in `down`.
// What the print did not move stays in this file: the end of `up`'s body (the return path
// that fails; Boogie makes that return only after printing) and the trace's blocks (Boogie
// prints the structured body, not its blocks). 2 errors.
procedure up(x: int) returns (y: int)
  ensures y > x;
{
  y := x;
}

procedure down(x: int)
{
  var z: int;
  z := x - 1;
  assert z > x;
}
