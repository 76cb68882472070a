// OPTIONS: /proverLog:no-such-directory/query.smt2
// The prover log names a directory that does not exist: the log cannot be written, and that
// is said on stderr, but verification goes on as without /proverLog. Verifies.
procedure Double(x: int) returns (y: int)
  ensures y == x + x;
{
  y := 2 * x;
}
