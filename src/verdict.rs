//! What the verification of one implementation came to: decided once, from the verifier's
//! result, and printed by [`crate::report`] in every format.
//!
//! Expects an [`ImplResult`] from [`crate::vcgen::verify_program`]. [`decide`] guarantees a
//! [`Verdict`] in which everything Boogie's output says about the implementation is data: the
//! outcome, what it adds to the closing line's counts, each error with its positions resolved
//! (the file, line and column Boogie prints, `/print`-moved places included) and its
//! execution trace, and the message Boogie prints for the other outcomes. Nothing here
//! prints: `report` renders a verdict as Boogie's text and as a JSON event from the same
//! fields, so that the two cannot disagree, and the JSON event carries the text.
//!
//! The decisions are Boogie's (`ExecutionEngine.ProcessOutcome` and `ConsolePrinter`): every
//! split's errors count in the closing line, but an assertion that fails in several splits is
//! shown once (`DistinctBy(FailingAssert)`), in Boogie's order of errors
//! ([`crate::vcgen::trace::sort`]); time outs, out of resource and out of memory are messages
//! at the implementation's name (`GetOutcomeError`).

use crate::report::Counts;
use crate::source::{Position, SourceMap};
use crate::vcgen::trace::{self, Counterexample};
use crate::vcgen::verify::ImplResult;
use crate::vcgen::wlp::check_key;
use crate::vcgen::{CheckKind, ImplOutcome};

/// The outcome of an implementation, as JSON names it (`outcome`).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Outcome {
    Verified,
    Errors,
    TimedOut,
    OutOfResource,
    OutOfMemory,
    /// The solver could not decide, or gave no usable path.
    Inconclusive,
    /// The solver failed (died, answered nonsense).
    SolverException,
    /// The solver rejected the query rboogie wrote: rboogie's bug (exit code 70).
    InternalError,
    /// rboogie cannot encode the implementation; counted as inconclusive.
    Unsupported,
}

impl Outcome {
    pub fn name(self) -> &'static str {
        match self {
            Outcome::Verified => "verified",
            Outcome::Errors => "errors",
            Outcome::TimedOut => "timed_out",
            Outcome::OutOfResource => "out_of_resource",
            Outcome::OutOfMemory => "out_of_memory",
            Outcome::Inconclusive => "inconclusive",
            Outcome::SolverException => "solver_exception",
            Outcome::InternalError => "internal_error",
            Outcome::Unsupported => "unsupported",
        }
    }
}

/// A message about the implementation as a whole: Boogie's `Verification of 'P' timed out
/// after N seconds`, or the `{:msg_if_verifies}` of a verified one (which has no position).
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Note {
    pub at: Option<Position>,
    pub message: String,
}

/// The second place an error names: the postcondition or precondition that failed.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Related {
    pub at: Position,
    pub message: String,
}

/// One block of an execution trace: where it starts and its label. Blocks without a token
/// (those Boogie's translation adds) are at `(0,0)` with an empty file name.
///
/// This is the place for the values of the source variables at this point of the
/// counterexample (a `values` field in JSON) when the model's values are read for them;
/// none are read yet.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct TraceStep {
    pub at: Position,
    pub label: String,
}

/// One failed check.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct ErrorReport {
    /// Boogie's description of the failed check, or its `{:msg}`.
    pub message: String,
    /// The message is the check's `{:msg}`, which Boogie prints alone: no position, no
    /// related location.
    pub custom: bool,
    pub at: Position,
    pub related: Option<Related>,
    /// The trace as `/errorTrace:N` shows it; `None` under `/errorTrace:0` (no trace printed).
    pub trace: Option<Vec<TraceStep>>,
    /// `/enhancedErrorMessages:1`: the augmented execution trace, as Boogie prints it.
    pub augmented: String,
    /// Under `/printModel:1` or `/mv`, the counterexample's model as Boogie writes it.
    pub model: Option<String>,
    /// The variables the failing check reads, with their values in the counterexample (the
    /// rich and JSON formats show them; Boogie's does not).
    pub values: Vec<(String, String)>,
    /// Where Boogie prints the model: after the trace (`/printModel:1`, with a trace shown)
    /// and after the error (`/mv:-`).
    pub model_in_trace: bool,
    pub model_after_error: bool,
    /// Where among its query's stages the counterexample was found (context-bounded
    /// checking: the context bound it needs).
    pub stage: Option<crate::vcgen::trace::Stage>,
}

/// Where models are printed ([`ErrorReport::model`]).
#[derive(Clone, Copy, Debug, Default)]
pub struct Models {
    /// `/printModel:1`.
    pub in_trace: bool,
    /// `/mv:-`.
    pub after_error: bool,
}

