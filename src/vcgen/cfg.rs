//! Structured code to basic blocks, and the block program to an acyclic one.
//!
//! Expects a type-checked implementation body. Guarantees a block list whose first block is
//! the entry, with no cycles, one exit block carrying the postcondition checks, and Boogie's
//! block names and tokens (they are what execution traces print).
//!
//! How, step by step as Boogie does it:
//! - [`lower`]: `BigBlocksResolutionContext` — big blocks named `anonN` in Boogie's order (the
//!   prefix grows to `anon0`/`anon1`... when the program has labels of that shape), loops as
//!   `_LoopHead`/`_LoopBody`/`_LoopDone`, conditionals as `_Then`/`_Else`, guards as assumes
//!   squeezed into the first block of a branch when it is anonymous.
//! - [`coalesce`]: `BlockCoalescer` — a block with one successor that has no other predecessor
//!   absorbs it; not for a body a pass left in block form ([`BLOCK_FORM`]).
//! - [`cut_loops`]: `RemoveBackEdges.ConvertCfg2DagStandard` — a dummy start block, natural
//!   loops from dominators; the leading assert/assume run of each header is its invariant,
//!   checked on every entry edge and every back edge and assumed in the header; back edges
//!   removed (`assume false` where a back edge was a block's only successor); the loop's
//!   assigned variables havocked at the header; irreducible graphs first made reducible by node
//!   splitting (`ConvertToReducible`).
//! - [`add_exit_and_specs`]: `GenerateUnifiedExit`, `InjectPreconditions`,
//!   `InjectPostConditions`.
//! - [`add_blocks_between`]: an empty block on every edge from a branching block into a join,
//!   so that passification can put join copies at the end of a block.

use rustc_hash::{FxHashMap, FxHashSet};

use super::{AssumeAttrs, Block, Check, CheckKind, Cmd, Jump, Unsupported, predecessors};
use crate::ast::{self, AttrParam, BlockTail, ElseBranch, Expr, Ident, LoopSpec, Span, StmtList};
use crate::typeck::{Ref, TypedProgram, VarId};

// ---------------------------------------------------------------------------------------------
// Structured code to blocks (BigBlocksResolutionContext)

#[derive(Clone, Copy)]
struct IfArm<'a> {
    cmd: &'a ast::IfCmd,
    then: usize,
    els: Option<usize>,
}

enum Tail<'a> {
    None,
    Goto {
        targets: &'a [Ident],
        /// The goto's attributes, if it has any.
        attrs: Option<Jump>,
        span: Span,
    },
    Return(Span, Jump),
    /// A break and the big block it leaves.
    Break {
        enclosure: usize,
        span: Span,
    },
    While {
        cmd: &'a ast::WhileCmd,
        body: usize,
    },
    If(Vec<IfArm<'a>>),
}

struct BigBlock<'a> {
    label: Option<String>,
    anonymous: bool,
    tok: Option<Span>,
    cmds: &'a [ast::Cmd],
    tail: Tail<'a>,
    successor: Option<usize>,
}

struct List<'a> {
    blocks: Vec<usize>,
    end: Span,
    prefix: Option<Vec<Cmd<'a>>>,
}

struct Lowering<'a> {
    typed: &'a TypedProgram,
    error: Option<Unsupported>,
    bbs: Vec<BigBlock<'a>>,
    lists: Vec<List<'a>>,
    prefix: String,
    anon: usize,
    blocks: Vec<Block<'a>>,
    /// Goto targets by label, resolved at the end.
    targets: Vec<Vec<String>>,
    /// For an analysis of the program as written ([`lower_for_analysis`]): an unpack command
    /// (which the datatypes pass desugars before verification) is kept as an assumption of its
    /// right-hand side, not refused, so that it keeps its place in its block.
    unpack_as_assume: bool,
}

/// An assertion's `{:subsumption N}`: 0 turns off assuming it after the check.
pub fn subsumption(attrs: &[ast::Attribute]) -> bool {
    !attrs.iter().any(|a| {
        a.key == "subsumption"
            && matches!(&a.params[..], [AttrParam::Expr(Expr { kind: ast::ExprKind::IntLit(n), .. })] if &**n == "0")
    })
}

/// The first `{:verified_under A}` of an assertion.
pub fn verified_under(attrs: &[ast::Attribute]) -> Option<&Expr> {
    attrs.iter().find(|a| a.key == "verified_under").and_then(|a| match a.params.first() {
        Some(AttrParam::Expr(e)) => Some(e),
        _ => None,
    })
}

/// An inlined callee's `ensures` ([`crate::passes::INLINED_ENSURES`]).
fn is_inlined_ensures(c: &ast::Cmd) -> bool {
    matches!(&c.kind, ast::CmdKind::Assert { attrs, .. } if attrs.iter().any(|a| a.key == crate::passes::INLINED_ENSURES))
}

/// `{:rboogie_error "text"}` of an assertion a pass added: its failure described in words, at
/// its position (where `{:msg}` replaces the whole report).
pub const DESCRIBE: &str = "rboogie_error";

/// The text of [`DESCRIBE`] on an assertion.
pub fn describe_attr(attrs: &[ast::Attribute]) -> Option<String> {
    attrs.iter().find(|a| a.key == DESCRIBE).and_then(|a| match a.params.first() {
        Some(AttrParam::Str(s, _)) => Some(s.clone()),
        _ => None,
    })
}

/// `{:msg "text"}` of an assertion.
pub fn msg_attr(attrs: &[ast::Attribute]) -> Option<String> {
    attrs.iter().find(|a| a.key == "msg").and_then(|a| match a.params.first() {
        Some(AttrParam::Str(s, _)) => Some(s.clone()),
        _ => None,
    })
}

