//! Abstract interpretation: `/infer:t` (the trivial domain) and `/infer:j` (intervals), Boogie's
//! native abstract interpreter (`NativeAbstractInterpretation` with `NativeIntervalDomain`),
//! with `/instrumentInfer:h|e` and `/checkInfer`.
//!
//! Expects a type-checked program whose calls are inlined (Boogie runs the interpreter after
//! inlining and before loop unrolling). Guarantees a program that verifies exactly when the
//! input does, in which every implementation is in block form with an `assume {:inferred} I`
//! (`assert` under `/checkInfer`) at the start of each loop head, `I` an invariant that holds
//! there on every execution; with `/instrumentInfer:e` every block also starts with the
//! invariant at its entry and ends with the one at its exit. The verifier then treats the
//! assumption at a loop head as part of the loop's invariant, so a loop without a written
//! invariant can verify. A loop head's first inferred assumption carries the hidden mark
//! [`CUT_POINT`], which `/printInstrumented` shows as Boogie does (`label:  // cut point`).
//!
//! How, as Boogie does it (the printed invariants are Boogie's to the letter):
//! - The body is lowered to Boogie's coalesced blocks. Widen points are the targets of back
//!   edges of a depth-first walk from the entry, successors in goto order.
//! - The start state is the top element constrained by every axiom, then by every `requires`
//!   of the procedure (formals renamed to the implementation's). The analysis is a work list
//!   in first-in first-out order of (block, state) pairs; a block's entry state grows by join,
//!   at a widen point by widening (after `/infer:N` steps of join), and a state below the
//!   block's is dropped. Assignments update, `havoc` forgets, `assert` and `assume` constrain
//!   with each top-level conjunct, a call is its desugaring (actuals into temporaries, the
//!   callee's `requires` asserted, outs and modified globals havocked, `ensures` assumed).
//! - The interval domain keeps, per integer, real or Boolean variable, a lower and an upper
//!   bound (half-open for integers, closed for reals; a Boolean is `[1,-)` or `[-,1)`), sorted
//!   by the variable's declaration order (Boogie's `UniqueId`: an implementation's formals
//!   come after its locals when the procedure was declared with its body). Expressions are
//!   evaluated to intervals by Boogie's partial evaluator (linear arithmetic, `div`, `mod`,
//!   comparisons, `if`, functions marked `{:identity}`); constraints come from comparisons of a
//!   variable with an expression. Widening rounds to thresholds taken from the literals the
//!   implementation and its contract compare with. Boogie's quirks are kept: `x == e` with `e`
//!   a variable also constrains `e` by itself, and invariants about constants and in-parameters
//!   are printed only under `/instrumentInfer:e`.
//!
//! In bounded mode the pass sees the entry point with its callees inlined, as Corral's
//! abstract interpretation does; in a concurrent program (threads sequentialized after this
//! pass) global variables are not tracked at all, since another thread may change them at any
//! context switch.
//!
//! The domain is written here rather than taken from a crate: the printed invariants must be
//! Boogie's (its normal form, thresholds and widening), which a general numerical-domain
//! library (an Apron binding, say) does not give. Bounds are `i128`; an operation that would
//! overflow gives no bound, which is sound.

use std::collections::{BTreeMap, VecDeque};

use rustc_hash::{FxHashMap, FxHashSet};

use super::PassError;
use super::blocks::{AstBlock, blocks_of, mark_block_form, stmt_list};
use crate::ast::{
    AssignLhs, AttrParam, Attribute, BinaryOp, Body, Cmd, CmdKind, Decl, Expr, ExprKind, Ident, NodeId, Program, Span,
    Spec, Symbol, UnaryOp,
};
use crate::typeck::types::Type;
use crate::typeck::{Ref, TypedProgram, VarId, VarKind};
use crate::vcgen::cfg;

/// The hidden attribute on the first inferred assumption of a loop head.
pub const CUT_POINT: &str = "rboogie_cut_point";

/// `/infer:X`'s domain.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Domain {
    Trivial,
    Intervals,
}

/// What the command line says about abstract interpretation.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct InferConfig {
    pub domain: Domain,
    /// `/infer:N`: joins at a widen point before widening.
    pub steps_before_widening: u32,
    /// `/instrumentInfer:e` (every block) rather than `h` (loop heads).
    pub everywhere: bool,
    /// `/checkInfer`: the invariants as assertions.
    pub with_asserts: bool,
}

impl InferConfig {
    /// `/infer:LETTERS` (checked by `cli`): `t` or `j`, a digit, `s` (statistics: ignored).
    pub fn from_letters(letters: &str, everywhere: bool, with_asserts: bool) -> Option<InferConfig> {
        let domain = if letters.contains('j') {
            Domain::Intervals
        } else if letters.contains('t') {
            Domain::Trivial
        } else {
            return None;
        };
        let steps = letters.chars().filter_map(|c| c.to_digit(10)).last().unwrap_or(0);
        Some(InferConfig { domain, steps_before_widening: steps, everywhere, with_asserts })
    }
}

/// The pass.
pub struct Infer {
    pub config: Option<InferConfig>,
    /// The program is a concurrent one that bounded mode sequentializes after this pass, so
    /// globals may change between any two commands (they are not tracked).
    pub threads: bool,
    /// Bounded mode's entry point: the only implementation analyzed (the one verified).
    pub only: Option<Symbol>,
    /// `/coalesceBlocks`: a body not yet in block form is coalesced before it is analyzed.
    pub coalesce: bool,
}

impl super::Pass for Infer {
    fn name(&self) -> &'static str {
        "infer"
    }

    fn run(&self, typed: &TypedProgram, _cx: &mut super::PassCx) -> Result<Option<Program>, PassError> {
        let Some(config) = self.config else { return Ok(None) };
        Ok(Some(run(typed, &config, self)))
    }
}