/// How errors are worded.
#[derive(Clone, Copy, Debug, Default)]
pub struct Wording {
    /// `/forceBplErrors`: Boogie's own message, position and related location even for a
    /// check with a `{:msg "..."}` (which is otherwise printed alone, in their place).
    pub force_bpl_errors: bool,
}

/// What an implementation's verification came to.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Verdict {
    pub name: String,
    /// Its place among the implementations the options select, in program order (0-based,
    /// the same whatever the shard): the order in which Boogie reports them.
    pub order: usize,
    /// The implementation's name in the source.
    pub at: Position,
    pub outcome: Outcome,
    /// Shown errors, in Boogie's order (only for [`Outcome::Errors`]).
    pub errors: Vec<ErrorReport>,
    pub note: Option<Note>,
    /// What Boogie prints before the errors: the solver's error (set here), then under
    /// `/printSplit:-` each split's passive program (the driver adds these: where splits go is
    /// the command line's business).
    pub splits: String,
    /// What the implementation adds to the closing line.
    pub counts: Counts,
    /// Under `/trackVerificationCoverage`, what its proofs used (the driver sets it).
    pub coverage: Option<Coverage>,
    /// The assertions its VCs checked (`/trace`'s proof obligations).
    pub proof_obligations: usize,
    /// Under `/trace`, what z3 spent on it (`solver resource count`).
    pub resource_count: u64,
}

/// An implementation's verification coverage (`/trackVerificationCoverage`).
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct Coverage {
    /// Boogie's descriptions of what its proofs used, in Boogie's order.
    pub used: Vec<String>,
    /// Under `/warnVacuousProofs`, the goals no proof used, where they are.
    pub vacuous: Vec<Position>,
}

/// Decides the verdict of one implementation; `error_trace` is `/errorTrace:N`. Its printed
/// splits are left to the caller.
pub fn decide(result: ImplResult, sources: &SourceMap, error_trace: u32, models: Models, wording: Wording) -> Verdict {
    let ImplResult {
        name,
        order,
        span,
        outcome,
        message_if_verified,
        time_limit,
        proof_obligations,
        resource_count,
        ..
    } = result;
    let at = trace::position(sources, span);
    let here = |message: String| Some(Note { at: Some(at.clone()), message });
    let mut errors = Vec::new();
    // The solver's error Boogie prints before the verdict, if any.
    let mut prover_error = String::new();
    let mut errors_counted = 0;
    let (outcome, note) = match outcome {
        ImplOutcome::Verified => (Outcome::Verified, message_if_verified.map(|message| Note { at: None, message })),
        ImplOutcome::Errors(mut found) => {
            // Every split's errors count; an assertion that fails in several is shown once.
            errors_counted = found.len();
            let mut shown = rustc_hash::FxHashSet::default();
            found.retain(|e| shown.insert(check_key(&e.check)));
            let sources = sources.for_implementation(&name);
            trace::sort(&mut found, &sources);
            errors = found.iter().map(|e| error_report(&sources, e, error_trace, models, wording)).collect();
            (Outcome::Errors, None)
        }
        ImplOutcome::TimedOut => {
            (Outcome::TimedOut, here(format!("Verification of '{name}' timed out after {time_limit} seconds")))
        }
        ImplOutcome::OutOfResource => (Outcome::OutOfResource, here(format!("Verification out of resource ({name})"))),
        ImplOutcome::OutOfMemory => (Outcome::OutOfMemory, here(format!("Verification out of memory ({name})"))),
        ImplOutcome::Inconclusive => (Outcome::Inconclusive, here(format!("Verification inconclusive ({name})"))),
        ImplOutcome::SolverException(why) => {
            // Boogie's message at the implementation (`GetOutcomeError`), after what the
            // solver did, as Boogie prints a prover's error before its verdict.
            prover_error = format!("Prover error: {why}\n");
            (Outcome::SolverException, here(format!("Verification encountered solver exception ({name})")))
        }
        ImplOutcome::Rejected { message, builtins, .. } if builtins || is_solver_limitation(&message) => {
            // A query the solver reads but cannot decide ("Regular expression variables are
            // not supported"), or one with the program's own `{:builtin}` operators, which go
            // to the solver as written (a `(_ to_fp 8 24)` declared to return `float11e5`):
            // not known to be rboogie's bug. Boogie prints the solver's answer as a prover
            // error and the implementation is inconclusive (`HandleProverError`, outcome
            // `Undetermined`).
            let quoted = message.replace('"', "\"\"");
            prover_error = format!("Prover error: Unexpected prover response: (error \"{quoted}\")\n\n");
            (Outcome::Inconclusive, here(format!("Verification inconclusive ({name})")))
        }
        ImplOutcome::Rejected { message, query, .. } => {
            let saved = query.map(|path| format!("; the query is in {}", path.display())).unwrap_or_default();
            let message = format!(
                "rboogie internal error: the solver rejected the query rboogie wrote for {name}: {message}{saved}"
            );
            (Outcome::InternalError, here(message))
        }
        ImplOutcome::Unsupported(u) => {
            // Not a verdict, with the reason, where the construct is.
            let note = Note {
                at: Some(u.span.map_or_else(|| at.clone(), |s| trace::position(sources, s))),
                message: format!("rboogie: cannot verify {name}: {} not supported yet", u.what),
            };
            (Outcome::Unsupported, Some(note))
        }
    };
    let counts = counts_of(outcome, errors_counted);
    Verdict {
        name,
        order,
        at,
        outcome,
        errors,
        note,
        splits: prover_error,
        counts,
        coverage: None,
        proof_obligations,
        resource_count,
    }
}