impl<'a> Lowering<'a> {
    /// A simple command as block commands: none for those without effect on the VC
    /// (hide/reveal, push/pop). Unsupported commands are recorded in `error`.
    fn simple_cmd(&mut self, c: &'a ast::Cmd, out: &mut Vec<Cmd<'a>>) {
        let unsupported = |what: &str| Err(Unsupported::new(Some(c.span), what));
        let attrs: &'a [ast::Attribute] = match &c.kind {
            ast::CmdKind::Assert { attrs, .. }
            | ast::CmdKind::Assume { attrs, .. }
            | ast::CmdKind::Assign { attrs, .. } => attrs,
            ast::CmdKind::Call(call) => &call.attrs,
            _ => &[],
        };
        if attrs.iter().any(|a| a.key == "print") {
            out.push(Cmd::Print(attrs));
        }
        let result = match &c.kind {
            ast::CmdKind::Assert { attrs, expr } => {
                let inlined_requires = attrs.iter().find(|a| a.key == crate::passes::INLINED_REQUIRES);
                let kind = if attrs.iter().any(|a| a.key == crate::passes::UNPACK_CHECK) {
                    CheckKind::Unpack
                } else if attrs.iter().any(|a| a.key == crate::passes::INLINED_ENSURES) {
                    CheckKind::Ensures
                } else if let Some(marker) = inlined_requires {
                    // Houdini's inlined precondition, at the call (Boogie's `AssertRequiresCmd`).
                    CheckKind::Requires { requires: marker.span }
                } else {
                    CheckKind::Assert
                };
                // An inlined postcondition is reported at the callee's `ensures` (the marker's span).
                let tok = attrs.iter().find(|a| a.key == crate::passes::INLINED_ENSURES).map_or(c.span, |a| a.span);
                let check = Check {
                    kind,
                    tok,
                    msg: msg_attr(attrs),
                    describe: describe_attr(attrs),
                    subsume: subsumption(attrs),
                    isolate: super::isolate_attr(attrs),
                    clause: attrs.iter().find(|a| a.key == crate::passes::REQUIRES_CLAUSE).map(|a| a.span),
                };
                Ok(Cmd::Assert { expr, check, under: verified_under(attrs), attrs })
            }
            ast::CmdKind::Assume { expr, attrs } => {
                if super::encode::find_bool_attribute(attrs, "start_checking_here") {
                    out.push(Cmd::StartChecking);
                }
                Ok(Cmd::Assume { expr, negated: false, attrs: super::AssumeAttrs::Written(attrs, c.span) })
            }
            ast::CmdKind::Assign { lhss, rhss, attrs } => Ok(Cmd::Assign { lhss, rhss, span: c.span, attrs }),
            // An async call is lowered as a call for the passes (bounded mode inlines it as a
            // thread); the verifier refuses one that remains (`passify`).
            ast::CmdKind::Call(call) => Ok(Cmd::Call(call)),
            ast::CmdKind::Havoc { vars } => {
                vars.iter().map(|v| var_of(self.typed, v)).collect::<Result<Vec<_>, _>>().map(Cmd::Havoc)
            }
            ast::CmdKind::HideReveal { hide, name } => {
                Ok(Cmd::Scope(super::ScopeCmd::HideReveal { hide: *hide, function: name.as_ref().map(|n| n.name) }))
            }
            ast::CmdKind::ChangeScope { push: true } => Ok(Cmd::Scope(super::ScopeCmd::Push)),
            ast::CmdKind::ChangeScope { push: false } => Ok(Cmd::Scope(super::ScopeCmd::Pop)),
            ast::CmdKind::ParCall { .. } => unsupported("parallel calls"),
            ast::CmdKind::Unpack { rhs, attrs, .. } if self.unpack_as_assume => {
                Ok(Cmd::Assume { expr: rhs, negated: false, attrs: super::AssumeAttrs::Written(attrs, c.span) })
            }
            ast::CmdKind::Unpack { .. } => unsupported("datatype unpacking"),
            ast::CmdKind::Measure { exprs, .. } => Ok(Cmd::Measure { exprs, span: c.span }),
        };
        match result {
            Ok(c) => out.push(c),
            Err(e) => {
                self.error.get_or_insert(e);
            }
        }
    }

    fn fresh(&mut self) -> String {
        let name = format!("{}{}", self.prefix, self.anon);
        self.anon += 1;
        name
    }

    /// Builds the big-block tree of `list`; `enclosing` holds the enclosing big blocks
    /// (innermost last) for break targets.
    fn build(&mut self, list: &'a StmtList, enclosing: &mut Vec<(usize, bool)>) -> usize {
        let id = self.lists.len();
        self.lists.push(List { blocks: Vec::new(), end: list.end, prefix: None });
        let mut ids = Vec::new();
        for bb in &list.blocks {
            let index = self.bbs.len();
            self.bbs.push(BigBlock {
                label: bb.label.map(|l| l.name.to_string()),
                anonymous: bb.label.is_none(),
                tok: Some(bb.span),
                cmds: &bb.cmds,
                tail: Tail::None,
                successor: None,
            });
            enclosing.push((index, matches!(bb.tail, Some(BlockTail::While(_)))));
            let tail = match &bb.tail {
                None => Tail::None,
                Some(BlockTail::Goto { targets, attrs, span }) => Tail::Goto {
                    targets,
                    attrs: jump_attrs(attrs).map(|j| Jump { tok: Some(*span), ..j }),
                    span: *span,
                },
                Some(BlockTail::Return { span, attrs }) => {
                    Tail::Return(*span, Jump { tok: Some(*span), source_return: true, ..Jump::of(attrs) })
                }
                Some(BlockTail::Break { label, span }) => {
                    let enclosure = self.break_enclosure(label, &enclosing[..enclosing.len() - 1]);
                    Tail::Break { enclosure, span: *span }
                }
                Some(BlockTail::While(w)) => {
                    let body = self.build(&w.body, enclosing);
                    // A loop body ending in a loop gets an empty big block after it, as a target
                    // for breaks out of the inner loop.
                    if matches!(w.body.blocks.last().and_then(|b| b.tail.as_ref()), Some(BlockTail::While(_))) {
                        let extra = self.bbs.len();
                        self.bbs.push(BigBlock {
                            label: None,
                            anonymous: true,
                            tok: None,
                            cmds: &[],
                            tail: Tail::None,
                            successor: None,
                        });
                        self.lists[body].blocks.push(extra);
                    }
                    Tail::While { cmd: w, body }
                }
                Some(BlockTail::If(first)) => {
                    let mut arms = Vec::new();
                    let mut next = Some(&**first);
                    while let Some(c) = next {
                        let then = self.build(&c.then, enclosing);
                        let (els, following) = match &c.els {
                            Some(ElseBranch::Block(b)) => (Some(self.build(b, enclosing)), None),
                            Some(ElseBranch::If(i)) => (None, Some(&**i)),
                            None => (None, None),
                        };
                        arms.push(IfArm { cmd: c, then, els });
                        next = following;
                    }
                    Tail::If(arms)
                }
            };
            enclosing.pop();
            self.bbs[index].tail = tail;
            ids.push(index);
        }
        self.lists[id].blocks = ids;
        id
    }

    fn break_enclosure(&self, label: &Option<Ident>, enclosing: &[(usize, bool)]) -> usize {
        for &(bb, is_while) in enclosing.iter().rev() {
            match label {
                None => {
                    if is_while {
                        return bb;
                    }
                }
                Some(l) => {
                    if self.bbs[bb].label.as_deref() == Some(&*l.name) {
                        return bb;
                    }
                }
            }
        }
        // The parser reported a break outside any loop; never reached for a typed program.
        enclosing.last().map_or(0, |e| e.0)
    }

    fn nested_lists(&self, bb: usize) -> Vec<usize> {
        match &self.bbs[bb].tail {
            Tail::While { body, .. } => vec![*body],
            Tail::If(arms) => arms.iter().flat_map(|a| std::iter::once(a.then).chain(a.els)).collect(),
            _ => Vec::new(),
        }
    }

    /// Boogie's `CheckLegalLabels`, for the choice of the anonymous-label prefix.
    fn choose_prefix(&mut self, list: usize) {
        for &bb in &self.lists[list].blocks.clone() {
            if let Some(n) = &self.bbs[bb].label
                && !self.bbs[bb].anonymous
                && n.starts_with(&self.prefix)
            {
                if self.prefix.len() < n.len() && n.as_bytes()[self.prefix.len()] == b'0' {
                    self.prefix.push('1');
                } else {
                    self.prefix.push('0');
                }
            }
        }
        for &bb in &self.lists[list].blocks.clone() {
            for l in self.nested_lists(bb) {
                self.choose_prefix(l);
            }
        }
    }

    fn name_anonymous(&mut self, list: usize) {
        for &bb in &self.lists[list].blocks.clone() {
            if self.bbs[bb].label.is_none() {
                self.bbs[bb].label = Some(self.fresh());
            }
            for l in self.nested_lists(bb) {
                self.name_anonymous(l);
            }
        }
    }

    fn assign_successors(&mut self, list: usize, mut next: Option<usize>) {
        for &bb in self.lists[list].blocks.clone().iter().rev() {
            self.bbs[bb].successor = next;
            match &self.bbs[bb].tail {
                Tail::While { body, .. } => {
                    let body = *body;
                    self.assign_successors(body, Some(bb));
                }
                Tail::If(arms) => {
                    for arm in arms.clone() {
                        self.assign_successors(arm.then, next);
                        if let Some(e) = arm.els {
                            self.assign_successors(e, next);
                        }
                    }
                }
                _ => {}
            }
            next = Some(bb);
        }
    }

    fn label(&self, bb: usize) -> String {
        self.bbs[bb].label.clone().unwrap_or_default()
    }

    /// `StmtList.PrefixFirstBlock`
    fn prefix_first_block(&mut self, list: usize, prefix: Vec<Cmd<'a>>, suggested: &mut String) -> bool {
        let bb0 = self.lists[list].blocks[0];
        if prefix.is_empty() {
            if self.bbs[bb0].anonymous {
                self.bbs[bb0].label = Some(suggested.clone());
            } else {
                *suggested = self.label(bb0);
            }
            true
        } else if self.bbs[bb0].anonymous {
            self.lists[list].prefix = Some(prefix);
            self.bbs[bb0].label = Some(suggested.clone());
            true
        } else {
            false
        }
    }

    fn push_block(&mut self, label: String, tok: Option<Span>, cmds: Vec<Cmd<'a>>, transfer: Transfer) {
        let mut block = Block::new(label, tok);
        block.cmds = cmds;
        let targets = match transfer {
            Transfer::Goto(t, attrs) => {
                block.goto_attrs = attrs.is_some();
                block.jump = attrs.unwrap_or_default();
                t
            }
            Transfer::Return(tok, jump) => {
                block.ret = Some(tok);
                block.jump = jump;
                Vec::new()
            }
        };
        self.blocks.push(block);
        self.targets.push(targets);
    }

    fn goto_successor(&self, tok: Span, bb: usize) -> Transfer {
        match self.bbs[bb].successor {
            Some(s) => Transfer::Goto(vec![self.label(s)], None),
            None => Transfer::Return(tok, Jump::default()),
        }
    }

    fn create_blocks(&mut self, list: usize, run_off_end: Option<String>) {
        let mut prefix = self.lists[list].prefix.take();
        let end = self.lists[list].end;
        let bbs = self.lists[list].blocks.clone();
        let mut remaining = bbs.len();
        for bb in bbs {
            remaining -= 1;
            let mut cmds = prefix.take().unwrap_or_default();
            for c in self.bbs[bb].cmds {
                self.simple_cmd(c, &mut cmds);
            }
            let label = self.label(bb);
            let tok = self.bbs[bb].tok;
            let last_in_loop = if remaining == 0 { run_off_end.clone() } else { None };
            match &self.bbs[bb].tail {
                Tail::Goto { targets, attrs, span } => {
                    let t = targets.iter().map(|t| t.name.to_string()).collect();
                    let (attrs, span) = (*attrs, *span);
                    let inlined_ensures = self.bbs[bb].cmds.iter().any(is_inlined_ensures);
                    self.push_block(label, tok, cmds, Transfer::Goto(t, attrs));
                    // An inlined postcondition fails on the path this goto ends (Boogie's
                    // `ReturnCounterexample` takes the failing block's transfer command).
                    if inlined_ensures && let Some(block) = self.blocks.last_mut() {
                        block.ret = Some(span);
                    }
                }
                Tail::Return(span, jump) => {
                    let (span, jump) = (*span, *jump);
                    self.push_block(label, tok, cmds, Transfer::Return(span, jump));
                }
                Tail::None => {
                    let transfer = match last_in_loop {
                        Some(head) => Transfer::Goto(vec![head], None),
                        None => self.goto_successor(end, bb),
                    };
                    self.push_block(label, tok, cmds, transfer);
                }
                Tail::Break { enclosure, span } => {
                    let transfer = self.goto_successor(*span, *enclosure);
                    self.push_block(label, tok, cmds, transfer);
                }
                Tail::While { cmd, body } => {
                    let (w, body) = (*cmd, *body);
                    let fresh = self.fresh();
                    let head = format!("{fresh}_LoopHead");
                    let mut body_label = format!("{fresh}_LoopBody");
                    let done = format!("{fresh}_LoopDone");
                    let mut ss_body = Vec::new();
                    let mut ss_done = Vec::new();
                    if let Some(g) = &w.guard {
                        ss_body.push(Cmd::Assume { expr: g, negated: false, attrs: AssumeAttrs::Partition(w.span) });
                        ss_done.push(Cmd::Assume { expr: g, negated: true, attrs: AssumeAttrs::Partition(w.span) });
                    }
                    let taken = self.prefix_first_block(body, ss_body.clone(), &mut body_label);
                    self.push_block(label, tok, cmds, Transfer::Goto(vec![head.clone()], None));
                    let mut ss_head = Vec::new();
                    for spec in &w.invariants {
                        if let LoopSpec::Invariant { free, attrs, expr, span } = spec {
                            if *free {
                                ss_head.push(Cmd::Assume {
                                    expr,
                                    negated: false,
                                    attrs: AssumeAttrs::Written(attrs, *span),
                                });
                            } else {
                                let check = Check {
                                    kind: CheckKind::Assert,
                                    tok: *span,
                                    msg: msg_attr(attrs),
                                    describe: describe_attr(attrs),
                                    subsume: subsumption(attrs),
                                    isolate: super::isolate_attr(attrs),
                                    clause: None,
                                };
                                ss_head.push(Cmd::Assert { expr, check, under: verified_under(attrs), attrs });
                            }
                        }
                    }
                    // Measures follow the invariants in the head (Boogie's order).
                    for spec in &w.invariants {
                        if let LoopSpec::Measure { exprs, span, .. } = spec {
                            ss_head.push(Cmd::Measure { exprs, span: *span });
                        }
                    }
                    self.push_block(
                        head.clone(),
                        Some(w.span),
                        ss_head,
                        Transfer::Goto(vec![done.clone(), body_label.clone()], None),
                    );
                    if !taken {
                        let first = self.label(self.lists[body].blocks[0]);
                        self.push_block(body_label, Some(w.span), ss_body, Transfer::Goto(vec![first], None));
                    }
                    self.create_blocks(body, Some(head));
                    let transfer = match last_in_loop {
                        Some(h) => Transfer::Goto(vec![h], None),
                        None => self.goto_successor(w.span, bb),
                    };
                    self.push_block(done, Some(w.span), ss_done, transfer);
                }
                Tail::If(arms) => {
                    let arms = arms.clone();
                    let mut pred_label = label;
                    let mut pred_cmds = cmds;
                    let mut jump_tok = tok;
                    for (k, arm) in arms.iter().enumerate() {
                        let c = arm.cmd;
                        let fresh = self.fresh();
                        let mut then_label = format!("{fresh}_Then");
                        let mut else_label = format!("{fresh}_Else");
                        let mut ss_then = Vec::new();
                        let mut ss_else = Vec::new();
                        if let Some(g) = &c.guard {
                            ss_then.push(Cmd::Assume {
                                expr: g,
                                negated: false,
                                attrs: AssumeAttrs::Partition(c.span),
                            });
                            ss_else.push(Cmd::Assume { expr: g, negated: true, attrs: AssumeAttrs::Partition(c.span) });
                        }
                        let then_taken = self.prefix_first_block(arm.then, ss_then.clone(), &mut then_label);
                        let else_taken = match arm.els {
                            Some(e) => self.prefix_first_block(e, ss_else.clone(), &mut else_label),
                            None => false,
                        };
                        self.push_block(
                            std::mem::take(&mut pred_label),
                            jump_tok,
                            std::mem::take(&mut pred_cmds),
                            Transfer::Goto(vec![then_label.clone(), else_label.clone()], jump_attrs(&c.attrs)),
                        );
                        if !then_taken {
                            let first = self.label(self.lists[arm.then].blocks[0]);
                            self.push_block(then_label, Some(c.span), ss_then, Transfer::Goto(vec![first], None));
                        }
                        self.create_blocks(arm.then, last_in_loop.clone());
                        if let Some(e) = arm.els {
                            if !else_taken {
                                let first = self.label(self.lists[e].blocks[0]);
                                self.push_block(else_label, Some(c.span), ss_else, Transfer::Goto(vec![first], None));
                            }
                            self.create_blocks(e, last_in_loop.clone());
                        } else if k + 1 < arms.len() {
                            // `else if`: the next test is made in the else block.
                            jump_tok = Some(arms[k + 1].cmd.span);
                            pred_label = else_label;
                            pred_cmds = ss_else;
                        } else {
                            let transfer = match &last_in_loop {
                                Some(h) => Transfer::Goto(vec![h.clone()], None),
                                None => self.goto_successor(c.span, bb),
                            };
                            self.push_block(else_label, Some(c.span), ss_else, transfer);
                        }
                    }
                }
            }
        }
    }
}

