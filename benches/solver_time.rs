//! Time in the solver against time outside it, over Boogie's conformance subset.
//!
//! `cargo bench --bench solver_time` runs every `%boogie` / `%parallel-boogie` line of every
//! test listed in the subset (`../shared/tools/boogie-conformance-subset.tsv`, or the file
//! env `BOOGIE_SUBSET` names) through rboogie's library entry (`cli::parse_args`, `cli::run`,
//! in the test's folder, with the options boogie-suite adds: `-useBaseNameForFileName
//! -timeLimit:30`), one run at a time and always with `/vcsCores:1`, so that wall time and
//! solver time compare. Tests are read from env `BOOGIE_TESTS` (Boogie's `Test/` directory),
//! default `/tmp/bt/Test`. For each run it measures the wall time and, from
//! [`rboogie::smt::solver_time`], the time spent in the solver (in-process Z3's calls, or a
//! solver process's start and answers); the rest is rboogie's own: reading, parsing, type
//! checking, passes, VC generation, reading models, printing.
//!
//! It prints each test's figures, the totals, and the tests where rboogie's own time is
//! largest. Target, printed beside the totals: time outside the solver at most 10% of the time
//! inside. `--only REGEX-FREE-SUBSTRING` runs the tests whose path contains the text;
//! `--solver S` passes `--solver S` on (default: in-process Z3).

use std::path::{Path, PathBuf};
use std::time::{Duration, Instant};

#[global_allocator]
static GLOBAL: rboogie::alloc::Allocator = rboogie::alloc::Allocator;

const TARGET_OUTSIDE_SHARE: f64 = 0.10;

struct Row {
    test: String,
    runs: usize,
    wall: Duration,
    solver: Duration,
}

impl Row {
    fn outside(&self) -> Duration {
        self.wall.saturating_sub(self.solver)
    }
}

/// Splits a RUN line's arguments as a shell would (quotes, no expansions).
fn shell_words(line: &str) -> Vec<String> {
    let mut words = Vec::new();
    let mut word: Option<String> = None;
    let mut quote: Option<char> = None;
    for c in line.chars() {
        match (quote, c) {
            (Some(q), c) if c == q => quote = None,
            (Some(_), c) => word.get_or_insert_with(String::new).push(c),
            (None, '"' | '\'') => {
                quote = Some(c);
                word.get_or_insert_with(String::new);
            }
            (None, c) if c.is_whitespace() => words.extend(word.take()),
            (None, c) => word.get_or_insert_with(String::new).push(c),
        }
    }
    words.extend(word);
    words
}

/// The rboogie command lines of a test: its RUN lines that call Boogie and send its output to
/// a file (as boogie-suite runs them), `%s` and `%t` substituted.
fn command_lines(test: &Path, scratch: &Path) -> Vec<Vec<String>> {
    let Ok(text) = std::fs::read_to_string(test) else { return Vec::new() };
    let mut lines = Vec::new();
    for line in text.lines() {
        let Some((_, run)) = line.split_once("RUN:") else { continue };
        let run = run.trim();
        let Some(rest) = run.strip_prefix("%parallel-boogie").or_else(|| run.strip_prefix("%boogie")) else {
            continue;
        };
        if rest.contains('|') {
            continue;
        }
        let Some((args, _output)) = rest.rsplit_once('>') else { continue };
        let args = args.trim_end_matches('>');
        let args = args.replace("%s", &test.display().to_string());
        let mut words: Vec<String> = vec!["-useBaseNameForFileName".into(), "-timeLimit:30".into()];
        for w in shell_words(&args) {
            let mut w = w;
            // %t, %t1, ...: scratch files.
            while let Some(at) = w.find("%t") {
                let digits = w[at + 2..].chars().take_while(char::is_ascii_digit).count();
                let name = format!("out{}", &w[at + 2..at + 2 + digits]);
                w.replace_range(at..at + 2 + digits, &scratch.join(name).display().to_string());
            }
            words.push(w);
        }
        lines.push(words);
    }
    lines
}

