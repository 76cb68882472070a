//! The field-abstraction corpus (`tests/fields/`): programs checked with `/fieldAbstraction`
//! ([`rboogie::refinement`]) and without it, each verdict and tracked set worked out by hand
//! in the file's header.
//!
//! A header line `// RUN: OPTIONS => VERDICT tracking F, G` runs rboogie with OPTIONS and
//! `/fieldAbstraction`, then with OPTIONS alone:
//! - VERDICT is Corral's (`no bugs`, `bug at L,C`, optionally `needing /k:K`) when OPTIONS
//!   name an entry point or a context bound (`/main:P`, `/k:N`), else Boogie's closing counts
//!   (`1 verified, 0 errors`); both runs must give it;
//! - the abstraction's summary line must name exactly the fields F, G as tracked, or, with a
//!   trailing `+1`, those and at most one more (a spurious path the solver happens to pick
//!   may need a field the final answer does not);
//! - a bug's report must carry a trace (the replayed path, in source terms).
//!
//! Runs are made with the in-process Z3 and over a pipe to `z3`.

use std::path::Path;

use libtest_mimic::{Arguments, Failed, Trial};

fn run(args: &[String]) -> String {
    match rboogie::cli::parse_args(args.to_vec()) {
        Ok(options) => {
            let mut out = Vec::new();
            rboogie::cli::run(&options, &mut out, &mut std::io::sink());
            String::from_utf8_lossy(&out).into_owned()
        }
        Err(e) => format!("bad options: {e:?}"),
    }
}

/// The verdict a run's output gives, in the header's words.
fn verdict(out: &str, corral: bool) -> String {
    if corral {
        let mut lines = out.lines();
        return match lines.next() {
            Some("Program has no bugs") => "no bugs".into(),
            Some("Program has a potential bug: True bug") => {
                let error = lines.next().unwrap_or_default();
                let place = error.split("): error PF5001").next().unwrap_or_default();
                let at = place.rsplit_once('(').map(|(_, n)| n).unwrap_or_default();
                let needs = out.lines().find_map(|l| {
                    let l = l.strip_prefix("Context bound: the bug ")?;
                    let k = l.strip_prefix("needs /k:").or_else(|| l.strip_prefix("shows with /k:1").map(|_| "1"))?;
                    k.split_whitespace().next().map(str::to_string)
                });
                match needs {
                    Some(k) => format!("bug at {at} needing /k:{k}"),
                    None => format!("bug at {at}"),
                }
            }
            _ => format!("no verdict in:\n{out}"),
        };
    }
    out.lines()
        .find_map(|l| l.strip_prefix("Boogie program verifier finished with "))
        .map(str::to_string)
        .unwrap_or_else(|| format!("no closing line in:\n{out}"))
}

fn tracked(out: &str) -> Option<Vec<String>> {
    let line = out.lines().find(|l| l.starts_with("field abstraction: "))?;
    let inside = line.split_once('(')?.1.split_once(')')?.0;
    Some(inside.split(", ").filter(|s| !s.is_empty()).map(str::to_string).collect())
}

fn check(file: &Path, options: &str, expected: &str, solver: Option<&str>) -> Result<(), Failed> {
    let (verdict_text, tracking) = expected.split_once(" tracking ").ok_or("no `tracking` in the RUN line")?;
    let tracking = tracking.trim();
    let (fields, slack) = match tracking.strip_suffix("+1") {
        Some(f) => (f.trim(), 1),
        None => (tracking, 0),
    };
    let fields: Vec<String> = fields.split(", ").map(str::to_string).collect();
    let corral = options.contains("/main:") || options.contains("/k:");
    let mut args: Vec<String> = options.split_whitespace().map(str::to_string).collect();
    if let Some(s) = solver {
        args.push(format!("--solver={s}"));
    }
    args.push(file.to_string_lossy().into_owned());
    let mut abstracted = args.clone();
    abstracted.insert(0, "/fieldAbstraction".into());
    let out = run(&abstracted);
    let got = verdict(&out, corral);
    if got != verdict_text.trim() {
        return Err(format!("with /fieldAbstraction {options}: expected {verdict_text}, got {got}\n{out}").into());
    }
    let Some(got_fields) = tracked(&out) else {
        return Err(format!("no field abstraction line:\n{out}").into());
    };
    let missing: Vec<&String> = fields.iter().filter(|f| !got_fields.contains(f)).collect();
    if !missing.is_empty() || got_fields.len() > fields.len() + slack {
        return Err(format!("{options}: expected tracked {tracking}, got {}\n{out}", got_fields.join(", ")).into());
    }
    if verdict_text.starts_with("bug") || verdict_text.contains("1 error") {
        let traced = out.contains("Execution trace");
        if !traced {
            return Err(format!("{options}: the bug has no trace:\n{out}").into());
        }
    }
    let plain = run(&args);
    let got = verdict(&plain, corral);
    if got != verdict_text.trim() {
        return Err(format!("without /fieldAbstraction {options}: expected {verdict_text}, got {got}\n{plain}").into());
    }
    Ok(())
}

/// Under `--format json` every line is an object, the figures one of kind `field_abstraction`.
fn json_figures() -> Result<(), Failed> {
    let args: Vec<String> =
        ["--format=json", "/fieldAbstraction", "tests/fields/01_guard_not_in_property.bpl"].map(String::from).to_vec();
    let out = run(&args);
    let mut figures = None;
    for line in out.lines() {
        let value: serde_json::Value = serde_json::from_str(line).map_err(|e| format!("not JSON ({e}): {line}"))?;
        if value["kind"] == "field_abstraction" {
            figures = Some(value);
        }
    }
    let figures = figures.ok_or_else(|| format!("no field_abstraction object:\n{out}"))?;
    if figures["fields"] != 4
        || figures["tracked"] != serde_json::json!(["Enabled", "Count"])
        || figures["iterations"] != 2
    {
        return Err(format!("unexpected figures: {figures}").into());
    }
    Ok(())
}

fn main() {
    // A Z3 call given up on at its deadline may stall new in-process contexts: from then on,
    // Z3 runs in a process of its own, the binary's server, as the binary itself does.
    rboogie::smt::use_z3_server(std::path::PathBuf::from(env!("CARGO_BIN_EXE_rboogie")));
    let arguments = Arguments::from_args();
    let mut trials = Vec::new();
    let mut files: Vec<_> = std::fs::read_dir("tests/fields")
        .expect("tests/fields")
        .filter_map(|e| e.ok().map(|e| e.path()))
        .filter(|p| p.extension().is_some_and(|x| x == "bpl"))
        .collect();
    files.sort();
    for file in files {
        let text = std::fs::read_to_string(&file).expect("readable");
        let name = file.file_stem().unwrap_or_default().to_string_lossy().into_owned();
        for (i, line) in text.lines().filter_map(|l| l.strip_prefix("// RUN:")).enumerate() {
            let Some((options, expected)) = line.split_once("=>") else { continue };
            for solver in [None, Some("z3")] {
                let (file, options, expected) = (file.clone(), options.trim().to_string(), expected.trim().to_string());
                let label = format!("{name}#{i}{}", solver.map(|s| format!("-{s}")).unwrap_or_default());
                trials.push(Trial::test(label, move || check(&file, &options, &expected, solver)));
            }
        }
    }
    trials.push(Trial::test("json-figures", json_figures));
    libtest_mimic::run(&arguments, trials).exit();
}
