//! Copying a tree with changes: the one traversal the passes share.
//!
//! Expects nothing of the tree. Guarantees a deep copy in which every node a [`Rewriter`] hook
//! does not replace is kept as it was, span and [`crate::ast::NodeId`] included (so a pass
//! can still look up the original node's type in the typed program while it copies).
//!
//! How: one function per kind of node, each calling the hooks first and copying the children
//! otherwise. The hooks see variable occurrences (in expressions, assignment targets, havocs,
//! call outs, unpacks), labels (of blocks, gotos and breaks), `return` tails, simple
//! commands, expressions and types; attributes and triggers are copied through the same
//! expression function.

use crate::ast::{
    AssignLhs, AttrParam, Attribute, AxiomDecl, BigBlock, BlockTail, Body, CallCmd, Cmd, CmdKind, CodeExpr, Decl,
    ElseBranch, Expr, ExprKind, FieldUpdateExpr, Ident, IfCmd, LetExpr, LocalVars, LoopSpec, MapType, Quantifier, Span,
    Spec, SpecBlock, SpecTransfer, StmtList, StoreExpr, Trigger, Type, TypeKind, VarGroup, WhileCmd,
};

/// What a pass changes while copying; every hook defaults to "keep".
pub trait Rewriter {
    /// A replacement for `e`; `None` copies `e` with its children rewritten.
    fn expr(&mut self, _e: &Expr) -> Option<Expr> {
        None
    }
    /// A variable occurrence outside expressions' own `Var` nodes too (assignment targets,
    /// havocs, call outs, unpack targets) and inside them.
    fn var(&mut self, name: &Ident) -> Ident {
        *name
    }
    /// A label: a block's own, a goto target, a break target.
    fn label(&mut self, name: &Ident) -> Ident {
        *name
    }
    /// A replacement for a `return` tail.
    fn return_tail(&mut self, _attrs: &[Attribute], _span: Span) -> Option<BlockTail> {
        None
    }
    /// A replacement for a simple command: the commands it becomes.
    fn cmd(&mut self, _c: &Cmd) -> Option<Vec<Cmd>> {
        None
    }
    /// A replacement for a type.
    fn ty(&mut self, _t: &Type) -> Option<Type> {
        None
    }
}

