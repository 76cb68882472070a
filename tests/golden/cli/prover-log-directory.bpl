// OPTIONS: /proverLog:.
// Bad input: the prover log names a directory, which cannot be opened as a file. The
// warning goes to stderr; the program still verifies.
procedure Trivial()
{
  assert 1 + 1 == 2;
}