fn run(typed: &TypedProgram, config: &InferConfig, pass: &Infer) -> Program {
    let (threads, only) = (pass.threads, pass.only);
    let mut decls = typed.program.decls.clone();
    let axioms: Vec<&Expr> = typed
        .program
        .decls
        .iter()
        .filter_map(|d| match d {
            Decl::Axiom(a) => Some(&a.expr),
            _ => None,
        })
        .collect();
    for info in &typed.symbols().implementations {
        if only.is_some_and(|o| o != info.name.name) {
            continue;
        }
        let index = info.decl.0 as usize;
        let (attrs, body, decl_end) = match &typed.program.decls[index] {
            Decl::Implementation(d) => (&d.attrs[..], &d.body, None),
            Decl::Procedure(d) => match &d.body {
                Some(b) => (&d.attrs[..], b, Some(b.stmts.end.end)),
                None => continue,
            },
            _ => continue,
        };
        // What the verifier cannot lower it reports itself; such a body stays as it is.
        let Ok(blocks) = blocks_of(typed, body, pass.coalesce && !cfg::in_block_form(attrs)) else { continue };
        if blocks.is_empty() {
            continue;
        }
        let procedure = info.procedure.map(|p| typed.symbols().procedure(p));
        let mut vars = Vars::new(typed, threads);
        // Formals of a procedure declared with its body are made after its locals (Boogie
        // copies them for the implementation it splits off).
        if let Some(end) = decl_end {
            let file = body.span.file.0;
            let formals = info.ins.iter().chain(&info.outs).enumerate();
            let proc_formals = procedure.iter().flat_map(|p| p.ins.iter().chain(&p.outs).enumerate());
            for (k, &v) in formals.chain(proc_formals) {
                vars.order.insert(v, ((file as u64) << 40) | (end as u64 + 1 + k as u64));
            }
        }
        // The procedure's formals stand for the implementation's in its contract.
        if let Some(p) = procedure {
            for (from, to) in p.ins.iter().zip(&info.ins).chain(p.outs.iter().zip(&info.outs)) {
                if from != to {
                    vars.rename.insert(*from, Key::Var(*to));
                }
            }
        }
        let specs: Vec<&Spec> = match procedure.map(|p| &typed.program.decls[p.decl.0 as usize]) {
            Some(Decl::Procedure(p)) => p.specs.iter().collect(),
            _ => Vec::new(),
        };
        let mut analysis = Analysis { vars, config, temps: 0, lattice: Lattice::new(config.domain) };
        analysis.lattice.thresholds(typed, &specs, &blocks);
        let mut start = analysis.lattice.top();
        for axiom in &axioms {
            start = analysis.constrain(start, axiom);
        }
        for spec in &specs {
            if let Spec::Requires { expr, .. } = spec {
                start = analysis.constrain(start, expr);
            }
        }
        analysis.vars.rename.clear();
        let instrumented = analysis.analyze(&blocks, start);
        // Listed as Boogie's type checker lists them; a block after a literal `assume false`
        // keeps its successors, since the invariants were computed with them.
        let ordered = super::inline::type_checked_order(instrumented, true);
        let slot = &mut decls[index];
        let body = match slot {
            Decl::Implementation(d) => &mut d.body,
            Decl::Procedure(d) => d.body.as_mut().expect("a body"),
            _ => continue,
        };
        *body = Body { locals: body.locals.clone(), stmts: stmt_list(ordered, body), span: body.span };
        mark_block_form(slot);
    }
    Program { decls }
}

// ---------------------------------------------------------------------------------------------
// Variables

/// A variable of the analysis: a program variable, or a temporary of a call's desugaring.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, PartialOrd, Ord)]
enum Key {
    Var(VarId),
    Temp(u32),
}

/// A variable in the order the domain keeps them (declaration order, then identity).
type Slot = (u64, Key);

#[derive(Clone, Copy, Debug, PartialEq, Eq)]
enum Sort {
    Bool,
    Int,
    Real,
    Other,
}

struct Vars<'a> {
    typed: &'a TypedProgram,
    /// Orders that differ from the declaration's position.
    order: FxHashMap<VarId, u64>,
    /// Program variables that stand for others (formals in a contract, a callee's formals
    /// in a call's desugaring).
    rename: FxHashMap<VarId, Key>,
    /// The sort of each temporary.
    temp_sorts: FxHashMap<u32, Sort>,
    /// The program is a thread of a concurrent program ([`super::sequentialize`]).
    shared: bool,
}

impl<'a> Vars<'a> {
    fn new(typed: &'a TypedProgram, shared: bool) -> Vars<'a> {
        Vars {
            typed,
            order: FxHashMap::default(),
            rename: FxHashMap::default(),
            temp_sorts: FxHashMap::default(),
            shared,
        }
    }

    /// The variable a name refers to, after renaming.
    fn key(&self, name: &Ident) -> Option<Key> {
        match self.typed.referent(name)? {
            // Under threads another thread may change a global at any point: none is tracked.
            Ref::Var(v) if self.shared && matches!(self.typed.symbols().var(v).kind, VarKind::Global) => None,
            Ref::Var(v) => Some(self.rename.get(&v).copied().unwrap_or(Key::Var(v))),
            _ => None,
        }
    }

    fn slot(&self, key: Key) -> Slot {
        match key {
            Key::Var(v) => {
                let order = self.order.get(&v).copied().unwrap_or_else(|| {
                    let span = self.typed.symbols().var(v).name.span;
                    ((span.file.0 as u64) << 40) | span.start as u64
                });
                (order, key)
            }
            Key::Temp(_) => (u64::MAX, key),
        }
    }

    fn sort(&self, key: Key) -> Sort {
        match key {
            Key::Var(v) => sort_of_type(&self.typed.symbols().var(v).ty),
            Key::Temp(t) => self.temp_sorts.get(&t).copied().unwrap_or(Sort::Other),
        }
    }

    /// Whether the variable can change (Boogie's `IsMutable`): not a constant, not an
    /// in-parameter.
    fn mutable(&self, key: Key) -> bool {
        match key {
            Key::Var(v) => !matches!(self.typed.symbols().var(v).kind, VarKind::Const { .. } | VarKind::In),
            Key::Temp(_) => true,
        }
    }

    /// The sort of an expression's value.
    fn sort_of(&self, e: &Expr) -> Sort {
        if let Some(ty) = self.typed.typing.expr_types.get(e.id.index())
            && !matches!(e.kind, ExprKind::Var(_))
        {
            return sort_of_type(ty);
        }
        match &e.kind {
            ExprKind::BoolLit(_) => Sort::Bool,
            ExprKind::IntLit(_) => Sort::Int,
            ExprKind::DecLit(_) => Sort::Real,
            ExprKind::Var(name) => self.key(name).map_or(Sort::Other, |k| self.sort(k)),
            ExprKind::Unary { op: UnaryOp::Not, .. } => Sort::Bool,
            ExprKind::Unary { arg, .. } => self.sort_of(arg),
            ExprKind::Binary { op, lhs, .. } => match op {
                BinaryOp::Add | BinaryOp::Sub | BinaryOp::Mul => self.sort_of(lhs),
                BinaryOp::Div | BinaryOp::Mod => Sort::Int,
                BinaryOp::RealDiv => Sort::Real,
                BinaryOp::Pow => self.sort_of(lhs),
                _ => Sort::Bool,
            },
            _ => Sort::Other,
        }
    }
}

fn sort_of_type(ty: &Type) -> Sort {
    match ty {
        Type::Bool => Sort::Bool,
        Type::Int => Sort::Int,
        Type::Real => Sort::Real,
        _ => Sort::Other,
    }
}

// ---------------------------------------------------------------------------------------------
// The lattices

type Bound = Option<i128>;

/// An element: bottom, or the bounds of each constrained variable.
#[derive(Clone, Debug, PartialEq)]
enum Elem {
    Bottom,
    /// The trivial domain's top; the interval domain's conjunction of bounds.
    Bounds(BTreeMap<Slot, (Bound, Bound)>),
}

struct Lattice {
    domain: Domain,
    downs: Vec<i128>,
    ups: Vec<i128>,
}

impl Lattice {
    fn new(domain: Domain) -> Lattice {
        Lattice { domain, downs: Vec::new(), ups: Vec::new() }
    }

    fn top(&self) -> Elem {
        Elem::Bounds(BTreeMap::new())
    }

