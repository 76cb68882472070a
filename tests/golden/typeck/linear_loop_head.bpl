// OPTIONS: /lib:base
// Boogie's linear checker also wants every linear global available at each loop head (of a
// reducible control-flow graph), reported at the loop. Errors worked out by hand: five.
// OutAcross moves g out before the loop and back after it: unavailable at the loop head
// only (one). OutInBody moves g out in the body and never back: unavailable at the head (the
// back edge brings it without g) and at the return, which is the loop's exit (two). Nested
// moves g out around two nested loops: one error at each head (two). InAndBack, which moves
// g out and back inside the body, and NoLoop have none.

type Elem;
var {:linear} g: One Elem;

procedure OutAcross(n: int)
  modifies g;
{
  var t: One Elem;
  var i: int;
  t := g;
  i := 0;
  while (i < n) {
    i := i + 1;
  }
  g := t;
}

procedure OutInBody(n: int)
  modifies g;
{
  var t: One Elem;
  var i: int;
  i := 0;
  while (i < n) {
    t := g;
    i := i + 1;
  }
}

procedure Nested(n: int)
  modifies g;
{
  var t: One Elem;
  var i: int;
  var j: int;
  t := g;
  i := 0;
  while (i < n) {
    j := 0;
    while (j < i) {
      j := j + 1;
    }
    i := i + 1;
  }
  g := t;
}

procedure InAndBack(n: int)
  modifies g;
{
  var t: One Elem;
  var i: int;
  i := 0;
  while (i < n) {
    t := g;
    g := t;
    i := i + 1;
  }
}

procedure NoLoop()
  modifies g;
{
  var t: One Elem;
  t := g;
  g := t;
}
