//! Termination measures: `measure e1, e2;` on procedures and in loop heads (Boogie's
//! `MeasureChecker`).
//!
//! Two entry points, as in Boogie:
//! - [`check`], after type checking: where measures may stand (one per loop head of a
//!   sequential procedure, before any assignment there, nowhere but in loop heads; at most one
//!   per sequential procedure; a recursive call between procedures with measures of the same
//!   length). Errors are type-checking errors, reported at Boogie's tokens.
//! - [`transform`], on an implementation's blocks right after lowering (Boogie transforms the
//!   program before it coalesces blocks): a loop head's measure becomes `assert e >= 0` for each
//!   `int` component (part of the loop invariant, since it follows the invariants), a snapshot
//!   of the measure (Boogie's `old_N_M` locals) and, at the end of every block that jumps back
//!   to the head, the check that the measure went down; a recursive call of a procedure with a
//!   measure gets, before it, the check that the callee's measure at the arguments is below the
//!   caller's at its entry. Every procedure with a measure also requires `e >= 0` of each `int`
//!   component (see [`super::passify`] for the call, [`super::verify`] for the entry).
//!
//! The order is Boogie's well-founded lexicographic one: `int` components by `<` (bounded below
//! by the non-negativity checks), `bool` components by `false < true`.
//!
//! A call is recursive when some implementation of the callee reaches, in one or more calls,
//! an implementation of the caller (Boogie's transitive call graph, without implementations
//! that are not verified).
//!
//! Civl's layered measures (yield procedures) are not checked here: the verifier refuses Civl
//! programs.

use std::borrow::Borrow;

use petgraph::algo::dominators::simple_fast;
use petgraph::graph::{DiGraph, NodeIndex};
use rustc_hash::{FxHashMap, FxHashSet};

use super::verify::body_of;
use super::{Block, Check, CheckKind, Cmd, Unsupported};
use crate::ast::{BlockTail, CmdKind, Decl, Expr, Span, Spec, StmtList};
use crate::diagnostics::{Diagnostic, Phase};
use crate::passes::verify_false;
use crate::typeck::{ImplementationId, ProcedureId, Ref, Type, TypedProgram};

/// The expressions of a procedure's measure, in order (all its `measure` clauses together,
/// as Boogie's `MeasureCmds.SelectMany`).
pub fn procedure_measure(typed: &TypedProgram, p: ProcedureId) -> Vec<&Expr> {
    measure_clauses(typed, p).flat_map(|(exprs, _)| exprs.iter()).collect()
}

fn measure_clauses(typed: &TypedProgram, p: ProcedureId) -> impl Iterator<Item = (&[Expr], Span)> {
    super::passify::procedure_specs(typed, p).iter().filter_map(|s| match s {
        Spec::Measure { exprs, span, .. } => Some((&exprs[..], *span)),
        _ => None,
    })
}

pub fn is_int(typed: &TypedProgram, e: &Expr) -> bool {
    matches!(typed.type_of(e.id).expanded(), Type::Int)
}

/// `now` below `before` in the lexicographic order of the measure `exprs` (Boogie's
/// `MeasureLessThanExpr`): some component strictly smaller and every earlier one equal.
pub fn less_than<E: Borrow<Expr>>(typed: &TypedProgram, exprs: &[E], now: &[String], before: &[String]) -> String {
    let mut disjuncts = Vec::new();
    let mut equal_prefix: Vec<String> = Vec::new();
    for ((e, a), b) in exprs.iter().zip(now).zip(before) {
        let strict = if is_int(typed, e.borrow()) { format!("(< {a} {b})") } else { format!("(and (not {a}) {b})") };
        disjuncts.push(conjunction(equal_prefix.iter().cloned().chain([strict])));
        equal_prefix.push(format!("(= {a} {b})"));
    }
    match disjuncts.len() {
        0 => "false".to_string(),
        1 => disjuncts.pop().expect("one"),
        _ => format!("(or {})", disjuncts.join(" ")),
    }
}

fn conjunction(terms: impl Iterator<Item = String>) -> String {
    let terms: Vec<String> = terms.collect();
    if terms.len() == 1 { terms.into_iter().next().expect("one") } else { format!("(and {})", terms.join(" ")) }
}

// ---------------------------------------------------------------------------------------------
// Recursion

