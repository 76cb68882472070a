//! Sharding: `--shard I/N` verifies a deterministic share of the implementations, and
//! `rboogie merge SHARD.json...` rebuilds, from the shards' `--format json` output, the text
//! Boogie prints for the whole program.
//!
//! Assignment ([`assign`]): the implementations the options select, in program order, each
//! weighed by a cheap size estimate ([`body_size`]: the commands of its body after the passes),
//! are dealt out largest first, each onto the shard with the least weight so far (ties: the
//! earlier implementation first, the lower shard first). Every implementation is in exactly
//! one shard and the assignment depends only on the program and the options, so N runs with
//! the same command line but for `--shard` cover the program once.
//!
//! Every shard still generates every selected implementation's VC and sends only its own to
//! the solver: a VC's text depends on what the implementations before it declared (sorts
//! first met, code expressions numbered in order), so each query is the same bytes as in the
//! unsharded run, and so is each verdict. VC generation is linear and cheap next to solving.
//!
//! Merging ([`merge`]) reads the events `crate::report` writes: each verdict carries its
//! place in program order (`order`) and Boogie's text for it (`text`); each run ends with a
//! `finished` event that names its shard, the number of implementations of the whole program
//! and a fingerprint of the program and command line. The merge checks that the files are
//! one complete set of shards of one run, prints the first shard's output before its verdicts
//! (warnings, printed programs: the same in every shard), the verdicts' texts in program
//! order and Boogie's closing line with the summed counts: byte for byte what the unsharded
//! run prints, `/trace` lines aside (they carry times; the merge leaves them out).

use std::cmp::Reverse;
use std::collections::BinaryHeap;
use std::fmt;
use std::io::{self, Write};

use crate::ast::Body;
use crate::report::{Counts, trailer_line};

/// `--shard I/N`: the I-th (1-based) of N shards.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Shard {
    pub index: u32,
    pub count: u32,
}

impl Shard {
    /// The whole program: what a run without `--shard` is.
    pub const WHOLE: Shard = Shard { index: 1, count: 1 };
}

impl Default for Shard {
    fn default() -> Shard {
        Shard::WHOLE
    }
}

impl fmt::Display for Shard {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "{}/{}", self.index, self.count)
    }
}

impl std::str::FromStr for Shard {
    type Err = String;

    /// `I/N` with 1 <= I <= N.
    fn from_str(text: &str) -> Result<Shard, String> {
        let expected = || format!("expected I/N, the I-th of N shards (1 <= I <= N), such as 2/4; got '{text}'");
        let (i, n) = text.split_once('/').ok_or_else(expected)?;
        let (Ok(index), Ok(count)) = (i.trim().parse::<u32>(), n.trim().parse::<u32>()) else {
            return Err(expected());
        };
        if count == 0 || index == 0 || index > count {
            return Err(expected());
        }
        Ok(Shard { index, count })
    }
}

// ---------------------------------------------------------------------------------------------
// Assignment

/// The size estimate of a body: one for the implementation, plus one per command and per
/// structured statement (`if`, `while`, `goto`, ...), at any depth.
pub fn body_size(body: &Body) -> u64 {
    let mut size = 1;
    // An explicit stack: machine-generated bodies nest deeply.
    let mut lists = vec![&body.stmts];
    while let Some(list) = lists.pop() {
        for block in &list.blocks {
            size += block.cmds.len() as u64;
            if let Some(tail) = &block.tail {
                size += 1;
                lists.extend(tail.nested_lists());
            }
        }
    }
    size
}

/// The shard (1-based) of each implementation, given their sizes in program order: largest
/// first onto the least-loaded shard, ties by program order and then by shard.
pub fn assign(sizes: &[u64], count: u32) -> Vec<u32> {
    let mut by_size: Vec<usize> = (0..sizes.len()).collect();
    // Stable: equal sizes keep program order.
    by_size.sort_by_key(|&i| Reverse(sizes[i]));
    let mut loads: BinaryHeap<Reverse<(u64, u32)>> = (1..=count.max(1)).map(|s| Reverse((0, s))).collect();
    let mut shards = vec![1; sizes.len()];
    for i in by_size {
        if let Some(Reverse((load, shard))) = loads.pop() {
            shards[i] = shard;
            loads.push(Reverse((load.saturating_add(sizes[i]), shard)));
        }
    }
    shards
}

