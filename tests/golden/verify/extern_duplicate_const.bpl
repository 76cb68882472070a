// OPTIONS: /timeLimit:30
// A constant declared twice, once `{:extern}`: the extern declaration is dropped and the name
// is the other's (Boogie's rule for extern duplicates). Worked out by hand: the axiom fixes
// N at 3, so P's assertion N > 2 holds and Q's N > 3 fails: 1 verified, 1 error. Before, both
// declarations reached the solver and it rejected the query (an internal error).
const {:extern} N: int;
const N: int;
axiom N == 3;

procedure P() { assert N > 2; }
procedure Q() { assert N > 3; }
