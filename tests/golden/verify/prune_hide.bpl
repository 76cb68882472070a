// OPTIONS: /prune:1 /timeLimit:30
// Under /prune, `hide *` leaves a function's `hideable` axioms out of the VC (Boogie's
// revealed-state analysis): `Hides` cannot prove what the axiom says. Without `hide`,
// `hideable` axioms are sent as any other, and `Reveals` verifies.
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
