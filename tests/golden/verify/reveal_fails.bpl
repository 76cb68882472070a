// OPTIONS: /prune:1 /vcsSplitOnEveryAssert /errorTrace:0 /timeLimit:30
// Two assertions fail for want of a hidden axiom: after `pop` the `reveal` inside the scope
// is forgotten (line 17), and a `reveal` on one branch does not reach the other (line 21).
// The assertion on line 19 holds: its branch revealed `Sq`.
function Sq(n: int): int uses {
  hideable axiom (forall n: int :: {Sq(n)} Sq(n) == n * n);
}

procedure Forgets(k: int)
{
  hide Sq;
  push;
  reveal Sq;
  assert Sq(3) == 9;
  pop;
  if (k == 0) {
    assert Sq(2) == 4;
  } else if (k == 1) {
    reveal Sq; assert Sq(4) == 16;
  } else {
    assert Sq(5) == 25;
  }
}
