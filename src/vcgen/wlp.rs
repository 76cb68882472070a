//! The verification condition of a passive program: Barnett and Leino's weakest liberal
//! precondition of unstructured programs, one named boolean per block (Boogie's `LetVC`), so
//! the VC grows linearly with the passive program.
//!
//! Expects passive blocks forming a DAG with the entry first. Guarantees the SMT-LIB commands
//! that define `|B@correct|` for every block B, bottom-up, and assert the negated VC, plus the
//! maps from the `ControlFlow` ids in the VC back to blocks and proof obligations.
//!
//! As in Boogie, `ControlFlow(0, b) = s` says the failing path goes from block `b` to block
//! `s`, and `ControlFlow(0, b) = -a` that it fails at assertion `a` of block `b`; the model
//! then gives the path (see [`super::trace`]). Each assertion is also assumed after it is
//! checked (Boogie's default `/subsumption:2`), so a later assertion is not reported as failing
//! merely because an earlier one failed.

use rustc_hash::FxHashMap;
use std::fmt::Write;

use super::passify::{PCmd, PassiveBlock, topological_order};
use super::{Check, CheckKind};

/// A verification condition and the ids it uses.
pub struct Vc {
    /// `define-fun`s and the final `assert`.
    pub commands: String,
    /// The `ControlFlow` id of each block (its index + 1).
    pub block_ids: Vec<u32>,
    /// Proof obligations by id (from 1); the same obligation copied into several blocks (an
    /// invariant on several entry edges) keeps one id, as Boogie's shared command object does.
    pub checks: Vec<Check>,
}

/// The identity of a proof obligation, for Boogie's one-id-per-command and one error per
/// failing command.
pub fn check_key(c: &Check) -> (u8, u32, u32, u32) {
    let (k, extra) = match &c.kind {
        CheckKind::Assert => (0, 0),
        CheckKind::LoopInit => (1, 0),
        CheckKind::LoopMaintained => (2, 0),
        CheckKind::Ensures => (3, 0),
        CheckKind::Requires { requires } => (4, requires.start + 1),
        CheckKind::Unpack => (5, 0),
        CheckKind::MeasureDecreases => (6, 0),
        CheckKind::MeasureRequires { requires } => (7, requires.start + 1),
    };
    (k, c.tok.file.0, c.tok.start, extra)
}

pub fn block_name(label: &str) -> String {
    // `@` keeps the name apart from every Boogie identifier (none has one).
    super::encode::quote(&format!("{label}@correct"))
}

/// Builds the VC of `blocks`.
pub fn run(blocks: &[PassiveBlock]) -> Vc {
    let succs: Vec<Vec<usize>> = blocks.iter().map(|b| b.succs.clone()).collect();
    let order = topological_order(&succs);
    let block_ids: Vec<u32> = (1..=blocks.len() as u32).collect();
    let mut checks: Vec<Check> = Vec::new();
    let mut ids: FxHashMap<(u8, u32, u32, u32), u32> = FxHashMap::default();
    let mut commands = String::new();
    for &b in order.iter().rev() {
        let block = &blocks[b];
        let me = block_ids[b];
        let mut n = match block.succs.as_slice() {
            [] => "true".to_string(),
            ss => {
                let parts: Vec<String> = ss
                    .iter()
                    .map(|&s| {
                        format!("(=> (= (ControlFlow 0 {me}) {}) {})", block_ids[s], block_name(&blocks[s].label))
                    })
                    .collect();
                if parts.len() == 1 { parts.into_iter().next().unwrap() } else { format!("(and {})", parts.join(" ")) }
            }
        };
        for c in block.cmds.iter().rev() {
            n = match c {
                PCmd::Assume(t) => format!("(=> {t} {n})"),
                PCmd::Assert(t, check, under) => {
                    let id = *ids.entry(check_key(check)).or_insert_with(|| {
                        checks.push(check.clone());
                        checks.len() as u32
                    });
                    let checked = match under {
                        Some(u) => format!("(or {u} {t})"),
                        None => t.clone(),
                    };
                    if check.subsume {
                        format!("(and (=> (= (ControlFlow 0 {me}) (- {id})) {checked}) (=> {t} {n}))")
                    } else {
                        format!("(and (=> (= (ControlFlow 0 {me}) (- {id})) {checked}) {n})")
                    }
                }
                PCmd::StartChecking | PCmd::Scope(_) | PCmd::Print(_) => n,
            };
        }
        let _ = writeln!(commands, "(define-fun {} () Bool {n})", block_name(&block.label));
    }
    if let Some(start) = blocks.first() {
        let _ = writeln!(
            commands,
            "(assert (not (=> (= (ControlFlow 0 0) {}) {})))",
            block_ids[0],
            block_name(&start.label)
        );
    }
    Vc { commands, block_ids, checks }
}
