// OPTIONS: /warnVacuousProofs
// A loop with two entries (an irreducible graph): making it reducible copies a block that
// has no invariant, never the one whose first command is an assertion (the invariant).
// /warnVacuousProofs puts a label before that assertion; the label must not hide it, or the
// wrong block is copied and the invariant is lost on one of the copies (the check then
// failed). By hand: `n` only moves between 0 and 1; Top's assertion holds on entry (n = 0)
// and after Side (which sets it back to 0 or 1); the final assertion follows from Top's. It
// verifies, with no vacuous goal.
procedure TwoEntries(b: bool) returns (n: int)
  ensures n <= 1;
{
  n := 0;
  if (b) { goto Top; } else { goto Side; }
  Top:
    assert 0 <= n && n <= 1;
    n := 1;
    goto Side, Out;
  Side:
    n := n - 1;
    if (n < 0) { n := 0; }
    goto Top;
  Out:
    assert n == 1;
}
