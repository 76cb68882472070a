// OPTIONS: /enhancedErrorMessages:1 %s
// A {:print} argument the VC does not otherwise mention (the input `a`, the local `c`, never
// assigned) is still declared to the solver, as Boogie translates {:print} arguments with
// the VC: its value is read from the counterexample (any value is one; z3 picks 0). Asking
// for a constant never declared ended the session, and the error was reported as a solver
// exception.
//
// Expected, worked out by hand: `b > 0` fails for b = 0: 1 error, with the augmented trace
// "a is 0 c is 0".
procedure P(a: int, b: int)
{
  var c: int;
  assert {:print "a is ", a, " c is ", c} b > 0;
}
