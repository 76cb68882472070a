// OPTIONS: /timeLimit:30
// Where pool instantiation must not go: replacing a quantifier by its instances is sound
// only for a forall that is assumed or an exists to prove, and skolemizing only for a forall
// to prove or an exists that is assumed. Every assertion below is false in some model.
function Q(int): bool;
function R(int, int): bool;

// Under `==` a quantifier is both assumed and proved: it stays beside its instances.
procedure UnderEquality()
{
  assume Q(0);
  assert {:add_to_pool "P", 0} (forall {:pool "P"} k: int :: Q(k)) == true;  // error
}

// A forall to prove that mentions a let-bound variable is not skolemized; its instances
// alone would not prove it.
procedure LetBound()
{
  assume Q(1);
  assert {:add_to_pool "P", 0} (var a := 1; (forall {:pool "P"} k: int :: Q(k + a)));  // error
}

// An exists to prove is not skolemized: its pool terms do not join the pool.
procedure ExistsGoal()
{
  assume (forall {:pool "P"} k: int :: R(k, k));
  assert (exists j: int :: {:add_to_pool "P", j} !R(j, j));  // error
}

// Each instance of an exists gets its own skolem constants.
procedure DistinctSkolems(a: int, b: int)
{
  assume (forall {:pool "P"} k: int :: (exists m: int :: R(k, m)));
  assert {:add_to_pool "P", a} {:add_to_pool "P", b} (exists m: int :: R(a, m) && R(b, m));  // error
}
