//! Houdini (`/contractInfer`): which candidate annotations hold, as Boogie's `Houdini`
//! (Houdini.cs, HoudiniSession.cs) computes it.
//!
//! Expects a type-checked program after every pass, Houdini's own inlining included
//! (`/inlineDepth:N`, [`crate::passes::houdini_inline`]), and the call graph of the program
//! before that inlining ([`CallGraph::new`]). A constant declared `const {:existential true}
//! b: bool` guards the candidates `b ==> e` (also `c ==> (b ==> e)`, `b` the antecedent of
//! an implication down the chain of consequents, Boogie's `MatchCandidate`) among the
//! `requires`, `ensures`, assertions and loop invariants.
//!
//! Guarantees Boogie's greatest fixpoint: every constant starts true; a constant is set false
//! only when a counterexample the solver gave under the current assignment fails its candidate,
//! and the inference ends when every implementation's last check under the final assignment
//! was `unsat` (verified), or showed an error that is no candidate's (then, as in Boogie, the
//! inference stops and the implementations still queued are checked once as they are), or
//! gave up (time out, unknown, solver failure: Boogie sets every candidate the implementation
//! asserts false and checks it no more). Each implementation's last outcome is what is
//! reported, its errors without the candidates' (Boogie's `implementationOutcomes`), in the
//! order implementations were first checked.
//!
//! How: each implementation's VC is generated once ([`crate::vcgen::verify`]'s staging) and
//! sent to a solver session of its own, where it stays; a check pushes the current values of
//! the existential constants the VC or the axioms mention, runs Boogie's counterexample loop
//! (up to `/errorLimit` counterexamples, each failing assertion blocked after it is found) and
//! pops. Sessions are opened on demand and at most [`HoudiniConfig::max_sessions`] stay open
//! (the least recently used is closed and reopened when needed). The worklist starts in
//! Boogie's order (strongly connected components of the call graph, callees first, by Boogie's
//! Kosaraju walk); a refuted `ensures` queues the callers again, a refuted `requires` (at a
//! call) the callee's implementations, as Boogie's `FindImplementationsToEnqueue` does. Unlike
//! Boogie, an implementation that gives up also queues those its now-false candidates were
//! assumed in, so that no reported assignment rests on a check under a stronger one.
//!
//! Bounded mode (`/main:P`) runs the same inference on the program its check verifies: the
//! entry point alone, every callee inlined to the bound and every loop unrolled (the driver
//! then checks that program under the assignment). A callee's `requires` asserted at an
//! inlined call is known by the `requires` ([`Check::clause`]), since the call's position is
//! shared by its other preconditions. A concurrent program's entry point is sequentialized: its
//! assertions are failure blocks ([`crate::passes::sequentialize::failed_assertion`]) and its
//! one assertion fails when one of them is taken; a counterexample refutes the candidate of the
//! first failure block on its path (the failure bounded mode reports). The path lists each
//! thread's steps together, not in the order of the rounds they run in, so when one execution
//! fails several assertions that one need not have failed first; the assignment can then be
//! smaller than the greatest, never unsound: whatever it is, the check under it decides.
//!
//! `/useUnsatCoreForContractInfer` (Boogie's `UpdateUnsatCore` and `InUnsatCore`): a check
//! still asserts the false constants, but assumes the true ones (`check-sat-assuming`,
//! [`Session::check_sat_assuming`]) and, when it proves the implementation, asks which of them
//! the proof used ([`Session::unsat_assumptions`]); the implementation keeps that core until
//! its next check. Only the true constants are assumed because a false one stays false: it
//! can never break a proof, and asserting it keeps the literals and the cores to what may
//! still be refuted. The check itself gives the core, where Boogie proves the implementation
//! a second time under the assumptions (its `numUnsatCoreProverQueries`).
//!
//! The worklist is the one the run without the option has: a refuted candidate queues the
//! related implementations as above. An implementation at the front of the queue whose last
//! proof still holds (every candidate in its core still true) is taken off unchecked, as a
//! check would say "verified" again and change nothing. So the checks made are those of the
//! run without the option less the ones that could only repeat a proof, in the same order,
//! and the assignment and the report are the same. (Unless the solver's counterexamples
//! differ, as they may under assumptions: they decide the order in which candidates fall,
//! which the greatest fixpoint does not depend on, but the point at which an error that is no
//! candidate's stops the inference does.) Boogie instead does not queue an implementation
//! whose core lacks the candidate refuted, which moves it later in the queue when another
//! refutation queues it. An implementation never proved, or whose solver gave no core, is
//! checked as without the option. Cores need not be the least: z3's usually are; cvc5's list
//! most of what was assumed unless `/proverOpt:O:minimal-unsat-cores=true` (which costs a
//! check per literal).

use rustc_hash::{FxHashMap, FxHashSet};
use std::collections::VecDeque;

use crate::ast::{BinaryOp, CmdKind, Decl, Expr, ExprKind, LoopSpec, Span, Spec, StmtList, Symbol};
use crate::smt::{Answer, Limits, Session, UnknownReason};
use crate::typeck::{ImplementationId, ProcedureId, Ref, TypedProgram, VarId};
use crate::vcgen::trace::Counterexample;
use crate::vcgen::verify::{Heading, ImplResult, Query, SessionOpener, Staged};
use crate::vcgen::{Check, CheckKind, ImplOutcome, Unsupported, VerifyOptions};

