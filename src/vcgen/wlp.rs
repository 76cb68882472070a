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

use super::passify::{PCmd, PassiveBlock};
use super::{Check, CheckKind};

/// A verification condition and the ids it uses.
pub struct Vc {
    /// The commands that assert the negated VC: one `let` per block, nested, in one `assert`
    /// (Boogie's form). Z3 4.8.12 expands a nullary `define-fun` at each use without sharing
    /// the expansions: a VC of 3 600 blocks written as `define-fun`s took it 25 s to read,
    /// the same VC as `let`s 0.5 s.
    pub commands: String,
    /// Each block's name and body, bottom-up: what `commands` binds.
    pub defs: Vec<(String, String)>,
    /// The `ControlFlow` id of each block.
    pub block_ids: Vec<u32>,
    /// The proof obligations; the same obligation copied into several blocks (an invariant on
    /// several entry edges) keeps one id, as Boogie's shared command object does.
    pub checks: Vec<Check>,
    /// The `ControlFlow` id of each of `checks`.
    pub check_ids: Vec<u32>,
    /// The assertions written, each copy counted (Boogie's `AssertionCount`: the proof
    /// obligations `/trace` reports).
    pub assertions: usize,
}

impl Vc {
    /// The proof obligation of `ControlFlow` id `id`.
    pub fn check(&self, id: u32) -> Option<&Check> {
        self.check_ids.iter().position(|&x| x == id).map(|i| &self.checks[i])
    }

    /// The goal, `ControlFlow(0, 0) = entry ==> entry's body`, as a term over the block names.
    fn goal(&self) -> Option<String> {
        let (name, _) = self.defs.last()?;
        Some(format!("(=> (= (ControlFlow 0 0) {}) {name})", self.block_ids.first()?))
    }

    /// The same commands with one `define-fun` per block (what [`super::instantiate`] reads).
    pub fn define_funs(&self) -> String {
        let mut out = String::new();
        for (name, body) in &self.defs {
            let _ = writeln!(out, "(define-fun {name} () Bool {body})");
        }
        if let Some(goal) = self.goal() {
            let _ = writeln!(out, "(assert (not {goal}))");
        }
        out
    }

    fn lets(&self) -> String {
        let Some(goal) = self.goal() else { return String::new() };
        let size: usize = self.defs.iter().map(|(n, b)| n.len() + b.len() + 12).sum();
        let mut out = String::with_capacity(size + goal.len() + 32);
        out.push_str(
            "(assert (not
",
        );
        for (name, body) in &self.defs {
            let _ = writeln!(out, "(let (({name} {body}))");
        }
        out.push_str(&goal);
        for _ in 0..self.defs.len() {
            out.push(')');
        }
        out.push_str(
            "))
",
        );
        out
    }
}

