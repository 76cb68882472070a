// OPTIONS: /enhancedErrorMessages:1 /normalizeNames:1
// The augmented execution trace: each {:print} attribute on the path to the failing check,
// strings as written, variables with the counterexample's value at that command, and any
// other expression as written. Expected by hand:
// - Counter: c starts at 3 (the precondition), the loop-free body adds 2 then doubles,
//   so c is 10 at the end and `c < 10` fails; the prints show 3, then 5, then 10 at the
//   assert, and `c + 1` is shown as written. The print on the branch not taken (x < 0 is
//   false, x is pinned to 7) is not shown.
// - Negative: a negative value is shown as Boogie's model shows it, -4.
// - Bits: a bit-vector value is shown as 5bv8.
procedure Counter(x: int) returns (c: int)
  requires x == 7;
{
  c := 3;
  assume {:print "start c = ", c} true;
  c := c + 2;
  if (x < 0) {
    assume {:print "not on this path"} true;
  }
  c := {:print "before doubling c = ", c} c * 2;
  assert {:print "at the end c = ", c, " and ", c + 1} c < 10;
}

procedure Negative(y: int)
  requires y == -4;
{
  assume {:print "y = ", y} true;
  assert y > 0;
}

procedure Bits(b: bv8)
  requires b == 5bv8;
{
  assume {:print "b = ", b} true;
  assert b == 6bv8;
}
