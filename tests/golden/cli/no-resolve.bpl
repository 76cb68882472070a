// OPTIONS: /noResolve
// Parse only: the undeclared `y` goes unnoticed, and Boogie prints nothing at all.
procedure P(x: int)
{
  assert x == y;
}
