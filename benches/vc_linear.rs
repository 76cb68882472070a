//! VC generation in linear time and memory (issue 14): the time and the peak memory of the
//! `rboogie` binary from the source text to the VC text, with a solver that answers nothing
//! (`/proverOpt:SOLVER=noop`), so that only rboogie's own work is measured.
//!
//! `cargo bench --bench vc_linear` runs, for N = 1000, 2000, 4000, 8000 and 16 000, one
//! procedure with N local variables, each set in its own if-then-else (N joins, 3N blocks),
//! 50 of them summed at the end; then the same with all N summed (every variable live to the
//! end: the worst case of the liveness analysis); then a recursive procedure with three
//! self-calls inlined to depth 7 and 8 (`{:inline 7}`: a 1.3 MB VC); then expressions nested
//! N deep (N = 25 000 to 200 000) down one side: `!!...!p`, `p ==> p ==> ... ==> p` (right-
//! nested), and an else-if chain `if x == 0 then 0 else if ...`. Each is one child process,
//! whose wall time and peak resident memory (`wait4`'s `ru_maxrss`) are printed.
//!
//! Targets, printed beside the figures: time(8000) / time(1000) <= 10 and peak memory at
//! N = 8000 under 300 MB on the first family; `{:inline 7}` under 1 s and 300 MB; a nested
//! expression's time(200 000) / time(25 000) <= 10 (the encoder once nested each operand's
//! text in the next: 200 000 negations took 24 s, 25 000 a tenth of a second).
//! `--quick` stops at N = 4000.

use std::io::Write;
use std::path::{Path, PathBuf};
use std::process::{Command, Stdio};
use std::time::{Duration, Instant};

/// N locals, each set in an if-then-else; `used` of them (spread evenly) summed at the end.
fn diamonds(n: usize, used: usize) -> String {
    let mut text = String::from("procedure P(c: int) returns (r: int)\n{\n");
    for i in 0..n {
        text += &format!("  var x{i}: int;\n");
    }
    for i in 0..n {
        text += &format!("  if (c > {i}) {{ x{i} := {i}; }} else {{ x{i} := c; }}\n");
    }
    let step = (n / used).max(1);
    let sum: Vec<String> = (0..n).step_by(step).take(used).map(|i| format!("x{i}")).collect();
    text += &format!("  r := {};\n  assert r >= 0 || r < 0;\n}}\n", sum.join(" + "));
    text
}

/// One assertion whose expression nests `n` deep down one side, of the `shape` named.
fn nested(shape: &str, n: usize) -> String {
    let e = match shape {
        "!" => format!("{}(x > 0)", "!".repeat(n)),
        "==>" => vec!["x > 0"; n].join(" ==> "),
        _ => {
            let arms: Vec<String> = (0..n).map(|i| format!("if x == {i} then {i} else ")).collect();
            format!("({}0) >= 0", arms.concat())
        }
    };
    format!("procedure P(x: int)\n{{\n  assert {e} || true;\n}}\n")
}

/// A procedure calling itself three times, inlined to `depth`.
fn fibonacci(depth: u32) -> String {
    format!(
        "procedure {{:inline {depth}}} Fib(n: int) returns (r: int)\n{{\n  var a: int;\n  var b: int;\n  var c: int;\n  \
         if (n < 3) {{\n    r := 1;\n  }} else {{\n    call a := Fib(n - 1);\n    call b := Fib(n - 2);\n    \
         call c := Fib(n - 3);\n    r := a + b + c;\n  }}\n}}\n\n\
         procedure Main(n: int) returns (r: int)\n  requires n >= 0;\n  ensures r >= 1;\n{{\n  call r := Fib(n);\n}}\n"
    )
}

struct Run {
    wall: Duration,
    peak_mb: f64,
}

