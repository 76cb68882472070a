// OPTIONS: /typeEncoding:p
// Type erasure must not make false things provable: every assertion marked "error" below
// is false in some model of the program, and each must be reported.
type Box a;
type Key;
function wrap<a>(x: a): Box a;
function unwrap<a>(b: Box a): a;
axiom (forall<a> x: a :: {wrap(x)} unwrap(wrap(x)) == x);

function same<a>(x: a): a { x }

var cell: <a>[Key]a;
var single: <a>[]a;

procedure Boxes(k: Key)
{
  assert unwrap(wrap(5)) == 5;
  assert unwrap(wrap(true));
  assert same(k) == k;
  assert same(3) == 4;            // error
}

procedure Cells(k: Key, j: Key)
  modifies cell, single;
{
  cell[k] := 7;
  cell[k] := false;
  assert cell[k] == 7 && !cell[k];
  cell[j] := 8;
  assert cell[k] == 7;            // error: j may be k
}

procedure Single()
  modifies single;
{
  single[] := 1;
  assert single[] == 1;
  single[] := 2;
  assert single[] == 1;           // error
}

procedure Quantified<t>(x: t, y: t)
{
  assert (forall<a> u: a :: same(u) == u);
  assert x == y;                  // error
}

function f<a>(Box a): int;
axiom (forall b: Box int :: f(b) == 1);
procedure Domains(bi: Box int, bb: Box bool)
{
  assert f(bi) == 1;
  assert f(bb) == 1;              // error: the axiom is about Box int only
}
