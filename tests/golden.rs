//! File-driven tests: every `tests/golden/**/X.bpl` is run through rboogie's library entry
//! (`cli::parse_args`, then `cli::run`) and what it prints on stdout is compared with
//! `X.bpl.expect` beside it. `BLESS=1 cargo test --test golden` rewrites the expectations.
//! Each file is a test of its own (a `libtest-mimic` harness), named by its path under
//! `tests/golden`, so a failure names its file and `cargo test --test golden -- verify/model`
//! runs the cases whose names contain `verify/model`.
//!
//! A case's leading `//` comment lines may say:
//! - `// OPTIONS: /noVerify /print:-` — the command line (default: `/noVerify`). `%s` stands
//!   for the case's own path and `%S` for its directory, as in Boogie's lit tests; when the
//!   line uses neither, the case's path is put last. `-useBaseNameForFileName` always comes
//!   first, so messages do not depend on where the repository is.
//! - `// EXIT: N` — the expected exit code (default 0).
//!
//! Files under a directory named `Inputs` are not cases: cases use them through `%S`.
//! When rboogie refuses the command line, the expectation is what it prints on stderr.
//! Paths are given relative to the crate root (cargo's working directory for tests), and the
//! crate root's absolute path is removed from the output (Boogie prints a full path when it
//! cannot open a file).

use pretty_assertions::StrComparison;
use std::panic::{AssertUnwindSafe, catch_unwind};
use std::path::{Path, PathBuf};

const ROOT: &str = "tests/golden";

struct Case {
    /// Relative to the crate root, `/`-separated.
    path: String,
    args: Vec<String>,
    exit: i32,
}

fn collect(dir: &Path, out: &mut Vec<PathBuf>) {
    let Ok(entries) = std::fs::read_dir(dir) else { return };
    for entry in entries.flatten() {
        let path = entry.path();
        if path.is_dir() {
            if path.file_name().is_some_and(|n| n != "Inputs") {
                collect(&path, out);
            }
        } else if path.extension().is_some_and(|e| e == "bpl") {
            out.push(path);
        }
    }
}

fn read_case(path: &Path) -> Result<Case, String> {
    let text = std::fs::read_to_string(path).map_err(|e| format!("cannot read: {e}"))?;
    let path = path.to_string_lossy().replace('\\', "/");
    let dir = path.rsplit_once('/').map_or(".", |(d, _)| d).to_string();
    let mut options = vec!["/noVerify".to_string()];
    let mut exit = 0;
    for line in text.lines().take_while(|l| l.starts_with("//")) {
        let line = line.trim_start_matches('/').trim();
        if let Some(rest) = line.strip_prefix("OPTIONS:") {
            options = rest.split_whitespace().map(String::from).collect();
        } else if let Some(rest) = line.strip_prefix("EXIT:") {
            exit = rest.trim().parse().map_err(|_| format!("bad EXIT line: {line}"))?;
        }
    }
    let mut args = vec!["-useBaseNameForFileName".to_string()];
    let mut has_self = false;
    for option in options {
        has_self |= option.contains("%s") || option.contains("%S");
        args.push(option.replace("%s", &path).replace("%S", &dir));
    }
    if !has_self {
        args.push(path.clone());
    }
    Ok(Case { path, args, exit })
}

/// Field abstraction's summary line ends in its time (`..., 2 iterations, 0.31 s`): `T s`.
fn mask_seconds(out: &str) -> String {
    out.lines()
        .map(|l| match l.strip_prefix("field abstraction: ").and_then(|_| l.rsplit_once(", ")) {
            Some((head, tail)) if tail.ends_with(" s") => format!("{head}, T s\n"),
            _ => format!("{l}\n"),
        })
        .collect()
}

/// What rboogie prints for a case, and its exit code.
fn run_case(case: &Case) -> (String, i32) {
    let result = catch_unwind(AssertUnwindSafe(|| match rboogie::cli::parse_args(case.args.clone()) {
        Ok(options) => {
            let mut out = Vec::new();
            let code = rboogie::cli::run(&options, &mut out, &mut std::io::sink());
            let out = String::from_utf8_lossy(&out).replace(concat!(env!("CARGO_MANIFEST_DIR"), "/"), "");
            (mask_seconds(&out), code)
        }
        Err(e) => (e.to_string(), e.exit_code()),
    }));
    result.unwrap_or_else(|panic| {
        let message = panic
            .downcast_ref::<String>()
            .cloned()
            .or_else(|| panic.downcast_ref::<&str>().map(|s| s.to_string()))
            .unwrap_or_default();
        (format!("<rboogie panicked: {message}>\n"), -1)
    })
}

/// One case: compared with (or, under `BLESS=1`, written to) its `.expect` file.
fn check(path: &Path, bless: bool) -> Result<(), String> {
    let case = read_case(path).map_err(|e| format!("{}: {e}", path.display()))?;
    let (actual, code) = run_case(&case);
    let expect_path = format!("{}.expect", case.path);
    let mut failures = Vec::new();
    if code != case.exit {
        failures.push(format!("exit code {code}, expected {}\n{actual}", case.exit));
    }
    if bless {
        if std::fs::read_to_string(&expect_path).ok().as_deref() != Some(actual.as_str()) {
            std::fs::write(&expect_path, &actual).map_err(|e| format!("{expect_path}: {e}"))?;
            eprintln!("blessed {expect_path}");
        }
    } else {
        match std::fs::read_to_string(&expect_path) {
            Ok(expected) if expected == actual => {}
            Ok(expected) => failures.push(format!(
                "output differs from {expect_path} (args: {})\n{}",
                case.args.join(" "),
                StrComparison::new(&expected, &actual)
            )),
            Err(_) => failures.push(format!("no {expect_path} (BLESS=1 writes it); output:\n{actual}")),
        }
    }
    if failures.is_empty() { Ok(()) } else { Err(failures.join("\n")) }
}

fn main() {
    // A Z3 call given up on at its deadline may stall new in-process contexts: from then on,
    // Z3 runs in a process of its own, the binary's server, as the binary itself does.
    rboogie::smt::use_z3_server(std::path::PathBuf::from(env!("CARGO_BIN_EXE_rboogie")));
    let args = libtest_mimic::Arguments::from_args();
    let bless = std::env::var_os("BLESS").is_some_and(|v| v != "0" && !v.is_empty());
    let mut paths = Vec::new();
    collect(Path::new(ROOT), &mut paths);
    paths.sort();
    assert!(!paths.is_empty(), "no cases under {ROOT}");
    let trials = paths
        .into_iter()
        .map(|path| {
            let name = path.strip_prefix(ROOT).unwrap_or(&path).to_string_lossy().replace('\\', "/");
            libtest_mimic::Trial::test(name, move || check(&path, bless).map_err(Into::into))
        })
        .collect();
    libtest_mimic::run(&args, trials).exit();
}
