//! Verification coverage (Boogie's `/trackVerificationCoverage` and `/warnVacuousProofs`):
//! which assumptions, assertions, contract clauses, assignments and axioms with an `{:id}` a
//! proof used.
//!
//! Expects the block program of an implementation as [`super::cfg::lower`] makes it (loop
//! invariants still assertions at their loop heads). Guarantees [`super::Cmd::Track`] markers
//! before each command with an `{:id "X"}` (an assertion, an assumption, an assignment, a
//! call), with Boogie's labels (`TrackedNodeComponent.SolverLabel`); loop cutting turns an
//! invariant's label `X` into `X$established`, `X$maintained` and `X$assume_in_body`
//! ([`invariant`]), and passification tracks a call's `{:id "C"}` callee clauses as
//! `R$C$requires` and `E$C$ensures` ([`call_requires`], [`call_ensures`]).
//!
//! How the solver says what a proof used (Boogie's `NamedAssumeOp`/`NamedAssertOp`): a tracked
//! assumption `e` is assumed as `l ==> e` and a tracked assertion checked as `l && e`, with a
//! fresh boolean `l` per label, and the VC is checked under the assumption of every `l`; after
//! `unsat`, the literals of the solver's unsat core are the labels the proof needed.
//!
//! `/warnVacuousProofs` first gives every assertion (but `assert true`), assumption, call,
//! `requires` and non-free `ensures` without an `{:id}` one of Boogie's generated ids
//! (`id_l<line>_c<col>_<kind>_<n>`, `CoverageAnnotator`), and an implementation goal (an
//! assertion or an `ensures`) that no proof used is reported as proved vacuously.

use std::sync::Arc;

use rustc_hash::FxHashSet;

use super::{AssumeAttrs, Block, Cmd};
use crate::ast::{AttrParam, Attribute, Span};
use crate::source::SourceMap;

/// The `{:id "X"}` of a node (the first, as Boogie's `FindStringAttribute`).
pub fn id_attr(attrs: &[Attribute]) -> Option<&str> {
    attrs.iter().find(|a| a.key == "id").and_then(|a| match a.params.first() {
        Some(AttrParam::Str(s, _)) => Some(s.as_str()),
        _ => None,
    })
}

/// An invariant's labels once its loop is cut: established on entry, maintained by an
/// iteration, assumed in the body.
pub fn invariant(label: &str) -> [Arc<str>; 3] {
    [
        format!("{label}$established").into(),
        format!("{label}$maintained").into(),
        format!("{label}$assume_in_body").into(),
    ]
}

/// The label of callee precondition `requires` asserted at call `call`.
pub fn call_requires(call: &str, requires: &str) -> String {
    format!("{requires}${call}$requires")
}

/// The label of callee precondition `requires` assumed at call `call` (a free one).
pub fn call_requires_assumed(call: &str, requires: &str) -> String {
    format!("{requires}${call}$requires_assumed")
}

/// The label of callee postcondition `ensures` assumed after call `call`.
pub fn call_ensures(call: &str, ensures: &str) -> String {
    format!("{ensures}${call}$ensures")
}

/// What Boogie prints for a label (`TrackedNodeComponent.Description`).
pub fn describe(label: &str) -> String {
    let parts: Vec<&str> = label.split('$').collect();
    match parts.as_slice() {
        [r, c, "requires"] => format!("requires clause {r} proved for call {c}"),
        [r, c, "requires_assumed"] => format!("requires clause {r} assumed from call {c}"),
        [e, c, "ensures"] => format!("ensures clause {e} from call {c}"),
        [i, "established"] => format!("invariant {i} established"),
        [i, "maintained"] => format!("invariant {i} maintained"),
        [i, "assume_in_body"] => format!("invariant {i} assumed in body"),
        _ => label.to_string(),
    }
}

/// Whether the goal with id `goal` counts as covered by `covered` (Boogie's `CoveredId`): its
/// own label, or, for an invariant, its establishment or maintenance.
pub fn goal_covered(goal: &str, covered: &FxHashSet<String>) -> bool {
    covered.contains(goal)
        || covered.contains(&format!("{goal}$established"))
        || covered.contains(&format!("{goal}$maintained"))
}

/// Descriptions sorted as Boogie sorts them (`OrderBy(s => s)`, .NET's culture-aware string
/// comparison): punctuation and symbols before digits, digits before letters, letters
/// without regard to case first, lower case before upper case on a tie. Hand-written: no
/// collation crate among the dependencies, and the labels are ASCII in practice.
pub fn sort_descriptions(descriptions: &mut [String]) {
    fn primary(c: char) -> (u8, u32) {
        if c.is_whitespace() {
            (0, c as u32)
        } else if c.is_ascii_punctuation() {
            // ICU puts the connectors and dashes before the other punctuation, and the
            // symbols (`$`, `+`, `<`, ...) after all of it.
            let rank = "_-,;:!?.'\"()[]{}@*/\\&#%`^+<=>|~$".find(c).map_or(64, |i| i as u32);
            (1, rank)
        } else if c.is_ascii_digit() {
            (2, c as u32)
        } else if c.is_alphabetic() {
            (3, c.to_lowercase().next().unwrap_or(c) as u32)
        } else {
            (4, c as u32)
        }
    }
    // Primary keys, then lower case first on a tie, then the code points.
    descriptions.sort_by_cached_key(|s| {
        let primary: Vec<(u8, u32)> = s.chars().map(primary).collect();
        let case: Vec<bool> = s.chars().map(char::is_uppercase).collect();
        (primary, case, s.clone())
    });
}

