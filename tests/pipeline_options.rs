//! The pipeline's own options, where a golden file cannot say what is expected:
//! - `--print-after=PASS` prints, for every pass and every pass test (`tests/golden/passes`),
//!   a program that parses and type-checks again and verifies as the original does (but for
//!   the statement ids and axiom names a pass repeats, see below);
//! - `/trace` prints Boogie's progress lines, times masked;
//! - `--check-passes` finds the tables lambda lifting records equal to a check from scratch.

use std::path::{Path, PathBuf};

const PASSES_DIR: &str = "tests/golden/passes";

/// rboogie's stdout and exit code for a command line.
fn rboogie(args: &[String]) -> (String, i32) {
    let options = rboogie::cli::parse_args(args.iter().cloned()).unwrap_or_else(|e| panic!("{args:?}: {e}"));
    let mut out = Vec::new();
    let code = rboogie::cli::run(&options, &mut out, &mut std::io::sink());
    (String::from_utf8(out).expect("utf-8"), code)
}

fn strings(args: &[&str]) -> Vec<String> {
    args.iter().map(|s| s.to_string()).collect()
}

/// The options on a case's `// OPTIONS:` line that change what the passes do.
fn pass_options(text: &str) -> Vec<String> {
    let line = text.lines().take_while(|l| l.starts_with("//")).find_map(|l| l.split_once("OPTIONS:"));
    line.map_or_else(Vec::new, |(_, rest)| {
        rest.split_whitespace()
            .filter(|o| {
                ["/loopUnroll", "/soundLoopUnrolling", "/inline:", "-typeEncoding"].iter().any(|p| o.starts_with(p))
            })
            .map(String::from)
            .collect()
    })
}

/// The program `--print-after` printed: from its header to the end, without the verifier's
/// trailer and the messages about the input file.
fn printed_program(out: &str, input: &str) -> String {
    let start = out.find("// rboogie: the program after pass").unwrap_or_else(|| panic!("no program in:\n{out}"));
    out[start..]
        .lines()
        .filter(|l| !l.starts_with("Boogie program verifier finished") && !l.starts_with(&format!("{input}(")))
        .map(|l| format!("{l}\n"))
        .collect()
}

fn trailer(out: &str) -> Option<&str> {
    out.lines().find(|l| l.starts_with("Boogie program verifier finished"))
}

fn cases() -> Vec<PathBuf> {
    let mut cases: Vec<PathBuf> = std::fs::read_dir(PASSES_DIR)
        .expect("pass tests")
        .map(|e| e.expect("entry").path())
        .filter(|p| p.extension().is_some_and(|e| e == "bpl"))
        .collect();
    cases.sort();
    cases
}

#[test]
fn print_after_every_pass_parses_type_checks_and_verifies_again() {
    let scratch = std::env::temp_dir().join(format!("rboogie-print-after-{}", std::process::id()));
    std::fs::create_dir_all(&scratch).expect("scratch directory");
    let mut checked = 0;
    for case in cases() {
        let text = std::fs::read_to_string(&case).expect("readable");
        let options = pass_options(&text);
        let path = case.to_string_lossy().to_string();
        let name = case.file_name().unwrap().to_string_lossy().to_string();
        let mut original_args = strings(&["-useBaseNameForFileName"]);
        original_args.extend(options.iter().cloned());
        original_args.push(path.clone());
        let (original, _) = rboogie(&original_args);
        for pass in rboogie::passes::PASS_NAMES {
            let mut args = strings(&["-useBaseNameForFileName", "/noVerify"]);
            args.extend(options.iter().cloned());
            args.extend([format!("--print-after={pass}"), path.clone()]);
            let (out, _) = rboogie(&args);
            if out.contains("not supported yet") {
                continue; // e.g. a program that needs `/typeEncoding:p`
            }
            let program = printed_program(&out, &name);
            let again = scratch.join(format!("{}-{pass}.bpl", name.trim_end_matches(".bpl")));
            std::fs::write(&again, &program).expect("scratch file");
            let again = again.to_string_lossy().to_string();

            let (checked_out, code) = rboogie(&strings(&["/noVerify", &again]));
            // Passes copy statements and axioms with their `{:id}` and `{:name}`, which a
            // program as written may not repeat (Boogie's own inlined and monomorphized
            // programs repeat them too): the only errors allowed, and then there is nothing
            // to verify.
            let repeated = |line: &str| {
                line.contains("more than one statement with same id")
                    || line.contains("more than one declaration of axiom name")
            };
            let errors: Vec<&str> = checked_out.lines().filter(|l| l.contains("Error")).collect();
            if !errors.is_empty() && errors.iter().all(|l| repeated(l)) {
                continue;
            }
            assert!(
                code == 0 && !checked_out.contains("Error") && !checked_out.contains("errors detected"),
                "{name} after {pass} does not check again:\n{checked_out}\n--- program:\n{program}"
            );
            // The printed program verifies as the original does (same trailer), under the same
            // options (the passes after PASS run on it again).
            let mut verify_args = options.clone();
            verify_args.push(again.clone());
            let (verified, _) = rboogie(&verify_args);
            assert_eq!(
                trailer(&verified),
                trailer(&original),
                "{name} after {pass}:\n{verified}\n--- original:\n{original}\n--- program:\n{program}"
            );
            checked += 1;
        }
    }
    let _ = std::fs::remove_dir_all(&scratch);
    assert!(checked >= 40, "only {checked} programs checked");
}

