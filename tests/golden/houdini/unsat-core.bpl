// OPTIONS: /contractInfer /printAssignment /useUnsatCoreForContractInfer %S/Inputs/unsat-core-callers.bpl
// /useUnsatCoreForContractInfer with in-process z3: the assignment and the report of the run
// without it (worked out in Inputs/unsat-core-callers.bpl), in 9 checks instead of 11
// (tests/houdini_unsat_core.rs compares the two runs' outputs and figures).
