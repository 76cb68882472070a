// OPTIONS: /proverOpt:SOLVER=nope
// EXIT: 1
// Bad input: a SOLVER value that names no solver Boogie knows is refused before verifying.
procedure Q()
{
  assert true;
}