/// A fingerprint of a run's program and command line, `--shard` and its value left out:
/// shards of one run have the same. FNV-1a, written out so that it is the same in every
/// build.
pub fn fingerprint<'a>(args: &[String], texts: impl IntoIterator<Item = &'a str>) -> String {
    let mut hash: u64 = 0xcbf2_9ce4_8422_2325;
    let mut add = |bytes: &[u8]| {
        for &b in bytes.iter().chain(&[0xff]) {
            hash = (hash ^ u64::from(b)).wrapping_mul(0x0100_0000_01b3);
        }
    };
    let mut args = args.iter();
    while let Some(arg) = args.next() {
        if arg == "--shard" {
            args.next();
        } else if !arg.starts_with("--shard=") {
            add(arg.as_bytes());
        }
    }
    for text in texts {
        add(text.as_bytes());
    }
    format!("{hash:016x}")
}

// ---------------------------------------------------------------------------------------------
// Merging

/// Why shard files cannot be merged.
#[derive(Debug, PartialEq, Eq)]
pub enum MergeError {
    /// Not one complete set of shards of one finished run, or not rboogie's JSON.
    Invalid(String),
    /// A shard's run stopped before verification with errors; `output` is what it printed
    /// (as Boogie's text).
    Stopped { file: String, output: String },
}

impl fmt::Display for MergeError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            MergeError::Invalid(why) => f.write_str(why),
            MergeError::Stopped { file, .. } => {
                write!(f, "{file}: the run stopped with the errors above; nothing was verified")
            }
        }
    }
}

/// One verdict event, as the merge needs it.
struct VerdictText {
    order: usize,
    text: String,
    internal_error: bool,
}

/// A `finished` event.
struct Finished {
    counts: Counts,
    /// `/quiet`: no closing line (its `text` is empty).
    quiet: bool,
    /// The closing line counts verified implementations (not under
    /// `/printVerifiedProceduresCount:0`; true when the event does not say).
    verified_shown: bool,
    implementations: usize,
    shard: Shard,
    program: String,
}

/// What one shard file says.
struct ShardRun {
    file: String,
    /// Boogie's text of the events before the verdicts, `/trace` lines left out.
    prologue: String,
    /// It printed an error (a diagnostic, a phase summary or a message of rboogie's).
    stopped: bool,
    verdicts: Vec<VerdictText>,
    finished: Option<Finished>,
}

