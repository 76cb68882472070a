// rboogie-options: /lib:havoc
// slist_add with a bug: n may already be in the list, and n->next = hd then closes a cycle
// that no blocking pointer breaks. The write is reported. Otherwise as slist_add.bpl:
// ERROR AT: 23
// HAVOC's slist_add: add a node at the front of an acyclic singly-linked list.
//   typedef struct node { struct node *next; int data; } node;   next at offset 0
//   node *slist_add(node *hd, node *n) { n->next = hd; return n; }
// The list from hd is acyclic: it ends at NULL (its block for offset 0), and hd is not itself
// a blocking pointer or another integer (else the new list would end at hd). The new node n is a
// pointer to the start of an object (offset 0), not already in the list. Proved: the list
// from the result is acyclic, holds n, and holds every node of the old list; nothing but
// n->next is written.
procedure slist_add(hd: ptr, n: ptr) returns (r: ptr)
  requires Block[0, hd] == NULL && (hd == NULL || !Blocks(BS, hd));
  requires Obj(n) != null && Off(n) == 0;
  // BUG: the precondition that n is not already in the list is missing.
  modifies Mem;
  ensures Block[0, r] == NULL;
  ensures Reach[0, r, n] && r == n;
  ensures hd == NULL || Reach[0, r, hd];
  ensures (forall x: ptr :: x == n || Mem[x] == old(Mem)[x]);
{
  Mem[n] := hd;
  r := n;
}
