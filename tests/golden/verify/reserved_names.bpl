// OPTIONS: /timeLimit:30
// Boogie names that are SMT-LIB keywords or theory symbols (z3 reads `|match|` as the
// keyword; cvc5 refuses to redeclare `abs`): each must reach the solver as a fresh name.
type Set;
type String;
const as: int;
const par: int;
var abs: int;
function match(x: int): int;
function let(x: int): int;
function _(x: int): int;
function select(s: Set, i: int): bool;
function seq.len(s: String): int;
function bvadd(x: int, y: int): int;
axiom match(1) == 2 && let(2) == 3 && _(3) == 4 && as == 5 && par == 6;
axiom (forall s: String :: seq.len(s) >= 0);

// Verifies from the axioms alone.
procedure Verifies(s: String)
{
  assert match(1) + let(2) + _(3) == 9;
  assert as < par;
  assert seq.len(s) >= 0;
}

// Fails: nothing is known of bvadd or of the global abs.
procedure Fails()
  modifies abs;
{
  abs := bvadd(1, 2);
  assert abs == 3;
}