enum Transfer {
    /// The targets, and the goto's attributes if it has any.
    Goto(Vec<String>, Option<Jump>),
    Return(Span, Jump),
}

/// A goto's attributes, if it has any.
fn jump_attrs(attrs: &[ast::Attribute]) -> Option<Jump> {
    (!attrs.is_empty()).then(|| Jump::of(attrs))
}

/// Lowers an implementation body to blocks (the first is the entry). Commands the generator
/// does not support are reported.
pub fn lower<'a>(typed: &'a TypedProgram, body: &'a StmtList) -> Result<Vec<Block<'a>>, Unsupported> {
    let (blocks, error) = lower_all(typed, body);
    match error {
        Some(e) => Err(e),
        None => Ok(blocks),
    }
}

/// Lowers an implementation body to blocks as far as it can: the blocks, with the commands
/// the generator does not support left out, and the first such command. (The measure checks
/// look at the blocks of every implementation, supported or not.)
pub fn lower_all<'a>(typed: &'a TypedProgram, body: &'a StmtList) -> (Vec<Block<'a>>, Option<Unsupported>) {
    lower_with(typed, body, false)
}

/// [`lower`] for an analysis of the program as the user wrote it, before the passes: an unpack
/// command is an assumption of its right-hand side, in its place (never verified so).
pub fn lower_for_analysis<'a>(typed: &'a TypedProgram, body: &'a StmtList) -> Result<Vec<Block<'a>>, Unsupported> {
    match lower_with(typed, body, true) {
        (blocks, None) => Ok(blocks),
        (_, Some(e)) => Err(e),
    }
}