/// Whether a solver's error message says the solver cannot handle a construct of a well-formed
/// query (cvc5's "Regular expression variables are not supported", "Cannot handle
/// nested-recursive datatype"), rather than that the query is malformed. A command or option
/// the solver does not know is rboogie's mistake, whatever the words ("unsupported command").
fn is_solver_limitation(message: &str) -> bool {
    let message = message.to_ascii_lowercase();
    (message.contains("not supported") || message.contains("cannot handle"))
        && !message.contains("command")
        && !message.contains("option")
}

/// What an outcome adds to Boogie's closing line: `errors` for [`Outcome::Errors`], one of its
/// kind for the others. rboogie's own outcomes count where Boogie would put them: a query the
/// solver rejected (rboogie's bug, also said by the exit code) with the solver failures, an
/// implementation rboogie cannot encode as inconclusive.
fn counts_of(outcome: Outcome, errors: usize) -> Counts {
    let mut counts = Counts::default();
    match outcome {
        Outcome::Verified => counts.verified = 1,
        Outcome::Errors => counts.errors = errors,
        Outcome::TimedOut => counts.timeouts = 1,
        Outcome::OutOfResource => counts.out_of_resource = 1,
        Outcome::OutOfMemory => counts.out_of_memory = 1,
        Outcome::Inconclusive | Outcome::Unsupported => counts.inconclusive = 1,
        Outcome::SolverException | Outcome::InternalError => counts.solver_exceptions = 1,
    }
    counts
}

/// One error as Boogie reports it (`Counterexample.CreateErrorInformation` and `Print`).
fn error_report(
    sources: &SourceMap,
    c: &Counterexample,
    error_trace: u32,
    models: Models,
    wording: Wording,
) -> ErrorReport {
    // Boogie words a loop invariant's failure its own way whatever its `{:msg}`
    // (`CreateErrorInformation` reads the message only of the other checks).
    let invariant = matches!(c.check.kind, CheckKind::LoopInit | CheckKind::LoopMaintained);
    let custom = c.check.msg.as_ref().filter(|_| !wording.force_bpl_errors && !invariant);
    let related = |span, message: &str| Some(Related { at: trace::position(sources, span), message: message.into() });
    let related = match c.check.kind {
        CheckKind::Ensures => related(c.check.tok, "this is the postcondition that could not be proved"),
        CheckKind::Requires { requires } => related(requires, "this is the precondition that could not be proved"),
        CheckKind::MeasureRequires { requires } => {
            related(requires, "this measure could not be proved to be non-negative")
        }
        _ => None,
    };
    let trace = (error_trace > 0).then(|| {
        c.trace
            .iter()
            .filter_map(|b| {
                let at = match b.tok {
                    Some(tok) if sources.files().any(|(id, _)| id == tok.file) => sources.block_position(tok),
                    Some(_) => Position { file: String::new(), line: 0, col: 0 },
                    None if error_trace >= 2 => Position { file: String::new(), line: 0, col: 0 },
                    None => return None,
                };
                Some(TraceStep { at, label: b.label.clone() })
            })
            .collect()
    });
    let augmented = c
        .augmented
        .iter()
        .map(|item| match item {
            crate::vcgen::passify::PrintItem::Text(t) | crate::vcgen::passify::PrintItem::Value(t) => t.as_str(),
        })
        .collect();
    ErrorReport {
        message: custom.cloned().or_else(|| c.check.describe.clone()).unwrap_or_else(|| c.description().to_string()),
        custom: custom.is_some(),
        at: trace::position(sources, c.tok()),
        related,
        trace,
        augmented,
        model: c.model.clone(),
        values: c.values.clone(),
        model_in_trace: models.in_trace && error_trace > 0,
        model_after_error: models.after_error,
        stage: c.stage,
    }
}
