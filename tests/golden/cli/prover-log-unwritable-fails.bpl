// OPTIONS: /proverLog:no-such-directory/@PROC@.smt2
// Without a writable log (one per implementation here), errors are still found: the
// postcondition below does not hold for negative x. One error.
procedure Absolute(x: int) returns (y: int)
  ensures y == x;
{
  y := if x < 0 then -x else x;
}
