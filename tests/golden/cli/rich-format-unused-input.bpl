// OPTIONS: --format rich %s
// The rich format shows, under a failing assertion, the implementation's inputs and the
// variables the assertion reads. `Unused` never mentions its input `a`, so its VC does not
// either: the value must still be shown (any value is a counterexample; z3 picks 0), not
// the session ended by asking the solver for a constant it was never told of (that was
// reported as a solver exception, and the error was lost).
//
// Expected, worked out by hand: `b > 0` fails for b = 0 (z3's first model): 1 error, values
// a and b shown. `UsesBoth` fails the same way with both read. So 0 verified, 2 errors.
procedure Unused(a: int, b: int)
{
  assert b > 0;
}

procedure UsesBoth(a: int, b: int)
{
  assert a + b > a;
}
