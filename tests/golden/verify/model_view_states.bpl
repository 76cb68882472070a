// OPTIONS: /mv:-
// `/mv:-` writes each error's model after the error, with the states `{:captureState}` marks
// on the failing path. Worked out by hand: n starts at 1 (a literal copy: the state "start"
// shows n -> 1), grows by 2 (state "after": n@0 = 3), and the assertion n == 4 fails there.
// The state "other" is on the path not taken, so it is not shown.
procedure Count(b: bool) returns (n: int)
{
  n := 1;
  assume {:captureState "start"} true;
  if (b) {
    n := n + 2;
    assume {:captureState "after"} true;
    assert n == 4;
  } else {
    assume {:captureState "other"} true;
  }
}