    /// Is `a` at least as strong as `b`?
    fn below(&self, a: &Elem, b: &Elem) -> bool {
        let (Elem::Bounds(x), Elem::Bounds(y)) = (a, b) else {
            return matches!(a, Elem::Bottom);
        };
        if self.domain == Domain::Trivial {
            return true;
        }
        y.iter().all(|(k, &(ylo, yhi))| match x.get(k) {
            None => false,
            Some(&(xlo, xhi)) => {
                !(ylo.is_some() && (xlo.is_none() || xlo < ylo)) && !(yhi.is_some() && (xhi.is_none() || yhi < xhi))
            }
        })
    }

    fn meet(&self, a: Elem, b: &Elem, reals: &dyn Fn(&Slot) -> bool) -> Elem {
        let (Elem::Bounds(mut x), Elem::Bounds(y)) = (a, b) else { return Elem::Bottom };
        for (k, &(ylo, yhi)) in y {
            let entry = match x.get(k) {
                None => (ylo, yhi),
                Some(&(xlo, xhi)) => {
                    let lo = max_unit(xlo, ylo);
                    let hi = min_unit(xhi, yhi);
                    if let (Some(l), Some(h)) = (lo, hi)
                        && (if reals(k) { h < l } else { h <= l })
                    {
                        return Elem::Bottom;
                    }
                    (lo, hi)
                }
            };
            x.insert(*k, entry);
        }
        Elem::Bounds(x)
    }

    fn join(&self, a: &Elem, b: &Elem) -> Elem {
        let (Elem::Bounds(x), Elem::Bounds(y)) = (a, b) else {
            return if matches!(a, Elem::Bottom) { b.clone() } else { a.clone() };
        };
        let mut out = BTreeMap::new();
        for (k, &(xlo, xhi)) in x {
            if let Some(&(ylo, yhi)) = y.get(k) {
                let lo = xlo.zip(ylo).map(|(p, q)| p.min(q));
                let hi = xhi.zip(yhi).map(|(p, q)| p.max(q));
                if lo.is_some() || hi.is_some() {
                    out.insert(*k, (lo, hi));
                }
            }
        }
        Elem::Bounds(out)
    }

    fn widen(&self, a: &Elem, b: &Elem) -> Elem {
        if self.domain == Domain::Trivial {
            return self.join(a, b);
        }
        let (Elem::Bounds(x), Elem::Bounds(y)) = (a, b) else {
            return if matches!(a, Elem::Bottom) { b.clone() } else { a.clone() };
        };
        let mut out = BTreeMap::new();
        for (k, &(xlo, xhi)) in x {
            if let Some(&(ylo, yhi)) = y.get(k) {
                let lo = match (xlo, ylo) {
                    (Some(p), Some(q)) if p <= q => Some(p),
                    (Some(_), Some(q)) => self.round_down(q),
                    _ => None,
                };
                let hi = match (xhi, yhi) {
                    (Some(p), Some(q)) if q <= p => Some(p),
                    (Some(_), Some(q)) => self.round_up(q),
                    _ => None,
                };
                if lo.is_some() || hi.is_some() {
                    out.insert(*k, (lo, hi));
                }
            }
        }
        Elem::Bounds(out)
    }

    /// The largest down-threshold at most `k`.
    fn round_down(&self, k: i128) -> Bound {
        self.downs.iter().rev().find(|&&t| t <= k).copied()
    }

    /// The smallest up-threshold at least `k`.
    fn round_up(&self, k: i128) -> Bound {
        self.ups.iter().find(|&&t| t >= k).copied()
    }

    /// Boogie's `ThresholdFinder`: -1, 0, 1 down and 0, 1 up, and around every integer
    /// literal compared with in the contract and the body.
    fn thresholds(&mut self, typed: &TypedProgram, specs: &[&Spec], blocks: &[AstBlock]) {
        let mut downs: FxHashSet<i128> = [-1, 0, 1].into_iter().collect();
        let mut ups: FxHashSet<i128> = [0, 1].into_iter().collect();
        let mut visit = |e: &Expr| {
            walk(e, &mut |e| {
                let ExprKind::Binary { op, lhs, rhs } = &e.kind else { return };
                let real = typed.typing.expr_types.get(lhs.id.index()).is_some_and(|t| matches!(t, Type::Real));
                let offset = if real { 0 } else { 1 };
                let (op, a, b) = match op {
                    BinaryOp::Ge => (BinaryOp::Le, rhs, lhs),
                    BinaryOp::Gt => (BinaryOp::Lt, rhs, lhs),
                    op => (*op, lhs, rhs),
                };
                let (ka, kb) = (int_literal(a), int_literal(b));
                let add = |set: &mut FxHashSet<i128>, v: Option<i128>| {
                    if let Some(v) = v {
                        set.insert(v);
                    }
                };
                match op {
                    BinaryOp::Eq | BinaryOp::Neq => {
                        for i in [ka, kb].into_iter().flatten() {
                            add(&mut downs, i.checked_sub(1));
                            add(&mut downs, Some(i));
                            add(&mut ups, i.checked_add(1));
                            add(&mut ups, i.checked_add(2));
                        }
                    }
                    BinaryOp::Le => {
                        if let Some(i) = ka {
                            add(&mut downs, i.checked_sub(1));
                            add(&mut downs, Some(i));
                        }
                        if let Some(i) = kb {
                            add(&mut ups, i.checked_add(offset));
                            add(&mut ups, i.checked_add(1 + offset));
                        }
                    }
                    BinaryOp::Lt => {
                        if let Some(i) = ka {
                            add(&mut downs, Some(i));
                            add(&mut downs, i.checked_add(1));
                        }
                        if let Some(i) = kb {
                            add(&mut ups, i.checked_add(offset - 1));
                            add(&mut ups, i.checked_add(offset));
                        }
                    }
                    _ => {}
                }
            })
        };
        for spec in specs {
            if let Spec::Requires { expr, .. } | Spec::Ensures { expr, .. } = spec {
                visit(expr);
            }
        }
        for block in blocks {
            for cmd in &block.cmds {
                for_each_cmd_expr(cmd, &mut visit);
            }
        }
        self.downs = downs.into_iter().collect();
        self.downs.sort_unstable();
        self.ups = ups.into_iter().collect();
        self.ups.sort_unstable();
    }
}

/// `None` as the unit of max (minus infinity).
fn max_unit(a: Bound, b: Bound) -> Bound {
    match (a, b) {
        (Some(p), Some(q)) => Some(p.max(q)),
        (p, None) => p,
        (None, q) => q,
    }
}

/// `None` as the unit of min (plus infinity).
fn min_unit(a: Bound, b: Bound) -> Bound {
    match (a, b) {
        (Some(p), Some(q)) => Some(p.min(q)),
        (p, None) => p,
        (None, q) => q,
    }
}

fn int_literal(e: &Expr) -> Option<i128> {
    match &e.kind {
        ExprKind::IntLit(digits) => digits.as_str().parse().ok(),
        _ => None,
    }
}

/// Calls `f` on `e` and every subexpression.
fn walk(e: &Expr, f: &mut dyn FnMut(&Expr)) {
    f(e);
    e.for_each_child(&mut |c| walk(c, f));
}

/// The expressions a command holds (what Boogie's visitors visit).
fn for_each_cmd_expr(cmd: &Cmd, f: &mut dyn FnMut(&Expr)) {
    match &cmd.kind {
        CmdKind::Assert { expr, .. } | CmdKind::Assume { expr, .. } => f(expr),
        CmdKind::Assign { lhss, rhss, .. } => {
            for lhs in lhss {
                lhs_indexes(lhs, f);
            }
            rhss.iter().for_each(f);
        }
        CmdKind::Call(call) => call.args.iter().for_each(f),
        CmdKind::ParCall { calls } => calls.iter().flat_map(|c| c.args.iter()).for_each(f),
        CmdKind::Unpack { rhs, .. } => f(rhs),
        CmdKind::Measure { exprs, .. } => exprs.iter().for_each(f),
        _ => {}
    }
}

fn lhs_indexes(lhs: &AssignLhs, f: &mut dyn FnMut(&Expr)) {
    match lhs {
        AssignLhs::Var(_) => {}
        AssignLhs::Select { base, indexes, .. } => {
            lhs_indexes(base, f);
            indexes.iter().for_each(f);
        }
        AssignLhs::Field { base, .. } => lhs_indexes(base, f),
    }
}

/// The variable an assignment's left-hand side assigns (Boogie's `DeepAssignedVariable`).
fn assigned(lhs: &AssignLhs) -> &Ident {
    match lhs {
        AssignLhs::Var(name) => name,
        AssignLhs::Select { base, .. } | AssignLhs::Field { base, .. } => assigned(base),
    }
}

// ---------------------------------------------------------------------------------------------
// The analysis of one implementation

struct Analysis<'a> {
    vars: Vars<'a>,
    config: &'a InferConfig,
    temps: u32,
    lattice: Lattice,
}

