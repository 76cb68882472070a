// OPTIONS: /contractInfer /printAssignment /timeLimit:10
// Houdini over a program whose callee is inlined ({:inline 1}): the callee's candidate
// preconditions become assertions in the caller, one check each. Before, the three shared
// one check: the first failure refuted one candidate, every later failure was matched to it
// again, and the run never ended. Worked out by hand: a call with an arbitrary argument
// refutes each of c1 (n > 0), c2 (n == 0) and c3 (n < 0); with all three false, Caller
// verifies (1 verified, 0 errors).

const {:existential true} c1: bool;
const {:existential true} c2: bool;
const {:existential true} c3: bool;

procedure {:inline 1} Callee(n: int) returns (r: int)
  requires c1 ==> n > 0;
  requires c2 ==> n == 0;
  requires c3 ==> n < 0;
{
  r := n;
}

procedure Caller(m: int) returns (r: int)
{
  call r := Callee(m);
}
