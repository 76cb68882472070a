//! Passes: BoogiePL to BoogiePL transformations between type checking and verification.
//!
//! Expects a type-checked program. Guarantees a type-checked program that verifies exactly
//! when the input does under Boogie's semantics, in which the constructs a pass removes no
//! longer occur (calls inlined, polymorphism instantiated, lambdas lifted).
//!
//! How: each pass is a value implementing [`Pass`], configured from the command line in one
//! place ([`PipelineConfig`], which `cli` builds: passes never read the command line).
//! [`pipeline`] makes the ordered list at run time, in Boogie's order (monomorphization at
//! the end of type checking, inlining in `ProcessProgram`, lambda lifting just before
//! verification); a mode can insert passes. Each pass reads the [`TypedProgram`], writes
//! what it prints and its warnings to its [`PassCx`], and returns a new [`Program`] when it
//! changed anything; the driver here resolves and type-checks that program again, so every later
//! stage sees fresh side tables and a pass that builds an ill-typed program fails at the pass
//! (STYLE's "re-check after every pass"). A pass that knows the types and referents of the
//! nodes it builds returns them instead ([`Output::Typed`], an
//! [`crate::typeck::extend::Extension`] of its input's tables; lambda lifting does), and its
//! output is not checked again; `--check-passes` and debug builds compare those tables with a
//! check from scratch ([`crate::typeck::compare`]), as the pass's tests do. Nodes a pass creates
//! inherit the span of the node they replace.
//!
//! The same list names the passes for `--print-after=PASS` (the program after that pass, as
//! Boogie text that parses and type-checks again, on stdout, but for the `{:id}` statement ids
//! and `{:name}` axiom names that inlining, unrolling and monomorphization repeat, which a
//! program as written may not; the run then goes on) and for
//! `/trace`, which prints one line per pass with the time it took, re-checking included.

pub(crate) mod blocks;
mod civl;
mod datatypes;
mod edit;
pub mod entry_only;
mod erase_types;
pub mod field_abstraction;
mod houdini_assignment;
pub mod infer;
pub mod inline;
mod lambda;
pub mod linear;
mod loop_unroll;
mod modifies;
mod monomorphize;
mod reach;
pub(crate) mod rewrite;
pub mod sequentialize;

pub(crate) use blocks::verify_false;

use std::io::{self, Write};

use crate::ast::{Program, Span};
use crate::diagnostics::Diagnostic;
use crate::report::Reporter;
use crate::source::SourceMap;
use crate::typeck::{Outcome, TypeckOptions, TypedProgram};

