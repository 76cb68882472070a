//! Boogie's `/prune:1` (its `Pruner`): each implementation's query holds only the axioms that
//! the functions and constants it mentions reach.
//!
//! Expects the typed program vcgen encodes (after the passes). Guarantees Boogie's selection:
//! a graph over functions, constants and axioms ([`Dependencies::new`], Boogie's
//! `ComputeDeclarationDependencies`) where
//! - a function or constant leads to the axioms of its `uses` clause, a function to its
//!   definition axiom and to what its body mentions;
//! - an axiom leads to every function and constant it mentions, and is led to by the
//!   declarations of each of its quantifiers' triggers, all of them together (a merge node,
//!   passed only once each of its members is reached); with `{:include_dep}` also by each
//!   function and constant it mentions, except in the body of a quantifier with triggers that
//!   is universal in a positive position (existential in a negative one);
//! - an axiom led to by nothing (`axiom x > 0;` without `{:include_dep}`) is never sent.
//!
//! The roots are what the implementation mentions (its body, its procedure's contract, the
//! contracts of the procedures it calls, where clauses) and the declarations marked `{:keep}`.
//! Positions follow Boogie's `AxiomVisitor`, which sets a subexpression's position from its
//! parent alone (`!` and the left of `==>` negative, `&&`, `||` and the right of `==>`
//! positive, anything else neither), not composed along the path.
//!
//! `hide` and `reveal` commands decide which `hideable` axioms of a function's `uses` clause a
//! VC gets: [`RevealedState::of`] is Boogie's `RevealedAnalysis` over the VC's passive blocks,
//! merged over its assertions, and [`Dependencies::live_axioms`] does not follow an edge from
//! a function to a hideable axiom of its `uses` clause when the function is hidden. The roots
//! are the whole implementation's, also for a split of it (Boogie takes the split's): a
//! split may get more axioms than Boogie sends it, never fewer.

use rustc_hash::{FxHashMap, FxHashSet};

use super::encode::find_bool_attribute;
use crate::ast::{BinaryOp, Body, CmdKind, Decl, Expr, ExprKind, QuantKind, Spec, Symbol, UnaryOp};
use crate::passes::rewrite::{self, Rewriter};
use crate::typeck::{ProcedureId, Ref, TypedProgram, VarKind};

/// Where an axiom the encoder may leave out comes from.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum AxiomKey {
    /// `axiom e;`, by its declaration's index.
    Decl(u32),
    /// The `k`-th axiom of the `uses` clause of declaration `d`: `Uses(d, k)`.
    Uses(u32, u32),
    /// The definition axiom of the function of this name (a body without `{:inline}` or
    /// `{:define}`).
    Definition(Symbol),
}

/// A vertex of the declaration graph.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum Node {
    Function(Symbol),
    Const(Symbol),
    Axiom(AxiomKey),
    /// The `i`-th merge node: reached once all its members are.
    Merge(u32),
}

/// The declaration graph of a program (built once, shared by its implementations).
pub struct Dependencies {
    edges: FxHashMap<Node, Vec<Node>>,
    merges: Vec<Vec<Node>>,
    keep: Vec<Node>,
    /// The `hideable` axioms of `uses` clauses.
    hideable: FxHashSet<AxiomKey>,
    /// `revealed function`s: never hidden.
    always_revealed: FxHashSet<Symbol>,
}

/// Boogie's `RevealedState`: in hide mode the functions in `offset` are revealed, in reveal
/// mode those not in it.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct RevealedState {
    hide_mode: bool,
    offset: FxHashSet<Symbol>,
}

impl RevealedState {
    fn all(hide_mode: bool) -> RevealedState {
        RevealedState { hide_mode, offset: FxHashSet::default() }
    }

    fn reveals(&self, f: Symbol) -> bool {
        self.hide_mode == self.offset.contains(&f)
    }

    /// Boogie's `MergeStates`: the union of what is revealed.
    fn merge(&self, other: &RevealedState) -> RevealedState {
        match (self.hide_mode, other.hide_mode) {
            (false, false) => RevealedState::all_but(false, self.offset.intersection(&other.offset).copied().collect()),
            (false, true) => self.clone(),
            (true, false) => other.clone(),
            (true, true) => RevealedState::all_but(true, self.offset.union(&other.offset).copied().collect()),
        }
    }

