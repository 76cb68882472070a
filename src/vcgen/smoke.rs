//! Boogie's soundness smoke test (`/smoke`, its `SmokeTester`): once an implementation
//! verifies, `assert false` is put at points of its loop-free block program; where that
//! assertion verifies too, no execution reaches the point, and the path to it is reported
//! (`found unreachable code:` and the implementation cut down to that path).
//!
//! Expects the implementation's blocks after loop cutting ([`super::cfg::cut_loops`]), before
//! the specifications and the unified exit are added: the program Boogie's `SmokeTester.Copy`
//! takes. Guarantees Boogie's check points, in its order (`DepthFirstSearch` from the entry,
//! each block once): before the first `assume false` (or call of a procedure that ensures
//! `false`) of a block, with the rest of the block dropped; at the end of a block that returns;
//! at the end of a block all of whose successors have other predecessors too. A block with an
//! `assert false` of its own is where the program says it expects unreachable code: neither it
//! nor what follows it is tested. A point whose path asserts something marked
//! `{:PossiblyUnreachable}` is not tested.
//!
//! How: each point is a program of its own, the point's block and every block that reaches it
//! (gotos to other blocks dropped), ending in `assert false` and a return; the caller gives it
//! the implementation's specifications and checks it like any VC ([`super::verify`]).

use super::{Block, Check, CheckKind, Cmd, predecessors};
use crate::ast::{self, Expr, ExprKind};
use crate::typeck::{Ref, TypedProgram};

/// A check point: the blocks from the entry to it (the entry first, the point's block last),
/// the last ending in `assert false`.
pub struct Point<'a> {
    pub blocks: Vec<Block<'a>>,
}

/// The check points of `dag` in Boogie's order; `falsity` is a literal `false`, the smoke
/// assertion's expression.
pub fn points<'a>(typed: &TypedProgram, dag: &[Block<'a>], falsity: &'a Expr) -> Vec<Point<'a>> {
    let preds = predecessors(dag);
    let mut visited = vec![false; dag.len()];
    let mut out = Vec::new();
    let mut stack = vec![0];
    while let Some(cur) = stack.pop() {
        if cur >= dag.len() || std::mem::replace(&mut visited[cur], true) {
            continue;
        }
        let block = &dag[cur];
        let mut seq: Vec<Cmd<'a>> = Vec::new();
        let mut end = None;
        for cmd in &block.cmds {
            end = stop(typed, cmd);
            if end.is_some() {
                break;
            }
            seq.push(cmd.clone());
        }
        match end {
            Some(Stop::Expected) => continue,
            Some(Stop::Before) => {
                out.extend(point(dag, &preds, cur, seq, falsity));
                continue;
            }
            None => {}
        }
        if block.succs.is_empty() {
            out.extend(point(dag, &preds, cur, seq, falsity));
            continue;
        }
        // Where every successor has another predecessor, this block's end is the last place
        // that tells its own paths apart.
        if block.succs.iter().all(|&t| preds[t].len() != 1) {
            out.extend(point(dag, &preds, cur, seq, falsity));
        }
        stack.extend(block.succs.iter().rev().copied());
    }
    out
}

/// The point at the end of `seq` in block `cur`: `None` when its path asserts something
/// `{:PossiblyUnreachable}`.
fn point<'a>(
    dag: &[Block<'a>],
    preds: &[Vec<usize>],
    cur: usize,
    mut seq: Vec<Cmd<'a>>,
    falsity: &'a Expr,
) -> Option<Point<'a>> {
    let possibly = |attrs: &[ast::Attribute]| super::encode::find_bool_attribute(attrs, "PossiblyUnreachable");
    if seq.iter().any(|c| matches!(c, Cmd::Assert { attrs, .. } if possibly(attrs))) {
        return None;
    }
    let mut keep = vec![false; dag.len()];
    let mut stack = vec![cur];
    while let Some(b) = stack.pop() {
        if !std::mem::replace(&mut keep[b], true) {
            stack.extend(preds[b].iter().copied());
        }
    }
    // The entry first, then the program's order, the point's block last (nothing it reaches
    // is kept, so it comes after every block that reaches it).
    let mut order: Vec<usize> = (0..dag.len()).filter(|&b| keep[b] && b != cur).collect();
    order.push(cur);
    let mut index = vec![usize::MAX; dag.len()];
    for (k, &b) in order.iter().enumerate() {
        index[b] = k;
    }
    // A coverage label before the command the point stops at is that command's.
    if matches!(seq.last(), Some(Cmd::Track(_))) {
        seq.pop();
    }
    seq.push(Cmd::Assert {
        expr: falsity,
        check: Check::plain(CheckKind::Assert, falsity.span),
        under: None,
        attrs: &[],
    });
    let blocks = order
        .iter()
        .map(|&b| {
            let mut block = dag[b].clone();
            if b == cur {
                block.cmds = std::mem::take(&mut seq);
                block.succs.clear();
                block.from_return = false;
            } else {
                block.succs = block.succs.iter().filter(|&&s| keep[s]).map(|&s| index[s]).collect();
            }
            block
        })
        .collect();
    Some(Point { blocks })
}

/// Where the search of a block stops.
enum Stop {
    /// At an `assert false` the program wrote: it expects unreachable code there, which is
    /// not tested (nor what follows it).
    Expected,
    /// At an `assume false` or a call of a procedure that ensures `false`: tested before it.
    Before,
}

fn stop(typed: &TypedProgram, cmd: &Cmd) -> Option<Stop> {
    match cmd {
        Cmd::Assert { expr, .. } if is_false(expr) => Some(Stop::Expected),
        // `assume !e` (`negated`) for the else branch of a guard.
        Cmd::Assume { expr, negated, .. } if eval(expr) == Some(*negated) => Some(Stop::Before),
        Cmd::AssumeFalse => Some(Stop::Before),
        Cmd::Call(call) if ensures_false(typed, call) => Some(Stop::Before),
        _ => None,
    }
}

/// Boogie's `BooleanEval` to `false`: `false`, `!true`, `!!false`, ..., and `L != L` for a
/// literal `L`.
fn is_false(e: &Expr) -> bool {
    eval(e) == Some(false)
}

fn eval(e: &Expr) -> Option<bool> {
    match &e.kind {
        ExprKind::BoolLit(b) => Some(*b),
        ExprKind::Unary { op: ast::UnaryOp::Not, arg } => eval(arg).map(|b| !b),
        ExprKind::Binary { op: ast::BinaryOp::Neq, lhs, rhs }
            if is_literal(lhs) && crate::printer::print_expr(lhs) == crate::printer::print_expr(rhs) =>
        {
            Some(false)
        }
        _ => None,
    }
}

fn is_literal(e: &Expr) -> bool {
    matches!(e.kind, ExprKind::BoolLit(_) | ExprKind::IntLit(_) | ExprKind::BvLit { .. } | ExprKind::DecLit(_))
}

/// A call of a procedure with an `ensures false` (free or not).
fn ensures_false(typed: &TypedProgram, call: &ast::CallCmd) -> bool {
    let Some(Ref::Procedure(p)) = typed.referent(&call.callee) else { return false };
    super::passify::procedure_specs(typed, p).iter().any(|s| match s {
        ast::Spec::Ensures { expr, .. } => is_false(expr),
        _ => false,
    })
}
