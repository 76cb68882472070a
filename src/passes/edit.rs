//! Editing a tree in place: every expression of a declaration offered to an [`Editor`], which
//! may replace it, without copying the rest.
//!
//! Expects nothing of the tree. Guarantees that the editor sees the expressions in the order
//! [`super::rewrite`] copies them (attributes and triggers included, the outermost first), so a
//! pass that numbers what it meets numbers alike whether it copies or edits, and that an
//! expression the editor replaces is not entered: its children are the editor's to handle.
//!
//! Why not a copy through [`super::rewrite`]: a pass that changes a few small subtrees
//! (lambda lifting changes the lambdas) would copy every node around them. On Dafny-like input
//! the copy was most of the pass's time and nearly doubled the memory the program held.

use crate::ast::{
    AssignLhs, AttrParam, Attribute, BlockTail, Body, CallCmd, Cmd, CmdKind, Decl, ElseBranch, Expr, ExprKind, IfCmd,
    LoopSpec, Spec, SpecTransfer, StmtList, VarGroup,
};

/// What an edit does at each expression.
pub trait Editor {
    /// Replaces `e` (and returns `true`, its children then not visited) or leaves it (`false`).
    fn expr(&mut self, e: &mut Expr) -> bool;
}

/// The expressions of the declarations [`super::rewrite`]'s users copy: constants' and
/// functions' attributes and `uses` axioms, function bodies, axioms, global variables,
/// procedures (formals, contracts, body) and implementations. Other declarations are left.
pub fn decl(ed: &mut dyn Editor, d: &mut Decl) {
    match d {
        Decl::Const(c) => {
            attrs(ed, &mut c.attrs);
            for a in c.uses.iter_mut().flatten() {
                attrs(ed, &mut a.attrs);
                expr(ed, &mut a.expr);
            }
        }
        Decl::Function(f) => {
            attrs(ed, &mut f.attrs);
            if let Some(b) = &mut f.body {
                expr(ed, b);
            }
            for a in f.uses.iter_mut().flatten() {
                attrs(ed, &mut a.attrs);
                expr(ed, &mut a.expr);
            }
        }
        Decl::Axiom(a) => {
            attrs(ed, &mut a.attrs);
            expr(ed, &mut a.expr);
        }
        Decl::Var(v) => {
            attrs(ed, &mut v.attrs);
            var_groups(ed, &mut v.groups);
        }
        Decl::Procedure(p) => {
            attrs(ed, &mut p.attrs);
            var_groups(ed, &mut p.ins);
            var_groups(ed, &mut p.outs);
            for s in p.specs.iter_mut() {
                match s {
                    Spec::Requires { attrs: a, expr: e, .. } | Spec::Ensures { attrs: a, expr: e, .. } => {
                        attrs(ed, a);
                        expr(ed, e);
                    }
                    Spec::Modifies { .. } => {}
                    Spec::Measure { attrs: a, exprs: es, .. } => {
                        attrs(ed, a);
                        es.iter_mut().for_each(|e| expr(ed, e));
                    }
                }
            }
            if let Some(b) = &mut p.body {
                body(ed, b);
            }
        }
        Decl::Implementation(i) => {
            attrs(ed, &mut i.attrs);
            var_groups(ed, &mut i.ins);
            var_groups(ed, &mut i.outs);
            body(ed, &mut i.body);
        }
        _ => {}
    }
}

fn body(ed: &mut dyn Editor, b: &mut Body) {
    for l in b.locals.iter_mut() {
        attrs(ed, &mut l.attrs);
        var_groups(ed, &mut l.groups);
    }
    stmts(ed, &mut b.stmts);
}

fn attrs(ed: &mut dyn Editor, attrs: &mut [Attribute]) {
    for a in attrs.iter_mut() {
        for p in a.params.iter_mut() {
            if let AttrParam::Expr(e) = p {
                expr(ed, e);
            }
        }
    }
}

fn var_groups(ed: &mut dyn Editor, groups: &mut [VarGroup]) {
    for g in groups.iter_mut() {
        attrs(ed, &mut g.attrs);
        if let Some(w) = &mut g.where_clause {
            expr(ed, w);
        }
    }
}

fn stmts(ed: &mut dyn Editor, list: &mut StmtList) {
    for b in list.blocks.iter_mut() {
        b.cmds.iter_mut().for_each(|c| cmd(ed, c));
        match &mut b.tail {
            Some(BlockTail::If(i)) => if_cmd(ed, i),
            Some(BlockTail::While(w)) => {
                if let Some(g) = &mut w.guard {
                    expr(ed, g);
                }
                for s in w.invariants.iter_mut() {
                    match s {
                        LoopSpec::Invariant { attrs: a, expr: e, .. } => {
                            attrs(ed, a);
                            expr(ed, e);
                        }
                        LoopSpec::YieldInvariant { attrs: a, call, .. } => {
                            attrs(ed, a);
                            call_cmd(ed, call);
                        }
                        LoopSpec::Measure { attrs: a, exprs: es, .. } => {
                            attrs(ed, a);
                            es.iter_mut().for_each(|e| expr(ed, e));
                        }
                    }
                }
                stmts(ed, &mut w.body);
            }
            Some(BlockTail::Goto { attrs: a, .. } | BlockTail::Return { attrs: a, .. }) => attrs(ed, a),
            Some(BlockTail::Break { .. }) | None => {}
        }
    }
}

