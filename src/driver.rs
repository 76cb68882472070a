//! The pipeline driver: from [`Options`] to what Boogie prints and its exit code.
//!
//! It follows Boogie 3.5's `OnlyBoogie.Main` (BoogieDriver.cs) and `ExecutionEngine`
//! (ProcessFiles, ParseBoogieProgram, ProcessProgram, ResolveAndTypecheck), including where
//! Boogie prints what:
//!
//! 1. `/version`, then `/help`: print and exit 0.
//! 2. No input file: `*** Error: No input files were specified.` on stdout, exit 1.
//! 3. A `.txt` input is a list of file names; every resulting name must end in `.bpl` (any
//!    case), else `*** Error: 'F': Filename extension '.x' is not supported. Input files must
//!    be BoogiePL programs (.bpl).` on stdout, exit 1.
//! 4. `/env:2` echoes the command line on stdout.
//! 5. Each file is read and parsed with `FILE_<i>` defined for its `#if`s (i counts from 0).
//!    A file that cannot be read gets `Error opening file "F": MSG`; one with parse errors
//!    gets its errors and `N parse errors detected in F`. Either way the other files are still
//!    parsed, and then the run ends with exit code 0: Boogie reports success whenever it
//!    reported the problem itself. Then the libraries ([`crate::library`]) are parsed as
//!    further files; an unknown one gets `Error locating library: ...` and ends the run so.
//! 6. `/print:F` prints the concatenated program (before resolution, as Boogie does).
//! 7. `/noResolve` ends here, printing nothing more; `/noTypecheck` after resolution.
//! 8. Resolution, then (unless `/noTypecheck`) type checking: a phase with errors prints them
//!    and `N name resolution errors detected in F` / `N type checking errors detected in F`,
//!    `F` being the last input file, and the run ends (exit 0, no trailer).
//! 9. Verification ([`crate::vcgen`]): each implementation's errors as Boogie prints them,
//!    in program order also under `/vcsCores:N` (N implementations checked at once), then
//!    Boogie's trailer. An implementation rboogie cannot encode gets a line saying so and
//!    counts as inconclusive; a program it cannot encode at all gets that line and exit code 2,
//!    without a trailer. Under `/noVerify`, Boogie's closing line with nothing verified.
//!
//! Under `/trace` (Boogie's `Verbosity.Trace`) the run also reports its progress on stdout,
//! as Boogie does: `Parsing F` before each file, one `[TRACE]` line with the time of
//! resolution and type checking and of each pass (`crate::passes`), `[TRACE] Using prover: P`
//! before verification, and per implementation Boogie's `Verifying P ...` and
//! `  [T s]  verified` (or `error`, `errors`, `timed out`, ...) before its error reports. T is
//! the time since the previous implementation's report, which is that implementation's own
//! time under `/vcsCores:1`. Without `/trace` none of these lines is printed.
//!
//! Everything goes to stdout through one [`Reporter`] (`crate::report`), in the format
//! chosen: Boogie's text, rich, or JSON lines. An implementation's result is decided by
//! `crate::verdict`, which prints nothing, and rendered by the reporter. Under `--format json`
//! every line is one JSON event, `/trace` lines included (as `trace` events), and printed
//! programs become `output` events. `--shard I/N` checks only that shard's implementations
//! (`crate::shard`); `rboogie merge` (`Options::merge`) rebuilds the whole run's output from
//! the shards' JSON.
//!
//! Exit codes are Boogie's: 1 for a command line or input list it cannot use, 0 otherwise
//! (also after parse, resolution, type or verification errors); 1 if stdout fails.

use crate::ast::Program;
use crate::cli::{Options, ShowEnv, help_text, version_text};
use crate::diagnostics::{Diagnostic, Phase, Severity};
use crate::report::{Closing, Counts, Format, Reporter};
use crate::source::SourceMap;
use crate::typeck::Outcome;
use std::io::{self, Read, Write};
use std::path::Path;

/// Runs rboogie as configured, writing what Boogie writes to stdout to `out` and rboogie's own
/// notes to `err`. Returns the process exit code.
pub fn run(options: &Options, out: &mut dyn Write, err: &mut dyn Write) -> i32 {
    let done = if options.merge {
        crate::shard::merge_files(&options.files, out, err)
    } else if let Err(message) = start_model_file(options) {
        let _ = writeln!(err, "rboogie: error: {message}");
        Ok(1)
    } else {
        drive(options, out)
    };
    match done {
        Ok(code) => code,
        Err(e) => {
            let _ = writeln!(err, "rboogie: error: cannot write output: {e}");
            1
        }
    }
}

