// OPTIONS: /timeLimit:10
// A {:builtin} operator goes to the solver as written. Here its result sort (a float with an
// 8-bit exponent and 5-bit significand) is not the declared float24e8, so the solver rejects
// the query of BadBuiltin. That is the program's mistake, not rboogie's: reported as Boogie
// reports a prover's error (the solver's message, then the implementation inconclusive), not
// as an internal error. Worked out by hand: BadBuiltin inconclusive; Fine, which does not use
// the builtin, verified (1 verified, 0 errors, 1 inconclusive).

function {:builtin "(_ to_fp 8 5) RNE"} ToFloat(real) returns (float24e8);

procedure BadBuiltin()
{
  var f: float24e8;
  f := ToFloat(0.5);
  assert f == f;
}

procedure Fine(x: int)
  requires x > 0;
{
  assert x + 1 > 1;
}
