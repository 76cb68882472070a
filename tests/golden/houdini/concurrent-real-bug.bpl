// OPTIONS: /contractInfer /printAssignment /main:Main /k:2
// A concurrent program in bounded mode with a real bug that no candidate explains: it is
// reported after the assignment, with the context bound it needs.
// By hand: Set's candidate preconditions are asserted at both calls (Set(2) in the Worker,
// Set(1) in Main), each a failure block of the sequentialized program. `neg ==> v < 0` fails
// at either: while neg holds, a running thread fails there, so every counterexample's first
// failure is neg's and neg goes first. `pos ==> v > 0` holds: pos stays. Main's
// `assert x != 2` is no candidate's and fails when the Worker's write x := 2 comes after
// Main's x := 1: the Worker switches to round 1 before its write, Main writes 1 in round 0
// and reads 2 in round 1. Houdini stops there (neg = False, pos = True); the check under that
// assignment reports the bug, which needs a switch: /k:2 (none with /k:1).
const {:existential true} neg: bool;
const {:existential true} pos: bool;
var x: int;

procedure Set(v: int)
  modifies x;
  requires neg ==> v < 0;
  requires pos ==> v > 0;
{
  x := v;
}

procedure Worker()
  modifies x;
{
  call Set(2);
}

procedure Main()
  modifies x;
{
  x := 0;
  async call Worker();
  call Set(1);
  assert x != 2;
}
