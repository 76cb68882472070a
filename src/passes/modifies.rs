//! Modifies inference: `/inferModifies` (and its old spelling `/doModSetAnalysis`), Boogie's
//! `ModSetCollector`.
//!
//! Expects a type-checked program (checked under `/inferModifies`, so an assignment to a
//! global missing from a `modifies` clause was no error). Guarantees every procedure's
//! `modifies` clauses name every global its implementations may change, directly or through
//! the procedures they call; nothing else changes. Later stages (the frame check when the
//! program is checked again, call desugaring in vcgen) then read the clauses as written.
//!
//! How: one walk over the implementations collects what each procedure changes itself
//! (assignment, havoc and call targets that are globals) and whom it calls. The call graph's
//! strongly connected components (petgraph's Tarjan, callees before callers) then give each
//! procedure of a component what any member changes plus what the procedures they call
//! outside it may change: one pass over the graph, where a fixed point over the procedures
//! would walk the program again for every level of calls. Missing globals are appended as one
//! more `modifies` clause, in the order they were met.

use petgraph::graph::{DiGraph, NodeIndex};
use rustc_hash::FxHashSet;

use super::{Pass, PassCx, PassError};
use crate::ast::{AssignLhs, Cmd, CmdKind, Decl, Ident, Program, Spec, StmtList};
use crate::typeck::{Ref, TypedProgram, VarId, VarKind};

/// The pass: `/inferModifies` turns it on.
pub struct InferModifies {
    pub enabled: bool,
}

impl Pass for InferModifies {
    fn name(&self) -> &'static str {
        "modifies"
    }

    fn run(&self, typed: &TypedProgram, _cx: &mut PassCx) -> Result<Option<Program>, PassError> {
        if !self.enabled {
            return Ok(None);
        }
        run(typed)
    }
}

fn run(typed: &TypedProgram) -> Result<Option<Program>, PassError> {
    let symbols = typed.symbols();
    let n = symbols.procedures.len();
    let mut direct: Vec<Vec<VarId>> = symbols.procedures.iter().map(|p| p.modifies.clone()).collect();
    let mut graph: DiGraph<(), ()> = DiGraph::with_capacity(n, n);
    for _ in 0..n {
        graph.add_node(());
    }
    for info in &symbols.implementations {
        let Some(p) = info.procedure else { continue };
        let body = match &typed.program.decls[info.decl.0 as usize] {
            Decl::Implementation(d) => &d.body,
            Decl::Procedure(d) => match &d.body {
                Some(b) => b,
                None => continue,
            },
            _ => continue,
        };
        let mut cmds = Vec::new();
        walk(&body.stmts, &mut cmds);
        let mut changed = Vec::new();
        for c in cmds {
            targets(typed, c, &mut changed, &mut |callee| {
                graph.add_edge(NodeIndex::new(p.index()), NodeIndex::new(callee), ());
            });
        }
        let own = &mut direct[p.index()];
        for v in changed {
            if symbols.var(v).kind == VarKind::Global && !own.contains(&v) {
                own.push(v);
            }
        }
    }
    let mut inferred: Vec<Vec<VarId>> = vec![Vec::new(); n];
    for component in petgraph::algo::tarjan_scc(&graph) {
        let members: FxHashSet<usize> = component.iter().map(|m| m.index()).collect();
        let mut set = Vec::new();
        let mut seen = FxHashSet::default();
        for m in &component {
            let callees = graph.neighbors(*m).map(|q| q.index()).filter(|q| !members.contains(q));
            let from_callees: Vec<VarId> = callees.flat_map(|q| inferred[q].iter().copied()).collect();
            for v in direct[m.index()].iter().copied().chain(from_callees) {
                if seen.insert(v) {
                    set.push(v);
                }
            }
        }
        for m in &component {
            inferred[m.index()] = set.clone();
        }
    }
    let mut decls = typed.program.decls.clone();
    let mut any = false;
    for d in &mut decls {
        let Decl::Procedure(p) = d else { continue };
        let Some(Ref::Procedure(id)) = typed.referent(&p.name) else { continue };
        let declared = &symbols.procedure(id).modifies;
        let missing: Box<[Ident]> = inferred[id.index()]
            .iter()
            .filter(|v| !declared.contains(v))
            .map(|v| Ident::at(symbols.var(*v).name.name, p.span))
            .collect();
        if missing.is_empty() {
            continue;
        }
        any = true;
        let mut specs = p.specs.to_vec();
        specs.push(Spec::Modifies { vars: missing, span: p.span });
        p.specs = specs.into();
    }
    Ok(any.then_some(Program { decls }))
}

fn walk<'a>(list: &'a StmtList, out: &mut Vec<&'a Cmd>) {
    for block in list.blocks.iter() {
        out.extend(block.cmds.iter());
        if let Some(tail) = &block.tail {
            tail.nested_lists().into_iter().for_each(|l| walk(l, out));
        }
    }
}

/// The variables command `c` assigns (Boogie's `AddAssignedVariables`), and its callees.
fn targets(typed: &TypedProgram, c: &Cmd, out: &mut Vec<VarId>, calls: &mut dyn FnMut(usize)) {
    let var = |name: &Ident, out: &mut Vec<VarId>| {
        if let Some(Ref::Var(v)) = typed.referent(name) {
            out.push(v);
        }
    };
    match &c.kind {
        CmdKind::Assign { lhss, .. } => {
            for lhs in lhss.iter() {
                let mut l = lhs;
                loop {
                    match l {
                        AssignLhs::Var(x) => break var(x, out),
                        AssignLhs::Select { base, .. } | AssignLhs::Field { base, .. } => l = base,
                    }
                }
            }
        }
        CmdKind::Havoc { vars } | CmdKind::Unpack { vars, .. } => vars.iter().for_each(|x| var(x, out)),
        CmdKind::Call(call) => {
            call.outs.iter().for_each(|x| var(x, out));
            if let Some(Ref::Procedure(q)) = typed.referent(&call.callee) {
                calls(q.index());
            }
        }
        CmdKind::ParCall { calls: each } => {
            for call in each.iter() {
                call.outs.iter().for_each(|x| var(x, out));
                if let Some(Ref::Procedure(q)) = typed.referent(&call.callee) {
                    calls(q.index());
                }
            }
        }
        _ => {}
    }
}
