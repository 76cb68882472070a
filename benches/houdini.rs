//! Houdini (`/contractInfer`) on generated programs, each run without and with
//! `/useUnsatCoreForContractInfer`.
//!
//! `cargo build --release && cargo bench --bench houdini` runs two families of programs, each
//! with `/contractInfer /printAssignment /trace` (capped at `CAP` seconds), once as it is and
//! once with `/useUnsatCoreForContractInfer`, and prints for each run the time, Houdini's
//! checks (the trace's `Number of prover queries`), the solver's `check-sat`s (`Number of
//! check-sat calls`), the candidates refuted (`Number of false assignments`), the checks the
//! unsat cores saved (`Number of unsat core prunings`), and whether the assignment is the
//! expected one and the output (assignment and report) the same as without the option.
//!
//! - *loops*: for N = 10, 100 and 1000, N procedures, each with one loop and ten candidate
//!   invariants, each guarded by an existential constant of its own: five inductive
//!   (`i >= 0`, `i <= n`, `s == 2 * i`, `s >= 0`, `t == i + K`), five that hold on entry and
//!   are not maintained (`i < 1`, `s <= 1`, `t <= K`, `i <= 3`, `i != 2`). Nothing calls
//!   anything, so no implementation is checked twice for another's sake and cores can save
//!   nothing: the rows measure what asking for them costs. The table also shows the bound the
//!   issue sets: at most 2 × refuted + implementations `check-sat`s.
//! - *callers*: for N = 10, 100 and 300, N procedures `leaf` (candidates: `requires x > 0`,
//!   `ensures r > 0`, `ensures r == x + 1`; body `r := x + 1`), each called by [`CALLERS`]
//!   procedures that need only `r == x + 1` and one that needs `r > 0`. The first caller
//!   checked refutes the `requires` (it passes any `y`), which queues `leaf` again; `leaf`
//!   then loses `r > 0`, which queues every caller again. Only the one that used `r > 0`
//!   needs another check, which its unsat core shows.
//!
//! `-- --quick` runs N = 10 and 100 only.
#[path = "common/process.rs"]
mod process;

use std::fmt::Write as _;
use std::process::Command;
use std::time::Duration;

/// The cap on one run, in seconds.
const CAP: u64 = 120;

/// The candidates of loop K: (expression, inductive).
fn candidates(k: usize) -> [(String, bool); 10] {
    [
        ("i >= 0".to_string(), true),
        ("i <= n".to_string(), true),
        ("s == 2 * i".to_string(), true),
        ("s >= 0".to_string(), true),
        (format!("t == i + {k}"), true),
        ("i < 1".to_string(), false),
        ("s <= 1".to_string(), false),
        (format!("t <= {k}"), false),
        ("i <= 3".to_string(), false),
        ("i != 2".to_string(), false),
    ]
}

/// N procedures with one loop and ten candidate invariants each.
fn loops_program(loops: usize) -> String {
    let mut p = String::new();
    let _ = writeln!(p, "// {loops} loops, {} candidate invariants (generated).", 10 * loops);
    for k in 0..loops {
        for c in 0..10 {
            let _ = writeln!(p, "const {{:existential true}} b{k}_{c}: bool;");
        }
    }
    for k in 0..loops {
        let _ = write!(p, "\nprocedure loop{k}(n: int)\n  requires n >= 0;\n{{\n  var i, s, t: int;\n");
        let _ = writeln!(p, "  i := 0;\n  s := 0;\n  t := {k};\n  while (i < n)");
        for (c, (expr, _)) in candidates(k).iter().enumerate() {
            let _ = writeln!(p, "    invariant b{k}_{c} ==> {expr};");
        }
        p.push_str("  {\n    i := i + 1;\n    s := s + 2;\n    t := t + 1;\n  }\n}\n");
    }
    p
}

struct Run {
    seconds: f64,
    finished: bool,
    out: String,
}

fn run(binary: &str, file: &str, cores: bool) -> Run {
    let mut command = Command::new(binary);
    command
        .args(["/contractInfer", "/printAssignment", "/trace"])
        .args(cores.then_some("/useUnsatCoreForContractInfer"))
        .arg(file);
    let (seconds, out) = process::run_capped(command, Duration::from_secs(CAP));
    Run { seconds, finished: out.is_some(), out: out.unwrap_or_default() }
}

/// The number after `label = ` in the trace.
fn figure(out: &str, label: &str) -> Option<usize> {
    out.lines().find_map(|l| l.strip_prefix(label)?.strip_prefix(" = ")?.trim().parse().ok())
}

/// How many callers of each `leaf` need only its `r == x + 1`.
const CALLERS: usize = 5;

