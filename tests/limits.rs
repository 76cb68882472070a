//! Limits that hold (issue 14): `/processTimeLimit` ends the run, `/timeLimit` ends a check
//! with every solver, `/maxMemoryMB` stops VC generation and solvers past it (the
//! implementation is out of memory, the others are checked), and the Z3 server the binary
//! falls back on answers as `z3 -in`. Run on the `rboogie` binary, whose wall time is measured
//! against the limit with a margin for a loaded machine.

use std::io::Write;
use std::path::PathBuf;
use std::process::{Command, Stdio};
use std::time::{Duration, Instant};

fn binary() -> &'static str {
    env!("CARGO_BIN_EXE_rboogie")
}

fn program(name: &str, text: &str) -> PathBuf {
    let dir = std::env::temp_dir().join(format!("rboogie-limits-{}", std::process::id()));
    std::fs::create_dir_all(&dir).expect("temporary folder");
    let path = dir.join(name);
    std::fs::write(&path, text).expect("temporary file");
    path
}

/// Three implementations; the solver proves the first at once and never answers again. With
/// `/processTimeLimit:2` the run ends after 2 s: what was reported stays, no summary line (the
/// run was cancelled, as Boogie's is), exit code 1, and a note on stderr.
#[test]
fn process_time_limit_ends_the_run() {
    let file = program(
        "three.bpl",
        "procedure A(x: int) { assert x == x; }\n\
         procedure B(x: int) { assert x + 1 > x; }\n\
         procedure C(x: int) { assert x - 1 < x; }\n",
    );
    let solver = format!("{}/tests/fake_solvers/hang_after_first.sh", env!("CARGO_MANIFEST_DIR"));
    let started = Instant::now();
    let output = Command::new(binary())
        .arg("/processTimeLimit:2")
        .arg("/trace")
        .arg(format!("/proverOpt:PROVER_PATH={solver}"))
        .arg("/proverOpt:SOLVER=z3")
        .arg(&file)
        .output()
        .expect("rboogie runs");
    let elapsed = started.elapsed();
    let stdout = String::from_utf8_lossy(&output.stdout);
    let stderr = String::from_utf8_lossy(&output.stderr);
    assert!(elapsed < Duration::from_secs(6), "ran {elapsed:?}");
    assert!(elapsed >= Duration::from_secs(2), "ended before the limit: {elapsed:?}");
    assert_eq!(output.status.code(), Some(1), "{stdout}\n{stderr}");
    assert!(stdout.contains("Verifying A ...") && stdout.contains("verified"), "{stdout}");
    assert!(!stdout.contains("Verifying C ..."), "{stdout}");
    assert!(!stdout.contains("finished with"), "{stdout}");
    assert!(stderr.contains("process time limit of 2 s"), "{stderr}");
}

/// What is reported is out at once, as Boogie's console prints it: A's report can be read while
/// the run still waits on B's solver (which never answers), so a run killed from outside
/// (`timeout`, a CI job's limit) keeps what it had checked. Fully buffered, stdout held it
/// until the process ended, and a killed run printed nothing.
#[test]
fn reports_are_out_while_the_run_goes_on() {
    let file =
        program("two.bpl", "procedure A(x: int) { assert x == x; }\nprocedure B(x: int) { assert x + 1 > x; }\n");
    let solver = format!("{}/tests/fake_solvers/hang_after_first.sh", env!("CARGO_MANIFEST_DIR"));
    let mut child = Command::new(binary())
        .arg("/trace")
        .arg(format!("/proverOpt:PROVER_PATH={solver}"))
        .arg("/proverOpt:SOLVER=z3")
        .arg(&file)
        .stdout(Stdio::piped())
        .stderr(Stdio::null())
        .spawn()
        .expect("rboogie runs");
    let stdout = child.stdout.take().expect("piped");
    let (lines, received) = std::sync::mpsc::channel();
    std::thread::spawn(move || {
        for line in std::io::BufRead::lines(std::io::BufReader::new(stdout)) {
            let Ok(line) = line else { break };
            if lines.send(line).is_err() {
                break;
            }
        }
    });
    let mut seen = Vec::new();
    let reported = loop {
        match received.recv_timeout(Duration::from_secs(60)) {
            Ok(line) => {
                let done = line.contains("verified");
                seen.push(line);
                if done {
                    break true;
                }
            }
            Err(_) => break false,
        }
    };
    let running = child.try_wait().expect("waits").is_none();
    let _ = child.kill();
    let _ = child.wait();
    assert!(reported, "A's report never came: {seen:?}");
    assert!(running, "the run had ended: {seen:?}");
    assert!(seen.iter().any(|l| l.contains("Verifying A ...")), "{seen:?}");
}