/// An interval of a partially evaluated expression.
type Interval = (Bound, Bound);

const TRUE: Interval = (Some(1), None);
const FALSE: Interval = (None, Some(1));

impl Analysis<'_> {
    fn intervals(&self) -> bool {
        self.lattice.domain == Domain::Intervals
    }

    fn is_real(&self, slot: &Slot) -> bool {
        self.vars.sort(slot.1) == Sort::Real
    }

    fn meet(&self, a: Elem, b: &Elem) -> Elem {
        self.lattice.meet(a, b, &|s| self.is_real(s))
    }

    /// The whole fixpoint (Boogie's `Analyze`), then the blocks with the invariants in.
    fn analyze(&mut self, blocks: &[AstBlock], start: Elem) -> Vec<AstBlock> {
        let widen_points = widen_points(blocks);
        let n = blocks.len();
        let mut pre: Vec<Elem> = vec![Elem::Bottom; n];
        let mut post: Vec<Option<Elem>> = vec![None; n];
        let mut iterations = vec![0u32; n];
        let mut work: VecDeque<(usize, Elem)> = VecDeque::from([(0, start)]);
        while let Some((b, mut e)) = work.pop_front() {
            if self.lattice.below(&e, &pre[b]) {
                continue;
            }
            e = if widen_points[b] && self.config.steps_before_widening <= iterations[b] {
                self.lattice.widen(&pre[b], &e)
            } else {
                self.lattice.join(&pre[b], &e)
            };
            pre[b] = e.clone();
            iterations[b] += 1;
            for cmd in &blocks[b].cmds {
                e = self.step(e, cmd);
            }
            if self.config.everywhere {
                post[b] = Some(e.clone());
            }
            for &s in &blocks[b].succs {
                work.push_back((s, e.clone()));
            }
        }
        blocks
            .iter()
            .enumerate()
            .map(|(b, block)| {
                let mut block = block.clone();
                if widen_points[b] || self.config.everywhere {
                    let mut cmds = vec![self.inferred(&pre[b], widen_points[b])];
                    cmds.append(&mut block.cmds);
                    if let Some(e) = &post[b] {
                        cmds.push(self.inferred(e, false));
                    }
                    block.cmds = cmds;
                }
                block
            })
            .collect()
    }

    /// `assume {:inferred} I` (or `assert` under `/checkInfer`).
    fn inferred(&self, e: &Elem, cut_point: bool) -> Cmd {
        let span = Span::default();
        let mut attrs = vec![Attribute { key: Symbol::intern("inferred"), params: Box::new([]), span }];
        if cut_point {
            attrs.push(Attribute { key: Symbol::intern(CUT_POINT), params: Box::new([]), span });
        }
        let expr = self.to_expr(e);
        let attrs = attrs.into_boxed_slice();
        let kind =
            if self.config.with_asserts { CmdKind::Assert { attrs, expr } } else { CmdKind::Assume { attrs, expr } };
        Cmd { kind, span }
    }

    // --- the transfer function ---------------------------------------------------------------

    fn step(&mut self, e: Elem, cmd: &Cmd) -> Elem {
        match &cmd.kind {
            CmdKind::Assign { lhss, rhss, .. } => self.update(e, lhss.iter().map(assigned).zip(rhss.iter())),
            CmdKind::Havoc { vars } => {
                let keys: Vec<Key> = vars.iter().filter_map(|v| self.vars.key(v)).collect();
                keys.into_iter().fold(e, |e, k| self.eliminate(e, k))
            }
            CmdKind::Assert { expr, .. } | CmdKind::Assume { expr, .. } => {
                let mut conjuncts = Vec::new();
                conjuncts_of(expr, &mut conjuncts);
                conjuncts.into_iter().fold(e, |e, c| self.constrain(e, c))
            }
            CmdKind::Call(call) => self.call(e, call),
            CmdKind::ParCall { calls } => calls.iter().fold(e, |e, c| self.call(e, c)),
            CmdKind::Unpack { vars, .. } => {
                let keys: Vec<Key> = vars.iter().filter_map(|v| self.vars.key(v)).collect();
                keys.into_iter().fold(e, |e, k| self.eliminate(e, k))
            }
            CmdKind::Measure { .. } | CmdKind::HideReveal { .. } | CmdKind::ChangeScope { .. } => e,
        }
    }

    /// A (parallel) assignment: every right-hand side is evaluated in the state before.
    fn update<'e>(&mut self, e: Elem, pairs: impl Iterator<Item = (&'e Ident, &'e Expr)>) -> Elem {
        let Elem::Bounds(before) = &e else { return e };
        if !self.intervals() {
            return e;
        }
        let updates: Vec<(Option<Key>, Interval)> =
            pairs.map(|(lhs, rhs)| (self.vars.key(lhs), self.evaluate(rhs, before))).collect();
        let mut after = before.clone();
        for (key, (lo, hi)) in updates {
            let Some(key) = key else { continue };
            let slot = self.vars.slot(key);
            if lo.is_none() && hi.is_none() {
                after.remove(&slot);
            } else {
                after.insert(slot, (lo, hi));
            }
        }
        Elem::Bounds(after)
    }

    fn eliminate(&self, e: Elem, key: Key) -> Elem {
        match e {
            Elem::Bounds(mut b) => {
                b.remove(&self.vars.slot(key));
                Elem::Bounds(b)
            }
            bottom => bottom,
        }
    }

    /// A call as Boogie desugars it: the actuals into temporaries, the callee's `requires`
    /// asserted, the outs and the modified globals havocked, `ensures` assumed, the outs
    /// copied, the temporaries forgotten.
    fn call(&mut self, mut e: Elem, call: &crate::ast::CallCmd) -> Elem {
        let typed = self.vars.typed;
        let Some(Ref::Procedure(p)) = typed.referent(&call.callee) else {
            // Unknown callee: whatever the outs were is forgotten.
            let keys: Vec<Key> = call.outs.iter().filter_map(|v| self.vars.key(v)).collect();
            return keys.into_iter().fold(e, |e, k| self.eliminate(e, k));
        };
        let info = typed.symbols().procedure(p);
        let mut saved = Vec::new();
        let mut fresh = |analysis: &mut Self, formal: VarId| {
            analysis.temps += 1;
            let t = Key::Temp(analysis.temps);
            analysis.vars.temp_sorts.insert(analysis.temps, sort_of_type(&typed.symbols().var(formal).ty));
            saved.push((formal, analysis.vars.rename.insert(formal, t)));
            t
        };
        let ins: Vec<Key> = info.ins.iter().map(|&f| fresh(self, f)).collect();
        let outs: Vec<Key> = info.outs.iter().map(|&f| fresh(self, f)).collect();
        // The actuals, evaluated before the temporaries exist.
        if let Elem::Bounds(before) = &e
            && self.intervals()
        {
            let values: Vec<Interval> = call.args.iter().map(|a| self.evaluate(a, before)).collect();
            let mut after = before.clone();
            for (&t, (lo, hi)) in ins.iter().zip(values) {
                if lo.is_some() || hi.is_some() {
                    after.insert(self.vars.slot(t), (lo, hi));
                }
            }
            e = Elem::Bounds(after);
        }
        let specs: Vec<Spec> = match &typed.program.decls[info.decl.0 as usize] {
            Decl::Procedure(d) => d.specs.to_vec(),
            _ => Vec::new(),
        };
        for spec in &specs {
            if let Spec::Requires { free: false, expr, .. } = spec {
                let mut conjuncts = Vec::new();
                conjuncts_of(expr, &mut conjuncts);
                e = conjuncts.into_iter().fold(e, |e, c| self.constrain(e, c));
            }
        }
        for &t in &outs {
            e = self.eliminate(e, t);
        }
        for &g in &info.modifies {
            e = self.eliminate(e, Key::Var(g));
        }
        for spec in &specs {
            if let Spec::Ensures { expr, .. } = spec {
                let mut conjuncts = Vec::new();
                conjuncts_of(expr, &mut conjuncts);
                e = conjuncts.into_iter().fold(e, |e, c| self.constrain(e, c));
            }
        }
        for (formal, previous) in saved.into_iter().rev() {
            match previous {
                Some(k) => self.vars.rename.insert(formal, k),
                None => self.vars.rename.remove(&formal),
            };
        }
        // outs := temporaries
        if let Elem::Bounds(before) = &e
            && self.intervals()
        {
            let mut after = before.clone();
            for (actual, &t) in call.outs.iter().zip(&outs) {
                let Some(key) = self.vars.key(actual) else { continue };
                match before.get(&self.vars.slot(t)).copied() {
                    Some(bounds) => after.insert(self.vars.slot(key), bounds),
                    None => after.remove(&self.vars.slot(key)),
                };
            }
            e = Elem::Bounds(after);
        }
        ins.into_iter().chain(outs).fold(e, |e, t| self.eliminate(e, t))
    }

    // --- constraints -----------------------------------------------------------------------

    fn constrain(&self, e: Elem, expr: &Expr) -> Elem {
        let Elem::Bounds(state) = &e else { return e };
        if !self.intervals() {
            return if matches!(expr.kind, ExprKind::BoolLit(false)) { Elem::Bottom } else { e };
        }
        match self.constraint(expr, state) {
            None => e,
            Some(c) => self.meet(e, &c),
        }
    }

    fn var(&self, e: &Expr) -> Option<Key> {
        match &e.kind {
            ExprKind::Var(name) => self.vars.key(name),
            _ => None,
        }
    }

    fn single(&self, key: Key, lo: Bound, hi: Bound) -> Elem {
        Elem::Bounds(BTreeMap::from([(self.vars.slot(key), (lo, hi))]))
    }

    fn and(&self, c: Option<Elem>, d: Elem) -> Option<Elem> {
        Some(match c {
            None => d,
            Some(c) => self.meet(c, &d),
        })
    }

    /// The constraint `expr` puts on the variables in `state` (Boogie's `Constraint`);
    /// `None` for none.
    fn constraint(&self, expr: &Expr, state: &BTreeMap<Slot, Interval>) -> Option<Elem> {
        if let Some(v) = self.var(expr) {
            return Some(self.single(v, Some(1), None));
        }
        match &expr.kind {
            ExprKind::BoolLit(true) => None,
            ExprKind::BoolLit(false) => Some(Elem::Bottom),
            ExprKind::Unary { op: UnaryOp::Not, arg } => self.var(arg).map(|v| self.single(v, None, Some(1))),
            ExprKind::Binary { op, lhs, rhs } => {
                let boolean = self.vars.sort_of(lhs) == Sort::Bool;
                let (op, a, b) = match op {
                    BinaryOp::Ge => (BinaryOp::Le, rhs, lhs),
                    BinaryOp::Gt => (BinaryOp::Lt, rhs, lhs),
                    BinaryOp::Eq if boolean => (BinaryOp::Iff, lhs, rhs),
                    op => (*op, lhs, rhs),
                };
                match op {
                    // Boogie resolves `a != b` on Booleans to `a <==> !b`.
                    BinaryOp::Neq if boolean => {
                        let mut c = None;
                        if let Some(v) = self.var(a) {
                            let (lo, hi) = self.evaluate(b, state);
                            if lo.is_some() || hi.is_some() {
                                c = Some(self.single(v, hi, lo));
                            }
                        }
                        c
                    }
                    BinaryOp::Iff | BinaryOp::Eq => {
                        let mut c = None;
                        if let Some(v) = self.var(a) {
                            let (lo, hi) = self.evaluate(b, state);
                            if lo.is_some() || hi.is_some() {
                                c = Some(self.single(v, lo, hi));
                            }
                        }
                        // Boogie's quirk: the right-hand variable is constrained by itself.
                        if let Some(v) = self.var(b) {
                            let (lo, hi) = self.evaluate(b, state);
                            if lo.is_some() || hi.is_some() {
                                c = self.and(c, self.single(v, lo, hi));
                            }
                        }
                        c
                    }
                    BinaryOp::Neq => {
                        let mut c = None;
                        if let Some(v) = self.var(a) {
                            c = self.neq(state, v, b);
                        }
                        if let Some(v) = self.var(b)
                            && let Some(d) = self.neq(state, v, a)
                        {
                            c = self.and(c, d);
                        }
                        c
                    }
                    BinaryOp::Le => {
                        let mut c = None;
                        if let Some(v) = self.var(b)
                            && let (Some(lo), _) = self.evaluate(a, state)
                        {
                            c = Some(self.single(v, Some(lo), None));
                        }
                        if let Some(v) = self.var(a)
                            && let (_, Some(hi)) = self.evaluate(b, state)
                        {
                            c = self.and(c, self.single(v, None, Some(hi)));
                        }
                        c
                    }
                    BinaryOp::Lt => {
                        let mut c = None;
                        if let Some(v) = self.var(b)
                            && let (Some(lo), _) = self.evaluate(a, state)
                        {
                            let lo = if self.vars.sort(v) == Sort::Real { Some(lo) } else { lo.checked_add(1) };
                            if lo.is_some() {
                                c = Some(self.single(v, lo, None));
                            }
                        }
                        if let Some(v) = self.var(a)
                            && let (_, Some(hi)) = self.evaluate(b, state)
                        {
                            let hi = if self.vars.sort(v) == Sort::Real { Some(hi) } else { hi.checked_sub(1) };
                            if hi.is_some() {
                                c = self.and(c, self.single(v, None, hi));
                            }
                        }
                        c
                    }
                    _ => None,
                }
            }
            _ => None,
        }
    }

    /// `v != arg` where `arg` is a known integer at an end of `v`'s interval.
    fn neq(&self, state: &BTreeMap<Slot, Interval>, v: Key, arg: &Expr) -> Option<Elem> {
        let (Some(lo), Some(hi)) = self.evaluate(arg, state) else { return None };
        if self.vars.sort(v) == Sort::Real || lo.checked_add(1) != Some(hi) {
            return None;
        }
        let exclude = lo;
        let (vlo, vhi) = state.get(&self.vars.slot(v)).copied().unwrap_or((None, None));
        if vlo == Some(exclude) {
            return exclude.checked_add(1).map(|l| self.single(v, Some(l), None));
        }
        if vhi.is_some() && exclude.checked_add(1) == vhi {
            return Some(self.single(v, None, Some(exclude)));
        }
        None
    }

    // --- partial evaluation ----------------------------------------------------------------

    /// The interval of `e`'s value in `state` (Boogie's `PEVisitor`); Booleans as `[1,-)` for
    /// true and `[-,1)` for false.
    fn evaluate(&self, e: &Expr, state: &BTreeMap<Slot, Interval>) -> Interval {
        match &e.kind {
            ExprKind::BoolLit(true) => TRUE,
            ExprKind::BoolLit(false) => FALSE,
            ExprKind::IntLit(digits) => match digits.as_str().parse::<i128>() {
                Ok(n) => (Some(n), n.checked_add(1)),
                Err(_) => (None, None),
            },
            ExprKind::DecLit(text) => floor_ceiling(text.as_str()).map_or((None, None), |(f, c)| (Some(f), Some(c))),
            ExprKind::Var(name) => match self.vars.key(name) {
                Some(k) if self.vars.sort(k) != Sort::Other => {
                    state.get(&self.vars.slot(k)).copied().unwrap_or((None, None))
                }
                _ => (None, None),
            },
            ExprKind::Unary { op: UnaryOp::Neg, arg } => {
                let real = self.vars.sort_of(e) == Sort::Real;
                let (lo, hi) = self.evaluate(arg, state);
                let negate = |b: i128| if real { b.checked_neg() } else { 1i128.checked_sub(b) };
                (hi.and_then(negate), lo.and_then(negate))
            }
            ExprKind::Unary { op: UnaryOp::Not, arg } => {
                let (lo, hi) = self.evaluate(arg, state);
                (hi, lo)
            }
            ExprKind::Binary { op, lhs, rhs } => {
                let (lo0, hi0) = self.evaluate(lhs, state);
                let (mut lo1, mut hi1) = self.evaluate(rhs, state);
                let real = self.vars.sort_of(lhs) == Sort::Real;
                let boolean = self.vars.sort_of(lhs) == Sort::Bool;
                let op = match op {
                    // `a != b` on Booleans is `a <==> !b`.
                    BinaryOp::Neq if boolean => {
                        std::mem::swap(&mut lo1, &mut hi1);
                        BinaryOp::Iff
                    }
                    BinaryOp::Eq if boolean => BinaryOp::Iff,
                    op => *op,
                };
                binary(op, real, (lo0, hi0), (lo1, hi1))
            }
            ExprKind::IfThenElse { cond, then, els } => {
                let (glo, ghi) = self.evaluate(cond, state);
                let (lo0, hi0) = self.evaluate(then, state);
                let (lo1, hi1) = self.evaluate(els, state);
                if glo.is_some() {
                    (lo0, hi0)
                } else if ghi.is_some() {
                    (lo1, hi1)
                } else {
                    (lo0.zip(lo1).map(|(p, q)| p.min(q)), hi0.zip(hi1).map(|(p, q)| p.max(q)))
                }
            }
            ExprKind::Call { func, args } if args.len() == 1 && self.identity(*func, e, &args[0]) => {
                self.evaluate(&args[0], state)
            }
            _ => (None, None),
        }
    }

    /// Whether a call of `func` is the identity: the function says so (`{:identity}`, the
    /// last such attribute deciding) and the argument's type is the result's.
    fn identity(&self, func: Symbol, call: &Expr, arg: &Expr) -> bool {
        let typed = self.vars.typed;
        let Some(&f) = typed.symbols().functions_by_name.get(&func) else { return false };
        let Some(decl) = typed.symbols().function(f).decl else { return false };
        let Decl::Function(d) = &typed.program.decls[decl.0 as usize] else { return false };
        let mut claims = false;
        for attr in d.attrs.iter().filter(|a| a.key.as_str() == "identity") {
            claims = match &attr.params[..] {
                [] => true,
                [AttrParam::Expr(Expr { kind: ExprKind::BoolLit(b), .. })] => *b,
                _ => return false,
            };
        }
        let types = &typed.typing.expr_types;
        claims
            && match (types.get(call.id.index()), types.get(arg.id.index())) {
                (Some(a), Some(b)) => a == b,
                _ => false,
            }
    }

    // --- invariants as expressions -----------------------------------------------------------

    /// The element as Boogie's `ToExpr` writes it: `false`, or the conjunction of each
    /// variable's bounds in order (`true` when there are none).
    fn to_expr(&self, e: &Elem) -> Expr {
        let bounds = match e {
            Elem::Bottom => return lit(ExprKind::BoolLit(false)),
            Elem::Bounds(_) if !self.intervals() => return lit(ExprKind::BoolLit(true)),
            Elem::Bounds(b) => b,
        };
        let mut conjuncts = Vec::new();
        for (&(_, key), &(lo, hi)) in bounds {
            if !self.vars.mutable(key) && !self.config.everywhere {
                continue;
            }
            let Key::Var(v) = key else { continue };
            let name = self.vars.typed.symbols().var(v).name.name;
            let var = || lit(ExprKind::Var(Ident::at(name, Span::default())));
            match self.vars.sort(key) {
                Sort::Bool => match (lo, hi) {
                    (Some(_), None) => conjuncts.push(var()),
                    (None, Some(_)) => conjuncts.push(unary(UnaryOp::Not, var())),
                    _ => {}
                },
                Sort::Int => match (lo, hi) {
                    (Some(l), Some(h)) if l.checked_add(1) == Some(h) => {
                        conjuncts.push(binary_expr(BinaryOp::Eq, var(), number(l, false)))
                    }
                    _ => {
                        if let Some(l) = lo {
                            conjuncts.push(binary_expr(BinaryOp::Le, number(l, false), var()));
                        }
                        if let Some(h) = hi {
                            conjuncts.push(binary_expr(BinaryOp::Lt, var(), number(h, false)));
                        }
                    }
                },
                Sort::Real => match (lo, hi) {
                    (Some(l), Some(h)) if l == h => conjuncts.push(binary_expr(BinaryOp::Eq, var(), number(l, true))),
                    _ => {
                        if let Some(l) = lo {
                            conjuncts.push(binary_expr(BinaryOp::Le, number(l, true), var()));
                        }
                        if let Some(h) = hi {
                            conjuncts.push(binary_expr(BinaryOp::Le, var(), number(h, true)));
                        }
                    }
                },
                Sort::Other => {}
            }
        }
        let mut it = conjuncts.into_iter();
        match it.next() {
            None => lit(ExprKind::BoolLit(true)),
            Some(first) => it.fold(first, |acc, c| binary_expr(BinaryOp::And, acc, c)),
        }
    }
}

