// OPTIONS: /vcsSplitOnEveryAssert
// Bad input: an assertion that is not boolean is a type error, reported before any split.
procedure P(n: int)
{
  assert n + 1;
}
