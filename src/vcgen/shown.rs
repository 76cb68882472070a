//! The passive program as Boogie prints it (`/printSplit`): each passive command's attributes
//! and expression, and each split as an implementation of blocks.
//!
//! Passification ([`super::passify`]) builds the SMT-LIB term of every command; when the
//! passive program is to be printed it also builds this text, from the program's own
//! expression with every variable replaced by the Boogie text of its current value: an
//! incarnation `x@N` (printed `x#AT#N`, numbered per variable as Boogie numbers them), the
//! variable itself at the entry, or the literal or variable a copy assigned (Boogie makes no
//! incarnation for those). Printing follows Boogie's `Implementation.EmitImplementation` and
//! `Block.Emit` on a split's blocks.

use std::sync::Arc;

use super::passify::{PCmd, PassiveBlock};
use crate::ast::{Attribute, BinaryOp, Expr, ExprKind, NodeId, UnaryOp};
use crate::emit;
use crate::typeck::{Ref, TypedProgram, VarId, VarKind};

/// What an assumption or assertion carries besides its term: the attributes implementation
/// division reads, and how Boogie prints it.
#[derive(Clone, Debug, Default)]
pub struct CmdInfo {
    /// `{:focus}` ([`super::division`]).
    pub focus: bool,
    /// `{:split_here}`.
    pub split_here: bool,
    /// The command's token, for the name of the split a `{:focus}` or `{:split_here}` makes.
    pub tok: Option<crate::ast::Span>,
    /// Its attributes as Boogie prints them, each followed by a space; empty unless the
    /// passive program is printed.
    pub attrs: String,
    /// Its expression as Boogie prints it, likewise.
    pub expr: String,
    /// When values are shown with errors (the rich and JSON formats): the implementation's
    /// inputs and the variables the checked expression reads, each with the SMT-LIB term of
    /// its value here.
    pub values: Vec<(String, String)>,
}

/// `None` for most commands: those without `{:focus}` or `{:split_here}` when the passive
/// program is not printed, and those Boogie's passive program does not have.
pub type Info = Option<Arc<CmdInfo>>;

/// The printed form of a command with neither `{:focus}` nor `{:split_here}`.
pub fn shown(attrs: String, expr: String) -> Info {
    Some(Arc::new(CmdInfo { attrs, expr, ..CmdInfo::default() }))
}

/// Whether an assumption or assertion with info `info` has `{:focus}`.
pub fn is_focus(info: &Info) -> bool {
    info.as_ref().is_some_and(|i| i.focus)
}

/// Whether it has `{:split_here}`.
pub fn is_split_here(info: &Info) -> bool {
    info.as_ref().is_some_and(|i| i.split_here)
}

/// The attributes of a command, as Boogie's `EmitAttributes` writes them before its
/// expression; rboogie's own markers are left out.
pub fn attrs_text(attrs: &[Attribute]) -> String {
    let mut out = String::new();
    for a in attrs.iter().filter(|a| !a.key.starts_with("rboogie_")) {
        emit::attribute(&mut out, a);
        out.push(' ');
    }
    out
}

/// `e` with each variable `v` that `value(v, in_old)` names replaced by that text (see the
/// module header); `typed` resolves the names, `types` is its [`emit::type_table`].
pub fn expr_text(
    typed: &TypedProgram,
    types: &emit::TypeTable,
    e: &Expr,
    value: &dyn Fn(VarId, bool) -> Option<String>,
) -> String {
    let mut renamed = emit::Renamed::default();
    collect(typed, e, false, value, &mut renamed);
    let mut out = String::new();
    let _mode = emit::EmitMode::enter(types.clone());
    emit::expr_renamed(&mut out, e, renamed);
    out
}

