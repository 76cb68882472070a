//! Whole-program bounded checking on generated call trees (issue 16's benchmark).
//!
//! `cargo build --release && cargo bench --bench bounded` generates, for depth d = 4..12, a
//! call tree of fan-out 2: `p0(x)` calls `p1(2x)` and `p1(2x + 1)`, and so on down to
//! `leaf(x)` at depth d. The leaves are reached with the distinct values 2^d .. 2^(d+1) − 1, and
//! the leaf asserts `x != T`: with T one leaf's value (`bug`) exactly one path fails, and with
//! T out of range (`safe`) none does. The program text grows linearly in d; the inlined program,
//! 2^d leaves, does not. For each, the verdict, the best of 3 whole-process times of
//! `rboogie /main:main` and the size of the query it sends (`/proverLog`), per inlining mode.
//! Stratified inlining (the default, `/stratified`) follows the failing path: on the trees with
//! a bug its instances grow with d, not with 2^d; on the safe trees it must inline the whole
//! tree, one solver session for all its rounds, and is timed up to depth 10. For it the table
//! also gives the search's figures from `/trace`: rounds, callee instances, and the SMT-LIB it
//! sent to its session. The query column is the `/proverLog` file: for eager inlining the VC,
//! for stratified inlining the final check of the chosen sites after a bug, its session after
//! "no bugs".

#[path = "common/process.rs"]
mod process;

use std::fmt::Write;
use std::process::Command;
use std::time::{Duration, Instant};

fn generate(depth: u32, bug: bool) -> String {
    let mut out = String::new();
    for k in 0..depth {
        let callee = if k + 1 == depth { "leaf".to_string() } else { format!("p{}", k + 1) };
        let _ = writeln!(out, "procedure p{k}(x: int) {{\n  call {callee}(2 * x);\n  call {callee}(2 * x + 1);\n}}");
    }
    // One leaf value (bug), or none (safe).
    let target = if bug { (1i64 << depth) + 5 } else { -1 };
    let _ = writeln!(out, "procedure leaf(x: int) {{\n  assert x != {target};\n}}");
    let _ = writeln!(out, "procedure main() {{\n  call p0(1);\n}}");
    out
}

struct Run {
    time: Duration,
    verdict: String,
    query_bytes: u64,
    /// Stratified inlining's `/trace` summary: rounds, instances, KB sent.
    search: Option<(u64, u64, u64)>,
}

/// The numbers in `[TRACE] stratified inlining: R rounds, I instances, Q queries, K KB sent (..)`.
fn search_figures(stdout: &str) -> Option<(u64, u64, u64)> {
    let line = stdout.lines().find(|l| l.starts_with("[TRACE] stratified inlining:") && l.contains(" rounds, "))?;
    let numbers: Vec<u64> = line.split([' ', ',']).filter_map(|w| w.parse().ok()).collect();
    match numbers[..] {
        [rounds, instances, _queries, kb, ..] => Some((rounds, instances, kb)),
        _ => None,
    }
}

fn run(binary: &str, file: &str, log: &str, extra: &[&str]) -> Option<Run> {
    let mut best: Option<Run> = None;
    for _ in 0..3 {
        let started = Instant::now();
        let output = Command::new(binary)
            .args(["/main:main", "/recursionBound:1", "/trace", &format!("/proverLog:{log}")])
            .args(extra)
            .arg(file)
            .output()
            .ok()?;
        let time = started.elapsed();
        let stdout = String::from_utf8_lossy(&output.stdout);
        let verdict = match stdout.lines().find(|l| !l.starts_with("[TRACE]") && !l.starts_with("Parsing")) {
            Some(l) if l.contains("True bug") => "bug",
            Some(l) if l.starts_with("Program has no bugs") => "no bugs",
            _ => "?",
        };
        let query_bytes = std::fs::metadata(log).map(|m| m.len()).unwrap_or(0);
        if best.as_ref().is_none_or(|b| time < b.time) {
            best = Some(Run { time, verdict: verdict.to_string(), query_bytes, search: search_figures(&stdout) });
        }
    }
    best
}

fn main() {
    let Some((binary, dir)) = process::setup("bounded") else { return };
    println!("bounded: call trees of fan-out 2, /main:main /recursionBound:1, best of 3, whole process");
    println!(
        "{:>5} {:>5} {:>8} {:>12} {:>9} {:>10} {:>12} {:>8} {:>10} {:>9}",
        "depth", "kind", "leaves", "mode", "verdict", "time s", "query KB", "rounds", "instances", "sent KB"
    );
    for depth in [4, 6, 8, 10, 12] {
        for bug in [true, false] {
            let path = dir.join(format!("tree-{depth}-{bug}.bpl"));
            std::fs::write(&path, generate(depth, bug)).expect("writable temporary file");
            let log = dir.join("query.smt2");
            for (mode, extra) in [("eager", &["/eagerInline"][..]), ("stratified", &[][..])] {
                // A safe tree must be inlined whole, in many rounds: up to depth 10.
                if mode == "stratified" && depth > 10 && !bug {
                    continue;
                }
                let Some(r) = run(binary, &path.to_string_lossy(), &log.to_string_lossy(), extra) else {
                    println!("{depth:>5}: rboogie failed");
                    return;
                };
                let (rounds, instances, sent) = match r.search {
                    Some((rounds, instances, sent)) => (rounds.to_string(), instances.to_string(), sent.to_string()),
                    None => ("-".into(), "-".into(), "-".into()),
                };
                println!(
                    "{:>5} {:>5} {:>8} {:>12} {:>9} {:>10.3} {:>12.1} {:>8} {:>10} {:>9}",
                    depth,
                    if bug { "bug" } else { "safe" },
                    1u64 << depth,
                    mode,
                    r.verdict,
                    r.time.as_secs_f64(),
                    r.query_bytes as f64 / 1024.0,
                    rounds,
                    instances,
                    sent
                );
            }
        }
    }
    let _ = std::fs::remove_dir_all(&dir);
}
