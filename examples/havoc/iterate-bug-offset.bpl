// rboogie-options: /lib:havoc /prune:1
// iterate with a bug, an off-by-one offset: CONTAINING_RECORD(iter, A, link) is dropped, so
// `elem->data = 42` writes 42 into iter->Flink (offset 0 of the link, not the data field at
// -4). The write cuts the list there, so the list is no longer the one it was.
// ERROR AT: 42
// Otherwise as iterate.bpl: HAVOC's Fig. 2: iterate over a circular list of objects of type A linked through the field
// `link` (a LIST_ENTRY), setting each object's `data` to 42.
//   typedef struct { int data; LIST_ENTRY link; } A;     data at 0, link.Flink at 4
//   struct { LIST_ENTRY a; } g;                          &g.a is Ptr(g, 0)
//   void list_iterate() {
//     LIST_ENTRY *iter = g.a.Flink;
//     while (iter != &(g.a)) {
//       A *elem = CONTAINING_RECORD(iter, A, link);     iter - 4
//       elem->data = 42;
//       iter = iter->Flink;
//     }
//   }
// The list is R_0's from g.a.Flink; it stops at its block &g.a, which is in BS. Proved, as in
// the paper: every element's data is 42 at the end, and only the data fields of the list's
// objects change (modifies decr(list(g.a.Flink, 0), 4)), so the list itself is unchanged.
const g: ref;
axiom g != null;

procedure list_iterate()
  requires BS[Ptr(g, 0)] && Block[0, Ptr(g, 0)] == Ptr(g, 0);
  requires (forall x: ptr :: { Reach[0, Mem[Ptr(g, 0)], x] }
    Reach[0, Mem[Ptr(g, 0)], x] ==> x == Ptr(g, 0) || (Off(x) == 4 && Obj(x) != g && Obj(x) != null));
  modifies Mem;
  // modifies decr(list(g.a.Flink, 0), 4)
  ensures (forall x: ptr :: { Mem[x] } old(Reach)[0, old(Mem)[Ptr(g, 0)], INCR(x, 4)] || Mem[x] == old(Mem)[x]);
  ensures (forall x: ptr :: { Reach[0, Mem[Ptr(g, 0)], x] }
    Reach[0, Mem[Ptr(g, 0)], x] <==> old(Reach)[0, old(Mem)[Ptr(g, 0)], x]);
  ensures (forall x: ptr :: { Reach[0, Mem[Ptr(g, 0)], x] }
    Reach[0, Mem[Ptr(g, 0)], x] ==> x == Ptr(g, 0) || Mem[DECR(x, 4)] == INT(42));
{
  var h, iter, elem: ptr;
  // h names g.a.Flink, which the loop never writes (the annotations' `list(g.a.Flink, 0)`).
  h := Mem[Ptr(g, 0)];
  iter := h;
  while (iter != Ptr(g, 0))
    invariant Mem[Ptr(g, 0)] == h && h == old(Mem)[Ptr(g, 0)];
    invariant Reach[0, h, iter] || iter == Ptr(g, 0);
    invariant Block[0, h] == Ptr(g, 0);
    invariant (forall x: ptr :: { Reach[0, h, x] } Reach[0, h, x] <==> old(Reach)[0, h, x]);
    invariant (forall x: ptr :: { Reach[0, h, x] }
      Reach[0, h, x] ==> x == Ptr(g, 0) || (Off(x) == 4 && Obj(x) != g && Obj(x) != null));
    invariant (forall x: ptr :: { Mem[x] } old(Reach)[0, h, INCR(x, 4)] || Mem[x] == old(Mem)[x]);
    // The elements before iter are done (all of them once iter is back at the head).
    invariant (forall x: ptr :: { Reach[0, h, x] }
      Reach[0, h, x] && (iter == Ptr(g, 0) || !Reach[0, iter, x]) ==> x == Ptr(g, 0) || Mem[DECR(x, 4)] == INT(42));
  {
    elem := iter;  // the bug: CONTAINING_RECORD dropped
    Mem[elem] := INT(42);
    iter := Mem[iter];
  }
}