fn drive(options: &Options, out: &mut dyn Write) -> io::Result<i32> {
    // `/maxMemoryMB` (see `crate::memory`): VC generation and every solver are held to it.
    crate::memory::set_limit_mb(match options.max_memory_mb {
        0 => crate::memory::default_limit_mb(),
        mb => Some(u64::from(mb)),
    });
    let reporter =
        Reporter { silent: options.silent, ..Reporter::new(options.format.unwrap_or(Format::Boogie), options.color) };

    if options.version {
        reporter.output(out, &format!("{}\n", version_text()))?;
        return Ok(0);
    }
    if options.help {
        reporter.output(out, &format!("{}\n", help_text().trim_end()))?;
        return Ok(0);
    }
    if options.files.is_empty() {
        reporter.printer_line(out, "*** Error: No input files were specified.")?;
        return Ok(1);
    }
    // Each decides what the program is checked under (Houdini's assignment, the refinement
    // loop's abstraction): rboogie does not combine them.
    if options.contract_infer && options.field_abstraction {
        reporter.tool_message(out, "*** Error: /contractInfer cannot be combined with /fieldAbstraction")?;
        return Ok(1);
    }
    // Checks made one after another (the refinement loop's, and one implementation after
    // another under `/vcsCores:1`) take Z3 contexts made ahead of need on the other core: the
    // first while the program is read, each next one while the session before it checks
    // (40 implementations of a dozen branches each: 1.89 s to 1.65 s). Parallel checks
    // (`/vcsCores:N`) make their own: the cores are theirs. Under a memory limit the user set
    // (`/maxMemoryMB`), an idle context would count against the check's.
    // Not when nothing is checked (`/noResolve`, `/noTypecheck`, `/noVerify`).
    if (options.field_abstraction || (options.vcs_cores <= 1 && options.max_memory_mb == 0))
        && options.verify
        && !options.no_resolve
        && !options.no_typecheck
        && let Ok((crate::smt::SolverChoice::Z3InProcess, session_options)) = crate::smt::configure(options)
    {
        crate::smt::prewarm_z3_contexts(&session_options);
    }
    let files = match input_files(options) {
        Ok(files) => files,
        Err(message) => {
            reporter.tool_message(out, &message)?;
            return Ok(1);
        }
    };
    if options.show_env == ShowEnv::Always {
        let args: String = options.args.iter().map(|arg| format!("{arg}\n")).collect();
        reporter.output(out, &format!("---Command arguments\n{args}--------------------\n"))?;
    }
    // `/verifySeparately` (Boogie's `ProcessFiles`): each file is a program of its own, parsed,
    // checked and closed with its own line, one after another; the exit code is the highest
    // of theirs. Boogie's solvers, and so their `/proverLog` files, last the whole run: the
    // files after the first append to the log.
    if options.verify_separately && files.len() > 1 {
        let mut code = 0;
        for (i, file) in files.iter().enumerate() {
            let single = Options {
                files: vec![file.clone()],
                verify_separately: false,
                show_env: if options.show_env == ShowEnv::Always { ShowEnv::DuringPrint } else { options.show_env },
                prover_log_append: options.prover_log_append || i > 0,
                ..options.clone()
            };
            code = code.max(drive(&single, out)?);
        }
        return Ok(code);
    }

    let mut sources = SourceMap::new();
    let Some(mut program) = parse_files(options, &files, &mut sources, &reporter, out)? else {
        return Ok(0);
    };
    // Bounded mode: STORM's harness of threads, when the command line or attributes name them.
    let harness = options.bounded.active() && !options.no_resolve && {
        let request = crate::harness::Request {
            init: options.bounded.init.as_deref(),
            threads: &options.bounded.threads,
            main: options.bounded.main.is_some(),
        };
        match crate::harness::add(&mut program, &request) {
            Ok(added) => added,
            Err(invalid) => {
                let at = invalid.at.map(|span| crate::vcgen::trace::position(&sources, span));
                let at = at.map(|p| format!("{}({},{}): ", p.file, p.line, p.col)).unwrap_or_default();
                reporter.tool_message(out, &format!("{at}Error, Invalid input: {}", invalid.message))?;
                return Ok(1);
            }
        }
    };
    // Bounded mode sequentializes a concurrent program (one that spawns threads).
    let concurrent = options.bounded.active() && crate::bounded::first_async_call(&program).is_some();

    // Under `/printInlined` Boogie prints bodies as blocks, which takes a resolved program: the
    // printing waits for type checking (and prints the program as parsed if that fails).
    let print_later = options.print_inlined && !options.no_resolve;
    let parsed = print_later.then(|| program.clone());
    if let Some(target) = &options.print_file
        && !print_later
        && let Err(e) = print_program(options, &program, None, target, &mut sources, &reporter, out)
    {
        reporter.tool_message(out, &format!("*** Error: cannot write \"{target}\": {e}"))?;
        return Ok(1);
    }
    if options.no_resolve {
        return Ok(0);
    }

    // Boogie names the last input file in its error summaries (`fileNames[^1]`).
    let last_file = display_name(options, files.last().map_or("", String::as_str));
    // Boogie infers modifies clauses for a Civl program.
    // Corral computes modifies sets itself: bounded mode does not hold a program to its clauses.
    let infer_modifies =
        options.infer_modifies || options.bounded.active() || crate::library::needs_base(&program.decls);
    let typeck_options = crate::typeck::TypeckOptions {
        infer_modifies,
        threads: options.bounded.active(),
        trusted: false,
        pass_output: false,
    };
    let started = std::time::Instant::now();
    let outcome = crate::typeck::run(program, &typeck_options, options.no_typecheck);
    if options.trace_passes {
        let phase = if options.no_typecheck { "resolution" } else { "resolution and type checking" };
        reporter.trace(out, &format!("[TRACE] {phase}: {:.3} s\n", started.elapsed().as_secs_f64()))?;
    }
    if let Some(target) = &options.print_file
        && let Some(parsed) = parsed
    {
        let printed = match &outcome {
            Outcome::Typed(typed, _) => crate::passes::inline::as_parsed_blocks(typed),
            _ => parsed,
        };
        if let Err(e) = print_program(options, &printed, None, target, &mut sources, &reporter, out) {
            reporter.tool_message(out, &format!("*** Error: cannot write \"{target}\": {e}"))?;
            return Ok(1);
        }
    }
    // `/printDesugared`: the program again once it type-checks, as the type checker left it.
    if let Some(target) = &options.print_file
        && options.print_desugared
        && let Outcome::Typed(typed, _) = &outcome
    {
        let printed = if print_later { crate::passes::inline::as_parsed_blocks(typed) } else { typed.program.clone() };
        let types = Some(crate::emit::type_table(typed));
        if let Err(e) = print_program(options, &printed, types, target, &mut sources, &reporter, out) {
            reporter.tool_message(out, &format!("*** Error: cannot write \"{target}\": {e}"))?;
            return Ok(1);
        }
    }
    let typed = match outcome {
        Outcome::ResolutionFailed(diagnostics) => {
            report_phase(&reporter, out, &sources, &diagnostics, Phase::Resolve, &last_file)?;
            return Ok(0);
        }
        Outcome::TypecheckFailed { diagnostics, summary: true } => {
            report_phase(&reporter, out, &sources, &diagnostics, Phase::Typecheck, &last_file)?;
            return Ok(0);
        }
        Outcome::TypecheckFailed { diagnostics, summary: false } => {
            reporter.diagnostics(out, &sources, &diagnostics)?;
            return Ok(0);
        }
        Outcome::Typed(typed, warnings) => {
            reporter.diagnostics(out, &sources, &warnings)?;
            typed
        }
    };
    if options.no_typecheck {
        return Ok(0);
    }
    // Boogie's `MeasureChecker`, after type checking, before any transformation.
    let skip_inlined = matches!(options.inline, crate::cli::Inlining::Assume | crate::cli::Inlining::Assert);
    let measure_errors = crate::vcgen::measure::check(&typed, skip_inlined);
    if !measure_errors.is_empty() {
        report_phase(&reporter, out, &sources, &measure_errors, Phase::Typecheck, &last_file)?;
        return Ok(0);
    }
    // Boogie's trace of the phases after type checking (`CoalesceBlocks`, on unless turned
    // off with `/coalesceBlocks:0`; `Inline`); Corral's (bounded mode) has neither.
    if options.trace && !options.bounded.active() {
        let coalescing = if options.coalesce_blocks { "Coalescing blocks...\n" } else { "" };
        reporter.trace(out, &format!("{coalescing}Inlining...\n"))?;
    }
    // Bounded mode: the entry point, and whether the bound cuts anything it reaches.
    let bounded = if options.bounded.active() {
        let main = if harness { Some(crate::harness::ENTRY) } else { options.bounded.main.as_deref() };
        match crate::bounded::entry(&typed, main) {
            Ok(entry) => Some(BoundedRun {
                entry,
                cuts: crate::bounded::bound_cuts(&typed, entry, options.bounded.stack_depth_bound),
                concurrent,
                expect_bug: std::cell::Cell::new(false),
            }),
            Err(message) => {
                reporter.tool_message(out, &format!("Error, Invalid input: {message}"))?;
                return Ok(1);
            }
        }
    } else {
        None
    };
    let mut config = options.pipeline_config();
    config.entry = bounded.as_ref().map(|b| b.entry);
    if let Some(b) = bounded.as_ref()
        && concurrent
    {
        config.threads = Some(crate::passes::sequentialize::Sequentialize {
            entry: b.entry,
            rounds: options.bounded.rounds(),
            cooperative: options.bounded.cooperative,
            incremental: !options.bounded.fixed_k,
        });
    }
    // `/fieldAbstraction`: the refinement loop checks abstractions of the program (bounded
    // mode inlines eagerly: the abstraction works on the entry point with everything inlined).
    if options.field_abstraction && options.verify {
        return crate::refinement::run(options, &typed, config, &mut sources, &reporter, out, bounded.as_ref());
    }
    // Stratified inlining (`/stratified`): the passes before inlining run once; a search in
    // one solver session ([`crate::vcgen::stratified`]) finds the call sites a verdict needs;
    // the program with those sites inlined and the others blocked is then checked and
    // reported as eager inlining's is (a bug the search found is a bug of that program, and
    // "no bugs" holds for it as well). A search that gives up leaves eager inlining to decide.
    // Under `/contractInfer` bounded mode inlines eagerly: Houdini's assignment is computed on
    // the program the check verifies, which the search would choose under another assignment.
    if let Some(b) = bounded.as_ref()
        && !options.bounded.eager
        && !concurrent
        && !options.contract_infer
        && options.verify
    {
        let mut passes = crate::passes::pipeline(&config);
        let inlining = passes.iter().position(|p| p.name() == "inline").unwrap_or(passes.len());
        passes.truncate(inlining);
        let mut retired = Kept::new(Vec::new(), options.free_at_exit);
        let prepared =
            crate::passes::run(typed, &passes, &options.pass_observation(), &mut sources, &reporter, out, &mut retired);
        let prepared = match prepared {
            Ok(prepared) => Kept::new(prepared, options.free_at_exit),
            Err(failure) => return failure.report(&sources, &reporter, out),
        };
        let found = stratified_sites(options, &prepared, b.entry, &mut sources, &reporter, out)?;
        // The program with the sites the search chose inlined; should its check disagree with
        // a bug the search found, the program with every site inlined.
        let mut check = |sites: Option<rustc_hash::FxHashSet<String>>, bug: bool| -> io::Result<i32> {
            config.inline_sites = sites.map(std::sync::Arc::new);
            b.expect_bug.set(bug);
            let passes = crate::passes::pipeline(&config).split_off(inlining);
            let observe = options.pass_observation();
            let copy = Box::new((**prepared).clone());
            let checked = crate::passes::run(copy, &passes, &observe, &mut sources, &reporter, out, &mut retired);
            match checked {
                Ok(checked) => {
                    let checked = Kept::new(checked, options.free_at_exit);
                    verify(options, &checked, &sources, &reporter, out, bounded.as_ref())
                }
                Err(failure) => failure.report(&sources, &reporter, out),
            }
        };
        match found {
            // An over-approximation without a counterexample: nothing to show but the verdict
            // (unless `--print-after` asks for the program).
            Some((_, false)) if options.print_after.is_empty() => {
                return report_no_bugs(options, &prepared, &sources, &reporter, out, b);
            }
            Some((sites, bug)) => {
                let code = check(Some(sites), bug)?;
                if code != DISAGREES {
                    return Ok(code);
                }
            }
            None => {}
        }
        return check(None, false);
    }
    let mut passes = crate::passes::pipeline(&config);
    // `/contractInfer`: Houdini's call graph is the program's before Houdini's own inlining,
    // the last pass, which runs once Houdini has it.
    let houdini_passes = match passes.iter().position(|p| p.name() == "houdini-inline") {
        Some(at) if options.contract_infer && options.verify => passes.split_off(at),
        _ => Vec::new(),
    };
    let mut retired = Kept::new(Vec::new(), options.free_at_exit);
    let typed =
        crate::passes::run(typed, &passes, &options.pass_observation(), &mut sources, &reporter, out, &mut retired);
    let typed = match typed {
        Ok(typed) => Kept::new(typed, options.free_at_exit),
        Err(failure) => return failure.report(&sources, &reporter, out),
    };
    // Boogie's `/printInstrumented`: the program after the passes, bodies as blocks.
    if options.print_instrumented {
        let printed = crate::passes::inline::as_parsed_blocks(&typed);
        let printed = crate::passes::infer::with_boolean_equalities_resolved(&typed, &printed);
        let print_options = crate::printer::PrintOptions {
            pretty: options.pretty,
            emit: true,
            blocks: true,
            where_comments: false,
            types: Some(crate::emit::type_table(&typed)),
        };
        reporter.output(out, &crate::printer::print_program(&printed, &print_options))?;
    }
    if options.verify
        && options.contract_infer
        && let Some(b) = bounded.as_ref()
    {
        let typed = Kept::into_inner(typed);
        return verify_bounded_with_houdini(options, typed, config, b, &mut sources, &reporter, out, &mut retired);
    }
    if options.verify && options.contract_infer {
        return verify_with_houdini(options, &typed, &houdini_passes, &mut sources, &reporter, out, &mut retired);
    }
    if options.verify {
        return verify(options, &typed, &sources, &reporter, out, bounded.as_ref());
    }
    reporter.trailer(out, &closing(options, &sources, Counts::default(), 0))?;
    Ok(0)
}