/// Which procedures' implementations call which (Boogie's `BuildCallGraph`, by procedure).
/// `skip_inlined` leaves out implementations with `{:inline}`, as Boogie does under
/// `/inline:assume` and `/inline:assert` (after the inline pass they are `{:verify false}`).
pub struct CallGraph {
    calls: FxHashMap<ProcedureId, FxHashSet<ProcedureId>>,
}

impl CallGraph {
    pub fn new(typed: &TypedProgram, skip_inlined: bool) -> CallGraph {
        let symbols = typed.symbols();
        let mut calls: FxHashMap<ProcedureId, FxHashSet<ProcedureId>> = FxHashMap::default();
        for (i, info) in symbols.implementations.iter().enumerate() {
            let Some(p) = info.procedure else { continue };
            let Some(body) = body_of(typed, ImplementationId(i as u32)) else { continue };
            let attrs = match &typed.program.decls[info.decl.0 as usize] {
                Decl::Implementation(d) => &d.attrs[..],
                Decl::Procedure(d) => &d.attrs[..],
                _ => continue,
            };
            let proc_attrs = match &typed.program.decls[symbols.procedure(p).decl.0 as usize] {
                Decl::Procedure(d) => &d.attrs[..],
                _ => &[],
            };
            // Boogie's `IsSkipVerification` leaves such implementations out of the call graph.
            let inlined = |attrs: &[crate::ast::Attribute]| skip_inlined && attrs.iter().any(|a| a.key == "inline");
            if verify_false(attrs) || verify_false(proc_attrs) || inlined(attrs) || inlined(proc_attrs) {
                continue;
            }
            let callees = calls.entry(p).or_default();
            for_each_call(&body.stmts, &mut |call| {
                if let Some(Ref::Procedure(q)) = typed.referent(&call.callee) {
                    callees.insert(q);
                }
            });
        }
        CallGraph { calls }
    }

    /// Whether a call of `callee` from `caller` is recursive: an implementation of `callee`
    /// reaches one of `caller` in one or more calls.
    pub fn is_recursive(&self, caller: ProcedureId, callee: ProcedureId) -> bool {
        if !self.calls.contains_key(&callee) {
            return false;
        }
        let mut seen = FxHashSet::default();
        let mut stack = vec![callee];
        while let Some(p) = stack.pop() {
            for &q in self.calls.get(&p).into_iter().flatten() {
                if !self.calls.contains_key(&q) {
                    continue;
                }
                if q == caller {
                    return true;
                }
                if seen.insert(q) {
                    stack.push(q);
                }
            }
        }
        false
    }
}

fn for_each_call<'a>(list: &'a StmtList, f: &mut dyn FnMut(&'a crate::ast::CallCmd)) {
    for bb in list.blocks.iter() {
        for c in bb.cmds.iter() {
            match &c.kind {
                CmdKind::Call(call) => f(call),
                CmdKind::ParCall { calls } => calls.iter().for_each(&mut *f),
                _ => {}
            }
        }
        if let Some(tail) = &bb.tail {
            for nested in tail.nested_lists() {
                for_each_call(nested, f);
            }
        }
        if let Some(BlockTail::While(w)) = &bb.tail {
            for spec in w.invariants.iter() {
                if let crate::ast::LoopSpec::YieldInvariant { call, .. } = spec {
                    f(call);
                }
            }
        }
    }
}

// ---------------------------------------------------------------------------------------------
// Loops