/// Why the passes could not produce a program to verify.
#[derive(Debug)]
pub enum PassError {
    /// One of Boogie's own fatal messages (the run ends; Boogie's exit code 1).
    Fatal(String),
    /// A program rboogie cannot transform yet.
    Unsupported { span: Option<Span>, what: String },
    /// A pass built a program that does not type-check: a bug in that pass.
    IllTyped { pass: &'static str, diagnostics: Vec<Diagnostic> },
}

impl PassError {
    /// Prints the failure as the driver prints other stops; returns the exit code.
    pub fn report(&self, sources: &SourceMap, reporter: &Reporter, out: &mut dyn Write) -> io::Result<i32> {
        let at = |span: Span| match sources.try_position(span) {
            Some(p) => format!("{}({},{})", p.file, p.line, p.col),
            None => "(0,-1)".to_string(),
        };
        match self {
            PassError::Fatal(message) => {
                reporter.tool_message(out, message)?;
                Ok(1)
            }
            PassError::Unsupported { span, what } => {
                let pos = span.map(at).unwrap_or_default();
                reporter.tool_message(
                    out,
                    &format!("{pos}: rboogie: cannot verify this program: {what} not supported yet"),
                )?;
                Ok(2)
            }
            PassError::IllTyped { pass, diagnostics } => {
                for d in diagnostics {
                    let message = format!("{}: rboogie: internal error after pass {pass}: {}", at(d.span), d.message);
                    reporter.tool_message(out, &message)?;
                }
                Ok(2)
            }
        }
    }
}

/// What a pass is: a value with its own configuration (built from the command line in one
/// place, [`PipelineConfig`], never by the pass), a name (for `--print-after` and `/trace`),
/// and a run: a new program when it changed anything.
pub trait Pass {
    fn name(&self) -> &'static str;
    fn run(&self, typed: &TypedProgram, cx: &mut PassCx) -> Result<Option<Program>, PassError>;
    /// [`Pass::run`] for the pipeline: a pass that knows the types and referents of what it
    /// builds returns them with its program ([`Output::Typed`]), which then is not checked
    /// again (but under `--check-passes`).
    fn run_typed(&self, typed: &TypedProgram, cx: &mut PassCx) -> Result<Option<Output>, PassError> {
        Ok(self.run(typed, cx)?.map(Output::Program))
    }
    /// [`Pass::run_typed`] for the pipeline, which owns `typed` and retires it when the pass
    /// changed the program: a pass may then have moved what it did not change out of `typed`
    /// into its output. When the pass changes nothing (`Ok(None)`), `typed` is as it was.
    fn run_owned(&self, typed: &mut TypedProgram, cx: &mut PassCx) -> Result<Option<Output>, PassError> {
        self.run_typed(typed, cx)
    }
}

/// A changed program, as a pass returns it to the pipeline.
pub enum Output {
    /// To be resolved and type-checked again.
    Program(Program),
    /// With the entries of what the pass built: the input's tables, extended, are its tables.
    Typed(Program, crate::typeck::extend::Extension),
}

/// What every pass gets besides the program: where it writes what it prints for the user
/// (Boogie's `/printInlined`) and its warnings, in the order it emits them; the pipeline
/// renders both after the pass, positioned by the sources.
#[derive(Debug, Default)]
pub struct PassCx {
    log: Vec<LogItem>,
}

#[derive(Debug)]
enum LogItem {
    /// Text, with the marks of the nodes it printed ([`crate::moved`]).
    Text(String),
    /// `file(line,col): Warning: message`.
    Warning(Span, String),
}

impl PassCx {
    /// Text for the user, printed as it is (after the pass).
    pub fn print(&mut self, text: String) {
        self.log.push(LogItem::Text(text));
    }

    /// A warning, printed in Boogie's form: `file(line,col): Warning: message`.
    pub fn warning(&mut self, span: Span, message: &str) {
        self.log.push(LogItem::Warning(span, message.to_string()));
    }

    /// The log's text, positions as `sources` gives them (text printed moves tokens first).
    fn render(self, sources: &mut SourceMap) -> String {
        let mut out = String::new();
        for item in self.log {
            match item {
                LogItem::Text(text) => {
                    // What `/printInlined` printed moved the tokens of the nodes it printed.
                    let (text, moves) = crate::moved::resolve(&text);
                    sources.move_tokens(moves);
                    out.push_str(&text);
                }
                LogItem::Warning(span, message) => match sources.try_position(span) {
                    Some(p) => out.push_str(&format!("{}({},{}): Warning: {message}\n", p.file, p.line, p.col)),
                    None => out.push_str(&format!("(0,-1): Warning: {message}\n")),
                },
            }
        }
        out
    }
}

/// `/typeEncoding:X`
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum TypeEncoding {
    Monomorphic,
    Predicates,
    Arguments,
}

/// `/inline:X`: what a call of an `{:inline}` procedure becomes past its depth.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Inlining {
    None,
    Assert,
    Assume,
    Spec,
}

