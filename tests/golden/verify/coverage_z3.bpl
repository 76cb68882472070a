// OPTIONS: /trackVerificationCoverage --solver z3 --format json
// /trackVerificationCoverage with z3 over a pipe: the check assumes the labels' literals
// (check-sat-assuming) and reads the unsat core (get-unsat-core from z3, get-unsat-assumptions
// from cvc5, asked for minimal cores). Worked out by hand: `small` alone proves `below`
// (x < 5 gives x < 10); `big_unused` (x > -100) is not needed, nor is the axiom `zero_unused`.
// Twice: the call's precondition `p` is proved from `small2`, and its postcondition `q`
// proves `twice_ok` (the precondition needs `small2`: x < 5 < 100).
const Z: int;
axiom {:id "zero_unused"} Z == 0;

procedure Small(x: int)
  requires {:id "small"} x < 5;
  requires {:id "big_unused"} x > -100;
{
  assert {:id "below"} x < 10;
}

procedure Double(a: int) returns (b: int);
  requires {:id "p"} a < 100;
  ensures {:id "q"} b == a + a;

procedure Twice(x: int) returns (y: int)
  requires {:id "small2"} x < 5;
{
  call {:id "d"} y := Double(x);
  assert {:id "twice_ok"} y == x + x;
}
