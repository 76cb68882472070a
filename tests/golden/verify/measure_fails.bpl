// OPTIONS: /timeLimit:30
// Measures that do not decrease, or may go negative: each error is Boogie's.
var g: int;

// The call's argument may be negative: the callee's `requires k >= 0` (Boogie adds one for
// every int measure) fails at the call, pointing at the measure.
procedure Halve(k: int)
  measure k;
{
  if (k > 0) {
    call Halve(k - 2);
  }
}

// The measure stays the same: it could not be proved to decrease, at the call.
procedure Spin(k: int)
  requires k >= 0;
  measure k;
{
  call Spin(k);
}

// A global measure the body never changes; the callee sees it in the state after the
// assignment, the caller's in its entry state (`old`).
procedure Bump()
  requires g >= 0;
  measure g;
  modifies g;
{
  g := g + 1;
  call Bump();
}

// The loop counts up, so its measure goes up: reported at the block that jumps back (its
// first command, the assignment).
procedure Up()
{
  var n: int;
  n := 0;
  while (n < 10)
    measure n;
  {
    n := n + 2;
  }
}

// A measure negative on entry: the check that it is non-negative is part of the loop's
// invariant, so it fails on entry.
procedure Negative()
{
  var n: int;
  n := -1;
  while (n > 0)
    measure n;
  {
    n := n - 1;
  }
}

// A bool measure counts false below true: going from false to true is no decrease.
procedure Flip()
{
  var b: bool;
  var i: int;
  b := false;
  i := 0;
  while (i < 3)
    invariant i >= 0;
    measure b;
  {
    b := true;
    i := i + 1;
  }
}
