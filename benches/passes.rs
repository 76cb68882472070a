//! The passes' cost: `/noVerify` (parse, resolve, type check, every pass) against
//! `/noResolve` (parse alone) on generated Dafny-like programs, whole process.
//!
//! `cargo build --release && cargo bench --bench passes` generates programs of the shape Dafny
//! emits (as `Test/dafny/Seq.bpl`): a prelude of polymorphic functions and axioms (boxing,
//! sequences, a polymorphic heap), then modules of functions with definition axioms and
//! procedures whose bodies build sequences, read the heap and assign polymorphic lambdas (the
//! frame), so that lambda lifting and monomorphization have work at every size. Sizes are
//! 1x, 2x, 4x and 8x a base of 120 modules (about 125 KB). For each, the best of 5 runs of
//! `target/release/rboogie /noVerify` and of `/noResolve` on the same file: MB/s of the
//! former, the ratio of the two, and the growth from one size to the next. Targets (issue 15):
//! at least 25 MB/s, at most 3 times the time of parsing alone, time growing linearly.

#[path = "common/process.rs"]
mod process;

use std::fmt::Write;
use std::process::Command;
use std::time::{Duration, Instant};

const BASE_MODULES: usize = 120;

/// The prelude every generated program starts with.
const PRELUDE: &str = r#"
type Ty;
type ref;
const null: ref;
type Box;
type Field _;
type Seq _;
type Set T = [T]bool;
const unique alloc: Field bool;
function $Box<T>(T) : Box;
function $Unbox<T>(Box) : T;
axiom (forall<T> x: T :: { $Box(x) } $Unbox($Box(x)) == x);
function $Is<T>(T, Ty) : bool;
function $IsBox<T>(T, Ty) : bool;
axiom (forall<T> x: T, t: Ty :: { $IsBox($Box(x), t) } $IsBox($Box(x), t) <==> $Is(x, t));
function Seq#Length<T>(Seq T) : int;
function Seq#Empty<T>() : Seq T;
function Seq#Build<T>(s: Seq T, v: T) : Seq T;
function Seq#Index<T>(Seq T, int) : T;
axiom (forall<T> s: Seq T :: { Seq#Length(s) } 0 <= Seq#Length(s));
axiom (forall<T> :: { Seq#Empty(): Seq T } Seq#Length(Seq#Empty(): Seq T) == 0);
axiom (forall<T> s: Seq T, v: T :: { Seq#Build(s, v) } Seq#Length(Seq#Build(s, v)) == 1 + Seq#Length(s));
axiom (forall<T> s: Seq T, v: T :: { Seq#Build(s, v) } Seq#Index(Seq#Build(s, v), Seq#Length(s)) == v);
type Heap = [ref]<alpha>[Field alpha]alpha;
function read<alpha>(H: Heap, r: ref, f: Field alpha) : alpha;
axiom (forall<alpha> h: Heap, r: ref, f: Field alpha :: { read(h, r, f) } read(h, r, f) == h[r][f]);
var $Heap: Heap;
function $IsGoodHeap(Heap) : bool;
const TInt: Ty;
const TBool: Ty;
"#;

/// One module: a function over sequences with its definition axiom, a lemma procedure whose
/// body builds sequences, reads the heap and sets the frame to a polymorphic lambda.
fn module(out: &mut String, i: usize) {
    let _ = write!(
        out,
        r#"
function Sum{i}(s: Seq int) : int;
axiom (forall s: Seq int :: {{ Sum{i}(s) }} Seq#Length(s) == 0 ==> Sum{i}(s) == 0);
axiom (forall s: Seq int, v: int :: {{ Sum{i}(Seq#Build(s, v)) }} Sum{i}(Seq#Build(s, v)) == Sum{i}(s) + v);
function Flags{i}(s: Seq bool, n: int) : bool {{ 0 <= n && n < Seq#Length(s) ==> Seq#Index(s, n) }}
const unique field{i}: Field int;

procedure Lemma{i}(xs: Seq int, b: Seq bool, o: ref) returns (r: int)
  requires $IsGoodHeap($Heap);
  requires o != null && read($Heap, o, alloc);
  ensures r == Sum{i}(xs) + {i};
  modifies $Heap;
{{
  var $_Frame: <beta>[ref, Field beta]bool;
  var ys: Seq int;
  var k: int;
  $_Frame := (lambda<alpha> $o: ref, $f: Field alpha :: $o != null && read($Heap, $o, alloc) ==> false);
  ys := Seq#Build(xs, {i});
  k := read($Heap, o, field{i});
  assert Seq#Length(ys) == Seq#Length(xs) + 1;
  assume $Is(k, TInt) && $IsBox($Box(k), TInt);
  if (Flags{i}(b, k)) {{
    r := Sum{i}(ys);
  }} else {{
    r := Sum{i}(xs) + {i};
  }}
  $Heap := $Heap[o := $Heap[o][field{i} := k + 1]];
}}
"#
    );
}

fn generate(modules: usize) -> String {
    let mut text = String::from(PRELUDE);
    for i in 0..modules {
        module(&mut text, i);
    }
    text
}

/// The best of `runs` wall times of `rboogie ARGS FILE`; `None` if it fails.
fn best_of(binary: &str, args: &[&str], file: &str, runs: usize) -> Option<Duration> {
    let mut best: Option<Duration> = None;
    for _ in 0..runs {
        let started = Instant::now();
        let output = Command::new(binary).args(args).arg(file).output().ok()?;
        let took = started.elapsed();
        if !output.status.success() {
            eprintln!("{}", String::from_utf8_lossy(&output.stdout));
            return None;
        }
        best = Some(best.map_or(took, |b| b.min(took)));
    }
    best
}

fn main() {
    let Some((binary, dir)) = process::setup("passes") else { return };
    println!("passes: /noVerify (every pass) against /noResolve (parsing alone), best of 5, whole process");
    println!("targets: >= 25 MB/s, noVerify/noResolve <= 3, linear growth");
    println!(
        "{:>6} {:>9} {:>12} {:>12} {:>9} {:>7} {:>7}",
        "scale", "MB", "noVerify s", "noResolve s", "MB/s", "ratio", "growth"
    );
    let mut previous: Option<Duration> = None;
    for scale in [1, 2, 4, 8] {
        let text = generate(BASE_MODULES * scale);
        let path = dir.join(format!("dafny-like-{scale}.bpl"));
        std::fs::write(&path, &text).expect("writable temporary file");
        let file = path.to_string_lossy();
        let (Some(full), Some(parse)) =
            (best_of(binary, &["/noVerify"], &file, 5), best_of(binary, &["/noResolve"], &file, 5))
        else {
            println!("{scale:>6}: rboogie failed on the generated program");
            return;
        };
        let mb = text.len() as f64 / 1e6;
        let growth = previous.map_or(String::from("-"), |p| format!("{:.2}", full.as_secs_f64() / p.as_secs_f64()));
        println!(
            "{:>6} {:>9.2} {:>12.3} {:>12.3} {:>9.1} {:>7.2} {:>7}",
            format!("{scale}x"),
            mb,
            full.as_secs_f64(),
            parse.as_secs_f64(),
            mb / full.as_secs_f64(),
            full.as_secs_f64() / parse.as_secs_f64(),
            growth
        );
        previous = Some(full);
    }
    let _ = std::fs::remove_dir_all(&dir);
}
