// Many implementations, some verified and some with errors and execution traces, for the
// /vcsCores tests (tests/vcs_cores.rs): the output must not depend on how many are checked
// at once.

var g: int;
function f(x: int): int;
axiom (forall x: int :: {f(x)} f(x) > x);

procedure Incr(x: int) returns (y: int)
  ensures y == x + 1;
{
  y := x + 1;
}

procedure Branches(x: int) returns (y: int)
  ensures y >= 0;
{
  if (x > 10) {
    y := x - 10;
  } else if (x > 0) {
    y := x;
  } else {
    y := x + 1;
  }
}

procedure Loop(n: int) returns (s: int)
  requires n >= 0;
  ensures s == n;
{
  var i: int;
  i := 0; s := 0;
  while (i < n)
    invariant i <= n;
    invariant s == i;
  {
    i := i + 1;
    s := s + 1;
  }
}

procedure BadLoop(n: int) returns (s: int)
  requires n >= 0;
  ensures s == 2 * n;
{
  var i: int;
  i := 0; s := 0;
  while (i < n)
    invariant i <= n;
    invariant s == i + i;
  {
    i := i + 1;
    s := s + 1;
  }
}

procedure Caller(x: int)
  modifies g;
{
  var y: int;
  call y := Incr(x);
  assert y > x;
  call y := Needs(y);
  g := y;
  assert g > 0;
}

procedure Needs(x: int) returns (y: int)
  requires x > 0;
  ensures y == x;
{
  y := x;
}

procedure Axioms(a: int, b: int)
{
  assert f(a) > a;
  assert f(f(b)) > b;
  if (a < b) {
    assert f(a) < f(b);
  }
}

procedure Several(a: int, b: int)
{
  if (a > 0) {
    assert b > 0;
  } else {
    assert b < 0;
  }
  assert a != b;
}

procedure Goto(x: int) returns (y: int)
  ensures y != 3;
{
  start:
    goto one, two;
  one:
    assume x > 0;
    y := x;
    goto done;
  two:
    assume x <= 0;
    y := 0 - x;
    goto done;
  done:
    return;
}

procedure Fine(x: int) returns (y: int)
  ensures y == x * 2;
{
  y := x + x;
}
