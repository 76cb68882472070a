//! HAVOC's reachability predicates (issue 18): the size of the VC the ground instantiation
//! gives a chain of U heap writes, and the time to check it, against U.
//!
//! `cargo build --release && cargo bench --bench havoc` generates, for U = 1, 2, 4, 8, 16, 32,
//! a procedure that pushes U fresh nodes (objects `o1..oU`, `unique`) onto an acyclic list
//! with `Mem[n_k] := n_{k-1}` and proves, with quantifier-free annotations only, that the new
//! list ends at NULL and reaches every node and the old head. The VC is written with
//! `/proverLog` and measured: its bytes (the implementation's part, after `(push 1)`), its
//! instances of the theory, whether it has a quantifier, and the wall time of the whole run
//! (best of 3; one run at U = 32), each with the growth exponent from the size before (log ratio over log 2).
//! Naive substitution of U updates into one another would grow as 5^U; the target is
//! polynomial growth. With `/reachAxioms:quantified` the time is given beside it.

#[path = "common/process.rs"]
mod process;

use std::fmt::Write;
use std::process::Command;
use std::time::{Duration, Instant};

/// The program with U writes: quantifier-free requires and ensures.
fn generate(u: usize) -> String {
    let mut p = String::new();
    let names: Vec<String> = (1..=u).map(|k| format!("o{k}")).collect();
    let _ = writeln!(p, "const unique {}: ref;", names.join(", "));
    let _ = writeln!(p, "procedure push(hd: ptr) returns (r: ptr)");
    let _ = writeln!(p, "  requires Block[0, hd] == NULL && (hd == NULL || !Blocks(BS, hd));");
    for o in &names {
        let _ = writeln!(p, "  requires {o} != null && !Reach[0, hd, Ptr({o}, 0)] && !BS[Ptr({o}, 0)];");
    }
    let _ = writeln!(p, "  modifies Mem;");
    let _ = writeln!(p, "  ensures Block[0, r] == NULL && (hd == NULL || Reach[0, r, hd]);");
    for o in &names {
        let _ = writeln!(p, "  ensures Reach[0, r, Ptr({o}, 0)];");
    }
    let _ = writeln!(p, "{{");
    let mut previous = String::from("hd");
    for o in &names {
        let node = format!("Ptr({o}, 0)");
        let _ = writeln!(p, "  Mem[{node}] := {previous};");
        previous = node;
    }
    let _ = writeln!(p, "  r := {previous};");
    let _ = writeln!(p, "}}");
    p
}

struct Run {
    time: Duration,
    verified: bool,
    vc_bytes: usize,
    instances: usize,
    quantifiers: bool,
}

fn run(binary: &str, dir: &std::path::Path, file: &str, extra: &[&str], runs: usize) -> Option<Run> {
    let log = dir.join("vc.smt2");
    let mut best: Option<Run> = None;
    for _ in 0..runs {
        let _ = std::fs::remove_file(&log);
        let start = Instant::now();
        let out = Command::new(binary)
            .args(["/lib:havoc", "/prune:1", "/timeLimit:300"])
            .args(extra)
            .arg(format!("/proverLog:{}", log.display()))
            .arg(file)
            .output()
            .ok()?;
        let time = start.elapsed();
        let stdout = String::from_utf8_lossy(&out.stdout);
        let text = std::fs::read_to_string(&log).unwrap_or_default();
        let vc = text.find("(push 1)").map_or("", |k| &text[k..]);
        let instances = vc
            .lines()
            .find_map(|l| l.strip_prefix("; HAVOC's reachability theory on this VC's terms: "))
            .and_then(|l| l.split_whitespace().next()?.parse().ok())
            .unwrap_or(0);
        let r = Run {
            time,
            verified: stdout.contains("1 verified, 0 errors"),
            vc_bytes: vc.len(),
            instances,
            quantifiers: text.contains("(forall") || text.contains("(exists"),
        };
        if best.as_ref().is_none_or(|b| r.time < b.time) {
            best = Some(r);
        }
    }
    best
}

fn exponent(now: f64, before: Option<f64>) -> String {
    before.map_or(String::from("-"), |b| format!("{:.2}", (now / b).ln() / 2f64.ln()))
}

fn main() {
    let Some((binary, dir)) = process::setup("havoc") else { return };
    println!(
        "havoc: a chain of U heap writes, quantifier-free annotations; VC after (push 1), best of 3 (one run at U = 32)"
    );
    println!(
        "{:>4} {:>10} {:>6} {:>10} {:>6} {:>9} {:>8} {:>7} {:>6} {:>14}",
        "U", "VC bytes", "exp", "instances", "exp", "quantif.", "ground s", "exp", "ok", "quantified s"
    );
    let (mut bytes_before, mut inst_before, mut time_before) = (None, None, None);
    for u in [1, 2, 4, 8, 16, 32] {
        let path = dir.join(format!("chain-{u}.bpl"));
        std::fs::write(&path, generate(u)).expect("writable temporary file");
        let file = path.to_string_lossy().into_owned();
        // U = 32 takes about two minutes (the solver's): run once.
        let Some(ground) = run(binary, &dir, &file, &[], if u >= 32 { 1 } else { 3 }) else {
            println!("{u:>4}: rboogie did not run");
            return;
        };
        let quantified = if u <= 8 {
            run(binary, &dir, &file, &["/reachAxioms:quantified"], 3).map_or(String::from("-"), |q| {
                format!("{:.2}{}", q.time.as_secs_f64(), if q.verified { "" } else { " (not proved)" })
            })
        } else {
            String::from("skipped")
        };
        let (bytes, inst, time) = (ground.vc_bytes as f64, ground.instances as f64, ground.time.as_secs_f64());
        println!(
            "{:>4} {:>10} {:>6} {:>10} {:>6} {:>9} {:>8.2} {:>7} {:>6} {:>14}",
            u,
            ground.vc_bytes,
            exponent(bytes, bytes_before),
            ground.instances,
            exponent(inst, inst_before),
            if ground.quantifiers { "yes" } else { "no" },
            time,
            exponent(time, time_before),
            if ground.verified { "yes" } else { "NO" },
            quantified
        );
        (bytes_before, inst_before, time_before) = (Some(bytes), Some(inst), Some(time));
    }
}