/// A value the run built, freed when the run ends only if `free` says so. The binary does not
/// free the checked program and the passes' programs: dropping a tree of millions of nodes
/// costs tens of milliseconds (a fifth of `/noVerify`'s time on a 1 MB program), and the
/// process's exit returns the memory at once. A library caller frees everything.
struct Kept<T> {
    value: Option<T>,
    free: bool,
}

impl<T> Kept<T> {
    fn new(value: T, free: bool) -> Kept<T> {
        Kept { value: Some(value), free }
    }

    /// The value, for an owner that keeps it (or not) in turn.
    fn into_inner(mut kept: Kept<T>) -> T {
        kept.value.take().expect("present until dropped")
    }
}

impl<T> std::ops::Deref for Kept<T> {
    type Target = T;
    fn deref(&self) -> &T {
        self.value.as_ref().expect("present until dropped")
    }
}

impl<T> std::ops::DerefMut for Kept<T> {
    fn deref_mut(&mut self) -> &mut T {
        self.value.as_mut().expect("present until dropped")
    }
}

impl<T> Drop for Kept<T> {
    fn drop(&mut self) {
        if !self.free {
            std::mem::forget(self.value.take());
        }
    }
}

/// What the closing line reports, and the `finished` event's facts about the run.
fn closing(options: &Options, sources: &SourceMap, counts: Counts, implementations: usize) -> Closing {
    let texts = sources.files().map(|(_, f)| f.text.as_str());
    Closing {
        counts,
        quiet: options.quiet,
        verified_shown: options.print_verified_count,
        implementations,
        shard: options.shard,
        // Only the JSON trailer carries it (for `merge`); hashing the input costs a pass over it.
        program: if options.format == Some(Format::Json) {
            crate::shard::fingerprint(&options.args, texts)
        } else {
            String::new()
        },
    }
}

/// Bounded mode's "no bugs" verdict for the entry point of `typed`, printed as [`verify`]
/// prints it, when stratified inlining's search found no counterexample with every open call
/// site over-approximated (checking the program with the sites it inlined could add nothing:
/// it blocks the others).
fn report_no_bugs(
    options: &Options,
    typed: &crate::typeck::TypedProgram,
    sources: &SourceMap,
    reporter: &Reporter,
    out: &mut dyn Write,
    b: &BoundedRun,
) -> io::Result<i32> {
    use crate::verdict::{Outcome, Verdict};
    let symbols = typed.symbols();
    let Some(at) = symbols.implementations.iter().find(|i| i.name.name == b.entry).map(|i| i.name.span) else {
        return Ok(0);
    };
    let counts = Counts { verified: 1, ..Counts::default() };
    let verdict = Verdict {
        name: b.entry.to_string(),
        order: 0,
        at: crate::vcgen::trace::position(sources, at),
        outcome: Outcome::Verified,
        errors: Vec::new(),
        note: None,
        splits: String::new(),
        counts,
        coverage: None,
        proof_obligations: 0,
        resource_count: 0,
    };
    let bound = options.bounded.bound();
    if reporter.format == Format::Json {
        reporter.verdict(out, &verdict, None)?;
        out.write_all(crate::bounded::json(&verdict, bound, b.cuts, None).as_bytes())?;
        reporter.trailer(out, &closing(options, sources, counts, 1))?;
    } else {
        let values = reporter.format == Format::Rich || options.bounded.print_data_values >= 1;
        let calls = crate::bounded::CallTree::default();
        if let Some(text) = crate::bounded::render(&verdict, &calls, sources, bound, b.cuts, values, None) {
            reporter.output(out, &text)?;
        }
    }
    Ok(0)
}

