// Quantifier and lambda rules: boolean bodies, type variables that the bound variables or
// the triggers must mention.
function Poly<a>(): a;
function F<a>(x: a): int;
axiom (forall x: int :: x + 1);
axiom (forall<a> x: int :: {F(x)} F(x) == 0);
axiom (forall<a> x: int :: {F(x), Poly(): a} F(x) == 0);
axiom (var m := (lambda<b> x: int :: x + 1); m[0] == 1);
axiom (exists x: int :: x == true);