/// The identity of a proof obligation, for Boogie's one-id-per-command and one error per
/// failing command.
pub fn check_key(c: &Check) -> (u8, u32, u32, u32) {
    let (k, extra) = match &c.kind {
        CheckKind::Assert => (0, c.clause.map_or(0, |r| r.start + 1)),
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

/// Boogie's `ControlFlowIdMap`: one counter from 1 for blocks and proof obligations, an id
/// given the first time one is asked for.
struct Ids {
    next: u32,
    blocks: Vec<u32>,
    checks: FxHashMap<(u8, u32, u32, u32), u32>,
}

impl Ids {
    fn block(&mut self, b: usize) -> u32 {
        if self.blocks[b] == 0 {
            self.blocks[b] = self.next;
            self.next += 1;
        }
        self.blocks[b]
    }

    fn check(&mut self, check: &Check, checks: &mut Vec<Check>, check_ids: &mut Vec<u32>) -> u32 {
        let next = &mut self.next;
        *self.checks.entry(check_key(check)).or_insert_with(|| {
            checks.push(check.clone());
            check_ids.push(*next);
            *next += 1;
            *next - 1
        })
    }
}

/// Builds the VC of `blocks`.
///
/// Blocks are bound in Boogie's order (`LetVC`: a topological order of the reversed graph,
/// the exits first) and numbered as Boogie numbers them: per block, its successors as its
/// goto is translated, then its obligations from its last command to its first, then itself.
/// Those numbers and that order are part of the query the solver sees, and solvers are
/// sensitive to such details.
pub fn run(blocks: &[PassiveBlock]) -> Result<Vc, crate::memory::OutOfMemory> {
    let n = blocks.len();
    let order = reversed_graph_order(blocks);
    let mut ids = Ids { next: 1, blocks: vec![0; n], checks: FxHashMap::default() };
    let mut checks: Vec<Check> = Vec::new();
    let mut check_ids: Vec<u32> = Vec::new();
    let mut defs = Vec::with_capacity(n);
    let mut assertions = 0;
    for &b in &order {
        crate::memory::check()?;
        let block = &blocks[b];
        for &s in &block.succs {
            ids.block(b);
            ids.block(s);
        }
        // Written front to back, each command's closing parentheses counted: a block's
        // text is built in time linear in its length. Obligations are numbered from the
        // block's last command to its first (the order of the wlp).
        let mut block_ids_of_asserts: Vec<u32> = Vec::new();
        for c in block.cmds.iter().rev() {
            if let PCmd::Assert(_, check, ..) = c {
                block_ids_of_asserts.push(ids.check(check, &mut checks, &mut check_ids));
                ids.block(b);
            }
        }
        let me = ids.block(b);
        let mut assert_ids = block_ids_of_asserts.into_iter().rev();
        let mut n = String::new();
        let mut closing = 0;
        for c in &block.cmds {
            match c {
                PCmd::Assume(t, _) => {
                    let _ = write!(n, "(=> {t} ");
                    closing += 1;
                }
                PCmd::Assert(t, check, under, _) => {
                    assertions += 1;
                    let id = assert_ids.next().unwrap_or_default();
                    let _ = write!(n, "(and (=> (= (ControlFlow 0 {me}) (- {id})) ");
                    match under {
                        Some(u) => {
                            let _ = write!(n, "(or {u} {t})) ");
                        }
                        None => {
                            let _ = write!(n, "{t}) ");
                        }
                    }
                    closing += 1;
                    if check.subsume {
                        let _ = write!(n, "(=> {t} ");
                        closing += 1;
                    }
                }
                PCmd::StartChecking | PCmd::Scope(_) | PCmd::Print(_) | PCmd::Capture(_) => {}
                // Only stratified-inlining templates have open sites; they never come here.
                PCmd::Site(_) => debug_assert!(false, "an open call site in a modular VC"),
            }
        }
        match block.succs.as_slice() {
            [] => n.push_str("true"),
            [s] => {
                let _ = write!(n, "(=> (= (ControlFlow 0 {me}) {}) {})", ids.blocks[*s], block_name(&blocks[*s].label));
            }
            ss => {
                n.push_str("(and");
                for &s in ss {
                    let _ =
                        write!(n, " (=> (= (ControlFlow 0 {me}) {}) {})", ids.blocks[s], block_name(&blocks[s].label));
                }
                n.push(')');
            }
        }
        for _ in 0..closing {
            n.push(')');
        }
        defs.push((block_name(&block.label), n));
    }
    // The entry block's definition is the last, which the goal names (blocks the entry does
    // not reach, roots of their own, come after it in the order).
    if let Some(start) = blocks.first()
        && defs.last().is_some_and(|(name, _)| *name != block_name(&start.label))
    {
        let i = defs.iter().position(|(name, _)| *name == block_name(&start.label));
        if let Some(i) = i {
            let entry = defs.remove(i);
            defs.push(entry);
        }
    }
    if n > 0 {
        ids.block(0);
    }
    let mut vc = Vc { commands: String::new(), defs, block_ids: ids.blocks, checks, check_ids, assertions };
    vc.commands = vc.lets();
    Ok(vc)
}

/// Boogie's `Program.GraphFromBlocks(blocks, false).TopologicalSort()`: the reversed graph,
/// each edge from a target to the block that jumps there.
fn reversed_graph_order(blocks: &[PassiveBlock]) -> Vec<usize> {
    let edges = blocks.iter().enumerate().flat_map(|(b, block)| block.succs.iter().map(move |&s| (s, b)));
    super::passify::tarjan_top_sort(blocks.len(), edges)
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::smt::{Answer, Limits, SolverChoice};
    use crate::vcgen::tests::{passified, typed};

    /// The VC of `P` in `text`, and how many blocks its passive program has.
    fn vc_of(text: &str) -> (Vc, usize, String) {
        let (passive, decls) = passified(&typed(text), "P");
        (run(&passive.blocks).expect("fits in memory"), passive.blocks.len(), decls)
    }

    /// Whether z3 (in-process) proves the VC of `P` in `text`.
    fn valid(text: &str) -> bool {
        let (vc, _, decls) = vc_of(text);
        let mut session = crate::smt::start(&SolverChoice::Z3InProcess, &Default::default(), None).expect("z3 starts");
        session.send("(declare-fun ControlFlow (Int Int) Int)\n");
        session.send(&decls);
        session.send(&vc.commands);
        match session.check_sat(&Limits { time_limit_s: 10, resource_limit: 0 }) {
            Answer::Unsat => true,
            Answer::Sat => false,
            other => panic!("{other:?} for\n{text}"),
        }
    }

    #[test]
    fn straight_line_code() {
        assert!(valid("procedure P(x: int) returns (y: int) { y := x + 1; assert y > x; }\n"));
        assert!(!valid("procedure P(x: int) returns (y: int) { y := x - 1; assert y > x; }\n"));
    }

    #[test]
    fn both_branches_are_checked() {
        let text = |check: &str| {
            format!(
                "procedure P(x: int) returns (y: int) {{ if (x > 0) {{ y := x; }} else {{ y := -x; }} assert {check}; }}\n"
            )
        };
        assert!(valid(&text("y >= 0")));
        // Fails on the else branch only (x == 0).
        assert!(!valid(&text("y > 0")));
    }

    #[test]
    fn requires_are_assumed_and_ensures_checked() {
        assert!(valid("procedure P(x: int) returns (y: int) requires x > 0; ensures y > 1; { y := x + 1; }\n"));
        assert!(!valid("procedure P(x: int) returns (y: int) ensures y > 1; { y := x + 1; }\n"));
    }

    #[test]
    fn a_loop_is_proved_by_its_invariant_only() {
        let text = |requires: &str, invariant: &str| {
            format!(
                "procedure P(n: int) returns (i: int) {requires} ensures i == n; {{\n\
                  i := 0; while (i < n) invariant {invariant}; {{ i := i + 1; }}\n\
                }}\n"
            )
        };
        assert!(valid(&text("requires n >= 0;", "i <= n")));
        // The invariant does not hold on entry.
        assert!(!valid(&text("", "i <= n")));
        // It holds but is too weak for the postcondition.
        assert!(!valid(&text("requires n >= 0;", "i >= 0")));
    }

    #[test]
    fn assume_false_makes_what_follows_valid() {
        assert!(valid("procedure P(x: int) { assume false; assert x > 0; }\n"));
        assert!(!valid("procedure P(x: int) { if (x > 0) { assume false; } assert x > 0; }\n"));
    }

    #[test]
    fn one_let_per_block_and_the_goal_is_the_entry() {
        let (vc, blocks, _) =
            vc_of("procedure P(x: int) returns (y: int) { if (x > 0) { y := 1; } else { y := 2; } assert y > 0; }\n");
        assert_eq!(vc.defs.len(), blocks);
        assert_eq!(vc.commands.matches("(let ((").count(), blocks);
        assert_eq!(vc.defs.last().map(|(name, _)| name.as_str()), Some("|PreconditionGeneratedEntry@correct|"));
        let entry_id = vc.block_ids[0];
        assert!(
            vc.commands
                .contains(&format!("(=> (= (ControlFlow 0 0) {entry_id}) |PreconditionGeneratedEntry@correct|)"))
        );
        // Each definition names only blocks bound before it.
        for (k, (_, body)) in vc.defs.iter().enumerate() {
            for (later, _) in &vc.defs[k..] {
                assert!(!body.contains(later.as_str()), "{body} names {later}");
            }
        }
    }

    #[test]
    fn each_check_has_a_control_flow_id_and_is_assumed_after() {
        let (vc, _, _) = vc_of("procedure P(x: int) { assert x > 0; assert {:subsumption 0} x > 1; assert x > 2; }\n");
        assert_eq!(vc.checks.len(), 3);
        for &id in &vc.check_ids {
            assert!(vc.commands.contains(&format!(") (- {id})) ")), "no check {id} in\n{}", vc.commands);
            assert!(vc.check(id).is_some());
        }
        // Checked then assumed, but for the one whose subsumption is off.
        assert_eq!(vc.commands.matches("(> |x@0| 0)").count(), 2);
        assert_eq!(vc.commands.matches("(> |x@0| 1)").count(), 1);
        assert_eq!(vc.commands.matches("(> |x@0| 2)").count(), 2);
    }
}
