//! Whether monomorphization terminates: Boogie's `MonomorphizableChecker.IsFinitelyInstantiable`.
//!
//! A graph over type variables has an edge from `U` to `T` when a call instantiates type
//! parameter `T` (of a function, datatype constructor or procedure) with a type in which `U`
//! occurs; the edge is strong when `U` occurs inside a type constructor or map type there
//! (`f(cons(x, nil()))` inside `f<T>` instantiates `f`'s `T` with `List T`). A polymorphic
//! implementation's type parameters depend on its procedure's, and the binders resolution makes
//! again for a function's body (its definition axiom's) are the function's own. Instantiation
//! never ends exactly when a strong edge lies inside a strongly connected component: the
//! program has an expanding type cycle, and Boogie refuses it as a whole.

use petgraph::graphmap::DiGraphMap;
use rustc_hash::{FxHashMap, FxHashSet};

use super::Mono;
use crate::ast::{CmdKind, Decl, NodeId};
use crate::typeck::{Ref, Type, TypeVarId, TypedProgram};
use crate::walk::{self, Visitor};

/// Whether instantiating `typed` would never end.
///
/// The function applications' edges come from the type checker's table of instantiations
/// rather than from a walk of the program: only an instantiation that mentions a type
/// variable adds one, and those are few (on a 10 MB Dafny-like program the walk was a tenth
/// of the pass). Every polymorphic application of a checked program has its instantiation
/// recorded. Calls of procedures have none recorded, so the bodies are walked for them only
/// when some procedure is polymorphic.
pub(super) fn has_expanding_cycle(typed: &TypedProgram) -> bool {
    let mut graph = Dependencies::new(typed);
    for info in &typed.symbols().implementations {
        let Some(p) = info.procedure else { continue };
        for (&formal, &own) in typed.symbols().procedure(p).type_params.iter().zip(&info.type_params) {
            graph.edge(formal, own, false);
        }
    }
    // In id order, so that the graph is built the same way every run.
    let mut open: Vec<(u32, &Vec<Type>)> = typed
        .typing
        .instantiations
        .iter()
        .filter(|(_, inst)| !inst.iter().all(super::is_closed))
        .map(|(&id, inst)| (id, inst))
        .collect();
    open.sort_unstable_by_key(|&(id, _)| id);
    for (id, inst) in open {
        if let Some(Ref::Function(f)) = typed.resolution.refs.get(NodeId(id)).copied() {
            let formals = typed.symbols().function(f).type_params.clone();
            if !formals.is_empty() {
                let inst: Vec<Type> = inst.iter().map(|t| graph.mono.canon(t)).collect();
                graph.instantiated(&formals, &inst);
            }
        }
    }
    if typed.symbols().procedures.iter().any(|p| !p.type_params.is_empty()) {
        for decl in &typed.program.decls {
            if matches!(decl, Decl::Procedure(_) | Decl::Implementation(_)) {
                walk::decl(&mut graph, decl);
            }
        }
    }
    graph.expands()
}

struct Dependencies<'a> {
    mono: Mono<'a>,
    /// A function's type parameter for each binder made again for its body.
    alias: FxHashMap<TypeVarId, TypeVarId>,
    /// Edge `(u, t)`: type variable `u` flows into type parameter `t`.
    graph: DiGraphMap<u32, ()>,
    strong: FxHashSet<(u32, u32)>,
}

impl<'a> Dependencies<'a> {
    fn new(typed: &'a TypedProgram) -> Self {
        let vars = &typed.symbols().type_vars;
        let mut first = FxHashMap::default();
        let mut alias = FxHashMap::default();
        for (k, v) in vars.iter().enumerate() {
            let id = TypeVarId(k as u32);
            // One binder resolved twice: the same occurrence.
            if v.name.id.0 == NodeId::NONE.0 {
                continue;
            }
            let rep = *first.entry(v.name.id.0).or_insert(id);
            if rep != id {
                alias.insert(id, rep);
            }
        }
        Dependencies { mono: Mono::new(typed, false), alias, graph: DiGraphMap::new(), strong: FxHashSet::default() }
    }

    fn node(&self, v: TypeVarId) -> u32 {
        self.alias.get(&v).copied().unwrap_or(v).0
    }

    fn edge(&mut self, from: TypeVarId, to: TypeVarId, strong: bool) {
        let (from, to) = (self.node(from), self.node(to));
        self.graph.add_edge(from, to, ());
        if strong {
            self.strong.insert((from, to));
        }
    }

    /// Edges from the type variables of `actual` into `formal`.
    fn flows(&mut self, actual: &Type, formal: TypeVarId, nested: bool) {
        match actual.expanded() {
            Type::Var(v) => self.edge(*v, formal, nested),
            Type::Ctor(_, args) => args.iter().for_each(|a| self.flows(a, formal, true)),
            Type::Map(m) => {
                m.args.iter().for_each(|a| self.flows(a, formal, true));
                self.flows(&m.result, formal, true);
            }
            _ => {}
        }
    }

    fn instantiated(&mut self, formals: &[TypeVarId], inst: &[Type]) {
        for (&formal, actual) in formals.iter().zip(inst) {
            self.flows(actual, formal, false);
        }
    }

    fn expands(&self) -> bool {
        petgraph::algo::tarjan_scc(&self.graph).iter().any(|scc| {
            let scc: FxHashSet<u32> = scc.iter().copied().collect();
            self.strong.iter().any(|(u, t)| scc.contains(u) && scc.contains(t))
        })
    }
}

impl Visitor for Dependencies<'_> {
    fn cmd(&mut self, c: &crate::ast::Cmd) {
        let calls = match &c.kind {
            CmdKind::Call(call) => std::slice::from_ref(&**call),
            CmdKind::ParCall { calls } => &calls[..],
            _ => return,
        };
        for call in calls {
            if let Some(p) = self.mono.polymorphic_callee(call) {
                let formals = self.mono.typed.symbols().procedure(p).type_params.clone();
                let inst = self.mono.call_instantiation(p, call);
                self.instantiated(&formals, &inst);
            }
        }
    }
}
