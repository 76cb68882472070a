// OPTIONS: /timeLimit:30
// Boogie keeps functions and variables in separate name spaces: a function `f` and a
// constant `f` (as BCT's C# translations declare a type's function and its constant) are two
// things, and a bound variable may take a function's name. SMT-LIB has one name space, so the
// solver must still see two symbols.
// Expected, by hand: P verifies (f() is 3 and the constant f is true by the axioms; g is
// positive on positives by the quantified axiom, whose bound variable is named g); Q fails,
// as f() is 3, not 4. So 1 verified, 1 error.
function f(): int;
const f: bool;
function g(x: int): int;
axiom f() == 3;
axiom f;
axiom (forall g: int :: g > 0 ==> g(g) > 0);

procedure P(x: int)
  requires x > 0;
{
  assert f() == 3 && f;
  assert g(x) > 0;
}

procedure Q()
{
  assert f() == 4;
}