/// What the command line says about Houdini (built by `cli`).
#[derive(Clone, Debug, PartialEq)]
pub struct HoudiniConfig {
    /// `/inlineDepth:N` (N > 0): Houdini inlines every call N levels deep.
    pub inline_depth: Option<u32>,
    /// `/useUnsatCoreForContractInfer`: checks ask for the candidates a proof needed (see the
    /// module header). Its sessions must be opened with
    /// [`crate::smt::SessionOptions::unsat_assumptions`].
    pub use_unsat_core: bool,
    /// `/trace`: the inference's progress, in Boogie's words.
    pub trace: bool,
    /// How many solver sessions stay open at once.
    pub max_sessions: usize,
}

impl Default for HoudiniConfig {
    fn default() -> HoudiniConfig {
        HoudiniConfig { inline_depth: None, use_unsat_core: false, trace: false, max_sessions: 64 }
    }
}

/// What the inference found.
pub struct HoudiniOutcome {
    /// Every existential constant, in declaration order, with its value.
    pub assignment: Vec<(String, bool)>,
    /// Each implementation's last outcome, in the order they were first checked; the
    /// implementations that could not be encoded after them.
    pub results: Vec<ImplResult>,
    pub stats: Stats,
}

/// Counts for `/trace` and the benchmark.
#[derive(Clone, Debug, Default)]
pub struct Stats {
    /// Houdini's checks of an implementation under an assignment (Boogie's
    /// `numProverQueries`).
    pub queries: usize,
    /// The solver's `check-sat`s, those of the counterexample loops included.
    pub check_sats: usize,
    /// Implementations with something to check.
    pub implementations: usize,
    /// Time spent in the solvers, in seconds.
    pub solver_seconds: f64,
    /// Under `/useUnsatCoreForContractInfer`: the cores asked for (Boogie's
    /// `numUnsatCoreProverQueries`, which are checks of their own there), the time spent in
    /// them, and the implementations taken off the queue unchecked because their last proof
    /// still held (Boogie's `numUnsatCorePrunings` counts the queuings its cores avoid).
    pub core_queries: usize,
    pub core_seconds: f64,
    pub prunings: usize,
}

// ---------------------------------------------------------------------------------------------
// The call graph

/// Boogie's `Program.BuildCallGraph` over the implementations verification selects, extended
/// as Houdini's `Inline` extends it: with `/inlineDepth:N`, an implementation also calls what
/// its callees call, N times over (the calls left in the bodies it inlined).
#[derive(Clone, Debug, Default)]
pub struct CallGraph {
    /// The nodes: implementations by name, in program order.
    names: Vec<Symbol>,
    /// The edges, caller to callee, in the order they were added, each once.
    edges: Vec<(usize, usize)>,
}

impl CallGraph {
    /// The graph of `typed` (the program before Houdini's inlining); `depth` is
    /// `/inlineDepth`'s.
    pub fn new(typed: &TypedProgram, options: &VerifyOptions, depth: Option<u32>) -> CallGraph {
        let symbols = typed.symbols();
        let impls = crate::vcgen::verify::selected_implementations(typed, options);
        let mut by_procedure: FxHashMap<ProcedureId, Vec<usize>> = FxHashMap::default();
        for (node, id) in impls.iter().enumerate() {
            if let Some(p) = symbols.implementations[id.index()].procedure {
                by_procedure.entry(p).or_default().push(node);
            }
        }
        let mut graph = CallGraph {
            names: impls.iter().map(|id| symbols.implementations[id.index()].name.name).collect(),
            edges: Vec::new(),
        };
        let mut seen = FxHashSet::default();
        for (node, &id) in impls.iter().enumerate() {
            let Some(body) = crate::vcgen::verify::body_of(typed, id) else { continue };
            let mut callees = Vec::new();
            calls_in(typed, &body.stmts, &mut callees);
            for p in callees {
                for &callee in by_procedure.get(&p).into_iter().flatten() {
                    if seen.insert((node, callee)) {
                        graph.edges.push((node, callee));
                    }
                }
            }
        }
        let old = graph.clone();
        for _ in 0..depth.unwrap_or(0) {
            for node in 0..graph.names.len() {
                let added: Vec<usize> =
                    graph.successors(node).into_iter().flat_map(|succ| old.successors(succ)).collect();
                for callee in added {
                    if seen.insert((node, callee)) {
                        graph.edges.push((node, callee));
                    }
                }
            }
        }
        graph
    }

    fn successors(&self, node: usize) -> Vec<usize> {
        self.edges.iter().filter(|e| e.0 == node).map(|e| e.1).collect()
    }
}

/// The procedures `stmts` calls, in order.
fn calls_in(typed: &TypedProgram, stmts: &StmtList, out: &mut Vec<ProcedureId>) {
    struct Calls<'t> {
        typed: &'t TypedProgram,
        out: &'t mut Vec<ProcedureId>,
    }
    impl crate::walk::Visitor for Calls<'_> {
        fn cmd(&mut self, c: &crate::ast::Cmd) {
            let calls: Vec<&crate::ast::CallCmd> = match &c.kind {
                CmdKind::Call(call) => vec![call],
                CmdKind::ParCall { calls } => calls.iter().collect(),
                _ => Vec::new(),
            };
            for call in calls {
                if let Some(Ref::Procedure(p)) = self.typed.referent(&call.callee) {
                    self.out.push(p);
                }
            }
        }
    }
    crate::walk::stmts(&mut Calls { typed, out }, stmts);
}