/// Boogie's output for the whole program, from the shards' JSON (`(file name, contents)`),
/// and the exit code the unsharded run has (70 when a solver rejected a query of rboogie's,
/// else 0).
pub fn merge(files: &[(String, String)]) -> Result<(String, i32), MergeError> {
    if files.is_empty() {
        return Err(MergeError::Invalid("no shard files given (rboogie merge SHARD.json...)".into()));
    }
    let runs = files.iter().map(|(file, text)| read_run(file, text)).collect::<Result<Vec<_>, _>>()?;
    if let Some(run) = runs.iter().find(|r| r.stopped) {
        return Err(MergeError::Stopped { file: run.file.clone(), output: run.prologue.clone() });
    }
    let mut finished = Vec::new();
    for run in &runs {
        match &run.finished {
            Some(f) => finished.push((run, f)),
            None => {
                return Err(MergeError::Invalid(format!(
                    "{}: the run did not finish (no `finished` event): it was cut off, or its output is incomplete",
                    run.file
                )));
            }
        }
    }
    let (first, head) = finished[0];
    for &(run, f) in &finished[1..] {
        if f.program != head.program {
            return Err(MergeError::Invalid(format!(
                "{} and {} are not shards of one run (their programs or command lines differ)",
                first.file, run.file
            )));
        }
        if f.shard.count != head.shard.count || f.implementations != head.implementations {
            return Err(MergeError::Invalid(format!(
                "{} is shard {} of {} implementations but {} is shard {} of {}",
                first.file, head.shard, head.implementations, run.file, f.shard, f.implementations
            )));
        }
    }
    // Each shard exactly once.
    let count = head.shard.count;
    let mut by_index: rustc_hash::FxHashMap<u32, &ShardRun> = Default::default();
    for &(run, f) in &finished {
        if let Some(other) = by_index.insert(f.shard.index, run) {
            return Err(MergeError::Invalid(format!("{} and {} are both shard {}", other.file, run.file, f.shard)));
        }
    }
    if by_index.len() < count as usize {
        // Listed up to a few: a garbled count may be huge.
        let mut missing: Vec<String> = (1..=count)
            .filter(|i| !by_index.contains_key(i))
            .take(8)
            .map(|index| Shard { index, count }.to_string())
            .collect();
        if count as usize - by_index.len() > missing.len() {
            missing.push("...".to_string());
        }
        return Err(MergeError::Invalid(format!("shards missing: {}", missing.join(", "))));
    }
    // Each implementation exactly once.
    let total = head.implementations;
    let reported: usize = runs.iter().map(|r| r.verdicts.len()).sum();
    if reported < total {
        return Err(MergeError::Invalid(format!(
            "the shards report {reported} of the program's {total} implementations"
        )));
    }
    let mut texts: Vec<Option<(&str, &VerdictText)>> = vec![None; total];
    for run in &runs {
        for v in &run.verdicts {
            let Some(slot) = texts.get_mut(v.order) else {
                return Err(MergeError::Invalid(format!(
                    "{} reports implementation {} (in program order) of a program of {total}",
                    run.file,
                    v.order + 1
                )));
            };
            if let Some((other, _)) = slot {
                return Err(MergeError::Invalid(format!(
                    "{other} and {} both report implementation {} (in program order)",
                    run.file,
                    v.order + 1
                )));
            }
            *slot = Some((&run.file, v));
        }
    }
    if let Some(order) = texts.iter().position(Option::is_none) {
        return Err(MergeError::Invalid(format!(
            "no shard reports implementation {} of {total} (in program order)",
            order + 1
        )));
    }

    let lowest = by_index.get(&1).copied().unwrap_or(first);
    let mut output = lowest.prologue.clone();
    let mut counts = Counts::default();
    let mut internal_error = false;
    for (_, v) in texts.into_iter().flatten() {
        output += &v.text;
        internal_error |= v.internal_error;
    }
    for (_, f) in &finished {
        counts.add(&f.counts);
    }
    if !head.quiet {
        output += &format!("\n{}\n", trailer_line(&counts, head.verified_shown));
    }
    Ok((output, if internal_error { 70 } else { 0 }))
}

/// Reads the files and merges them: the output on `out`, problems on `err`. Returns the
/// exit code: the unsharded run's, or 1 when the files cannot be merged.
pub fn merge_files(paths: &[String], out: &mut dyn Write, err: &mut dyn Write) -> io::Result<i32> {
    let mut files = Vec::new();
    for path in paths {
        match std::fs::read_to_string(path) {
            Ok(text) => files.push((path.clone(), text)),
            Err(e) => {
                writeln!(err, "rboogie merge: error: cannot read {path}: {e}")?;
                return Ok(1);
            }
        }
    }
    match merge(&files) {
        Ok((output, code)) => {
            out.write_all(output.as_bytes())?;
            Ok(code)
        }
        Err(e) => {
            if let MergeError::Stopped { output, .. } = &e {
                out.write_all(output.as_bytes())?;
            }
            writeln!(err, "rboogie merge: error: {e}")?;
            Ok(1)
        }
    }
}

