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
//!
//! The clauses are added in place, their identifiers bound to the globals they name, and the
//! procedures' tables extended ([`Extension`]): the program is neither copied nor resolved
//! and checked again (a 3.7 MB GPUVerify kernel: the copy and the re-check took 0.08 s of a
//! 0.5 s `/noVerify`).

use petgraph::graph::{DiGraph, NodeIndex};
use rustc_hash::FxHashSet;

use super::{Output, Pass, PassCx, PassError};
use crate::ast::{AssignLhs, Cmd, CmdKind, Decl, Ident, Program, Spec, StmtList};
use crate::typeck::extend::Extension;
use crate::typeck::{Ref, TypedProgram, VarId, VarKind};

/// The pass: `/inferModifies` turns it on.
pub struct InferModifies {
    pub enabled: bool,
}

impl Pass for InferModifies {
    fn name(&self) -> &'static str {
        "modifies"
    }

    fn run(&self, typed: &TypedProgram, cx: &mut PassCx) -> Result<Option<Program>, PassError> {
        Ok(self.run_typed(typed, cx)?.map(|output| match output {
            Output::Program(program) | Output::Typed(program, _) => program,
        }))
    }

    fn run_typed(&self, typed: &TypedProgram, _cx: &mut PassCx) -> Result<Option<Output>, PassError> {
        if !self.enabled {
            return Ok(None);
        }
        Ok(add_clauses(typed, typed.program.decls.clone(), &infer(typed)).ok())
    }

    fn run_owned(&self, typed: &mut TypedProgram, _cx: &mut PassCx) -> Result<Option<Output>, PassError> {
        if !self.enabled {
            return Ok(None);
        }
        let inferred = infer(typed);
        let decls = std::mem::take(&mut typed.program.decls);
        Ok(match add_clauses(typed, decls, &inferred) {
            Ok(output) => Some(output),
            Err(decls) => {
                typed.program.decls = decls;
                None
            }
        })
    }
}

/// What each procedure (by index) may change, its own `modifies` clauses included.
fn infer(typed: &TypedProgram) -> Vec<Vec<VarId>> {
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
    inferred
}

/// `decls` (`typed`'s declarations, which `typed` itself may no longer hold) with a
/// `modifies` clause added to each procedure for the globals `inferred` has and its clauses
/// lack, with the entries of the identifiers added; `decls` back when none lacks any.
fn add_clauses(typed: &TypedProgram, mut decls: Vec<Decl>, inferred: &[Vec<VarId>]) -> Result<Output, Vec<Decl>> {
    let symbols = typed.symbols();
    let mut ext = Extension::new(typed);
    let mut any = false;
    for d in &mut decls {
        let Decl::Procedure(p) = d else { continue };
        let Some(Ref::Procedure(id)) = typed.referent(&p.name) else { continue };
        let declared = &symbols.procedure(id).modifies;
        let missing: Vec<VarId> = inferred[id.index()].iter().copied().filter(|v| !declared.contains(v)).collect();
        if missing.is_empty() {
            continue;
        }
        let idents: Box<[Ident]> =
            missing.iter().map(|&v| ext.ident(symbols.var(v).name.name, p.span, Some(Ref::Var(v)))).collect();
        ext.add_modifies(id, missing);
        any = true;
        let mut specs = p.specs.to_vec();
        specs.push(Spec::Modifies { vars: idents, span: p.span });
        p.specs = specs.into();
    }
    if !any {
        return Err(decls);
    }
    Ok(Output::Typed(Program { decls }, ext))
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

#[cfg(test)]
mod tests {
    use super::*;
    use crate::passes::tests::typed_with;
    use crate::typeck::TypeckOptions;

    /// `text` checked as `/inferModifies` checks it, the pass run on it as the pipeline runs it,
    /// and the tables the pass recorded applied.
    fn inferred(text: &str) -> Option<Box<TypedProgram>> {
        let mut typed = typed_with(text, &TypeckOptions { infer_modifies: true, ..TypeckOptions::default() });
        let pass = InferModifies { enabled: true };
        let output = pass.run_owned(&mut typed, &mut PassCx::default()).expect("no error")?;
        let Output::Typed(program, extension) = output else { panic!("the pass records its tables") };
        let mut resolution = std::mem::take(&mut typed.resolution);
        let mut typing = std::mem::take(&mut typed.typing);
        extension.apply(&mut resolution, &mut typing);
        Some(Box::new(TypedProgram { program, resolution, typing }))
    }

    /// The `modifies` clauses of procedure `name`, as the tables list them.
    fn clauses(typed: &TypedProgram, name: &str) -> Vec<String> {
        let symbols = typed.symbols();
        let p = symbols.procedures.iter().find(|p| p.name.name == name).expect("declared");
        p.modifies.iter().map(|v| symbols.var(*v).name.name.to_string()).collect()
    }

    /// A global changed by an assignment, a map assignment, a havoc or a call's out-parameter
    /// reaches the procedure that changes it, every caller up the call graph, and each member
    /// of a recursive cycle; a clause already written is kept and not repeated; a procedure
    /// without an implementation keeps what it declares. The tables agree with checking the
    /// output from scratch.
    #[test]
    fn what_a_procedure_changes_reaches_its_callers() {
        let text = "var a: int; var b: [int]int; var c: bool; var d: int;\n\
            procedure Leaf() { a := 1; b[0] := 2; }\n\
            procedure Havocs() modifies c; { havoc c; call d := Ext(); }\n\
            procedure Ext() returns (r: int);\n\
            procedure Even(n: int) { if (n > 0) { call Odd(n - 1); } }\n\
            procedure Odd(n: int) { call Leaf(); if (n > 0) { call Even(n - 1); } }\n\
            procedure Top() { call Havocs(); call Even(3); }\n";
        let typed = inferred(text).expect("clauses are added");
        assert_eq!(clauses(&typed, "Leaf"), ["a", "b"]);
        assert_eq!(clauses(&typed, "Havocs"), ["c", "d"]);
        assert!(clauses(&typed, "Ext").is_empty());
        assert_eq!(clauses(&typed, "Even"), clauses(&typed, "Odd"));
        assert_eq!(clauses(&typed, "Odd"), ["a", "b"]);
        assert_eq!(clauses(&typed, "Top"), ["a", "b", "c", "d"]);
        let printed = crate::printer::print_program(&typed.program, &Default::default());
        assert!(printed.contains("procedure Top()\n  modifies a, b, c, d;"), "{printed}");
        assert!(printed.contains("modifies c;\n  modifies d;"), "{printed}");
        assert_eq!(crate::typeck::compare::against_recheck(&typed), Ok(()));
    }

    /// Nothing changes where every clause is already written, or where nothing changes a
    /// global.
    #[test]
    fn complete_clauses_are_left_alone() {
        assert!(inferred("var g: int;\nprocedure P() modifies g; { g := 1; }\n").is_none());
        assert!(inferred("var g: int;\nprocedure P() { var l: int; l := g; }\n").is_none());
    }
}
