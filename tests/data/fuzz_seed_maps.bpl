// Seed program for tests/no_panic.rs: types, maps, bit vectors, functions, quantifiers.
type Ref;
type Field a;
type Heap = <a>[Ref, Field a]a;
type {:builtin "Seq"} Seq _;
type Pair a b = [a]b;

const null: Ref;
const unique alloc: Field bool;
var H: Heap;

function {:inline} Max(x: int, y: int): int { if x >= y then x else y }
function Abs(x: int) returns (r: int) { if x < 0 then -x else x }
function Len<T>(s: Seq T): int;
function f(int, bool): real;
function {:bvbuiltin "bvadd"} bvadd32(bv32, bv32) returns (bv32);
function Shift(x: bv8): bv16 { 0bv8 ++ x }

axiom (forall<T> s: Seq T :: {:weight 2} { Len(s) } Len(s) >= 0);
axiom (forall x: int, y: int :: { Max(x, y) } Max(x, y) >= x && Max(x, y) >= y);
axiom (exists r: Ref :: r != null && H[r, alloc]);
axiom (forall m: [int]int, i: int, v: int :: m[i := v][i] == v);
axiom (lambda x: int :: x + 1)[3] == 4;
axiom (var k := 5; k * k == 25);
axiom f(2, true) == 1.5e-3 + 2.0 / 4.0 - real(3);
axiom int(7.9) <= 7 || 2 ** 3 == 8.0;
axiom 0x1.8e1f24e8 == 0x1.8e1f24e8 && 0NaN24e8 != 0+oo24e8;
axiom (5bv32)[8:0] == 5bv8 && bvadd32(1bv32, 2bv32) == 3bv32;
axiom (forall a, b: bool :: a <==> b <==> (a ==> b) && (b <== a));
axiom (∀ x: int • x ≤ x + 1 ∧ ¬(x ≠ x));

procedure Update(r: Ref, v: int, m: [int][int]bool) returns (m': [int][int]bool)
  requires r != null;
  modifies H;
  ensures m'[v][v];
{
  var x: bv32, y: bv64;
  var mm: <a>[a]int;
  H[r, alloc] := true;
  m' := m[v := m[v][v := true]];
  m'[0][1] := false;
  x := 255bv32;
  y := x ++ x;
  x := y[32:0];
  y[8:0] := 0bv8;
  assert x[4:0] == 31bv4;
  assume mm[3] == mm[true] + 0;
  assert (3 : int) == 3;
  assert {:split_here} Abs(-4) == 4;
}