/// Boogie's interval arithmetic for one binary operator.
fn binary(op: BinaryOp, real: bool, (lo0, hi0): Interval, (lo1, hi1): Interval) -> Interval {
    let le = |a: Bound, b: Bound| matches!((a, b), (Some(p), Some(q)) if p <= q);
    let lt = |a: Bound, b: Bound| matches!((a, b), (Some(p), Some(q)) if p < q);
    let minus1 = |a: Bound| a.and_then(|v| v.checked_sub(1));
    let (lo0, hi0, lo1, hi1) = match op {
        BinaryOp::Gt | BinaryOp::Ge => (lo1, hi1, lo0, hi0),
        _ => (lo0, hi0, lo1, hi1),
    };
    match op {
        BinaryOp::And => {
            if hi0.is_some() || hi1.is_some() {
                FALSE
            } else if lo0.is_some() && lo1.is_some() {
                TRUE
            } else {
                (None, None)
            }
        }
        BinaryOp::Or => {
            if lo0.is_some() || lo1.is_some() {
                TRUE
            } else if hi0.is_some() && hi1.is_some() {
                FALSE
            } else {
                (None, None)
            }
        }
        BinaryOp::Imp => {
            if hi0.is_some() || lo1.is_some() {
                TRUE
            } else if lo0.is_some() && hi1.is_some() {
                FALSE
            } else {
                (None, None)
            }
        }
        BinaryOp::Iff => {
            if (lo0.is_some() && lo1.is_some()) || (hi0.is_some() && hi1.is_some()) {
                TRUE
            } else if (lo0.is_some() && hi1.is_some()) || (hi0.is_some() && lo1.is_some()) {
                FALSE
            } else {
                (None, None)
            }
        }
        BinaryOp::Eq | BinaryOp::Neq => {
            let no_overlap = |h: Bound, l: Bound| if real { lt(h, l) } else { le(h, l) };
            let r = if no_overlap(hi0, lo1) || no_overlap(hi1, lo0) {
                FALSE
            } else if lo0.is_some()
                && hi0.is_some()
                && lo0 == lo1
                && hi0 == hi1
                && (if real { lo0 == hi0 } else { lo0.and_then(|l| l.checked_add(1)) == hi0 })
            {
                TRUE
            } else {
                (None, None)
            };
            if op == BinaryOp::Neq { (r.1, r.0) } else { r }
        }
        BinaryOp::Le | BinaryOp::Ge => {
            if real {
                if le(hi0, lo1) {
                    TRUE
                } else if lt(hi1, lo0) {
                    FALSE
                } else {
                    (None, None)
                }
            } else if le(minus1(hi0), lo1) {
                TRUE
            } else if le(hi1, lo0) {
                FALSE
            } else {
                (None, None)
            }
        }
        BinaryOp::Lt | BinaryOp::Gt => {
            if real {
                if lt(hi0, lo1) {
                    TRUE
                } else if le(hi1, lo0) {
                    FALSE
                } else {
                    (None, None)
                }
            } else if le(hi0, lo1) {
                TRUE
            } else if le(minus1(hi1), lo0) {
                FALSE
            } else {
                (None, None)
            }
        }
        BinaryOp::Add => {
            let lo = lo0.zip(lo1).and_then(|(p, q)| p.checked_add(q));
            let hi = hi0
                .zip(hi1)
                .and_then(|(p, q)| p.checked_add(q))
                .and_then(|s| if real { Some(s) } else { s.checked_sub(1) });
            (lo, hi)
        }
        BinaryOp::Sub => {
            let lo = lo0
                .zip(hi1)
                .and_then(|(p, q)| p.checked_sub(q))
                .and_then(|s| if real { Some(s) } else { s.checked_add(1) });
            let hi = hi0.zip(lo1).and_then(|(p, q)| p.checked_sub(q));
            (lo, hi)
        }
        BinaryOp::Mul => match (lo0, lo1) {
            (Some(a), Some(b)) if a >= 0 && b >= 0 => {
                let lo = a.checked_mul(b);
                let hi = match (hi0, hi1) {
                    (Some(p), Some(q)) if real => p.checked_mul(q),
                    (Some(p), Some(q)) => (p - 1).checked_mul(q - 1).and_then(|m| m.checked_add(1)),
                    _ => None,
                };
                (lo, hi)
            }
            (Some(a), Some(b)) if a < 0 && b < 0 => {
                (None, a.checked_mul(b).and_then(|m| if real { Some(m) } else { m.checked_add(1) }))
            }
            _ => (None, None),
        },
        BinaryOp::Div => match (lo0, lo1) {
            (Some(a), Some(b)) if a >= 0 && b >= 0 => (Some(0), hi0),
            _ => (None, None),
        },
        BinaryOp::Mod => match (lo0, lo1) {
            (Some(a), Some(b)) if a >= 0 && b >= 0 => {
                if a < b && hi0.is_some_and(|h| h < b) {
                    (lo0, hi0)
                } else {
                    (Some(0), hi1)
                }
            }
            _ => (None, None),
        },
        BinaryOp::RealDiv => match (lo0, lo1) {
            (Some(a), Some(b)) if a >= 0 && b >= 0 => (Some(0), if 1 <= b { hi0 } else { None }),
            _ => (None, None),
        },
        BinaryOp::Pow => match (lo0, lo1) {
            (Some(a), Some(b)) if a >= 0 && b >= 0 => (Some(if 1 <= b { 1 } else { 0 }), hi1),
            _ => (None, None),
        },
        BinaryOp::Subtype => (None, None),
    }
}