/// Boogie's `CoverageAnnotator` state over a run: the ids met so far (a repeated id is
/// replaced by a generated one) and the counter of generated ids.
#[derive(Debug, Default)]
pub struct Annotator {
    pub seen: FxHashSet<String>,
    pub count: usize,
}

/// An implementation goal under `/warnVacuousProofs`: its id and where it is.
#[derive(Clone, Debug)]
pub struct Goal {
    pub id: String,
    pub span: Span,
}

impl Annotator {
    /// The id of a node of `kind` at `span` with `written` id: the written one when it was not
    /// met before, else a generated one (`generate` off: the written one or none).
    pub fn id(
        &mut self,
        written: Option<&str>,
        kind: &str,
        span: Span,
        sources: &SourceMap,
        generate: bool,
    ) -> Option<String> {
        if !generate {
            return written.map(str::to_string);
        }
        let id = match written {
            Some(w) if !self.seen.contains(w) => w.to_string(),
            _ => {
                let (line, col) = match sources.try_position(span) {
                    Some(p) => (p.line, p.col as i64),
                    None => (0, 0),
                };
                loop {
                    let candidate = format!("id_l{line}_c{col}_{kind}_{}", self.count);
                    self.count += 1;
                    if !self.seen.contains(&candidate) {
                        break candidate;
                    }
                }
            }
        };
        self.seen.insert(id.clone());
        Some(id)
    }
}

/// Puts a [`Cmd::Track`] before every command of `blocks` with an id, in block order (the
/// order of Boogie's annotator); under `generate` (`/warnVacuousProofs`) every assertion but
/// `assert true`, assumption and call gets one, and the assertions' ids go to `goals`.
pub fn annotate<'a>(
    blocks: &mut [Block<'a>],
    annotator: &mut Annotator,
    sources: &SourceMap,
    generate: bool,
    goals: &mut Vec<Goal>,
) {
    for block in blocks.iter_mut() {
        let mut cmds = Vec::with_capacity(block.cmds.len());
        for cmd in std::mem::take(&mut block.cmds) {
            let label = match &cmd {
                Cmd::Assert { expr, check, attrs, .. } => {
                    let literal_true = matches!(expr.kind, crate::ast::ExprKind::BoolLit(true));
                    let id = annotator.id(id_attr(attrs), "assert", check.tok, sources, generate && !literal_true);
                    if let Some(id) = &id
                        && generate
                        && !literal_true
                    {
                        goals.push(Goal { id: id.clone(), span: check.tok });
                    }
                    id
                }
                Cmd::Assume { expr, attrs, .. } => {
                    let (written, span) = match attrs {
                        AssumeAttrs::Written(a, at) => (id_attr(a), *at),
                        AssumeAttrs::Partition(stmt) => (None, *stmt),
                        _ => (None, expr.span),
                    };
                    match attrs {
                        AssumeAttrs::Written(..) | AssumeAttrs::Partition(_) => {
                            annotator.id(written, "assume", span, sources, generate)
                        }
                        _ => None,
                    }
                }
                Cmd::Assign { attrs, .. } => id_attr(attrs).map(str::to_string),
                Cmd::Call(call) => annotator.id(id_attr(&call.attrs), "call", call.span, sources, generate),
                _ => None,
            };
            if let Some(label) = label {
                cmds.push(Cmd::Track(label.into()));
            }
            cmds.push(cmd);
        }
        block.cmds = cmds;
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// Labels read back as Boogie describes them; a plain id is itself.
    #[test]
    fn labels_are_described_in_boogies_words() {
        assert_eq!(describe(&call_requires("c", "r")), "requires clause r proved for call c");
        assert_eq!(describe(&call_requires_assumed("c", "r")), "requires clause r assumed from call c");
        assert_eq!(describe(&call_ensures("c", "e")), "ensures clause e from call c");
        let [established, maintained, assumed] = invariant("i");
        assert_eq!(describe(&established), "invariant i established");
        assert_eq!(describe(&maintained), "invariant i maintained");
        assert_eq!(describe(&assumed), "invariant i assumed in body");
        assert_eq!(describe("x_gt_10"), "x_gt_10");
    }

    /// .NET's culture-aware order: `_` before digits, digits before letters, case ignored
    /// first (Boogie's lists put `a_gt_10` before `a0`, `tee_not_1` before `tee0`).
    #[test]
    fn descriptions_sort_as_boogie_sorts_them() {
        let mut names: Vec<String> =
            ["tee0", "a0", "Zeta", "tee_not_1", "a_gt_10", "assert_a0", "beta", "invariant s1 x", "invariant s_1 x"]
                .iter()
                .map(|s| s.to_string())
                .collect();
        sort_descriptions(&mut names);
        assert_eq!(
            names,
            ["a_gt_10", "a0", "assert_a0", "beta", "invariant s_1 x", "invariant s1 x", "tee_not_1", "tee0", "Zeta"]
        );
    }

    /// An invariant counts as covered by its establishment or maintenance, not by its
    /// assumption alone.
    #[test]
    fn an_invariant_goal_is_covered_by_either_check() {
        let covered: FxHashSet<String> = ["i$maintained", "j$assume_in_body"].iter().map(|s| s.to_string()).collect();
        assert!(goal_covered("i", &covered));
        assert!(!goal_covered("j", &covered));
    }
}
