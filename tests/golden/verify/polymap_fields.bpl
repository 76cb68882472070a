// OPTIONS: /timeLimit:30
// A polymorphic heap gets one field per instance used (here `int` and `bool`), as Boogie's
// one-constructor datatype has: two heaps are equal exactly when their fields are, and an
// update changes its own field at its own location only.
// Worked out by hand:
// - `equal_when_fields_are`: the quantifier is instantiated at int and bool, the only
//   fields, so h1 and h2 agree on every field: they are equal (verified);
// - `update_keeps_other_fields`: writing field g (bool) leaves field f (int) alone, and
//   writing f at o leaves f at p != o alone (verified);
// - `generic_store`: a polymorphic procedure, verified at a fresh type for T: the store
//   sets its own field (verified);
// - `update_changes_the_heap`: h[o, f := 1] equals h only when h[o, f] was 1 already,
//   which nothing says (1 error, at the assertion).
type ref;
type Field a;
type Heap = <a>[ref, Field a]a;

const unique f: Field int;
const unique g: Field bool;

procedure equal_when_fields_are(h1: Heap, h2: Heap)
  requires (forall<a> o: ref, x: Field a :: h1[o, x] == h2[o, x]);
{
  assert h1 == h2;
}

procedure update_keeps_other_fields(h: Heap, o: ref, p: ref)
  requires o != p;
{
  assert h[o, g := true][o, f] == h[o, f];
  assert h[o, f := 1][p, f] == h[p, f];
  assert h[o, f := 1][o, f] == 1;
}

procedure generic_store<T>(h: Heap, o: ref, x: Field T, v: T) returns (h': Heap)
  ensures h'[o, x] == v;
{
  h' := h[o, x := v];
}

procedure update_changes_the_heap(h: Heap, o: ref)
{
  assert h[o, f := 1] == h;
}