pub fn expr(r: &mut dyn Rewriter, e: &Expr) -> Expr {
    if let Some(new) = r.expr(e) {
        return new;
    }
    let kind = match &e.kind {
        ExprKind::Var(name) => {
            let name = r.var(name);
            return Expr { kind: ExprKind::Var(name), span: name.span, id: e.id };
        }
        ExprKind::Call { func, args } => ExprKind::Call { func: *func, args: exprs(r, args) },
        ExprKind::Old(a) => ExprKind::Old(bx(r, a)),
        ExprKind::Arith { to, arg } => ExprKind::Arith { to: *to, arg: bx(r, arg) },
        ExprKind::Unary { op, arg } => ExprKind::Unary { op: *op, arg: bx(r, arg) },
        ExprKind::Binary { op, lhs, rhs } => ExprKind::Binary { op: *op, lhs: bx(r, lhs), rhs: bx(r, rhs) },
        ExprKind::BvConcat { lhs, rhs } => ExprKind::BvConcat { lhs: bx(r, lhs), rhs: bx(r, rhs) },
        ExprKind::Is { arg, ctor } => ExprKind::Is { arg: bx(r, arg), ctor: *ctor },
        ExprKind::Coerce { arg, ty: t } => ExprKind::Coerce { arg: bx(r, arg), ty: Box::new(ty(r, t)) },
        ExprKind::Select { map, indexes } => ExprKind::Select { map: bx(r, map), indexes: exprs(r, indexes) },
        ExprKind::Store(s) => ExprKind::Store(Box::new(StoreExpr {
            map: expr(r, &s.map),
            indexes: exprs(r, &s.indexes),
            value: expr(r, &s.value),
        })),
        ExprKind::Extract { arg, hi, lo } => ExprKind::Extract { arg: bx(r, arg), hi: *hi, lo: *lo },
        ExprKind::Field { arg, field } => ExprKind::Field { arg: bx(r, arg), field: *field },
        ExprKind::FieldUpdate(u) => ExprKind::FieldUpdate(Box::new(FieldUpdateExpr {
            arg: expr(r, &u.arg),
            field: u.field,
            value: expr(r, &u.value),
        })),
        ExprKind::Quant(q) => ExprKind::Quant(Box::new(Quantifier {
            kind: q.kind,
            type_params: q.type_params.clone(),
            vars: var_groups(r, &q.vars),
            attrs: attrs(r, &q.attrs),
            triggers: q
                .triggers
                .iter()
                .map(|t| Trigger { positive: t.positive, exprs: exprs(r, &t.exprs), span: t.span })
                .collect(),
            body: expr(r, &q.body),
        })),
        ExprKind::Let(l) => ExprKind::Let(Box::new(LetExpr {
            vars: l.vars.clone(),
            rhss: exprs(r, &l.rhss),
            attrs: attrs(r, &l.attrs),
            body: expr(r, &l.body),
        })),
        ExprKind::IfThenElse { cond, then, els } => {
            ExprKind::IfThenElse { cond: bx(r, cond), then: bx(r, then), els: bx(r, els) }
        }
        ExprKind::Code(c) => ExprKind::Code(Box::new(CodeExpr {
            locals: c.locals.iter().map(|l| local_vars(r, l)).collect(),
            blocks: c
                .blocks
                .iter()
                .map(|b| SpecBlock {
                    label: r.label(&b.label),
                    cmds: cmds(r, &b.cmds),
                    transfer: match &b.transfer {
                        SpecTransfer::Goto { attrs: a, targets, span } => SpecTransfer::Goto {
                            attrs: attrs(r, a),
                            targets: targets.iter().map(|t| r.label(t)).collect(),
                            span: *span,
                        },
                        SpecTransfer::Return { attrs: a, value, span } => {
                            SpecTransfer::Return { attrs: attrs(r, a), value: expr(r, value), span: *span }
                        }
                    },
                    span: b.span,
                })
                .collect(),
        })),
        k @ (ExprKind::BoolLit(_)
        | ExprKind::IntLit(_)
        | ExprKind::DecLit(_)
        | ExprKind::FloatLit(_)
        | ExprKind::BvLit { .. }
        | ExprKind::StrLit(_)
        | ExprKind::RoundingMode(_)
        | ExprKind::BvBounds { .. }) => k.clone(),
    };
    Expr { kind, span: e.span, id: e.id }
}

fn bx(r: &mut dyn Rewriter, e: &Expr) -> Box<Expr> {
    Box::new(expr(r, e))
}

pub fn exprs(r: &mut dyn Rewriter, es: &[Expr]) -> Box<[Expr]> {
    es.iter().map(|e| expr(r, e)).collect()
}

pub fn ty(r: &mut dyn Rewriter, t: &Type) -> Type {
    if let Some(new) = r.ty(t) {
        return new;
    }
    let kind = match &t.kind {
        TypeKind::Named { name, args } => {
            TypeKind::Named { name: *name, args: args.iter().map(|a| ty(r, a)).collect() }
        }
        TypeKind::Map(m) => TypeKind::Map(Box::new(MapType {
            type_params: m.type_params.clone(),
            args: m.args.iter().map(|a| ty(r, a)).collect(),
            result: ty(r, &m.result),
        })),
        k => k.clone(),
    };
    Type { kind, span: t.span, id: t.id }
}

pub fn attrs(r: &mut dyn Rewriter, attrs: &[Attribute]) -> Box<[Attribute]> {
    attrs
        .iter()
        .map(|a| Attribute {
            key: a.key,
            params: a
                .params
                .iter()
                .map(|p| match p {
                    AttrParam::Expr(e) => AttrParam::Expr(expr(r, e)),
                    s => s.clone(),
                })
                .collect(),
            span: a.span,
        })
        .collect()
}

/// An axiom with its attributes and proposition rewritten.
pub fn axiom(r: &mut dyn Rewriter, a: &AxiomDecl) -> AxiomDecl {
    AxiomDecl { hideable: a.hideable, attrs: attrs(r, &a.attrs), expr: expr(r, &a.expr), span: a.span }
}