/// Stratified inlining's search ([`crate::vcgen::stratified`]) on `prepared`, the program
/// before inlining: the call sites to inline and whether they show a bug, or `None` (inline
/// them all, eagerly) when the search gave no verdict; under `/trace`, its rounds and figures.
fn stratified_sites(
    options: &Options,
    prepared: &crate::typeck::TypedProgram,
    entry: crate::ast::Symbol,
    sources: &mut SourceMap,
    reporter: &Reporter,
    out: &mut dyn Write,
) -> io::Result<Option<(rustc_hash::FxHashSet<String>, bool)>> {
    use crate::vcgen::stratified::{self, Search};
    let bound = options.bounded.bound();
    let loops = options.loop_unroll.unwrap_or(bound);
    let unroll =
        [crate::passes::every_loop_bounded(loops, options.bounded.max_static_loop_bound, options.coalesce_blocks)];
    let mut retired = Kept::new(Vec::new(), options.free_at_exit);
    let copy = Box::new(prepared.clone());
    let observe = crate::passes::Observe::default();
    // What fails here fails again, and is reported, when eager inlining runs.
    let Ok(unrolled) = crate::passes::run(copy, &unroll, &observe, sources, reporter, out, &mut retired) else {
        return Ok(None);
    };
    let unrolled = Kept::new(unrolled, options.free_at_exit);
    let Some(implementation) = stratified::entry_implementation(&unrolled, entry) else { return Ok(None) };
    let Ok((choice, session_options)) = crate::smt::configure(options) else { return Ok(None) };
    // `/proverLog`: the search's session (the check of the program it chose, if one follows,
    // writes the file again).
    let log = options
        .prover_log
        .as_deref()
        .and_then(|file| crate::smt::LogFiles::new(file, options.prover_log_append).open(entry.as_str()).ok());
    let Ok(mut session) = crate::smt::start(&choice, &session_options, log) else { return Ok(None) };
    let limits = crate::smt::Limits { time_limit_s: options.time_limit, resource_limit: options.resource_limit };
    let mut written = Ok(());
    let mut trace = |line: &str| {
        if options.trace && written.is_ok() {
            written = reporter.trace(out, line);
        }
    };
    let (found, figures) = stratified::search(
        &unrolled,
        implementation,
        bound,
        options.bounded.stack_depth_bound,
        session.as_mut(),
        &limits,
        &mut trace,
    );
    let sites = match found {
        Search::Bug(sites) => Some((sites, true)),
        Search::NoBug(sites) => Some((sites, false)),
        Search::GaveUp(why) => {
            trace(&format!("[TRACE] stratified inlining gave up ({why}); inlining every call site\n"));
            None
        }
    };
    trace(&format!(
        "[TRACE] stratified inlining: {} rounds, {} instances, {} queries, {} KB sent ({:.3} s), {:.3} s in check-sat\n",
        figures.rounds,
        figures.instances,
        figures.queries,
        figures.sent / 1024,
        figures.sending,
        figures.checking
    ));
    // Deleting a Z3 context that holds every instance takes about as long as the search: the
    // binary leaves that to the process's exit, as it leaves its programs.
    if !options.free_at_exit {
        std::mem::forget(session);
    }
    written?;
    Ok(sites)
}

/// Bounded mode's facts about the program ([`crate::bounded`]).
pub(crate) struct BoundedRun {
    pub(crate) entry: crate::ast::Symbol,
    cuts: bool,
    /// The program spawns threads: it is sequentialized ([`crate::passes::sequentialize`]).
    concurrent: bool,
    /// Stratified inlining found a bug with the call sites now inlined: a verification of
    /// that program that finds none disagrees with it, and is not reported ([`verify`]
    /// returns [`DISAGREES`]; eager inlining decides instead).
    expect_bug: std::cell::Cell<bool>,
}

/// Context-bounded checking's stages ([`crate::vcgen::VerifyOptions::stages`]): with `/k:N`,
/// the rounds bounded to 1, 2, ..., N − 1 in turn ([`crate::passes::sequentialize::BOUND`]),
/// before the query itself (N).
fn context_stages(options: &Options, typed: &crate::typeck::TypedProgram, bounded: Option<&BoundedRun>) -> Vec<String> {
    let rounds = options.bounded.rounds();
    // The pass declares the constant when it sequentialized the entry point incrementally.
    let declared = typed.program.decls.iter().any(|d| {
        matches!(d, crate::ast::Decl::Const(c)
            if c.names.iter().any(|n| n.name.as_str() == crate::passes::sequentialize::BOUND))
    });
    if !bounded.is_some_and(|b| b.concurrent) || options.bounded.fixed_k || !declared {
        return Vec::new();
    }
    let bound = crate::smt::names::quote(crate::passes::sequentialize::BOUND);
    (1..rounds).map(|k| format!("(<= {bound} {k})")).collect()
}

/// [`verify`]'s answer when its verdict disagrees with stratified inlining's search.
const DISAGREES: i32 = -1;

/// Verifies every selected implementation and prints Boogie's error reports and trailer.
/// What verification needs of the options (bounded mode's: the entry point only, one
/// counterexample).
fn verify_options(
    options: &Options,
    typed: &crate::typeck::TypedProgram,
    bounded: Option<&BoundedRun>,
    reporter: &Reporter,
    solvers: &Solvers,
) -> crate::vcgen::VerifyOptions {
    let logs = solvers.logs.as_ref();
    crate::vcgen::VerifyOptions {
        // Corral reports one counterexample (its `/cex:1`).
        error_limit: if bounded.is_some() { 1 } else { options.error_limit },
        time_limit: options.time_limit,
        resource_limit: options.resource_limit,
        // Bounded mode verifies the entry point only: every callee is inlined into it.
        procs: match bounded {
            Some(b) => vec![b.entry.as_str().to_string()],
            None => options.procs.clone(),
        },
        no_procs: options.no_procs.clone(),
        remove_empty_blocks: options.remove_empty_blocks,
        coalesce_blocks: options.coalesce_blocks,
        assume_free_invariants: options.always_assume_free_loop_invariants,
        prune: options.prune,
        session_per_implementation: logs.is_some_and(crate::smt::LogFiles::per_implementation),
        cores: options.vcs_cores,
        split_on_every_assert: options.split_on_every_assert,
        augmented_traces: options.enhanced_error_messages == 1,
        print_split: options.print_split.is_some(),
        models: options.print_model >= 1 || options.model_view.is_some(),
        values: matches!(reporter.format, Format::Rich | Format::Json) || options.bounded.print_data_values >= 1,
        shard: options.shard,
        stages: context_stages(options, typed, bounded),
        reach_ground: !options.reach_quantified,
        multi_index_arrays: solvers.choice.reads_multi_index_arrays(),
        z3_map_operators: solvers.choice.reads_z3_map_operators(),
        hoist_definitions: bounded.is_some_and(|b| b.concurrent),
        smoke: options.smoke,
        smoke_timeout: options.smoke_timeout,
        track_coverage: options.track_verification_coverage,
        warn_vacuous: options.warn_vacuous_proofs,
    }
}

pub(crate) fn verify(
    options: &Options,
    typed: &crate::typeck::TypedProgram,
    sources: &SourceMap,
    reporter: &Reporter,
    out: &mut dyn Write,
    bounded: Option<&BoundedRun>,
) -> io::Result<i32> {
    verify_observed(options, typed, sources, reporter, out, bounded, &mut |_| {})
}

/// [`verify`], showing `observe` each implementation's result before it is reported (the
/// refinement loop reads counterexamples' paths off them).
pub(crate) fn verify_observed(
    options: &Options,
    typed: &crate::typeck::TypedProgram,
    sources: &SourceMap,
    reporter: &Reporter,
    out: &mut dyn Write,
    bounded: Option<&BoundedRun>,
    observe: &mut dyn FnMut(&crate::vcgen::verify::ImplResult),
) -> io::Result<i32> {
    let solvers = match Solvers::configure(options, reporter, out)? {
        Ok(solvers) => solvers,
        Err(code) => return Ok(code),
    };
    verify_with(&solvers, options, typed, sources, reporter, out, bounded, observe)
}

/// Where the errors' models are printed: after each trace under `/printModel:1` (unless
/// `/printModelToFile` sends them to a file), after each error under `/mv:-`.
fn models(options: &Options) -> crate::verdict::Models {
    crate::verdict::Models {
        in_trace: options.print_model >= 1 && options.print_model_file.is_none(),
        after_error: options.model_view.as_deref() == Some("-"),
    }
}

/// How errors are worded: `/forceBplErrors`.
fn wording(options: &Options) -> crate::verdict::Wording {
    crate::verdict::Wording { force_bpl_errors: options.force_bpl_errors }
}

/// `/printModelToFile:FILE` (Boogie's `ModelWriter`): the models `/printModel:1` would print
/// after the traces of `verdict`'s errors, appended to FILE in the order the errors are
/// reported. Boogie writes them only where it prints a trace (`/errorTrace` above 0). The file
/// was made empty when the run started ([`start_model_file`]).
fn models_to_file(options: &Options, error_trace: u32, verdict: &crate::verdict::Verdict) {
    let Some(path) = options.print_model_file.as_deref() else { return };
    if options.print_model == 0 || error_trace == 0 {
        return;
    }
    let text: String = verdict.errors.iter().filter_map(|e| e.model.as_deref()).collect();
    if !text.is_empty() {
        write_models(path, &text, true);
    }
}

