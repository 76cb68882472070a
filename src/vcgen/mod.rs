//! Verification condition generation: from a [`TypedProgram`] to one SMT-LIB query per
//! implementation, and from the solver's answers to Boogie's verdicts.
//!
//! The stages, each in its own file, follow Boogie's `VerificationConditionGenerator`:
//!
//! 1. [`cfg`]: the implementation's structured body to basic blocks with Boogie's names and
//!    tokens (`BigBlocksResolutionContext`), block coalescing (`BlockCoalescer`), loop cutting
//!    (`RemoveBackEdges`: invariants checked on entry and on every back edge, loop targets
//!    havocked), the unified exit and the injected preconditions and postconditions.
//! 2. [`passify`]: incarnations for every assignment, havoc and call (calls desugared as
//!    Boogie's `CallCmd.Desugar`), join copies for live variables only, then Boogie's
//!    `RemoveEmptyBlocks`. Expressions come out as SMT-LIB terms.
//! 3. [`wlp`]: the weakest liberal precondition of Barnett and Leino, one named boolean per
//!    block (linear in the passive program), with Boogie's `ControlFlow` function so that the
//!    path to a failing assertion can be read from the model.
//!    [`instantiate`] then applies Boogie's pool-based quantifier instantiation (`{:pool}`,
//!    `{:add_to_pool}`) to that VC.
//! 4. [`encode`]: types, functions, constants, axioms and expressions as SMT-LIB.
//! 5. [`trace`]: counterexample paths to Boogie's error messages and execution traces.
//!
//! Anything this generator cannot encode yet is an [`Unsupported`] error for the program or
//! for one implementation: never a verdict.

pub mod cfg;
pub mod codeexpr;
pub mod coverage;
pub mod division;
pub mod encode;
pub mod float;
pub mod instantiate;
pub mod measure;
pub mod model;
pub mod passify;
pub mod prune;
pub mod reach_ground;
pub mod shown;
pub mod smoke;
pub mod split;
pub mod stratified;
pub mod trace;
pub mod verify;
pub mod wlp;

use crate::ast::{self, AssignLhs, CallCmd, Expr, Span};
use crate::typeck::{ProcedureId, VarId};

pub use verify::{ImplOutcome, SessionOpener, VerifyOptions, verify_program};

/// A construct the generator cannot handle: reported, never verified.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Unsupported {
    pub span: Option<Span>,
    pub what: String,
}

impl Unsupported {
    pub fn new(span: Option<Span>, what: impl Into<String>) -> Unsupported {
        Unsupported { span, what: what.into() }
    }
}

/// Why an implementation has no VC: a construct rboogie cannot encode, or its VC generation
/// passed the memory limit ([`crate::memory`]).
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum NoVc {
    Unsupported(Unsupported),
    OutOfMemory,
}

impl From<Unsupported> for NoVc {
    fn from(u: Unsupported) -> NoVc {
        NoVc::Unsupported(u)
    }
}

impl From<crate::memory::OutOfMemory> for NoVc {
    fn from(_: crate::memory::OutOfMemory) -> NoVc {
        NoVc::OutOfMemory
    }
}

/// What a failed check is reported as (Boogie's `AssertCmd` subclasses).
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum CheckKind {
    /// `assert e`
    Assert,
    /// An invariant on loop entry (`LoopInitAssertCmd`).
    LoopInit,
    /// An invariant after an iteration (`LoopInvMaintainedAssertCmd`).
    LoopMaintained,
    /// A postcondition at the unified exit (`AssertEnsuresCmd`); the error is reported at the
    /// return the path took.
    Ensures,
    /// A precondition of a call (`AssertRequiresCmd`): `tok` is the call, this the requires.
    Requires { requires: Span },
    /// The constructor test of an unpack command, `C(x) := e` (Boogie's assertion with the
    /// `FailureOnlyDescription` of `UnpackCmd`): an assertion of its own message.
    Unpack,
    /// A termination measure at a recursive call or after a loop iteration
    /// (`MeasureDecreasesDescription`): `tok` is the call, or the block that jumps back.
    MeasureDecreases,
    /// The precondition `e >= 0` Boogie adds for an `int` measure `e` of the callee
    /// (`MeasureNonNegativeDescription`): `tok` is the call, this the measure expression.
    MeasureRequires { requires: Span },
}

