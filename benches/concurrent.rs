//! Context-bounded checking of concurrent programs ([`rboogie::passes::sequentialize`]),
//! whole process, release build: `cargo build --release && cargo bench --bench concurrent`.
//!
//! 1. VC size against K: a generated program with T threads of S shared accesses each is
//!    checked at `/k:1` to `/k:8` with `/proverLog` (and `/timeLimit:2`: the VC is the
//!    question here, not the answer); the SMT-LIB bytes sent, their increments
//!    from one K to the next, and the ratio of the largest increment to the smallest (issue
//!    17: within 25 % of each other, the VC linear in K).
//! 2. Driver-like programs, the shape of STORM's Table 5.2: a dispatch routine and a cancel
//!    routine run as threads on one device-extension object with a few map fields (a lock, the
//!    pending request, a cancelled flag, a completion count), with the property that a request
//!    is never completed twice. The correct driver takes the lock around the test of the
//!    request and its completion; the buggy one tests outside the lock (a race the cancel
//!    routine can win in between). Time per K, K = 1..5, best of 3.

#[path = "common/process.rs"]
mod process;

use std::fmt::Write;
use std::process::Command;
use std::time::{Duration, Instant};

/// T threads, each S assignments between the shared globals g0..g3; main waits for all, then
/// checks a property that holds (so the solver must refute every interleaving).
fn shared_accesses(threads: usize, accesses: usize) -> String {
    let mut p = String::from(
        "var g0, g1, g2, g3: int;\nvar done: int;\nprocedure corral_atomic_begin();\nprocedure corral_atomic_end();\n",
    );
    for t in 0..threads {
        let _ = writeln!(p, "procedure t{t}()\n{{");
        for s in 0..accesses {
            let _ = writeln!(p, "  g{} := g{} + {};", s % 4, (s + 1) % 4, t + 1);
        }
        let _ = writeln!(p, "  call corral_atomic_begin();\n  done := done + 1;\n  call corral_atomic_end();\n}}");
    }
    p.push_str("procedure main()\n{\n  g0 := 0; g1 := 0; g2 := 0; g3 := 0;\n  done := 0;\n");
    for t in 0..threads {
        let _ = writeln!(p, "  async call t{t}();");
    }
    let _ = writeln!(p, "  assume done == {threads};\n  assert g0 >= 0;\n}}");
    p
}

/// The driver: `buggy` tests the pending request outside the lock.
fn driver(buggy: bool) -> String {
    let test_and_complete = if buggy {
        "  r := Request[de];\n  call acquire(de);\n  if (r != 0) {\n    Completed[r] := Completed[r] + 1;\n    Request[de] := 0;\n  }\n  call release(de);\n"
    } else {
        "  call acquire(de);\n  r := Request[de];\n  if (r != 0) {\n    Completed[r] := Completed[r] + 1;\n    Request[de] := 0;\n  }\n  call release(de);\n"
    };
    format!(
        r#"var Lock: [int]bool;
var Request: [int]int;
var Cancelled: [int]bool;
var Completed: [int]int;
var Flags: [int]int;
procedure corral_atomic_begin();
procedure corral_atomic_end();

procedure acquire(o: int)
{{
  call corral_atomic_begin();
  assume !Lock[o];
  Lock[o] := true;
  call corral_atomic_end();
}}

procedure release(o: int)
{{
  Lock[o] := false;
}}

procedure dispatch(de: int, irp: int)
{{
  var r: int;
  call acquire(de);
  Flags[de] := Flags[de] + 1;
  if (!Cancelled[de]) {{
    Request[de] := irp;
  }}
  call release(de);
  Flags[de] := Flags[de] + 2;
{test_and_complete}  assert Completed[irp] <= 1;
}}

procedure cancel(de: int)
{{
  var r: int;
  call acquire(de);
  Cancelled[de] := true;
  r := Request[de];
  if (r != 0) {{
    Completed[r] := Completed[r] + 1;
    Request[de] := 0;
  }}
  call release(de);
  assert r == 0 || Completed[r] <= 1;
}}

procedure main()
{{
  var de, irp: int;
  assume irp != 0;
  Lock[de] := false;
  Request[de] := 0;
  Cancelled[de] := false;
  Completed[irp] := 0;
  async call dispatch(de, irp);
  async call cancel(de);
}}
"#
    )
}