/// Writes model text to `path`, after what it holds (`append`) or in its place; a failure is
/// a warning on stderr, the run goes on.
fn write_models(path: &str, text: &str, append: bool) {
    let written = std::fs::OpenOptions::new()
        .create(true)
        .write(true)
        .append(append)
        .truncate(!append)
        .open(path)
        .and_then(|mut f| f.write_all(text.as_bytes()));
    if let Err(e) = written {
        eprintln!("Warning: cannot write the model to {path}: {e}");
    }
}

/// `/printModelToFile:FILE`: Boogie opens FILE, emptied, as it reads its options, whatever the
/// run then does. A file that cannot be made ends the run (Boogie's `StreamWriter` throws).
fn start_model_file(options: &Options) -> Result<(), String> {
    match options.print_model_file.as_deref() {
        Some(path) => {
            std::fs::File::create(path).map(drop).map_err(|e| format!("cannot open {path} for the models: {e}"))
        }
        None => Ok(()),
    }
}

/// [`verify_observed`] with the run's solvers.
#[allow(clippy::too_many_arguments)]
fn verify_with(
    solvers: &Solvers,
    options: &Options,
    typed: &crate::typeck::TypedProgram,
    sources: &SourceMap,
    reporter: &Reporter,
    out: &mut dyn Write,
    bounded: Option<&BoundedRun>,
    observe: &mut dyn FnMut(&crate::vcgen::verify::ImplResult),
) -> io::Result<i32> {
    use crate::vcgen::verify_program;
    let verify_options = verify_options(options, typed, bounded, reporter, solvers);
    // `/mv:FILE`: the files written so far, appended to after their first model (Boogie's
    // `GetLogFilename` with reuse).
    let mut model_files: rustc_hash::FxHashSet<String> = rustc_hash::FxHashSet::default();
    let open = |implementation: &str| solvers.open(implementation);
    let mut counts = Counts::default();
    let mut disagrees = false;
    let mut internal_errors = 0;
    let mut written: io::Result<()> = Ok(());
    let mut last_report = std::time::Instant::now();
    let calls = bounded.map(|b| crate::bounded::CallTree::of(typed, b.entry)).unwrap_or_default();
    // A concurrent program's context bound, which its verdicts report.
    let rounds = bounded.filter(|b| b.concurrent).map(|_| options.bounded.rounds());
    // `/trackVerificationCoverage`: what every proof used, for the whole program's list.
    let mut covered_anywhere: rustc_hash::FxHashSet<String> = rustc_hash::FxHashSet::default();
    let result = verify_program(typed, sources, &verify_options, &open, &mut |result| {
        observe(&result);
        let coverage = coverage_of(options, sources, &result);
        covered_anywhere.extend(result.covered.iter().cloned());
        // `/printSplit`: each split's passive program, with the verdict (`-`) or in a file.
        let splits = match options.print_split.as_deref() {
            Some("-") => result.splits.iter().map(|(_, split)| split.as_str()).collect(),
            Some(file) => {
                write_splits(file, &result.splits);
                String::new()
            }
            None => String::new(),
        };
        // `/smoke`: the unreachable code found, printed with the splits (before the verdict).
        let unreachable = result.unreachable.concat();
        // Bounded mode's trace shows the inlined calls, whose blocks have no position.
        let error_trace = if bounded.is_some() { 2 } else { options.error_trace };
        let mut verdict = crate::verdict::decide(result, sources, error_trace, models(options), wording(options));
        models_to_file(options, error_trace, &verdict);
        // A sequentialized program fails at its one final assertion: the error is reported
        // where the failing assertion of its trace is.
        if rounds.is_some() {
            for e in &mut verdict.errors {
                let failing =
                    e.trace.iter().flatten().find(|s| s.label.starts_with(crate::passes::sequentialize::FAIL));
                if let Some(step) = failing {
                    e.at = step.at.clone();
                }
            }
        }
        if bounded.is_some_and(|b| b.expect_bug.get()) && verdict.outcome != crate::verdict::Outcome::Errors {
            disagrees = true;
            return;
        }
        verdict.splits = std::mem::take(&mut verdict.splits)
            + &splits
            + &unreachable
            + &coverage.as_ref().map(|c| coverage_text(options, c)).unwrap_or_default();
        verdict.coverage = coverage;
        // `/mv:FILE`: each error's model to the implementation's file (`@PROC@`), appended
        // after its first (Boogie's `GetLogFilename` with reuse).
        if let Some(template) = options.model_view.as_deref().filter(|t| *t != "-") {
            for model in verdict.errors.iter().filter_map(|e| e.model.as_deref()) {
                let path = crate::smt::substitute_proc(template, &verdict.name);
                let append = !model_files.insert(path.clone());
                write_models(&path, model, append);
            }
        }
        counts.add(&verdict.counts);
        if verdict.outcome == crate::verdict::Outcome::InternalError {
            internal_errors += 1;
        }
        // Boogie's `TimeIndication`: the time since the previous report.
        let seconds = options.trace.then(|| {
            let seconds = last_report.elapsed().as_secs_f64();
            last_report = std::time::Instant::now();
            seconds
        });
        let progress = (options.trace || options.trace_proof_obligations).then(|| crate::report::Progress {
            seconds,
            prover: if options.trace { solvers.announce() } else { None },
        });
        if written.is_ok() {
            written = match bounded {
                // Corral's verdict, unless the solver gave none (Boogie's message then).
                Some(b) if reporter.format != Format::Json => {
                    let values = reporter.format == Format::Rich || options.bounded.print_data_values >= 1;
                    let mut verdict = verdict.clone();
                    if options.bounded.no_trace {
                        verdict.errors.iter_mut().for_each(|e| e.trace = None);
                    }
                    match crate::bounded::render(
                        &verdict,
                        &calls,
                        sources,
                        options.bounded.bound(),
                        b.cuts,
                        values,
                        rounds,
                    ) {
                        Some(text) => reporter.output(out, &text),
                        None => reporter.verdict(out, &verdict, progress),
                    }
                }
                _ => reporter.verdict(out, &verdict, progress),
            };
            if let Some(b) = bounded
                && reporter.format == Format::Json
                && written.is_ok()
            {
                written =
                    out.write_all(crate::bounded::json(&verdict, options.bounded.bound(), b.cuts, rounds).as_bytes());
            }
        }
    });
    written?;
    if disagrees {
        return Ok(DISAGREES);
    }
    let implementations = match result {
        Ok(implementations) => implementations,
        Err(u) => return unsupported_program(&u, sources, reporter, out),
    };
    // Boogie's `Proof dependencies of whole program:` under `/trace`.
    if options.trace && options.track_verification_coverage && !covered_anywhere.is_empty() {
        let mut all: Vec<String> = covered_anywhere.iter().map(|l| crate::vcgen::coverage::describe(l)).collect();
        crate::vcgen::coverage::sort_descriptions(&mut all);
        all.dedup();
        reporter.output(out, &format!("Proof dependencies of whole program:\n  {}\n", all.join("\n  ")))?;
    }
    // Corral prints no closing line; JSON keeps its `finished` event.
    if bounded.is_none() || reporter.format == Format::Json {
        reporter.trailer(out, &closing(options, sources, counts, implementations))?;
    }
    // EX_SOFTWARE: rboogie wrote a query a solver could not read.
    Ok(if internal_errors > 0 { 70 } else { 0 })
}

/// An implementation's verification coverage (`/trackVerificationCoverage`): the
/// descriptions of what its proofs used, sorted as Boogie sorts them, and under
/// `/warnVacuousProofs` each goal no proof used.
fn coverage_of(
    options: &Options,
    sources: &SourceMap,
    result: &crate::vcgen::verify::ImplResult,
) -> Option<crate::verdict::Coverage> {
    use crate::vcgen::coverage;
    if !options.track_verification_coverage {
        return None;
    }
    let mut used: Vec<String> = result.covered.iter().map(|l| coverage::describe(l)).collect();
    coverage::sort_descriptions(&mut used);
    let mut vacuous = Vec::new();
    if options.warn_vacuous_proofs
        && matches!(
            result.outcome,
            crate::vcgen::verify::ImplOutcome::Verified | crate::vcgen::verify::ImplOutcome::Errors(_)
        )
    {
        let covered: rustc_hash::FxHashSet<String> = result.covered.iter().cloned().collect();
        for goal in result.goals.iter().filter(|g| !coverage::goal_covered(&g.id, &covered)) {
            vacuous.push(sources.position(goal.span));
        }
    }
    Some(crate::verdict::Coverage { used, vacuous })
}

