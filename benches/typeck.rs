//! Resolution and type-checking figures: how fast rboogie gets from text to a typed program.
//!
//! `cargo bench --bench typeck` measures, for each input, best and median of several runs of
//! parsing alone and of parse + resolve + type check (`parser::parse`, then `typeck::run`),
//! and prints the throughput of the whole in MB/s and the share of each phase. Inputs: with
//! `BOOGIE_TESTS` naming a checkout of Boogie's `Test/` directory, `dafny/Seq.bpl` and the
//! largest programs of `Test/` that Boogie type-checks. Target, printed beside the figures:
//! parse + resolve + type check at least 15 MB/s.
//!
//! Also measured: the generated programs of 5 and 20 MB that the front-end bench parses
//! (`benches/common/generated.rs`). `--quick` measures a 1 MB one instead.
//! `--dump BYTES` prints the generated program of that size.
//! `--profile PATH [RUNS]` only runs the front end on one file, for a profiler.

#[path = "common/generated.rs"]
mod generated;

use std::hint::black_box;
use std::path::{Path, PathBuf};
use std::time::{Duration, Instant};

use rboogie::parser;
use rboogie::source::SourceMap;
use rboogie::typeck::{self, Outcome, TypeckOptions};

/// The binary's allocator, so that the figures are the binary's.
#[global_allocator]
static GLOBAL: rboogie::alloc::Allocator = rboogie::alloc::Allocator;

const TARGET_MB_PER_S: f64 = 15.0;

/// Times of one run: parse alone, then resolution and type checking together.
fn run_once(text: &str) -> (Duration, Duration, bool) {
    let mut sources = SourceMap::new();
    let file = sources.add("bench.bpl", "bench.bpl", text.to_string());
    let start = Instant::now();
    let Ok(program) = parser::parse(&mut sources, file, &[]) else {
        return (start.elapsed(), Duration::ZERO, false);
    };
    let parsed = start.elapsed();
    let outcome = typeck::run(program, &TypeckOptions::default(), false);
    let checked = start.elapsed() - parsed;
    let ok = matches!(outcome, Outcome::Typed(..));
    (parsed, checked, ok)
}

fn mb_per_s(bytes: usize, time: Duration) -> f64 {
    bytes as f64 / 1e6 / time.as_secs_f64()
}

/// The `.bpl` files under `dir`, largest first.
fn largest_bpl_files(dir: &Path, n: usize) -> Vec<PathBuf> {
    let mut files: Vec<(u64, PathBuf)> = walkdir::WalkDir::new(dir)
        .into_iter()
        .flatten()
        .filter(|e| e.file_type().is_file() && e.path().extension().is_some_and(|x| x == "bpl"))
        .filter(|e| !e.path().components().any(|c| c.as_os_str() == "civl"))
        .filter_map(|e| Some((e.metadata().ok()?.len(), e.into_path())))
        .collect();
    files.sort_by(|a, b| b.0.cmp(&a.0).then_with(|| a.1.cmp(&b.1)));
    files.into_iter().take(n).map(|(_, p)| p).collect()
}

fn measure(name: &str, text: &str, runs: usize) {
    run_once(text);
    let mut totals = Vec::new();
    let mut parses = Vec::new();
    let mut ok = true;
    for _ in 0..runs {
        let (parse, check, typed) = run_once(text);
        ok &= typed;
        parses.push(parse);
        totals.push(parse + check);
    }
    totals.sort();
    parses.sort();
    let (best, median) = (totals[0], totals[runs / 2]);
    let parse_median = parses[runs / 2];
    println!(
        "{:<72} {:>6.2} {:>8.1} / {:<6.1} {:>6.0}%  {:>6.0}%{}",
        name,
        text.len() as f64 / 1e6,
        mb_per_s(text.len(), best),
        mb_per_s(text.len(), median),
        100.0 * parse_median.as_secs_f64() / median.as_secs_f64(),
        100.0 * (median.saturating_sub(parse_median)).as_secs_f64() / median.as_secs_f64(),
        if ok { "" } else { "  (did not type-check)" }
    );
}

fn main() {
    let args: Vec<String> = std::env::args().skip(1).collect();
    if let Some(i) = args.iter().position(|a| a == "--dump") {
        let bytes: usize = args.get(i + 1).and_then(|n| n.parse().ok()).expect("--dump BYTES");
        print!("{}", generated::generate(bytes));
        return;
    }
    if let Some(i) = args.iter().position(|a| a == "--profile") {
        let path = args.get(i + 1).expect("--profile PATH [RUNS]");
        let runs: usize = args.get(i + 2).and_then(|n| n.parse().ok()).unwrap_or(5);
        let text = std::fs::read_to_string(path).expect("readable file");
        for _ in 0..runs {
            black_box(run_once(&text));
        }
        return;
    }
    println!("rboogie front end to typed program: parse + resolve + type check");
    println!("target: >= {TARGET_MB_PER_S} MB/s");
    println!("{:<72} {:>6} {:>17} {:>7} {:>8}", "input", "MB", "MB/s best / median", "parse", "typeck");
    let quick = args.iter().any(|a| a == "--quick");
    for bytes in if quick { vec![1_000_000] } else { vec![5_000_000, 20_000_000] } {
        let text = generated::generate(bytes);
        measure(&format!("generated {} MB", bytes / 1_000_000), &text, if bytes > 10_000_000 { 3 } else { 5 });
    }
    let Ok(dir) = std::env::var("BOOGIE_TESTS") else {
        println!("(set BOOGIE_TESTS to a checkout of Boogie's Test/ directory to measure its programs too)");
        return;
    };
    let dir = Path::new(&dir);
    let mut files = vec![dir.join("dafny/Seq.bpl")];
    for f in largest_bpl_files(dir, 6) {
        if !files.contains(&f) {
            files.push(f);
        }
    }
    for file in files {
        let Ok(text) = std::fs::read_to_string(&file) else { continue };
        let name = file.strip_prefix(dir).unwrap_or(&file).display().to_string();
        let runs = if text.len() > 2_000_000 { 5 } else { 11 };
        measure(&name, &text, runs);
    }
}
