// OPTIONS: /contractInfer /printAssignment /useUnsatCoreForContractInfer --solver cvc5 /proverOpt:O:minimal-unsat-cores=true %S/Inputs/unsat-core-callers.bpl
// /useUnsatCoreForContractInfer with cvc5 asked for the least cores: the same assignment and
// report (unsat-core.bpl), in 9 checks as with z3.