/// What Boogie prints of an implementation's coverage before its verdict: under `/trace` its
/// `Proof dependencies:`, then each vacuous goal's warning (at the column before the goal's,
/// as Boogie prints it).
fn coverage_text(options: &Options, coverage: &crate::verdict::Coverage) -> String {
    let mut text = String::new();
    if options.trace {
        text += &format!("Proof dependencies:\n  {}\n", coverage.used.join("\n  "));
    }
    // An advisory line in Boogie: `/silent` prints none.
    if !options.silent {
        for p in &coverage.vacuous {
            text += &format!("{}({},{}): Warning: Proved vacuously\n", p.file, p.line, p.col.saturating_sub(1));
        }
    }
    text
}

/// A program rboogie cannot encode: said so, exit code 2, no trailer.
fn unsupported_program(
    u: &crate::vcgen::Unsupported,
    sources: &SourceMap,
    reporter: &Reporter,
    out: &mut dyn Write,
) -> io::Result<i32> {
    let pos = u
        .span
        .map(|span| crate::vcgen::trace::position(sources, span))
        .map(|p| format!("{}({},{})", p.file, p.line, p.col));
    let message =
        format!("{}: rboogie: cannot verify this program: {} not supported yet", pos.unwrap_or_default(), u.what);
    reporter.tool_message(out, &message)?;
    Ok(2)
}

/// `/contractInfer`: Houdini ([`crate::houdini`]) on the program after the passes (its own
/// inlining last, under `/inlineDepth:N`), then, as Boogie's `RunHoudini` prints them: the
/// assignment (`/printAssignment`), under `/trace` the inference's figures, each
/// implementation's last outcome, and the trailer.
fn verify_with_houdini(
    options: &Options,
    typed: &crate::typeck::TypedProgram,
    houdini_passes: &[Box<dyn crate::passes::Pass>],
    sources: &mut SourceMap,
    reporter: &Reporter,
    out: &mut dyn Write,
    retired: &mut Vec<Box<crate::typeck::TypedProgram>>,
) -> io::Result<i32> {
    let config = options.houdini_config();
    let solvers = match Solvers::configure(options, reporter, out)? {
        Ok(solvers) => solvers,
        Err(code) => return Ok(code),
    };
    // Houdini starts its solver first.
    solvers.announce_now(options, reporter, out)?;
    // Houdini's checks assume every candidate, not the tracked labels' literals: coverage is
    // the final report's business.
    let verify_options = crate::vcgen::VerifyOptions {
        track_coverage: false,
        warn_vacuous: false,
        ..verify_options(options, typed, None, reporter, &solvers)
    };
    let graph = crate::houdini::CallGraph::new(typed, &verify_options, config.inline_depth);
    let inlined = if houdini_passes.is_empty() || config.inline_depth.is_none() {
        None
    } else {
        let copy = Box::new(typed.clone());
        match crate::passes::run(copy, houdini_passes, &options.pass_observation(), sources, reporter, out, retired) {
            Ok(inlined) => Some(Kept::new(inlined, options.free_at_exit)),
            Err(failure) => return failure.report(sources, reporter, out),
        }
    };
    let typed = inlined.as_deref().map_or(typed, |t| &**t);
    let inferred =
        match infer_assignment(options, typed, sources, &graph, &verify_options, &config, &solvers, reporter, out)? {
            Ok(inferred) => inferred,
            Err(code) => return Ok(code),
        };
    let mut counts = Counts::default();
    let mut internal_errors = 0;
    let implementations = inferred.results.len();
    for result in inferred.results {
        let verdict = crate::verdict::decide(result, sources, options.error_trace, models(options), wording(options));
        models_to_file(options, options.error_trace, &verdict);
        counts.add(&verdict.counts);
        if verdict.outcome == crate::verdict::Outcome::InternalError {
            internal_errors += 1;
        }
        reporter.verdict(out, &verdict, None)?;
    }
    reporter.trailer(out, &closing(options, sources, counts, implementations))?;
    Ok(if internal_errors > 0 { 70 } else { 0 })
}

/// `/printAssignment`: Houdini's assignment, as Boogie's `RunHoudini` prints it; under
/// Houdini on `typed` in the run's solver sessions, its `/trace` progress and (through
/// [`report_assignment`]) the assignment printed; `Err` with the exit code when the program
/// cannot be verified (reported).
#[allow(clippy::too_many_arguments)]
fn infer_assignment(
    options: &Options,
    typed: &crate::typeck::TypedProgram,
    sources: &SourceMap,
    graph: &crate::houdini::CallGraph,
    verify_options: &crate::vcgen::VerifyOptions,
    config: &crate::houdini::HoudiniConfig,
    solvers: &Solvers,
    reporter: &Reporter,
    out: &mut dyn Write,
) -> io::Result<Result<crate::houdini::HoudiniOutcome, i32>> {
    let session_options = solvers.houdini_options(config);
    let open = |implementation: &str| solvers.open_with(implementation, &session_options);
    let mut trace_text = String::new();
    let inferred = crate::houdini::infer(typed, sources, graph, verify_options, config, &open, &mut |line| {
        trace_text.push_str(line)
    });
    if !trace_text.is_empty() {
        reporter.trace(out, &trace_text)?;
    }
    match inferred {
        Ok(inferred) => {
            report_assignment(options, &inferred, reporter, out)?;
            Ok(Ok(inferred))
        }
        Err(u) => Ok(Err(unsupported_program(&u, sources, reporter, out)?)),
    }
}

/// `/trace`, the inference's figures.
fn report_assignment(
    options: &Options,
    inferred: &crate::houdini::HoudiniOutcome,
    reporter: &Reporter,
    out: &mut dyn Write,
) -> io::Result<()> {
    if options.print_assignment {
        let mut text = String::from("Assignment computed by Houdini:\n");
        for (name, value) in &inferred.assignment {
            text.push_str(&format!("{name} = {}\n", if *value { "True" } else { "False" }));
        }
        reporter.output(out, &text)?;
    }
    if options.trace {
        let stats = &inferred.stats;
        let trues = inferred.assignment.iter().filter(|(_, v)| *v).count();
        let mut text = format!(
            "Number of true assignments = {trues}\nNumber of false assignments = {}\nProver time = {:.2}\n",
            inferred.assignment.len() - trues,
            stats.solver_seconds,
        );
        // Boogie's unsat core figures, where Boogie prints them, under the option only.
        let cores = options.use_unsat_core_for_contract_infer;
        if cores {
            text += &format!("Unsat core prover time = {:.2}\n", stats.core_seconds);
        }
        text += &format!("Number of prover queries = {}\n", stats.queries);
        if cores {
            text += &format!(
                "Number of unsat core prover queries = {}\nNumber of unsat core prunings = {}\n",
                stats.core_queries, stats.prunings
            );
        }
        text += &format!(
            "Number of check-sat calls = {}\nNumber of implementations checked = {}\n",
            stats.check_sats, stats.implementations
        );
        reporter.trace(out, &text)?;
    }
    Ok(())
}

