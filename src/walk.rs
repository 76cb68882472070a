//! Read-only walks over the tree: every expression and every command of a declaration, in
//! tree order, without copying anything.
//!
//! A pass that only needs to look (does this program need me? which instances does it use?)
//! walks here; [`crate::passes::rewrite`] is for passes that build a new tree. Attributes are
//! not walked (what they hold is not code), nor are types.

use crate::ast::{
    AssignLhs, BlockTail, Body, CallCmd, Cmd, CmdKind, Decl, ElseBranch, Expr, ExprKind, IfCmd, LoopSpec, Spec,
    SpecTransfer, StmtList,
};

/// What a walk calls: `expr` on every expression (a node before its children), `cmd` on every
/// command (before its expressions).
pub trait Visitor {
    fn expr(&mut self, _e: &Expr) {}
    fn cmd(&mut self, _c: &Cmd) {}
}

/// Every expression and command of `d`: function bodies and their axioms, axioms, procedure
/// contracts and bodies, implementation bodies. (Civl declarations are not walked.)
pub fn decl(v: &mut dyn Visitor, d: &Decl) {
    match d {
        Decl::Function(f) => {
            if let Some(b) = &f.body {
                expr(v, b);
            }
            for a in f.uses.iter().flatten() {
                expr(v, &a.expr);
            }
        }
        Decl::Const(c) => {
            for a in c.uses.iter().flatten() {
                expr(v, &a.expr);
            }
        }
        Decl::Axiom(a) => expr(v, &a.expr),
        Decl::Var(g) => {
            for w in g.groups.iter().filter_map(|g| g.where_clause.as_deref()) {
                expr(v, w);
            }
        }
        Decl::Procedure(p) => {
            for s in p.specs.iter() {
                match s {
                    Spec::Requires { expr: e, .. } | Spec::Ensures { expr: e, .. } => expr(v, e),
                    Spec::Measure { exprs, .. } => exprs.iter().for_each(|e| expr(v, e)),
                    Spec::Modifies { .. } => {}
                }
            }
            if let Some(b) = &p.body {
                body(v, b);
            }
        }
        Decl::Implementation(i) => body(v, &i.body),
        _ => {}
    }
}

fn body(v: &mut dyn Visitor, b: &Body) {
    for w in b.locals.iter().flat_map(|l| l.groups.iter()).filter_map(|g| g.where_clause.as_deref()) {
        expr(v, w);
    }
    stmts(v, &b.stmts);
}

/// Every command and expression of a statement list, nested lists included.
pub fn stmts(v: &mut dyn Visitor, s: &StmtList) {
    for b in s.blocks.iter() {
        for c in b.cmds.iter() {
            cmd(v, c);
        }
        match &b.tail {
            Some(BlockTail::If(i)) => if_cmd(v, i),
            Some(BlockTail::While(w)) => {
                if let Some(g) = &w.guard {
                    expr(v, g);
                }
                for inv in w.invariants.iter() {
                    match inv {
                        LoopSpec::Invariant { expr: e, .. } => expr(v, e),
                        LoopSpec::YieldInvariant { call: c, .. } => call(v, c),
                        LoopSpec::Measure { exprs, .. } => exprs.iter().for_each(|e| expr(v, e)),
                    }
                }
                stmts(v, &w.body);
            }
            _ => {}
        }
    }
}

fn if_cmd(v: &mut dyn Visitor, i: &IfCmd) {
    if let Some(g) = &i.guard {
        expr(v, g);
    }
    stmts(v, &i.then);
    match &i.els {
        Some(ElseBranch::If(e)) => if_cmd(v, e),
        Some(ElseBranch::Block(b)) => stmts(v, b),
        None => {}
    }
}

fn call(v: &mut dyn Visitor, c: &CallCmd) {
    c.args.iter().for_each(|e| expr(v, e));
}

fn lhs(v: &mut dyn Visitor, l: &AssignLhs) {
    match l {
        AssignLhs::Var(_) => {}
        AssignLhs::Select { base, indexes, .. } => {
            lhs(v, base);
            indexes.iter().for_each(|e| expr(v, e));
        }
        AssignLhs::Field { base, .. } => lhs(v, base),
    }
}

/// A command and its expressions.
pub fn cmd(v: &mut dyn Visitor, c: &Cmd) {
    v.cmd(c);
    match &c.kind {
        CmdKind::Assert { expr: e, .. } | CmdKind::Assume { expr: e, .. } => expr(v, e),
        CmdKind::Assign { lhss, rhss, .. } => {
            lhss.iter().for_each(|l| lhs(v, l));
            rhss.iter().for_each(|e| expr(v, e));
        }
        CmdKind::Unpack { rhs, .. } => expr(v, rhs),
        CmdKind::Call(c) => call(v, c),
        CmdKind::ParCall { calls } => calls.iter().for_each(|c| call(v, c)),
        CmdKind::Measure { exprs, .. } => exprs.iter().for_each(|e| expr(v, e)),
        CmdKind::Havoc { .. } | CmdKind::HideReveal { .. } | CmdKind::ChangeScope { .. } => {}
    }
}

/// An expression and every expression inside it (code expressions' commands included).
pub fn expr(v: &mut dyn Visitor, e: &Expr) {
    v.expr(e);
    if let ExprKind::Code(c) = &e.kind {
        for w in c.locals.iter().flat_map(|l| l.groups.iter()).filter_map(|g| g.where_clause.as_deref()) {
            expr(v, w);
        }
        for b in c.blocks.iter() {
            for cm in b.cmds.iter() {
                cmd(v, cm);
            }
            if let SpecTransfer::Return { value, .. } = &b.transfer {
                expr(v, value);
            }
        }
        return;
    }
    e.for_each_child(&mut |c| expr(v, c));
}
