//! Front-end figures: how fast rboogie lexes and parses, and how much memory parsing takes.
//!
//! `cargo bench --bench frontend` measures, for each input, best and median of several runs:
//! the lexer alone (`lexer::tokenize`, which also collects the tokens into a vector; the parser
//! lexes on demand instead), the `#if` preprocessing alone, and the whole front end
//! (`parser::parse`: preprocessing, lexing, the lalrpop grammar and its actions), so that the
//! grammar's share can be read off; the time to free the tree; the heap allocations one parse
//! makes; and memory: (peak RSS during the parse − RSS before it) / input size, the RSS the
//! finished tree keeps, and the peak heap size (bytes allocated and not freed, counted by the
//! global allocator: what the front end asks for, without the allocator's own overhead, which
//! weighs on the RSS figures of small inputs). Each memory figure comes from a fresh child
//! process (this binary run with `--memory`), whose peak RSS (`VmHWM` in /proc/self/status) is
//! reset after the input is loaded, so nothing else counts. The peak RSS is measured twice:
//! cold, as a one-off run sees it (the parser's code and tables, about 1.3 MB of the binary,
//! are read in during the parse and count, which weighs on small inputs), and warm, after a
//! small program was parsed first (what a long-running or library user sees: the memory that
//! grows with the input).
//!
//! The target is checked on the `rboogie` binary itself (`target/release/rboogie`, when built):
//! the peak RSS of `rboogie /noResolve FILE` minus that of the same run on FILE blanked to
//! spaces, over the input size, i.e. what a user's one-off run needs for parsing beyond
//! reading the input, with the binary's own code (built with `panic = "abort"`, which Cargo
//! does not apply to benches).
//!
//! Inputs: generated programs of 5 and 20 MB, typical of what SMACK and Dafny emit (global
//! maps, many procedures with locals, assignments, map updates, gotos or structured loops with
//! invariants, quantified axioms with triggers), and, when `BOOGIE_TESTS` names a checkout of
//! Boogie's `Test/` directory, its five largest `.bpl` files. Targets, printed beside the
//! figures: lex+parse at least 30 MB/s, peak memory under 10 times the input.
//!
//! `cargo bench --bench frontend -- --quick` runs fewer repetitions on smaller inputs;
//! `--profile generated:5000000 [RUNS]` (or `file:PATH`) only parses, for a profiler.

use std::alloc::{GlobalAlloc, Layout};

use rboogie::alloc::Allocator;
use std::hint::black_box;
use std::path::{Path, PathBuf};
use std::sync::atomic::{AtomicU64, Ordering};
use std::time::{Duration, Instant};

#[path = "common/generated.rs"]
mod generated;

use rboogie::ast::FileId;
use rboogie::parser::{self, lexer, preprocess};
use rboogie::source::SourceMap;

/// The binary's allocator (mimalloc), counting the allocations made and the bytes live, so
/// that allocations per token and the peak heap size are known exactly, whatever the
/// allocator keeps in RSS.
struct CountingAllocator;

static ALLOCATIONS: AtomicU64 = AtomicU64::new(0);
static LIVE_BYTES: AtomicU64 = AtomicU64::new(0);
static PEAK_LIVE_BYTES: AtomicU64 = AtomicU64::new(0);

fn grew(bytes: usize) {
    let live = LIVE_BYTES.fetch_add(bytes as u64, Ordering::Relaxed) + bytes as u64;
    PEAK_LIVE_BYTES.fetch_max(live, Ordering::Relaxed);
}

unsafe impl GlobalAlloc for CountingAllocator {
    unsafe fn alloc(&self, layout: Layout) -> *mut u8 {
        ALLOCATIONS.fetch_add(1, Ordering::Relaxed);
        grew(layout.size());
        unsafe { Allocator.alloc(layout) }
    }
    unsafe fn dealloc(&self, ptr: *mut u8, layout: Layout) {
        LIVE_BYTES.fetch_sub(layout.size() as u64, Ordering::Relaxed);
        unsafe { Allocator.dealloc(ptr, layout) }
    }
    unsafe fn realloc(&self, ptr: *mut u8, layout: Layout, new_size: usize) -> *mut u8 {
        ALLOCATIONS.fetch_add(1, Ordering::Relaxed);
        LIVE_BYTES.fetch_sub(layout.size() as u64, Ordering::Relaxed);
        grew(new_size);
        unsafe { Allocator.realloc(ptr, layout, new_size) }
    }
}