fn lower_with<'a>(
    typed: &'a TypedProgram,
    body: &'a StmtList,
    unpack_as_assume: bool,
) -> (Vec<Block<'a>>, Option<Unsupported>) {
    let mut l = Lowering {
        unpack_as_assume,
        typed,
        error: None,
        bbs: Vec::new(),
        lists: Vec::new(),
        prefix: "anon".to_string(),
        anon: 0,
        blocks: Vec::new(),
        targets: Vec::new(),
    };
    let root = l.build(body, &mut Vec::new());
    l.choose_prefix(root);
    l.name_anonymous(root);
    l.assign_successors(root, None);
    l.create_blocks(root, None);
    let mut error = l.error.take();
    let index: FxHashMap<String, usize> = l.blocks.iter().enumerate().map(|(i, b)| (b.label.clone(), i)).collect();
    for (b, targets) in l.targets.iter().enumerate() {
        for t in targets {
            match index.get(t) {
                Some(&s) => l.blocks[b].succs.push(s),
                None => {
                    error.get_or_insert_with(|| Unsupported::new(None, format!("goto target {t} not found")));
                }
            }
        }
    }
    (l.blocks, error)
}

/// The variable an identifier names.
pub fn var_of(typed: &TypedProgram, name: &Ident) -> Result<VarId, Unsupported> {
    match typed.referent(name) {
        Some(Ref::Var(v)) => Ok(v),
        _ => Err(Unsupported::new(Some(name.span), format!("unresolved variable {}", name.name))),
    }
}

// ---------------------------------------------------------------------------------------------
// BlockCoalescer

/// The attribute a pass puts on an implementation whose body it left as Boogie's block list
/// (one labeled block per block, each ending in a goto or a return): inlining and unrolling
/// work on coalesced blocks, and Boogie never coalesces their output again, so [`coalesce`]
/// must not run on such a body (it would merge the `Entry`/`Return` blocks of inlined calls
/// and the copies of unrolled loops, which execution traces print).
pub const BLOCK_FORM: &str = "rboogie_block_form";

/// Whether `attrs` mark a body as already in block form ([`BLOCK_FORM`]).
pub fn in_block_form(attrs: &[ast::Attribute]) -> bool {
    attrs.iter().any(|a| a.key == BLOCK_FORM)
}

/// Merges each block with its only successor when it is that successor's only predecessor;
/// drops unreachable blocks (`BlockCoalescer.CoalesceFromRootBlock`).
pub fn coalesce(blocks: Vec<Block<'_>>) -> Vec<Block<'_>> {
    if blocks.is_empty() {
        return blocks;
    }
    // Blocks reached twice in a depth-first walk from the root have several predecessors.
    let mut multi = FxHashSet::default();
    let mut seen = FxHashSet::default();
    let mut stack = vec![0];
    while let Some(b) = stack.pop() {
        if !seen.insert(b) {
            multi.insert(b);
            continue;
        }
        stack.extend(blocks[b].succs.iter().copied());
    }
    let mut blocks: Vec<Option<Block>> = blocks.into_iter().map(Some).collect();
    let mut visited = FxHashSet::default();
    let mut removed = FxHashSet::default();
    let mut stack = vec![0];
    while let Some(b) = stack.pop() {
        if !visited.insert(b) {
            continue;
        }
        let succs = blocks[b].as_ref().unwrap().succs.clone();
        if succs.len() != 1 {
            stack.extend(succs);
            continue;
        }
        let s = succs[0];
        if multi.contains(&s) || s == b {
            stack.push(s);
            continue;
        }
        let succ = blocks[s].take().unwrap();
        let block = blocks[b].as_mut().unwrap();
        block.cmds.extend(succ.cmds);
        block.succs = succ.succs;
        block.ret = succ.ret;
        block.goto_attrs = succ.goto_attrs;
        block.jump = succ.jump;
        if block.tok.is_none() && succ.tok.is_some() {
            block.tok = succ.tok;
            block.label = succ.label;
        }
        removed.insert(s);
        stack.push(b);
        visited.remove(&b);
    }
    renumber(blocks.into_iter().enumerate().map(|(i, b)| b.filter(|_| visited.contains(&i) && !removed.contains(&i))))
}

/// Keeps the blocks that are `Some`, in order, and renumbers the successor lists.
fn renumber<'a>(blocks: impl Iterator<Item = Option<Block<'a>>>) -> Vec<Block<'a>> {
    let blocks: Vec<Option<Block>> = blocks.collect();
    let mut map = vec![usize::MAX; blocks.len()];
    let mut n = 0;
    for (i, b) in blocks.iter().enumerate() {
        if b.is_some() {
            map[i] = n;
            n += 1;
        }
    }
    blocks
        .into_iter()
        .flatten()
        .map(|mut b| {
            b.succs = b.succs.iter().map(|&s| map[s]).filter(|&s| s != usize::MAX).collect();
            b
        })
        .collect()
}

