// OPTIONS: /forceBplErrors
// `/forceBplErrors`: a failing check with `{:msg "..."}` is reported with Boogie's own
// message, its position and its related location, as one without; without the option the
// custom message is printed alone (force_bpl_errors_default.bpl, the same program).
// Worked out by hand: Assert's `x > 0` fails for x = 0; Caller calls Callee with 0 against
// `n > 0`; Ensures returns 0 against `r > 0`; Loop is at the end. Each error is worded as
// Boogie words it when no message is given.
procedure Assert(x: int)
{
  assert {:msg "x must be positive"} x > 0;
}

procedure Callee(n: int);
  requires {:msg "n must be positive"} n > 0;

procedure Caller()
{
  call Callee(0);
}

procedure Ensures() returns (r: int)
  ensures {:msg "the result must be positive"} r > 0;
{
  r := 0;
}

// A loop invariant's `{:msg}` is never used: Boogie reports an invariant that fails with its
// own message, option or not. Here i < 1 holds on entry (i = 0) and not after i := i + 1.
procedure Loop()
{
  var i: int;
  i := 0;
  while (*)
    invariant {:msg "i stays below 1"} i < 1;
  {
    i := i + 1;
  }
}
