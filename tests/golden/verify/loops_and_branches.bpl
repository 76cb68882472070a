// OPTIONS: /timeLimit:30
// Loop invariants on entry and maintained, a postcondition on a break path, `{:subsumption 0}`.
procedure Entry(y: int) {
  var x: int;
  x := y;
  while (x < 10) invariant x >= 0; {
    x := x + 1;
  }
}

procedure Maintained() {
  var x: int;
  x := 0;
  while (*) invariant x == 0; {
    x := 1;
  }
}

procedure RunOff() returns (x: int)
  ensures x == 9;
{
  x := 9;
  while (true) {
    if (*) {
      x := 10;
      break;
    }
  }
}

procedure Subsumption(x: int) {
  assert {:subsumption 0} x == 2;
  assert x == 2;
  assert x == 2;
}

procedure Fine(n: int) returns (s: int)
  requires n >= 0;
  ensures s >= n;
{
  var i: int;
  i := 0; s := 0;
  while (i < n) invariant i <= n && s >= i; {
    i := i + 1;
    s := s + 1;
  }
}
