// OPTIONS: /rlimit:1 /proverOpt:PROVER_PATH=no/such/solver
// EXIT: 1
// Bad input for the solver: an explicit PROVER_PATH that names no file is Boogie's fatal
// prover exception, before anything is verified (no closing line).
procedure P(x: real)
{
  assert x > 0.0 ==> (x * 2.0 + x) / x > x;
}
