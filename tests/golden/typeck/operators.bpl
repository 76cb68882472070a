// Operators on the wrong types: arithmetic, comparison, logic, if-then-else, coercions.
const i: int;
const r: real;
const b: bool;
axiom i + r > 0;
axiom !i;
axiom -b == 0;
axiom b && i;
axiom (if i then 1 else 2) == 1;
axiom (if b then 1 else true) == 1;
axiom int(i) == 0;
axiom real(r) == 0.0;
axiom i ** 2 == 0;
axiom r div 2.0 == 1.0;
axiom (i: bool);
axiom i;
procedure P(x: int) {
  var y: bool;
  y := x;
  y := x + 1 < 3;
  assert x;
  assume i == r;
}