#[global_allocator]
static GLOBAL: CountingAllocator = CountingAllocator;

const TARGET_MB_PER_S: f64 = 30.0;
const TARGET_MEMORY_RATIO: f64 = 10.0;

// ---------------------------------------------------------------------------------------------
// Inputs

#[derive(Clone)]
enum Source {
    /// A generated program of about this many bytes.
    Generated(usize),
    File(PathBuf),
}

impl Source {
    fn name(&self) -> String {
        match self {
            Source::Generated(n) => format!("generated {} MB", n / 1_000_000),
            Source::File(p) => {
                let parent = p.parent().and_then(Path::file_name).map(|s| s.to_string_lossy()).unwrap_or_default();
                let file = p.file_name().map(|s| s.to_string_lossy()).unwrap_or_default();
                format!("{parent}/{file}")
            }
        }
    }

    /// The form passed to a child process.
    fn to_arg(&self) -> String {
        match self {
            Source::Generated(n) => format!("generated:{n}"),
            Source::File(p) => format!("file:{}", p.display()),
        }
    }

    fn from_arg(arg: &str) -> Source {
        match arg.split_once(':') {
            Some(("generated", n)) => Source::Generated(n.parse().expect("a size")),
            Some(("file", p)) => Source::File(PathBuf::from(p)),
            _ => panic!("unknown source {arg}"),
        }
    }

    fn text(&self) -> String {
        match self {
            Source::Generated(n) => generated::generate(*n),
            Source::File(p) => std::fs::read_to_string(p).unwrap_or_else(|e| panic!("{}: {e}", p.display())),
        }
    }
}

/// The `count` largest `.bpl` files under `dir`.
fn largest_bpl_files(dir: &Path, count: usize) -> Vec<PathBuf> {
    let mut files: Vec<(u64, PathBuf)> = walkdir::WalkDir::new(dir)
        .into_iter()
        .flatten()
        .filter(|e| e.file_type().is_file() && e.path().extension().is_some_and(|x| x == "bpl"))
        .map(|e| (e.metadata().map_or(0, |m| m.len()), e.into_path()))
        .collect();
    files.sort_by(|a, b| b.0.cmp(&a.0).then_with(|| a.1.cmp(&b.1)));
    files.into_iter().take(count).map(|(_, p)| p).collect()
}

// ---------------------------------------------------------------------------------------------
// Measuring

/// Best and median of `runs` timings of `f`, after one warm-up run.
fn timings(runs: usize, mut f: impl FnMut() -> Duration) -> (Duration, Duration) {
    f();
    let mut times: Vec<Duration> = (0..runs).map(|_| f()).collect();
    times.sort();
    (times[0], times[times.len() / 2])
}

fn mb_per_s(bytes: usize, time: Duration) -> f64 {
    bytes as f64 / 1e6 / time.as_secs_f64()
}

fn time_lex(text: &str) -> Duration {
    let start = Instant::now();
    let tokens = lexer::tokenize(text);
    let took = start.elapsed();
    black_box(tokens.len());
    took
}

fn time_preprocess(text: &str) -> Duration {
    let start = Instant::now();
    let pre = preprocess::preprocess(FileId(0), text, &[]);
    let took = start.elapsed();
    black_box(pre.text.len());
    took
}

/// Times `parser::parse` alone; building the source map before and dropping the tree after
/// are not counted (dropping is timed by [`time_drop`]).
fn time_parse(text: &str) -> Duration {
    let mut sources = SourceMap::new();
    let file = sources.add("bench.bpl", "bench.bpl", text.to_string());
    let start = Instant::now();
    let result = parser::parse(&mut sources, file, &[]);
    let took = start.elapsed();
    black_box(result.is_ok());
    took
}

fn time_drop(text: &str) -> Duration {
    let mut sources = SourceMap::new();
    let file = sources.add("bench.bpl", "bench.bpl", text.to_string());
    let result = parser::parse(&mut sources, file, &[]);
    let start = Instant::now();
    drop(result);
    start.elapsed()
}

/// A field of /proc/self/status, in bytes.
fn status_bytes(field: &str) -> Option<u64> {
    let status = std::fs::read_to_string("/proc/self/status").ok()?;
    let line = status.lines().find(|l| l.starts_with(field))?;
    let kib: u64 = line.split_whitespace().nth(1)?.parse().ok()?;
    Some(kib * 1024)
}

