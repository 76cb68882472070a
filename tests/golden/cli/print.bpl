// OPTIONS: /noVerify /print:- /env:0
// /print:- prints the program after parsing (after a blank line), then the run goes on.
type T;

const unique c: T;

function f(x: int) : int;

axiom (forall x: int :: f(x) > x);

var g: int;

procedure P(x: int) returns (y: int);
  requires x > 0;
  modifies g;
  ensures y == f(x);