/// N leaves with [`CALLERS`] + 1 callers each; the expected value of every constant.
fn callers_program(leaves: usize) -> (String, Vec<(String, bool)>) {
    let mut p = String::new();
    let mut expected = Vec::new();
    let _ = writeln!(p, "// {leaves} leaves with {} callers each (generated).", CALLERS + 1);
    for k in 0..leaves {
        expected.push((format!("argPositive{k}"), false));
        expected.push((format!("resultPositive{k}"), false));
        expected.push((format!("resultNext{k}"), true));
        expected.extend((0..CALLERS).map(|j| (format!("next{k}_{j}"), true)));
        expected.push((format!("positive{k}"), false));
    }
    for (name, _) in &expected {
        let _ = writeln!(p, "const {{:existential true}} {name}: bool;");
    }
    for k in 0..leaves {
        let _ = writeln!(
            p,
            "\nprocedure leaf{k}(x: int) returns (r: int)\n  requires argPositive{k} ==> x > 0;\n  \
             ensures resultPositive{k} ==> r > 0;\n  ensures resultNext{k} ==> r == x + 1;\n{{\n  r := x + 1;\n}}"
        );
        for j in 0..CALLERS {
            let _ = writeln!(
                p,
                "\nprocedure next{k}_{j}(y: int) returns (z: int)\n  ensures next{k}_{j} ==> z == y + 1;\n\
                 {{\n  call z := leaf{k}(y);\n}}"
            );
        }
        let _ = writeln!(
            p,
            "\nprocedure positive{k}(y: int) returns (z: int)\n  ensures positive{k} ==> z > 0;\n\
             {{\n  call z := leaf{k}(y);\n}}"
        );
    }
    (p, expected)
}

/// The expected value of every constant of the loops program.
fn loops_expected(loops: usize) -> Vec<(String, bool)> {
    (0..loops)
        .flat_map(|k| {
            candidates(k).into_iter().enumerate().map(move |(c, (_, inductive))| (format!("b{k}_{c}"), inductive))
        })
        .collect()
}

/// What the runs with and without the option must print alike: the assignment and the report
/// (the lines after the trace's figures).
fn result_lines(out: &str) -> String {
    let from_assignment = out.split_once("Assignment computed by Houdini:\n").map_or("", |(_, rest)| rest);
    from_assignment
        .lines()
        .filter(|l| {
            !l.starts_with("Number of ") && !l.starts_with("Prover time") && !l.starts_with("Unsat core prover")
        })
        .map(|l| format!("{l}\n"))
        .collect()
}

fn main() {
    let Some((binary, dir)) = process::setup("houdini") else { return };
    let quick = std::env::args().any(|a| a == "--quick");
    println!("Houdini without and with /useUnsatCoreForContractInfer; runs capped at {CAP} s");
    println!(
        "{:>7} {:>5} {:>10} {:>6} {:>8} {:>8} {:>10} {:>8} {:>7} {:>6} {:>9} {:>10} {:>5}",
        "program",
        "N",
        "candidates",
        "cores",
        "time s",
        "queries",
        "check-sats",
        "refuted",
        "pruned",
        "impls",
        "bound",
        "assignment",
        "same"
    );
    let loops: &[usize] = if quick { &[10, 100] } else { &[10, 100, 1000] };
    let callers: &[usize] = if quick { &[10, 100] } else { &[10, 100, 300] };
    let programs =
        loops.iter().map(|&n| ("loops", n, loops_program(n), loops_expected(n))).chain(callers.iter().map(|&n| {
            let (program, expected) = callers_program(n);
            ("callers", n, program, expected)
        }));
    for (family, n, program, expected) in programs {
        let path = dir.join(format!("{family}-{n}.bpl"));
        std::fs::write(&path, program).expect("writable temporary file");
        let mut without: Option<String> = None;
        for cores in [false, true] {
            let r = run(binary, &path.to_string_lossy(), cores);
            let label = if cores { "on" } else { "off" };
            if !r.finished {
                println!("{family:>7} {n:>5} {:>10} {label:>6} {:>8} (capped)", expected.len(), format!("> {CAP}"));
                continue;
            }
            let figure = |label| figure(&r.out, label).unwrap_or(0);
            let (check_sats, refuted, impls) = (
                figure("Number of check-sat calls"),
                figure("Number of false assignments"),
                figure("Number of implementations checked"),
            );
            // The bound holds for programs without calls.
            let bound =
                if family == "loops" { if check_sats <= 2 * refuted + impls { "met" } else { "NOT MET" } } else { "-" };
            let assigned = expected.iter().all(|(name, value)| {
                let line = format!("{name} = {}", if *value { "True" } else { "False" });
                r.out.lines().any(|l| l == line)
            });
            let result = result_lines(&r.out);
            let same = match &without {
                None => "-",
                Some(w) if *w == result => "yes",
                Some(_) => "NO",
            };
            println!(
                "{family:>7} {n:>5} {:>10} {label:>6} {:>8.2} {:>8} {:>10} {:>8} {:>7} {:>6} {:>9} {:>10} {:>5}",
                expected.len(),
                r.seconds,
                figure("Number of prover queries"),
                check_sats,
                refuted,
                figure("Number of unsat core prunings"),
                impls,
                bound,
                if assigned { "expected" } else { "WRONG" },
                same
            );
            if !cores {
                without = Some(result);
            }
        }
    }
    let _ = std::fs::remove_dir_all(&dir);
}