/// The adjacency of the graph over the implementations being inferred (`nodes[k]` is the
/// graph node of implementation `k`), in Boogie's order: a node's successors and
/// predecessors in the order their edges were added.
struct Adjacency {
    succs: Vec<Vec<usize>>,
    preds: Vec<Vec<usize>>,
}

impl Adjacency {
    fn new(graph: &CallGraph, names: &[Symbol]) -> Adjacency {
        // Graph nodes to implementations, by name and then by occurrence.
        let mut by_name: FxHashMap<Symbol, VecDeque<usize>> = FxHashMap::default();
        for (k, n) in names.iter().enumerate() {
            by_name.entry(*n).or_default().push_back(k);
        }
        let node_to_impl: Vec<Option<usize>> =
            graph.names.iter().map(|n| by_name.get_mut(n).and_then(VecDeque::pop_front)).collect();
        let mut succs = vec![Vec::new(); names.len()];
        let mut preds = vec![Vec::new(); names.len()];
        for &(a, b) in &graph.edges {
            if let (Some(a), Some(b)) = (node_to_impl[a], node_to_impl[b]) {
                succs[a].push(b);
                preds[b].push(a);
            }
        }
        Adjacency { succs, preds }
    }

    /// Boogie's `BuildWorkList`: its `StronglyConnectedComponents` (post-order of a walk over
    /// the predecessors, then components by walks over the successors from the last finished),
    /// each component's nodes in the order its walk met them.
    fn work_order(&self) -> Vec<usize> {
        let n = self.succs.len();
        let mut seen = vec![false; n];
        let mut post = Vec::with_capacity(n);
        for root in 0..n {
            if seen[root] {
                continue;
            }
            seen[root] = true;
            let mut stack = vec![(root, 0usize)];
            while let Some((node, next)) = stack.pop() {
                match self.preds[node].get(next) {
                    Some(&m) => {
                        stack.push((node, next + 1));
                        if !seen[m] {
                            seen[m] = true;
                            stack.push((m, 0));
                        }
                    }
                    None => post.push(node),
                }
            }
        }
        let mut seen = vec![false; n];
        let mut order = Vec::with_capacity(n);
        while let Some(root) = post.pop() {
            if seen[root] {
                continue;
            }
            seen[root] = true;
            order.push(root);
            let mut stack = vec![(root, 0usize)];
            while let Some((node, next)) = stack.pop() {
                if let Some(&m) = self.succs[node].get(next) {
                    stack.push((node, next + 1));
                    if !seen[m] {
                        seen[m] = true;
                        order.push(m);
                        stack.push((m, 0));
                    }
                }
            }
        }
        order
    }
}

// ---------------------------------------------------------------------------------------------
// Candidates

/// A span as a map key: its position (`Span`'s own `==` ignores positions).
type At = (u32, u32, u32);

fn at(span: Span) -> At {
    (span.file.0, span.start, span.end)
}

/// The existential constants and the candidates they guard, by the span of the annotation.
struct Candidates {
    names: Vec<String>,
    smt: Vec<String>,
    by_var: FxHashMap<VarId, usize>,
    requires: FxHashMap<At, (ProcedureId, usize)>,
    ensures: FxHashMap<At, usize>,
    asserts: FxHashMap<At, usize>,
    /// A sequentialized entry point's failure blocks whose assertion is a candidate, by label
    /// ([`crate::passes::sequentialize::failed_assertion`]).
    fails: FxHashMap<String, usize>,
    /// The positions of a sequentialized entry point's one assertion (its failure is the first
    /// failure block its trace passes through).
    finals: FxHashSet<At>,
    /// The constants the axioms and function bodies mention: every check must fix them.
    global: Vec<usize>,
}

/// What a counterexample refutes (Boogie's `RefutedAnnotation`): the constant, and for a
/// precondition the procedure called.
#[derive(Clone, Copy, Debug)]
enum Refuted {
    Requires(usize, ProcedureId),
    Ensures(usize),
    Assert(usize),
}

impl Refuted {
    fn constant(self) -> usize {
        match self {
            Refuted::Requires(c, _) | Refuted::Ensures(c) | Refuted::Assert(c) => c,
        }
    }
}

/// `{:existential}` or `{:existential true}` (Boogie's `CheckBooleanAttribute`).
fn existential(attrs: &[crate::ast::Attribute]) -> bool {
    let mut result = false;
    for a in attrs.iter().filter(|a| a.key == "existential") {
        match &a.params[..] {
            [] => result = true,
            [crate::ast::AttrParam::Expr(Expr { kind: ExprKind::BoolLit(b), .. })] => result = *b,
            _ => {}
        }
    }
    result
}

