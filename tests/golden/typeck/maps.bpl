// Maps: arity, index and value types, stores, map assignments, polymorphic maps.
type Field a;
type Ref;
const Heap: <a>[Ref, Field a]a;
var H: <a>[Ref, Field a]a;
const f: Field int;
const g: Field bool;
const o: Ref;
const m: [int]bool;
axiom m[1, 2];
axiom m[true];
axiom m[0] == 3;
axiom m[0 := 5] == m;
axiom m[false := true] == m;
axiom Heap[o, f] == 1;
axiom Heap[o, g] == 1;
axiom Heap[f, o] == 1;
axiom i[0];
const i: int;
procedure P() modifies H; {
  var n: [int][bool]int;
  H[o, f] := true;
  H[o, g] := true;
  H[o] := 0;
  n[0][1] := 2;
  n[0][true] := 2;
  n[0] := n[1];
  n[0] := m;
}
