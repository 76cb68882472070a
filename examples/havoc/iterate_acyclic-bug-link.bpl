// rboogie-options: /lib:havoc /prune:1
// iterate_acyclic with a bug: CONTAINING_RECORD is dropped (elem = (A *) iter), so
// elem->data = 42 writes 42 into iter->Next. The list is cut after iter, and iter becomes the
// integer 42, neither NULL nor on the list: the invariant that iter stays on the list is not
// maintained.
// ERROR AT: 45
// Otherwise as iterate_acyclic.bpl:
// HAVOC's iterate_acyclic: Fig. 2's iteration over an acyclic list that ends at NULL.
//   typedef struct _SLIST { struct _SLIST *Next; } SLIST;   Next at 0
//   typedef struct { int data; SLIST link; } A;              data at 0, link.Next at 4
//   void list_iterate_acyclic(SLIST *hd) {
//     SLIST *iter = hd;
//     while (iter != NULL) {
//       A *elem = CONTAINING_RECORD(iter, A, link);         iter - 4
//       elem->data = 42;
//       iter = iter->Next;
//     }
//   }
// The list is R_0's from hd (pointers to link fields); it is empty if hd is NULL.
// Preconditions: unless hd is NULL, the list ends at NULL (B_0[hd] == NULL) and each of its
// pointers is at offset 4 of an object (not an integer). Proved: no NULL dereference; only
// the data fields of the list's objects change (modifies decr(list(hd, 0), 4)); the list is
// the same set of pointers and still ends at NULL; every element's data is 42.

// The library's `axiom NULL == Ptr(null, 0)`, restated: /prune:1 sends an axiom without
// triggers only if it has {:include_dep}.
axiom {:include_dep} NULL == Ptr(null, 0);

procedure list_iterate_acyclic(hd: ptr)
  requires hd == NULL || Block[0, hd] == NULL;
  requires (forall x: ptr :: { Reach[0, hd, x] }
    hd != NULL && Reach[0, hd, x] ==> Off(x) == 4 && Obj(x) != null);
  modifies Mem;
  // modifies decr(list(hd, 0), 4)
  ensures (forall x: ptr :: { Mem[x] }
    Mem[x] == old(Mem)[x] || (hd != NULL && old(Reach)[0, hd, INCR(x, 4)]));
  ensures hd == NULL || Block[0, hd] == NULL;
  ensures (forall x: ptr :: { Reach[0, hd, x] } Reach[0, hd, x] <==> old(Reach)[0, hd, x]);
  ensures (forall x: ptr :: { Reach[0, hd, x] }
    hd != NULL && Reach[0, hd, x] ==> Mem[DECR(x, 4)] == INT(42));
{
  var iter, elem: ptr;
  iter := hd;
  while (iter != NULL)
    invariant iter == NULL || (hd != NULL && Reach[0, hd, iter]);
    invariant hd == NULL || Block[0, hd] == NULL;
    invariant (forall x: ptr :: { Reach[0, hd, x] } Reach[0, hd, x] <==> old(Reach)[0, hd, x]);
    invariant (forall x: ptr :: { Reach[0, hd, x] }
      hd != NULL && Reach[0, hd, x] ==> Off(x) == 4 && Obj(x) != null);
    invariant (forall x: ptr :: { Mem[x] }
      Mem[x] == old(Mem)[x] || (hd != NULL && old(Reach)[0, hd, INCR(x, 4)]));
    // The elements before iter are done (all of them once iter is NULL).
    invariant (forall x: ptr :: { Reach[0, hd, x] }
      hd != NULL && Reach[0, hd, x] && (iter == NULL || !Reach[0, iter, x])
      ==> Mem[DECR(x, 4)] == INT(42));
  {
    assert Obj(iter) != null;
    elem := iter;  // BUG: should be DECR(iter, 4)
    Mem[elem] := INT(42);
    iter := Mem[iter];
  }
}
