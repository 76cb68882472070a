//! The block form the passes share: an implementation body as Boogie's blocks (labeled runs of
//! AST commands with their successors), as Boogie's inliner and loop unroller see it, and back
//! to a body of labeled big blocks. Inlining, loop unrolling and `/printInlined` work on it;
//! a body a pass left as blocks is marked ([`cfg::BLOCK_FORM`]) so that it is not coalesced
//! again.
//!
//! The blocks are lowered by vcgen's [`cfg::lower`] (and [`cfg::coalesce`]d), and each
//! lowered command is mapped back to the AST command it came from.

use rustc_hash::FxHashMap;

use crate::ast::{
    AssignLhs, AttrParam, Attribute, BigBlock, BlockTail, Body, Cmd, CmdKind, Decl, Expr, ExprKind, Ident, LocalVars,
    LoopSpec, Span, StmtList, Symbol, VarGroup,
};
use crate::typeck::{TypedProgram, VarId};
use crate::vcgen::{self, Unsupported, cfg};

/// A block of AST commands: what Boogie's `Block` holds before verification.
#[derive(Clone, Debug)]
pub(crate) struct AstBlock {
    pub(crate) label: String,
    pub(crate) tok: Option<Span>,
    pub(crate) cmds: Vec<Cmd>,
    pub(crate) succs: Vec<usize>,
    /// The token of the block's transfer command.
    pub(crate) transfer: Option<Span>,
}

/// Marks an implementation whose body a pass left as Boogie's blocks ([`cfg::BLOCK_FORM`]).
pub(crate) fn mark_block_form(decl: &mut Decl) {
    let (attrs, at) = match decl {
        Decl::Implementation(d) => (&mut d.attrs, d.name.span),
        Decl::Procedure(d) => (&mut d.attrs, d.name.span),
        _ => return,
    };
    if !cfg::in_block_form(attrs) {
        let mark = Attribute { key: Symbol::intern(cfg::BLOCK_FORM), params: Box::new([]), span: at };
        *attrs = attrs.iter().cloned().chain([mark]).collect();
    }
}

/// The name and body of an implementation, or of a procedure declared with one.
pub(crate) fn named_body(d: &Decl) -> Option<(Symbol, &Body)> {
    match d {
        Decl::Implementation(i) => Some((i.name.name, &i.body)),
        Decl::Procedure(p) => p.body.as_ref().map(|b| (p.name.name, b)),
        _ => None,
    }
}

/// `var name: ty;` at `span`.
pub(crate) fn local_decl(name: Symbol, ty: crate::ast::Type, span: Span) -> LocalVars {
    LocalVars {
        attrs: Box::new([]),
        groups: Box::new([VarGroup {
            attrs: Box::new([]),
            names: Box::new([Ident::at(name, span)]),
            ty,
            where_clause: None,
            span,
        }]),
        span,
    }
}

/// `decl` with its body's statements made of `blocks`, `locals` added to its locals, and the
/// block-form mark: a copy that does not copy the body it replaces (a pass's output is a copy
/// of its input, and the body a pass rewrites, in bounded mode the entry point with every
/// callee inlined, is often most of the program).
pub(crate) fn with_blocks(decl: &Decl, blocks: Vec<AstBlock>, locals: Vec<LocalVars>) -> Decl {
    let Some((_, old)) = named_body(decl) else { return decl.clone() };
    let mut locals_all = old.locals.to_vec();
    locals_all.extend(locals);
    let body = Body { locals: locals_all.into(), stmts: stmt_list(blocks, old), span: old.span };
    let mut decl = match decl {
        Decl::Implementation(i) => Decl::Implementation(Box::new(i.with_body(body))),
        Decl::Procedure(p) => Decl::Procedure(Box::new(p.with_body(Some(body)))),
        other => return other.clone(),
    };
    mark_block_form(&mut decl);
    decl
}

/// A copy of `program`'s declarations with those in `replaced` (by index) in their places.
pub(crate) fn replace_decls(program: &crate::ast::Program, mut replaced: FxHashMap<usize, Decl>) -> Vec<Decl> {
    program.decls.iter().enumerate().map(|(k, d)| replaced.remove(&k).unwrap_or_else(|| d.clone())).collect()
}

/// The declaration as the user sees it printed: without the block-form mark.
pub(crate) fn without_block_form(decl: &Decl) -> Decl {
    let mut decl = decl.clone();
    if let Decl::Implementation(d) = &mut decl {
        d.attrs = d.attrs.iter().filter(|a| a.key != cfg::BLOCK_FORM).cloned().collect();
    } else if let Decl::Procedure(d) = &mut decl {
        d.attrs = d.attrs.iter().filter(|a| a.key != cfg::BLOCK_FORM).cloned().collect();
    }
    decl
}

// ---------------------------------------------------------------------------------------------
// The body as Boogie's blocks

