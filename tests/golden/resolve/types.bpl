// OPTIONS: /noTypecheck
// Types that do not resolve.
type Pair _ _;
type Syn a = Pair a a;
type Loop1 = Loop2;
type Loop2 = [int]Loop1;

var a: Undeclared;
var b: Pair int;
var c: Syn int bool;
var d: bv32 int;
var e: <t>[int]int;
var f: <t>[int]t;
var g, h: Missing;

function Poly<t>(x: int): int;
function PolyResult<t>(x: int): t;
procedure Proc<t>(x: int);
procedure Generic<t>(x: t);
implementation Generic<u>(x: u) { var y: u; }

axiom (forall<t> x: t :: (x : t) == x);
axiom (forall<t> x: int :: (x : t int) == x);