/// A procedure's specification clause with its attributes and expressions rewritten.
pub fn spec(r: &mut dyn Rewriter, s: &Spec) -> Spec {
    match s {
        Spec::Requires { free, attrs: a, expr: e, span } => {
            Spec::Requires { free: *free, attrs: attrs(r, a), expr: expr(r, e), span: *span }
        }
        Spec::Ensures { free, attrs: a, expr: e, span } => {
            Spec::Ensures { free: *free, attrs: attrs(r, a), expr: expr(r, e), span: *span }
        }
        Spec::Modifies { .. } => s.clone(),
        Spec::Measure { free, attrs: a, exprs: es, span } => {
            Spec::Measure { free: *free, attrs: attrs(r, a), exprs: exprs(r, es), span: *span }
        }
    }
}

/// Variable groups of binders: the names are declarations, not occurrences, and are kept.
pub fn var_groups(r: &mut dyn Rewriter, groups: &[VarGroup]) -> Box<[VarGroup]> {
    groups
        .iter()
        .map(|g| VarGroup {
            attrs: attrs(r, &g.attrs),
            names: g.names.clone(),
            ty: ty(r, &g.ty),
            where_clause: g.where_clause.as_ref().map(|w| bx(r, w)),
            span: g.span,
        })
        .collect()
}

pub fn local_vars(r: &mut dyn Rewriter, l: &LocalVars) -> LocalVars {
    LocalVars { attrs: attrs(r, &l.attrs), groups: var_groups(r, &l.groups), span: l.span }
}

pub fn cmds(r: &mut dyn Rewriter, cs: &[Cmd]) -> Box<[Cmd]> {
    let mut out = Vec::with_capacity(cs.len());
    for c in cs {
        match r.cmd(c) {
            Some(new) => out.extend(new),
            None => out.push(cmd(r, c)),
        }
    }
    out.into_boxed_slice()
}

/// Copies one simple command (without calling [`Rewriter::cmd`] on it).
pub fn cmd(r: &mut dyn Rewriter, c: &Cmd) -> Cmd {
    let kind = match &c.kind {
        CmdKind::Assert { attrs: a, expr: e } => CmdKind::Assert { attrs: attrs(r, a), expr: expr(r, e) },
        CmdKind::Assume { attrs: a, expr: e } => CmdKind::Assume { attrs: attrs(r, a), expr: expr(r, e) },
        CmdKind::Havoc { vars } => CmdKind::Havoc { vars: vars.iter().map(|v| r.var(v)).collect() },
        CmdKind::Assign { lhss, attrs: a, rhss } => {
            CmdKind::Assign { lhss: lhss.iter().map(|l| lhs(r, l)).collect(), attrs: attrs(r, a), rhss: exprs(r, rhss) }
        }
        CmdKind::Unpack { ctor, vars, attrs: a, rhs } => CmdKind::Unpack {
            ctor: *ctor,
            vars: vars.iter().map(|v| r.var(v)).collect(),
            attrs: attrs(r, a),
            rhs: bx(r, rhs),
        },
        CmdKind::Call(call) => CmdKind::Call(Box::new(call_cmd(r, call))),
        CmdKind::ParCall { calls } => CmdKind::ParCall { calls: calls.iter().map(|c| call_cmd(r, c)).collect() },
        CmdKind::Measure { attrs: a, exprs: es } => CmdKind::Measure { attrs: attrs(r, a), exprs: exprs(r, es) },
        k @ (CmdKind::HideReveal { .. } | CmdKind::ChangeScope { .. }) => k.clone(),
    };
    Cmd { kind, span: c.span }
}

fn lhs(r: &mut dyn Rewriter, l: &AssignLhs) -> AssignLhs {
    match l {
        AssignLhs::Var(v) => AssignLhs::Var(r.var(v)),
        AssignLhs::Select { base, indexes, span } => {
            AssignLhs::Select { base: Box::new(lhs(r, base)), indexes: exprs(r, indexes), span: *span }
        }
        AssignLhs::Field { base, field, span } => {
            AssignLhs::Field { base: Box::new(lhs(r, base)), field: *field, span: *span }
        }
    }
}