/// The passes' configuration: what the command line says about each (built by `cli`).
#[derive(Clone, Debug, PartialEq)]
pub struct PipelineConfig {
    /// `/inferModifies`.
    pub infer_modifies: bool,
    /// `/freeVarLambdaLifting`.
    pub free_var_lambda_lifting: bool,
    /// `/typeEncoding`.
    pub type_encoding: TypeEncoding,
    /// `/inline`.
    pub inline: Inlining,
    /// `/inlineDepth`.
    pub inline_depth: Option<u32>,
    /// `/printInlined`.
    pub print_inlined: bool,
    /// `/loopUnroll`.
    pub loop_unroll: Option<u32>,
    /// `/soundLoopUnrolling`.
    pub sound_loop_unrolling: bool,
    /// Bounded mode's entry point ([`crate::bounded`]): the only implementation inlined into
    /// (and verified), whatever its `{:inline}`.
    pub entry: Option<crate::ast::Symbol>,
    /// Bounded mode's `/maxStaticLoopBound:N` ([`loop_unroll::UnrollLoops::max_static`]).
    pub max_static_loop_bound: Option<u32>,
    /// Bounded mode's `/stackDepthBound:N` ([`inline::Inline::stack_depth`]).
    pub stack_depth_bound: Option<u32>,
    /// Stratified inlining's chosen call sites ([`inline::Inline::sites`]).
    pub inline_sites: Option<std::sync::Arc<rustc_hash::FxHashSet<String>>>,
    /// Context-bounded checking of a concurrent program ([`sequentialize`]): threads are
    /// inlined at their `async` calls and the entry point sequentialized after unrolling.
    pub threads: Option<sequentialize::Sequentialize>,
    /// HAVOC's reachability theory instantiated on ground terms ([`reach`]).
    pub reach_ground: bool,
    /// Field abstraction ([`field_abstraction`]), set by the refinement loop
    /// ([`crate::refinement`]).
    pub field_abstraction: Option<std::sync::Arc<field_abstraction::Abstraction>>,
    /// One implementation pinned to a counterexample's path (the refinement loop's replay).
    pub pin: Option<std::sync::Arc<field_abstraction::PinSpec>>,
    /// Abstract interpretation (`/infer`).
    pub infer: Option<infer::InferConfig>,
    /// `/contractInfer` with `/inlineDepth:N`: Houdini's inlining, the last pass
    /// ([`houdini_inline`]).
    pub houdini_inline: Option<u32>,
    /// Bounded mode under `/contractInfer`: the assignment Houdini computed, made axioms
    /// ([`houdini_assignment`]) before the bounded check.
    pub houdini_assignment: Option<std::sync::Arc<Vec<(String, bool)>>>,
    /// `/coalesceBlocks` (on unless `:0`): the passes that take a body as blocks (inlining,
    /// unrolling, abstract interpretation) coalesce them first, as Boogie does before them.
    pub coalesce_blocks: bool,
}

impl Default for PipelineConfig {
    fn default() -> PipelineConfig {
        PipelineConfig {
            infer_modifies: false,
            free_var_lambda_lifting: false,
            type_encoding: TypeEncoding::Monomorphic,
            inline: Inlining::Assume,
            inline_depth: None,
            print_inlined: false,
            loop_unroll: None,
            sound_loop_unrolling: false,
            entry: None,
            max_static_loop_bound: None,
            stack_depth_bound: None,
            inline_sites: None,
            threads: None,
            reach_ground: true,
            field_abstraction: None,
            pin: None,
            infer: None,
            houdini_inline: None,
            houdini_assignment: None,
            coalesce_blocks: true,
        }
    }
}

/// The names of the passes, in the order they run (for `--print-after`).
pub const PASS_NAMES: &[&str] = &[
    "civl",
    "linear",
    "modifies",
    "reach",
    "datatypes",
    "lambda",
    "monomorphize",
    "erase-types",
    "inline",
    "infer",
    "field-abstraction",
    "unroll",
    "sequentialize",
    "pin",
    "houdini-inline",
    "houdini-assignment",
];

