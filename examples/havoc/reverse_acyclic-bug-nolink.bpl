// rboogie-options: /lib:havoc /prune:1
// reverse_acyclic with a bug: the link update cur->next = r is dropped. The input list is
// left as it was, so the reversed part is lost from both lists and the list from r runs on
// into the rest: the invariants that the two lists make up the input list and are disjoint
// are not maintained.
// ERROR AT: 52
// Otherwise as reverse_acyclic.bpl:
// HAVOC's reverse_acyclic: in-place reversal of an acyclic singly-linked list.
//   typedef struct node { int data; struct node *next; } node;   data at 0, next at 4
//   node *reverse(node *hd) {
//     node *r = NULL, *cur = hd, *t;
//     while (cur != NULL) {
//       t = cur->next;
//       cur->next = r;
//       r = cur;
//       cur = t;
//     }
//     return r;
//   }
// A list is R_4's from its first node, empty if that is NULL. Preconditions: unless hd is
// NULL, the list from hd ends at NULL (B_4[hd] == NULL) and hd is not itself a blocking
// pointer or an integer (else the reversed list would end before it). Proved: no NULL
// dereference; no write makes a list cyclic; the list from the result ends at NULL (it is
// acyclic) and its head does not block; it has the same set of pointers as the input list;
// only the next fields of the input list's nodes change (modifies incr(list(hd, 4), 4)).

// The library's `axiom NULL == Ptr(null, 0)`, restated: /prune:1 sends an axiom without
// triggers only if it has {:include_dep}.
axiom {:include_dep} NULL == Ptr(null, 0);

procedure reverse(hd: ptr) returns (r: ptr)
  requires hd == NULL || (Block[4, hd] == NULL && !Blocks(BS, hd));
  modifies Mem;
  ensures r == NULL || (Block[4, r] == NULL && !Blocks(BS, r));
  ensures (forall x: ptr :: { Reach[4, r, x] } { old(Reach)[4, hd, x] }
    (r != NULL && Reach[4, r, x]) <==> (hd != NULL && old(Reach)[4, hd, x]));
  // modifies incr(list(hd, 4), 4)
  ensures (forall x: ptr :: { Mem[x] }
    Mem[x] == old(Mem)[x] || (hd != NULL && old(Reach)[4, hd, DECR(x, 4)]));
{
  var cur, t: ptr;
  r := NULL;
  cur := hd;
  while (cur != NULL)
    invariant cur == NULL || (Block[4, cur] == NULL && !Blocks(BS, cur));
    invariant r == NULL || (Block[4, r] == NULL && !Blocks(BS, r));
    // The input list is the rest (from cur) and the reversed part (from r), which are disjoint
    // (so cur->next = r closes no cycle).
    invariant (forall x: ptr :: { Reach[4, cur, x] } { Reach[4, r, x] } { old(Reach)[4, hd, x] }
      (hd != NULL && old(Reach)[4, hd, x])
      <==> (cur != NULL && Reach[4, cur, x]) || (r != NULL && Reach[4, r, x]));
    invariant (forall x: ptr :: { Reach[4, cur, x], Reach[4, r, x] }
      !(cur != NULL && Reach[4, cur, x] && r != NULL && Reach[4, r, x]));
    invariant (forall x: ptr :: { Mem[x] }
      Mem[x] == old(Mem)[x] || (hd != NULL && old(Reach)[4, hd, DECR(x, 4)]));
  {
    assert Obj(cur) != null;
    t := Mem[INCR(cur, 4)];
    // BUG: cur->next = r; is missing.
    r := cur;
    cur := t;
  }
}
