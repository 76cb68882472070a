//! Passes: BoogiePL to BoogiePL transformations between type checking and verification.
//!
//! Expects a type-checked program. Guarantees a type-checked program that verifies exactly
//! when the input does under Boogie's semantics, in which the constructs a pass removes no
//! longer occur (calls inlined, polymorphism instantiated, lambdas lifted).
//!
//! How: [`PASSES`] is the one ordered list, in Boogie's order (monomorphization at the end of
//! type checking, inlining in `ProcessProgram`, lambda lifting just before verification).
//! Each pass reads the [`TypedProgram`] and returns a new [`Program`] when it changed
//! anything; the driver here resolves and type-checks that program again, so every later
//! stage sees fresh side tables and a pass that builds an ill-typed program fails at the pass
//! (STYLE's "re-check after every pass"). Nodes a pass creates inherit the span of the node
//! they replace.
//!
//! The same list names the passes for `--print-after=PASS` (the program after that pass, as
//! Boogie text that parses and type-checks again, on stdout; the run then goes on) and for
//! `/trace`, which prints one line per pass with the time it took, re-checking included.

mod civl;
mod datatypes;
mod erase_types;
pub mod inline;
mod lambda;
mod loop_unroll;
mod modifies;
mod monomorphize;
pub(crate) mod rewrite;

use std::io::{self, Write};
use std::sync::atomic::{AtomicU32, Ordering};