/// The pipeline `config` asks for, in Boogie's order (see the module header). A mode that
/// needs passes of its own inserts them into this list.
pub fn pipeline(config: &PipelineConfig) -> Vec<Box<dyn Pass>> {
    let mut passes: Vec<Box<dyn Pass>> = vec![
        Box::new(civl::Civl),
        Box::new(linear::LinearPrimitives { enabled: config.type_encoding == TypeEncoding::Monomorphic }),
        Box::new(modifies::InferModifies { enabled: config.infer_modifies }),
        Box::new(reach::Reach { ground: config.reach_ground }),
        Box::new(datatypes::Datatypes),
        Box::new(lambda::LiftLambdas { free_vars_only: config.free_var_lambda_lifting }),
        Box::new(monomorphize::Monomorphize {
            enabled: config.type_encoding == TypeEncoding::Monomorphic,
            inlining: config.inline != Inlining::None,
        }),
        Box::new(erase_types::EraseTypes { encoding: config.type_encoding }),
        Box::new(inline::Inline {
            mode: config.inline,
            depth: config.inline_depth,
            print_inlined: config.print_inlined,
            only: config.entry,
            sites: config.inline_sites.clone(),
            threads: config.threads.is_some(),
            houdini: false,
            stack_depth: config.stack_depth_bound.filter(|_| config.entry.is_some()),
            coalesce: config.coalesce_blocks,
        }),
        Box::new(infer::Infer {
            config: config.infer,
            threads: config.threads.is_some(),
            only: config.entry,
            coalesce: config.coalesce_blocks,
        }),
        Box::new(field_abstraction::FieldAbstraction(config.field_abstraction.clone())),
        Box::new(loop_unroll::UnrollLoops {
            bound: config.loop_unroll,
            sound: config.sound_loop_unrolling,
            only: config.entry,
            every_bounded: false,
            max_static: config.max_static_loop_bound,
            threads: config.threads.is_some(),
            coalesce: config.coalesce_blocks,
        }),
    ];
    // Listed always (for `--print-after`); it changes nothing unless bounded mode found threads.
    passes.push(Box::new(sequentialize::Threads(config.threads.clone())));
    passes.push(Box::new(field_abstraction::Pin(config.pin.clone())));
    // Listed always; after the others, as Boogie's Houdini inlines after all preprocessing.
    passes.push(houdini_inline(config.houdini_inline, config.coalesce_blocks));
    // Listed always; the driver runs it once Houdini has computed the assignment.
    passes.push(Box::new(houdini_assignment::AssignConstants(config.houdini_assignment.clone())));
    passes
}

/// Houdini's inlining (`/contractInfer` with `/inlineDepth:N`, [`crate::houdini`]): after
/// every other pass, each verified implementation gets the bodies of the procedures it calls,
/// `depth` levels deep, their contracts checked and assumed at the call as Boogie's
/// `Inliner.ProcessImplementationForHoudini` does. `None` changes nothing.
pub fn houdini_inline(depth: Option<u32>, coalesce: bool) -> Box<dyn Pass> {
    Box::new(inline::Inline {
        mode: Inlining::Spec,
        depth,
        print_inlined: false,
        only: None,
        sites: None,
        threads: false,
        houdini: true,
        stack_depth: None,
        coalesce,
    })
}

/// Stratified inlining's unrolling ([`crate::vcgen::stratified`]): every implementation's
/// loops bounded by `bound`, each on its own, as bounded mode bounds the entry point's.
pub fn every_loop_bounded(bound: u32, max_static: Option<u32>, coalesce: bool) -> Box<dyn Pass> {
    Box::new(loop_unroll::UnrollLoops {
        bound: Some(bound),
        sound: false,
        only: None,
        every_bounded: true,
        max_static,
        threads: false,
        coalesce,
    })
}

/// What the driver wants to see of the passes: `/trace`'s per-pass lines, `--print-after`.
#[derive(Clone, Debug, Default)]
pub struct Observe {
    pub trace: bool,
    pub print_after: Vec<String>,
    /// `/pretty` for what `--print-after` prints.
    pub pretty: bool,
    /// `--check-passes`: after each pass that changed the program, print it, parse the text
    /// back and check it again; a pass whose output does not survive is reported by name.
    pub check_passes: bool,
}

/// The attribute marking the assertion an unpack command becomes ([`datatypes`]): vcgen
/// reports its failure in Boogie's words for unpacks.
pub const UNPACK_CHECK: &str = "rboogie_unpack";

/// The attribute marking an inlined callee's `ensures` ([`inline`]): Boogie's
/// `AssertEnsuresCmd`, whose failure vcgen reports as a postcondition's, on the return path
/// its block's goto ends. Never printed.
pub const INLINED_ENSURES: &str = "rboogie_inlined_ensures";

/// The attribute marking a callee's `requires` asserted where inlining (Boogie's, and
/// Houdini's, [`inline::Inline::houdini`]) inlined the call: Boogie's `AssertRequiresCmd`,
/// whose failure vcgen reports as the call's precondition's (the marker's span is the
/// `requires`, so each is a check of its own). Never printed.
pub const INLINED_REQUIRES: &str = "rboogie_inlined_requires";