pub fn call_cmd(r: &mut dyn Rewriter, c: &CallCmd) -> CallCmd {
    CallCmd {
        is_async: c.is_async,
        is_free: c.is_free,
        attrs: attrs(r, &c.attrs),
        outs: c.outs.iter().map(|v| r.var(v)).collect(),
        callee: c.callee,
        args: exprs(r, &c.args),
        span: c.span,
    }
}

/// The declarations with the statements of every body (procedures' and implementations')
/// rewritten and everything else copied as it is.
pub fn bodies(r: &mut dyn Rewriter, decls: &[Decl]) -> Vec<Decl> {
    decls
        .iter()
        .map(|decl| match decl {
            Decl::Procedure(p) if p.body.is_some() => {
                let body = p.body.as_ref().expect("checked");
                let stmts = stmt_list(r, &body.stmts);
                Decl::Procedure(Box::new(p.with_body(Some(Body {
                    locals: body.locals.clone(),
                    stmts,
                    span: body.span,
                }))))
            }
            Decl::Implementation(i) => {
                let stmts = stmt_list(r, &i.body.stmts);
                Decl::Implementation(Box::new(i.with_body(Body {
                    locals: i.body.locals.clone(),
                    stmts,
                    span: i.body.span,
                })))
            }
            other => other.clone(),
        })
        .collect()
}

pub fn stmt_list(r: &mut dyn Rewriter, list: &StmtList) -> StmtList {
    StmtList { blocks: list.blocks.iter().map(|b| big_block(r, b)).collect(), end: list.end }
}

pub fn big_block(r: &mut dyn Rewriter, b: &BigBlock) -> BigBlock {
    BigBlock {
        label: b.label.as_ref().map(|l| r.label(l)),
        cmds: cmds(r, &b.cmds),
        tail: b.tail.as_ref().map(|t| tail(r, t)),
        span: b.span,
    }
}

pub fn tail(r: &mut dyn Rewriter, t: &BlockTail) -> BlockTail {
    match t {
        BlockTail::If(i) => BlockTail::If(Box::new(if_cmd(r, i))),
        BlockTail::While(w) => BlockTail::While(Box::new(WhileCmd {
            guard: w.guard.as_ref().map(|g| expr(r, g)),
            invariants: w
                .invariants
                .iter()
                .map(|s| match s {
                    LoopSpec::Invariant { free, attrs: a, expr: e, span } => {
                        LoopSpec::Invariant { free: *free, attrs: attrs(r, a), expr: expr(r, e), span: *span }
                    }
                    LoopSpec::YieldInvariant { attrs: a, call, span } => {
                        LoopSpec::YieldInvariant { attrs: attrs(r, a), call: Box::new(call_cmd(r, call)), span: *span }
                    }
                    LoopSpec::Measure { attrs: a, exprs: es, span } => {
                        LoopSpec::Measure { attrs: attrs(r, a), exprs: exprs(r, es), span: *span }
                    }
                })
                .collect(),
            body: stmt_list(r, &w.body),
            span: w.span,
        })),
        BlockTail::Break { label, span } => BlockTail::Break { label: label.as_ref().map(|l| r.label(l)), span: *span },
        BlockTail::Goto { attrs: a, targets, span } => {
            BlockTail::Goto { attrs: attrs(r, a), targets: targets.iter().map(|l| r.label(l)).collect(), span: *span }
        }
        BlockTail::Return { attrs: a, span } => match r.return_tail(a, *span) {
            Some(new) => new,
            None => BlockTail::Return { attrs: attrs(r, a), span: *span },
        },
    }
}

fn if_cmd(r: &mut dyn Rewriter, i: &IfCmd) -> IfCmd {
    IfCmd {
        attrs: attrs(r, &i.attrs),
        guard: i.guard.as_ref().map(|g| expr(r, g)),
        then: stmt_list(r, &i.then),
        els: i.els.as_ref().map(|e| match e {
            ElseBranch::If(next) => ElseBranch::If(Box::new(if_cmd(r, next))),
            ElseBranch::Block(b) => ElseBranch::Block(stmt_list(r, b)),
        }),
        span: i.span,
    }
}