use crate::ast::{Program, Span};
use crate::cli::Options;
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
        let at = |span: Span| {
            let p = sources.position(span);
            format!("{}({},{})", p.file, p.line, p.col)
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

/// A pass: a new program when it changed anything. Text a pass prints for the user (Boogie's
/// `/printInlined`) goes to the log, written after the pass; warnings go there through
/// [`warning`].
pub type Pass = fn(&TypedProgram, &Options, &mut String) -> Result<Option<Program>, PassError>;

/// The attribute marking the assertion an unpack command becomes ([`datatypes`]): vcgen
/// reports its failure in Boogie's words for unpacks.
pub const UNPACK_CHECK: &str = "rboogie_unpack";

/// The attribute marking an inlined callee's `ensures` ([`inline`]): Boogie's
/// `AssertEnsuresCmd`, whose failure vcgen reports as a postcondition's, on the return path
/// its block's goto ends. Never printed.
pub const INLINED_ENSURES: &str = "rboogie_inlined_ensures";

/// Every pass, in the order they run.
pub const PASSES: &[(&str, Pass)] = &[
    ("civl", civl::run),
    ("modifies", modifies::run),
    ("datatypes", datatypes::run),
    ("lambda", lambda::run),
    ("monomorphize", monomorphize::run),
    ("erase-types", erase_types::run),
    ("inline", inline::run),
    ("unroll", loop_unroll::run),
];

/// Runs every pass, re-checking the program after each one that changed it; what the passes
/// print goes to `out` through `reporter`, positions as `sources` gives them.
pub fn run(
    mut typed: Box<TypedProgram>,
    options: &Options,
    sources: &mut SourceMap,
    reporter: &Reporter,
    out: &mut dyn Write,
) -> Result<Box<TypedProgram>, PassError> {
    for (name, pass) in PASSES {
        let started = std::time::Instant::now();
        let mut log = String::new();
        let changed = pass(&typed, options, &mut log);
        // A failed write is the driver's to report, at its next write.
        // What `/printInlined` printed moved the tokens of the nodes it printed.
        let (log, moves) = crate::moved::resolve(&log);
        sources.move_tokens(moves);
        let _ = reporter.output(out, &render_warnings(&log, sources));
        let changed = match changed? {
            Some(program) => {
                typed = recheck(program, name)?;
                true
            }
            None => false,
        };
        if options.trace {
            let what = if changed { "changed the program" } else { "no change" };
            let _ = reporter
                .trace(out, &format!("[TRACE] pass {name}: {:.3} s, {what}\n", started.elapsed().as_secs_f64()));
        }
        if options.print_after.iter().any(|p| p == name || p == "all") {
            let _ = reporter.output(out, &print_after(&typed, name, options));
        }
    }
    Ok(typed)
}

/// `--print-after=PASS`: a comment naming the pass, then the program as Boogie text.
fn print_after(typed: &TypedProgram, pass: &str, options: &Options) -> String {
    let printed = crate::printer::print_program(
        &typed.program,
        &crate::printer::PrintOptions {
            pretty: options.pretty,
            emit: false,
            where_comments: false,
            ..Default::default()
        },
    );
    format!("// rboogie: the program after pass {pass}\n\n{printed}\n")
}

/// Marks a warning line in a pass's log until [`run`], which has the sources, positions it.
const WARNING_MARK: char = '\u{1}';

/// Writes a warning into a pass's log; it is printed in Boogie's form,
/// `file(line,col): Warning: message`.
pub fn warning(log: &mut String, span: Span, message: &str) {
    log.push_str(&format!("{WARNING_MARK}{} {} {message}\n", span.file.0, span.start));
}

fn render_warnings(log: &str, sources: &SourceMap) -> String {
    if !log.contains(WARNING_MARK) {
        return log.to_string();
    }
    let mut out = String::with_capacity(log.len());
    for line in log.split_inclusive('\n') {
        let Some(marked) = line.strip_prefix(WARNING_MARK) else {
            out.push_str(line);
            continue;
        };
        let mut parts = marked.splitn(3, ' ');
        let file = parts.next().and_then(|f| f.parse().ok()).unwrap_or(0);
        let start = parts.next().and_then(|s| s.parse().ok()).unwrap_or(0);
        let p = sources.position(Span { file: crate::ast::FileId(file), start, end: start });
        out.push_str(&format!("{}({},{}): Warning: {}", p.file, p.line, p.col, parts.next().unwrap_or("\n")));
    }
    out
}

/// Resolves and type-checks a pass's output again. Warnings were reported for the input.
/// Modifies clauses are not checked again: inlined code assigns the globals its callee
/// modifies, which Boogie does not hold against the caller's clause either (it re-checks
/// inlined implementations with errors ignored).
fn recheck(program: Program, pass: &'static str) -> Result<Box<TypedProgram>, PassError> {
    let typeck_options = TypeckOptions { infer_modifies: true };
    match crate::typeck::run(program, &typeck_options, false) {
        Outcome::Typed(typed, _warnings) => Ok(typed),
        Outcome::ResolutionFailed(diagnostics) | Outcome::TypecheckFailed { diagnostics, .. } => {
            Err(PassError::IllTyped { pass, diagnostics })
        }
    }
}

/// Fresh positions, past the end of any file, for identifiers a pass copies: resolution keys
/// identifier occurrences by position, so two copies of one occurrence that must name
/// different things need positions of their own. They print as the end of their file.
static NEXT_FRESH: AtomicU32 = AtomicU32::new(1 << 31);

pub fn fresh_span(like: Span) -> Span {
    let start = NEXT_FRESH.fetch_add(1, Ordering::Relaxed);
    Span { file: like.file, start, end: start }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// A source text resolved and type-checked (pass tests start from it).
    pub(super) fn typed(text: &str) -> Box<TypedProgram> {
        let mut sources = SourceMap::new();
        let id = sources.add("t.bpl", "t.bpl", text.to_string());
        let program = crate::parser::parse(&mut sources, id, &[]).expect("parses");
        match crate::typeck::run(program, &TypeckOptions::default(), false) {
            Outcome::Typed(typed, _) => typed,
            _ => panic!("does not type-check:\n{text}"),
        }
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
            let reporter = Reporter::new(crate::report::Format::Boogie, false);
            let transformed = run(typed(&text), &Options::default(), &mut SourceMap::new(), &reporter, &mut io::sink())
                .unwrap_or_else(|e| {
                    panic!("{}: passes failed: {e:?}", path.display());
                });
            let printed = crate::printer::print_program(&transformed.program, &Default::default());
            let again = typed(&printed);
            let reprinted = crate::printer::print_program(&again.program, &Default::default());
            assert_eq!(printed, reprinted, "{}", path.display());
        }
    }
}