/// The attribute marking a callee's `requires` asserted where bounded mode's inlining
/// ([`inline::Inline::only`]) inlined the call: reported as an assertion at the call, as
/// Corral reports it, with the marker's span (the `requires`) kept as the check's
/// [`crate::vcgen::Check::clause`], so that two preconditions of one call are two checks
/// (Houdini tells its candidates apart by it). Never printed.
pub const REQUIRES_CLAUSE: &str = "rboogie_requires_clause";

/// Runs `passes` in order, re-checking the program after each one that changed it; what the
/// passes print goes to `out` through `reporter`, positions as `sources` gives them. The
/// programs the passes replaced go to `retired`, so that the caller chooses when to free them
/// (the binary never does: freeing a large tree costs more than the pass that replaced it,
/// and the process's exit frees it for nothing). A retired program whose successor was
/// checked again has lost its side tables.
pub fn run(
    mut typed: Box<TypedProgram>,
    passes: &[Box<dyn Pass>],
    observe: &Observe,
    sources: &mut SourceMap,
    reporter: &Reporter,
    out: &mut dyn Write,
    retired: &mut Vec<Box<TypedProgram>>,
) -> Result<Box<TypedProgram>, PassError> {
    for pass in passes {
        let name = pass.name();
        let started = std::time::Instant::now();
        let mut cx = PassCx::default();
        let changed = pass.run_owned(&mut typed, &mut cx);
        // A failed write is the driver's to report, at its next write.
        let _ = reporter.output(out, &cx.render(sources));
        let mut rechecking = None;
        let changed = match changed? {
            Some(Output::Program(program)) => {
                let recheck_started = std::time::Instant::now();
                // The input's side tables are freed first (a few large blocks, unlike its
                // tree): the re-check's tables, as large, then reuse their memory instead of
                // faulting in fresh pages (on a 10 MB Dafny-like program, 15% fewer page
                // faults in `/noVerify` and the re-check 0.15 -> 0.135 s).
                drop(std::mem::take(&mut typed.typing));
                drop(std::mem::take(&mut typed.resolution));
                // Release builds trust a pass's output (see `TypeckOptions::trusted`).
                let trusted = !observe.check_passes && !cfg!(debug_assertions);
                retired.push(std::mem::replace(&mut typed, recheck(program, name, trusted)?));
                rechecking = Some(recheck_started.elapsed().as_secs_f64());
                true
            }
            Some(Output::Typed(program, extension)) => {
                let mut resolution = std::mem::take(&mut typed.resolution);
                let mut typing = std::mem::take(&mut typed.typing);
                extension.apply(&mut resolution, &mut typing);
                retired.push(std::mem::replace(&mut typed, Box::new(TypedProgram { program, resolution, typing })));
                // Debug builds always compare (STYLE: a broken pass fails at the pass).
                if observe.check_passes || cfg!(debug_assertions) {
                    crate::typeck::compare::against_recheck(&typed).map_err(|difference| PassError::IllTyped {
                        pass: name,
                        diagnostics: vec![Diagnostic::error(
                            crate::diagnostics::Phase::Typecheck,
                            Span { file: crate::ast::FileId(u32::MAX), start: 0, end: 0 },
                            format!("its tables differ from checking its output again: {difference}"),
                        )],
                    })?;
                }
                true
            }
            None => false,
        };
        if changed && observe.check_passes {
            round_trip(&typed, name, sources)?;
        }
        if observe.trace {
            let what = match (changed, rechecking) {
                (true, Some(rechecking)) => format!("changed the program (checked again in {rechecking:.3} s)"),
                (true, None) => "changed the program (its types recorded by the pass)".to_string(),
                (false, _) => "no change".to_string(),
            };
            let _ = reporter
                .trace(out, &format!("[TRACE] pass {name}: {:.3} s, {what}\n", started.elapsed().as_secs_f64()));
        }
        if observe.print_after.iter().any(|p| p == name || p == "all") {
            let _ = reporter.output(out, &print_after(&typed, name, observe.pretty));
        }
    }
    Ok(typed)
}

/// `--print-after=PASS`: a comment naming the pass, then the program as Boogie text.
fn print_after(typed: &TypedProgram, pass: &str, pretty: bool) -> String {
    let printed = crate::printer::print_program(
        &typed.program,
        &crate::printer::PrintOptions { pretty, emit: false, where_comments: false, ..Default::default() },
    );
    format!("// rboogie: the program after pass {pass}\n\n{printed}\n")
}