fn collect(
    typed: &TypedProgram,
    e: &Expr,
    old: bool,
    value: &dyn Fn(VarId, bool) -> Option<String>,
    out: &mut emit::Renamed,
) {
    match &e.kind {
        ExprKind::Var(name) => {
            if let Some(Ref::Var(v)) = typed.referent(name)
                && !matches!(typed.symbols().var(v).kind, VarKind::Const { .. } | VarKind::Bound)
                && let Some(text) = value(v, old)
            {
                out.insert(e.id.0, text);
            }
        }
        ExprKind::Old(inner) => collect(typed, inner, true, value, out),
        _ => e.for_each_child(&mut |c| collect(typed, c, old, value, out)),
    }
}

/// Boogie's `Expr.Not`, as the negated guard of a branch is built: `!e`, except that a
/// negation, an equality or a comparison is negated in place (`a != b` for `!(a == b)`,
/// `b <= a` for `!(a < b)`). A written `true` stays `!true`: Boogie folds only its own literal
/// objects, never a parsed one.
pub fn negation(e: &Expr) -> Expr {
    let new = |kind| Expr { kind, span: e.span, id: NodeId::NONE };
    match &e.kind {
        ExprKind::Unary { op: UnaryOp::Not, arg } => (**arg).clone(),
        ExprKind::Binary { op, lhs, rhs } => {
            let (op, swap) = match op {
                BinaryOp::Eq => (BinaryOp::Neq, false),
                BinaryOp::Neq => (BinaryOp::Eq, false),
                BinaryOp::Lt => (BinaryOp::Le, true),
                BinaryOp::Le => (BinaryOp::Lt, true),
                BinaryOp::Ge => (BinaryOp::Gt, true),
                BinaryOp::Gt => (BinaryOp::Ge, true),
                _ => return new(ExprKind::Unary { op: UnaryOp::Not, arg: Box::new(e.clone()) }),
            };
            let (lhs, rhs) = if swap { (rhs.clone(), lhs.clone()) } else { (lhs.clone(), rhs.clone()) };
            new(ExprKind::Binary { op, lhs, rhs })
        }
        _ => new(ExprKind::Unary { op: UnaryOp::Not, arg: Box::new(e.clone()) }),
    }
}

/// One passive command's lines, at Boogie's indentation of a block's commands; nothing for the
/// commands Boogie's passive program does not have.
fn write_cmd(out: &mut String, c: &PCmd) {
    match c {
        PCmd::Assume(_, Some(s)) => {
            out.push_str(&format!("    assume {}{};\n", s.attrs, s.expr));
        }
        PCmd::Assert(_, _, _, Some(s)) => {
            out.push_str(&format!("    assert {}{};\n", s.attrs, s.expr));
        }
        PCmd::Scope(scope) => {
            let text = match scope {
                super::ScopeCmd::HideReveal { hide, function } => format!(
                    "{} {};",
                    if *hide { "hide" } else { "reveal" },
                    function.map_or_else(|| "*".to_string(), |f| emit::sanitize(f.as_str()).into_owned())
                ),
                super::ScopeCmd::Push => "push;".to_string(),
                super::ScopeCmd::Pop => "pop;".to_string(),
            };
            out.push_str(&format!("    {text}\n"));
        }
        _ => {}
    }
}

/// Boogie's `Block.Emit` on one block of a split.
fn write_block(out: &mut String, blocks: &[PassiveBlock], b: &PassiveBlock) {
    out.push('\n');
    out.push_str(&format!("  {}:\n", b.label));
    for c in &b.cmds {
        write_cmd(out, c);
    }
    if b.succs.is_empty() && !b.goto_nowhere {
        out.push_str("    return;\n");
    } else {
        let targets: Vec<&str> = b.succs.iter().map(|&s| blocks[s].label.as_str()).collect();
        out.push_str(&format!("    goto {};\n", targets.join(", ")));
    }
}

/// Boogie's `Split.PrintSplit`: the split's blocks as an implementation named `name` (the
/// implementation's name and the split's suffix), headed by `header` (its attributes, and
/// its signature after the name).
pub fn split_text(attrs: &str, name: &str, signature: &str, blocks: &[PassiveBlock]) -> String {
    let mut out = format!("implementation {attrs}{name}{signature}\n{{\n");
    for b in blocks {
        write_block(&mut out, blocks, b);
    }
    out.push_str("}\n\n\n");
    out
}
