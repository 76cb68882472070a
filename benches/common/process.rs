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
