// OPTIONS: %s
// Boogie's map operators (`{:builtin "MapAdd"}` and the rest), which Boogie, and rboogie for
// Z3, write as Z3's `(_ map f)` (a constant map as SMT-LIB's `(as const ..)`).
// map_operators_cvc5.bpl gives the same program to cvc5, which does not read `(_ map f)`.
// Expected, worked out by hand: AddRemove, Sets and Defined verify; Truncate fails at its
// second assertion (d[k] is 0); Grid fails at its second assertion.
type Key;
function {:builtin "MapConst"} constInt(int): [Key]int;
function {:builtin "MapConst"} constBool(bool): [Key]bool;
function {:builtin "MapAdd"} plus([Key]int, [Key]int): [Key]int;
function {:builtin "MapSub"} minus([Key]int, [Key]int): [Key]int;
function {:builtin "MapGt"} greater([Key]int, [Key]int): [Key]bool;
function {:builtin "MapIte"} choose([Key]bool, [Key]int, [Key]int): [Key]int;
function {:builtin "MapNot"} negate([Key]bool): [Key]bool;
function {:builtin "MapAnd"} both([Key]bool, [Key]bool): [Key]bool;
function {:builtin "MapEq"} same([Key]int, [Key]int): [Key]bool;

// Counts as multisets: one element added to the empty count and taken away again leaves the
// empty count. A constant map of a value that is not a literal (n) reads n at every key.
procedure AddRemove(k: Key, n: int)
{
  var empty, one, c: [Key]int;
  empty := constInt(0);
  one := empty[k := 1];
  c := plus(empty, one);
  assert c[k] == 1;
  assert minus(c, one) == empty;
  assert constInt(n)[k] == n;
  assert plus(constInt(n), constInt(n)) == constInt(2 * n);
}

// Truncating subtraction: where b's count is larger, 0. At k, 3 - 5 truncates to 0, so the
// second assertion fails.
procedure Truncate(a: [Key]int, b: [Key]int, k: Key)
  requires a[k] == 3 && b[k] == 5;
{
  var d: [Key]int;
  d := choose(greater(a, b), minus(a, b), constInt(0));
  assert d[k] == 0;
  assert d[k] == -2;
}

// Sets as Boolean maps: the empty and the full set differ (no key is read: the solver must
// know constant maps as such), complement, intersection, pointwise equality.
procedure Sets(s: [Key]bool, a: [Key]int)
{
  assert constBool(false) != constBool(true);
  assert negate(constBool(false)) == constBool(true);
  assert both(s, negate(s)) == constBool(false);
  assert same(a, a) == constBool(true);
}

// Maps of two arguments: a constant map is constant at every pair of keys, and adding two
// constant maps adds their values. Fails at its second assertion: the sum reads n + 1.
function {:builtin "MapConst"} constGrid(int): [Key, Key]int;
function {:builtin "MapAdd"} plusGrid([Key, Key]int, [Key, Key]int): [Key, Key]int;

procedure Grid(n: int, j: Key, k: Key)
{
  assert plusGrid(constGrid(n), constGrid(1)) == constGrid(n + 1);
  assert plusGrid(constGrid(n), constGrid(1))[j, k] == n;
}

// A `{:define}` function whose body applies a map operator (its `define-fun` follows the
// operator's declaration), and a function defined by an axiom that applies one. Verifies:
// s holds at k, so the union does; union is symmetric; the intersection reads t where s holds.
function {:builtin "MapOr"} union([Key]bool, [Key]bool): [Key]bool;
function {:define} Join(a: [Key]bool, b: [Key]bool): [Key]bool { union(a, b) }
function Meet(a: [Key]bool, b: [Key]bool): [Key]bool { both(a, b) }

procedure Defined(s: [Key]bool, t: [Key]bool, k: Key)
  requires s[k];
{
  assert Join(s, t)[k];
  assert Join(s, t) == union(t, s);
  assert Meet(s, t)[k] == t[k];
}