/// `/contractInfer` in bounded mode: Houdini ([`crate::houdini`]) on the program the bounded
/// check verifies (the entry point after the passes: callees inlined to the bound, loops
/// unrolled, threads sequentialized), its assignment printed as in modular mode, then that
/// program under the assignment (the constants' values made axioms, the pipeline's
/// `houdini-assignment` pass) checked and reported as bounded mode reports it, in the same
/// solver configuration. Houdini's own outcomes are not reported: a bug that is no candidate's
/// is found again by the check, and "no bugs" is that check's proof.
#[allow(clippy::too_many_arguments)]
fn verify_bounded_with_houdini(
    options: &Options,
    typed: Box<crate::typeck::TypedProgram>,
    mut config: crate::passes::PipelineConfig,
    bounded: &BoundedRun,
    sources: &mut SourceMap,
    reporter: &Reporter,
    out: &mut dyn Write,
    retired: &mut Vec<Box<crate::typeck::TypedProgram>>,
) -> io::Result<i32> {
    let solvers = match Solvers::configure(options, reporter, out)? {
        Ok(solvers) => solvers,
        Err(code) => return Ok(code),
    };
    // Houdini starts its solver first.
    solvers.announce_now(options, reporter, out)?;
    // Houdini's checks take Boogie's counterexamples (`/errorLimit` of them, not Corral's one)
    // and need nothing that only a report shows.
    let verify_options = crate::vcgen::VerifyOptions {
        error_limit: options.error_limit,
        stages: Vec::new(),
        models: false,
        values: false,
        augmented_traces: false,
        print_split: false,
        track_coverage: false,
        warn_vacuous: false,
        ..verify_options(options, &typed, Some(bounded), reporter, &solvers)
    };
    let graph = crate::houdini::CallGraph::new(&typed, &verify_options, None);
    let houdini = options.houdini_config();
    let inferred =
        match infer_assignment(options, &typed, sources, &graph, &verify_options, &houdini, &solvers, reporter, out)? {
            Ok(inferred) => inferred,
            Err(code) => return Ok(code),
        };
    config.houdini_assignment = Some(std::sync::Arc::new(inferred.assignment));
    // The passes the driver held back for Houdini (its inlining does nothing in bounded mode).
    let mut passes = crate::passes::pipeline(&config);
    let at = passes.iter().position(|p| p.name() == "houdini-inline").unwrap_or(passes.len());
    let passes = passes.split_off(at);
    match crate::passes::run(typed, &passes, &options.pass_observation(), sources, reporter, out, retired) {
        Ok(assigned) => {
            let assigned = Kept::new(assigned, options.free_at_exit);
            verify_with(&solvers, options, &assigned, sources, reporter, out, Some(bounded), &mut |_| {})
        }
        Err(failure) => failure.report(sources, reporter, out),
    }
}

/// The solver of the run and how its sessions are opened (with their `/proverLog` files).
struct Solvers {
    choice: crate::smt::SolverChoice,
    session_options: crate::smt::SessionOptions,
    logs: Option<crate::smt::LogFiles>,
    /// A log that cannot be written is no reason not to verify: said once per file on stderr.
    unwritable_logs: std::sync::Mutex<rustc_hash::FxHashSet<String>>,
    /// The solver as `/trace` names it.
    prover: String,
    /// Whether `/trace` has named it ([`Solvers::announce`]).
    announced: std::sync::atomic::AtomicBool,
}

impl Solvers {
    /// The solver the options choose (`/trace` names it); `Err` with the exit code after
    /// Boogie's message when it cannot be used.
    fn configure(options: &Options, reporter: &Reporter, out: &mut dyn Write) -> io::Result<Result<Solvers, i32>> {
        let (choice, session_options) = match crate::smt::configure(options) {
            Ok(c) => c,
            Err(message) => {
                reporter.tool_message(out, &format!("*** Error: {message}"))?;
                return Ok(Err(1));
            }
        };
        // Boogie's `ProverOptions.ExecutablePath`: a `PROVER_PATH` must name a file.
        if let crate::smt::SolverChoice::Process { path, .. } = &choice
            && options.solver.is_none()
            && options.prover_options.iter().any(|o| o.starts_with("PROVER_PATH"))
            && !Path::new(path).is_file()
        {
            reporter
                .printer_line(out, &format!("Fatal Error: ProverException: Cannot find specified prover: {path}"))?;
            return Ok(Err(1));
        }
        // What Boogie's `/trace` names: the solver's path, or its name (in-process, z3).
        let prover = match &choice {
            crate::smt::SolverChoice::Z3InProcess => "z3".to_string(),
            crate::smt::SolverChoice::Process { path, .. } => path.clone(),
            crate::smt::SolverChoice::Noop => "noop".to_string(),
        };
        let logs = options.prover_log.as_deref().map(|file| crate::smt::LogFiles::new(file, options.prover_log_append));
        Ok(Ok(Solvers {
            choice,
            session_options,
            logs,
            unwritable_logs: Default::default(),
            prover,
            announced: std::sync::atomic::AtomicBool::new(false),
        }))
    }

    /// Boogie's `[TRACE] Using prover: P` is printed once, when the run starts its first
    /// solver: the solver's name the first time this is called, `None` after.
    fn announce(&self) -> Option<&str> {
        let before = self.announced.swap(true, std::sync::atomic::Ordering::Relaxed);
        (!before).then_some(self.prover.as_str())
    }

    /// Under `/trace`, Boogie's `[TRACE] Using prover: P` on its own line, unless already said.
    fn announce_now(&self, options: &Options, reporter: &Reporter, out: &mut dyn Write) -> io::Result<()> {
        match self.announce().filter(|_| options.trace) {
            Some(prover) => reporter.trace(out, &format!("[TRACE] Using prover: {prover}\n")),
            None => Ok(()),
        }
    }

    /// A new session, named for `/proverLog`'s `@PROC@`.
    fn open(&self, implementation: &str) -> Result<Box<dyn crate::smt::Session>, String> {
        self.open_with(implementation, &self.session_options)
    }

    /// The options of Houdini's sessions: the run's, and unsat assumptions when `config` asks
    /// for cores.
    fn houdini_options(&self, config: &crate::houdini::HoudiniConfig) -> crate::smt::SessionOptions {
        crate::smt::SessionOptions { unsat_assumptions: config.use_unsat_core, ..self.session_options.clone() }
    }

    /// [`Solvers::open`] with `session_options` in place of the run's.
    fn open_with(
        &self,
        implementation: &str,
        session_options: &crate::smt::SessionOptions,
    ) -> Result<Box<dyn crate::smt::Session>, String> {
        let log = match self.logs.as_ref().map(|files| files.open(implementation)) {
            Some(Ok(log)) => Some(log),
            Some(Err(why)) => {
                let mut warned = self.unwritable_logs.lock().unwrap_or_else(std::sync::PoisonError::into_inner);
                if warned.insert(why.clone()) {
                    eprintln!("Warning: {why}; verifying without writing it");
                }
                None
            }
            None => None,
        };
        crate::smt::start(&self.choice, session_options, log)
    }
}

/// `/printSplit:FILE`: each split's passive program to `FILE-NAME.spl`, `:`, `/` and `\` in
/// its name made `-`; a file that cannot be written is said on stderr.
fn write_splits(file: &str, splits: &[(String, String)]) {
    for (name, split) in splits {
        let escaped: String = name.chars().map(|c| if matches!(c, ':' | '/' | '\\') { '-' } else { c }).collect();
        let path = format!("{file}-{escaped}.spl");
        if let Err(e) = std::fs::write(&path, split) {
            eprintln!("Warning: cannot write {path}: {e}");
        }
    }
}

/// Prints a phase's diagnostics and Boogie's `N ... errors detected in F` (counting errors only).
fn report_phase(
    reporter: &Reporter,
    out: &mut dyn Write,
    sources: &SourceMap,
    diagnostics: &[Diagnostic],
    phase: Phase,
    file: &str,
) -> io::Result<()> {
    reporter.diagnostics(out, sources, diagnostics)?;
    let errors = diagnostics.iter().filter(|d| d.severity == Severity::Error).count();
    reporter.phase_summary(out, phase, errors, file)
}

