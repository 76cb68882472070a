// OPTIONS: /timeLimit:30
// A lambda whose bound variable has a {:pool} is instantiated, at each application of its
// lifted function in the VC, with the pool's terms: that gives the solver the term it needs.
// Both procedures verify.
type Key;
function Weight(Key): int;

procedure Heavy(limit: int, k: Key)
{
  var heavy: [Key]bool;
  heavy := (lambda {:pool "Keys"} x: Key :: Weight(x) > limit);
  // Without an instance at k, nothing links heavy[k] to Weight(k).
  assume (forall x: Key :: !heavy[x]);
  assert {:add_to_pool "Keys", k} Weight(k) <= limit;
}

// The same lambda with another pool shares the function: its definition gets both pools.
procedure HeavyAgain(bound: int, j: Key)
{
  var over: [Key]bool;
  over := (lambda {:pool "Other"} y: Key :: Weight(y) > bound);
  assume (forall y: Key :: !over[y]);
  assert {:add_to_pool "Other", j} Weight(j) <= bound;
}