    fn all_but(hide_mode: bool, offset: FxHashSet<Symbol>) -> RevealedState {
        RevealedState { hide_mode, offset }
    }

    fn update(&self, hide: bool, function: Option<Symbol>) -> RevealedState {
        let Some(f) = function else { return RevealedState::all(hide) };
        let mut next = self.clone();
        if hide == self.hide_mode {
            next.offset.remove(&f);
        } else {
            next.offset.insert(f);
        }
        next
    }

    /// What a VC of these blocks reveals (Boogie's `Pruner.GetRevealedState`): everything at
    /// the entry, `hide`/`reveal` on the top of a stack that `push` and `pop` change, stacks
    /// merged element by element from the top at joins; the states at the VC's assertions
    /// merged (all hidden when it has none).
    pub fn of(blocks: &[super::passify::PassiveBlock]) -> RevealedState {
        use super::ScopeCmd;
        use super::passify::PCmd;
        let preds = super::passify::predecessors_of(blocks);
        let mut ends: Vec<Option<Vec<RevealedState>>> = vec![None; blocks.len()];
        let mut result = RevealedState::all(true);
        for b in topological_order(blocks) {
            let mut stack: Option<Vec<RevealedState>> = None;
            for p in &preds[b] {
                let Some(theirs) = &ends[*p] else { continue };
                stack = Some(match stack {
                    None => theirs.clone(),
                    Some(mine) => {
                        let n = mine.len().min(theirs.len());
                        let (mine, theirs) = (&mine[mine.len() - n..], &theirs[theirs.len() - n..]);
                        mine.iter().zip(theirs).map(|(a, b)| a.merge(b)).collect()
                    }
                });
            }
            let mut stack = stack.unwrap_or_else(|| vec![RevealedState::all(false)]);
            for c in &blocks[b].cmds {
                match c {
                    PCmd::Scope(ScopeCmd::Push) => {
                        stack.push(stack.last().cloned().unwrap_or(RevealedState::all(false)))
                    }
                    PCmd::Scope(ScopeCmd::Pop) if stack.len() > 1 => {
                        stack.pop();
                    }
                    PCmd::Scope(ScopeCmd::HideReveal { hide, function }) => {
                        if let Some(top) = stack.last_mut() {
                            *top = top.update(*hide, *function);
                        }
                    }
                    PCmd::Assert(..) => {
                        if let Some(top) = stack.last() {
                            result = result.merge(top);
                        }
                    }
                    _ => {}
                }
            }
            ends[b] = Some(stack);
        }
        result
    }
}

/// The blocks of a DAG, each after its predecessors.
fn topological_order(blocks: &[super::passify::PassiveBlock]) -> Vec<usize> {
    let mut order = Vec::with_capacity(blocks.len());
    let mut state = vec![0u8; blocks.len()];
    for root in 0..blocks.len() {
        let mut stack = vec![(root, 0usize)];
        while let Some((b, i)) = stack.pop() {
            if i == 0 {
                if state[b] != 0 {
                    continue;
                }
                state[b] = 1;
            }
            if let Some(&s) = blocks[b].succs.get(i) {
                stack.push((b, i + 1));
                if state[s] == 0 {
                    stack.push((s, 0));
                }
            } else {
                state[b] = 2;
                order.push(b);
            }
        }
    }
    order.reverse();
    order
}

/// The function or constant `e` itself names, if any.
fn mention(typed: &TypedProgram, e: &Expr) -> Option<Node> {
    match &e.kind {
        ExprKind::Call { func, .. } => Some(Node::Function(*func)),
        ExprKind::Var(name) => match typed.referent(name) {
            Some(Ref::Var(v)) if matches!(typed.symbols().var(v).kind, VarKind::Const { .. }) => {
                Some(Node::Const(name.name))
            }
            _ => None,
        },
        _ => None,
    }
}

/// Every function and constant `e` mentions, triggers included.
fn mentions(typed: &TypedProgram, e: &Expr, out: &mut Vec<Node>) {
    out.extend(mention(typed, e));
    e.for_each_child(&mut |c| mentions(typed, c, out));
}

#[derive(Clone, Copy, PartialEq, Eq)]
enum Position {
    Positive,
    Negative,
    Neither,
}