/// The input files with `.txt` lists expanded, all checked to be `.bpl` files, or Boogie's
/// message for the first that is not (BoogieDriver.cs, `GetFileList`).
fn input_files(options: &Options) -> Result<Vec<String>, String> {
    let mut files = Vec::new();
    for file in &options.files {
        if extension(file).eq_ignore_ascii_case(".txt") {
            let text = std::fs::read(file).map_err(|e| {
                format!("Error opening file \"{}\": {}", display_name(options, file), io_message(file, &e))
            })?;
            let text = String::from_utf8_lossy(&text);
            files.extend(text.split([' ', '\n', '\r']).filter(|s| !s.is_empty()).map(String::from));
        } else {
            files.push(file.clone());
        }
    }
    for file in &files {
        let ext = extension(file).to_lowercase();
        if ext != ".bpl" {
            return Err(format!(
                "*** Error: '{file}': Filename extension '{ext}' is not supported. Input files must be BoogiePL programs (.bpl)."
            ));
        }
    }
    Ok(files)
}

/// .NET's `Path.GetExtension` on Unix: from the last `.` of the last path component, dot
/// included; empty when there is none or it ends the name.
fn extension(path: &str) -> &str {
    let name = &path[path.rfind('/').map_or(0, |i| i + 1)..];
    match name.rfind('.') {
        Some(i) if i + 1 < name.len() => &name[i..],
        _ => "",
    }
}

/// The name Boogie shows for a file: its base name under `/useBaseNameForFileName`.
fn display_name(options: &Options, path: &str) -> String {
    if options.use_base_name && !path.is_empty() {
        path[path.rfind('/').map_or(0, |i| i + 1)..].to_string()
    } else {
        path.to_string()
    }
}

/// The text .NET puts in the exception Boogie prints for a file it cannot open.
fn io_message(path: &str, e: &io::Error) -> String {
    let full = std::path::absolute(path).map_or_else(|_| path.to_string(), |p| p.display().to_string());
    match e.kind() {
        io::ErrorKind::NotFound => {
            let parent_exists = Path::new(&full).parent().is_none_or(|p| p.is_dir());
            if parent_exists {
                format!("Could not find file '{full}'.")
            } else {
                format!("Could not find a part of the path '{full}'.")
            }
        }
        io::ErrorKind::PermissionDenied | io::ErrorKind::IsADirectory => {
            format!("Access to the path '{full}' is denied.")
        }
        _ => e.to_string(),
    }
}

/// Reads a file as .NET's `StreamReader` would: invalid UTF-8 replaced, a byte-order mark
/// dropped. `stdin.bpl` is standard input, as in Boogie's `Parser.Parse`.
fn read_source(path: &str) -> io::Result<String> {
    let mut bytes = Vec::new();
    if path == "stdin.bpl" {
        io::stdin().read_to_end(&mut bytes)?;
    } else {
        bytes = std::fs::read(path)?;
    }
    // Valid UTF-8 (the common case) is taken as it is, without a copy.
    let mut text = String::from_utf8(bytes).unwrap_or_else(|e| String::from_utf8_lossy(e.as_bytes()).into_owned());
    if text.starts_with('\u{feff}') {
        text.drain(..'\u{feff}'.len_utf8());
    }
    Ok(text)
}

/// Parses every file into one program (ExecutionEngine.cs, `ParseBoogieProgram`). `None` when
/// a file could not be read or parsed; the messages have been printed.
fn parse_files(
    options: &Options,
    files: &[String],
    sources: &mut SourceMap,
    reporter: &Reporter,
    out: &mut dyn Write,
) -> io::Result<Option<Program>> {
    let mut program = Program { decls: Vec::new() };
    let mut okay = true;
    for (index, path) in files.iter().enumerate() {
        let name = display_name(options, path);
        if options.trace {
            reporter.trace(out, &format!("Parsing {name}\n"))?;
        }
        let text = match read_source(path) {
            Ok(text) => text,
            Err(e) => {
                let message = format!("Error opening file \"{name}\": {}", io_message(path, &e));
                reporter.printer_line(out, &message)?;
                okay = false;
                continue;
            }
        };
        let id = sources.add(path.clone(), name.clone(), text);
        let defines = vec![format!("FILE_{index}")];
        match crate::parser::parse(sources, id, &defines) {
            Ok(snippet) => program.decls.extend(snippet.decls),
            Err(diagnostics) => {
                reporter.diagnostics(out, sources, &diagnostics)?;
                let errors = diagnostics.iter().filter(|d| d.severity == Severity::Error).count();
                reporter.phase_summary(out, Phase::Parse, errors, &name)?;
                okay = false;
            }
        }
    }
    if !okay {
        return Ok(None);
    }
    // Then the libraries (`/lib:NAME`, and `base` for a Civl program), as further files.
    let mut libraries = options.libraries.clone();
    if crate::library::needs_base(&program.decls) && !libraries.iter().any(|l| l == "base") {
        libraries.push("base".to_string());
    }
    for name in &libraries {
        let Some(text) = crate::library::text(name) else {
            reporter.tool_message(out, &crate::library::unknown(name))?;
            okay = false;
            continue;
        };
        let file = format!("{name}.bpl");
        let id = sources.add(file.clone(), file, text.to_string());
        match crate::parser::parse(sources, id, &[]) {
            Ok(library) => program.decls.extend(library.decls),
            Err(diagnostics) => {
                // Not expected: every library parses (a unit test checks it).
                reporter.diagnostics(out, sources, &diagnostics)?;
                okay = false;
            }
        }
    }
    Ok(okay.then_some(program))
}

/// `/print:F`: the `/env` header, a blank line, then the program (ExecutionEngine.cs,
/// `PrintBplFile`). `-` is stdout.
fn print_program(
    options: &Options,
    program: &Program,
    types: Option<crate::emit::TypeTable>,
    target: &str,
    sources: &mut SourceMap,
    reporter: &Reporter,
    out: &mut dyn Write,
) -> io::Result<()> {
    // Boogie's writer moves the tokens of what it prints (`setTokens`).
    let recording = crate::moved::Recording::start();
    let mut text = String::new();
    crate::moved::writer(&mut text, crate::moved::print_file_name(target));
    if options.show_env != ShowEnv::Never {
        text += &format!("// {}\n// Command Line Options: {}\n", version_text(), options.args.join(" "));
    }
    text.push('\n');
    let blocks = options.print_inlined && !options.no_resolve;
    let print_options =
        crate::printer::PrintOptions { pretty: options.pretty, emit: true, blocks, where_comments: false, types };
    text += &crate::printer::print_program(program, &print_options);
    drop(recording);
    let (text, moves) = crate::moved::resolve(&text);
    sources.move_tokens(moves);
    if target == "-" { reporter.output(out, &text) } else { std::fs::write(target, text) }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn extensions_as_dotnet_sees_them() {
        assert_eq!(extension("a/b.c/x.BPL"), ".BPL");
        assert_eq!(extension("a.bpl/x"), "");
        assert_eq!(extension(".bpl"), ".bpl");
        assert_eq!(extension("x."), "");
        assert_eq!(extension("/x:y"), "");
    }

    fn run_with(args: &[&str]) -> (i32, String) {
        let options = crate::cli::parse_args(args.iter().map(|s| s.to_string())).unwrap();
        let mut out = Vec::new();
        let code = run(&options, &mut out, &mut io::sink());
        (code, String::from_utf8(out).unwrap())
    }

    #[test]
    fn command_line_problems_are_boogies() {
        assert_eq!(run_with(&[]), (1, "*** Error: No input files were specified.\n".to_string()));
        assert_eq!(
            run_with(&["/noVerify", "a.bpl", "notes.md"]),
            (
                1,
                "*** Error: 'notes.md': Filename extension '.md' is not supported. Input files must be BoogiePL programs (.bpl).\n"
                    .to_string()
            )
        );
        let (code, out) = run_with(&["-useBaseNameForFileName", "/no/such/dir/missing.bpl"]);
        assert_eq!(code, 0);
        assert_eq!(
            out,
            "Error opening file \"missing.bpl\": Could not find a part of the path '/no/such/dir/missing.bpl'.\n"
        );
        let (code, out) = run_with(&["/version", "/help"]);
        assert_eq!((code, out), (0, format!("{}\n", version_text())));
        let (code, out) = run_with(&["-?"]);
        assert!(code == 0 && out.contains("--no-verify"));
    }
}