/// The events of one file.
fn read_run(file: &str, text: &str) -> Result<ShardRun, MergeError> {
    let mut run = ShardRun {
        file: file.to_string(),
        prologue: String::new(),
        stopped: false,
        verdicts: Vec::new(),
        finished: None,
    };
    let not_ours = |line: usize, why: &str| {
        MergeError::Invalid(format!("{file}:{line}: not the JSON of `rboogie --format json` ({why})"))
    };
    for (n, line) in text.lines().enumerate().filter(|(_, l)| !l.trim().is_empty()) {
        let n = n + 1;
        let event: serde_json::Value = serde_json::from_str(line).map_err(|e| not_ours(n, &e.to_string()))?;
        let kind = event.get("kind").and_then(|k| k.as_str()).ok_or_else(|| not_ours(n, "no `kind`"))?;
        let text = || event.get("text").and_then(|t| t.as_str()).ok_or_else(|| not_ours(n, "no `text`"));
        if run.finished.is_some() {
            return Err(not_ours(n, "an event after `finished`"));
        }
        match kind {
            "diagnostic" => {
                run.prologue += text()?;
                run.stopped |= event.get("severity").and_then(|s| s.as_str()) == Some("error");
            }
            "summary" | "error" => {
                run.prologue += text()?;
                run.stopped = true;
            }
            "output" => run.prologue += text()?,
            "trace" => {}
            "verdict" => {
                let order = number(&event, "order").ok_or_else(|| not_ours(n, "a verdict without `order`"))?;
                let internal_error = event.get("outcome").and_then(|o| o.as_str()) == Some("internal_error");
                run.verdicts.push(VerdictText { order, text: text()?.to_string(), internal_error });
            }
            "finished" => {
                let count =
                    |key| number(&event, key).ok_or_else(|| not_ours(n, &format!("`finished` without `{key}`")));
                let counts = Counts {
                    verified: count("verified")?,
                    errors: count("errors")?,
                    inconclusive: count("inconclusive")?,
                    timeouts: count("timeouts")?,
                    out_of_memory: count("out_of_memory")?,
                    out_of_resource: count("out_of_resource")?,
                    solver_exceptions: count("solver_exceptions")?,
                };
                let shard = event.get("shard").unwrap_or(&serde_json::Value::Null);
                let (index, shards) = (number(shard, "index"), number(shard, "count"));
                let shard = match (index, shards) {
                    (Some(index), Some(count)) if 1 <= index && index <= count => {
                        Shard { index: index as u32, count: count as u32 }
                    }
                    _ => return Err(not_ours(n, "`finished` without a valid `shard`")),
                };
                let program = event.get("program").and_then(|p| p.as_str()).unwrap_or_default().to_string();
                run.finished = Some(Finished {
                    counts,
                    quiet: text()?.is_empty(),
                    verified_shown: event.get("verified_shown").and_then(|v| v.as_bool()).unwrap_or(true),
                    implementations: count("implementations")?,
                    shard,
                    program,
                });
            }
            other => return Err(not_ours(n, &format!("unknown kind `{other}`"))),
        }
    }
    if run.finished.is_none() && run.verdicts.is_empty() && run.prologue.is_empty() {
        return Err(MergeError::Invalid(format!("{file}: empty: no events of `rboogie --format json`")));
    }
    Ok(run)
}