fn if_cmd(ed: &mut dyn Editor, i: &mut IfCmd) {
    attrs(ed, &mut i.attrs);
    if let Some(g) = &mut i.guard {
        expr(ed, g);
    }
    stmts(ed, &mut i.then);
    match &mut i.els {
        Some(ElseBranch::If(next)) => if_cmd(ed, next),
        Some(ElseBranch::Block(b)) => stmts(ed, b),
        None => {}
    }
}

fn cmd(ed: &mut dyn Editor, c: &mut Cmd) {
    match &mut c.kind {
        CmdKind::Assert { attrs: a, expr: e } | CmdKind::Assume { attrs: a, expr: e } => {
            attrs(ed, a);
            expr(ed, e);
        }
        CmdKind::Assign { lhss, attrs: a, rhss } => {
            lhss.iter_mut().for_each(|l| lhs(ed, l));
            attrs(ed, a);
            rhss.iter_mut().for_each(|e| expr(ed, e));
        }
        CmdKind::Unpack { attrs: a, rhs, .. } => {
            attrs(ed, a);
            expr(ed, rhs);
        }
        CmdKind::Call(call) => call_cmd(ed, call),
        CmdKind::ParCall { calls } => calls.iter_mut().for_each(|c| call_cmd(ed, c)),
        CmdKind::Measure { attrs: a, exprs: es } => {
            attrs(ed, a);
            es.iter_mut().for_each(|e| expr(ed, e));
        }
        CmdKind::Havoc { .. } | CmdKind::HideReveal { .. } | CmdKind::ChangeScope { .. } => {}
    }
}

fn lhs(ed: &mut dyn Editor, l: &mut AssignLhs) {
    match l {
        AssignLhs::Var(_) => {}
        AssignLhs::Select { base, indexes, .. } => {
            lhs(ed, base);
            indexes.iter_mut().for_each(|e| expr(ed, e));
        }
        AssignLhs::Field { base, .. } => lhs(ed, base),
    }
}

fn call_cmd(ed: &mut dyn Editor, c: &mut CallCmd) {
    attrs(ed, &mut c.attrs);
    c.args.iter_mut().for_each(|e| expr(ed, e));
}

/// `e`, offered to the editor, then (when it keeps it) its children in [`super::rewrite`]'s
/// order.
pub fn expr(ed: &mut dyn Editor, e: &mut Expr) {
    if ed.expr(e) {
        return;
    }
    match &mut e.kind {
        ExprKind::Call { args, .. } => args.iter_mut().for_each(|a| expr(ed, a)),
        ExprKind::Old(a)
        | ExprKind::Arith { arg: a, .. }
        | ExprKind::Unary { arg: a, .. }
        | ExprKind::Is { arg: a, .. }
        | ExprKind::Coerce { arg: a, .. }
        | ExprKind::Extract { arg: a, .. }
        | ExprKind::Field { arg: a, .. } => expr(ed, a),
        ExprKind::Binary { lhs, rhs, .. } | ExprKind::BvConcat { lhs, rhs } => {
            expr(ed, lhs);
            expr(ed, rhs);
        }
        ExprKind::Select { map, indexes } => {
            expr(ed, map);
            indexes.iter_mut().for_each(|i| expr(ed, i));
        }
        ExprKind::Store(s) => {
            expr(ed, &mut s.map);
            s.indexes.iter_mut().for_each(|i| expr(ed, i));
            expr(ed, &mut s.value);
        }
        ExprKind::FieldUpdate(u) => {
            expr(ed, &mut u.arg);
            expr(ed, &mut u.value);
        }
        ExprKind::Quant(q) => {
            var_groups(ed, &mut q.vars);
            attrs(ed, &mut q.attrs);
            for t in q.triggers.iter_mut() {
                t.exprs.iter_mut().for_each(|x| expr(ed, x));
            }
            expr(ed, &mut q.body);
        }
        ExprKind::Let(l) => {
            l.rhss.iter_mut().for_each(|r| expr(ed, r));
            attrs(ed, &mut l.attrs);
            expr(ed, &mut l.body);
        }
        ExprKind::IfThenElse { cond, then, els } => {
            expr(ed, cond);
            expr(ed, then);
            expr(ed, els);
        }
        ExprKind::Code(c) => {
            for l in c.locals.iter_mut() {
                attrs(ed, &mut l.attrs);
                var_groups(ed, &mut l.groups);
            }
            for b in c.blocks.iter_mut() {
                b.cmds.iter_mut().for_each(|cm| cmd(ed, cm));
                match &mut b.transfer {
                    SpecTransfer::Goto { attrs: a, .. } => attrs(ed, a),
                    SpecTransfer::Return { attrs: a, value, .. } => {
                        attrs(ed, a);
                        expr(ed, value);
                    }
                }
            }
        }
        ExprKind::Var(_)
        | ExprKind::BoolLit(_)
        | ExprKind::IntLit(_)
        | ExprKind::DecLit(_)
        | ExprKind::FloatLit(_)
        | ExprKind::BvLit { .. }
        | ExprKind::StrLit(_)
        | ExprKind::RoundingMode(_)
        | ExprKind::BvBounds { .. } => {}
    }
}
