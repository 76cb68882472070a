// OPTIONS: %s
// Axiom names ({:name "..."}) must be unique in the program as written, but monomorphization
// copies a polymorphic function's `uses` axioms once per instance: `Same` is used at int and
// at bool, so `same_def` occurs twice in its output. That is not an error (Boogie
// monomorphizes after resolution and never resolves the result again).
//
// Expected, worked out by hand: each instance's copy of `same_def` says Same(x) == x at its
// type, so the three assertions of `Uses` hold: verified. `Fails` asserts Same(3) == 4,
// which contradicts the int copy: 1 error at line 23. So 1 verified, 1 error.
function Same<T>(x: T): T uses {
  axiom {:name "same_def"} (forall<T> x: T :: Same(x) == x);
}

procedure Uses(a: int, b: bool)
{
  assert Same(a) == a;
  assert Same(b) == b;
  assert Same(Same(a)) == a;
}

procedure Fails()
{
  assert Same(3) == 4;
}
