// OPTIONS: /contractInfer /printAssignment /useUnsatCoreForContractInfer --solver z3 %S/Inputs/unsat-core-callers.bpl
// /useUnsatCoreForContractInfer with z3 over a pipe: as in-process (unsat-core.bpl).