impl Candidates {
    fn new(typed: &TypedProgram) -> Candidates {
        let symbols = typed.symbols();
        let mut c = Candidates {
            names: Vec::new(),
            smt: Vec::new(),
            by_var: FxHashMap::default(),
            requires: FxHashMap::default(),
            ensures: FxHashMap::default(),
            asserts: FxHashMap::default(),
            fails: FxHashMap::default(),
            finals: FxHashSet::default(),
            global: Vec::new(),
        };
        for d in &typed.program.decls {
            if let Decl::Const(k) = d
                && existential(&k.attrs)
            {
                for n in k.names.iter() {
                    if let Some(Ref::Var(v)) = typed.referent(n)
                        && !c.by_var.contains_key(&v)
                    {
                        c.by_var.insert(v, c.names.len());
                        c.names.push(n.name.to_string());
                        c.smt.push(crate::smt::names::quote(&n.name));
                    }
                }
            }
        }
        if c.names.is_empty() {
            return c;
        }
        for (p, info) in symbols.procedures.iter().enumerate() {
            let Decl::Procedure(decl) = &typed.program.decls[info.decl.0 as usize] else { continue };
            for s in decl.specs.iter() {
                match s {
                    Spec::Requires { expr, span, .. } => {
                        if let Some(k) = c.match_candidate(typed, expr) {
                            c.requires.insert(at(*span), (ProcedureId(p as u32), k));
                        }
                    }
                    Spec::Ensures { expr, span, .. } => {
                        if let Some(k) = c.match_candidate(typed, expr) {
                            c.ensures.insert(at(*span), k);
                        }
                    }
                    _ => {}
                }
            }
        }
        struct Asserts<'c, 't> {
            typed: &'t TypedProgram,
            c: &'c mut Candidates,
            mentioned: FxHashSet<usize>,
            in_axioms: bool,
        }
        impl crate::walk::Visitor for Asserts<'_, '_> {
            fn cmd(&mut self, cmd: &crate::ast::Cmd) {
                let CmdKind::Assert { expr, attrs } = &cmd.kind else { return };
                let marked = |key: &str| attrs.iter().any(|a| a.key.as_str() == key);
                if marked(crate::passes::sequentialize::FINAL) {
                    self.c.finals.insert(at(cmd.span));
                }
                // A precondition bounded mode asserts at a call is known by its `requires`
                // ([`Check::clause`]), not by the call's position, which its others share.
                if !marked(crate::passes::REQUIRES_CLAUSE)
                    && let Some(k) = self.c.match_candidate(self.typed, expr)
                {
                    self.c.asserts.insert(at(cmd.span), k);
                }
            }
            fn expr(&mut self, e: &Expr) {
                if self.in_axioms
                    && let ExprKind::Var(id) = &e.kind
                    && let Some(Ref::Var(v)) = self.typed.referent(id)
                    && let Some(&k) = self.c.by_var.get(&v)
                {
                    self.mentioned.insert(k);
                }
            }
        }
        let mut walker = Asserts { typed, c: &mut c, mentioned: FxHashSet::default(), in_axioms: false };
        for d in &typed.program.decls {
            walker.in_axioms = matches!(d, Decl::Axiom(_) | Decl::Function(_) | Decl::Const(_));
            crate::walk::decl(&mut walker, d);
            // Loop invariants are checked at the invariant's span.
            if let Some((_, body)) = crate::passes::blocks::named_body(d) {
                invariants(typed, &body.stmts, walker.c);
                for b in body.stmts.blocks.iter() {
                    if let Some(e) = crate::passes::sequentialize::failed_assertion(b)
                        && let Some(k) = walker.c.match_candidate(typed, e)
                        && let Some(label) = &b.label
                    {
                        walker.c.fails.insert(label.name.to_string(), k);
                    }
                }
            }
        }
        let mut global: Vec<usize> = walker.mentioned.into_iter().collect();
        global.sort_unstable();
        c.global = global;
        c
    }

    /// Boogie's `MatchCandidate`: `b ==> e` with `b` an existential constant, or an
    /// implication whose consequent matches.
    fn match_candidate(&self, typed: &TypedProgram, e: &Expr) -> Option<usize> {
        let mut e = e;
        loop {
            let ExprKind::Binary { op: BinaryOp::Imp, lhs, rhs } = &e.kind else { return None };
            if let ExprKind::Var(id) = &lhs.kind
                && let Some(Ref::Var(v)) = typed.referent(id)
                && let Some(&k) = self.by_var.get(&v)
            {
                return Some(k);
            }
            e = rhs;
        }
    }

    /// The candidate a counterexample refutes, if it is one's: in a sequentialized program,
    /// the assertion of the first failure block on its path (the failure bounded mode reports).
    fn refuted_by(&self, e: &Counterexample) -> Option<Refuted> {
        if self.finals.contains(&at(e.check.tok)) {
            let failure = e.trace.iter().find(|s| s.label.starts_with(crate::passes::sequentialize::FAIL))?;
            return self.fails.get(&failure.label).map(|&k| Refuted::Assert(k));
        }
        self.refuted(&e.check)
    }

    /// The candidate a failed check refutes, if it is one's.
    fn refuted(&self, check: &Check) -> Option<Refuted> {
        if let Some(requires) = check.clause {
            return self.requires.get(&at(requires)).map(|&(p, k)| Refuted::Requires(k, p));
        }
        match check.kind {
            CheckKind::Requires { requires } => self.requires.get(&at(requires)).map(|&(p, k)| Refuted::Requires(k, p)),
            CheckKind::Ensures => self.ensures.get(&at(check.tok)).map(|&k| Refuted::Ensures(k)),
            CheckKind::Assert | CheckKind::LoopInit | CheckKind::LoopMaintained => {
                self.asserts.get(&at(check.tok)).map(|&k| Refuted::Assert(k))
            }
            _ => None,
        }
    }
}

