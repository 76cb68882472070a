// OPTIONS: /timeLimit:30
// Irreducible control flow is made reducible by node splitting, as Boogie does: a jump into
// a loop body copies the body for that entry, so neither path is lost.
procedure IntoLoop() {
  var x: int;
  assume x == 0;
  if (true) {
    goto Inside;
  }
  while (x < 10) {
    Inside: x := x + 1;
  }
  assert x == -1;
}

procedure TwoEntries(b: bool) {
  var i: int;
  i := 0;
  goto A, B;
  A:
    assert i >= 0;
    goto B;
  B:
    i := i + 1;
    goto A, Done;
  Done:
    assert i > 0;
}
