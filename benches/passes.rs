//! The passes' cost: `/noVerify` (parse, resolve, type check, every pass) against
//! `/noResolve` (parse alone) on generated Dafny-like programs, whole process.
//!
//! `cargo build --release && cargo bench --bench passes` generates programs of the shape Dafny
//! emits, in the proportions of `Test/dafny/Seq.bpl` (about 6 KB of text per lambda and five
//! quantifiers per lambda there): a prelude of polymorphic functions and axioms (boxing,
//! sequences, a polymorphic heap) and fuel constants, then modules of functions with
//! definition and `$Is` axioms, procedures with `where` clauses and contracts, and their
//! implementations, whose bodies assume the fuel constants, assign the frame a polymorphic
//! lambda, build sequences and read and write the heap, so that lambda lifting and
//! monomorphization have work at every size. Sizes are 1x, 2x, 4x and 8x a base of
//! [`BASE_MODULES`] modules, 1x being about the size of `Seq.bpl` (1.3 MB). For each, the
//! best of 5 runs of `target/release/rboogie /noVerify` and of `/noResolve` on the same file:
//! MB/s of the former, the ratio of the two, and the growth from one size to the next.
//! Targets (issue 15): at least 25 MB/s, at most 3 times the time of parsing alone, time
//! growing linearly.
//!
//! Then, per input, where the time goes, read off `--trace-passes`: the first type check, the passes'
//! own time, their re-checks, and the rest (parsing, start-up, exit).
//!
//! `-- --file PATH` measures PATH as well (`Test/dafny/Seq.bpl` itself, say); `-- --keep`
//! keeps the generated programs (for a profiler) and says where.

#[path = "common/process.rs"]
mod process;

use std::fmt::Write;
use std::process::Command;
use std::time::{Duration, Instant};

/// The modules of the 1x program: about 5.6 KB each.
const BASE_MODULES: usize = 235;

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

/// How many fuel constants the prelude declares (Dafny declares two per function of the
/// module being verified, and assumes each at the start of every implementation).
const FUELS: usize = 20;

/// The prelude's fuel constants and their function.
fn fuel_prelude(out: &mut String) {
    out.push_str("type LayerType;\nfunction AsFuelBottom(LayerType) : LayerType;\n");
    for j in 0..FUELS {
        let _ = writeln!(out, "const StartFuel_F{j}: LayerType;\nconst StartFuelAssert_F{j}: LayerType;");
    }
}

