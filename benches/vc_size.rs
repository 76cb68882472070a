//! VC size: SMT-LIB bytes per statement, on a family of generated programs whose VC must grow
//! linearly (STYLE habit 6: one let-bound boolean per block).
//!
//! `cargo bench --bench vc_size` generates, for N = 10, 100, 1000, 10 000 and 100 000, one
//! procedure of N sequential if-then-else diamonds, each followed by an assertion (4
//! statements: the `if`, an assignment in each branch, the `assert`), and runs it through the
//! library's pipeline (parse, type check, `vcgen::verify_program`; the program needs none of
//! the passes) against a canned
//! session that answers `unsat`, whose in-memory prover log holds every byte a solver would be
//! sent. It prints the SMT-LIB bytes after the session's preamble per source statement, and
//! the time per statement of the front end (parse, type check) and of VC generation. Target, printed beside the figures: bytes per
//! statement flat in N (the largest N within 10% of the smallest N's figure beyond 1000).
//! `--quick` stops at N = 10 000; `--only N` measures one N (for a profiler).

use std::time::{Duration, Instant};

use rboogie::smt::canned::{self, Reply};
use rboogie::smt::{Dialect, ProverLog, SessionOptions};
use rboogie::source::SourceMap;
use rboogie::typeck::{self, Outcome, TypeckOptions};
use rboogie::vcgen::{self, VerifyOptions};

#[global_allocator]
static GLOBAL: rboogie::alloc::Allocator = rboogie::alloc::Allocator;

/// The statements of one diamond.
const STATEMENTS_PER_DIAMOND: usize = 4;

fn diamonds(n: usize) -> String {
    let mut text = String::from("procedure Diamonds(x0: int) returns (x: int)\n{\n  x := x0;\n");
    // The same constants in every diamond: only the names of incarnations and blocks grow
    // with N (by a digit per tenfold).
    for _ in 0..n {
        text += "  if (x > 0) {\n    x := x - 1;\n  } else {\n    x := x + 2;\n  }\n  assert x != -1000000;\n";
    }
    text += "}\n";
    text
}

struct Figures {
    statements: usize,
    vc_bytes: usize,
    /// Parsing and type checking (the program needs none of the passes).
    front_end: Duration,
    /// `verify_program`: blocks, passification, the VC as text.
    vc_generation: Duration,
}

/// The program through the pipeline to its VC; what the solver would have been sent.
fn measure(n: usize) -> Figures {
    let text = diamonds(n);
    let started = Instant::now();
    let mut sources = SourceMap::new();
    let file = sources.add("diamonds.bpl", "diamonds.bpl", text);
    let program = rboogie::parser::parse(&mut sources, file, &[]).expect("the generated program parses");
    let Outcome::Typed(typed, _) = typeck::run(program, &TypeckOptions::default(), false) else {
        panic!("the generated program type-checks")
    };
    let front_end = started.elapsed();
    let (log, bytes) = ProverLog::memory();
    let log = std::sync::Mutex::new(Some(log));
    let open = |_: &str| {
        let log = log.lock().unwrap().take();
        Ok(canned::start([Reply::from("unsat")], Dialect::Z3, &SessionOptions::default(), log))
    };
    let mut verified = 0;
    vcgen::verify_program(&typed, &sources, &VerifyOptions::default(), &open, &mut |r| {
        verified += matches!(r.outcome, vcgen::ImplOutcome::Verified) as usize;
    })
    .unwrap_or_else(|u| panic!("the program is encoded: {} not supported", u.what));
    let vc_generation = started.elapsed() - front_end;
    assert_eq!(verified, 1, "the canned solver's unsat verifies the procedure");
    let sent = bytes.lock().unwrap();
    let sent = String::from_utf8_lossy(&sent);
    let after_preamble = sent.split_once("; done setting options\n").map_or(&sent[..], |(_, rest)| rest);
    Figures { statements: 1 + STATEMENTS_PER_DIAMOND * n, vc_bytes: after_preamble.len(), front_end, vc_generation }
}

fn main() {
    let args: Vec<String> = std::env::args().collect();
    let quick = args.iter().any(|a| a == "--quick");
    let only: Option<usize> =
        args.iter().position(|a| a == "--only").and_then(|i| args.get(i + 1)).and_then(|n| n.parse().ok());
    let sizes: Vec<usize> = match only {
        Some(n) => vec![n],
        None if quick => vec![10, 100, 1000, 10_000],
        None => vec![10, 100, 1000, 10_000, 100_000],
    };
    // The pipeline recurses over statements and expressions, as in the executable (which runs
    // it on a 1 GiB stack).
    let worker = std::thread::Builder::new().stack_size(1 << 30).spawn(move || {
        println!("VC size: N if-then-else diamonds with an assertion each (4 statements per diamond)");
        println!(
            "{:>8} {:>10} {:>14} {:>12} {:>18} {:>14}",
            "N", "statements", "SMT-LIB bytes", "bytes/stmt", "front end us/stmt", "VC gen us/stmt"
        );
        let mut per_statement = Vec::new();
        for &n in &sizes {
            let f = measure(n);
            let bytes = f.vc_bytes as f64 / f.statements as f64;
            per_statement.push((n, bytes));
            let per_statement = |d: Duration| d.as_secs_f64() * 1e6 / f.statements as f64;
            println!(
                "{n:>8} {:>10} {:>14} {bytes:>12.1} {:>18.2} {:>14.2}",
                f.statements,
                f.vc_bytes,
                per_statement(f.front_end),
                per_statement(f.vc_generation)
            );
        }
        let reference = per_statement.iter().find(|(n, _)| *n >= 1000).map_or(per_statement[0].1, |p| p.1);
        let (largest, last) = *per_statement.last().unwrap();
        let ratio = last / reference;
        let verdict = if (0.9..=1.1).contains(&ratio) { "met" } else { "NOT met" };
        println!("target: bytes per statement flat (N = {largest}: {ratio:.2} times N = 1000's) -- {verdict}");
    });
    worker.expect("a thread for the pipeline").join().expect("the bench ran");
}