/// Records the candidate loop invariants of `stmts` (nested loops included).
fn invariants(typed: &TypedProgram, stmts: &StmtList, c: &mut Candidates) {
    for b in stmts.blocks.iter() {
        if let Some(crate::ast::BlockTail::While(w)) = &b.tail {
            for inv in w.invariants.iter() {
                if let LoopSpec::Invariant { expr, span, .. } = inv
                    && let Some(k) = c.match_candidate(typed, expr)
                {
                    c.asserts.insert(at(*span), k);
                }
            }
        }
        for nested in b.tail.iter().flat_map(|t| t.nested_lists()) {
            invariants(typed, nested, c);
        }
    }
}

// ---------------------------------------------------------------------------------------------
// Sessions

/// A session that counts its `check-sat`s and, under `/useUnsatCoreForContractInfer`, checks
/// under assumptions and collects the unsat assumptions of its `unsat` answers.
struct Counted {
    session: Box<dyn Session>,
    check_sats: usize,
    seconds: f64,
    /// The literals every `check-sat` assumes, while [`Counted::assume`] is in force.
    assuming: Option<Vec<String>>,
    /// The union of the unsat assumptions of the `unsat` answers since [`Counted::assume`];
    /// `None` once one could not be read, or once a counterexample showed that the check will
    /// not prove the implementation.
    needed: Option<FxHashSet<String>>,
    /// The unsat assumptions asked for, and the time spent asking.
    cores: usize,
    core_seconds: f64,
}

impl Counted {
    fn new(session: Box<dyn Session>) -> Counted {
        Counted { session, check_sats: 0, seconds: 0.0, assuming: None, needed: None, cores: 0, core_seconds: 0.0 }
    }

    /// From now on each `check-sat` assumes `literals`, and what its `unsat` needed is kept.
    fn assume(&mut self, literals: Vec<String>) {
        self.assuming = Some(literals);
        self.needed = Some(FxHashSet::default());
    }

    /// The literals the `unsat` answers since [`Counted::assume`] needed (`None` when the
    /// solver did not say), and back to plain `check-sat`s.
    fn needed(&mut self) -> Option<FxHashSet<String>> {
        self.assuming = None;
        self.needed.take()
    }
}

/// The open sessions, each with its implementation's VC sent, least recently used first.
struct Sessions<'o> {
    open: &'o SessionOpener<'o>,
    max: usize,
    open_now: Vec<(usize, Counted)>,
    /// The counts of the sessions closed so far.
    check_sats: usize,
    seconds: f64,
    cores: usize,
    core_seconds: f64,
}

impl Sessions<'_> {
    /// The session of implementation `k` (opened and sent its VC when needed), or why none
    /// could be opened.
    fn get(&mut self, k: usize, query: &Query) -> Result<&mut Counted, String> {
        if let Some(at) = self.open_now.iter().position(|(i, _)| *i == k) {
            let entry = self.open_now.remove(at);
            if entry.1.session.dead().is_none() {
                self.open_now.push(entry);
                return Ok(&mut self.open_now.last_mut().expect("just pushed").1);
            }
            self.retire(entry.1);
        }
        if self.open_now.len() >= self.max.max(1) {
            let (_, oldest) = self.open_now.remove(0);
            self.retire(oldest);
        }
        let mut session = (self.open)(query.name())?;
        query.begin(session.as_mut());
        query.send_prelude(session.as_mut());
        if query.parts() == 1 {
            query.send_vc(session.as_mut(), 0);
        }
        self.open_now.push((k, Counted::new(session)));
        Ok(&mut self.open_now.last_mut().expect("just pushed").1)
    }

    fn retire(&mut self, c: Counted) {
        self.check_sats += c.check_sats;
        self.seconds += c.seconds;
        self.cores += c.cores;
        self.core_seconds += c.core_seconds;
    }

    /// The counts of every session, open or closed, into `stats`.
    fn totals(&self, stats: &mut Stats) {
        stats.check_sats = self.check_sats;
        stats.solver_seconds = self.seconds;
        stats.core_queries = self.cores;
        stats.core_seconds = self.core_seconds;
        for (_, c) in &self.open_now {
            stats.check_sats += c.check_sats;
            stats.solver_seconds += c.seconds;
            stats.core_queries += c.cores;
            stats.core_seconds += c.core_seconds;
        }
    }
}

