//! Counterexamples: from the `ControlFlow` path the solver's model gives to Boogie's error
//! message, related location and execution trace.
//!
//! Expects the passive blocks and the [`Vc`] the path was read against. The path is Boogie's
//! `CalculatePath`: the values of `ControlFlow(0, 0)`, `ControlFlow(0, b1)`, ... up to a
//! negative value, the failing assertion's id. Messages, order and trace lines follow Boogie's
//! `Counterexample.CreateErrorInformation` and `CounterexampleComparer`; `crate::verdict` turns a
//! counterexample into the error Boogie prints.

use std::cmp::Ordering;

use super::passify::{PCmd, PassiveBlock, PrintItem};
use super::wlp::Vc;
use super::wlp::check_key;
use super::{Check, CheckKind};
use crate::ast::Span;
use crate::source::{Position, SourceMap};

#[derive(Clone, Debug)]
pub struct TraceBlock {
    pub tok: Option<Span>,
    pub label: String,
}

#[derive(Clone, Debug)]
pub struct Counterexample {
    pub check: Check,
    pub trace: Vec<TraceBlock>,
    /// For a postcondition: the return the path took.
    pub failing_return: Option<Span>,
    /// The `{:print}` attributes of the commands on the path up to the failing assertion
    /// (Boogie's augmented trace), their values read from the model by the caller.
    pub augmented: Vec<PrintItem>,
    /// The blocks of the path, by index in the split's blocks.
    pub blocks: Vec<usize>,
    /// Under `/printModel:1` or `/mv`, the model with its captured states, as Boogie writes it.
    pub model: Option<String>,
    /// The variables the failing check reads, with their values in the model (when asked for).
    pub values: Vec<(String, String)>,
    /// With stages ([`super::verify::VerifyOptions::stages`]), the one the solver found it in.
    pub stage: Option<Stage>,
}

/// Where a counterexample was found among the stages of its query.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Stage {
    /// The stage's index; the number of stages for the query itself.
    pub index: usize,
    /// Every stage before it was checked and has none.
    pub first: bool,
}

impl Counterexample {
    /// Where the error is reported.
    pub fn tok(&self) -> Span {
        match self.check.kind {
            CheckKind::Ensures => self.failing_return.unwrap_or(self.check.tok),
            _ => self.check.tok,
        }
    }

    pub fn description(&self) -> &'static str {
        match self.check.kind {
            CheckKind::Assert => "this assertion could not be proved",
            CheckKind::LoopInit => "this loop invariant could not be proved on entry",
            CheckKind::LoopMaintained => "this invariant could not be proved to be maintained by the loop",
            CheckKind::Ensures => "a postcondition could not be proved on this return path",
            CheckKind::Requires { .. } | CheckKind::MeasureRequires { .. } => {
                "a precondition for this call could not be proved"
            }
            CheckKind::Unpack => "the precondition for unpack could not be proved",
            CheckKind::MeasureDecreases => "measure could not be proved to decrease",
        }
    }
}

/// The counterexample a path describes; `None` when the path does not end at an assertion.
pub fn counterexample(blocks: &[PassiveBlock], vc: &Vc, path: &[i64]) -> Option<Counterexample> {
    let (&last, steps) = path.split_last()?;
    if last >= 0 {
        return None;
    }
    let check = vc.check(u32::try_from(-last).ok()?)?.clone();
    let mut trace = Vec::new();
    let mut failing_return = None;
    let mut final_block = None;
    let mut augmented = Vec::new();
    let mut path = Vec::new();
    let key = check_key(&check);
    for (n, &id) in steps.iter().enumerate() {
        let last = n + 1 == steps.len();
        let b = vc.block_ids.iter().position(|&x| i64::from(x) == id)?;
        let block = &blocks[b];
        path.push(b);
        if block.from_return {
            failing_return = block.ret;
        }
        trace.push(TraceBlock { tok: block.tok, label: block.label.clone() });
        final_block = Some(b);
        for c in &block.cmds {
            match c {
                PCmd::Print(items) => augmented.extend(items.iter().cloned()),
                // The failing assertion is in the last block (an inlined copy of it may be
                // in an earlier one: same key).
                PCmd::Assert(_, c, ..) if last && check_key(c) == key => break,
                _ => {}
            }
        }
    }
    if failing_return.is_none() {
        failing_return = final_block.and_then(|b| blocks[b].ret);
    }
    Some(Counterexample {
        check,
        trace,
        failing_return,
        augmented,
        blocks: path,
        model: None,
        values: Vec::new(),
        stage: None,
    })
}

/// Boogie's position of a span's start (where `/print` moved it, if it did); `(0,0)` with no
/// file name for a span outside the map.
pub fn position(sources: &SourceMap, span: Span) -> Position {
    if sources.files().any(|(id, _)| id == span.file) {
        sources.position(span)
    } else {
        sources.moved_position(span).unwrap_or(Position { file: String::new(), line: 0, col: 0 })
    }
}

/// Boogie's order of the errors of one implementation.
pub fn sort(errors: &mut [Counterexample], sources: &SourceMap) {
    let location = |c: &Counterexample| {
        let p = position(sources, c.tok());
        p.line * 1000 + i64::from(p.col)
    };
    errors.sort_by(|a, b| {
        location(a).cmp(&location(b)).then_with(|| {
            a.trace.len().cmp(&b.trace.len()).then_with(|| {
                for (x, y) in a.trace.iter().zip(&b.trace) {
                    let px = x.tok.map_or(0, |t| t.start);
                    let py = y.tok.map_or(0, |t| t.start);
                    if px != py {
                        return px.cmp(&py);
                    }
                }
                let assertion = |k: &CheckKind| {
                    matches!(
                        k,
                        CheckKind::Assert
                            | CheckKind::LoopInit
                            | CheckKind::LoopMaintained
                            | CheckKind::Unpack
                            | CheckKind::MeasureDecreases
                    )
                };
                if assertion(&a.check.kind) && assertion(&b.check.kind) {
                    return a.description().cmp(b.description());
                }
                Ordering::Equal
            })
        })
    });
}