/// The loop heads of a block graph whose first block is the entry, each with the blocks that
/// jump back to it (edges into a dominator), in block order.
fn loops(blocks: &[Block]) -> Vec<(usize, Vec<usize>)> {
    if blocks.is_empty() {
        return Vec::new();
    }
    let mut graph: DiGraph<(), ()> = DiGraph::with_capacity(blocks.len(), 0);
    for _ in blocks {
        graph.add_node(());
    }
    for (b, block) in blocks.iter().enumerate() {
        for &s in &block.succs {
            graph.add_edge(NodeIndex::new(b), NodeIndex::new(s), ());
        }
    }
    let dominators = simple_fast(&graph, NodeIndex::new(0));
    // The dominator tree numbered in depth-first order, so that "s dominates b" is a check of
    // two intervals (collecting every block's dominators is quadratic in long programs).
    let n = blocks.len();
    let mut children: Vec<Vec<usize>> = vec![Vec::new(); n];
    for b in 1..n {
        if let Some(d) = dominators.immediate_dominator(NodeIndex::new(b)) {
            children[d.index()].push(b);
        }
    }
    let (mut enter, mut exit) = (vec![usize::MAX; n], vec![0usize; n]);
    let mut clock = 0;
    let mut stack = vec![(0usize, 0usize)];
    enter[0] = 0;
    while let Some(&mut (b, ref mut i)) = stack.last_mut() {
        if let Some(&c) = children[b].get(*i) {
            *i += 1;
            clock += 1;
            enter[c] = clock;
            stack.push((c, 0));
        } else {
            exit[b] = clock;
            stack.pop();
        }
    }
    let dominates = |s: usize, b: usize| enter[b] != usize::MAX && enter[s] <= enter[b] && exit[b] <= exit[s];
    let mut heads: Vec<(usize, Vec<usize>)> = Vec::new();
    for (b, block) in blocks.iter().enumerate() {
        if enter[b] == usize::MAX {
            continue; // unreachable
        }
        for &s in &block.succs {
            if dominates(s, b) {
                match heads.iter_mut().find(|(h, _)| *h == s) {
                    Some((_, back)) if !back.contains(&b) => back.push(b),
                    Some(_) => {}
                    None => heads.push((s, vec![b])),
                }
            }
        }
    }
    heads.sort_by_key(|(h, _)| *h);
    heads
}

// ---------------------------------------------------------------------------------------------
// The checks

/// Boogie's `MeasureChecker` constructor: where measures may stand. Type-checking errors.
pub fn check(typed: &TypedProgram, skip_inlined: bool) -> Vec<Diagnostic> {
    let symbols = typed.symbols();
    let error = |span: Span, message: &str| Diagnostic::error(Phase::Typecheck, span, message);
    let mut errors = Vec::new();
    // Implementations in program order, with their bodies.
    let mut impls: Vec<_> = (0..symbols.implementations.len() as u32)
        .map(ImplementationId)
        .filter_map(|id| Some((&symbols.implementations[id.0 as usize], body_of(typed, id)?)))
        .collect();
    impls.sort_by_key(|(info, _)| info.decl);
    for (_, body) in &impls {
        if !mentions_measure(&body.stmts) {
            continue;
        }
        let (blocks, _) = super::cfg::lower_all(typed, &body.stmts);
        let heads = loops(&blocks);
        for (h, _) in &heads {
            let head = &blocks[*h];
            let measures: Vec<Span> = head
                .cmds
                .iter()
                .filter_map(|c| match c {
                    Cmd::Measure { span, .. } => Some(*span),
                    _ => None,
                })
                .collect();
            if measures.is_empty() {
                continue;
            }
            if measures.len() > 1 {
                let at = head.tok.unwrap_or(measures[0]);
                errors.push(error(at, "Loop head may contain at most one measure command in a sequential procedure"));
            }
            let mut after_assignment = false;
            for c in &head.cmds {
                match c {
                    Cmd::Assign { .. } => after_assignment = true,
                    Cmd::Measure { span, .. } if after_assignment => {
                        errors.push(error(*span, "Assignment must come after the measure command in loop head"));
                    }
                    _ => {}
                }
            }
        }
        for (b, block) in blocks.iter().enumerate() {
            if heads.iter().any(|(h, _)| *h == b) {
                continue;
            }
            for c in &block.cmds {
                if let Cmd::Measure { span, .. } = c {
                    errors.push(error(*span, "Measure command must not occur outside a loop head"));
                }
            }
        }
    }
    let mut with_measure = Vec::new();
    for (i, info) in symbols.procedures.iter().enumerate() {
        let p = ProcedureId(i as u32);
        let clauses: Vec<Span> = measure_clauses(typed, p).map(|(_, span)| span).collect();
        if clauses.is_empty() {
            continue;
        }
        with_measure.push((info.decl, p));
        if clauses.len() > 1 {
            errors.push(error(clauses[1], "Sequential procedure may contain at most one measure command"));
        }
    }
    if with_measure.is_empty() {
        return errors;
    }
    let graph = CallGraph::new(typed, skip_inlined);
    for (info, body) in &impls {
        let Some(p) = info.procedure else { continue };
        let count = procedure_measure(typed, p).len();
        if count == 0 {
            continue;
        }
        for_each_call(&body.stmts, &mut |call| {
            if let Some(Ref::Procedure(q)) = typed.referent(&call.callee)
                && graph.is_recursive(p, q)
                && procedure_measure(typed, q).len() != count
            {
                errors.push(error(call.span, "Expected number of measure expressions on callee and caller to be same"));
            }
        });
    }
    errors
}

