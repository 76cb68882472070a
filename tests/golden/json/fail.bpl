// OPTIONS: /timeLimit:30 --format json
// --format json on a failing program: each error with its message, position, related
// location and execution trace ({file, line, column, label} per block), and Boogie's text.
// Worked out by hand:
// - Abs fails: for x = 0 the else branch sets r := -1, so `ensures r >= 0` fails on the return
//   path through the else block. The error is at the return that path takes: the `}` ending
//   the if (line 20, column 3), the related location the ensures (line 14); the trace is
//   anon0 (line 16) then the else block, at its first command (line 19, column 7).
// - Caller fails: Positive(0) breaks `requires x > 0`: the error is at the call (line 31),
//   the related location the requires (line 23); the trace is anon0 (line 31).
// - Fine verifies (its assertion is 1 + 1 == 2).
// Closing counts: 1 verified, 2 errors, `implementations` 3.
procedure Abs(x: int) returns (r: int)
  ensures r >= 0;
{
  if (x < 0) {
    r := -x;
  } else {
    r := x - 1;
  }
}

procedure Positive(x: int);
  requires x > 0;

procedure Fine() {
  assert 1 + 1 == 2;
}

procedure Caller() {
  call Positive(0);
}
