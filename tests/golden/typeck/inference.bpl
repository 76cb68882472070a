// A program that type-checks: polymorphic maps and functions, synonyms, bit-vector widths
// found by inference, lambdas, lets, datatypes.
type Field a;
type Ref;
type HeapType = <a>[Ref, Field a]a;
type Set a = [a]bool;
var Heap: HeapType;
const alloc: Field bool;
const next: Field Ref;
function Empty<a>(): Set a;
function Union<a>(s: Set a, t: Set a): Set a { (lambda x: a :: s[x] || t[x]) }
axiom (forall<a> x: a :: !Empty()[x]);
function {:inline} Twice(x: bv8): bv16 { x ++ x }
datatype List<T> { Nil(), Cons(head: T, tail: List T) }
function Len<T>(l: List T): int;
axiom (forall<T> l: List T :: l is Cons ==> Len(l) == 1 + Len(l->tail));
procedure P(r: Ref) returns (s: Set int) modifies Heap; {
  var b: bv32;
  var l: List int;
  Heap[r, alloc] := true;
  Heap[r, next] := Heap[r, next];
  s := Union(s, Empty());
  s[3] := (var y := 4; y > 2);
  b := Twice(1bv8) ++ Twice(2bv8);
  b := b[16:0] ++ b[32:16];
  l := Cons(1, Nil());
  l := l->(head := 2);
  assert l->head == 2;
}