/// Drops blocks not reachable from the first (`Implementation.PruneUnreachableBlocks`). A block
/// with a literal `assert false` or `assume false` never reaches its end: its successors are
/// cut (Boogie's `/pruneInfeasibleEdges`, on by default), so `L: assert false; goto L;` is no
/// loop.
pub fn prune_unreachable(mut blocks: Vec<Block<'_>>) -> Vec<Block<'_>> {
    let literal_false = |c: &Cmd| match c {
        Cmd::Assert { expr, .. } | Cmd::Assume { expr, negated: false, .. } => {
            matches!(expr.kind, ast::ExprKind::BoolLit(false))
        }
        Cmd::AssumeFalse => true,
        _ => false,
    };
    let mut seen = vec![false; blocks.len()];
    let mut stack = vec![0];
    while let Some(b) = stack.pop() {
        if b < blocks.len() && !seen[b] {
            seen[b] = true;
            let block = &mut blocks[b];
            if !block.succs.is_empty() && block.cmds.iter().any(literal_false) {
                block.succs.clear();
                block.ret = block.ret.or(block.tok);
                continue;
            }
            stack.extend(block.succs.iter().copied());
        }
    }
    renumber(blocks.into_iter().enumerate().map(|(i, b)| seen[i].then_some(b)))
}

// ---------------------------------------------------------------------------------------------
// Loops (RemoveBackEdges)

/// Immediate dominators (Cooper, Harvey and Kennedy's iterative algorithm) over the blocks
/// reachable from block 0; `None` for unreachable blocks.
fn dominators(blocks: &[Block], preds: &[Vec<usize>]) -> (Vec<Option<usize>>, Vec<usize>) {
    // Reverse postorder.
    let n = blocks.len();
    let mut post = Vec::new();
    let mut state = vec![0u8; n];
    let mut stack = vec![(0usize, 0usize)];
    state[0] = 1;
    while let Some(&mut (b, ref mut i)) = stack.last_mut() {
        if *i < blocks[b].succs.len() {
            let s = blocks[b].succs[*i];
            *i += 1;
            if state[s] == 0 {
                state[s] = 1;
                stack.push((s, 0));
            }
        } else {
            post.push(b);
            stack.pop();
        }
    }
    let mut order = vec![usize::MAX; n];
    for (k, &b) in post.iter().enumerate() {
        order[b] = k;
    }
    let mut idom: Vec<Option<usize>> = vec![None; n];
    idom[0] = Some(0);
    let mut changed = true;
    while changed {
        changed = false;
        for &b in post.iter().rev() {
            if b == 0 {
                continue;
            }
            let mut new: Option<usize> = None;
            for &p in &preds[b] {
                if idom[p].is_none() {
                    continue;
                }
                new = Some(match new {
                    None => p,
                    Some(mut a) => {
                        let mut c = p;
                        while a != c {
                            while order[a] < order[c] {
                                a = idom[a].unwrap();
                            }
                            while order[c] < order[a] {
                                c = idom[c].unwrap();
                            }
                        }
                        a
                    }
                });
            }
            if new.is_some() && idom[b] != new {
                idom[b] = new;
                changed = true;
            }
        }
    }
    (idom, post)
}

/// Dominance queries in constant time: `a` dominates `b` when `b`'s interval in a depth-first
/// walk of the dominator tree lies within `a`'s. (Walking `b`'s chain of immediate dominators
/// instead takes time linear in the tree's depth, which a long run of if-then-else diamonds
/// makes linear in the program: every edge asked about made cutting loops quadratic.)
struct Dominance {
    pre: Vec<u32>,
    post: Vec<u32>,
}

impl Dominance {
    fn new(idom: &[Option<usize>]) -> Dominance {
        let n = idom.len();
        let mut children = vec![Vec::new(); n];
        for (b, d) in idom.iter().enumerate() {
            if let Some(d) = *d
                && d != b
            {
                children[d].push(b);
            }
        }
        let (mut pre, mut post) = (vec![u32::MAX; n], vec![0u32; n]);
        if n == 0 {
            return Dominance { pre, post };
        }
        let mut clock = 1;
        pre[0] = 0;
        let mut stack = vec![(0usize, 0usize)];
        while let Some(top) = stack.len().checked_sub(1) {
            let (b, i) = stack[top];
            if let Some(&c) = children[b].get(i) {
                stack[top].1 += 1;
                pre[c] = clock;
                clock += 1;
                stack.push((c, 0));
            } else {
                post[b] = clock;
                clock += 1;
                stack.pop();
            }
        }
        Dominance { pre, post }
    }

    /// Whether `a` dominates `b` (every block dominates itself; an unreachable one only that).
    fn dominates(&self, a: usize, b: usize) -> bool {
        a == b
            || (self.pre[a] != u32::MAX
                && self.pre[b] != u32::MAX
                && self.pre[a] <= self.pre[b]
                && self.post[b] <= self.post[a])
    }
}

/// The variables a command may change: assignment and havoc targets, call outs and the
/// callee's `modifies` (Boogie's `Cmd.AddAssignedVariables`).
pub fn assigned_vars(
    typed: &TypedProgram,
    modifies: &[Vec<VarId>],
    cmd: &Cmd,
    out: &mut Vec<VarId>,
) -> Result<(), Unsupported> {
    match cmd {
        Cmd::Havoc(vars) => out.extend(vars.iter().copied()),
        Cmd::Assign { lhss, .. } => {
            for lhs in lhss.iter() {
                let mut l = lhs;
                loop {
                    match l {
                        ast::AssignLhs::Var(v) => {
                            out.push(var_of(typed, v)?);
                            break;
                        }
                        ast::AssignLhs::Select { base, .. } | ast::AssignLhs::Field { base, .. } => l = base,
                    }
                }
            }
        }
        Cmd::Call(call) => {
            for o in &call.outs {
                out.push(var_of(typed, o)?);
            }
            if let Some(Ref::Procedure(p)) = typed.referent(&call.callee) {
                out.extend(modifies[p.0 as usize].iter().copied());
            }
        }
        _ => {}
    }
    Ok(())
}

/// Makes the block graph acyclic as Boogie's `ConvertCfg2DagStandard` does. Block 0 of the
/// result is a dummy start block `0`. `assume_free_invariants`: `/alwaysAssumeFreeLoopInvariants`.
pub fn cut_loops<'a>(
    typed: &TypedProgram,
    modifies: &[Vec<VarId>],
    blocks: Vec<Block<'a>>,
    assume_free_invariants: bool,
) -> Result<Vec<Block<'a>>, Unsupported> {
    let blocks = prune_unreachable(blocks);
    // A dummy start block that no goto targets.
    let blocks: Vec<Block<'a>> = std::iter::once({
        let mut b = Block::new("0".to_string(), None);
        b.succs.push(1);
        b
    })
    .chain(blocks.into_iter().map(|mut b| {
        b.succs.iter_mut().for_each(|s| *s += 1);
        b
    }))
    .collect();
    let snapshots = |blocks: &[Block]| {
        blocks.iter().flat_map(|b| &b.cmds).filter(|c| matches!(c, Cmd::MeasureSnapshot { .. })).count()
    };
    let before = snapshots(&blocks);
    let mut blocks = make_reducible(blocks);
    // A copied loop head would share its measure's snapshot with the original.
    if snapshots(&blocks) > before {
        return Err(Unsupported::new(None, "loop measures in irreducible control flow"));
    }
    let preds = predecessors(&blocks);
    let (idom, post) = dominators(&blocks, &preds);
    let dominance = Dominance::new(&idom);
    // Back edges: to a block that dominates the source. Any other retreating edge would make
    // the graph irreducible, which `make_reducible` has undone.
    let mut rpo_index = vec![usize::MAX; blocks.len()];
    for (k, &b) in post.iter().rev().enumerate() {
        rpo_index[b] = k;
    }
    let mut headers: Vec<usize> = Vec::new();
    let mut back_edges: FxHashMap<usize, Vec<usize>> = FxHashMap::default();
    for (b, block) in blocks.iter().enumerate() {
        for &s in &block.succs {
            if rpo_index[s] <= rpo_index[b] {
                if !dominance.dominates(s, b) {
                    return Err(Unsupported::new(blocks[s].tok, "irreducible control flow"));
                }
                let sources = back_edges.entry(s).or_default();
                if !sources.contains(&b) {
                    sources.push(b);
                }
                if !headers.contains(&s) {
                    headers.push(s);
                }
            }
        }
    }
    headers.sort_by_key(|&h| rpo_index[h]);
    // Loop bodies and their assigned variables, computed on the original graph.
    let mut loop_vars: FxHashMap<usize, Vec<VarId>> = FxHashMap::default();
    for &h in &headers {
        let mut body = FxHashSet::default();
        body.insert(h);
        let mut stack: Vec<usize> = back_edges[&h].clone();
        while let Some(b) = stack.pop() {
            if body.insert(b) {
                stack.extend(preds[b].iter().copied());
            }
        }
        let mut vars = Vec::new();
        let mut ordered: Vec<usize> = body.into_iter().collect();
        ordered.sort_unstable();
        for b in ordered {
            for c in &blocks[b].cmds {
                assigned_vars(typed, modifies, c, &mut vars)?;
            }
        }
        let mut seen = FxHashSet::default();
        vars.retain(|v| seen.insert(*v));
        loop_vars.insert(h, vars);
    }
    let mut preds = preds;
    for &header in &headers {
        let mut back: Vec<usize> = back_edges[&header].clone();
        // The invariant: the leading assert/assume commands of the header.
        let mut init = Vec::new();
        let mut maintained = Vec::new();
        // The label of a tracked invariant (`/trackVerificationCoverage`): the marker before it.
        let mut label: Option<(usize, std::sync::Arc<str>)> = None;
        let mut relabel = Vec::new();
        for (k, c) in blocks[header].cmds.iter_mut().enumerate() {
            match c {
                Cmd::Track(l) => label = Some((k, l.clone())),
                Cmd::Assert { expr, check, under, attrs } => {
                    let expr: &'a Expr = expr;
                    let (under, attrs) = (*under, *attrs);
                    let tracked = label.take().filter(|(at, _)| at + 1 == k);
                    let labels = tracked.map(|(at, l)| (at, super::coverage::invariant(&l)));
                    let mut i = check.clone();
                    i.kind = CheckKind::LoopInit;
                    let mut m = check.clone();
                    m.kind = CheckKind::LoopMaintained;
                    if let Some((at, [established, kept, assumed])) = labels {
                        init.push(Cmd::Track(established));
                        maintained.push(Cmd::Track(kept));
                        relabel.push((at, assumed));
                    }
                    init.push(Cmd::Assert { expr, check: i, under, attrs });
                    maintained.push(Cmd::Assert { expr, check: m, under, attrs });
                    *c = Cmd::Assume { expr, negated: false, attrs: AssumeAttrs::None };
                }
                // A loop measure's `assert e >= 0` is part of the invariant, as in Boogie.
                Cmd::NonNegative { expr, check: Some(check) } => {
                    let expr: &'a Expr = expr;
                    let mut i = check.clone();
                    i.kind = CheckKind::LoopInit;
                    init.push(Cmd::NonNegative { expr, check: Some(i) });
                    let mut m = check.clone();
                    m.kind = CheckKind::LoopMaintained;
                    maintained.push(Cmd::NonNegative { expr, check: Some(m) });
                    *c = Cmd::NonNegative { expr, check: None };
                }
                // A free invariant (an `assume` in the header's prefix) is usually only assumed
                // at the header; `/alwaysAssumeFreeLoopInvariants` also assumes it where the
                // checked invariants are asserted, in its place among them (Boogie's
                // `RemoveBackEdges`).
                Cmd::Assume { .. } | Cmd::AssumeFalse => {
                    if assume_free_invariants {
                        init.push(c.clone());
                        maintained.push(c.clone());
                    }
                }
                Cmd::NonNegative { check: None, .. } => {}
                _ => break,
            }
        }
        for (at, assumed) in relabel {
            blocks[header].cmds[at] = Cmd::Track(assumed);
        }
        let header_preds = preds[header].clone();
        for pred in header_preds {
            let mut p = pred;
            if blocks[p].succs.len() > 1 {
                let between = create_block_between(&mut blocks, &mut preds, p, header);
                if let Some(k) = back.iter().position(|&b| b == p) {
                    back[k] = between;
                }
                p = between;
            }
            let cmds = if back.contains(&p) { maintained.clone() } else { init.clone() };
            blocks[p].cmds.extend(cmds);
        }
        for &b in &back {
            if blocks[b].succs.len() > 1 {
                blocks[b].succs.retain(|&s| s != header);
            } else {
                blocks[b].cmds.push(Cmd::AssumeFalse);
                blocks[b].succs.clear();
                blocks[b].ret = blocks[b].tok;
            }
            preds[header].retain(|&p| p != b);
        }
        let vars = loop_vars[&header].clone();
        blocks[header].cmds.insert(0, Cmd::Havoc(vars));
    }
    Ok(blocks)
}