/// Boogie's `AxiomVisitor` on one axiom.
struct AxiomEdges<'t> {
    typed: &'t TypedProgram,
    include_dep: bool,
    incoming: Vec<Vec<Node>>,
    outgoing: Vec<Node>,
}

impl AxiomEdges<'_> {
    fn visit(&mut self, e: &Expr, pos: Position) {
        if let Some(n) = mention(self.typed, e) {
            if self.include_dep {
                self.incoming.push(vec![n]);
            }
            self.outgoing.push(n);
        }
        match &e.kind {
            // A negation makes its operand negative.
            ExprKind::Unary { op: UnaryOp::Not | UnaryOp::Neg, arg } => self.visit(arg, Position::Negative),
            // `&&` and `||` keep their operands positive.
            ExprKind::Binary { op: BinaryOp::And | BinaryOp::Or, lhs, rhs } => {
                self.visit(lhs, Position::Positive);
                self.visit(rhs, Position::Positive);
            }
            // `a ==> b`: `a` negative, `b` positive.
            ExprKind::Binary { op: BinaryOp::Imp, lhs, rhs } => {
                self.visit(lhs, Position::Negative);
                self.visit(rhs, Position::Positive);
            }
            // Each trigger leads to the axiom; a quantifier with triggers that holds as a
            // fact (universal and positive, existential and negative) is led to by them only.
            ExprKind::Quant(q) if q.kind != QuantKind::Lambda => {
                for t in q.triggers.iter() {
                    let mut named = Vec::new();
                    t.exprs.iter().for_each(|x| mentions(self.typed, x, &mut named));
                    let set: FxHashSet<Node> = named.into_iter().collect();
                    if !set.is_empty() {
                        self.incoming.push(set.into_iter().collect());
                    }
                }
                let fact = !q.triggers.is_empty()
                    && match q.kind {
                        QuantKind::Forall => pos == Position::Positive,
                        _ => pos == Position::Negative,
                    };
                if fact {
                    let incoming = std::mem::take(&mut self.incoming);
                    self.visit(&q.body, Position::Neither);
                    self.incoming = incoming;
                } else {
                    self.visit(&q.body, Position::Neither);
                }
            }
            _ => e.for_each_child(&mut |c| self.visit(c, Position::Neither)),
        }
    }
}

impl Dependencies {
    pub fn new(typed: &TypedProgram) -> Dependencies {
        let mut deps = Dependencies {
            edges: FxHashMap::default(),
            merges: Vec::new(),
            keep: Vec::new(),
            hideable: FxHashSet::default(),
            always_revealed: FxHashSet::default(),
        };
        let add_axiom = |deps: &mut Dependencies, key: AxiomKey, axiom: &crate::ast::AxiomDecl| {
            let node = Node::Axiom(key);
            let mut edges = AxiomEdges {
                typed,
                include_dep: find_bool_attribute(&axiom.attrs, "include_dep"),
                incoming: Vec::new(),
                outgoing: Vec::new(),
            };
            edges.visit(&axiom.expr, Position::Positive);
            for set in edges.incoming {
                deps.lead(set, node);
            }
            deps.edges.entry(node).or_default().extend(edges.outgoing);
            if find_bool_attribute(&axiom.attrs, "keep") {
                deps.keep.push(node);
            }
            if axiom.hideable {
                deps.hideable.insert(key);
            }
        };
        for (d, decl) in typed.program.decls.iter().enumerate() {
            let d = d as u32;
            match decl {
                Decl::Axiom(a) => add_axiom(&mut deps, AxiomKey::Decl(d), a),
                Decl::Function(f) => {
                    let node = Node::Function(f.name.name);
                    if f.revealed {
                        deps.always_revealed.insert(f.name.name);
                    }
                    let mut out = vec![Node::Axiom(AxiomKey::Definition(f.name.name))];
                    if let Some(body) = &f.body {
                        mentions(typed, body, &mut out);
                    }
                    for (k, a) in f.uses.iter().flatten().enumerate() {
                        out.push(Node::Axiom(AxiomKey::Uses(d, k as u32)));
                        add_axiom(&mut deps, AxiomKey::Uses(d, k as u32), a);
                    }
                    deps.edges.entry(node).or_default().extend(out);
                    if find_bool_attribute(&f.attrs, "keep") {
                        deps.keep.push(node);
                    }
                }
                Decl::Const(c) => {
                    for (k, a) in c.uses.iter().flatten().enumerate() {
                        add_axiom(&mut deps, AxiomKey::Uses(d, k as u32), a);
                    }
                    for name in c.names.iter() {
                        let node = Node::Const(name.name);
                        let out =
                            (0..c.uses.iter().flatten().count()).map(|k| Node::Axiom(AxiomKey::Uses(d, k as u32)));
                        deps.edges.entry(node).or_default().extend(out);
                        if find_bool_attribute(&c.attrs, "keep") {
                            deps.keep.push(node);
                        }
                    }
                }
                _ => {}
            }
        }
        deps
    }