/// A nonlinear assertion Z3 cannot decide: with `/timeLimit:2` the in-process Z3 gives up at
/// the limit (whatever it then says, the check ends), and the easy implementation after it is
/// still checked.
#[test]
fn time_limit_holds_in_process() {
    let file = program(
        "cubes.bpl",
        "procedure Cubes(x: int, y: int, z: int)\n{\n  assert x > 0 && y > 0 && z > 0 ==> x*x*x + y*y*y != z*z*z;\n}\n\
         procedure Easy(x: int)\n{\n  assert x + 0 == x;\n}\n",
    );
    let started = Instant::now();
    let output = Command::new(binary()).arg("/timeLimit:2").arg(&file).output().expect("rboogie runs");
    let elapsed = started.elapsed();
    let stdout = String::from_utf8_lossy(&output.stdout);
    assert!(elapsed < Duration::from_secs(8), "ran {elapsed:?}: {stdout}");
    // Never `verified` for what the solver did not prove.
    assert!(stdout.contains("finished with 1 verified"), "{stdout}");
}

/// The server the binary falls back on once an in-process call outlived its limit: SMT-LIB in,
/// Z3's answers out, one command at a time, as `z3 -in`.
#[test]
fn z3_server_answers_as_z3_does() {
    let script = "(set-option :print-success false)\n(declare-fun x () Int)\n(assert (> x 2))\n\
                  (assert (< x 4))\n(check-sat)\n(get-value (x))\n(push 1)\n(assert (= x 5))\n(check-sat)\n(pop 1)\n(exit)\n";
    assert_eq!(serve(script), ["sat", "((x 3))", "unsat"]);
}

/// What the Z3 server prints for `script`, line by line, blank lines left out; it must end
/// well.
fn serve(script: &str) -> Vec<String> {
    let mut child = Command::new(binary())
        .arg("--rboogie-z3-server")
        .stdin(Stdio::piped())
        .stdout(Stdio::piped())
        .spawn()
        .expect("the server starts");
    child.stdin.take().expect("stdin").write_all(script.as_bytes()).expect("the server reads");
    let output = child.wait_with_output().expect("the server ends");
    assert!(output.status.success(), "{script}");
    let stdout = String::from_utf8_lossy(&output.stdout);
    stdout.lines().map(str::trim).filter(|l| !l.is_empty()).map(String::from).collect()
}

/// The server answers a session's text as the `z3` binary does, options included: it makes
/// its context under the options before the first other command, as a session's context is
/// made in-process (made before them, it answered `unknown` to the text below where `z3`
/// answers `unsat`). The text is what rboogie sends for
/// `P(x) ==> P(x + 1)`, `assume P(0); assert P(25)` (tests/golden/verify/z3_options_*.bpl):
/// with `smt.qi.eager_threshold` at 100 Z3 instantiates the axiom the 25 times the proof
/// needs, `unsat`; under the default threshold (10, lazily 20) it stops short, `unknown`.
#[test]
fn z3_server_takes_a_sessions_options_as_z3_does() {
    let preamble = "(set-option :print-success false)\n(set-info :smt-lib-version 2.6)\n\
                    (set-option :produce-models true)\n(set-option :smt.mbqi false)\n\
                    (set-option :model.compact false)\n(set-option :model.v2 true)\n\
                    (set-option :pp.bv_literals false)\n";
    let query = "; done setting options\n(declare-fun tickleBool (Bool) Bool)\n\
                 (assert (and (tickleBool true) (tickleBool false)))\n(declare-fun ControlFlow (Int Int) Int)\n\
                 (declare-fun |P| (Int) Bool)\n\
                 (assert (forall ((|x!1| Int)) (! (=> (|P| |x!1|) (|P| (+ |x!1| 1))) :pattern ((|P| |x!1|)))))\n\
                 (push 1)\n(assert (not\n\
                 (let ((|anon0@correct| (=> (|P| 0) (and (=> (= (ControlFlow 0 2) (- 1)) (|P| 25)) (=> (|P| 25) true)))))\n\
                 (let ((|PreconditionGeneratedEntry@correct| (=> (= (ControlFlow 0 3) 2) |anon0@correct|)))\n\
                 (=> (= (ControlFlow 0 0) 3) |PreconditionGeneratedEntry@correct|)))))\n(check-sat)\n(exit)\n";
    for (option, answer) in [("(set-option :smt.qi.eager_threshold 100)\n", "unsat"), ("", "unknown")] {
        let script = format!("{preamble}{option}{query}");
        assert_eq!(serve(&script), [answer], "{script}");
    }
}

