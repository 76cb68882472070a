// rboogie-options: /lib:havoc
// PENDING (not run by tests/havoc.rs): with the quantified axioms the invariants at lines
// 33 and 40 (the done elements, the successor's reachability assertion) are not proved yet;
// the ground instantiation of issue 18 is what should prove them.
// HAVOC's Fig. 2: iterate over a circular list of objects of type A linked through the field
// `link` (LIST_ENTRY: Flink at offset 0 of it, Blink at 4), setting each object's `data` to
// 42. The head is the field `a` of the global structure g: &g.a is Ptr(g, 0).
//   typedef struct { int data; LIST_ENTRY link; } A;   data at 0, link.Flink at 4
// The list is R_0's from g.a.Flink: it stops at its block, &g.a (in BS). Proved: every
// element's data is 42 at the end; only data fields (offset -4 from the list's pointers) are
// written, so the list itself is unchanged.
const g: ref;
axiom g != null;

procedure list_iterate()
  requires BS[Ptr(g, 0)] && Block[0, Ptr(g, 0)] == Ptr(g, 0);
  requires (forall x: ptr :: Reach[0, Mem[Ptr(g, 0)], x] ==> x == Ptr(g, 0) || Off(x) == 4);
  requires (forall x: ptr :: Reach[0, Mem[Ptr(g, 0)], x] ==> x == Ptr(g, 0) || (Obj(x) != g && Obj(x) != null));
  modifies Mem;
  // modifies decr(list(g.a.Flink, 0), 4): every other location keeps its contents.
  ensures (forall x: ptr :: old(Reach)[0, old(Mem)[Ptr(g, 0)], INCR(x, 4)] || Mem[x] == old(Mem)[x]);
  ensures (forall x: ptr :: Reach[0, Mem[Ptr(g, 0)], x] ==> x == Ptr(g, 0) || Mem[DECR(x, 4)] == INT(42));
{
  var iter, elem: ptr;
  iter := Mem[Ptr(g, 0)];
  while (iter != Ptr(g, 0))
    invariant Mem[Ptr(g, 0)] == old(Mem)[Ptr(g, 0)];
    invariant Reach[0, Mem[Ptr(g, 0)], iter] || iter == Ptr(g, 0);
    invariant (forall x: ptr :: Reach[0, Mem[Ptr(g, 0)], x] <==> old(Reach)[0, old(Mem)[Ptr(g, 0)], x]);
    invariant (forall x: ptr :: Reach[0, Mem[Ptr(g, 0)], x] ==> x == Ptr(g, 0) || Off(x) == 4);
    invariant (forall x: ptr :: Reach[0, Mem[Ptr(g, 0)], x] ==> x == Ptr(g, 0) || (Obj(x) != g && Obj(x) != null));
    // The elements before iter are done (all of them once iter is back at the head).
    invariant (forall x: ptr :: Reach[0, Mem[Ptr(g, 0)], x] && (iter == Ptr(g, 0) || !Reach[0, iter, x])
      ==> x == Ptr(g, 0) || Mem[DECR(x, 4)] == INT(42));
    invariant (forall x: ptr :: old(Reach)[0, old(Mem)[Ptr(g, 0)], INCR(x, 4)] || Mem[x] == old(Mem)[x]);
  {
    elem := DECR(iter, 4);
    Mem[elem] := INT(42);
    // The link read is one step of the list: before its block, iter's successor is on it.
    assert Reach[0, iter, Mem[iter]] && Block[0, iter] == Block[0, Mem[Ptr(g, 0)]];
    iter := Mem[iter];
  }
}