/// Resets the peak RSS (`VmHWM`) to the current RSS (Linux's `clear_refs` command 5).
fn reset_peak_rss() -> bool {
    std::fs::write("/proc/self/clear_refs", "5").is_ok()
}

/// In a child process: loads the input, resets the peak RSS and the peak heap size, parses,
/// and prints, each over the input size: the peak RSS, the RSS with the tree alive and the
/// peak heap size (all relative to before the parse); then whether the peak RSS could be reset.
fn memory_child(source: &Source, warm: bool) {
    let text = source.text();
    let len = text.len() as f64;
    if warm {
        // Parse a small program first, so that the parser's code and tables (about 1.3 MB of
        // the binary, read in on first use) are resident before the measured parse: what is
        // left is the memory that grows with the input.
        let mut sources = SourceMap::new();
        let file = sources.add("warm.bpl", "warm.bpl", generated::generate(8_000));
        black_box(parser::parse(&mut sources, file, &[]).is_ok());
    }
    let mut sources = SourceMap::new();
    // The copy the source map keeps is made now, so that it is not counted.
    let file = sources.add("bench.bpl", "bench.bpl", text.clone());
    let reset = reset_peak_rss();
    let rss_before = status_bytes("VmRSS:").expect("VmRSS");
    let file_before = status_bytes("RssFile:").unwrap_or(0);
    let heap_before = LIVE_BYTES.load(Ordering::Relaxed);
    PEAK_LIVE_BYTES.store(heap_before, Ordering::Relaxed);
    let result = parser::parse(&mut sources, file, &[]);
    let rss_after = status_bytes("VmRSS:").expect("VmRSS");
    let file_after = status_bytes("RssFile:").unwrap_or(0);
    let heap_after = LIVE_BYTES.load(Ordering::Relaxed);
    let rss_peak = status_bytes("VmHWM:").expect("VmHWM");
    let heap_peak = PEAK_LIVE_BYTES.load(Ordering::Relaxed);
    black_box(result.is_ok());
    let ratio = |bytes: u64, base: u64| bytes.saturating_sub(base) as f64 / len;
    println!(
        "{} {} {} {reset}",
        ratio(rss_peak, rss_before),
        ratio(rss_after, rss_before),
        ratio(heap_peak, heap_before)
    );
    eprintln!("file-backed {:.2} heap-after {:.2}", ratio(file_after, file_before), ratio(heap_after, heap_before));
}

struct Memory {
    /// Peak RSS while parsing, over the input size.
    peak: f64,
    /// The same with the parser's code already resident (after parsing a small program).
    warm_peak: f64,
    /// RSS with the tree still alive, over the input size.
    retained: f64,
    /// Peak bytes allocated and not yet freed while parsing, over the input size: what the
    /// front end asks for, without the allocator's own overhead.
    heap_peak: f64,
    /// Whether the peak RSS could be reset after loading the input.
    exact: bool,
    /// The `rboogie` binary's own figure (see [`binary_memory`]), when it is built.
    binary: Option<f64>,
}

/// The memory parsing `source` takes, measured in a fresh process.
fn memory(source: &Source) -> Option<Memory> {
    let ([peak, retained, heap_peak], cold_exact) = memory_run("--memory", source)?;
    let ([warm_peak, _, _], warm_exact) = memory_run("--memory-warm", source)?;
    let binary = binary_memory(source);
    Some(Memory { peak, warm_peak, retained, heap_peak, exact: cold_exact && warm_exact, binary })
}

/// The release binary next to this bench (`target/release/rboogie`).
fn rboogie_binary() -> Option<PathBuf> {
    let exe = std::env::current_exe().ok()?;
    let path = exe.parent()?.parent()?.join(format!("rboogie{}", std::env::consts::EXE_SUFFIX));
    path.is_file().then_some(path)
}