impl Session for Counted {
    fn send(&mut self, commands: &str) {
        self.session.send(commands)
    }
    fn reads_z3_map_operators(&self) -> bool {
        self.session.reads_z3_map_operators()
    }
    fn begin_query(&mut self, limits: &Limits) {
        self.session.begin_query(limits)
    }
    fn check_sat(&mut self, limits: &Limits) -> Answer {
        self.check_sats += 1;
        let started = std::time::Instant::now();
        let Some(literals) = &self.assuming else {
            let answer = self.session.check_sat(limits);
            self.seconds += started.elapsed().as_secs_f64();
            return answer;
        };
        let literals: Vec<&str> = literals.iter().map(String::as_str).collect();
        let answer = self.session.check_sat_assuming(limits, &literals);
        self.seconds += started.elapsed().as_secs_f64();
        match answer {
            // With nothing assumed, the proof needed nothing of the assignment.
            Answer::Unsat if !literals.is_empty() && self.needed.is_some() => {
                let started = std::time::Instant::now();
                self.cores += 1;
                let core = self.session.unsat_assumptions();
                self.core_seconds += started.elapsed().as_secs_f64();
                match (core, &mut self.needed) {
                    (Ok(core), Some(needed)) => needed.extend(core),
                    _ => self.needed = None,
                }
            }
            // A counterexample: this check proves nothing, and the `unsat` that may end its
            // loop (every failure blocked) needs no core.
            Answer::Sat | Answer::Unknown(UnknownReason::Incomplete(_)) => self.needed = None,
            _ => {}
        }
        answer
    }
    fn check_sat_assuming(&mut self, limits: &Limits, literals: &[&str]) -> Answer {
        self.check_sats += 1;
        let started = std::time::Instant::now();
        let answer = self.session.check_sat_assuming(limits, literals);
        self.seconds += started.elapsed().as_secs_f64();
        answer
    }
    fn unsat_assumptions(&mut self) -> Result<Vec<String>, String> {
        self.session.unsat_assumptions()
    }
    fn get_value(&mut self, terms: &[&str]) -> Result<Vec<String>, String> {
        self.session.get_value(terms)
    }
    fn get_model(&mut self) -> Result<String, String> {
        self.session.get_model()
    }
    fn reset(&mut self) {
        self.session.reset()
    }
    fn dead(&self) -> Option<&str> {
        self.session.dead()
    }
    fn resource_count(&self) -> u64 {
        self.session.resource_count()
    }
}

// ---------------------------------------------------------------------------------------------
// The inference

/// One implementation under inference.
struct Implementation {
    heading: Heading,
    procedure: Option<ProcedureId>,
    query: Result<ImplOutcome, Query>,
    /// The constants its checks must fix: those its VC mentions and the axioms'.
    constants: Vec<usize>,
    /// The candidates it asserts (Boogie's `houdiniAssertConstants`), with what refuting
    /// each would mean.
    asserted: Vec<Refuted>,
    /// Under `/useUnsatCoreForContractInfer`, the candidates its last check, when that proved
    /// it, needed true; `None` when it was not proved or the solver did not say.
    core: Option<Vec<usize>>,
}

/// What Boogie's Houdini makes of one check's outcome.
enum Verdict {
    Valid,
    Invalid(Vec<Refuted>),
    GaveUp,
}

struct Houdini<'a, 'o> {
    config: &'a HoudiniConfig,
    options: &'a VerifyOptions,
    candidates: Candidates,
    assignment: Vec<bool>,
    impls: Vec<Implementation>,
    adjacency: Adjacency,
    sessions: Sessions<'o>,
    worklist: VecDeque<usize>,
    queued: Vec<bool>,
    denied: Vec<bool>,
    /// Each implementation's last outcome, in the order of their first checks.
    outcomes: Vec<(usize, ImplOutcome)>,
    queries: usize,
    prunings: usize,
    trace: &'a mut dyn FnMut(&str),
}

/// Runs Houdini on `typed` (the program after every pass, Houdini's inlining included; `graph`
/// is the call graph of the program before that inlining). `trace` gets the `/trace` lines.
/// `Err` when the program itself cannot be encoded.
pub fn infer(
    typed: &TypedProgram,
    sources: &crate::source::SourceMap,
    graph: &CallGraph,
    options: &VerifyOptions,
    config: &HoudiniConfig,
    open: &SessionOpener,
    trace: &mut dyn FnMut(&str),
) -> Result<HoudiniOutcome, Unsupported> {
    let candidates = Candidates::new(typed);
    let ids = crate::vcgen::verify::selected_implementations(typed, options);
    let mut staged: Vec<Staged> = Vec::with_capacity(ids.len());
    crate::vcgen::verify::stage_program(typed, sources, options, &ids, &mut |s| staged.push(s))?;
    let names: Vec<Symbol> = staged.iter().map(|s| implementation_name(typed, s.id)).collect();
    let adjacency = Adjacency::new(graph, &names);
    let impls: Vec<Implementation> = staged
        .into_iter()
        .map(|Staged { id, heading, query }| {
            let (constants, asserted) = match &query {
                Err(q) => relevant(&candidates, q),
                Ok(_) => (Vec::new(), Vec::new()),
            };
            let procedure = typed.symbols().implementations[id.index()].procedure;
            Implementation { heading, procedure, query, constants, asserted, core: None }
        })
        .collect();
    let n = impls.len();
    if config.trace {
        trace(&format!("Number of implementations = {n}\n"));
    }
    let mut houdini = Houdini {
        config,
        options,
        assignment: vec![true; candidates.names.len()],
        candidates,
        impls,
        adjacency,
        sessions: Sessions {
            open,
            max: config.max_sessions,
            open_now: Vec::new(),
            check_sats: 0,
            seconds: 0.0,
            cores: 0,
            core_seconds: 0.0,
        },
        worklist: VecDeque::new(),
        queued: vec![false; n],
        denied: vec![false; n],
        outcomes: Vec::new(),
        queries: 0,
        prunings: 0,
        trace,
    };
    houdini.run();
    let Houdini { candidates, assignment, impls, outcomes, queries, prunings, sessions, .. } = houdini;
    let mut stats = Stats {
        queries,
        implementations: impls.iter().filter(|i| i.query.is_err()).count(),
        prunings,
        ..Stats::default()
    };
    sessions.totals(&mut stats);
    let mut results: Vec<ImplResult> = Vec::with_capacity(impls.len());
    let mut reported = vec![false; impls.len()];
    for (k, outcome) in outcomes {
        reported[k] = true;
        results.push(impls[k].heading.result(outcome));
    }
    // Implementations never checked: those that cannot be encoded (Boogie's VC generation
    // failures, which it leaves out of the inference and the report; rboogie says why).
    for (k, i) in impls.iter().enumerate() {
        if !reported[k]
            && let Ok(outcome) = &i.query
        {
            results.push(i.heading.result(again(outcome)));
        }
    }
    let assignment = candidates.names.into_iter().zip(assignment).collect();
    Ok(HoudiniOutcome { assignment, results, stats })
}

