// OPTIONS: /infer:t /checkInfer /printInstrumented
// The trivial domain knows only whether a block is reached: a loop head after `assume false`
// is not, so its invariant is `false`; the other loop head's is `true`. /checkInfer makes
// them assertions. Worked out by hand: both implementations verify (the `false` invariant
// sits where no execution arrives, and `true` holds everywhere), so 2 verified.

procedure Unreached()
{
  var i: int;
  assume false;
  while (i < 3)
  {
    i := i + 1;
  }
}

procedure Reached(n: int)
{
  var i: int;
  i := 0;
  while (i < n)
  {
    i := i + 1;
  }
}