/// What parsing takes in the `rboogie` binary itself, as a user's one-off run sees it: the
/// peak RSS of `rboogie /noResolve FILE` minus that of `rboogie /noResolve BLANK`, where
/// BLANK is FILE with every character but the line breaks made a space (the same input to
/// read and index, nothing to parse), over the input size. This counts everything the parse
/// brings in: the tree, the interner, the allocator's overhead and the parser's code and
/// tables read in from the binary (which is built with `panic = "abort"`, as this bench
/// cannot be: Cargo builds benches with unwinding, so the code they page in is larger).
/// Each run is measured by a child process of this bench (`--exec-rss`), which is small, so
/// that the peak is rboogie's own.
fn binary_memory(source: &Source) -> Option<f64> {
    let binary = rboogie_binary()?;
    let dir = std::env::temp_dir().join(format!("rboogie-frontend-bench-{}", std::process::id()));
    std::fs::create_dir_all(&dir).ok()?;
    let text = source.text();
    let blank: String = text.chars().map(|c| if c == '\n' || c == '\r' { c } else { ' ' }).collect();
    let file = dir.join("input.bpl");
    let blank_file = dir.join("blank.bpl");
    std::fs::write(&file, &text).ok()?;
    std::fs::write(&blank_file, &blank).ok()?;
    // The least of five runs each: other processes can only add.
    let peak = |path: &Path| (0..5).filter_map(|_| exec_rss(&binary, path)).min();
    let result = match (peak(&file), peak(&blank_file)) {
        (Some(full), Some(empty)) => Some(full.saturating_sub(empty) as f64 / text.len() as f64),
        _ => None,
    };
    let _ = std::fs::remove_dir_all(&dir);
    result
}

/// The peak RSS in bytes of `binary /noResolve path`, measured by a child process of this
/// bench.
fn exec_rss(binary: &Path, path: &Path) -> Option<u64> {
    let exe = std::env::current_exe().ok()?;
    let output = std::process::Command::new(exe).arg("--exec-rss").arg(binary).arg(path).output().ok()?;
    String::from_utf8_lossy(&output.stdout).trim().parse().ok()
}

/// In a child process: runs `binary /noResolve path` and prints its peak RSS in bytes
/// (`ru_maxrss` from `wait4`).
fn exec_rss_child(binary: &str, path: &str) {
    let child = std::process::Command::new(binary)
        .args(["/noResolve", path])
        .stdout(std::process::Stdio::null())
        .stderr(std::process::Stdio::null())
        .spawn()
        .expect("run rboogie");
    let mut status = 0;
    // SAFETY: `rusage` is plain data that `wait4` fills in.
    let mut usage: libc::rusage = unsafe { std::mem::zeroed() };
    // SAFETY: waits for our own child, with valid pointers to the status and the usage.
    let waited = unsafe { libc::wait4(child.id() as libc::pid_t, &mut status, 0, &mut usage) };
    if waited > 0 && libc::WIFEXITED(status) {
        println!("{}", usage.ru_maxrss as u64 * 1024);
    }
}

/// One child process's figures (peak RSS, RSS with the tree, peak heap; over the input size)
/// and whether it could reset its peak RSS.
fn memory_run(mode: &str, source: &Source) -> Option<([f64; 3], bool)> {
    let exe = std::env::current_exe().ok()?;
    let output = std::process::Command::new(exe).args([mode, &source.to_arg()]).output().ok()?;
    if !output.status.success() {
        eprintln!("memory child failed: {}", String::from_utf8_lossy(&output.stderr));
        return None;
    }
    let stdout = String::from_utf8_lossy(&output.stdout);
    let fields: Vec<&str> = stdout.split_whitespace().collect();
    let [peak, retained, heap_peak, exact] = fields[..] else { return None };
    Some(([peak.parse().ok()?, retained.parse().ok()?, heap_peak.parse().ok()?], exact == "true"))
}

struct Row {
    name: String,
    bytes: usize,
    ok: bool,
    tokens: usize,
    /// Allocations (and reallocations) made by one parse.
    allocations: u64,
    lex: (Duration, Duration),
    preprocess: (Duration, Duration),
    parse: (Duration, Duration),
    drop: Duration,
    memory: Option<Memory>,
}

fn measure(source: &Source, quick: bool) -> Row {
    let text = source.text();
    let bytes = text.len();
    let runs = if quick {
        3
    } else if bytes > 10_000_000 {
        5
    } else {
        10
    };
    let mut sources = SourceMap::new();
    let file = sources.add("bench.bpl", "bench.bpl", text.clone());
    let allocations_before = ALLOCATIONS.load(Ordering::Relaxed);
    let ok = parser::parse(&mut sources, file, &[]).is_ok();
    let allocations = ALLOCATIONS.load(Ordering::Relaxed) - allocations_before;
    let tokens = lexer::tokenize(&text).len();
    Row {
        name: source.name(),
        bytes,
        ok,
        tokens,
        allocations,
        lex: timings(runs, || time_lex(&text)),
        preprocess: timings(runs, || time_preprocess(&text)),
        parse: timings(runs, || time_parse(&text)),
        drop: timings(runs, || time_drop(&text)).1,
        memory: memory(source),
    }
}

