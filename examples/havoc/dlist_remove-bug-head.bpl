// rboogie-options: /lib:havoc /prune:1
// dlist_remove with a missing precondition: Entry may be the list head h itself. Removing
// it makes Blink->Flink = Flink link the last entry to the first, a Flink cycle without the
// blocking pointer h; the write is reported.
// ERROR AT: 64
// Otherwise as dlist_remove.bpl, which says:
// HAVOC's dlist_remove (section 7): RemoveEntryList of the Windows kernel, on a cyclic
// doubly-linked list of LIST_ENTRY fields.
//   typedef struct _LIST_ENTRY {
//     struct _LIST_ENTRY *Flink;                  offset 0
//     struct _LIST_ENTRY *Blink;                  offset 4
//   } LIST_ENTRY;
//   typedef struct { int data; LIST_ENTRY link; } A;      link at offset 4
//   BOOLEAN RemoveEntryList(LIST_ENTRY *Entry) {
//     LIST_ENTRY *Flink = Entry->Flink;
//     LIST_ENTRY *Blink = Entry->Blink;
//     Blink->Flink = Flink;
//     Flink->Blink = Blink;
//     return Flink == Blink;
//   }
// The list head h is a ghost parameter. Preconditions: the list of head h (in BS) is cyclic
// through h forwards (R_0, B_0[h] == h) and backwards (R_4, B_4[h] == h), and well formed:
// the same entries both ways; each entry is h or the link of an A object other than h's;
// each entry's Flink and Blink are entries; each entry is the Blink of its Flink and the
// Flink of its Blink. Entry e is on the list and is not h. (That Flink and Blink of entries
// are entries follows from the theory; it is stated because the ground instances do not
// cover the terms the solver makes from the quantified preconditions.)
// Proved: the list stays cyclic through h both ways and well formed; its entries are the old
// ones but e (on both R_0 and R_4); only Blink->Flink and Flink->Blink change. (The result,
// whether the list became empty, is not specified.)
function {:inline} Link(h: ptr, x: ptr): bool { x == h || (Off(x) == 4 && Obj(x) != Obj(h)) }

procedure RemoveEntryList(h: ptr, e: ptr) returns (r: bool)
  requires BS[h] && Obj(h) != null;
  requires Block[0, h] == h && Block[4, h] == h;
  requires (forall x: ptr :: { Reach[0, h, x] } Reach[0, h, x] ==> Link(h, x) && Reach[4, h, x]);
  requires (forall x: ptr :: { Reach[4, h, x] } Reach[4, h, x] ==> Reach[0, h, x]);
  requires (forall x: ptr :: { Reach[0, h, x], Mem[x] } Reach[0, h, x] ==> Reach[0, h, Mem[x]]);
  requires (forall x: ptr :: { Reach[4, h, x], Mem[INCR(x, 4)] } Reach[4, h, x] ==> Reach[4, h, Mem[INCR(x, 4)]]);
  requires (forall x: ptr :: { Mem[INCR(Mem[x], 4)] } Reach[0, h, x] ==> Mem[INCR(Mem[x], 4)] == x);
  requires (forall x: ptr :: { Mem[Mem[INCR(x, 4)]] } Reach[4, h, x] ==> Mem[Mem[INCR(x, 4)]] == x);
  requires Reach[0, h, e];  // BUG: && e != h is missing
  modifies Mem;
  ensures Block[0, h] == h && Block[4, h] == h;
  ensures (forall x: ptr ::
       (Reach[0, h, x] <==> old(Reach)[0, h, x] && x != e)
    && (Reach[4, h, x] <==> old(Reach)[4, h, x] && x != e)
    && (Reach[0, h, x] ==> Link(h, x) && Reach[4, h, x])
    && (Reach[4, h, x] ==> Reach[0, h, x])
    && (Reach[0, h, x] ==> Reach[0, h, Mem[x]])
    && (Reach[4, h, x] ==> Reach[4, h, Mem[INCR(x, 4)]])
    && (Reach[0, h, x] ==> Mem[INCR(Mem[x], 4)] == x)
    && (Reach[4, h, x] ==> Mem[Mem[INCR(x, 4)]] == x)
    && (Mem[x] == old(Mem)[x] || x == old(Mem)[INCR(e, 4)] || x == INCR(old(Mem)[e], 4)));
{
  var fl, bl: ptr;
  fl := Mem[e];
  bl := Mem[INCR(e, 4)];
  assert Obj(fl) != null && Obj(bl) != null;  // no NULL dereference below
  // A fact of the theory (Fig. 7: R_4[Mem[fl + 4]] = R_4[fl] \ {fl}, with Mem[fl + 4] == e):
  // fl is on e's Blink list only if e blocks. Stated so that the ground instances name this
  // pair, which the check of Flink->Blink = Blink (no Blink cycle) needs.
  assert Reach[4, e, fl] ==> BS[e];
  Mem[bl] := fl;
  Mem[INCR(fl, 4)] := bl;
  r := fl == bl;
}
