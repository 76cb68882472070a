// OPTIONS: /noVerify --print-after monomorphize
// A polymorphic map type becomes Boogie's one-constructor datatype, one field per instance
// used (here `int` and `bool`, the fields' names are the selectors'); a read is a field
// access, a write an update function defined by its body, and `==` stays `==`.
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