fn implementation_name(typed: &TypedProgram, id: ImplementationId) -> Symbol {
    typed.symbols().implementations[id.index()].name.name
}

/// The constants a query's checks must fix (those its VCs or the axioms mention), and the
/// candidates it asserts.
fn relevant(candidates: &Candidates, query: &Query) -> (Vec<usize>, Vec<Refuted>) {
    let mentioned = query.symbols();
    let mut constants: Vec<usize> =
        (0..candidates.smt.len()).filter(|&k| mentioned.contains(candidates.smt[k].trim_matches('|'))).collect();
    constants.extend(&candidates.global);
    constants.sort_unstable();
    constants.dedup();
    let mut asserted: Vec<Refuted> = Vec::new();
    let mut seen = FxHashSet::default();
    for part in 0..query.parts() {
        for check in query.checks(part) {
            // A sequentialized entry point asserts its failure blocks' candidates.
            let mut refuted: Vec<Refuted> = Vec::new();
            if candidates.finals.contains(&at(check.tok)) {
                let mut failures: Vec<usize> = candidates.fails.values().copied().collect();
                failures.sort_unstable();
                refuted.extend(failures.into_iter().map(Refuted::Assert));
            }
            refuted.extend(candidates.refuted(check));
            for r in refuted {
                if seen.insert(r.constant()) {
                    asserted.push(r);
                }
            }
        }
    }
    (constants, asserted)
}

/// An outcome staging decided, again (these outcomes do not depend on the assignment).
fn again(outcome: &ImplOutcome) -> ImplOutcome {
    match outcome {
        ImplOutcome::Verified => ImplOutcome::Verified,
        ImplOutcome::OutOfMemory => ImplOutcome::OutOfMemory,
        ImplOutcome::Unsupported(u) => ImplOutcome::Unsupported(u.clone()),
        _ => ImplOutcome::Inconclusive,
    }
}

impl Houdini<'_, '_> {
    fn run(&mut self) {
        for k in self.adjacency.work_order() {
            // Boogie leaves the implementations whose VC generation failed out.
            if matches!(self.impls[k].query, Ok(ImplOutcome::Unsupported(_))) {
                self.denied[k] = true;
                continue;
            }
            self.enqueue(k);
        }
        while let Some(&current) = self.worklist.front() {
            if self.prune(current) {
                continue;
            }
            if self.config.trace {
                (self.trace)(&format!("implementation under analysis :{}\n", self.impls[current].heading.name()));
            }
            loop {
                let (verdict, non_candidate) = self.check(current);
                // A failure whose candidates are all false already cannot be blamed on one:
                // checking again would fail the same way for ever. It ends the run as a
                // failure of no candidate does.
                let stuck = matches!(&verdict, Verdict::Invalid(refuted)
                    if !refuted.iter().any(|r| self.assignment[r.constant()]));
                if non_candidate || stuck {
                    // Boogie's abort: the others still queued are checked once, as they are.
                    self.dequeue();
                    while let Some(&next) = self.worklist.front() {
                        if !self.prune(next) {
                            self.check(next);
                            self.dequeue();
                        }
                    }
                    return;
                }
                match verdict {
                    Verdict::Valid => {
                        self.dequeue();
                        break;
                    }
                    Verdict::Invalid(refuted) => {
                        for r in refuted {
                            self.requeue_related(current, r);
                            self.set_false(r.constant());
                        }
                    }
                    Verdict::GaveUp => {
                        if self.config.trace {
                            let name = self.impls[current].heading.name().to_string();
                            (self.trace)(&format!("Timeout/Spaceout while verifying {name}\n"));
                        }
                        for r in self.impls[current].asserted.clone() {
                            if self.assignment[r.constant()] {
                                self.requeue_related(current, r);
                                self.set_false(r.constant());
                            }
                        }
                        self.denied[current] = true;
                        self.dequeue();
                        break;
                    }
                }
            }
        }
    }

    fn enqueue(&mut self, k: usize) {
        if !self.queued[k] {
            self.queued[k] = true;
            self.worklist.push_back(k);
        }
    }

    fn dequeue(&mut self) {
        if let Some(k) = self.worklist.pop_front() {
            self.queued[k] = false;
        }
    }

    fn set_false(&mut self, constant: usize) {
        if self.config.trace {
            (self.trace)(&format!("Removing {}\n", self.candidates.names[constant]));
        }
        self.assignment[constant] = false;
    }

    /// Boogie's `AddRelatedToWorkList`: a refuted precondition queues the implementations of
    /// the procedure called (they assumed it), a refuted postcondition the callers.
    fn requeue_related(&mut self, current: usize, refuted: Refuted) {
        let related: Vec<usize> = match refuted {
            Refuted::Requires(_, procedure) => self.adjacency.succs[current]
                .iter()
                .copied()
                .filter(|&k| self.procedure_of(k) == Some(procedure))
                .collect(),
            Refuted::Ensures(_) => self.adjacency.preds[current].clone(),
            Refuted::Assert(_) => Vec::new(),
        };
        for k in related {
            if !self.denied[k] {
                self.enqueue(k);
            }
        }
    }

