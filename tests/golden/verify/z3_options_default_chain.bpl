// OPTIONS: %s
// The chain of z3_options_act_in_every_session.bpl under Z3's default eager threshold (10)
// and lazy threshold (20): 25 instantiations deep is beyond both, so no assertion is proved.
// Each procedure fails at its assertion: 0 verified, 3 errors. (An error here, not a
// verification: `unknown` with incomplete quantifiers is reported as Boogie reports it.)

function P(x: int): bool;
axiom (forall x: int :: {P(x)} P(x) ==> P(x + 1));

procedure First()
{
  assume P(0);
  assert P(25);
}

procedure Second()
{
  assume P(0);
  assert P(25);
}

procedure Third(n: int)
{
  assume P(n);
  assert P(n + 25);
}