    /// `set` leads to `target`: directly when it is one declaration, else through a merge node.
    fn lead(&mut self, set: Vec<Node>, target: Node) {
        let source = match &set[..] {
            [one] => *one,
            _ => {
                let merge = Node::Merge(self.merges.len() as u32);
                for member in &set {
                    self.edges.entry(*member).or_default().push(merge);
                }
                self.merges.push(set);
                merge
            }
        };
        self.edges.entry(source).or_default().push(target);
    }

    /// The axioms a VC reaches (Boogie's `GetLiveDeclarations`), the hideable axioms of the
    /// functions `revealed` hides left out.
    pub fn live_axioms(&self, roots: Vec<Node>, revealed: &RevealedState) -> FxHashSet<AxiomKey> {
        let mut todo: Vec<Node> = roots;
        todo.extend(self.keep.iter().copied());
        let mut visited: FxHashSet<Node> = FxHashSet::default();
        while let Some(node) = todo.pop() {
            if visited.contains(&node) {
                continue;
            }
            if let Node::Merge(i) = node
                && !self.merges[i as usize].iter().all(|m| visited.contains(m))
            {
                continue;
            }
            visited.insert(node);
            let hidden = match node {
                Node::Function(f) => !revealed.reveals(f) && !self.always_revealed.contains(&f),
                _ => false,
            };
            let followed = |n: &&Node| !(hidden && matches!(n, Node::Axiom(k) if self.hideable.contains(k)));
            todo.extend(self.edges.get(&node).into_iter().flatten().filter(followed).copied());
        }
        visited
            .into_iter()
            .filter_map(|n| match n {
                Node::Axiom(k) => Some(k),
                _ => None,
            })
            .collect()
    }
}

/// What an implementation mentions: the roots of its pruning.
pub struct Roots<'t> {
    typed: &'t TypedProgram,
    nodes: Vec<Node>,
    callees: Vec<ProcedureId>,
}

impl Rewriter for Roots<'_> {
    fn expr(&mut self, e: &Expr) -> Option<Expr> {
        self.nodes.extend(mention(self.typed, e));
        None
    }
    fn cmd(&mut self, c: &crate::ast::Cmd) -> Option<Vec<crate::ast::Cmd>> {
        match &c.kind {
            CmdKind::Call(call) => self.callee(&call.callee),
            CmdKind::ParCall { calls } => calls.iter().for_each(|call| self.callee(&call.callee)),
            _ => {}
        }
        None
    }
}

impl<'t> Roots<'t> {
    pub fn new(typed: &'t TypedProgram) -> Roots<'t> {
        Roots { typed, nodes: Vec::new(), callees: Vec::new() }
    }

    fn callee(&mut self, name: &crate::ast::Ident) {
        if let Some(Ref::Procedure(p)) = self.typed.referent(name) {
            self.callees.push(p);
        }
    }

    /// The body's expressions, its locals' where clauses and its calls' callees.
    pub fn body(&mut self, body: &Body) {
        rewrite::stmt_list(self, &body.stmts);
        for l in body.locals.iter() {
            rewrite::local_vars(self, l);
        }
    }

    pub fn expr(&mut self, e: &Expr) {
        rewrite::expr(self, e);
    }

    pub fn specs(&mut self, specs: &[Spec]) {
        for s in specs {
            rewrite::spec(self, s);
        }
    }

    /// The roots, with the contracts of the procedures called.
    pub fn finish(mut self) -> Vec<Node> {
        let callees = std::mem::take(&mut self.callees);
        for p in callees {
            self.specs(super::passify::procedure_specs(self.typed, p));
        }
        self.nodes
    }
}
