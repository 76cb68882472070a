// OPTIONS: /printModel:1 /mv:-
// A program that verifies has no counterexample: no model is printed.
procedure P(x: int) returns (y: int)
  ensures y > x;
{
  y := x + 1;
}
