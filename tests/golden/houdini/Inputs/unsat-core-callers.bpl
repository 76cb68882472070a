// The program of the /useUnsatCoreForContractInfer cases (unsat-core*.bpl): one callee, three
// callers. Worked out by hand, the greatest assignment is
//   argPositive = False     `a`, `b` and `c` call `leaf` with any `y`
//   resultPositive = False  without `x > 0`, `r = x + 1` may be 0 or less
//   resultNext = True       `r := x + 1`
//   aNext = True            from `resultNext` alone
//   bNextNext = True        from `resultNext` alone
//   cPositive = False       needs `resultPositive`
// and every implementation is verified under it. The checks, callees first (`leaf`, then in
// Boogie's order `c`, `b`, `a`): `leaf` is verified, with a proof that needs `argPositive`;
// `c` refutes `argPositive` at its call, which queues `leaf` again, and is then verified with
// a proof that needs `resultPositive`; `b` and `a` are verified with proofs that need only
// `resultNext`. `leaf` is checked again, loses `resultPositive`, is verified, and queues its
// three callers again. Without the option all three are checked again and `c` loses
// `cPositive` (11 checks in all); with it, `a` and `b`, whose last proofs did not need
// `resultPositive`, are taken off the queue unchecked (9 checks). The output is the same.
const {:existential true} argPositive: bool;
const {:existential true} resultPositive: bool;
const {:existential true} resultNext: bool;
const {:existential true} aNext: bool;
const {:existential true} bNextNext: bool;
const {:existential true} cPositive: bool;

procedure leaf(x: int) returns (r: int)
  requires argPositive ==> x > 0;
  ensures resultPositive ==> r > 0;
  ensures resultNext ==> r == x + 1;
{
  r := x + 1;
}

procedure a(y: int) returns (z: int)
  ensures aNext ==> z == y + 1;
{
  call z := leaf(y);
}

procedure b(y: int) returns (z: int)
  ensures bNextNext ==> z == y + 2;
{
  call z := leaf(y);
  z := z + 1;
}

procedure c(y: int) returns (z: int)
  ensures cPositive ==> z > 0;
{
  call z := leaf(y);
}
