//! `--shard I/N` and `rboogie merge`, through the built binary: a generated program of 40
//! implementations checked in 4 shards, whose merged output must be byte for byte the
//! unsharded run's; every implementation in exactly one shard; every line of `--format json`
//! (also under `/trace`) a JSON object; and bad input refused with an error and a nonzero
//! exit code, never a panic.

use std::path::{Path, PathBuf};
use std::process::{Command, Output};

const IMPLEMENTATIONS: usize = 40;

/// The generated program. Implementation `p{k}` (k = 0..40) sets `r := x`, then adds 1 to `r`
/// k times, so its sizes (and shards) differ. Its expected verdict, worked out by hand:
/// - `ensures r == x + k` holds, except for k % 5 == 3, whose ensures claims `x + k + 1`: it
///   fails (k = 3, 8, 13, 18, 23, 28, 33, 38);
/// - for k % 8 == 0 the body ends in `assert r > x`, which holds when k > 0 and fails for
///   k = 0 (r == x);
/// - for k % 6 == 1 the increments sit in the then branch of `if (x > 0)` after an else branch
///   that adds k too, so nothing changes.
///
/// So 9 implementations fail with one error each (k = 0, 3, 8, 13, 18, 23, 28, 33, 38) and 31
/// verify: `Boogie program verifier finished with 31 verified, 9 errors`.
fn program() -> String {
    let mut text = String::new();
    for k in 0..IMPLEMENTATIONS {
        let claimed = if k % 5 == 3 { k + 1 } else { k };
        let increments = "    r := r + 1;\n".repeat(k);
        let body = if k % 6 == 1 {
            format!("  r := x;\n  if (x > 0) {{\n{increments}  }} else {{\n    r := r + {k};\n  }}\n")
        } else {
            format!("  r := x;\n{increments}")
        };
        let assert = if k % 8 == 0 { "  assert r > x;\n" } else { "" };
        text += &format!(
            "procedure p{k}(x: int) returns (r: int)\n  ensures r == x + {claimed};\n{{\n{body}{assert}}}\n\n"
        );
    }
    text
}

fn fails(k: usize) -> bool {
    k % 5 == 3 || k == 0
}

fn scratch() -> PathBuf {
    let dir = std::env::temp_dir().join(format!("rboogie-shard-{}", std::process::id()));
    std::fs::create_dir_all(&dir).expect("a scratch directory");
    dir
}

/// Runs the binary in `dir`; a panic is never an acceptable outcome.
fn rboogie(dir: &Path, args: &[&str]) -> Output {
    let output =
        Command::new(env!("CARGO_BIN_EXE_rboogie")).args(args).current_dir(dir).output().expect("rboogie runs");
    let stderr = String::from_utf8_lossy(&output.stderr);
    assert!(!stderr.contains("panicked"), "rboogie {args:?} panicked: {stderr}");
    output
}

fn stdout(output: &Output) -> String {
    String::from_utf8(output.stdout.clone()).expect("UTF-8 output")
}

/// Every line a JSON object with a `kind`.
fn events(text: &str) -> Vec<serde_json::Value> {
    text.lines()
        .map(|line| {
            let event: serde_json::Value =
                serde_json::from_str(line).unwrap_or_else(|e| panic!("not JSON ({e}): {line}"));
            assert!(event["kind"].is_string(), "no kind: {line}");
            event
        })
        .collect()
}