/// One proof obligation: its kind, its token (the assert, invariant, ensures or call) and its
/// `{:msg}`, which replaces Boogie's message.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Check {
    pub kind: CheckKind,
    pub tok: Span,
    pub msg: Option<String>,
    /// The failure in words, reported at `tok` ([`cfg::DESCRIBE`]).
    pub describe: Option<String>,
    /// Assume the condition after checking it (Boogie's `/subsumption:2` default; an assert's
    /// `{:subsumption 0}` turns it off).
    pub subsume: bool,
    /// `{:isolate}` or `{:isolate "paths"}`: implementation division checks it in splits of
    /// its own ([`division`]).
    pub isolate: Option<Isolate>,
    /// The callee's `requires` that an assertion of bounded mode's inlining stands for, at
    /// the call (`tok`): reported as an assertion, as Corral reports it, it is told apart from
    /// the callee's other preconditions by this ([`crate::passes::REQUIRES_CLAUSE`]).
    pub clause: Option<Span>,
}

impl Check {
    /// A check of `kind` at `tok` with no message, subsumed after it, not isolated.
    pub fn plain(kind: CheckKind, tok: Span) -> Check {
        Check { kind, tok, msg: None, describe: None, subsume: true, isolate: None, clause: None }
    }
}

/// Boogie's `{:isolate}` attribute on an assertion, a goto or a return: one split that checks
/// it alone (`One`), or one per path through the `{:allow_path_isolation}` branches (`Paths`).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Isolate {
    One,
    Paths,
}

/// The attributes of a block's goto (or return) that implementation division reads.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct Jump {
    /// `{:allow_path_isolation}` on the goto of an `if`: `{:isolate "paths"}` splits here.
    pub allow_path_isolation: bool,
    pub isolate: Option<Isolate>,
    /// The goto's (or the return's) token, where known: an isolated jump's split is named
    /// after its line.
    pub tok: Option<Span>,
    /// A `return` written in the program (Boogie's source token), not the end of the body:
    /// `/vcsSplitOnEveryAssert` isolates the goto such a return becomes.
    pub source_return: bool,
}

impl Jump {
    pub fn of(attrs: &[ast::Attribute]) -> Jump {
        Jump {
            allow_path_isolation: encode::find_bool_attribute(attrs, "allow_path_isolation"),
            isolate: isolate_attr(attrs),
            tok: None,
            source_return: false,
        }
    }
}

/// `{:isolate}` (with `"paths"` among its parameters for [`Isolate::Paths`]).
pub fn isolate_attr(attrs: &[ast::Attribute]) -> Option<Isolate> {
    let a = attrs.iter().find(|a| a.key == "isolate")?;
    let paths = a.params.iter().any(|p| matches!(p, ast::AttrParam::Str(s, _) if s == "paths"));
    Some(if paths { Isolate::Paths } else { Isolate::One })
}