/// Boogie's `Implementation.ConvertToReducible`: while the graph without its back edges (edges
/// into a dominator) has a cycle, split a block of that cycle. The block chosen is the cycle's
/// first with several predecessors and no invariant (else the first with several
/// predecessors), in the order Boogie's `FindCycle` lists the cycle; every predecessor it does
/// not dominate gets its own copy of the block and of the region the block dominates. Copies
/// are named `L_dup_N` and have no token (traces do not print them). Gives up, leaving the
/// graph as it is, only when no block of the cycle can be split.
fn make_reducible(mut blocks: Vec<Block<'_>>) -> Vec<Block<'_>> {
    let mut next_dup: FxHashMap<String, usize> = FxHashMap::default();
    loop {
        let preds = predecessors(&blocks);
        let (idom, _) = dominators(&blocks, &preds);
        let dominance = Dominance::new(&idom);
        let cycle = forward_cycle(&blocks, &dominance);
        // A coverage label (`/trackVerificationCoverage`) belongs to the command after it.
        let has_invariant = |b: usize| {
            matches!(
                blocks[b].cmds.iter().find(|c| !matches!(c, Cmd::Track(_))),
                Some(Cmd::Assert { .. } | Cmd::NonNegative { check: Some(_), .. })
            )
        };
        let split = cycle
            .iter()
            .find(|&&b| preds[b].len() > 1 && !has_invariant(b))
            .or_else(|| cycle.iter().find(|&&b| preds[b].len() > 1));
        let Some(&split) = split else { return blocks };
        let dominated = |b: usize| idom[b].is_some() && dominance.dominates(split, b);
        let region: Vec<usize> =
            std::iter::once(split).chain((0..blocks.len()).filter(|&b| b != split && dominated(b))).collect();
        let mut split_preds = preds[split].clone();
        split_preds.dedup();
        for pred in split_preds {
            if dominated(pred) {
                continue;
            }
            let mut copies: FxHashMap<usize, usize> = FxHashMap::default();
            for &b in &region {
                let counter = next_dup.entry(blocks[b].label.clone()).or_default();
                let mut copy = blocks[b].clone();
                copy.label = format!("{}_dup_{counter}", blocks[b].label);
                copy.tok = None;
                *counter += 1;
                copies.insert(b, blocks.len());
                blocks.push(copy);
            }
            retarget(&mut blocks[pred], split, copies[&split]);
            for &copy in copies.values() {
                for target in blocks[copy].succs.clone() {
                    if let Some(&c) = copies.get(&target) {
                        retarget(&mut blocks[copy], target, c);
                    }
                }
            }
        }
        blocks = prune_unreachable(blocks);
    }
}

/// Boogie's `RemoveTarget` then `AddTarget`: the new target goes last.
fn retarget(block: &mut Block<'_>, from: usize, to: usize) {
    if let Some(k) = block.succs.iter().position(|&s| s == from) {
        block.succs.remove(k);
        block.succs.push(to);
    }
}

/// A cycle of the graph without its back edges, as Boogie's `Graph.FindCycle` finds it (a
/// depth-first walk from block 0): the block the walk met again, then the walk's stack back
/// down to it. Empty when the graph is reducible.
fn forward_cycle(blocks: &[Block<'_>], dominance: &Dominance) -> Vec<usize> {
    let forward = |b: usize| -> Vec<usize> {
        let mut succs: Vec<usize> = Vec::new();
        for &s in &blocks[b].succs {
            if !dominance.dominates(s, b) && !succs.contains(&s) {
                succs.push(s);
            }
        }
        succs
    };
    let mut on_stack = vec![false; blocks.len()];
    let mut visited = vec![false; blocks.len()];
    let mut stack: Vec<(usize, Vec<usize>, usize)> = vec![(0, forward(0), 0)];
    on_stack[0] = true;
    while let Some((node, children, next)) = stack.last_mut() {
        let Some(&n) = children.get(*next) else {
            on_stack[*node] = false;
            stack.pop();
            continue;
        };
        *next += 1;
        if on_stack[n] {
            let mut cycle = vec![n];
            while let Some((x, _, _)) = stack.pop() {
                if x == n {
                    break;
                }
                cycle.push(x);
            }
            return cycle;
        }
        if visited[n] {
            continue;
        }
        visited[n] = true;
        on_stack[n] = true;
        stack.push((n, forward(n), 0));
    }
    Vec::new()
}

/// Boogie's `CreateBlockBetween`: a block `pred_@2_succ` (no token) on the edge.
fn create_block_between<'a>(
    blocks: &mut Vec<Block<'a>>,
    preds: &mut Vec<Vec<usize>>,
    pred: usize,
    succ: usize,
) -> usize {
    let index = blocks.len();
    let mut b = Block::new(format!("{}_@2_{}", blocks[pred].label, blocks[succ].label), None);
    b.succs.push(succ);
    blocks.push(b);
    preds.push(vec![pred]);
    for s in blocks[pred].succs.iter_mut() {
        if *s == succ {
            *s = index;
        }
    }
    for p in preds[succ].iter_mut() {
        if *p == pred {
            *p = index;
        }
    }
    index
}

/// Inserts an empty block on each edge from a block with several successors into a block with
/// several predecessors (`AddBlocksBetween`).
pub fn add_blocks_between(blocks: &mut Vec<Block<'_>>) {
    let mut preds = predecessors(blocks);
    for b in 0..blocks.len() {
        if preds[b].len() > 1 {
            for p in preds[b].clone() {
                if blocks[p].succs.len() > 1 {
                    create_block_between(blocks, &mut preds, p, b);
                }
            }
        }
    }
}

/// Specification commands to inject: preconditions and where clauses at the entry, and the
/// postconditions at the exit.
pub struct Specs<'a> {
    pub entry: Vec<Cmd<'a>>,
    pub exit: Vec<Cmd<'a>>,
}

