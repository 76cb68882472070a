// OPTIONS: /timeLimit:30
// A polymorphic function in an attribute whose type argument the context fixes (here a
// coercion) is instantiated like any other call: the program is monomorphized and verifies.
function Empty<T>(): [T]bool;
axiom (forall<T> x: T :: !Empty()[x]);

procedure UsesEmpty(k: int)
{
  assume {:add_to_pool "Sets", Empty(): [int]bool} true;
  assert !(Empty(): [int]bool)[k];
}