/// Fibonacci with three recursive calls, inlined `depth` deep (3^depth copies of the body),
/// then an implementation that verifies at once. Line 16 column 11 is `Main`.
fn fibonacci(depth: u32) -> String {
    format!(
        "procedure {{:inline {depth}}} Fib(n: int) returns (r: int)\n{{\n  var a: int;\n  var b: int;\n  var c: int;\n  \
         if (n < 3) {{\n    r := 1;\n  }} else {{\n    call a := Fib(n - 1);\n    call b := Fib(n - 2);\n    \
         call c := Fib(n - 3);\n    r := a + b + c;\n  }}\n}}\n\n\
         procedure Main(n: int) returns (r: int)\n  requires n >= 0;\n  ensures r >= 1;\n{{\n  call r := Fib(n);\n}}\n\n\
         procedure Tiny(x: int) returns (y: int)\n  ensures y > x;\n{{\n  y := x + 1;\n}}\n"
    )
}

fn run(args: &[&str], file: &std::path::Path) -> (String, Duration) {
    let started = Instant::now();
    let output = Command::new(binary()).args(args).arg(&file).output().expect("rboogie runs");
    let elapsed = started.elapsed();
    let stdout = String::from_utf8_lossy(&output.stdout).into_owned();
    (stdout, elapsed)
}

/// `{:inline 9}` (a VC of some 12 MB that no solver proves in 2 s on these machines: Z3 takes
/// 4 to 6 s) with `/timeLimit:2`: a time out, in Boogie's words, within the limit plus VC generation, with
/// each solver; the implementation after it is still checked.
#[test]
fn time_limit_holds_on_a_large_inlined_program() {
    let file = program("fib9.bpl", &fibonacci(9));
    for solver in ["in-process", "z3", "cvc5"] {
        let (stdout, elapsed) = run(&["--solver", solver, "/timeLimit:2"], &file);
        assert!(elapsed < Duration::from_secs(20), "{solver} ran {elapsed:?}: {stdout}");
        assert!(stdout.contains("(16,11): Verification of 'Main' timed out after 2 seconds"), "{solver}: {stdout}");
        assert!(stdout.contains("finished with 1 verified, 0 errors, 1 time out"), "{solver}: {stdout}");
    }
}

/// Generating the VC of `{:inline 8}` takes some 85 MB: with `/maxMemoryMB:40` that
/// implementation is out of memory (reported in Boogie's words) and the next one verifies.
#[test]
fn vc_generation_past_the_memory_limit_is_out_of_memory() {
    let file = program("fib8-vc.bpl", &fibonacci(8));
    let (stdout, _) = run(&["/maxMemoryMB:40"], &file);
    assert!(stdout.contains("(16,11): Verification out of memory (Main)"), "{stdout}");
    assert!(stdout.contains("finished with 1 verified, 0 errors, 1 out of memory"), "{stdout}");
}

/// The VC of `{:inline 8}` (4 MB of SMT-LIB) takes rboogie under 90 MB to make, and each solver
/// more than 120 MB to read and check: with `/maxMemoryMB:120` the solver is stopped, the
/// implementation is out of memory, and the next one verifies with a fresh solver. The log
/// shows that the VC was made and sent (it was the solver that passed the limit).
#[test]
fn a_solver_past_the_memory_limit_is_out_of_memory() {
    let file = program("fib8-solver.bpl", &fibonacci(8));
    for solver in ["in-process", "z3", "cvc5"] {
        let log = std::env::temp_dir().join(format!("rboogie-limits-{}-{solver}.smt2", std::process::id()));
        let (stdout, _) =
            run(&["--solver", solver, "/maxMemoryMB:120", &format!("/proverLog:{}", log.display())], &file);
        let logged = std::fs::metadata(&log).map(|m| m.len()).unwrap_or(0);
        let _ = std::fs::remove_file(&log);
        assert!(logged > 1 << 20, "{solver}: the VC was not sent ({logged} bytes logged)");
        assert!(stdout.contains("(16,11): Verification out of memory (Main)"), "{solver}: {stdout}");
        assert!(stdout.contains("finished with 1 verified, 0 errors, 1 out of memory"), "{solver}: {stdout}");
    }
}

/// A solver that takes ever more memory on one query (`fake_solvers/hungry.sh`) is killed at
/// the limit: that implementation is out of memory, those before and after it verify. (It has
/// two assertions: with one, Boogie's last chance would report that assertion as failing.)
#[test]
fn a_solver_process_is_killed_at_the_memory_limit() {
    let file = program(
        "hungry.bpl",
        "procedure A(x: int) { assert x == x; }\n\
         procedure Hungry(hungry: int) { assert hungry == hungry; assert hungry + 1 > hungry; }\n\
         procedure C(x: int) { assert x - 1 < x; }\n",
    );
    let solver = format!("{}/tests/fake_solvers/hungry.sh", env!("CARGO_MANIFEST_DIR"));
    let (stdout, elapsed) = run(&["--solver", &solver, "/maxMemoryMB:100"], &file);
    assert!(elapsed < Duration::from_secs(20), "ran {elapsed:?}: {stdout}");
    assert!(stdout.contains("(2,11): Verification out of memory (Hungry)"), "{stdout}");
    assert!(stdout.contains("finished with 2 verified, 0 errors, 1 out of memory"), "{stdout}");
}