fn main() {
    let args: Vec<String> = std::env::args().collect();
    let value_of = |flag: &str| args.iter().position(|a| a == flag).and_then(|i| args.get(i + 1)).cloned();
    let only = value_of("--only");
    let solver = value_of("--solver");
    let tests_dir = PathBuf::from(std::env::var("BOOGIE_TESTS").unwrap_or_else(|_| "/tmp/bt/Test".into()));
    let subset = std::env::var("BOOGIE_SUBSET").unwrap_or_else(|_| {
        concat!(env!("CARGO_MANIFEST_DIR"), "/../shared/tools/boogie-conformance-subset.tsv").into()
    });
    let Ok(list) = std::fs::read_to_string(&subset) else {
        eprintln!("solver_time: cannot read the test list {subset} (set BOOGIE_SUBSET)");
        return;
    };
    if !tests_dir.is_dir() {
        eprintln!("solver_time: no Boogie tests at {} (set BOOGIE_TESTS)", tests_dir.display());
        return;
    }
    let tests: Vec<String> = list
        .lines()
        .skip(1)
        .filter_map(|l| l.split('\t').next())
        .map(|t| t.strip_prefix("Test/").unwrap_or(t).to_string())
        .filter(|t| only.as_ref().is_none_or(|o| t.contains(o.as_str())))
        .collect();
    let scratch = std::env::temp_dir().join(format!("rboogie-solver-time-{}", std::process::id()));
    std::fs::create_dir_all(&scratch).expect("a scratch directory");
    let home = std::env::current_dir().expect("a working directory");

    let run_all = move || {
        let mut rows = Vec::new();
        println!("{:<52} {:>4} {:>10} {:>10} {:>10} {:>8}", "test", "runs", "wall ms", "solver ms", "own ms", "own %");
        for test in &tests {
            let path = tests_dir.join(test);
            let folder = path.parent().unwrap_or(&tests_dir).to_path_buf();
            let mut row = Row { test: test.clone(), runs: 0, wall: Duration::ZERO, solver: Duration::ZERO };
            for mut words in command_lines(&path, &scratch) {
                if let Some(s) = &solver {
                    words.extend(["--solver".to_string(), s.clone()]);
                }
                words.push("/vcsCores:1".into());
                let Ok(options) = rboogie::cli::parse_args(words) else { continue };
                std::env::set_current_dir(&folder).expect("the test's folder");
                let (mut out, mut err) = (Vec::new(), Vec::new());
                let solver_before = rboogie::smt::solver_time();
                let started = Instant::now();
                rboogie::cli::run(&options, &mut out, &mut err);
                row.wall += started.elapsed();
                row.solver += rboogie::smt::solver_time() - solver_before;
                row.runs += 1;
            }
            std::env::set_current_dir(&home).expect("back home");
            let own = row.outside();
            let share = if row.solver.is_zero() { 0.0 } else { own.as_secs_f64() / row.solver.as_secs_f64() * 100.0 };
            println!(
                "{:<52} {:>4} {:>10.1} {:>10.1} {:>10.1} {:>8.1}",
                row.test,
                row.runs,
                ms(row.wall),
                ms(row.solver),
                ms(own),
                share
            );
            rows.push(row);
        }
        let _ = std::fs::remove_dir_all(&scratch);
        let wall: Duration = rows.iter().map(|r| r.wall).sum();
        let inside: Duration = rows.iter().map(|r| r.solver).sum();
        let outside = wall.saturating_sub(inside);
        let share = outside.as_secs_f64() / inside.as_secs_f64().max(1e-9);
        println!();
        println!(
            "total over {} tests, {} runs: wall {:.1} ms, in the solver {:.1} ms, rboogie's own {:.1} ms",
            rows.len(),
            rows.iter().map(|r| r.runs).sum::<usize>(),
            ms(wall),
            ms(inside),
            ms(outside)
        );
        let verdict = if share <= TARGET_OUTSIDE_SHARE { "met" } else { "NOT met" };
        println!(
            "target: time outside the solver at most {:.0}% of the time inside -- {:.1}%, {verdict}",
            TARGET_OUTSIDE_SHARE * 100.0,
            share * 100.0
        );
        rows.sort_by_key(|r| std::cmp::Reverse(r.outside()));
        println!("\nrboogie's own time, largest first:");
        for r in rows.iter().take(10) {
            println!("{:<52} own {:>8.1} ms, solver {:>8.1} ms", r.test, ms(r.outside()), ms(r.solver));
        }
    };
    std::thread::Builder::new()
        .stack_size(1 << 30)
        .spawn(run_all)
        .expect("a thread for the pipeline")
        .join()
        .expect("the bench ran");
}

fn ms(d: Duration) -> f64 {
    d.as_secs_f64() * 1000.0
}
