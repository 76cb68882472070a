// OPTIONS: /printVerifiedProceduresCount:0
// /printVerifiedProceduresCount:0: Boogie's closing line without the verified count.
// Worked out by hand: Ok verifies (its postcondition r == x + 1 holds of r := x + 1);
// Bad's assertion fails (x may be 0). Closing line: "finished with 1 error" (not
// "1 verified, 1 error").
procedure Ok(x: int) returns (r: int)
  ensures r == x + 1;
{
  r := x + 1;
}

procedure Bad(x: int)
{
  assert x != 0;
}
