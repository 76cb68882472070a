// OPTIONS: /timeLimit:30
// The program of force_bpl_errors.bpl without `/forceBplErrors`: each failing check has a
// `{:msg "..."}`, which Boogie prints in place of its own message, without position or
// related location (the trace follows). Worked out by hand: the same four checks fail.
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