#[test]
fn print_after_all_prints_after_every_pass_and_the_run_goes_on() {
    let (out, code) =
        rboogie(&strings(&["-useBaseNameForFileName", "--print-after=all", "tests/golden/passes/inline_verify.bpl"]));
    assert_eq!(code, 0);
    let headers: Vec<&str> = out.lines().filter(|l| l.starts_with("// rboogie: the program after pass")).collect();
    let names: Vec<String> =
        rboogie::passes::PASS_NAMES.iter().map(|n| format!("// rboogie: the program after pass {n}")).collect();
    assert_eq!(headers, names);
    assert!(trailer(&out).is_some_and(|t| !t.contains(" 0 verified")), "{out}");
}

/// z3's resource counts in `/trace` lines replaced by `R`.
fn mask_counts(out: &str) -> String {
    out.lines()
        .map(|line| match line.split_once("solver resource count: ") {
            Some((head, tail)) => {
                let rest = tail.split_once(',').map_or("", |(_, r)| r);
                format!("{head}solver resource count: R,{rest}\n")
            }
            None => format!("{line}\n"),
        })
        .collect()
}

/// Times in `/trace` lines (a number before the word `s`) replaced by `T`.
fn mask_times(out: &str) -> String {
    let mut masked = String::new();
    for line in out.lines() {
        let mut words: Vec<String> = line.split(' ').map(String::from).collect();
        for i in 1..words.len() {
            let number = words[i - 1].trim_start_matches('[').to_string();
            if words[i].starts_with('s') && !number.is_empty() && number.parse::<f64>().is_ok() {
                words[i - 1] = words[i - 1].replace(&number, "T");
            }
        }
        masked += &words.join(" ");
        masked.push('\n');
    }
    masked
}

/// `/trace` prints what Boogie's does, in its places: `Parsing F`, the phases after type
/// checking, each implementation's `Verifying P ...` (the solver named after the first) and its
/// time, resources and proof obligations.
#[test]
fn trace_reports_parsing_prover_and_implementations_as_boogie_does() {
    let file = Path::new("tests/golden/cli/Inputs/trace.bpl");
    let args = strings(&["-useBaseNameForFileName", "/trace", "--solver=in-process", &file.to_string_lossy()]);
    let (out, code) = rboogie(&args);
    assert_eq!(code, 0);
    // What every run of the file reports, traced or not.
    let report = "\
trace.bpl(14,3): Error: this assertion could not be proved
Execution trace:
    trace.bpl(14,3): anon0

Boogie program verifier finished with 1 verified, 1 error
";
    let expected = "\
Parsing trace.bpl
Coalescing blocks...
Inlining...

Verifying Good ...
[TRACE] Using prover: z3
  [T s, solver resource count: R, 1 proof obligation]  verified

Verifying Bad ...
  [T s, solver resource count: R, 1 proof obligation]  error
"
    .to_string()
        + report;
    pretty_assertions::assert_eq!(mask_counts(&mask_times(&out)), expected);

    // `/tracePOs`: the implementations and their proof obligations only.
    let args = strings(&["-useBaseNameForFileName", "/tracePOs", &file.to_string_lossy()]);
    let (out, _) = rboogie(&args);
    let expected = "\n\
Verifying Good ...
  [1 proof obligation]  verified

Verifying Bad ...
  [1 proof obligation]  error
"
    .to_string()
        + report;
    pretty_assertions::assert_eq!(out, expected);

    // Without /trace, none of it.
    let (plain, _) = rboogie(&strings(&["-useBaseNameForFileName", &file.to_string_lossy()]));
    pretty_assertions::assert_eq!(plain, report);
}