/// Gives the program one exit block (`GeneratedUnifiedExit` when there are several returns),
/// puts `specs.exit` there and `specs.entry` in a new entry block
/// `PreconditionGeneratedEntry`. Returns the index of the exit block.
pub fn add_exit_and_specs<'a>(blocks: &mut Vec<Block<'a>>, specs: Specs<'a>, end_curly: Span) -> usize {
    let returns: Vec<usize> = (0..blocks.len()).filter(|&b| blocks[b].succs.is_empty()).collect();
    let exit = if returns.len() > 1 {
        let exit = blocks.len();
        let mut e = Block::new("GeneratedUnifiedExit".to_string(), None);
        e.ret = Some(end_curly);
        blocks.push(e);
        for r in returns {
            blocks[r].succs.push(exit);
            blocks[r].from_return = true;
        }
        exit
    } else {
        returns.first().copied().unwrap_or(0)
    };
    blocks[exit].cmds.extend(specs.exit);
    // The new entry goes first: shift every index by one.
    for b in blocks.iter_mut() {
        b.succs.iter_mut().for_each(|s| *s += 1);
    }
    let mut entry = Block::new("PreconditionGeneratedEntry".to_string(), None);
    entry.cmds = specs.entry;
    entry.succs.push(1);
    blocks.insert(0, entry);
    exit + 1
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::vcgen::tests::{acyclic, lowered, modifies, typed};

    /// Each block as `label -> successors`.
    fn edges(blocks: &[Block]) -> Vec<String> {
        let edge = |b: &Block| {
            let succs: Vec<&str> = b.succs.iter().map(|&s| blocks[s].label.as_str()).collect();
            if succs.is_empty() { b.label.clone() } else { format!("{} -> {}", b.label, succs.join(" ")) }
        };
        blocks.iter().map(edge).collect()
    }

    /// The commands of block `label`, in short.
    fn cmds(blocks: &[Block], label: &str) -> Vec<String> {
        let block = blocks.iter().find(|b| b.label == label).unwrap_or_else(|| panic!("no block {label}"));
        let cmd = |c: &Cmd| match c {
            Cmd::Assert { expr, check, .. } => format!("assert({:?}) {}", check.kind, crate::printer::print_expr(expr)),
            Cmd::Assume { expr, negated, .. } => {
                format!("assume {}{}", if *negated { "!" } else { "" }, crate::printer::print_expr(expr))
            }
            Cmd::AssumeFalse => "assume false".into(),
            Cmd::Havoc(vars) => format!("havoc {}", vars.len()),
            Cmd::Assign { lhss, .. } => format!("assign {}", lhss.len()),
            Cmd::Call(c) => format!("call {}", c.callee.name),
            other => format!("{other:?}"),
        };
        block.cmds.iter().map(cmd).collect()
    }

    /// No block reaches itself.
    fn is_acyclic(blocks: &[Block]) -> bool {
        // Kahn's algorithm: every block is taken once all its predecessors are.
        let preds = predecessors(blocks);
        let mut waiting: Vec<usize> = preds.iter().map(Vec::len).collect();
        let mut ready: Vec<usize> = (0..blocks.len()).filter(|&b| waiting[b] == 0).collect();
        let mut taken = 0;
        while let Some(b) = ready.pop() {
            taken += 1;
            for &s in &blocks[b].succs {
                waiting[s] -= 1;
                if waiting[s] == 0 {
                    ready.push(s);
                }
            }
        }
        taken == blocks.len()
    }

    #[test]
    fn if_else_is_a_branch_whose_arms_assume_the_guard() {
        let t = typed("procedure P(x: int) returns (y: int) { if (x > 0) { y := 1; } else { y := 2; } }\n");
        let blocks = lowered(&t, "P");
        assert_eq!(edges(&blocks), ["anon0 -> anon3_Then anon3_Else", "anon3_Then", "anon3_Else"]);
        assert_eq!(cmds(&blocks, "anon3_Then"), ["assume x > 0", "assign 1"]);
        assert_eq!(cmds(&blocks, "anon3_Else"), ["assume !x > 0", "assign 1"]);
    }

    #[test]
    fn if_without_else_has_an_else_block_of_the_negated_guard() {
        let t = typed("procedure P(x: int) returns (y: int) { if (x > 0) { y := 1; } }\n");
        let blocks = lowered(&t, "P");
        assert_eq!(edges(&blocks), ["anon0 -> anon2_Then anon2_Else", "anon2_Then", "anon2_Else"]);
        assert_eq!(cmds(&blocks, "anon2_Else"), ["assume !x > 0"]);
    }

    const LOOP: &str =
        "procedure P(n: int) returns (i: int) { i := 0; while (i < n) invariant i >= 0; { i := i + 1; } }\n";

    #[test]
    fn while_is_a_head_a_body_that_jumps_back_and_an_exit() {
        let t = typed(LOOP);
        let blocks = lowered(&t, "P");
        assert_eq!(
            edges(&blocks),
            [
                "anon0 -> anon2_LoopHead",
                "anon2_LoopHead -> anon2_LoopDone anon2_LoopBody",
                "anon2_LoopBody -> anon2_LoopHead",
                "anon2_LoopDone",
            ]
        );
        assert_eq!(cmds(&blocks, "anon2_LoopHead"), ["assert(Assert) i >= 0"]);
        assert!(!is_acyclic(&blocks));
    }

    #[test]
    fn cutting_a_loop_checks_its_invariant_on_entry_and_on_the_back_edge() {
        let t = typed(LOOP);
        let blocks = acyclic(&t, "P", &modifies(&t));
        assert!(is_acyclic(&blocks));
        assert_eq!(cmds(&blocks, "anon0"), ["assign 1", "assert(LoopInit) i >= 0"]);
        // The loop's targets havocked, then the invariant assumed.
        assert_eq!(cmds(&blocks, "anon2_LoopHead"), ["havoc 1", "assume i >= 0"]);
        assert_eq!(
            cmds(&blocks, "anon2_LoopBody"),
            ["assume i < n", "assign 1", "assert(LoopMaintained) i >= 0", "assume false"]
        );
        assert!(edges(&blocks).contains(&"anon2_LoopBody -> GeneratedUnifiedExit".to_string()), "{:?}", edges(&blocks));
    }

    #[test]
    fn break_jumps_to_the_code_after_the_loop() {
        let t = typed(
            "procedure P(n: int) returns (i: int) {\n\
              i := 0; while (true) { if (i > n) { break; } i := i + 1; } assert i > n;\n\
            }\n",
        );
        let blocks = lowered(&t, "P");
        let edges = edges(&blocks);
        for edge in ["anon6_Then -> anon4", "anon5_LoopDone -> anon4", "anon6_Else -> anon5_LoopHead"] {
            assert!(edges.contains(&edge.to_string()), "{edge} in {edges:?}");
        }
        assert_eq!(cmds(&blocks, "anon4"), ["assert(Assert) i > n"]);
    }

    #[test]
    fn goto_targets_keep_their_labels() {
        let t = typed(
            "procedure P(x: int) returns (y: int) { goto A, B; A: y := 1; goto C; B: y := 2; goto C; C: assert y > 0; }\n",
        );
        assert_eq!(edges(&lowered(&t, "P")), ["anon0 -> A B", "A -> C", "B -> C", "C"]);
    }

    #[test]
    fn straight_line_blocks_are_coalesced() {
        let t = typed("procedure P(x: int) { goto A; A: assume x > 0; goto B; B: assert x > 0; }\n");
        let blocks = lowered(&t, "P");
        assert_eq!(blocks.len(), 1, "{:?}", edges(&blocks));
        assert_eq!(cmds(&blocks, &blocks[0].label), ["assume x > 0", "assert(Assert) x > 0"]);
    }

    #[test]
    fn returns_meet_at_one_exit_that_checks_the_postconditions() {
        let t = typed(
            "procedure P(x: int) returns (y: int) requires x > 0; ensures y > 0;\n\
            { if (x > 5) { y := x; return; } y := 1; }\n",
        );
        let blocks = acyclic(&t, "P", &modifies(&t));
        assert_eq!(
            edges(&blocks),
            [
                "PreconditionGeneratedEntry -> 0",
                "0 -> anon0",
                "anon0 -> anon3_Then anon3_Else",
                "anon3_Then -> GeneratedUnifiedExit",
                "anon3_Else -> GeneratedUnifiedExit",
                "GeneratedUnifiedExit",
            ]
        );
        assert_eq!(cmds(&blocks, "PreconditionGeneratedEntry"), ["assume x > 0"]);
        assert_eq!(cmds(&blocks, "GeneratedUnifiedExit"), ["assert(Ensures) y > 0"]);
        assert!(blocks.iter().filter(|b| b.from_return).count() == 2);
    }

    #[test]
    fn a_block_that_jumps_to_itself_is_a_loop() {
        let t = typed("procedure P() { L: assert true; goto L; }\n");
        let blocks = acyclic(&t, "P", &modifies(&t));
        assert!(is_acyclic(&blocks));
        assert_eq!(cmds(&blocks, "0"), ["assert(LoopInit) true"]);
        assert_eq!(cmds(&blocks, "L"), ["havoc 0", "assume true", "assert(LoopMaintained) true", "assume false"]);
    }

    #[test]
    fn an_edge_from_a_branch_into_a_join_gets_a_block_of_its_own() {
        let t = typed("procedure P(x: int) { goto A, C; A: assume x > 0; goto C; C: assert x > 0; }\n");
        let blocks = acyclic(&t, "P", &modifies(&t));
        let edges = edges(&blocks);
        assert!(edges.contains(&"anon0 -> A anon0_@2_C".to_string()), "{edges:?}");
        assert!(edges.contains(&"anon0_@2_C -> C".to_string()), "{edges:?}");
        assert!(cmds(&blocks, "anon0_@2_C").is_empty());
    }
}
