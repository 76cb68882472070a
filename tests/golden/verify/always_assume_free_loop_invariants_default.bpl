// OPTIONS: /timeLimit:30
// The program of always_assume_free_loop_invariants.bpl without the option: each free
// invariant is assumed only at the loop head, after the loop's variables are havocked.
// Worked out by hand: in Entry nothing constrains x, so `x > 0` fails after the loop; in Kept
// the body havocs i and nothing assumes i > 0 before the invariant i != 0 is checked at the
// end of the body, so it is not maintained.
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
