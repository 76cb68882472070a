//! Limits that hold (issue 14): `/processTimeLimit` ends the run, `/timeLimit` ends a check
//! with the in-process Z3, and the Z3 server the binary falls back on answers as `z3 -in`.
//! Run on the `rboogie` binary, whose wall time is measured against the limit with a margin
//! for a loaded machine.

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
    let mut child = Command::new(binary())
        .arg("--rboogie-z3-server")
        .stdin(Stdio::piped())
        .stdout(Stdio::piped())
        .spawn()
        .expect("the server starts");
    let script = "(set-option :print-success false)\n(declare-fun x () Int)\n(assert (> x 2))\n\
                  (assert (< x 4))\n(check-sat)\n(get-value (x))\n(push 1)\n(assert (= x 5))\n(check-sat)\n(pop 1)\n(exit)\n";
    child.stdin.take().expect("stdin").write_all(script.as_bytes()).expect("the server reads");
    let output = child.wait_with_output().expect("the server ends");
    let stdout = String::from_utf8_lossy(&output.stdout);
    let lines: Vec<&str> = stdout.lines().map(str::trim).filter(|l| !l.is_empty()).collect();
    assert_eq!(lines, ["sat", "((x 3))", "unsat"], "{stdout}");
    assert!(output.status.success());
}
