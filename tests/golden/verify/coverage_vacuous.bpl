// OPTIONS: /warnVacuousProofs --format json
// /warnVacuousProofs: every assertion (but `assert true`), assumption, call, requires and
// non-free ensures without an `{:id}` gets a generated one, `id_l<line>_c<col>_<kind>_<n>`
// (n counts the ids generated in the whole program; an implementation's body comes before
// its procedure's clauses), and a goal (assertion or ensures) that its implementation's
// proof did not use is "proved vacuously" (the warning's column is one before the goal's
// keyword, as Boogie prints it). Worked out by hand:
// - Dead: the assumption (line 18, id _0) contradicts the requires (line 15, _2): the proof
//   needs only those two, so the assertion (line 19, _1) and the ensures (line 16, _3) are
//   vacuous, in that order.
// - Guarded: the if's guard is assumed on each branch (both at the `if`, line 24: _4 on the
//   then branch, _6 on the else branch), each branch's assertion (_5, _7) uses its guard;
//   `assert true` gets no id. Nothing is vacuous.
procedure Dead(x: int) returns (r: int)
  requires x > 10;
  ensures r == 5;
{
  assume x < 0;
  assert x == 42;
}

procedure Guarded(x: int)
{
  if (x > 0) {
    assert x >= 1;
  } else {
    assert x <= 0;
  }
  assert true;
}
