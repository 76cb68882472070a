// OPTIONS: /contractInfer /printAssignment /main:Main
// Bounded mode: a real bug that no candidate explains is still reported, after the assignment.
// By hand: Set(5) is inlined; its two candidate preconditions are asserted at the one call
// (told apart by their `requires`, not by the call's position they share). `neg ==> 5 < 0`
// fails: neg goes. `pos ==> 5 > 0` holds: pos stays. Then the check under neg = False,
// pos = True fails `assert g == 6` (g == 5), an assertion that is no candidate's: Houdini
// stops, and the bounded check under the assignment reports that bug at line 25.
const {:existential true} neg: bool;
const {:existential true} pos: bool;
var g: int;

procedure Set(v: int)
  modifies g;
  requires neg ==> v < 0;
  requires pos ==> v > 0;
  ensures g == v;
{
  g := v;
}

procedure Main()
  modifies g;
{
  call Set(5);
  assert g == 6;
}