/// A command of the (not yet passive) block program. Expressions are the program's own; the
/// proof obligations carry what the error report needs.
#[derive(Clone, Debug)]
pub enum Cmd<'a> {
    Assert {
        expr: &'a Expr,
        check: Check,
        /// `{:verified_under A}` (the first): the check is `A || e`, and a literal `true`
        /// drops it.
        under: Option<&'a Expr>,
        /// The attributes the assertion is printed with (`/printSplit`).
        attrs: &'a [ast::Attribute],
    },
    /// `assume e` (`assume !e` when `negated`, for the else branch of a guard).
    Assume {
        expr: &'a Expr,
        negated: bool,
        attrs: AssumeAttrs<'a>,
    },
    /// `assume false`, where loop cutting removed a back edge.
    AssumeFalse,
    /// `assume v` for a boolean variable (an `{:assumption}` local starts out true).
    AssumeVar(VarId),
    /// `havoc x, y` (with the variables' where clauses assumed after).
    Havoc(Vec<VarId>),
    Assign {
        lhss: &'a [AssignLhs],
        rhss: &'a [Expr],
        span: Span,
        /// Its attributes (`{:id}` under `/trackVerificationCoverage`).
        attrs: &'a [ast::Attribute],
    },
    Call(&'a CallCmd),
    /// A `measure` command, or a loop's `measure` clause in its head, as lowered;
    /// [`measure::transform`] turns it into the checks below.
    Measure {
        exprs: &'a [Expr],
        span: Span,
    },
    /// `assert e >= 0` (`check`), or `assume e >= 0` (`None`), for an `int` measure `e`.
    NonNegative {
        expr: &'a Expr,
        check: Option<Check>,
    },
    /// The values of loop measure `id` at the loop head (Boogie's `old_N_M := e` locals).
    MeasureSnapshot {
        id: usize,
        exprs: &'a [Expr],
    },
    /// Loop measure `id` is now below its values at the snapshot.
    MeasureDecreased {
        id: usize,
        exprs: &'a [Expr],
        check: Check,
    },
    /// Before a recursive call: the callee's measure at the arguments is below the caller's
    /// at the caller's entry.
    MeasureCall {
        call: &'a CallCmd,
        caller: ProcedureId,
        check: Check,
    },
    /// Marks the `assume {:start_checking_here}` that follows it, for `{:selective_checking}`.
    StartChecking,
    /// `hide`, `reveal`, `push` or `pop`: no effect on the VC, but under `/prune` they decide
    /// which `hideable` axioms a VC gets ([`prune::RevealedState`]).
    Scope(ScopeCmd),
    /// The `{:print ...}` attributes of the command that follows (Boogie's debug information,
    /// shown by `/enhancedErrorMessages:1` as the augmented execution trace).
    Print(&'a [ast::Attribute]),
    /// `/trackVerificationCoverage`: the command that follows is tracked under this label
    /// (Boogie's `TrackedNodeComponent.SolverLabel`, see [`coverage`]): an assumption is
    /// assumed only under the label's literal, an assertion proved together with it, so that
    /// the literals of the solver's unsat core name what the proof used.
    Track(std::sync::Arc<str>),
}

/// The attributes an assumption is printed with when the passive program is (`/printSplit`),
/// and its printed form where Boogie's differs from the expression.
#[derive(Clone, Copy, Debug)]
pub enum AssumeAttrs<'a> {
    None,
    /// The command's own, as written, and where the command (or clause) is.
    Written(&'a [ast::Attribute], Span),
    /// `{:partition}`: the guard of a branch of an `if` or a `while` (the statement's span).
    Partition(Span),
    /// `{:where x} W && true`: a local variable's where clause, assumed at the entry.
    Where(VarId),
}

/// A command of Boogie's revealed-state analysis.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum ScopeCmd {
    /// `hide f` / `reveal f` (`None` for `*`).
    HideReveal {
        hide: bool,
        function: Option<crate::ast::Symbol>,
    },
    Push,
    Pop,
}

/// A basic block. `tok` is `None` for Boogie's `Token.NoToken` (blocks the translation adds:
/// such blocks are not printed in traces).
#[derive(Clone, Debug)]
pub struct Block<'a> {
    pub label: String,
    pub tok: Option<Span>,
    pub cmds: Vec<Cmd<'a>>,
    /// Successors by index; empty with `ret` set for a return.
    pub succs: Vec<usize>,
    /// The token of the return command this block ends in (or, once the unified exit exists,
    /// the return its goto replaced: Boogie's `GotoFromReturn`).
    pub ret: Option<Span>,
    /// The block's goto came from a return (it goes to the unified exit).
    pub from_return: bool,
    /// The goto carries attributes (`if {:attr}`): Boogie never removes such a block.
    pub goto_attrs: bool,
    /// What the goto's (or the return's) attributes ask of implementation division.
    pub jump: Jump,
}

impl<'a> Block<'a> {
    pub fn new(label: String, tok: Option<Span>) -> Block<'a> {
        Block {
            label,
            tok,
            cmds: Vec::new(),
            succs: Vec::new(),
            ret: None,
            from_return: false,
            goto_attrs: false,
            jump: Jump::default(),
        }
    }
}

/// Predecessor lists of a block graph, in block order.
pub fn predecessors(blocks: &[Block]) -> Vec<Vec<usize>> {
    let mut preds = vec![Vec::new(); blocks.len()];
    for (i, b) in blocks.iter().enumerate() {
        for &s in &b.succs {
            preds[s].push(i);
        }
    }
    preds
}

#[cfg(test)]
mod tests {
    //! What the tests of the stages share: one implementation of a small program taken through
    //! the stages as [`verify`] takes it (without where clauses, measures or division).
    use std::fmt::Write;

    use rustc_hash::{FxHashMap, FxHashSet};

    use super::cfg::{self, Specs};
    use super::encode::Encoder;
    use super::passify::{self, ImplContext, Passive};
    use super::*;
    use crate::ast::Spec;
    use crate::typeck::{ImplementationId, TypedProgram, VarKind};

    pub(super) use crate::passes::tests::typed;

    /// The implementation of procedure `name`.
    pub(super) fn implementation(typed: &TypedProgram, name: &str) -> ImplementationId {
        let found = typed.symbols().implementations.iter().position(|i| i.name.name == name);
        ImplementationId(found.expect("an implementation of that name") as u32)
    }

