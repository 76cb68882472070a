// OPTIONS: /timeLimit:30
// EXIT: 2
// A Civl program (yield procedures, an atomic action, a yield invariant) whose linear
// parameters have the base library's polymorphic types. rboogie does not verify Civl: the
// refusal names the first Civl declaration, before any pass rewrites the library's types
// (monomorphization used to leave them in the yield invariant and fail its re-check).
var {:layer 0, 1} count: int;

yield procedure {:layer 1} Start({:linear_in} token: UnitMap (One int))
requires call Stable(token, 0);
{
  var kept: UnitMap (One int);
  kept := token;
  call Bump();
}

atomic action {:layer 1} AtomicBump()
modifies count;
{ count := count + 1; }

yield procedure {:layer 0} Bump();
refines AtomicBump;

yield invariant {:layer 1} Stable({:linear} token: UnitMap (One int), v: int);
preserves Map_Contains(token, One(1));
preserves count == v;
