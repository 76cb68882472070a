//! `/vcsCores:N`: implementations checked on N threads at once print exactly what one thread
//! prints (results in program order, the same errors and traces, the same closing line), with
//! every backend; and a solver that dies or goes silent is an outcome of the implementation
//! it was checking only, under any N.

use std::time::{Duration, Instant};

#[path = "common/run.rs"]
mod run;
use run::{on_path, rboogie};

const ERRORS_AND_TRACES: &str = "tests/data/vcs_cores.bpl";
const FAULTS: &str = "tests/data/vcs_cores_faults.bpl";

fn solvers() -> Vec<&'static str> {
    let mut all = vec!["in-process"];
    all.extend(["z3", "cvc5"].into_iter().filter(|s| on_path(s)));
    all
}

#[test]
fn parallel_output_is_the_sequential_output() {
    for solver in solvers() {
        let (one, code) = rboogie(&["--solver", solver, "/vcsCores:1", ERRORS_AND_TRACES]);
        assert_eq!(code, 0, "{solver}: {one}");
        // The program's errors, each with its trace, and the implementations that verify (cvc5
        // answers unknown for those with errors: it is not sure of its models with quantifiers).
        if solver != "cvc5" {
            assert!(one.ends_with("\nBoogie program verifier finished with 4 verified, 8 errors\n"), "{solver}: {one}");
            assert!(one.contains("Execution trace:"), "{solver}: {one}");
        }
        for cores in ["/vcsCores:2", "/vcsCores:3", "/vcsCores:2"] {
            let (many, code) = rboogie(&["--solver", solver, cores, ERRORS_AND_TRACES]);
            assert_eq!(code, 0);
            assert_eq!(many, one, "{solver} {cores}");
        }
    }
}

#[test]
fn error_limit_and_traces_are_alike_in_parallel() {
    let args = ["/errorLimit:1", "/errorTrace:2", ERRORS_AND_TRACES];
    let (one, _) = rboogie(&[&["/vcsCores:1"], &args[..]].concat());
    let (two, _) = rboogie(&[&["/vcsCores:2"], &args[..]].concat());
    assert_eq!(two, one);
}

#[test]
fn a_dead_or_silent_solver_fails_its_implementation_only() {
    let solver = format!("{}/tests/fake_solvers/selective.sh", env!("CARGO_MANIFEST_DIR"));
    let mut outputs = Vec::new();
    for cores in ["/vcsCores:1", "/vcsCores:2"] {
        let started = Instant::now();
        let (out, code) = rboogie(&["--solver", &solver, "/timeLimit:1", cores, FAULTS]);
        // The silent solver is given up on after the time limit and the watchdog's grace.
        assert!(started.elapsed() < Duration::from_secs(20), "{cores}: took {:?}", started.elapsed());
        assert_eq!(code, 0);
        assert!(out.contains("Verification encountered solver exception (Boom)"), "{cores}: {out}");
        assert!(out.contains("Prover error: ") && out.contains("fake solver: boom"), "{cores}: {out}");
        assert!(!out.contains("exception (A)") && !out.contains("exception (Silent)"), "{cores}: {out}");
        assert!(
            out.ends_with(
                "\nBoogie program verifier finished with 4 verified, 0 errors, 1 time out, 1 solver exceptions\n"
            ),
            "{cores}: {out}"
        );
        outputs.push(out);
    }
    assert_eq!(outputs[0], outputs[1]);
}