/// Whether a body has a `measure` command or loop clause anywhere.
fn mentions_measure(list: &StmtList) -> bool {
    list.blocks.iter().any(|bb| {
        bb.cmds.iter().any(|c| matches!(c.kind, CmdKind::Measure { .. }))
            || match &bb.tail {
                Some(BlockTail::While(w)) => {
                    w.invariants.iter().any(|s| matches!(s, crate::ast::LoopSpec::Measure { .. }))
                        || mentions_measure(&w.body)
                }
                Some(tail) => tail.nested_lists().into_iter().any(mentions_measure),
                None => false,
            }
    })
}

// ---------------------------------------------------------------------------------------------
// The transformation

/// Boogie's `MeasureChecker.Transform` on one implementation of procedure `proc`, on its blocks
/// as lowered (see the module header).
pub fn transform<'a>(
    typed: &'a TypedProgram,
    graph: &CallGraph,
    proc: ProcedureId,
    blocks: &mut [Block<'a>],
) -> Result<(), Unsupported> {
    let decreases = |tok: Span| Check {
        kind: CheckKind::MeasureDecreases,
        tok,
        msg: None,
        describe: None,
        subsume: true,
        isolate: None,
        clause: None,
    };
    // Recursive calls.
    let count = procedure_measure(typed, proc).len();
    if count > 0 {
        for block in blocks.iter_mut() {
            let mut cmds = Vec::with_capacity(block.cmds.len() + 1);
            for c in block.cmds.drain(..) {
                if let Cmd::Call(call) = c
                    && let Some(Ref::Procedure(q)) = typed.referent(&call.callee)
                    && graph.is_recursive(proc, q)
                    && procedure_measure(typed, q).len() == count
                {
                    cmds.push(Cmd::MeasureCall { call, caller: proc, check: decreases(call.span) });
                }
                cmds.push(c);
            }
            block.cmds = cmds;
        }
    }
    // Loop measures.
    let mut next_id = 0;
    for (h, back) in loops(blocks) {
        let mut cmds = Vec::with_capacity(blocks[h].cmds.len());
        let mut last = None;
        for c in blocks[h].cmds.drain(..) {
            let Cmd::Measure { exprs, span } = c else {
                cmds.push(c);
                continue;
            };
            for e in exprs {
                if is_int(typed, e) {
                    let check = Check {
                        kind: CheckKind::Assert,
                        tok: e.span,
                        msg: None,
                        describe: None,
                        subsume: true,
                        isolate: None,
                        clause: None,
                    };
                    cmds.push(Cmd::NonNegative { expr: e, check: Some(check) });
                }
            }
            cmds.push(Cmd::MeasureSnapshot { id: next_id, exprs });
            last = Some((next_id, exprs, span));
            next_id += 1;
        }
        blocks[h].cmds = cmds;
        let Some((id, exprs, span)) = last else { continue };
        for b in back {
            let tok = blocks[b].tok.unwrap_or(span);
            blocks[b].cmds.push(Cmd::MeasureDecreased { id, exprs, check: decreases(tok) });
        }
    }
    // What is left stands outside any loop head: only after a pass (inlining, unrolling) moved
    // it there, since `check` refuses such programs.
    for block in blocks.iter() {
        if let Some(Cmd::Measure { span, .. }) = block.cmds.iter().find(|c| matches!(c, Cmd::Measure { .. })) {
            return Err(Unsupported::new(
                Some(*span),
                "loop measures under /loopUnroll (a measure outside any loop head)",
            ));
        }
    }
    Ok(())
}

#[cfg(test)]
mod tests {
    #[test]
    fn lexicographic_order() {
        // Without a typed program the components' kinds cannot be asked; the shape of the
        // formula is what matters: a strict decrease under an equal prefix.
        let c = super::conjunction(["(= a b)".to_string(), "(< c d)".to_string()].into_iter());
        assert_eq!(c, "(and (= a b) (< c d))");
    }
}
