// OPTIONS: /alwaysAssumeFreeLoopInvariants
// `/alwaysAssumeFreeLoopInvariants`: a loop's free invariants are assumed on the edges into
// the loop and at the end of its body, in their places among the checked invariants, which
// are asserted there (by default a free invariant is only assumed at the loop head, after the
// loop's variables are havocked). The same program without the option:
// always_assume_free_loop_invariants_default.bpl.
// Worked out by hand, with the option:
// - Entry: the edge into the loop assumes i > 0 while i is still x, so x > 0 after the loop
//   (the loop changes i, not x): verified. (By default x is unconstrained: the assertion fails.)
// - Kept: the end of the body assumes i > 0 before it asserts the checked invariant i != 0, so
//   it is maintained although the body havocs i: verified. (By default it is not maintained.)
procedure Entry(x: int)
{
  var i: int;
  i := x;
  while (*)
    free invariant i > 0;
  {
    i := i + 1;
  }
  assert x > 0;
}

procedure Kept()
{
  var i: int;
  i := 1;
  while (*)
    free invariant i > 0;
    invariant i != 0;
  {
    havoc i;
  }
}
