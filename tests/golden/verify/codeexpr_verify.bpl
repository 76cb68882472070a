// OPTIONS: /timeLimit:30
// Code expressions that hold: each is the VC of its blocks, its locals universally
// quantified. In an assertion every path must pass its assertions and return true; in an
// assumption (and on the right of ==>, under no negation) Boogie negates the returns and the
// whole, so the code expression says some path returns true.
function f(int): int;

procedure Max(x: int, y: int) returns (m: int)
  ensures |{ var big: bool;
             Entry: big := x <= y; goto Left, Right;
             Left: assume big; return m == y;
             Right: assume !big; return m == x; }|;
{
  if (x <= y) { m := y; } else { m := x; }
}

procedure UsesMax(a: int)
{
  var r: int;
  call r := Max(a, 3);
  assert r >= 3 && r >= a;
}

procedure Locals(x: int)
{
  // a map local updated in place, a havocked local, an assertion inside
  assert |{ var m: [int]int, h: int;
            A: m[x] := 5; havoc h; assert m[x] == 5; goto B;
            B: m[x + 1] := h; return m[x] == 5 && m[x + 1] == h; }|;
}

procedure Assumed(x: int)
{
  // assumed: some path returns true, here the only one, so x > 0
  assume |{ var p: bool; A: p := x > 0; return p; }|;
  assert x > 0;
  // negated: no path returns true
  assume !|{ B: return f(x) == 2; }|;
  assert f(x) != 2;
}

procedure Value(x: int) returns (z: bool)
  ensures z == (x < 3);
{
  z := |{ var a: bool; L: a := x < 3; return a; }|;
}

// A call in a code expression is inlined into it (its variables become the code
// expression's locals): here `Double`'s body makes the returned value 2 * x.
procedure {:inline 1} Double(x: int) returns (y: int)
{
  y := x + x;
}

procedure Inlined(x: int)
{
  assert |{ var d: int; A: call d := Double(x); return d == 2 * x; }|;
}