/// The floor and ceiling of a decimal literal (`1.5`, `2e3`, `1.5e-3`).
fn floor_ceiling(text: &str) -> Option<(i128, i128)> {
    let (mantissa, exponent) = match text.find(['e', 'E']) {
        Some(i) => (&text[..i], text[i + 1..].parse::<i32>().ok()?),
        None => (text, 0),
    };
    let (int_part, frac_part) = mantissa.split_once('.').unwrap_or((mantissa, ""));
    let digits: String = format!("{int_part}{frac_part}");
    let value: i128 = digits.parse().ok()?;
    let scale = exponent - frac_part.len() as i32;
    if scale >= 0 {
        let v = value.checked_mul(10i128.checked_pow(scale as u32)?)?;
        Some((v, v))
    } else {
        let d = 10i128.checked_pow((-scale) as u32)?;
        let floor = value / d;
        let ceiling = if value % d == 0 { floor } else { floor + 1 };
        Some((floor, ceiling))
    }
}

/// Boogie's `WidenPoints`: the targets of the back edges of a depth-first walk from the
/// entry (successors in order).
fn widen_points(blocks: &[AstBlock]) -> Vec<bool> {
    #[derive(Clone, Copy, PartialEq)]
    enum State {
        ToVisit,
        BeingVisited,
        Visited,
    }
    let mut state = vec![State::ToVisit; blocks.len()];
    let mut widen = vec![false; blocks.len()];
    let mut stack: Vec<(usize, usize)> = Vec::new();
    let mut visit = |b: usize, state: &mut Vec<State>, stack: &mut Vec<(usize, usize)>| match state[b] {
        State::BeingVisited => widen[b] = true,
        State::Visited => {}
        State::ToVisit => {
            if !blocks[b].succs.is_empty() {
                state[b] = State::BeingVisited;
                stack.push((b, 0));
            }
        }
    };
    visit(0, &mut state, &mut stack);
    while let Some(&(b, next)) = stack.last() {
        match blocks[b].succs.get(next) {
            Some(&s) => {
                stack.last_mut().expect("not empty").1 += 1;
                visit(s, &mut state, &mut stack);
            }
            None => {
                state[b] = State::Visited;
                stack.pop();
            }
        }
    }
    widen
}