/// `--trace-passes` (rboogie's own): the time of resolution and type checking and of each pass.
#[test]
fn trace_passes_reports_each_pass() {
    let file = Path::new("tests/golden/cli/Inputs/trace.bpl");
    let args = strings(&["-useBaseNameForFileName", "--trace-passes", "/noVerify", &file.to_string_lossy()]);
    let (out, code) = rboogie(&args);
    assert_eq!(code, 0);
    let expected = "\
[TRACE] resolution and type checking: T s
[TRACE] pass civl: T s, no change
[TRACE] pass linear: T s, no change
[TRACE] pass modifies: T s, no change
[TRACE] pass reach: T s, no change
[TRACE] pass datatypes: T s, no change
[TRACE] pass lambda: T s, changed the program (its types recorded by the pass)
[TRACE] pass monomorphize: T s, no change
[TRACE] pass erase-types: T s, no change
[TRACE] pass inline: T s, changed the program (checked again in T s)
[TRACE] pass infer: T s, no change
[TRACE] pass field-abstraction: T s, no change
[TRACE] pass unroll: T s, no change
[TRACE] pass sequentialize: T s, no change
[TRACE] pass pin: T s, no change
[TRACE] pass houdini-inline: T s, no change
[TRACE] pass houdini-assignment: T s, no change

Boogie program verifier finished with 0 verified, 0 errors
";
    pretty_assertions::assert_eq!(mask_times(&out), expected);
}

/// Lambda lifting records the types of what it builds instead of having its output checked
/// again; `--check-passes` compares that record with a check from scratch. Every golden
/// program with a lambda (in every directory: attributes, pools, `old`, polymorphism, nested
/// lambdas) goes through that comparison without an internal error.
#[test]
fn lambda_liftings_recorded_tables_agree_with_a_check_from_scratch() {
    let mut files: Vec<PathBuf> = walkdir::WalkDir::new("tests/golden")
        .sort_by_file_name()
        .into_iter()
        .flatten()
        .map(walkdir::DirEntry::into_path)
        .filter(|p| p.extension().is_some_and(|e| e == "bpl"))
        .filter(|p| std::fs::read_to_string(p).is_ok_and(|t| t.contains("lambda")))
        .collect();
    files.sort();
    assert!(files.len() >= 10, "the golden tests have programs with lambdas");
    for file in files {
        let (out, _) = rboogie(&strings(&["/noVerify", "--check-passes", &file.to_string_lossy()]));
        assert!(!out.contains("internal error"), "{}:\n{out}", file.display());
    }
}

/// The `*** MODEL` ... `*** END_MODEL` blocks of `out`, in order, and `out` without them.
fn split_models(out: &str) -> (String, String) {
    let (mut models, mut rest) = (String::new(), String::new());
    let mut inside = false;
    for line in out.split_inclusive('\n') {
        inside |= line.starts_with("*** MODEL");
        if inside {
            models.push_str(line)
        } else {
            rest.push_str(line)
        }
        inside &= !line.starts_with("*** END_MODEL");
    }
    (models, rest)
}

/// `/printModelToFile:FILE` moves the models `/printModel:1` prints after the traces into
/// FILE, unchanged and in the same order; the console keeps everything else. The file is made
/// empty at the start of each run, so a run without errors leaves it empty.
#[test]
fn print_model_to_file_holds_the_models_the_console_would_show() {
    let case = "tests/golden/verify/print_model_to_file.bpl";
    let file = Path::new(env!("CARGO_TARGET_TMPDIR")).join("print-model-to-file.txt");
    let to_file = format!("/printModelToFile:{}", file.display());
    let (console, code) = rboogie(&strings(&["/printModel:1", case]));
    assert_eq!(code, 0);
    let (models, rest) = split_models(&console);
    assert_eq!(models.matches("*** MODEL").count(), 2, "{console}");
    let (redirected, _) = rboogie(&strings(&["/printModel:1", &to_file, case]));
    assert_eq!(redirected, rest);
    assert_eq!(std::fs::read_to_string(&file).expect("the model file"), models);
    let (_, _) = rboogie(&strings(&["/printModel:1", &to_file, "tests/golden/verify/model_verify.bpl"]));
    assert_eq!(std::fs::read_to_string(&file).expect("the model file"), "");
}
