// OPTIONS: /contractInfer /printAssignment /useUnsatCoreForContractInfer --solver cvc5 %S/Inputs/unsat-core-callers.bpl
// /useUnsatCoreForContractInfer with cvc5 over a pipe: the same assignment and report
// (unsat-core.bpl). cvc5's cores are not the least (a's and b's list `resultPositive`), so
// all 11 checks are made; unsat-core-cvc5-minimal.bpl asks for the least.