    /// Each procedure's `modifies`.
    pub(super) fn modifies(typed: &TypedProgram) -> Vec<Vec<VarId>> {
        typed.symbols().procedures.iter().map(|p| p.modifies.clone()).collect()
    }

    /// `name`'s body lowered to blocks, unreachable blocks pruned, coalesced.
    pub(super) fn lowered<'a>(typed: &'a TypedProgram, name: &str) -> Vec<Block<'a>> {
        let body = verify::body_of(typed, implementation(typed, name)).expect("a body");
        cfg::coalesce(cfg::prune_unreachable(cfg::lower(typed, &body.stmts).expect("lowers")))
    }

    /// The acyclic block program: loops cut, the requires assumed in a new entry block, the
    /// ensures asserted at the unified exit, empty blocks on edges into joins.
    pub(super) fn acyclic<'a>(typed: &'a TypedProgram, name: &str, modifies: &[Vec<VarId>]) -> Vec<Block<'a>> {
        let id = implementation(typed, name);
        let body = verify::body_of(typed, id).expect("a body");
        let proc_id = typed.symbols().implementations[id.0 as usize].procedure.expect("a procedure");
        let (mut entry, mut exit) = (Vec::new(), Vec::new());
        for spec in passify::procedure_specs(typed, proc_id) {
            match spec {
                Spec::Requires { expr, .. } => {
                    entry.push(Cmd::Assume { expr, negated: false, attrs: AssumeAttrs::None })
                }
                Spec::Ensures { free: false, expr, span, .. } => {
                    let check = Check {
                        kind: CheckKind::Ensures,
                        tok: *span,
                        msg: None,
                        describe: None,
                        subsume: true,
                        isolate: None,
                        clause: None,
                    };
                    exit.push(Cmd::Assert { expr, check, under: None, attrs: &[] });
                }
                _ => {}
            }
        }
        let mut blocks = cfg::cut_loops(typed, modifies, lowered(typed, name), false).expect("cuts loops");
        cfg::add_exit_and_specs(&mut blocks, Specs { entry, exit }, body.stmts.end);
        cfg::add_blocks_between(&mut blocks);
        blocks
    }

    /// The passive program of `name`, and the SMT-LIB declarations its terms need: the
    /// program's, then every incarnation's.
    pub(super) fn passified(typed: &TypedProgram, name: &str) -> (Passive, String) {
        passified_with(typed, name, false)
    }

    /// [`passified`], with assignments hoisted as definitions or not
    /// ([`passify::ImplContext::hoist_definitions`]).
    pub(super) fn passified_with(typed: &TypedProgram, name: &str, hoist: bool) -> (Passive, String) {
        let symbols = typed.symbols();
        let info = &symbols.implementations[implementation(typed, name).0 as usize];
        let proc = symbols.procedure(info.procedure.expect("a procedure"));
        let mut proc_to_impl = FxHashMap::default();
        let mut impl_to_proc = FxHashMap::default();
        for (p, i) in proc.ins.iter().zip(&info.ins).chain(proc.outs.iter().zip(&info.outs)) {
            proc_to_impl.insert(*p, *i);
            impl_to_proc.insert(*i, *p);
        }
        let globals = (0..symbols.vars.len() as u32).map(VarId).filter(|v| symbols.var(*v).kind == VarKind::Global);
        let vars = globals.chain(info.ins.iter().chain(&info.outs).chain(&info.locals).copied()).collect();
        let (wheres, assumptions, modifies) = (FxHashMap::default(), FxHashSet::default(), modifies(typed));
        let cx = ImplContext {
            typed,
            vars,
            proc_to_impl,
            wheres: &wheres,
            impl_to_proc,
            modifies: &modifies,
            assumptions: &assumptions,
            show: None,
            capture_states: false,
            values: false,
            inputs: info.ins.clone(),
            template: None,
            hoist_definitions: hoist,
        };
        let mut enc = Encoder::new(typed);
        let mut decls = enc.prelude().expect("encodes");
        let blocks = acyclic(typed, name, &modifies);
        let passive = passify::run(&cx, &mut enc, &blocks).unwrap_or_else(|e| panic!("passifies: {e:?}"));
        decls.push_str(&enc.take_new_decls());
        for d in &passive.decls {
            let _ = writeln!(decls, "(declare-fun {} () {})", d.smt, d.sort);
        }
        (passive, decls)
    }
}
