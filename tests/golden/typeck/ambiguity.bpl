// Type parameters inference leaves open: warnings, and the default Boogie picks.
function Poly<a>(): a;
function Size<a>(x: a): int;
const p: <a>[]a;
const c: bv8;
axiom Poly() == Poly();
axiom Size(Poly()) == 0;
axiom p[] ++ c == 0bv16;
axiom p[][1 := true] == p[];
