// OPTIONS: /contractInfer /printAssignment
// The assignment lists the existential constants in declaration order (not by name, not by
// use), `{:existential}` alone counts as true, `{:existential false}` is no candidate (its
// implication is checked as written), and a constant no candidate uses stays true.
const {:existential true} zeta, alpha: bool;
const {:existential} mid: bool;
const {:existential false} plain: bool;
const {:existential true} unused: bool;
axiom plain;

procedure q(x: int) returns (r: int)
  ensures alpha ==> r == x;
  ensures zeta ==> r > x;
  ensures mid ==> r >= x;
  ensures plain ==> r >= x;
{
  r := x;
}
