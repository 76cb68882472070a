// OPTIONS: /proverOpt:SOLVER=noop
// A false assertion is not reported as an error under the no-op solver: it finds no
// counterexample, so the implementation is only inconclusive, never verified.
procedure Wrong(k: int)
{
  assert k > k;
}
