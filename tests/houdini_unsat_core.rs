//! `/useUnsatCoreForContractInfer`: Houdini with unsat cores prints what it prints without
//! them (the same assignment, the same report), with fewer checks where a proof did not need
//! a refuted candidate, and never more; with every backend, and on every Houdini golden case.

#[path = "common/run.rs"]
mod run;
use run::{on_path, rboogie};

const CALLERS: &str = "tests/golden/houdini/Inputs/unsat-core-callers.bpl";
const OPTION: &str = "/useUnsatCoreForContractInfer";

/// The number after `label = ` in the trace.
fn figure(out: &str, label: &str) -> usize {
    let value = out.lines().find_map(|l| l.strip_prefix(label)?.strip_prefix(" = ")?.trim().parse().ok());
    value.unwrap_or_else(|| panic!("no {label} in:\n{out}"))
}

/// The output without the trace: the assignment and the report.
fn result(out: &str) -> String {
    let (_, rest) = out.split_once("Assignment computed by Houdini:\n").unwrap_or_else(|| panic!("{out}"));
    let figures = ["Number of ", "Prover time", "Unsat core prover time"];
    rest.lines().filter(|l| !figures.iter().any(|f| l.starts_with(f))).map(|l| format!("{l}\n")).collect()
}

/// The callers program (its assignment worked out in the file) without and with the option:
/// the same output; the checks and `check-sat`s `saved` fewer (the two callers whose proofs did
/// not need the refuted postcondition), and as many pruned.
fn compare(solver_args: &[&str], saved: usize) {
    let args = |cores: bool| -> Vec<String> {
        let mut a: Vec<String> = ["/contractInfer", "/printAssignment", "/trace"].map(String::from).to_vec();
        a.extend(solver_args.iter().map(|s| s.to_string()));
        if cores {
            a.push(OPTION.into());
        }
        a.push(CALLERS.into());
        a
    };
    let (without, code) = rboogie(&args(false));
    assert_eq!(code, 0, "{without}");
    let (with, code) = rboogie(&args(true));
    assert_eq!(code, 0, "{with}");
    let context = format!("{solver_args:?}\n--- without:\n{without}\n--- with:\n{with}");
    assert_eq!(result(&with), result(&without), "{context}");
    assert!(result(&with).ends_with("\nBoogie program verifier finished with 4 verified, 0 errors\n"), "{context}");
    assert_eq!(figure(&without, "Number of prover queries"), 11, "{context}");
    assert_eq!(figure(&with, "Number of prover queries"), 11 - saved, "{context}");
    assert_eq!(figure(&with, "Number of check-sat calls") + saved, figure(&without, "Number of check-sat calls"));
    assert_eq!(figure(&with, "Number of unsat core prunings"), saved, "{context}");
    // A core for each check that proved its implementation: `leaf` and `c` twice each, `a`
    // and `b` once each, and once more each when they are checked again.
    assert_eq!(figure(&with, "Number of unsat core prover queries"), 6 + (2 - saved), "{context}");
    // Without the option, no figures of cores.
    assert!(!without.contains("unsat core"), "{context}");
}

#[test]
fn in_process_cores_save_the_checks_of_proofs_that_still_hold() {
    compare(&[], 2);
}

#[test]
fn z3_cores_save_the_checks_of_proofs_that_still_hold() {
    if on_path("z3") {
        compare(&["--solver", "z3"], 2);
    }
}

/// cvc5's cores list what it assumed, not what the proof needed: nothing is saved (but
/// nothing changes either), unless it is asked for the least cores.
#[test]
fn cvc5_cores_save_checks_when_they_are_the_least() {
    if on_path("cvc5") {
        compare(&["--solver", "cvc5"], 0);
        compare(&["--solver", "cvc5", "/proverOpt:O:minimal-unsat-cores=true"], 2);
    }
}

/// Every Houdini golden case prints the same with the option (its `// OPTIONS:` line, with
/// the option added).
#[test]
fn every_houdini_case_prints_the_same_with_cores() {
    let dir = "tests/golden/houdini";
    let mut cases: Vec<String> = std::fs::read_dir(dir)
        .unwrap()
        .flatten()
        .map(|e| e.path().to_string_lossy().into_owned())
        .filter(|p| p.ends_with(".bpl"))
        .collect();
    cases.sort();
    assert!(cases.len() > 10);
    for case in cases {
        let text = std::fs::read_to_string(&case).unwrap();
        let options = text.lines().next().and_then(|l| l.strip_prefix("// OPTIONS:")).expect("an OPTIONS line");
        let mut args: Vec<String> = options
            .split_whitespace()
            .filter(|a| *a != OPTION)
            .map(|a| a.replace("%s", &case).replace("%S", dir))
            .collect();
        if !options.contains("%s") && !options.contains("%S") {
            args.push(case.clone());
        }
        let (without, code_without) = rboogie(&args);
        args.insert(0, OPTION.into());
        let (with, code_with) = rboogie(&args);
        assert_eq!((with.as_str(), code_with), (without.as_str(), code_without), "{case}");
    }
}
