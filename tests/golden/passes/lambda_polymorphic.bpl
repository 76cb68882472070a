// OPTIONS: %s
// Lifting polymorphic lambdas: the type variables free in a lambda (the enclosing
// procedure's, an axiom's quantifier's) become type parameters of its function, a lambda's
// own type parameters quantify its axiom, and a type variable seen only in the lambda's result
// type is fixed at the call by a coercion. Monomorphization then instantiates them.
type Box _;
function unbox<T>(b: Box T): T;
function pick<T>(n: int): T;

procedure Choose<T>(a: T, b: T) returns (m: [bool]T)
  ensures m[true] == a && m[false] == b;
{
  m := (lambda c: bool :: if c then a else b);
}

procedure Unboxing(n: int)
{
  var m: <T>[Box T]T;
  m := (lambda<T> b: Box T :: unbox(b));
  assert (forall x: Box int :: m[x] == unbox(x));
  assert (forall x: Box bool :: m[x] == unbox(x));
}

procedure ResultOnly<T>(t: T)
{
  var m: [int]T;
  m := (lambda i: int :: pick(i));
  assert m[4] == pick(4);
  assert m[4] == t;  // error
}

function Empty<T>(x: T): bool;
axiom (forall<T> s: [T]bool :: (lambda x: T :: s[x] && !s[x]) == (lambda y: T :: false));

procedure UseEmpty(s: [int]bool)
{
  assert !(lambda x: int :: s[x] && !s[x])[3];
}