/// A non-negative integer field small enough to count with.
fn number(event: &serde_json::Value, key: &str) -> Option<usize> {
    event.get(key)?.as_u64().and_then(|n| usize::try_from(n).ok()).filter(|&n| n <= u32::MAX as usize)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn shard_syntax() {
        assert_eq!("2/4".parse(), Ok(Shard { index: 2, count: 4 }));
        assert_eq!("1/1".parse(), Ok(Shard::WHOLE));
        for bad in ["0/4", "5/4", "x", "1/0", "2", "/4", "1/x", "-1/4", "1/4/2"] {
            assert!(bad.parse::<Shard>().is_err(), "{bad}");
        }
    }

    #[test]
    fn largest_first_onto_the_least_loaded() {
        // 9 to shard 1, 8 to 2, 5 to 3, then 3 to 3 (5 < 8 < 9), the two 1s to 2 then 3.
        assert_eq!(assign(&[1, 9, 3, 8, 5, 1], 3), vec![2, 1, 3, 2, 3, 3]);
        // Ties by program order, then by shard.
        assert_eq!(assign(&[2, 2, 2, 2], 2), vec![1, 2, 1, 2]);
        assert_eq!(assign(&[4, 1], 1), vec![1, 1]);
        // More shards than implementations: some are empty.
        assert_eq!(assign(&[1], 3), vec![1]);
        assert!(assign(&[], 4).is_empty());
    }

    #[test]
    fn fingerprints_ignore_only_the_shard() {
        let args = |s: &str| s.split_whitespace().map(String::from).collect::<Vec<_>>();
        let a = fingerprint(&args("--format json --shard 1/4 p.bpl"), ["text"]);
        assert_eq!(a, fingerprint(&args("--format json --shard=3/4 p.bpl"), ["text"]));
        assert_ne!(a, fingerprint(&args("--format json --shard 1/4 p.bpl"), ["other text"]));
        assert_ne!(a, fingerprint(&args("--format json --shard 1/4 /timeLimit:5 p.bpl"), ["text"]));
    }

    fn finished(index: u32, count: u32, verified: usize, implementations: usize) -> String {
        serde_json::json!({
            "kind": "finished", "verified": verified, "errors": 0, "inconclusive": 0, "timeouts": 0,
            "out_of_memory": 0, "out_of_resource": 0, "solver_exceptions": 0,
            "implementations": implementations, "shard": {"index": index, "count": count},
            "program": "p", "text": "\nclosing\n",
        })
        .to_string()
    }

    fn verdict(order: usize, text: &str) -> String {
        serde_json::json!({"kind": "verdict", "order": order, "outcome": "verified", "text": text}).to_string()
    }

    fn file(name: &str, lines: &[String]) -> (String, String) {
        (name.to_string(), lines.join("\n") + "\n")
    }

    #[test]
    fn merges_in_program_order() {
        let warning = serde_json::json!({"kind": "diagnostic", "severity": "warning", "text": "w\n"}).to_string();
        let trace = serde_json::json!({"kind": "trace", "text": "[TRACE] x\n"}).to_string();
        let a = file("a", &[warning.clone(), trace, verdict(1, "one\n"), finished(1, 2, 1, 3)]);
        let b = file("b", &[warning, verdict(2, "two\n"), verdict(0, "zero\n"), finished(2, 2, 2, 3)]);
        let expected =
            format!("w\nzero\none\ntwo\n\n{}\n", trailer_line(&Counts { verified: 3, ..Counts::default() }, true));
        assert_eq!(merge(&[b.clone(), a.clone()]), Ok((expected, 0)));
    }

    #[test]
    fn refuses_what_is_not_one_complete_set() {
        let invalid = |files: &[(String, String)]| match merge(files) {
            Err(MergeError::Invalid(why)) => why,
            other => panic!("merged: {other:?}"),
        };
        let a = file("a", &[verdict(0, "zero\n"), finished(1, 2, 1, 2)]);
        let b = file("b", &[verdict(1, "one\n"), finished(2, 2, 1, 2)]);
        assert!(invalid(std::slice::from_ref(&a)).contains("shards missing: 2/2"));
        assert!(invalid(&[a.clone(), a.clone()]).contains("both shard 1/2"));
        let wrong = file("c", &[verdict(0, "zero\n"), finished(2, 2, 1, 2)]);
        assert!(invalid(&[a.clone(), wrong]).contains("both report implementation 1"));
        let short = file("c", &[finished(2, 2, 0, 2)]);
        assert!(invalid(&[a.clone(), short]).contains("the shards report 1 of the program's 2 implementations"));
        let cut = file("b", &[verdict(1, "one\n")]);
        assert!(invalid(&[a.clone(), cut]).contains("did not finish"));
        let other = file("c", &[verdict(1, "one\n"), finished(2, 3, 1, 2)]);
        assert!(invalid(&[a.clone(), other]).contains("is shard 1/2 of 2 implementations but c is shard 2/3"));
        assert!(invalid(&[a.clone(), file("c", &["procedure P();".into()])]).contains("c:1: not the JSON"));
        assert!(invalid(&[a.clone(), file("c", &["{}".into()])]).contains("no `kind`"));
        assert!(invalid(&[a.clone(), ("c".into(), String::new())]).contains("c: empty"));
        assert!(invalid(&[]).contains("no shard files"));
        assert!(merge(&[a, b]).is_ok());
    }

    #[test]
    fn a_stopped_run_is_shown() {
        let error = serde_json::json!({"kind": "diagnostic", "severity": "error", "text": "t.bpl(1,1): Error: x\n"});
        let summary = serde_json::json!({"kind": "summary", "text": "1 type checking errors detected in t.bpl\n"});
        let a = file("a", &[error.to_string(), summary.to_string()]);
        let Err(MergeError::Stopped { file, output }) = merge(&[a]) else { panic!("merged") };
        assert_eq!(
            (file.as_str(), output.as_str()),
            ("a", "t.bpl(1,1): Error: x\n1 type checking errors detected in t.bpl\n")
        );
    }
}
