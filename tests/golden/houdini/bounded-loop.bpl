// OPTIONS: /contractInfer /printAssignment /main:Main /recursionBound:4
// Bounded mode: Houdini runs on the program the bounded check verifies (Inc inlined at the
// call, the loop unrolled: with bound 4 its three iterations complete and it exits), then that
// program is checked under the assignment.
// By hand: Inc adds 1, so its ensures `b1 ==> g == old(g) + 2` fails at the first call and b1
// goes; `b0 ==> g == old(g) + 1` holds at every call, and the invariant `b0 ==> g == i` holds
// at each unrolled head (g and i both count the iterations): b0 stays. (`b1 ==> g == 2*i` holds
// on entry, 0 == 0, and fails after one iteration, but b1 is gone by then.) Under b0 = True,
// b1 = False no assertion fails (`g >= 0` after the loop: g = 3): "Program has no bugs", with
// Corral's note that the bound cuts the loop (its unrolling ends in a cut, never reached
// here). Without /contractInfer the b1 ensures is reported as a bug.
const {:existential true} b0: bool;
const {:existential true} b1: bool;
var g: int;
procedure Inc() modifies g; ensures b0 ==> g == old(g) + 1; ensures b1 ==> g == old(g) + 2; { g := g + 1; }
procedure Main() modifies g; {
  var i: int;
  g := 0; i := 0;
  while (i < 3) invariant b0 ==> g == i; invariant b1 ==> g == 2*i; { call Inc(); i := i + 1; }
  assert g >= 0;
}
