// OPTIONS: /noVerify --print-after monomorphize
// A polymorphic map type becomes a type with one field per instance used (here `int` and
// `bool`), each read by a selector function; a write is an update function with an axiom
// saying it changes its own field only, and `==` a function defined as every field equal.
type ref;
type Field a;
type Heap = <a>[ref, Field a]a;

const unique f: Field int;
const unique g: Field bool;

procedure P(h: Heap, o: ref) returns (h': Heap)
{
  h' := h[o, f := 1];
  assert h'[o, g] == h[o, g];
  assert h' != h ==> h[o, f] != 1;
}
