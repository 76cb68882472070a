// OPTIONS: /timeLimit:30
// Lambdas everywhere an expression may stand: axioms, function bodies (inlined or defined by
// an axiom), quantifiers, let expressions, other lambdas, where clauses of globals, locals and
// formals, and a contract that a call assumes.
type Set = [int]bool;
function Union(a: Set, b: Set): Set;
axiom (forall a, b: Set :: Union(a, b) == (lambda x: int :: a[x] || b[x]));
function Minus(a: Set, b: Set): Set { (lambda x: int :: a[x] && !b[x]) }
function {:inline} Both(a: Set, b: Set): Set { (lambda x: int :: a[x] && b[x]) }

procedure Sets(a: Set, b: Set)
{
  assume a[1] && b[2] && !b[1];
  assert Union(a, b)[2];
  assert Minus(a, b)[1];
  assert !Minus(a, b)[2];
  assert Both(a, b)[1];  // error
}

procedure InQuantifiers()
{
  assert (forall d: int :: (lambda x: int :: x - d)[d] == 0);
  assert (forall d: int :: (lambda x: int :: x - d)[d] == d);  // error
}

procedure InLets(n: int)
{
  assert (lambda x: int :: (var y := x + n; y - n))[5] == 5;
  assert (var f := (lambda x: int :: x + n); f[1] + f[2]) == 3 + 2 * n;
  assert (lambda x: int :: (var y := 10; x < y))[n];  // error
}

procedure Nested(n: int)
{
  var add: [int][int]int;
  add := (lambda x: int :: (lambda y: int :: x + y + n));
  assert add[1][2] == 3 + n;
  assert add[2] == (lambda y: int :: 2 + y + n);
  assert add[1] == add[2];  // error
}

var Positive: [int]bool where Positive == (lambda x: int :: x > 0);

procedure Where(s: [int]bool where s == (lambda x: int :: x < 0)) returns (t: [int]bool where t == (lambda x: int :: x == 0))
{
  var u: [int]bool where u == (lambda x: int :: x != 0);
  assert Positive[1] && s[-1] && t[0] && u[5];
  assert u[0];  // error
}

procedure Spec(n: int);
  ensures (lambda x: int :: x + n)[1] > n;

procedure Caller()
{
  call Spec(4);
  call Spec(5);
  assert (lambda x: int :: x + 6)[1] > 6;
}