/// Runs the binary on `file` with the noop solver; its wall time and peak memory.
fn run(binary: &Path, file: &Path) -> Run {
    let started = Instant::now();
    let child = Command::new(binary)
        .arg("/proverOpt:SOLVER=noop")
        .arg(file)
        .stdout(Stdio::null())
        .stderr(Stdio::null())
        .spawn()
        .expect("rboogie starts");
    let pid = child.id() as libc::pid_t;
    let mut status = 0;
    // SAFETY: a zeroed rusage is a valid value for wait4 to fill.
    let mut usage: libc::rusage = unsafe { std::mem::zeroed() };
    // SAFETY: `pid` is our own child, waited for once.
    let waited = unsafe { libc::wait4(pid, &mut status, 0, &mut usage) };
    let wall = started.elapsed();
    assert_eq!(waited, pid, "wait4 failed");
    assert!(libc::WIFEXITED(status), "rboogie died on a signal");
    Run { wall, peak_mb: usage.ru_maxrss as f64 / 1024.0 }
}

fn write_program(dir: &Path, name: &str, text: &str) -> PathBuf {
    let path = dir.join(name);
    std::fs::File::create(&path).and_then(|mut f| f.write_all(text.as_bytes())).expect("temporary file");
    path
}

fn main() {
    let args: Vec<String> = std::env::args().collect();
    let quick = args.iter().any(|a| a == "--quick");
    let binary = PathBuf::from(env!("CARGO_BIN_EXE_rboogie"));
    let dir = std::env::temp_dir().join(format!("rboogie-vc-linear-{}", std::process::id()));
    std::fs::create_dir_all(&dir).expect("temporary folder");
    let sizes: &[usize] = if quick { &[1000, 2000, 4000] } else { &[1000, 2000, 4000, 8000, 16000] };

    for (family, used) in [("50 of N summed", Some(50)), ("all N summed", None)] {
        println!("vc_linear: N locals, each set in an if-then-else, {family}");
        println!("{:>8} {:>12} {:>12} {:>14}", "N", "bytes", "time (s)", "peak (MB)");
        let mut figures = Vec::new();
        for &n in sizes {
            let text = diamonds(n, used.unwrap_or(n));
            let file = write_program(&dir, &format!("diamonds{n}.bpl"), &text);
            let r = run(&binary, &file);
            println!("{n:>8} {:>12} {:>12.3} {:>14.1}", text.len(), r.wall.as_secs_f64(), r.peak_mb);
            figures.push((n, r));
        }
        let at = |n: usize| figures.iter().find(|(m, _)| *m == n).map(|(_, r)| r);
        if let (Some(small), Some(big)) = (at(1000), at(8000)) {
            let ratio = big.wall.as_secs_f64() / small.wall.as_secs_f64();
            println!(
                "  time(8000)/time(1000) = {ratio:.1} (target <= 10); peak at 8000 = {:.1} MB (target < 300)",
                big.peak_mb
            );
        }
        println!();
    }

    println!("vc_linear: three self-calls inlined");
    println!("{:>8} {:>12} {:>14}", "depth", "time (s)", "peak (MB)");
    for depth in [7, 8] {
        let file = write_program(&dir, &format!("fib{depth}.bpl"), &fibonacci(depth));
        let r = run(&binary, &file);
        println!("{depth:>8} {:>12.3} {:>14.1}", r.wall.as_secs_f64(), r.peak_mb);
        if depth == 7 {
            println!("  target: under 1 s and 300 MB");
        }
    }

    println!();
    println!("vc_linear: one expression nested N deep");
    println!("{:>8} {:>8} {:>12} {:>12} {:>14}", "shape", "N", "bytes", "time (s)", "peak (MB)");
    let depths: &[usize] = if quick { &[25_000, 50_000] } else { &[25_000, 50_000, 100_000, 200_000] };
    for shape in ["!", "==>", "else-if"] {
        let mut times = Vec::new();
        for &n in depths {
            let text = nested(shape, n);
            let file = write_program(&dir, &format!("nested{n}.bpl"), &text);
            let r = run(&binary, &file);
            println!("{shape:>8} {n:>8} {:>12} {:>12.3} {:>14.1}", text.len(), r.wall.as_secs_f64(), r.peak_mb);
            times.push(r.wall.as_secs_f64());
        }
        if let (Some(first), Some(last)) = (times.first(), times.last())
            && !quick
        {
            println!("  time(200000)/time(25000) = {:.1} (target <= 10)", last / first);
        }
    }
    let _ = std::fs::remove_dir_all(&dir);
}