/// Where a lowered command came from, by the address of what it borrows.
enum Origin<'a> {
    Cmd(&'a Cmd),
    Invariant(&'a LoopSpec),
}

#[derive(Default)]
struct Origins<'a> {
    by_expr: FxHashMap<*const Expr, Origin<'a>>,
    by_lhss: FxHashMap<*const AssignLhs, &'a Cmd>,
    by_call: FxHashMap<*const crate::ast::CallCmd, &'a Cmd>,
    /// The first `havoc` of each list of variables (a lowered havoc keeps its variables, not
    /// its command): looked up by the list, so that a body of many havocs is not searched
    /// once per havoc.
    havocs: FxHashMap<Vec<VarId>, &'a Cmd>,
}

impl<'a> Origins<'a> {
    fn collect(&mut self, typed: &TypedProgram, list: &'a StmtList) {
        for b in &list.blocks {
            for c in &b.cmds {
                match &c.kind {
                    CmdKind::Assert { expr, .. } | CmdKind::Assume { expr, .. } => {
                        self.by_expr.insert(expr, Origin::Cmd(c));
                    }
                    CmdKind::Assign { lhss, .. } => {
                        self.by_lhss.insert(lhss.as_ptr(), c);
                    }
                    CmdKind::Call(call) => {
                        self.by_call.insert(&**call, c);
                    }
                    // Lowered as an assumption of its right-hand side only for an analysis
                    // ([`cfg::lower_for_analysis`]).
                    CmdKind::Unpack { rhs, .. } => {
                        self.by_expr.insert(&**rhs, Origin::Cmd(c));
                    }
                    CmdKind::Havoc { vars } => {
                        let ids = vars.iter().filter_map(|v| cfg::var_of(typed, v).ok()).collect();
                        self.havocs.entry(ids).or_insert(c);
                    }
                    _ => {}
                }
            }
            if let Some(BlockTail::While(w)) = &b.tail {
                for spec in &w.invariants {
                    if let LoopSpec::Invariant { expr, .. } = spec {
                        self.by_expr.insert(expr, Origin::Invariant(spec));
                    }
                }
            }
            for nested in b.tail.iter().flat_map(|t| t.nested_lists()) {
                self.collect(typed, nested);
            }
        }
    }

    /// The AST command a lowered command stands for; `None` for markers without one.
    fn ast_cmd(&self, c: &vcgen::Cmd) -> Option<Cmd> {
        let assume = |expr: Expr, span: Span| Cmd { kind: CmdKind::Assume { attrs: Box::new([]), expr }, span };
        match c {
            vcgen::Cmd::Assert { expr, .. } => match self.by_expr.get(&(*expr as *const Expr)) {
                Some(Origin::Cmd(c)) => Some((*c).clone()),
                Some(Origin::Invariant(LoopSpec::Invariant { attrs, expr, span, .. })) => {
                    Some(Cmd { kind: CmdKind::Assert { attrs: attrs.clone(), expr: expr.clone() }, span: *span })
                }
                _ => None,
            },
            vcgen::Cmd::Assume { expr, negated, .. } => match self.by_expr.get(&(*expr as *const Expr)) {
                Some(Origin::Cmd(c)) if !negated => Some((*c).clone()),
                Some(Origin::Invariant(LoopSpec::Invariant { attrs, expr, span, .. })) if !negated => {
                    Some(Cmd { kind: CmdKind::Assume { attrs: attrs.clone(), expr: expr.clone() }, span: *span })
                }
                // A guard: `assume {:partition} g` into the branch taken, its negation into the
                // other, as Boogie's `BigBlocksResolutionContext` writes them.
                _ if *negated => Some(guard(crate::vcgen::shown::negation(expr), expr.span)),
                _ => Some(guard((*expr).clone(), expr.span)),
            },
            vcgen::Cmd::Assign { lhss, .. } => self.by_lhss.get(&lhss.as_ptr()).map(|c| (*c).clone()),
            vcgen::Cmd::Call(call) => self.by_call.get(&(*call as *const crate::ast::CallCmd)).map(|c| (*c).clone()),
            vcgen::Cmd::Havoc(vars) => self.havocs.get(&vars[..]).map(|c| (*c).clone()),
            vcgen::Cmd::AssumeFalse => {
                let span = Span::default();
                Some(assume(Expr { kind: ExprKind::BoolLit(false), span, id: crate::ast::NodeId::NONE }, span))
            }
            // A loop's measure clause goes into its head as a `measure` command.
            vcgen::Cmd::Measure { exprs, span } => {
                Some(Cmd { kind: CmdKind::Measure { attrs: Box::new([]), exprs: exprs.to_vec().into() }, span: *span })
            }
            // The command that follows carries its attributes itself.
            vcgen::Cmd::AssumeVar(_)
            | vcgen::Cmd::StartChecking
            | vcgen::Cmd::Scope(_)
            | vcgen::Cmd::Print(_)
            | vcgen::Cmd::Track(_) => None,
            // Made by `vcgen::measure::transform`, which runs after every pass.
            vcgen::Cmd::NonNegative { .. }
            | vcgen::Cmd::MeasureSnapshot { .. }
            | vcgen::Cmd::MeasureDecreased { .. }
            | vcgen::Cmd::MeasureCall { .. } => None,
        }
    }
}

