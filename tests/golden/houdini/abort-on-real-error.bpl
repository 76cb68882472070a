// OPTIONS: /contractInfer /printAssignment
// An error that is no candidate's stops the inference where it is, as in Boogie: `wrong`,
// refuted in the callee checked first, is false; `sameCheck`, refuted by the caller's check
// that also shows the real error, stays true; `later`, in an implementation still queued, is
// never refuted, and that implementation is checked once under the assignment (its error,
// the candidate's, is not shown, and counts for nothing).
const {:existential true} wrong: bool;
const {:existential true} sameCheck: bool;
const {:existential true} later: bool;

procedure callee(x: int) returns (y: int)
  requires x > 0;
  ensures wrong ==> y < 0;
{
  y := x;
}

procedure caller() returns (y: int)
  ensures sameCheck ==> y == 7;
{
  call y := callee(0);
}

procedure top() returns (z: int)
  ensures later ==> z == 8;
{
  call z := caller();
}
