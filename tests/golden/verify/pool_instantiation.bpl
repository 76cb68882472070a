// OPTIONS: /timeLimit:30
// Pool-based instantiation: a bound variable's {:pool "P"} makes its quantifier be
// instantiated with the terms {:add_to_pool "P", e} puts in pool P, on a command or on a
// quantifier that gets skolemized. None of these quantifiers has a trigger z3 could use for
// what is asserted (the terms are shifted by one), so every proof here needs the pools.
function Q(int): bool;
function R(int, int): bool;
function S(bool): bool;

// A command's pool term, in the incarnation current at the command.
procedure CommandTerm(n: int)
{
  var i: int;
  assume (forall {:pool "P"} k: int :: Q(k + 1));
  i := n * 2;
  assert {:add_to_pool "P", i - 1} Q(i);
}

// A forall to prove is skolemized; its pool term names the skolem constant.
procedure SkolemizedGoal()
{
  assume (forall {:pool "P"} k: int :: Q(k + 1));
  assert (forall j: int :: {:add_to_pool "P", j - 1} Q(j));
}

// An assumed exists is skolemized too, and an exists to prove is instantiated.
procedure Existentials()
{
  assume (exists j: int :: {:add_to_pool "P", j + 1} Q(j));
  assert (exists {:pool "P"} k: int :: Q(k - 1));
}

// Each bound variable draws from its own pools; a combination per pair of terms.
procedure TwoPools(a: int, b: int)
{
  assume (forall {:pool "X"} x: int, {:pool "Y"} y: int :: R(x - 1, y + 1));
  assert {:add_to_pool "X", a + 1} {:add_to_pool "Y", b - 1} R(a, b);
}

// A pool term of the wrong sort is no candidate for an int variable.
procedure Sorts(a: int)
{
  assume (forall {:pool "P"} k: int :: Q(k + 1));
  assert {:add_to_pool "P", a - 1} {:add_to_pool "P", true} Q(a);
}

// Instances are skolemized in turn, and their skolem constants join the pools: the
// skolem constant of the assumed exists reaches the forall through pool "Q".
procedure Chain()
{
  assume (exists j: int :: {:add_to_pool "P", j} R(j, j));
  assume (forall {:pool "P"} k: int :: (exists m: int :: {:add_to_pool "Q", m} R(k, m) && Q(m + 1)));
  assume (forall {:pool "Q"} k: int :: Q(k + 1) ==> Q(k + 2));
  assert (exists {:pool "Q"} m: int :: Q(m + 2));
}

// Polarity goes through let-bound terms and negations.
procedure Polarities(c: bool)
{
  assume (var f := (forall {:pool "P"} k: int :: Q(k + 1)); f);
  assume !(exists {:pool "P"} k: int :: !S(Q(k)));
  assert {:add_to_pool "P", 4} c ==> Q(5) && S(Q(4));
  assert (var g := (forall j: int :: {:add_to_pool "P", j - 1} Q(j)); g);
}

// Without a term for the pool, an assumed pool quantifier says nothing once the
// implementation instantiates (Boogie replaces it by its instances, of which there are none).
procedure EmptyPool(n: int)
{
  assume (forall {:pool "P"} k: int :: Q(k));
  assume (forall {:pool "Other"} k: int :: {:Q(k)} Q(k));
  assert {:add_to_pool "P", n} Q(n);
  assert Q(n + 7);  // error
}

// A program whose pool terms name no pool of their sort is not instantiated: the pool
// quantifier is an ordinary one (z3 instantiates it on the trigger Q(k)).
procedure NoSources(n: int)
{
  assume (forall {:pool "Unused"} k: int :: {Q(k)} Q(k));
  assert {:add_to_pool "Nobody", n} Q(n);
}
