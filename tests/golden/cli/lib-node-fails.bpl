// OPTIONS: /lib:base /lib:node
// Calling the lemma without its preconditions: nothing says the list from head is in the
// heap's domain or ends, so both preconditions (in node.bpl) fail, and reachability says
// nothing about the node after next. Three errors.
procedure Pop(head: Option Loc, heap: Map (One Loc) (Node int)) returns (next: Option Loc)
{
  call StackAbsLemma(head, heap);
  next := Map_At(heap, One(head->t))->next;
  assert next == None();
}
