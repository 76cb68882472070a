// OPTIONS: /silent /timeLimit:5
// `/silent` (Boogie's `Verbosity.Silent`): no verification error, no execution trace and no
// closing line; the exit code is as without it. Worked out by hand: Fails asserts 1 == 2,
// which no state satisfies, so Boogie would report one error; Holds verifies. With `/silent`
// nothing at all is printed (the expected output is empty).
procedure Fails()
{
  assert 1 == 2;
}

procedure Holds(x: int)
  requires x > 0;
{
  assert x >= 1;
}