/// `assume {:partition} expr`: a branch's guard.
fn guard(expr: Expr, span: Span) -> Cmd {
    let partition = Attribute { key: Symbol::intern("partition"), params: Box::new([]), span };
    Cmd { kind: CmdKind::Assume { attrs: Box::new([partition]), expr }, span }
}

/// The body's blocks as Boogie has them when it inlines and unrolls: lowered and, unless a
/// pass left them as blocks already, coalesced.
pub(crate) fn blocks_of(typed: &TypedProgram, body: &Body, coalesce: bool) -> Result<Vec<AstBlock>, Unsupported> {
    let lowered = cfg::lower(typed, &body.stmts)?;
    let lowered = if coalesce { cfg::coalesce(lowered) } else { lowered };
    Ok(lowered_as_ast(typed, body, &lowered))
}

/// Lowered blocks of `body` with each command as the AST command it came from.
fn lowered_as_ast(typed: &TypedProgram, body: &Body, lowered: &[vcgen::Block]) -> Vec<AstBlock> {
    let mut origins = Origins::default();
    origins.collect(typed, &body.stmts);
    lowered
        .iter()
        .map(|b| AstBlock {
            label: b.label.clone(),
            tok: b.tok,
            cmds: b.cmds.iter().filter_map(|c| origins.ast_cmd(c)).collect(),
            succs: b.succs.clone(),
            transfer: b.ret.or(b.tok),
        })
        .collect()
}

/// The body's blocks for an analysis of the program as written, before the passes: as
/// [`blocks_of`] (coalesced), unpack commands included.
pub(crate) fn blocks_for_analysis(typed: &TypedProgram, body: &Body) -> Result<Vec<AstBlock>, Unsupported> {
    let lowered = cfg::coalesce(cfg::lower_for_analysis(typed, &body.stmts)?);
    Ok(lowered_as_ast(typed, body, &lowered))
}

/// `blocks` (lowered from `body`, and cut into a DAG or otherwise changed by VC generation) as
/// AST blocks, for printing: each command as the program wrote it where it has one; a havoc
/// VC generation added (loop cutting's) as `havoc` of its variables; other markers left out.
pub(crate) fn ast_blocks(typed: &TypedProgram, body: &Body, blocks: &[vcgen::Block]) -> Vec<AstBlock> {
    let mut origins = Origins::default();
    origins.collect(typed, &body.stmts);
    let havoc = |vars: &[VarId]| {
        let names: Box<[Ident]> =
            vars.iter().map(|&v| Ident::at(typed.symbols().var(v).name.name, body.span)).collect();
        Cmd { kind: CmdKind::Havoc { vars: names }, span: body.span }
    };
    blocks
        .iter()
        .map(|b| AstBlock {
            label: b.label.clone(),
            tok: b.tok,
            cmds: b
                .cmds
                .iter()
                .filter_map(|c| match (origins.ast_cmd(c), c) {
                    (Some(c), _) => Some(c),
                    (None, vcgen::Cmd::Havoc(vars)) => Some(havoc(vars)),
                    (None, _) => None,
                })
                .collect(),
            succs: b.succs.clone(),
            transfer: b.ret.or(b.tok),
        })
        .collect()
}

/// Blocks back to a body: one labeled big block per block, ending in its goto or return.
pub(crate) fn stmt_list(blocks: Vec<AstBlock>, original: &Body) -> StmtList {
    let labels: Vec<Ident> =
        blocks.iter().map(|b| Ident::at(Symbol::intern(&b.label), b.tok.unwrap_or(original.span))).collect();
    let big_blocks = blocks.into_iter().zip(&labels).map(|(b, &label)| {
        let span = b.tok.unwrap_or(original.span);
        let at = b.transfer.unwrap_or(span);
        let tail = if b.succs.is_empty() {
            BlockTail::Return { attrs: Box::new([]), span: at }
        } else {
            let targets = b.succs.iter().map(|&s| labels[s]).collect();
            BlockTail::Goto { attrs: Box::new([]), targets, span: at }
        };
        BigBlock { label: Some(label), cmds: b.cmds.into(), tail: Some(tail), span }
    });
    StmtList { blocks: big_blocks.collect(), end: original.stmts.end }
}

/// A literal `assert false` or `assume false`.
pub(crate) fn is_literal_false(c: &Cmd) -> bool {
    matches!(&c.kind, CmdKind::Assert { expr, .. } | CmdKind::Assume { expr, .. }
        if matches!(expr.kind, ExprKind::BoolLit(false)))
}

/// `{:verify false}` among `attrs`.
pub(crate) fn verify_false(attrs: &[Attribute]) -> bool {
    attrs.iter().any(|a| {
        a.key == "verify" && matches!(&a.params[..], [AttrParam::Expr(Expr { kind: ExprKind::BoolLit(false), .. })])
    })
}
