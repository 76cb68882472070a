// rboogie-options: /lib:havoc /prune:1
// dlist_add with Flink and Blink confused: Flink->Flink = Entry is written (offset 0) instead
// of Flink->Blink = Entry (offset 4). When the list is not empty, e->Flink is Flink and
// Flink->Flink = e closes a Flink cycle through e and Flink that no blocking pointer breaks;
// the write is reported.
// ERROR AT: 62
// Otherwise as dlist_add.bpl, which says:
// HAVOC's dlist_add (section 7): InsertHeadList of the Windows kernel, on a cyclic
// doubly-linked list of LIST_ENTRY fields.
//   typedef struct _LIST_ENTRY {
//     struct _LIST_ENTRY *Flink;                  offset 0
//     struct _LIST_ENTRY *Blink;                  offset 4
//   } LIST_ENTRY;
//   typedef struct { int data; LIST_ENTRY link; } A;      link at offset 4
//   void InsertHeadList(LIST_ENTRY *ListHead, LIST_ENTRY *Entry) {
//     LIST_ENTRY *Flink = ListHead->Flink;
//     Entry->Flink = Flink;
//     Entry->Blink = ListHead;
//     Flink->Blink = Entry;
//     ListHead->Flink = Entry;
//   }
// Preconditions: the list of head h (in BS) is cyclic through h forwards (R_0, B_0[h] == h)
// and backwards (R_4, B_4[h] == h), and well formed: the same entries both ways; each entry
// is h or the link of an A object other than h's; each entry's Flink and Blink are entries;
// each entry is the Blink of its Flink and the Flink of its Blink. Entry e is the link of an
// A object (offset 4), not in BS and not on the list. (That Flink and Blink of entries are
// entries follows from the theory; it is stated because the ground instances do not cover
// the terms the solver makes from the quantified preconditions.)
// Proved: the list stays cyclic through h both ways and well formed; its entries are the old
// ones and e (on both R_0 and R_4), e comes right after h; only the four link fields written
// change.
function {:inline} Link(h: ptr, x: ptr): bool { x == h || (Off(x) == 4 && Obj(x) != Obj(h)) }

procedure InsertHeadList(h: ptr, e: ptr)
  requires BS[h] && Obj(h) != null;
  requires Block[0, h] == h && Block[4, h] == h;
  requires (forall x: ptr :: { Reach[0, h, x] } Reach[0, h, x] ==> Link(h, x) && Reach[4, h, x]);
  requires (forall x: ptr :: { Reach[4, h, x] } Reach[4, h, x] ==> Reach[0, h, x]);
  requires (forall x: ptr :: { Reach[0, h, x], Mem[x] } Reach[0, h, x] ==> Reach[0, h, Mem[x]]);
  requires (forall x: ptr :: { Reach[4, h, x], Mem[INCR(x, 4)] } Reach[4, h, x] ==> Reach[4, h, Mem[INCR(x, 4)]]);
  requires (forall x: ptr :: { Mem[INCR(Mem[x], 4)] } Reach[0, h, x] ==> Mem[INCR(Mem[x], 4)] == x);
  requires (forall x: ptr :: { Mem[Mem[INCR(x, 4)]] } Reach[4, h, x] ==> Mem[Mem[INCR(x, 4)]] == x);
  requires Off(e) == 4 && Obj(e) != null && Obj(e) != Obj(h) && !BS[e] && !Reach[0, h, e];
  modifies Mem;
  ensures Block[0, h] == h && Block[4, h] == h;
  ensures Mem[h] == e && Mem[e] == old(Mem)[h] && Mem[INCR(e, 4)] == h;
  ensures (forall x: ptr ::
       (Reach[0, h, x] <==> old(Reach)[0, h, x] || x == e)
    && (Reach[4, h, x] <==> old(Reach)[4, h, x] || x == e)
    && (Reach[4, h, x] ==> Reach[0, h, x])
    // the entries are now the old ones and e: each is well formed
    && (old(Reach)[0, h, x] || x == e ==> Link(h, x) && Reach[4, h, x]
          && Reach[0, h, Mem[x]] && Reach[4, h, Mem[INCR(x, 4)]]
          && Mem[INCR(Mem[x], 4)] == x && Mem[Mem[INCR(x, 4)]] == x)
    && (Mem[x] == old(Mem)[x] || x == h || x == e || x == INCR(e, 4) || x == INCR(old(Mem)[h], 4)));
{
  var f: ptr;
  f := Mem[h];
  assert Obj(f) != null;  // Flink->Blink below dereferences no NULL
  Mem[e] := f;
  Mem[INCR(e, 4)] := h;
  Mem[f] := e;  // BUG: Flink->Flink instead of Flink->Blink
  Mem[h] := e;
}
