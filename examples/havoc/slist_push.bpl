// rboogie-options: /lib:havoc /prune:1
// Three pushes onto an acyclic singly-linked list (node { next at 0 }), with quantifier-free
// annotations only: the VC the ground instantiation gives has no quantifier (tests/havoc.rs
// checks the solver input).
//   n1->next = hd; n2->next = n1; n3->next = n2; return n3;
// The nodes are distinct objects (unique constants), start at offset 0, are not on the list
// from hd and are not blocking pointers. Proved: the new list ends at NULL, reaches hd (when
// there is one) and each node. Worked out: each write links a node that reaches nothing yet
// (its old next is overwritten) to a list ending at NULL, so no write closes a cycle, and
// the node pushed last reaches the two before it and hd.
const unique o1, o2, o3: ref;

procedure push3(hd: ptr) returns (r: ptr)
  requires Block[0, hd] == NULL && (hd == NULL || !Blocks(BS, hd));
  requires o1 != null && !Reach[0, hd, Ptr(o1, 0)] && !BS[Ptr(o1, 0)];
  requires o2 != null && !Reach[0, hd, Ptr(o2, 0)] && !BS[Ptr(o2, 0)];
  requires o3 != null && !Reach[0, hd, Ptr(o3, 0)] && !BS[Ptr(o3, 0)];
  modifies Mem;
  ensures Block[0, r] == NULL && (hd == NULL || Reach[0, r, hd]);
  ensures Reach[0, r, Ptr(o1, 0)] && Reach[0, r, Ptr(o2, 0)] && r == Ptr(o3, 0);
{
  Mem[Ptr(o1, 0)] := hd;
  Mem[Ptr(o2, 0)] := Ptr(o1, 0);
  Mem[Ptr(o3, 0)] := Ptr(o2, 0);
  r := Ptr(o3, 0);
}
