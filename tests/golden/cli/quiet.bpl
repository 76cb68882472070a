// OPTIONS: /quiet /timeLimit:10
// /quiet prints errors but not the closing line: one failing assertion, nothing else.
procedure P(x: int)
{
  assert x > 0;
}
