// OPTIONS: /errorTrace:0
// `{:vcs_split_on_every_assert}` on one implementation: each failing assertion is found by
// its own VC (lines 9 and 12); an assertion assumed in another's VC is still checked in its
// own. `Whole` has the attribute turned off and reports its one failure as usual.
procedure {:vcs_split_on_every_assert} Each(a: int)
{
  var b: int;
  b := a * 2;
  assert b > a;
  assert b == a + a;
  if (a > 3) {
    assert b > 10;
  }
}

procedure {:vcs_split_on_every_assert false} Whole(a: int)
{
  assert a != 5;
}