fn print_header(width: usize) {
    println!(
        "{:<width$} {:>6} {:>8} {:>15} {:>15} {:>6} {:>7} {:>7} {:>6} {:>6} {:>36}",
        "input",
        "MB",
        "tokens",
        "lex MB/s",
        "lex+parse MB/s",
        "parse",
        "preproc",
        "rest",
        "drop",
        "allocs",
        "memory / input"
    );
    println!(
        "{:<width$} {:>6} {:>8} {:>15} {:>15} {:>6} {:>7} {:>7} {:>6} {:>6} {:>36}",
        "",
        "",
        "",
        "best / median",
        "best / median",
        "ns/tok",
        "% parse",
        "% parse",
        "ms",
        "/token",
        "rboogie | bench: cold, warm, tree; heap"
    );
}

fn print_row(row: &Row, width: usize) {
    let mb = |d: Duration| mb_per_s(row.bytes, d);
    let share = |d: Duration| 100.0 * d.as_secs_f64() / row.parse.1.as_secs_f64();
    // The rest: the parse minus its preprocessing and lexing (medians), i.e. the grammar, its
    // actions and building the tree; a little more than that, as `tokenize` also collects.
    let rest = row.parse.1.saturating_sub(row.preprocess.1).saturating_sub(row.lex.1);
    let mark = |m: &Memory| if m.exact { "" } else { "?" };
    let memory = row.memory.as_ref().map_or("-".into(), |m| {
        let binary = m.binary.map_or("-".into(), |b| format!("{b:.1}x"));
        format!("{binary} | {:.1}x{}, {:.1}x, {:.1}x; {:.1}x", m.peak, mark(m), m.warm_peak, m.retained, m.heap_peak)
    });
    println!(
        "{:<width$} {:>6.2} {:>8} {:>7.1} / {:<5.1} {:>7.1} / {:<5.1} {:>6.0} {:>6.0}% {:>6.0}% {:>6.1} {:>6.2} {:>36}{}",
        row.name,
        row.bytes as f64 / 1e6,
        row.tokens,
        mb(row.lex.0),
        mb(row.lex.1),
        mb(row.parse.0),
        mb(row.parse.1),
        row.parse.1.as_secs_f64() * 1e9 / row.tokens.max(1) as f64,
        share(row.preprocess.1),
        share(rest),
        row.drop.as_secs_f64() * 1e3,
        row.allocations as f64 / row.tokens.max(1) as f64,
        memory,
        if row.ok { "" } else { "  (parse errors)" }
    );
}

/// The sizes that make the token vector and the parser's symbol stack big.
fn print_sizes() {
    use rboogie::ast::*;
    use std::mem::size_of;
    println!(
        "sizes in bytes: token {} (Tok {}), Ident {}, Expr {}, Type {}, Cmd {}, IfCmd {}, WhileCmd {}, \
         ProcedureDecl {}, ImplementationDecl {}, FunctionDecl {}, YieldProcedureDecl {}, ActionDecl {}, Decl {}",
        size_of::<lexer::Spanned>(),
        size_of::<lexer::Tok>(),
        size_of::<Ident>(),
        size_of::<Expr>(),
        size_of::<Type>(),
        size_of::<Cmd>(),
        size_of::<IfCmd>(),
        size_of::<WhileCmd>(),
        size_of::<ProcedureDecl>(),
        size_of::<ImplementationDecl>(),
        size_of::<FunctionDecl>(),
        size_of::<YieldProcedureDecl>(),
        size_of::<ActionDecl>(),
        size_of::<Decl>(),
    );
}

