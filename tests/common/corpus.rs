//! The corpus harness the bounded and concurrent corpora share: each `X.bpl` of a directory
//! is checked from its entry point at the bounds its header names, and each verdict compared
//! with the one worked out by hand in the file.
//!
//! A case's leading `//` lines hold its reasoning and, one per line, the runs:
//! - `// RUN: /recursionBound:3 => no bugs` — no bug, and nothing cut by the bound (a proof);
//! - `// RUN: /recursionBound:3 => no bugs within the bound` — no bug, but the bound cut
//!   recursion or a loop (Corral's `Reached recursion bound of 3`);
//! - `// RUN: /recursionBound:4 => bug at 7,3` — Corral's `True bug`, the first failing
//!   check at line 7, column 3;
//! - `// RUN: /k:4 => bug at 7,3 needing /k:2` — and the smallest context bound that shows
//!   it is 2 (the line `Context bound: ...` after the trace).
//!
//! The options of a run come before `=>`; `/main:main` is added unless they name an entry
//! (`/main:P`, `/bounded`, or a harness's `/thread:P`). Each run is made once per mode the corpus names.

use std::path::{Path, PathBuf};

#[derive(Debug, PartialEq)]
enum Verdict {
    NoBugs { bound_reached: bool },
    Bug { line: u32, col: u32, needs: Option<u32> },
}

fn expected(text: &str) -> Result<Verdict, String> {
    let text = text.trim();
    if let Some((bug, k)) = text.split_once(" needing /k:") {
        let k = k.trim().parse::<u32>().map_err(|e| format!("bad context bound {k}: {e}"))?;
        return match expected(bug)? {
            Verdict::Bug { line, col, .. } => Ok(Verdict::Bug { line, col, needs: Some(k) }),
            v => Err(format!("`needing` after {v:?}")),
        };
    }
    match text {
        "no bugs" => Ok(Verdict::NoBugs { bound_reached: false }),
        "no bugs within the bound" => Ok(Verdict::NoBugs { bound_reached: true }),
        _ => {
            let at = text.strip_prefix("bug at ").ok_or_else(|| format!("unknown verdict: {text}"))?;
            let (line, col) = at.split_once(',').ok_or_else(|| format!("bad position: {at}"))?;
            let number = |s: &str| s.trim().parse::<u32>().map_err(|e| format!("bad position {at}: {e}"));
            Ok(Verdict::Bug { line: number(line)?, col: number(col)?, needs: None })
        }
    }
}

/// Reads Corral's verdict off rboogie's output.
fn actual(out: &str) -> Result<Verdict, String> {
    let mut lines = out.lines();
    match lines.next() {
        Some("Program has no bugs") => Ok(Verdict::NoBugs {
            bound_reached: lines.next().is_some_and(|l| l.starts_with("Reached recursion bound")),
        }),
        Some("Program has a potential bug: True bug") => {
            let error = lines.next().unwrap_or_default();
            let place = error.split("): error PF5001").next().unwrap_or_default();
            let numbers = place.rsplit_once('(').map(|(_, n)| n).unwrap_or_default();
            let (line, col) = numbers.split_once(',').ok_or_else(|| format!("no position in {error:?}"))?;
            // The smallest context bound, said by `needs /k:K` or `shows with /k:1`.
            let needs = out.lines().find_map(|l| {
                let l = l.strip_prefix("Context bound: the bug ")?;
                let k = l.strip_prefix("needs /k:").or_else(|| l.strip_prefix("shows with /k:1").map(|_| "1"))?;
                k.split_whitespace().next()?.parse().ok()
            });
            Ok(Verdict::Bug {
                line: line.parse().map_err(|_| format!("bad line in {error:?}"))?,
                col: col.parse().map_err(|_| format!("bad column in {error:?}"))?,
                needs,
            })
        }
        _ => Err(format!("no verdict in the output:\n{out}")),
    }
}

fn run(args: Vec<String>) -> (String, i32) {
    match rboogie::cli::parse_args(args) {
        Ok(options) => {
            let mut out = Vec::new();
            let code = rboogie::cli::run(&options, &mut out, &mut std::io::sink());
            (String::from_utf8_lossy(&out).into_owned(), code)
        }
        Err(e) => (e.to_string(), e.exit_code()),
    }
}

fn check(path: &Path, modes: &[&[&str]]) -> Result<(), String> {
    let text = std::fs::read_to_string(path).map_err(|e| format!("{}: {e}", path.display()))?;
    let runs: Vec<&str> = text
        .lines()
        .take_while(|l| l.starts_with("//"))
        .filter_map(|l| l.trim_start_matches('/').trim().strip_prefix("RUN:"))
        .collect();
    if runs.is_empty() {
        return Err(format!("{}: no `// RUN:` line", path.display()));
    }
    let mut failures = Vec::new();
    for run_line in runs {
        let (options, verdict) = run_line.split_once("=>").ok_or_else(|| format!("no `=>` in {run_line:?}"))?;
        let want = expected(verdict)?;
        for mode in modes {
            let mut args: Vec<String> = vec!["-useBaseNameForFileName".into(), "--solver=in-process".into()];
            let options: Vec<&str> = options.split_whitespace().collect();
            if !options.iter().any(|o| o.starts_with("/main:") || o.starts_with("/thread:") || *o == "/bounded") {
                args.push("/main:main".into());
            }
            args.extend(options.iter().map(|o| o.to_string()));
            args.extend(mode.iter().map(|o| o.to_string()));
            args.push(path.to_string_lossy().into_owned());
            let (out, code) = run(args.clone());
            // The smallest context bound is compared only where the case names it.
            let got = actual(&out).map(|got| match (&want, got) {
                (Verdict::Bug { needs: None, .. }, Verdict::Bug { line, col, .. }) => {
                    Verdict::Bug { line, col, needs: None }
                }
                (_, got) => got,
            });
            match got {
                Ok(got) if got == want && code == 0 => {}
                Ok(got) => {
                    failures.push(format!("{}: expected {want:?}, got {got:?} (exit {code})\n{out}", args.join(" ")))
                }
                Err(e) => failures.push(format!("{}: {e}", args.join(" "))),
            }
        }
    }
    if failures.is_empty() { Ok(()) } else { Err(failures.join("\n")) }
}

/// Runs every `.bpl` file under `root` as a test, once per mode in `modes`; the corpus must
/// hold at least `at_least` programs.
pub fn run_corpus(root: &'static str, modes: &'static [&'static [&'static str]], at_least: usize) {
    let args = libtest_mimic::Arguments::from_args();
    let mut paths: Vec<PathBuf> = std::fs::read_dir(root)
        .expect("the corpus directory")
        .filter_map(|e| e.ok().map(|e| e.path()))
        .filter(|p| p.extension().is_some_and(|e| e == "bpl"))
        .collect();
    paths.sort();
    assert!(paths.len() >= at_least, "{root} has {} programs; it should have at least {at_least}", paths.len());
    let trials = paths
        .into_iter()
        .map(|path| {
            let name = path.file_name().unwrap_or_default().to_string_lossy().into_owned();
            libtest_mimic::Trial::test(name, move || check(&path, modes).map_err(Into::into))
        })
        .collect();
    libtest_mimic::run(&args, trials).exit();
}