/// `--check-passes`: `typed` printed as Boogie text must parse and check again (the text
/// `--print-after` shows is a program, not only the tree). The text is added to `sources` as
/// `<after PASS>`, so that a failure points into it.
fn round_trip(typed: &TypedProgram, pass: &'static str, sources: &mut SourceMap) -> Result<(), PassError> {
    let text = crate::printer::print_program(&typed.program, &Default::default());
    let name = format!("<after {pass}>");
    let file = sources.add(&name, &name, text);
    let program =
        crate::parser::parse(sources, file, &[]).map_err(|diagnostics| PassError::IllTyped { pass, diagnostics })?;
    recheck(program, pass, false).map(drop)
}

/// Resolves and type-checks a pass's output again (`trusted`: see
/// [`TypeckOptions::trusted`]). Warnings were reported for the input.
/// Modifies clauses are not checked again: inlined code assigns the globals its callee
/// modifies, which Boogie does not hold against the caller's clause either (it re-checks
/// inlined implementations with errors ignored).
fn recheck(program: Program, pass: &'static str, trusted: bool) -> Result<Box<TypedProgram>, PassError> {
    let typeck_options = TypeckOptions { infer_modifies: true, threads: true, trusted, pass_output: true };
    match crate::typeck::run(program, &typeck_options, false) {
        Outcome::Typed(typed, _warnings) => Ok(typed),
        Outcome::ResolutionFailed(diagnostics) | Outcome::TypecheckFailed { diagnostics, .. } => {
            Err(PassError::IllTyped { pass, diagnostics })
        }
    }
}

#[cfg(test)]
pub(crate) mod tests {
    use super::*;

    /// A source text resolved and type-checked (pass tests start from it).
    pub(crate) fn typed(text: &str) -> Box<TypedProgram> {
        typed_with(text, &TypeckOptions::default())
    }

    /// A pass's printed output resolved and type-checked again, as the pipeline re-checks it
    /// ([`TypeckOptions::pass_output`]: statement ids and axiom names may repeat).
    pub(crate) fn typed_output(text: &str) -> Box<TypedProgram> {
        typed_with(text, &TypeckOptions { pass_output: true, ..TypeckOptions::default() })
    }

    pub(crate) fn typed_with(text: &str, options: &TypeckOptions) -> Box<TypedProgram> {
        let mut sources = SourceMap::new();
        let id = sources.add("t.bpl", "t.bpl", text.to_string());
        let program = crate::parser::parse(&mut sources, id, &[]).expect("parses");
        match crate::typeck::run(program, options, false) {
            Outcome::Typed(typed, _) => typed,
            _ => panic!("does not type-check:\n{text}"),
        }
    }

    /// A pass's failure at a span in no file (a datatype cycle, which resolution reports at
    /// no token) is reported at Boogie's `(0,-1)`, not a panic.
    #[test]
    fn a_failure_at_no_position_is_reported_at_boogies_no_token() {
        let nowhere = Span { file: crate::ast::FileId(u32::MAX), start: 0, end: 0 };
        let error = PassError::IllTyped {
            pass: "monomorphize",
            diagnostics: vec![Diagnostic::error(crate::diagnostics::Phase::Resolve, nowhere, "not well-founded")],
        };
        let mut out = Vec::new();
        let reporter = Reporter::new(crate::report::Format::Boogie, false);
        let code = error.report(&SourceMap::new(), &reporter, &mut out).expect("writes");
        assert_eq!(code, 2);
        let text = String::from_utf8(out).expect("text");
        assert!(text.contains("(0,-1): rboogie: internal error after pass monomorphize: not well-founded"), "{text}");
    }

    /// Every `.bpl` under `dir`, at any depth, in order.
    fn bpl_files(dir: &std::path::Path, out: &mut Vec<std::path::PathBuf>) {
        let entries = walkdir::WalkDir::new(dir).sort_by_file_name().into_iter().flatten();
        out.extend(
            entries
                .filter(|e| e.file_type().is_file() && e.path().extension().is_some_and(|x| x == "bpl"))
                .map(walkdir::DirEntry::into_path),
        );
    }