/// The best of `runs` wall times of `rboogie ARGS FILE`, and its first output line (with the
/// context bound a bug needs).
fn best_of(binary: &str, args: &[&str], file: &str, runs: usize) -> Option<(Duration, String)> {
    let mut best: Option<(Duration, String)> = None;
    for _ in 0..runs {
        let started = Instant::now();
        let output = Command::new(binary).args(args).arg(file).output().ok()?;
        let took = started.elapsed();
        let text = String::from_utf8_lossy(&output.stdout);
        let mut first = text.lines().next().unwrap_or_default().to_string();
        if let Some(k) = text.lines().find_map(|l| l.strip_prefix("Context bound: the bug ")) {
            first = format!("{first} ({k})");
        }
        if best.as_ref().is_none_or(|(b, _)| took < *b) {
            best = Some((took, first));
        }
    }
    best
}

fn main() {
    let Some((binary, dir)) = process::setup("concurrent") else { return };

    println!("VC size against K: 3 threads x 8 shared accesses, SMT-LIB bytes from /proverLog");
    println!("{:>3} {:>10} {:>10} {:>9}", "K", "bytes", "increment", "time s");
    let path = dir.join("shared.bpl");
    std::fs::write(&path, shared_accesses(3, 8)).expect("writable");
    let file = path.to_string_lossy().into_owned();
    let log = dir.join("log.smt2");
    let mut previous = None;
    let mut increments = Vec::new();
    for k in 1..=8 {
        let _ = std::fs::remove_file(&log);
        let kk = format!("/k:{k}");
        let logged = format!("/proverLog:{}", log.to_string_lossy());
        // The size is the question; the answer may take the solver long at large K.
        let args = ["/main:main", &kk, &logged, "/timeLimit:2", "/incrementalK:0"];
        let Some((took, first)) = best_of(binary, &args, &file, 1) else {
            return;
        };
        let bytes = std::fs::metadata(&log).map(|m| m.len()).unwrap_or(0);
        let increment = previous.map(|p: u64| bytes.saturating_sub(p));
        if let Some(i) = increment {
            increments.push(i);
        }
        let shown = increment.map_or(String::from("-"), |i| i.to_string());
        println!("{k:>3} {bytes:>10} {shown:>10} {:>9.3}  {first}", took.as_secs_f64());
        previous = Some(bytes);
    }
    if let (Some(lo), Some(hi)) = (increments.iter().min(), increments.iter().max()) {
        println!("largest increment / smallest: {:.3} (target: at most 1.25)", *hi as f64 / (*lo).max(1) as f64);
    }

    println!();
    println!("driver-like programs (dispatch and cancel on one device extension), best of 3;");
    println!("K = 1..N in one session (the default) and /k:N alone (/incrementalK:0)");
    println!("{:>3} {:>12} {:>12} {:>12} {:>12}  buggy: smallest K", "K", "correct s", "alone s", "buggy s", "alone s");
    let correct = dir.join("driver-correct.bpl");
    let buggy = dir.join("driver-buggy.bpl");
    std::fs::write(&correct, driver(false)).expect("writable");
    std::fs::write(&buggy, driver(true)).expect("writable");
    for k in 1..=5 {
        let kk = format!("/k:{k}");
        let incremental = ["/main:main", kk.as_str()];
        let alone = ["/main:main", kk.as_str(), "/incrementalK:0"];
        let c = best_of(binary, &incremental, &correct.to_string_lossy(), 3);
        let ca = best_of(binary, &alone, &correct.to_string_lossy(), 3);
        let b = best_of(binary, &incremental, &buggy.to_string_lossy(), 3);
        let ba = best_of(binary, &alone, &buggy.to_string_lossy(), 3);
        let (Some((ct, cv)), Some((cat, _)), Some((bt, bv)), Some((bat, _))) = (c, ca, b, ba) else { return };
        println!(
            "{k:>3} {:>12.3} {:>12.3} {:>12.3} {:>12.3}  {cv} / {bv}",
            ct.as_secs_f64(),
            cat.as_secs_f64(),
            bt.as_secs_f64(),
            bat.as_secs_f64()
        );
    }

    println!();
    println!("3 threads x 8 shared accesses, a property that holds: K = 1..N in one session and /k:N alone");
    println!("{:>3} {:>12} {:>12}", "K", "session s", "alone s");
    for k in 1..=3 {
        let kk = format!("/k:{k}");
        let s = best_of(binary, &["/main:main", kk.as_str()], &file, 1);
        let a = best_of(binary, &["/main:main", kk.as_str(), "/incrementalK:0"], &file, 1);
        let (Some((st, sv)), Some((at, _))) = (s, a) else { return };
        println!("{k:>3} {:>12.3} {:>12.3}  {sv}", st.as_secs_f64(), at.as_secs_f64());
    }
    let _ = std::fs::remove_dir_all(&dir);
}
