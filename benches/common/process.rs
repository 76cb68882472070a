//! What the whole-process benchmarks share: the release binary they run, and a scratch
//! directory for the programs they generate.

use std::path::PathBuf;

/// The release binary and a fresh scratch directory named after the benchmark; `None` (after
/// saying how to build it) when the binary is missing.
pub fn setup(bench: &str) -> Option<(&'static str, PathBuf)> {
    let binary = concat!(env!("CARGO_MANIFEST_DIR"), "/target/release/rboogie");
    if !std::path::Path::new(binary).exists() {
        eprintln!("build the binary first: cargo build --release");
        return None;
    }
    let dir = std::env::temp_dir().join(format!("rboogie-bench-{bench}-{}", std::process::id()));
    let _ = std::fs::create_dir_all(&dir);
    Some((binary, dir))
}

/// A run of `command` capped at `cap`: its wall time and its standard output, or `None` when it
/// was killed at the cap. The output is read on a thread of its own (a large one cannot block
/// the child), and the child is polled every millisecond: the time is exact to a millisecond
/// (polling every 20 ms made a 45 ms run read as 60).
#[allow(dead_code)] // not every bench that includes this module runs capped commands
pub fn run_capped(mut command: std::process::Command, cap: std::time::Duration) -> (f64, Option<String>) {
    use std::process::Stdio;
    use std::time::{Duration, Instant};
    let started = Instant::now();
    let mut child = command.stdout(Stdio::piped()).stderr(Stdio::null()).spawn().expect("rboogie runs");
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
        if started.elapsed() > cap {
            let _ = child.kill();
            let _ = child.wait();
            break false;
        }
        std::thread::sleep(Duration::from_millis(1));
    };
    let seconds = started.elapsed().as_secs_f64();
    let out = reader.join().unwrap_or_default();
    (seconds, finished.then_some(out))
}
