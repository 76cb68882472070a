// OPTIONS: /noTypecheck
// A program that resolves: everything here must be accepted silently.
type Field _;
type Heap = <a>[ref, Field a]a;
type ref;
type {:extern} Ext;
type {:extern} Ext;
datatype Option<t> { None(), Some(value: t) }

const unique alloc: Field bool;
const {:extern} N: int;
const N: int;
var H: Heap;

function {:inline} Read<a>(h: Heap, r: ref, f: Field a): a { h[r, f] }
function Size(xs: [int]bool): int;
function Def(x: int): int { x + N }
function {:define} Sq(x: int): int { x * x }
function Result(x: int) returns (r: int);

axiom (forall x: int :: {Def(x)} Def(x) > x);
axiom (forall<a> h: Heap, r: ref, f: Field a :: Read(h, r, f) == h[r, f]);
axiom (forall x: int :: (forall y: int :: x + y == y + x));
axiom (var k := N + 1; k > N);
axiom (lambda i: int :: i > 0)[1];
axiom Size((lambda i: int :: i < N)) >= 0;
axiom (|{ var t: int; A: t := 1; goto B; B: return t == 1; }|);

procedure Alloc(r: ref) returns (o: Option ref);
  modifies H;
  ensures H[r, alloc];
  ensures old(H)[r, alloc] ==> H == old(H);

implementation Alloc(r: ref) returns (o: Option ref)
{
  var x: int;
  L: H[r, alloc] := true;
  o := Some(r);
  if (o is Some) { goto M; }
  M: while (x < 10) invariant x <= 10; { x := x + 1; if (x == 5) { break; } }
  havoc x;
  assume x == Sq(2);
}

procedure Caller() modifies H; { var o: Option ref; call o := Alloc(o->value); }