/// The top-level conjuncts of `e` (Boogie's `Conjuncts`).
fn conjuncts_of<'e>(e: &'e Expr, out: &mut Vec<&'e Expr>) {
    match &e.kind {
        ExprKind::Binary { op: BinaryOp::And, lhs, rhs } => {
            conjuncts_of(lhs, out);
            conjuncts_of(rhs, out);
        }
        _ => out.push(e),
    }
}

fn lit(kind: ExprKind) -> Expr {
    Expr { kind, span: Span::default(), id: NodeId::NONE }
}

fn unary(op: UnaryOp, arg: Expr) -> Expr {
    lit(ExprKind::Unary { op, arg: Box::new(arg) })
}

fn binary_expr(op: BinaryOp, lhs: Expr, rhs: Expr) -> Expr {
    lit(ExprKind::Binary { op, lhs: Box::new(lhs), rhs: Box::new(rhs) })
}

/// An integer (`3`, `-3`) or real (`3.0`) literal.
fn number(n: i128, real: bool) -> Expr {
    let digits = if real { format!("{}.0", n.unsigned_abs()) } else { n.unsigned_abs().to_string() };
    let kind = if real { ExprKind::DecLit(Symbol::intern(&digits)) } else { ExprKind::IntLit(Symbol::intern(&digits)) };
    if n < 0 { unary(UnaryOp::Neg, lit(kind)) } else { lit(kind) }
}