/// One module, in the proportions of `Test/dafny/Seq.bpl` (about 6 KB per lambda, five
/// quantifiers per lambda): a function over sequences with its definition axioms, `$Is`
/// axioms, a procedure with `where` clauses and a contract (Dafny's "call" form), and its
/// implementation, whose body assumes the fuel constants, sets the frame to a polymorphic
/// lambda, builds sequences, reads and writes the heap.
fn module(out: &mut String, i: usize) {
    let _ = write!(
        out,
        r#"
function Sum{i}(s: Seq int) : int;
function Sum{i}#canCall(s: Seq int) : bool;
axiom (forall s: Seq int :: {{ Sum{i}(s) }} Sum{i}#canCall(s) && Seq#Length(s) == 0 ==> Sum{i}(s) == 0);
axiom (forall s: Seq int, v: int :: {{ Sum{i}(Seq#Build(s, v)) }} Sum{i}#canCall(Seq#Build(s, v)) ==> Sum{i}(Seq#Build(s, v)) == Sum{i}(s) + v);
axiom (forall s: Seq int :: {{ $Is(Sum{i}(s), TInt) }} $Is(Sum{i}(s), TInt) && $IsBox($Box(Sum{i}(s)), TInt));
function Flags{i}(s: Seq bool, n: int) : bool {{ 0 <= n && n < Seq#Length(s) ==> Seq#Index(s, n) }}
const unique field{i}: Field int;

procedure CheckWellFormed$$Lemma{i}(xs: Seq int where Seq#Length(xs) >= 0 && $Is(xs, TInt), b: Seq bool, o: ref where o != null)
    returns (r: int where $Is(r, TInt));
  free requires $IsGoodHeap($Heap) && Sum{i}#canCall(xs);
  requires o != null && read($Heap, o, alloc);
  modifies $Heap;

procedure Call$$Lemma{i}(xs: Seq int where Seq#Length(xs) >= 0 && $Is(xs, TInt), b: Seq bool, o: ref where o != null)
    returns (r: int where $Is(r, TInt));
  // user-defined preconditions
  requires $IsGoodHeap($Heap);
  requires o != null && read($Heap, o, alloc);
  modifies $Heap;
  // user-defined postconditions
  free ensures Sum{i}#canCall(xs);
  ensures r == Sum{i}(xs) + {i};
  // frame condition
  free ensures (forall<alpha> $o: ref, $f: Field alpha :: {{ read($Heap, $o, $f) }}
    $o != null && read(old($Heap), $o, alloc) && $o != o ==> read($Heap, $o, $f) == read(old($Heap), $o, $f));

implementation Call$$Lemma{i}(xs: Seq int, b: Seq bool, o: ref) returns (r: int)
{{
  var $_Frame: <beta>[ref, Field beta]bool;
  var ys: Seq int;
  var k: int;
  var ##s#0: Seq int;

    // initialize fuel constants
"#
    );
    for j in 0..FUELS {
        let _ = write!(
            out,
            "    assume AsFuelBottom(StartFuel_F{j}) == StartFuel_F{j};\n    assume AsFuelBottom(StartFuelAssert_F{j})\n       == StartFuelAssert_F{j};\n"
        );
    }
    let _ = write!(
        out,
        r#"    $_Frame := (lambda<alpha> $o: ref, $f: Field alpha :: $o != null && read($Heap, $o, alloc) ==> false);
    ys := Seq#Build(xs, {i});
    ##s#0 := ys;
    // assume allocatedness for argument to function
    assume $Is(##s#0, TInt) && Seq#Length(##s#0) == Seq#Length(xs) + 1;
    assume Sum{i}#canCall(ys) && Sum{i}#canCall(xs);
    k := read($Heap, o, field{i});
    assert {{:subsumption 0}} Seq#Length(ys) == Seq#Length(xs) + 1;
    assert {{:subsumption 0}} Seq#Index(ys, Seq#Length(xs)) == {i};
    assume $Is(k, TInt) && $IsBox($Box(k), TInt);
    if (Flags{i}(b, k)) {{
      assume Sum{i}#canCall(ys);
      r := Sum{i}(ys);
    }} else {{
      assume Sum{i}#canCall(xs);
      r := Sum{i}(xs) + {i};
    }}
    assert (forall n: int :: {{ Seq#Index(ys, n) }} 0 <= n && n < Seq#Length(xs) ==> Seq#Index(ys, n) == Seq#Index(ys, n));
    $Heap := $Heap[o := $Heap[o][field{i} := k + 1]];
    assume $IsGoodHeap($Heap);
}}
"#
    );
}

fn generate(modules: usize) -> String {
    let mut text = String::from(PRELUDE);
    fuel_prelude(&mut text);
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

/// One `/noVerify --trace-passes` run in seconds: the first type check, the passes (their re-checks
/// included), the re-checks alone, and the whole process ("other" in the table is parsing,
/// start-up and exit).
#[derive(Clone, Copy, Default)]
struct Stages {
    typecheck: f64,
    passes: f64,
    rechecks: f64,
    total: f64,
}

/// The run of `runs` with the least time in all, read off `--trace-passes`'s lines
/// (`[TRACE] resolution and type checking: 0.015 s`, `[TRACE] pass P: 0.010 s, changed the
/// program (checked again in 0.004 s)`).
fn stages(binary: &str, file: &str, runs: usize) -> Option<Stages> {
    let seconds = |text: &str| text.trim().trim_end_matches(" s").trim().parse::<f64>().ok();
    let mut best: Option<Stages> = None;
    for _ in 0..runs {
        let started = Instant::now();
        let output = Command::new(binary).args(["/noVerify", "--trace-passes", file]).output().ok()?;
        let total = started.elapsed().as_secs_f64();
        let text = String::from_utf8_lossy(&output.stdout);
        let mut s = Stages { total, ..Stages::default() };
        for line in text.lines() {
            if let Some(rest) = line.strip_prefix("[TRACE] resolution and type checking:") {
                s.typecheck += seconds(rest)?;
            } else if let Some(rest) = line.strip_prefix("[TRACE] pass ") {
                let after_name = rest.split_once(": ")?.1;
                let (took, what) = after_name.split_once(',')?;
                s.passes += seconds(took)?;
                if let Some(again) = what.split_once("checked again in ").map(|(_, a)| a.trim_end_matches(')')) {
                    s.rechecks += seconds(again)?;
                }
            }
        }
        if best.is_none_or(|b| s.total < b.total) {
            best = Some(s);
        }
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
    let args: Vec<String> = std::env::args().collect();
    let extra = args.iter().position(|a| a == "--file").and_then(|i| args.get(i + 1));
    let mut inputs: Vec<(String, String, bool)> = Vec::new();
    for scale in [1, 2, 4, 8] {
        let text = generate(BASE_MODULES * scale);
        let path = dir.join(format!("dafny-like-{scale}.bpl"));
        std::fs::write(&path, &text).expect("writable temporary file");
        inputs.push((format!("{scale}x"), path.to_string_lossy().into_owned(), true));
    }
    if let Some(file) = extra {
        let name = std::path::Path::new(file).file_name().map_or(file.clone(), |n| n.to_string_lossy().into_owned());
        inputs.push((name, file.clone(), false));
    }
    for (label, file, generated) in &inputs {
        let bytes = std::fs::metadata(file).map_or(0, |m| m.len());
        let (Some(full), Some(parse)) =
            (best_of(binary, &["/noVerify"], file, 5), best_of(binary, &["/noResolve"], file, 5))
        else {
            println!("{label:>6}: rboogie failed on {file}");
            return;
        };
        let mb = bytes as f64 / 1e6;
        let growth = match previous.filter(|_| *generated) {
            Some(p) => format!("{:.2}", full.as_secs_f64() / p.as_secs_f64()),
            None => String::from("-"),
        };
        println!(
            "{:>6} {:>9.2} {:>12.3} {:>12.3} {:>9.1} {:>7.2} {:>7}",
            label,
            mb,
            full.as_secs_f64(),
            parse.as_secs_f64(),
            mb / full.as_secs_f64(),
            full.as_secs_f64() / parse.as_secs_f64(),
            growth
        );
        previous = Some(full);
    }
    // Where the time goes: `--trace-passes`' stages, from the run with the fewest seconds in all.
    println!();
    println!("stages of /noVerify (from --trace-passes, ms; the run of 5 with the least in all):");
    println!("{:>10} {:>10} {:>10} {:>10} {:>10} {:>10}", "input", "typecheck", "passes", "rechecks", "other", "total");
    for (label, file, _) in &inputs {
        match stages(binary, file, 5) {
            Some(s) => println!(
                "{:>10} {:>10.1} {:>10.1} {:>10.1} {:>10.1} {:>10.1}",
                label,
                s.typecheck * 1e3,
                (s.passes - s.rechecks) * 1e3,
                s.rechecks * 1e3,
                (s.total - s.typecheck - s.passes) * 1e3,
                s.total * 1e3
            ),
            None => println!("{label:>10}: no --trace-passes figures"),
        }
    }
    // `-- --keep`: the generated programs stay, for profiling.
    if std::env::args().any(|a| a == "--keep") {
        println!("programs kept in {}", dir.display());
    } else {
        let _ = std::fs::remove_dir_all(&dir);
    }
}
