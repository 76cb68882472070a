// OPTIONS: /noVerify /print:- /env:0
// What /print shows is Boogie's own printing of the parsed program: a function body that is
// neither {:inline} nor {:define} becomes a definition axiom listed under `uses` (with the
// function's attributes and a trigger on the coerced call), `returns (T)` becomes `: T`,
// groups of variables and constants are split into one declaration each, a procedure with a
// body becomes a procedure and an implementation, and parentheses follow Boogie's binding
// strengths (a `&&` inside `||` keeps its parentheses, `if` expressions always have them).
// Names are escaped only when they are in Boogie's own keyword list: `old` is, `then` is not.
type Pair _ _;
type Grid = [int,int]bool;

function {:inline} twice(n: int) returns (int) { n + n }
function {:define} positive(n: int) : bool { n > 0 }
function {:weight 3} clamp(n: int, limit: int) returns (int) { if n > limit then limit else n }
function seed() : real { 1.50 }
function first<T>(p: Pair T T) : T;
function unnamed(int, bool) : int;

const unique red, green: int;
const grid, other: Grid;
var \then, \old: int;

axiom (forall a, b: int :: {:weight 2} { grid[a, b] } grid[a, b] ==> (a < b && b < 10) || a == b);
axiom (forall x: int :: x > 0 ==> x + (x + 1) > x * (2 * x) div 3);

procedure Fill(n: int where n >= 0) returns (r: int)
  modifies \then;
  requires n < 100;
  ensures r >= n;
{
  var i, j: int;
  r := n;
  if (n > 5) { r := r + 1; } else { r := n; }
  while (i < n) invariant i <= n; { i := i + 1; }
}