/// The program as `/printInstrumented` shows it: `==` and `!=` between Booleans as Boogie's
/// type checker resolves them (`a <==> b`, `a <==> !b`), in bodies, contracts and axioms.
pub fn with_boolean_equalities_resolved(typed: &TypedProgram, program: &Program) -> Program {
    struct Resolve<'a>(&'a [Type]);
    impl super::rewrite::Rewriter for Resolve<'_> {
        fn expr(&mut self, e: &Expr) -> Option<Expr> {
            let ExprKind::Binary { op: op @ (BinaryOp::Eq | BinaryOp::Neq), lhs, rhs } = &e.kind else { return None };
            let is_bool = |e: &Expr| matches!(self.0.get(e.id.index()), Some(Type::Bool));
            if !(is_bool(lhs) && is_bool(rhs)) {
                return None;
            }
            let lhs = super::rewrite::expr(self, lhs);
            let mut rhs = super::rewrite::expr(self, rhs);
            if *op == BinaryOp::Neq {
                rhs = unary(UnaryOp::Not, rhs);
            }
            let kind = ExprKind::Binary { op: BinaryOp::Iff, lhs: Box::new(lhs), rhs: Box::new(rhs) };
            Some(Expr { kind, span: e.span, id: e.id })
        }
    }
    let mut r = Resolve(&typed.typing.expr_types);
    let decls = super::rewrite::bodies(&mut r, &program.decls)
        .into_iter()
        .map(|d| match d {
            Decl::Axiom(a) => Decl::Axiom(Box::new(super::rewrite::axiom(&mut r, &a))),
            Decl::Procedure(mut p) => {
                p.specs = p.specs.iter().map(|s| super::rewrite::spec(&mut r, s)).collect();
                Decl::Procedure(p)
            }
            other => other,
        })
        .collect();
    Program { decls }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn decimal_literals_round_outwards() {
        assert_eq!(floor_ceiling("1.5"), Some((1, 2)));
        assert_eq!(floor_ceiling("2.0"), Some((2, 2)));
        assert_eq!(floor_ceiling("2e3"), Some((2000, 2000)));
        assert_eq!(floor_ceiling("1.5e-3"), Some((0, 1)));
    }

    #[test]
    fn interval_arithmetic_is_boogies() {
        // [2,5) + [1,3) = [3,7): integer upper bounds are exclusive.
        assert_eq!(binary(BinaryOp::Add, false, (Some(2), Some(5)), (Some(1), Some(3))), (Some(3), Some(7)));
        // [2,5) - [1,3) = [0,4)
        assert_eq!(binary(BinaryOp::Sub, false, (Some(2), Some(5)), (Some(1), Some(3))), (Some(0), Some(4)));
        // [2,5) * [3,4) = [6,13)
        assert_eq!(binary(BinaryOp::Mul, false, (Some(2), Some(5)), (Some(3), Some(4))), (Some(6), Some(13)));
        // 3 < [5,-) is true; [5,6) == [6,7) is false.
        assert_eq!(binary(BinaryOp::Lt, false, (Some(3), Some(4)), (Some(5), None)), TRUE);
        assert_eq!(binary(BinaryOp::Eq, false, (Some(5), Some(6)), (Some(6), Some(7))), FALSE);
        // Overflow gives no bound.
        assert_eq!(binary(BinaryOp::Add, false, (Some(i128::MAX), None), (Some(1), None)), (None, None));
    }

    #[test]
    fn widening_rounds_to_thresholds() {
        let mut lattice = Lattice::new(Domain::Intervals);
        lattice.downs = vec![-1, 0, 1];
        lattice.ups = vec![0, 1, 100, 101];
        let slot = (0, Key::Temp(0));
        let a = Elem::Bounds(BTreeMap::from([(slot, (Some(0), Some(1)))]));
        let b = Elem::Bounds(BTreeMap::from([(slot, (Some(-5), Some(2)))]));
        assert_eq!(lattice.widen(&a, &b), Elem::Bounds(BTreeMap::from([(slot, (None, Some(100)))])));
        assert!(lattice.below(&a, &lattice.join(&a, &b)));
        assert!(!lattice.below(&b, &a));
    }

    #[test]
    fn widen_points_are_back_edge_targets() {
        let block =
            |succs: Vec<usize>| AstBlock { label: String::new(), tok: None, cmds: Vec::new(), succs, transfer: None };
        // 0 -> 1 -> 2 -> 1, 1 -> 3
        let blocks = vec![block(vec![1]), block(vec![2, 3]), block(vec![1]), block(vec![])];
        assert_eq!(widen_points(&blocks), vec![false, true, false, false]);
    }
}