fn main() {
    let args: Vec<String> = std::env::args().skip(1).collect();
    if let Some(i) = args.iter().position(|a| a == "--memory" || a == "--memory-warm") {
        memory_child(&Source::from_arg(args.get(i + 1).expect("--memory SOURCE")), args[i] == "--memory-warm");
        return;
    }
    if let Some(i) = args.iter().position(|a| a == "--exec-rss") {
        exec_rss_child(&args[i + 1], &args[i + 2]);
        return;
    }
    if let Some(i) = args.iter().position(|a| a == "--profile") {
        let source = Source::from_arg(args.get(i + 1).expect("--profile SOURCE [RUNS]"));
        let runs: usize = args.get(i + 2).and_then(|n| n.parse().ok()).unwrap_or(5);
        let text = source.text();
        for _ in 0..runs {
            black_box(time_parse(&text));
        }
        return;
    }
    // `cargo bench` passes `--bench`; a filter argument, as for other benches, is ignored.
    let quick = args.iter().any(|a| a == "--quick");

    let mut sources = if quick {
        vec![Source::Generated(1_000_000), Source::Generated(5_000_000)]
    } else {
        vec![Source::Generated(5_000_000), Source::Generated(20_000_000)]
    };
    match std::env::var("BOOGIE_TESTS") {
        Ok(dir) => sources.extend(largest_bpl_files(Path::new(&dir), 5).into_iter().map(Source::File)),
        Err(_) => {
            println!("(set BOOGIE_TESTS to a checkout of Boogie's Test/ directory to measure its largest files too)")
        }
    }

    println!("rboogie front end: lexing alone, and lex+parse (`parser::parse`: preprocessing, lexing, grammar)");
    println!(
        "targets: lex+parse >= {TARGET_MB_PER_S} MB/s; peak memory of a one-off rboogie run (below) < {TARGET_MEMORY_RATIO}x the input"
    );
    println!(
        "preproc, rest: shares of the median parse time (rest = parse - preprocessing - lexing: grammar, actions, tree)"
    );
    println!("parse ns/tok: median parse time per token; drop: freeing the tree (median; not in the parse time);");
    println!("allocs: heap allocations one parse makes, per token");
    println!(
        "memory, rboogie: (peak RSS of `rboogie /noResolve FILE` - the same on FILE blanked to spaces) / input size:"
    );
    println!("  what a one-off run of the binary needs to parse, beyond reading the input (the target);");
    println!(
        "memory, bench: (peak RSS while parsing - RSS before) / size in this process, cold and warm (the parser's code"
    );
    println!("  already resident; this binary unwinds on panic, so its code is larger than rboogie's);");
    println!("  (RSS with the tree alive - RSS before) / size;");
    println!("  heap: peak bytes allocated and not freed while parsing / size (without the allocator's overhead)");
    print_sizes();
    println!();
    let width = sources.iter().map(|s| s.name().len()).max().unwrap_or(0).max(5);
    print_header(width);
    let mut rows = Vec::new();
    for source in &sources {
        let row = measure(source, quick);
        print_row(&row, width);
        rows.push(row);
    }
    println!();
    let slowest = rows.iter().map(|r| mb_per_s(r.bytes, r.parse.1)).fold(f64::INFINITY, f64::min);
    let hungriest_binary = rows.iter().filter_map(|r| r.memory.as_ref().and_then(|m| m.binary)).fold(0.0, f64::max);
    let hungriest = rows.iter().filter_map(|r| r.memory.as_ref().map(|m| m.peak)).fold(0.0, f64::max);
    let hungriest_warm = rows.iter().filter_map(|r| r.memory.as_ref().map(|m| m.warm_peak)).fold(0.0, f64::max);
    let verdict = |ok: bool| if ok { "met" } else { "MISSED" };
    println!(
        "lex+parse, slowest median: {slowest:.1} MB/s (target >= {TARGET_MB_PER_S}): {}",
        verdict(slowest >= TARGET_MB_PER_S)
    );
    if rboogie_binary().is_some() {
        println!(
            "peak memory, largest, rboogie binary: {hungriest_binary:.1}x the input (target < {TARGET_MEMORY_RATIO}x): {}",
            verdict(hungriest_binary < TARGET_MEMORY_RATIO)
        );
    } else {
        println!("peak memory of the rboogie binary: not measured (build it first: cargo build --release)");
    }
    println!(
        "peak memory, largest, in this bench's process (diagnostic; its code unwinds, so is larger): \
         {hungriest:.1}x the input cold, {hungriest_warm:.1}x warm"
    );
    if rows.iter().any(|r| r.memory.as_ref().is_some_and(|m| !m.exact)) {
        println!("(?: the peak RSS could not be reset in the child, so the figure may include loading the input)");
    }
}