#[test]
fn four_shards_merge_into_the_unsharded_output() {
    let dir = scratch();
    std::fs::write(dir.join("prog.bpl"), program()).expect("the program is written");

    let whole = rboogie(&dir, &["prog.bpl"]);
    let whole_text = stdout(&whole);
    assert_eq!(whole.status.code(), Some(0), "{whole_text}");
    assert!(whole_text.ends_with("\nBoogie program verifier finished with 31 verified, 9 errors\n"), "{whole_text}");

    let mut seen = vec![0; IMPLEMENTATIONS];
    let mut files = Vec::new();
    for i in 1..=4 {
        let shard = format!("{i}/4");
        let output = rboogie(&dir, &["--format", "json", "--shard", &shard, "prog.bpl"]);
        assert_eq!(output.status.code(), Some(0), "shard {shard}");
        let text = stdout(&output);
        let events = events(&text);
        let verdicts: Vec<&serde_json::Value> = events.iter().filter(|e| e["kind"] == "verdict").collect();
        assert!(verdicts.len() >= 5, "shard {shard} is badly balanced: {} implementations", verdicts.len());
        for v in &verdicts {
            let name = v["name"].as_str().expect("a name");
            let k: usize = name[1..].parse().expect("p{k}");
            seen[k] += 1;
            assert_eq!(v["order"], k, "{name}: its place in program order");
            let expected = if fails(k) { "errors" } else { "verified" };
            assert_eq!(v["outcome"], expected, "{name}");
            if fails(k) {
                let trace = &v["errors"][0]["trace"];
                assert!(trace.as_array().is_some_and(|t| !t.is_empty()), "{name} has a trace: {v}");
            }
        }
        let finished = events.last().expect("events");
        assert_eq!(finished["kind"], "finished");
        assert_eq!(finished["implementations"], IMPLEMENTATIONS);
        assert_eq!((finished["shard"]["index"].as_u64(), finished["shard"]["count"].as_u64()), (Some(i), Some(4)));
        let name = format!("shard{i}.json");
        std::fs::write(dir.join(&name), text).expect("the shard is written");
        files.push(name);
    }
    assert!(seen.iter().all(|&n| n == 1), "each implementation in exactly one shard: {seen:?}");

    // Any order of the files.
    let merged = rboogie(&dir, &["merge", &files[2], &files[0], &files[3], &files[1]]);
    assert_eq!(merged.status.code(), Some(0), "{}", String::from_utf8_lossy(&merged.stderr));
    assert_eq!(stdout(&merged), whole_text, "the merge is the unsharded output");

    // The unsharded JSON is one complete shard of its own.
    let all = rboogie(&dir, &["--format", "json", "prog.bpl"]);
    std::fs::write(dir.join("all.json"), stdout(&all)).expect("written");
    assert_eq!(stdout(&rboogie(&dir, &["merge", "all.json"])), whole_text);

    // Under /trace the progress lines are JSON events too.
    let traced = rboogie(&dir, &["--format", "json", "/trace", "--shard", "2/4", "prog.bpl"]);
    let traced = events(&stdout(&traced));
    assert!(traced.iter().any(|e| e["kind"] == "trace"), "trace events");

    // Bad input: an error on stderr and exit code 1.
    let refused = |args: &[&str], says: &str| {
        let output = rboogie(&dir, args);
        let stderr = String::from_utf8_lossy(&output.stderr);
        assert_eq!(output.status.code(), Some(1), "{args:?}: {stderr}");
        assert!(stderr.contains(says), "{args:?}: {stderr}");
    };
    refused(&["merge", "shard1.json", "missing.json"], "cannot read missing.json");
    refused(&["merge", "shard1.json", "prog.bpl"], "prog.bpl:1: not the JSON of `rboogie --format json`");
    refused(&["merge", "shard1.json", "shard1.json", "shard2.json", "shard3.json"], "are both shard 1/4");
    refused(&["merge", "shard1.json", "shard2.json", "shard4.json"], "shards missing: 3/4");
    refused(
        &["merge", "shard1.json", "shard2.json", "shard3.json", "shard4.json", "all.json"],
        "but all.json is shard 1/1",
    );
    // A shard of another command line.
    let other = rboogie(&dir, &["--format", "json", "/errorTrace:2", "--shard", "4/4", "prog.bpl"]);
    std::fs::write(dir.join("other.json"), stdout(&other)).expect("written");
    refused(&["merge", "shard1.json", "shard2.json", "shard3.json", "other.json"], "not shards of one run");
    refused(&["merge"], "needs the shards' JSON files");
    for bad in ["0/4", "5/4", "x", "1/0"] {
        refused(&["--format", "json", "--shard", bad, "prog.bpl"], "expected I/N");
    }

    // A program that does not type-check: its errors are shown, and said to stop the merge.
    std::fs::write(dir.join("bad.bpl"), "procedure P() { var x: int; x := true; }\n").expect("written");
    for i in 1..=2 {
        let output = rboogie(&dir, &["--format", "json", "--shard", &format!("{i}/2"), "bad.bpl"]);
        std::fs::write(dir.join(format!("bad{i}.json")), stdout(&output)).expect("written");
    }
    let merged = rboogie(&dir, &["merge", "bad1.json", "bad2.json"]);
    assert_eq!(merged.status.code(), Some(1));
    assert_eq!(stdout(&merged), stdout(&rboogie(&dir, &["bad.bpl"])), "the errors as Boogie prints them");
    assert!(String::from_utf8_lossy(&merged.stderr).contains("nothing was verified"));

    let _ = std::fs::remove_dir_all(&dir);
}
