// OPTIONS: /timeLimit:30 /freeVarLambdaLifting /typeEncoding:p
// Under /freeVarLambdaLifting a lambda's function takes its free variables, not the closed
// subterms around them, so two lambdas are the same value only when they are the same lambda
// (up to bound names) at equal free variables. /typeEncoding:p: maps are uninterpreted, not
// extensional (as SMT arrays they would be, and every `f == g` below would hold). The type
// constructor makes the program polymorphic, which is when that encoding applies.
type Box _;

procedure SameLambda(a: int, b: int)
{
  var f, g: [int]int;
  f := (lambda x: int :: x + a);
  g := (lambda y: int :: y + a);
  assert f == g;          // holds: one function, same argument a
  if (a == b) {
    g := (lambda y: int :: y + b);
    assert f == g;        // holds: one function, arguments a and b equal here
  }
}

procedure DifferentShape(m: [int,int]int, a: int, b: int)
{
  var f, g: [int]int;
  f := (lambda x: int :: m[a, a]);
  g := (lambda x: int :: m[a, b]);
  if (a == b) {
    // fails: m[l0,l0] and m[l0,l1] are different functions of (m, a) and (m, a, b); with the
    // default lifting both would be the function of the hole m[..] and this would hold
    assert f == g;
  }
}

procedure OldIsItsOwnArgument()
  modifies G;
{
  var f: [int]int;
  G := G + 1;
  f := (lambda x: int :: x + old(G) - G);
  assert f[0] == -1;      // holds: old(G) is passed as G's value at entry
  assert f[0] == 0;       // fails
}

var G: int;

procedure AttributesNeverShare()
{
  var f, g: [int]bool;
  f := (lambda x: int :: (forall u: int :: {:weight 2} x <= u || u < x));
  g := (lambda x: int :: (forall u: int :: {:weight 2} x <= u || u < x));
  // fails, as in Boogie: it compares attributes as objects, so lambdas with attributes
  // always get functions of their own
  assert f == g;
}