    /// Under `/useUnsatCoreForContractInfer`: whether implementation `k`'s last proof still
    /// holds, every candidate it needed still true (the false ones it assumed stay false).
    /// Its check would say "verified" again.
    fn proof_holds(&self, k: usize) -> bool {
        match &self.impls[k].core {
            Some(core) if self.config.use_unsat_core => core.iter().all(|&c| self.assignment[c]),
            _ => false,
        }
    }

    /// Takes implementation `k`, at the front of the queue, off it unchecked when its proof
    /// holds (counted as a pruning); whether it did.
    fn prune(&mut self, k: usize) -> bool {
        if !self.proof_holds(k) {
            return false;
        }
        if self.config.trace {
            (self.trace)(&format!("Skipping {}: its last proof still holds\n", self.impls[k].heading.name()));
        }
        self.prunings += 1;
        self.dequeue();
        true
    }

    fn procedure_of(&self, k: usize) -> Option<ProcedureId> {
        self.impls[k].procedure
    }

    /// The constants of implementation `k` that `literals` (a solver's unsat assumptions)
    /// name; `None` when one is no constant it assumed.
    fn constants_named(&self, k: usize, literals: &FxHashSet<String>) -> Option<Vec<usize>> {
        let smt = &self.candidates.smt;
        let mut core = Vec::with_capacity(literals.len());
        for literal in literals {
            let name = literal.trim_matches('|');
            core.push(*self.impls[k].constants.iter().find(|&&c| smt[c].trim_matches('|') == name)?);
        }
        Some(core)
    }

    /// Checks implementation `k` under the current assignment and records its outcome (its
    /// errors without the candidates'). Returns what Houdini makes of it, and whether it
    /// showed an error that is no candidate's.
    fn check(&mut self, k: usize) -> (Verdict, bool) {
        self.queries += 1;
        let use_core = self.config.use_unsat_core;
        let (outcome, needed) = match &self.impls[k].query {
            // Decided without the assignment: a proof that needs none of it.
            Ok(outcome) => (again(outcome), Some(FxHashSet::default())),
            Err(query) => {
                // The false constants are asserted; the true ones too, or, when cores are
                // asked for, assumed by each check-sat.
                let mut assumptions = String::new();
                let mut literals = Vec::new();
                for &c in &self.impls[k].constants {
                    let name = &self.candidates.smt[c];
                    if !self.assignment[c] {
                        assumptions.push_str(&format!("(assert (not {name}))\n"));
                    } else if use_core {
                        literals.push(name.clone());
                    } else {
                        assumptions.push_str(&format!("(assert {name})\n"));
                    }
                }
                match self.sessions.get(k, query) {
                    Ok(session) => {
                        if use_core {
                            session.assume(literals);
                        }
                        let outcome = check_query(session, self.options, query, &assumptions);
                        (outcome, session.needed())
                    }
                    Err(why) => (ImplOutcome::SolverException(why), None),
                }
            }
        };
        self.impls[k].core = match (&outcome, needed) {
            (ImplOutcome::Verified, Some(needed)) if use_core => self.constants_named(k, &needed),
            _ => None,
        };
        let (verdict, recorded, non_candidate) = match outcome {
            ImplOutcome::Verified => (Verdict::Valid, ImplOutcome::Verified, false),
            ImplOutcome::Errors(errors) => {
                let mut refuted = Vec::new();
                let mut others: Vec<Counterexample> = Vec::new();
                for e in errors {
                    match self.candidates.refuted_by(&e) {
                        // A candidate already false is assumed false: its `b ==> e` holds, and
                        // a failure matched to it is no refutation (it stays an error).
                        Some(r) if self.assignment[r.constant()] => refuted.push(r),
                        _ => others.push(e),
                    }
                }
                let non_candidate = !others.is_empty();
                (Verdict::Invalid(refuted), ImplOutcome::Errors(others), non_candidate)
            }
            other => (Verdict::GaveUp, other, false),
        };
        if self.config.trace {
            let name = self.impls[k].heading.name().to_string();
            let said = match &verdict {
                Verdict::Valid => "Valid",
                Verdict::Invalid(_) => "Invalid",
                Verdict::GaveUp => "Undetermined",
            };
            (self.trace)(&format!("Verifying {name}\nOutcome = {said}\n"));
        }
        match self.outcomes.iter_mut().find(|(i, _)| *i == k) {
            Some(slot) => slot.1 = recorded,
            None => self.outcomes.push((k, recorded)),
        }
        (verdict, non_candidate)
    }
}

/// One check of a query under `assumptions`, its splits (if it has several) each sent, checked
/// and popped in turn.
fn check_query(session: &mut Counted, options: &VerifyOptions, query: &Query, assumptions: &str) -> ImplOutcome {
    if query.parts() == 1 {
        return query.check_under(session, options, 0, assumptions);
    }
    let mut outcomes = Vec::new();
    for part in 0..query.parts() {
        query.send_vc(session, part);
        outcomes.push(query.check_under(session, options, part, assumptions));
        session.send("(pop 1)\n");
    }
    crate::vcgen::verify::combine(outcomes)
}
