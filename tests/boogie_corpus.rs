//! Runs the front end over a checkout of Boogie's `Test/` tree, when one is named by
//! `BOOGIE_TESTS` (the tests are not part of this repository; see README). Checks that no
//! file panics, that every file Boogie parses parses, and that every file whose expected
//! output reports parse errors gives exactly Boogie's error lines. Skipped without
//! `BOOGIE_TESTS`.

use std::path::{Path, PathBuf};

use rboogie::parser;
use rboogie::source::SourceMap;

/// Every `.bpl` file under `dir`, in a stable order.
fn bpl_files(dir: &Path) -> Vec<PathBuf> {
    walkdir::WalkDir::new(dir)
        .sort_by_file_name()
        .into_iter()
        .flatten()
        .filter(|e| e.file_type().is_file() && e.path().extension().is_some_and(|x| x == "bpl"))
        .map(walkdir::DirEntry::into_path)
        .collect()
}

/// Boogie's parse-error lines for `file` (empty when its expected output has none).
fn expected_parse_errors(file: &Path) -> Option<Vec<String>> {
    let expect = std::fs::read_to_string(format!("{}.expect", file.display())).ok()?;
    if !expect.contains("parse errors detected") {
        return None;
    }
    Some(
        expect
            .lines()
            .filter(|l| l.contains("): error: ") || l.contains("parse errors detected"))
            .map(str::to_string)
            .collect(),
    )
}

fn render(sources: &SourceMap, errors: &[rboogie::diagnostics::Diagnostic], name: &str) -> Vec<String> {
    let mut out: Vec<String> = errors
        .iter()
        .map(|d| {
            let p = sources.position(d.span);
            let col = if d.column_zero { 0 } else { p.col };
            format!("{}({},{}): error: {}", p.file, p.line, col, d.message)
        })
        .collect();
    out.push(format!("{} parse errors detected in {}", errors.len(), name));
    out
}

#[test]
fn boogie_test_tree() {
    let Ok(root) = std::env::var("BOOGIE_TESTS") else {
        eprintln!("BOOGIE_TESTS not set: skipped");
        return;
    };
    let files = bpl_files(Path::new(&root));
    let mut failures = Vec::new();
    let mut checked_errors = 0;
    for file in &files {
        let Ok(text) = std::fs::read_to_string(file) else { continue };
        let name = file.file_name().and_then(|n| n.to_str()).unwrap_or("?").to_string();
        let mut sources = SourceMap::new();
        let id = sources.add(file.display().to_string(), name.clone(), text);
        let result = std::panic::catch_unwind(std::panic::AssertUnwindSafe(|| {
            let mut s = sources.clone();
            let r = parser::parse(&mut s, id, &[]);
            (s, r)
        }));
        let Ok((sources, result)) = result else {
            failures.push(format!("{}: panic", file.display()));
            continue;
        };
        match (expected_parse_errors(file), result) {
            (None, Ok(_)) => {}
            (None, Err(errors)) => failures.push(format!(
                "{}: unexpected errors:\n  {}",
                file.display(),
                render(&sources, &errors, &name).join("\n  ")
            )),
            (Some(expected), Ok(_)) => {
                failures.push(format!("{}: parsed, Boogie says:\n  {}", file.display(), expected.join("\n  ")))
            }
            (Some(expected), Err(errors)) => {
                checked_errors += 1;
                let got = render(&sources, &errors, &name);
                if got != expected {
                    failures.push(format!(
                        "{}:\n  expected:\n    {}\n  got:\n    {}",
                        file.display(),
                        expected.join("\n    "),
                        got.join("\n    ")
                    ));
                }
            }
        }
    }
    eprintln!("{} files, {} with parse errors checked, {} failures", files.len(), checked_errors, failures.len());
    assert!(failures.is_empty(), "{}", failures.join("\n"));
}
