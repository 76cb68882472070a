//! Houdini (`/contractInfer`) on generated programs of N loops with 10·N candidate loop
//! invariants, half of them inductive.
//!
//! `cargo build --release && cargo bench --bench houdini` generates, for N = 10, 100 and
//! 1000, a program of N procedures, each with one loop and ten candidate invariants, each
//! guarded by an existential constant of its own: five inductive (`i >= 0`, `i <= n`,
//! `s == 2 * i`, `s >= 0`, `t == i + K`), five that hold on entry and are not maintained
//! (`i < 1`, `s <= 1`, `t <= K`, `i <= 3`, `i != 2`). Each program is run with
//! `/contractInfer /printAssignment /trace` (capped at `CAP` seconds), and the bench prints
//! the time, the solver's `check-sat`s (the trace's `Number of check-sat calls`), the
//! candidates refuted (`Number of false assignments`) and the implementations checked, and
//! the bound the issue sets: at most 2 × refuted + implementations `check-sat`s. It also checks
//! that the assignment is the expected one (exactly the non-inductive half refuted).
//!
//! `-- --quick` runs N = 10 and 100 only.

#[path = "common/process.rs"]
mod process;

use std::fmt::Write as _;
use std::process::{Command, Stdio};
use std::time::{Duration, Instant};

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
fn program(loops: usize) -> String {
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

fn run(binary: &str, file: &str) -> Run {
    let started = Instant::now();
    let mut child = Command::new(binary)
        .args(["/contractInfer", "/printAssignment", "/trace"])
        .arg(file)
        .stdout(Stdio::piped())
        .stderr(Stdio::null())
        .spawn()
        .expect("rboogie runs");
    // The output is read on a thread of its own, so that a large one cannot block the child.
    let mut stdout = child.stdout.take().expect("piped");
    let reader = std::thread::spawn(move || {
        let mut text = String::new();
        let _ = std::io::Read::read_to_string(&mut stdout, &mut text);
        text
    });
    let finished = loop {
        if let Ok(Some(_)) = child.try_wait() {
            break true;
        }
        if started.elapsed() > Duration::from_secs(CAP) {
            let _ = child.kill();
            let _ = child.wait();
            break false;
        }
        std::thread::sleep(Duration::from_millis(20));
    };
    let seconds = started.elapsed().as_secs_f64();
    Run { seconds, finished, out: reader.join().unwrap_or_default() }
}

/// The number after `label = ` in the trace.
fn figure(out: &str, label: &str) -> Option<usize> {
    out.lines().find_map(|l| l.strip_prefix(label)?.strip_prefix(" = ")?.trim().parse().ok())
}

fn main() {
    let Some((binary, dir)) = process::setup("houdini") else { return };
    let quick = std::env::args().any(|a| a == "--quick");
    let sizes: &[usize] = if quick { &[10, 100] } else { &[10, 100, 1000] };
    println!("Houdini on N loops with 10·N candidate invariants (half inductive); runs capped at {CAP} s");
    println!(
        "{:>5} {:>10} {:>9} {:>10} {:>8} {:>6} {:>12} {:>9} {:>10}",
        "N", "candidates", "time s", "check-sats", "refuted", "impls", "2·ref+impls", "bound", "assignment"
    );
    for &loops in sizes {
        let path = dir.join(format!("loops-{loops}.bpl"));
        std::fs::write(&path, program(loops)).expect("writable temporary file");
        let r = run(binary, &path.to_string_lossy());
        if !r.finished {
            println!("{:>5} {:>10} {:>9} (capped)", loops, 10 * loops, format!("> {CAP}"));
            continue;
        }
        let check_sats = figure(&r.out, "Number of check-sat calls").unwrap_or(0);
        let refuted = figure(&r.out, "Number of false assignments").unwrap_or(0);
        let impls = figure(&r.out, "Number of implementations checked").unwrap_or(0);
        let bound = 2 * refuted + impls;
        // Exactly the non-inductive candidates are refuted.
        let expected = (0..loops).all(|k| {
            candidates(k).iter().enumerate().all(|(c, (_, inductive))| {
                let line = format!("b{k}_{c} = {}", if *inductive { "True" } else { "False" });
                r.out.lines().any(|l| l == line)
            })
        });
        println!(
            "{:>5} {:>10} {:>9.2} {:>10} {:>8} {:>6} {:>12} {:>9} {:>10}",
            loops,
            10 * loops,
            r.seconds,
            check_sats,
            refuted,
            impls,
            bound,
            if check_sats <= bound { "met" } else { "NOT MET" },
            if expected { "expected" } else { "WRONG" }
        );
    }
    let _ = std::fs::remove_dir_all(&dir);
}
