// OPTIONS: /prune:1 /timeLimit:30
// Boogie's `hide` under /prune hides `hideable` axioms by a dataflow analysis rboogie does not
// implement yet: an implementation that hides is refused (inconclusive), never checked with
// axioms Boogie would leave out. Without `hide`, `hideable` axioms are sent as any other.
function Inc(x: int): int uses {
  hideable axiom (forall x: int :: {Inc(x)} Inc(x) == x + 1);
}

procedure Hides()
{
  hide *;
  assert Inc(1) == 2;
}

procedure Reveals()
{
  assert Inc(1) == 2;
}
