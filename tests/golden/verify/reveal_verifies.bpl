// OPTIONS: /prune:1 /vcsSplitOnEveryAssert /timeLimit:30
// Every assertion verifies: each VC (one per assertion) gets the hideable axioms of the
// functions revealed where it is checked. `Twice` is revealed inside the scope, `Half` on the
// one branch that asserts about it, and `Always` is a `revealed function`, never hidden.
function Twice(n: int): int uses {
  hideable axiom (forall n: int :: {Twice(n)} Twice(n) == n + n);
}
function Half(n: int): int uses {
  hideable axiom (forall n: int :: {Half(n)} Half(n) == n div 2);
}
revealed function Always(n: int): int uses {
  hideable axiom (forall n: int :: {Always(n)} Always(n) == 7);
}

procedure Scoped(k: int)
{
  hide *;
  push;
  reveal Twice;
  assert Twice(k) == 2 * k;
  pop;
  if (k > 0) {
    reveal Half;
    assert Half(6) == 3;
  } else {
    assert Always(k) == 7;
  }
}
