// OPTIONS: /lib:node /lib:base
// /lib:node builds on /lib:base (given in either order): lists of Node in a heap of Loc.
// The lemma's preconditions are Pop's own, and one step along next is an axiom of
// Between: Pop verifies.
procedure Pop(head: Option Loc, heap: Map (One Loc) (Node int)) returns (next: Option Loc, v: int)
  requires head != None() && Map_Contains(heap, One(head->t));
  requires InDomain(heap, head);
{
  call StackAbsLemma(head, heap);
  next := Map_At(heap, One(head->t))->next;
  v := Map_At(heap, One(head->t))->val;
  assert Between(heap->val, head, next, next);
}
