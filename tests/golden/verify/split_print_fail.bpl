// OPTIONS: /printSplit:-
// `{:focus}` in a branch: one part focuses on it (its paths only, what precedes it assumed),
// the other leaves out the blocks it dominates. Worked out by hand: on the focused path
// `x > 5`, so `y := x - 5` makes y positive and the assertion after the branch holds there;
// on the other path `y := 0 - x` with `x <= 5`, which may be negative, so the assertion
// `y >= 0` fails in the part without the focus: one error (line 16), reported after both
// parts are printed, its trace the one block that part's blocks coalesce into. The parts are
// `Focus-0` (no focus taken: Boogie names it after the implementation alone) and
// `Focus-1/focus[+12]` (the focus on line 12 taken).
procedure Focus(x: int) returns (y: int)
{
  if (x > 5) {
    y := x - 5;
    assume {:focus} true;
  } else {
    y := 0 - x;
  }
  assert y >= 0;
}