    /// Checks `program` trusted ([`TypeckOptions::trusted`]) and compares the tables with a
    /// full check's; `None` when the full check fails (nothing to compare with).
    fn trusted_difference(program: Program) -> Option<String> {
        let options = TypeckOptions { infer_modifies: true, threads: true, trusted: true, pass_output: true };
        // Only a well-typed program's tables are claimed: a trusted check need not find a
        // type error (`x + true` is an `int` to it).
        let full = TypeckOptions { trusted: false, ..options };
        if !matches!(crate::typeck::run(program.clone(), &full, false), Outcome::Typed(..)) {
            return None;
        }
        match crate::typeck::run(program, &options, false) {
            Outcome::Typed(typed, _) => crate::typeck::compare::against_recheck(&typed).err(),
            _ => None,
        }
    }

    /// A trusted check gives a well-typed program the tables a full check gives: every input
    /// of the repository's corpora (when it type-checks) and what the default passes make of
    /// it. `BOOGIE_TESTS=DIR` adds the `.bpl` files under DIR (Boogie's `Test/`).
    #[test]
    fn a_trusted_check_gives_the_full_checks_tables() {
        // Boogie's deepest programs need the binary's stack, not a test thread's.
        let worker = std::thread::Builder::new().stack_size(1 << 30).spawn(trusted_checks).expect("a thread");
        if let Err(panic) = worker.join() {
            std::panic::resume_unwind(panic);
        }
    }

    fn trusted_checks() {
        let mut files = Vec::new();
        for dir in ["tests", "examples"] {
            bpl_files(std::path::Path::new(dir), &mut files);
        }
        if let Some(dir) = std::env::var_os("BOOGIE_TESTS") {
            bpl_files(std::path::Path::new(&dir), &mut files);
        }
        let passes = pipeline(&PipelineConfig::default());
        let mut compared = 0;
        for path in &files {
            let Ok(text) = std::fs::read_to_string(path) else { continue };
            let mut sources = SourceMap::new();
            let id = sources.add("t.bpl", "t.bpl", text);
            let Ok(program) = crate::parser::parse(&mut sources, id, &[]) else { continue };
            if let Some(difference) = trusted_difference(program.clone()) {
                panic!("{}: {difference}", path.display());
            }
            let typed = match crate::typeck::run(program, &TypeckOptions::default(), false) {
                Outcome::Typed(typed, _) => typed,
                _ => continue,
            };
            let reporter = Reporter::new(crate::report::Format::Boogie, false);
            let observe = Observe { check_passes: true, ..Observe::default() };
            let mut sink = io::sink();
            let Ok(transformed) = run(typed, &passes, &observe, &mut sources, &reporter, &mut sink, &mut Vec::new())
            else {
                continue;
            };
            if let Some(difference) = trusted_difference(transformed.program.clone()) {
                panic!("{} after the passes: {difference}", path.display());
            }
            compared += 1;
        }
        assert!(compared > 100, "only {compared} programs compared");
    }

    /// Pass tests print the transformed program and parse it back: the printed text must
    /// resolve and type-check, and printing it again must give the same text.
    #[test]
    fn every_golden_input_prints_a_program_that_checks_again() {
        let dir = std::path::Path::new("tests/golden/passes");
        for entry in std::fs::read_dir(dir).expect("golden directory") {
            let path = entry.expect("entry").path();
            if path.extension().is_none_or(|e| e != "bpl") {
                continue;
            }
            let text = std::fs::read_to_string(&path).expect("readable");
            // A case that expects the run to fail (`// EXIT: N`) has no program to print.
            if text.lines().any(|l| l.starts_with("// EXIT:") && l.trim() != "// EXIT: 0") {
                continue;
            }
            let reporter = Reporter::new(crate::report::Format::Boogie, false);
            let passes = pipeline(&PipelineConfig::default());
            let transformed = run(
                typed(&text),
                &passes,
                &Observe::default(),
                &mut SourceMap::new(),
                &reporter,
                &mut io::sink(),
                &mut Vec::new(),
            )
            .unwrap_or_else(|e| {
                panic!("{}: passes failed: {e:?}", path.display());
            });
            let printed = crate::printer::print_program(&transformed.program, &Default::default());
            let again = typed_output(&printed);
            let reprinted = crate::printer::print_program(&again.program, &Default::default());
            assert_eq!(printed, reprinted, "{}", path.display());
        }
    }
}
