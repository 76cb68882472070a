//! Field abstraction with tracked fields: STORM's `Abstract(P, F)` (seed 004, §5.3.1), and the
//! pinning of a counterexample's path that its refinement loop (§5.3.2, Fig. 5.1;
//! [`crate::refinement`]) replays concretely.
//!
//! A *field* is a global variable of map type (a C front end's `Mem_f`, a driver's
//! device-extension field). Given the tracked set F, the pass rewrites implementation bodies
//! (bounded mode: the entry point, after inlining, before unrolling and sequentialization;
//! modular mode: every implementation):
//! - a read of an untracked field `g` becomes a read of a local `abs$g` havocked just before
//!   the command (`old(g)`: `abs$old$g`), so every read sees a fresh value;
//! - a write of an untracked field is dropped (an assignment's other targets stay; a dropped
//!   write leaves `assume {:rboogie_field "g"} true`, so that a path shows what it touched);
//!   `havoc g` likewise, and a call's untracked out becomes `abs$g`;
//! - nothing else touches untracked fields afterwards, so they are shared state nowhere:
//!   sequentialization adds no context switch for them and keeps no copies per round;
//! - with `summarize`, a loop (bounded mode) that reads or writes no global other than
//!   untracked fields, and asserts and calls nothing, is replaced by a havoc of the locals it
//!   assigns (its head then goes straight to the loop's exits; `assume {:rboogie_summary} true`
//!   marks it).
//!
//! Each rule only forgets what the program knew of untracked fields, so every execution of the
//! program maps to one of the abstraction: "no bug" on `Abstract(P, F)` holds for P (at the
//! same context bound). Fields the abstraction cannot forget soundly are always tracked
//! ([`forced`]): those a bodiless procedure's contract, a loop invariant or a `where` clause
//! mentions, and in modular mode every contract's (an implementation's postcondition reads the
//! state its body wrote).
//!
//! Concretization (STORM's `Concretize`) keeps the abstraction's shape: a field in `concrete`
//! is read into `abs$g` by `abs$g := g` and written as before, each marked
//! `{:rboogie_no_switch}`, so that sequentialization gives it copies per round but adds no
//! context switch for it: the program has the same blocks, labels and switches as the
//! abstraction, and a counterexample's path of the abstraction is a path of it.
//!
//! [`Pin`] keeps of one implementation only the blocks of a given path, each going to the next:
//! the concretized program pinned to an abstract counterexample is feasible exactly when that
//! counterexample is real for the fields made concrete.

use std::sync::Arc;

use rustc_hash::{FxHashMap, FxHashSet};

use super::blocks::{AstBlock, blocks_of, local_decl, named_body, replace_decls, with_blocks};
use super::{PassError, rewrite};
use crate::ast::{
    AssignLhs, AttrParam, Attribute, Cmd, CmdKind, Decl, Expr, ExprKind, Ident, LocalVars, LoopSpec, NodeId, Program,
    Span, Spec, Symbol, VarGroup,
};
use crate::typeck::{Ref, Type, TypedProgram, VarId, VarKind};

/// Marks a command that reads or writes a concretized field: no context switch before it.
pub const NO_SWITCH: &str = "rboogie_no_switch";
/// `assume {:rboogie_field "g"} true`: a dropped write of the untracked field `g`.
pub const FIELD_MARK: &str = "rboogie_field";
/// `assume {:rboogie_summary} true`: the head of a loop the abstraction summarized.
pub const SUMMARY_MARK: &str = "rboogie_summary";
/// The locals that stand for untracked fields' values.
pub const ABS: &str = "abs$";
pub const ABS_OLD: &str = "abs$old$";

/// What to abstract.
#[derive(Clone, Debug, Default, PartialEq)]
pub struct Abstraction {
    /// F: fields accessed as the program does.
    pub tracked: FxHashSet<Symbol>,
    /// Fields accessed concretely without context switches (concretization); the others are
    /// abstracted.
    pub concrete: FxHashSet<Symbol>,
    /// Summarize loops that touch no tracked field and no shared state (bounded mode).
    pub summarize: bool,
    /// Bounded mode's entry point: the only implementation rewritten.
    pub only: Option<Symbol>,
    /// Modular mode: implementations left as they are (their bugs were found real).
    pub concrete_impls: FxHashSet<Symbol>,
}

/// The pass: off unless field abstraction is on.
pub struct FieldAbstraction(pub Option<Arc<Abstraction>>);

impl super::Pass for FieldAbstraction {
    fn name(&self) -> &'static str {
        "field-abstraction"
    }

    fn run(&self, typed: &TypedProgram, _cx: &mut super::PassCx) -> Result<Option<Program>, PassError> {
        match &self.0 {
            Some(a) => run(typed, a).map(Some),
            None => Ok(None),
        }
    }
}

/// One implementation kept only along a path (block labels, in order).
#[derive(Clone, Debug, PartialEq)]
pub struct PinSpec {
    pub implementation: Symbol,
    pub path: Vec<String>,
}

/// The pass that pins a path: off unless a refinement step asks for it. It fails when the
/// path is not one of the implementation's (the caller then checks without it).
pub struct Pin(pub Option<Arc<PinSpec>>);

impl super::Pass for Pin {
    fn name(&self) -> &'static str {
        "pin"
    }

    fn run(&self, typed: &TypedProgram, _cx: &mut super::PassCx) -> Result<Option<Program>, PassError> {
        match &self.0 {
            Some(p) => pin(typed, p).map(Some),
            None => Ok(None),
        }
    }
}

// ---------------------------------------------------------------------------------------------
// Which globals are fields

/// The global variable `name` refers to, if it is one.
fn global(typed: &TypedProgram, name: &Ident) -> Option<VarId> {
    match typed.referent(name) {
        Some(Ref::Var(v)) if typed.symbols().var(v).kind == VarKind::Global => Some(v),
        _ => None,
    }
}

fn is_map(t: &Type) -> bool {
    matches!(t.expanded(), Type::Map(_))
}

/// Every field of the program (global variables of map type), in declaration order.
pub fn fields(typed: &TypedProgram) -> Vec<Symbol> {
    let mut out = Vec::new();
    for d in &typed.program.decls {
        if let Decl::Var(v) = d {
            for g in v.groups.iter() {
                for n in g.names.iter() {
                    if let Some(Ref::Var(id)) = typed.referent(n)
                        && is_map(&typed.symbols().var(id).ty)
                        && !n.name.as_str().starts_with("seq$")
                    {
                        out.push(n.name);
                    }
                }
            }
        }
    }
    out
}

/// The fields `e` mentions.
fn mentioned(typed: &TypedProgram, fields: &FxHashSet<Symbol>, e: &Expr, out: &mut FxHashSet<Symbol>) {
    struct V<'a>(&'a TypedProgram, &'a FxHashSet<Symbol>, &'a mut FxHashSet<Symbol>);
    impl crate::walk::Visitor for V<'_> {
        fn expr(&mut self, e: &Expr) {
            if let ExprKind::Var(n) = &e.kind
                && self.1.contains(&n.name)
                && global(self.0, n).is_some()
            {
                self.2.insert(n.name);
            }
        }
    }
    crate::walk::expr(&mut V(typed, fields, out), e);
}

/// The fields the abstraction must track for soundness: those mentioned by the contracts of
/// procedures without a body (all contracts in modular mode, `bounded` false), by loop
/// invariants and by `where` clauses.
pub fn forced(typed: &TypedProgram, bounded: bool) -> FxHashSet<Symbol> {
    let all: FxHashSet<Symbol> = fields(typed).into_iter().collect();
    let with_body: FxHashSet<Symbol> = typed
        .program
        .decls
        .iter()
        .filter_map(|d| match d {
            Decl::Implementation(i) => Some(i.name.name),
            Decl::Procedure(p) if p.body.is_some() => Some(p.name.name),
            _ => None,
        })
        .collect();
    let mut out = FxHashSet::default();
    for d in &typed.program.decls {
        match d {
            Decl::Procedure(p) => {
                if !bounded || !with_body.contains(&p.name.name) {
                    for s in p.specs.iter() {
                        if let Spec::Requires { expr, .. } | Spec::Ensures { expr, .. } = s {
                            mentioned(typed, &all, expr, &mut out);
                        }
                    }
                }
                if let Some(b) = &p.body {
                    invariants(typed, &all, &b.stmts, &mut out);
                }
            }
            Decl::Implementation(i) => invariants(typed, &all, &i.body.stmts, &mut out),
            Decl::Var(v) => {
                for g in v.groups.iter() {
                    if let Some(w) = &g.where_clause {
                        mentioned(typed, &all, w, &mut out);
                    }
                }
            }
            _ => {}
        }
    }
    out
}

fn invariants(typed: &TypedProgram, all: &FxHashSet<Symbol>, list: &crate::ast::StmtList, out: &mut FxHashSet<Symbol>) {
    for b in &list.blocks {
        if let Some(crate::ast::BlockTail::While(w)) = &b.tail {
            for spec in &w.invariants {
                if let LoopSpec::Invariant { expr, .. } = spec {
                    mentioned(typed, all, expr, out);
                }
            }
        }
        for nested in b.tail.iter().flat_map(|t| t.nested_lists()) {
            invariants(typed, all, nested, out);
        }
    }
}

/// The fields the property mentions: those of assertions in bodies and of checked contracts
/// and invariants (the refinement loop's starting point).
pub fn property_fields(typed: &TypedProgram) -> FxHashSet<Symbol> {
    let all: FxHashSet<Symbol> = fields(typed).into_iter().collect();
    let mut out = FxHashSet::default();
    struct V<'a>(&'a TypedProgram, &'a FxHashSet<Symbol>, &'a mut FxHashSet<Symbol>);
    impl crate::walk::Visitor for V<'_> {
        fn cmd(&mut self, c: &Cmd) {
            if let CmdKind::Assert { expr, .. } = &c.kind {
                mentioned(self.0, self.1, expr, self.2);
            }
        }
    }
    for d in &typed.program.decls {
        match d {
            Decl::Procedure(p) => {
                for s in p.specs.iter() {
                    if let Spec::Requires { free: false, expr, .. } | Spec::Ensures { free: false, expr, .. } = s {
                        mentioned(typed, &all, expr, &mut out);
                    }
                }
                if let Some(b) = &p.body {
                    crate::walk::stmts(&mut V(typed, &all, &mut out), &b.stmts);
                    invariants(typed, &all, &b.stmts, &mut out);
                }
            }
            Decl::Implementation(i) => {
                crate::walk::stmts(&mut V(typed, &all, &mut out), &i.body.stmts);
                invariants(typed, &all, &i.body.stmts, &mut out);
            }
            _ => {}
        }
    }
    out
}

/// The fields whose values may reach a check or a branch: the fields among the variables a
/// flow-insensitive backward closure reaches from every variable an assertion, assumption,
/// branch or loop guard, invariant, contract or `where` clause reads, through assignments
/// (the target depends on the right-hand side and on its indexes), calls (formals on
/// arguments, actual outs on formal outs) and every body. A field outside it can never change
/// whether a path is feasible: the refinement loop need not make it concrete to replay one.
pub fn relevant_fields(typed: &TypedProgram) -> FxHashSet<Symbol> {
    reaching_fields(typed, false)
}

/// The fields whose values may flow into what is checked: as [`relevant_fields`], but from
/// what assertions, checked contracts and invariants read only (not assumptions, branches or
/// `where` clauses). The refinement loop tries them first when it looks for the fields that
/// make a spurious path infeasible: a value the failing check reads is the likeliest to
/// refute it.
pub fn asserted_fields(typed: &TypedProgram) -> FxHashSet<Symbol> {
    reaching_fields(typed, true)
}

fn reaching_fields(typed: &TypedProgram, checks_only: bool) -> FxHashSet<Symbol> {
    let mut deps: FxHashMap<VarId, Vec<VarId>> = FxHashMap::default();
    let mut seeds: Vec<VarId> = Vec::new();
    let mut r = Relevance { typed, deps: &mut deps, seeds: &mut seeds, checks_only };
    for d in &typed.program.decls {
        match d {
            Decl::Procedure(p) => {
                for spec in p.specs.iter() {
                    match spec {
                        Spec::Requires { free: false, expr, .. } | Spec::Ensures { free: false, expr, .. } => {
                            r.seed(expr)
                        }
                        Spec::Requires { expr, .. } | Spec::Ensures { expr, .. } if !checks_only => r.seed(expr),
                        _ => {}
                    }
                }
                if let Some(b) = &p.body {
                    r.list(&b.stmts);
                }
            }
            Decl::Implementation(i) => r.list(&i.body.stmts),
            Decl::Var(v) if !checks_only => {
                for g in v.groups.iter() {
                    if let Some(w) = &g.where_clause {
                        r.seed(w);
                    }
                }
            }
            _ => {}
        }
    }
    let mut relevant: FxHashSet<VarId> = FxHashSet::default();
    while let Some(v) = seeds.pop() {
        if relevant.insert(v)
            && let Some(ds) = deps.get(&v)
        {
            seeds.extend(ds.iter().copied());
        }
    }
    fields(typed).into_iter().filter(|f| typed.symbols().globals.get(f).is_some_and(|v| relevant.contains(v))).collect()
}

struct Relevance<'a> {
    typed: &'a TypedProgram,
    deps: &'a mut FxHashMap<VarId, Vec<VarId>>,
    seeds: &'a mut Vec<VarId>,
    /// Seeds are what checks read (assertions, checked contracts, invariants) only.
    checks_only: bool,
}

impl Relevance<'_> {
    fn vars(&self, e: &Expr, out: &mut Vec<VarId>) {
        struct V<'a>(&'a TypedProgram, &'a mut Vec<VarId>);
        impl crate::walk::Visitor for V<'_> {
            fn expr(&mut self, e: &Expr) {
                if let ExprKind::Var(n) = &e.kind
                    && let Some(Ref::Var(v)) = self.0.referent(n)
                {
                    self.1.push(v);
                }
            }
        }
        crate::walk::expr(&mut V(self.typed, out), e);
    }

    fn seed(&mut self, e: &Expr) {
        let mut vs = Vec::new();
        self.vars(e, &mut vs);
        self.seeds.extend(vs);
    }

    fn var_of(&self, n: &Ident) -> Option<VarId> {
        match self.typed.referent(n) {
            Some(Ref::Var(v)) => Some(v),
            _ => None,
        }
    }

    fn depend(&mut self, target: VarId, on: Vec<VarId>) {
        self.deps.entry(target).or_default().extend(on);
    }

    fn list(&mut self, list: &crate::ast::StmtList) {
        for b in &list.blocks {
            for c in b.cmds.iter() {
                self.cmd(c);
            }
            match &b.tail {
                Some(crate::ast::BlockTail::If(_)) | Some(crate::ast::BlockTail::While(_)) => {
                    // Guards and invariants: seeds (walked alone, without the nested lists).
                    let tail = b.tail.as_ref().expect("matched");
                    if let crate::ast::BlockTail::While(w) = tail {
                        if let Some(g) = &w.guard
                            && !self.checks_only
                        {
                            self.seed(g);
                        }
                        for spec in &w.invariants {
                            if let LoopSpec::Invariant { expr, .. } = spec {
                                self.seed(expr);
                            }
                        }
                    }
                    if let crate::ast::BlockTail::If(first) = tail {
                        let mut next = Some(&**first);
                        while let Some(i) = next {
                            if let Some(g) = &i.guard
                                && !self.checks_only
                            {
                                self.seed(g);
                            }
                            next = match &i.els {
                                Some(crate::ast::ElseBranch::If(e)) => Some(&**e),
                                _ => None,
                            };
                        }
                    }
                    for nested in tail.nested_lists() {
                        self.list(nested);
                    }
                }
                _ => {}
            }
        }
    }

    fn cmd(&mut self, c: &Cmd) {
        match &c.kind {
            CmdKind::Assign { lhss, rhss, .. } => {
                for (l, r) in lhss.iter().zip(rhss.iter()) {
                    let mut on = Vec::new();
                    self.vars(r, &mut on);
                    let mut indexes = Vec::new();
                    for x in cmd_exprs(&Cmd {
                        kind: CmdKind::Assign { lhss: Box::new([l.clone()]), attrs: Box::new([]), rhss: Box::new([]) },
                        span: c.span,
                    }) {
                        self.vars(x, &mut indexes);
                    }
                    on.extend(indexes);
                    if let Some(t) = self.var_of(root(l)) {
                        self.depend(t, on);
                    }
                }
            }
            CmdKind::Call(call) => {
                let symbols = self.typed.symbols();
                let proc = match self.typed.referent(&call.callee) {
                    Some(Ref::Procedure(p)) => Some(p),
                    _ => None,
                };
                let Some(p) = proc else {
                    for a in call.args.iter() {
                        self.seed(a);
                    }
                    return;
                };
                let info = symbols.procedure(p);
                let impls: Vec<&crate::typeck::ImplementationInfo> =
                    symbols.implementations.iter().filter(|i| i.procedure == Some(p)).collect();
                if impls.is_empty() {
                    // A contract stands for the callee: what it reads is checked.
                    for a in call.args.iter() {
                        self.seed(a);
                    }
                }
                for (k, a) in call.args.iter().enumerate() {
                    let mut on = Vec::new();
                    self.vars(a, &mut on);
                    let formals: Vec<VarId> = std::iter::once(info.ins.get(k).copied())
                        .chain(impls.iter().map(|i| i.ins.get(k).copied()))
                        .flatten()
                        .collect();
                    for f in formals {
                        self.depend(f, on.clone());
                    }
                }
                for (k, o) in call.outs.iter().enumerate() {
                    let Some(t) = self.var_of(o) else { continue };
                    let formals: Vec<VarId> = std::iter::once(info.outs.get(k).copied())
                        .chain(impls.iter().map(|i| i.outs.get(k).copied()))
                        .flatten()
                        .collect();
                    self.depend(t, formals);
                }
            }
            CmdKind::Havoc { .. } => {}
            CmdKind::Assume { .. } if self.checks_only => {}
            _ => {
                for x in cmd_exprs(c) {
                    self.seed(x);
                }
            }
        }
    }
}

// ---------------------------------------------------------------------------------------------
// Abstract(P, F)

fn run(typed: &TypedProgram, a: &Abstraction) -> Result<Program, PassError> {
    let all: FxHashSet<Symbol> = fields(typed).into_iter().collect();
    let untracked: FxHashSet<Symbol> = all.difference(&a.tracked).copied().collect();
    let types = field_types(typed, &untracked);
    let mut abstracted: FxHashMap<usize, Decl> = FxHashMap::default();
    for (index, d) in typed.program.decls.iter().enumerate() {
        let Some((name, body)) = named_body(d) else { continue };
        if a.only.is_some_and(|only| only != name) || a.concrete_impls.contains(&name) {
            continue;
        }
        let blocks =
            blocks_of(typed, body, false).map_err(|u| PassError::Unsupported { span: u.span, what: u.what })?;
        let mut r = Rewrite {
            typed,
            a,
            untracked: &untracked,
            locals: Vec::new(),
            declared: FxHashSet::default(),
            changed: false,
            read: FxHashSet::default(),
        };
        for c in blocks.iter().flat_map(|b| &b.cmds) {
            for x in cmd_exprs(c) {
                r.note_reads(x);
            }
        }
        let blocks = if a.summarize && a.only.is_some() { r.summarize(blocks) } else { blocks };
        let blocks: Vec<AstBlock> = blocks
            .into_iter()
            .map(|mut b| {
                b.cmds = b.cmds.iter().flat_map(|c| r.cmd(c)).collect();
                b
            })
            .collect();
        if !r.changed {
            // Left as written: vcgen sees the body it would see without the abstraction.
            continue;
        }
        let locals: Vec<LocalVars> =
            r.locals.iter().map(|(name, field)| local_decl(*name, types[field].clone(), body.span)).collect();
        let mut decl = with_blocks(d, blocks, locals);
        drop_unused_locals(&mut decl);
        abstracted.insert(index, decl);
    }
    Ok(Program { decls: replace_decls(&typed.program, abstracted) })
}

/// Drops the locals of `decl` (whose body [`with_blocks`] made) that nothing names any more:
/// the inliner's copies of untracked fields (for the callees' `old`), whose assignments the
/// abstraction dropped as dead. Each later pass, re-check and VC would otherwise carry them:
/// a driver's harness with 200 fields, every routine inlined, has a thousand. A local with a
/// `where` clause stays (havocking it assumes the clause).
fn drop_unused_locals(decl: &mut Decl) {
    struct Names<'a>(&'a mut FxHashSet<Symbol>);
    impl Names<'_> {
        fn attrs(&mut self, attrs: &[Attribute]) {
            for a in attrs {
                for p in a.params.iter() {
                    if let AttrParam::Expr(x) = p {
                        crate::walk::expr(self, x);
                    }
                }
            }
        }
    }
    impl crate::walk::Visitor for Names<'_> {
        fn expr(&mut self, e: &Expr) {
            if let ExprKind::Var(n) = &e.kind {
                self.0.insert(n.name);
            }
        }
        fn cmd(&mut self, c: &Cmd) {
            match &c.kind {
                CmdKind::Assign { lhss, attrs, .. } => {
                    self.0.extend(lhss.iter().map(|l| root(l).name));
                    self.attrs(attrs);
                }
                CmdKind::Havoc { vars } => self.0.extend(vars.iter().map(|v| v.name)),
                CmdKind::Call(call) => {
                    self.0.extend(call.outs.iter().map(|o| o.name));
                    self.attrs(&call.attrs);
                }
                CmdKind::ParCall { calls } => {
                    for call in calls.iter() {
                        self.0.extend(call.outs.iter().map(|o| o.name));
                        self.attrs(&call.attrs);
                    }
                }
                CmdKind::Unpack { vars, attrs, .. } => {
                    self.0.extend(vars.iter().map(|v| v.name));
                    self.attrs(attrs);
                }
                CmdKind::Assert { attrs, .. } | CmdKind::Assume { attrs, .. } => self.attrs(attrs),
                _ => {}
            }
        }
    }
    let body = match decl {
        Decl::Implementation(i) => &mut i.body,
        Decl::Procedure(p) => match &mut p.body {
            Some(b) => b,
            None => return,
        },
        _ => return,
    };
    let mut named = FxHashSet::default();
    for c in body.stmts.blocks.iter().flat_map(|b| b.cmds.iter()) {
        crate::walk::cmd(&mut Names(&mut named), c);
    }
    let mut locals = Vec::with_capacity(body.locals.len());
    for l in body.locals.iter() {
        let groups: Vec<VarGroup> = l
            .groups
            .iter()
            .filter_map(|g| {
                if g.where_clause.is_some() {
                    return Some(g.clone());
                }
                let names: Box<[Ident]> = g.names.iter().filter(|n| named.contains(&n.name)).copied().collect();
                (!names.is_empty()).then(|| VarGroup { names, ..g.clone() })
            })
            .collect();
        if !groups.is_empty() {
            locals.push(LocalVars { groups: groups.into(), ..l.clone() });
        }
    }
    body.locals = locals.into();
}

/// The declared (written) type of each field in `which`.
fn field_types(typed: &TypedProgram, which: &FxHashSet<Symbol>) -> FxHashMap<Symbol, crate::ast::Type> {
    let mut out = FxHashMap::default();
    for d in &typed.program.decls {
        if let Decl::Var(v) = d {
            for g in v.groups.iter() {
                for n in g.names.iter().filter(|n| which.contains(&n.name)) {
                    out.insert(n.name, g.ty.clone());
                }
            }
        }
    }
    out
}

struct Rewrite<'a> {
    typed: &'a TypedProgram,
    a: &'a Abstraction,
    untracked: &'a FxHashSet<Symbol>,
    /// Locals to declare: name, and the field whose type it has.
    locals: Vec<(Symbol, Symbol)>,
    declared: FxHashSet<Symbol>,
    /// Whether any command or loop was rewritten.
    changed: bool,
    /// The names the body's expressions read.
    read: FxHashSet<Symbol>,
}

fn e(kind: ExprKind, span: Span) -> Expr {
    Expr { kind, span, id: NodeId::NONE }
}

fn attr(key: &str, param: Option<&str>, span: Span) -> Attribute {
    let params = param.map(|p| vec![AttrParam::Str(p.to_string(), span)]).unwrap_or_default();
    Attribute { key: Symbol::intern(key), params: params.into(), span }
}

fn mark(key: &str, param: Option<&str>, span: Span) -> Cmd {
    Cmd {
        kind: CmdKind::Assume { attrs: Box::new([attr(key, param, span)]), expr: e(ExprKind::BoolLit(true), span) },
        span,
    }
}

/// The variable an assignment target assigns.
fn root(l: &AssignLhs) -> &Ident {
    match l {
        AssignLhs::Var(n) => n,
        AssignLhs::Select { base, .. } | AssignLhs::Field { base, .. } => root(base),
    }
}

impl Rewrite<'_> {
    fn untracked_field(&self, n: &Ident) -> bool {
        self.untracked.contains(&n.name) && global(self.typed, n).is_some()
    }

    fn local(&mut self, prefix: &str, field: Symbol) -> Symbol {
        let name = Symbol::intern(&format!("{prefix}{field}"));
        if self.declared.insert(name) {
            self.locals.push((name, field));
        }
        name
    }

    /// The untracked fields `c`'s expressions read, outside `old` and inside it, in order of
    /// first occurrence.
    fn reads(&self, c: &Cmd) -> (Vec<Symbol>, Vec<Symbol>) {
        struct V<'r, 'a> {
            r: &'r Rewrite<'a>,
            now: Vec<Symbol>,
            old: Vec<Symbol>,
        }
        impl V<'_, '_> {
            fn go(&mut self, e: &Expr, in_old: bool) {
                match &e.kind {
                    ExprKind::Var(n) if self.r.untracked_field(n) => {
                        let list = if in_old { &mut self.old } else { &mut self.now };
                        if !list.contains(&n.name) {
                            list.push(n.name);
                        }
                    }
                    ExprKind::Old(inner) => self.go(inner, true),
                    _ => e.for_each_child(&mut |c| self.go(c, in_old)),
                }
            }
        }
        let mut v = V { r: self, now: Vec::new(), old: Vec::new() };
        for x in cmd_exprs(c) {
            v.go(x, false);
        }
        (v.now, v.old)
    }

    /// `c` with untracked fields' reads replaced by their locals.
    fn substitute(&mut self, x: &Expr) -> Expr {
        struct R<'r, 'a> {
            r: &'r mut Rewrite<'a>,
            in_old: bool,
        }
        impl rewrite::Rewriter for R<'_, '_> {
            fn expr(&mut self, e: &Expr) -> Option<Expr> {
                match &e.kind {
                    ExprKind::Var(n) if self.r.untracked_field(n) => {
                        let prefix = if self.in_old { ABS_OLD } else { ABS };
                        let name = self.r.local(prefix, n.name);
                        Some(Expr { kind: ExprKind::Var(Ident::at(name, n.span)), span: e.span, id: NodeId::NONE })
                    }
                    ExprKind::Old(inner) => {
                        let was = std::mem::replace(&mut self.in_old, true);
                        let inner = rewrite::expr(self, inner);
                        self.in_old = was;
                        Some(Expr { kind: ExprKind::Old(Box::new(inner)), span: e.span, id: NodeId::NONE })
                    }
                    _ => None,
                }
            }
        }
        rewrite::expr(&mut R { r: self, in_old: false }, x)
    }

    fn substitute_lhs(&mut self, l: &AssignLhs) -> AssignLhs {
        match l {
            AssignLhs::Var(_) => l.clone(),
            AssignLhs::Select { base, indexes, span } => AssignLhs::Select {
                base: Box::new(self.substitute_lhs(base)),
                indexes: indexes.iter().map(|i| self.substitute(i)).collect(),
                span: *span,
            },
            AssignLhs::Field { base, field, span } => {
                AssignLhs::Field { base: Box::new(self.substitute_lhs(base)), field: *field, span: *span }
            }
        }
    }

    fn is_concrete(&self, g: Symbol) -> bool {
        self.a.concrete.contains(&g)
    }

    fn var(&self, name: Symbol, span: Span) -> Expr {
        e(ExprKind::Var(Ident::at(name, span)), span)
    }

    fn assign(&self, lhs: AssignLhs, rhs: Expr, span: Span) -> Cmd {
        Cmd {
            kind: CmdKind::Assign {
                lhss: Box::new([lhs]),
                attrs: Box::new([attr(NO_SWITCH, None, span)]),
                rhss: Box::new([rhs]),
            },
            span,
        }
    }

    fn note_reads(&mut self, e: &Expr) {
        struct V<'r>(&'r mut FxHashSet<Symbol>);
        impl crate::walk::Visitor for V<'_> {
            fn expr(&mut self, e: &Expr) {
                if let ExprKind::Var(n) = &e.kind {
                    self.0.insert(n.name);
                }
            }
        }
        crate::walk::expr(&mut V(&mut self.read), e);
    }

    /// The commands `c` becomes.
    fn cmd(&mut self, c: &Cmd) -> Vec<Cmd> {
        let (now, old) = self.reads(c);
        let writes = self.writes(c);
        if now.is_empty() && old.is_empty() && writes.is_empty() {
            return vec![c.clone()];
        }
        self.changed = true;
        // A copy of untracked fields into a local nothing reads (the inliner's snapshots of
        // the globals a callee modifies, for its `old`): dead, dropped with its fresh reads.
        if let CmdKind::Assign { lhss, .. } = &c.kind
            && let [AssignLhs::Var(x)] = &**lhss
            && global(self.typed, x).is_none()
            && !self.read.contains(&x.name)
            && writes.is_empty()
        {
            return Vec::new();
        }
        let span = c.span;
        let mut out = Vec::new();
        for (list, prefix) in [(&now, ABS), (&old, ABS_OLD)] {
            for &g in list {
                let local = self.local(prefix, g);
                if self.is_concrete(g) {
                    let read = self.var(g, span);
                    let read = if prefix == ABS_OLD { e(ExprKind::Old(Box::new(read)), span) } else { read };
                    out.push(self.assign(AssignLhs::Var(Ident::at(local, span)), read, span));
                } else {
                    out.push(Cmd { kind: CmdKind::Havoc { vars: Box::new([Ident::at(local, span)]) }, span });
                }
            }
        }
        match &c.kind {
            CmdKind::Assign { lhss, attrs, rhss } => {
                let mut kept_l = Vec::new();
                let mut kept_r = Vec::new();
                let mut marks = Vec::new();
                for (l, r) in lhss.iter().zip(rhss.iter()) {
                    let target = root(l);
                    let rhs = self.substitute(r);
                    let lhs = self.substitute_lhs(l);
                    if self.untracked_field(target) {
                        // Written before the other targets: it reads nothing they change.
                        if self.is_concrete(target.name) {
                            out.push(self.assign(lhs, rhs, span));
                        } else {
                            marks.push(mark(FIELD_MARK, Some(target.name.as_str()), span));
                        }
                    } else {
                        kept_l.push(lhs);
                        kept_r.push(rhs);
                    }
                }
                out.extend(marks);
                if !kept_l.is_empty() {
                    out.push(Cmd {
                        kind: CmdKind::Assign { lhss: kept_l.into(), attrs: attrs.clone(), rhss: kept_r.into() },
                        span,
                    });
                }
            }
            CmdKind::Havoc { vars } => {
                let mut kept = Vec::new();
                let mut after = Vec::new();
                for v in vars.iter() {
                    if self.untracked_field(v) {
                        if self.is_concrete(v.name) {
                            let local = self.local(ABS, v.name);
                            out.push(Cmd { kind: CmdKind::Havoc { vars: Box::new([Ident::at(local, span)]) }, span });
                            after.push(self.assign(AssignLhs::Var(*v), self.var(local, span), span));
                        } else {
                            after.push(mark(FIELD_MARK, Some(v.name.as_str()), span));
                        }
                    } else {
                        kept.push(*v);
                    }
                }
                if !kept.is_empty() {
                    out.push(Cmd { kind: CmdKind::Havoc { vars: kept.into() }, span });
                }
                out.extend(after);
            }
            CmdKind::Call(call) => {
                let mut call = (**call).clone();
                call.args = call.args.iter().map(|a| self.substitute(a)).collect();
                let mut after = Vec::new();
                let mut outs = Vec::new();
                for o in call.outs.iter() {
                    if self.untracked_field(o) {
                        let local = self.local(ABS, o.name);
                        outs.push(Ident::at(local, o.span));
                        if self.is_concrete(o.name) {
                            after.push(self.assign(AssignLhs::Var(*o), self.var(local, span), span));
                        } else {
                            after.push(mark(FIELD_MARK, Some(o.name.as_str()), span));
                        }
                    } else {
                        outs.push(*o);
                    }
                }
                call.outs = outs.into();
                out.push(Cmd { kind: CmdKind::Call(Box::new(call)), span });
                out.extend(after);
            }
            CmdKind::Assert { attrs, expr } => {
                let expr = self.substitute(expr);
                out.push(Cmd { kind: CmdKind::Assert { attrs: attrs.clone(), expr }, span });
            }
            CmdKind::Assume { attrs, expr } => {
                let expr = self.substitute(expr);
                out.push(Cmd { kind: CmdKind::Assume { attrs: attrs.clone(), expr }, span });
            }
            _ => {
                // Commands without field reads of their own kind (`unpack`, Civl's): their
                // expressions read the locals instead.
                let mut sub = SubstituteAll(self);
                out.push(rewrite::cmd(&mut sub, c));
            }
        }
        out
    }

    /// The untracked fields `c` writes.
    fn writes(&self, c: &Cmd) -> Vec<Symbol> {
        let targets: Vec<&Ident> = match &c.kind {
            CmdKind::Assign { lhss, .. } => lhss.iter().map(root).collect(),
            CmdKind::Havoc { vars } => vars.iter().collect(),
            CmdKind::Call(call) => call.outs.iter().collect(),
            _ => Vec::new(),
        };
        targets.into_iter().filter(|n| self.untracked_field(n)).map(|n| n.name).collect()
    }

    // -----------------------------------------------------------------------------------------
    // Loop summaries

    /// Whether `c` may stay inside a summarized loop: it reads and writes no global other than
    /// untracked fields, asserts nothing, calls nothing, and is no marker of another pass.
    fn summarizable(&self, c: &Cmd) -> bool {
        let mut globals_ok = true;
        for x in cmd_exprs(c) {
            struct V<'r, 'a>(&'r Rewrite<'a>, &'r mut bool);
            impl crate::walk::Visitor for V<'_, '_> {
                fn expr(&mut self, e: &Expr) {
                    if let ExprKind::Var(n) = &e.kind
                        && global(self.0.typed, n).is_some()
                        && !self.0.untracked_field(n)
                    {
                        *self.1 = false;
                    }
                }
            }
            crate::walk::expr(&mut V(self, &mut globals_ok), x);
        }
        if !globals_ok {
            return false;
        }
        match &c.kind {
            CmdKind::Assign { lhss, .. } => {
                lhss.iter().all(|l| global(self.typed, root(l)).is_none() || self.untracked_field(root(l)))
            }
            CmdKind::Havoc { vars } => vars.iter().all(|v| global(self.typed, v).is_none() || self.untracked_field(v)),
            // Branch guards only: no other pass's markers.
            CmdKind::Assume { attrs, .. } => attrs.iter().all(|a| a.key.as_str() == "partition"),
            _ => false,
        }
    }

    /// The locals `c` assigns (after the rewriting of its field accesses).
    fn assigned(&mut self, c: &Cmd, out: &mut Vec<Symbol>) {
        let mut push = |n: Symbol| {
            if !out.contains(&n) {
                out.push(n);
            }
        };
        match &c.kind {
            CmdKind::Assign { lhss, .. } => {
                for l in lhss.iter().map(root) {
                    if global(self.typed, l).is_none() {
                        push(l.name);
                    }
                }
            }
            CmdKind::Havoc { vars } => {
                for v in vars.iter().filter(|v| global(self.typed, v).is_none()) {
                    push(v.name);
                }
            }
            _ => {}
        }
    }

    /// Natural loops that can be summarized are: their heads havoc what they assign and go to
    /// their exits; their other blocks become unreachable and are dropped.
    fn summarize(&mut self, mut blocks: Vec<AstBlock>) -> Vec<AstBlock> {
        let n = blocks.len();
        if n == 0 {
            return blocks;
        }
        let loops = natural_loops(&blocks);
        let mut summarized: Vec<bool> = vec![false; n];
        for (head, body) in loops {
            if summarized[head] || body.iter().any(|&b| summarized[b]) {
                continue;
            }
            if !body.iter().all(|&b| blocks[b].cmds.iter().all(|c| self.summarizable(c))) {
                continue;
            }
            let mut modified = Vec::new();
            for &b in &body {
                for c in blocks[b].cmds.clone() {
                    for rewritten in self.cmd(&c) {
                        self.assigned(&rewritten, &mut modified);
                    }
                }
            }
            let mut exits = Vec::new();
            for &b in &body {
                for &s in &blocks[b].succs {
                    if !body.contains(&s) && !exits.contains(&s) {
                        exits.push(s);
                    }
                }
            }
            let span = blocks[head].tok.unwrap_or_default();
            let mut cmds = Vec::new();
            if !modified.is_empty() {
                let vars = modified.iter().map(|&m| Ident::at(m, span)).collect();
                cmds.push(Cmd { kind: CmdKind::Havoc { vars }, span });
            }
            cmds.push(mark(SUMMARY_MARK, None, span));
            blocks[head].cmds = cmds;
            blocks[head].succs = exits;
            for &b in &body {
                summarized[b] = true;
            }
        }
        if !summarized.iter().any(|&s| s) {
            return blocks;
        }
        self.changed = true;
        keep_reachable(blocks)
    }
}

/// Rewrites every expression of a command with the field locals.
struct SubstituteAll<'r, 'a>(&'r mut Rewrite<'a>);
impl rewrite::Rewriter for SubstituteAll<'_, '_> {
    fn expr(&mut self, e: &Expr) -> Option<Expr> {
        match &e.kind {
            ExprKind::Var(n) if self.0.untracked_field(n) => Some(self.0.substitute(e)),
            _ => None,
        }
    }
}

/// The expressions of a command (assignment targets' indexes included).
fn cmd_exprs(c: &Cmd) -> Vec<&Expr> {
    fn lhs<'c>(l: &'c AssignLhs, out: &mut Vec<&'c Expr>) {
        match l {
            AssignLhs::Var(_) => {}
            AssignLhs::Select { base, indexes, .. } => {
                lhs(base, out);
                out.extend(indexes.iter());
            }
            AssignLhs::Field { base, .. } => lhs(base, out),
        }
    }
    let mut out = Vec::new();
    match &c.kind {
        CmdKind::Assert { expr, .. } | CmdKind::Assume { expr, .. } => out.push(expr),
        CmdKind::Assign { lhss, rhss, .. } => {
            for l in lhss.iter() {
                lhs(l, &mut out);
            }
            out.extend(rhss.iter());
        }
        CmdKind::Call(call) => out.extend(call.args.iter()),
        CmdKind::ParCall { calls } => {
            for call in calls.iter() {
                out.extend(call.args.iter());
            }
        }
        CmdKind::Unpack { rhs, .. } => out.push(rhs),
        CmdKind::Measure { exprs, .. } => out.extend(exprs.iter()),
        _ => {}
    }
    out
}

/// The natural loops of a control-flow graph (entry: block 0), outermost first: each head
/// with the blocks of its loop (head included), the loops of one head merged.
fn natural_loops(blocks: &[AstBlock]) -> Vec<(usize, Vec<usize>)> {
    let n = blocks.len();
    // Iterative DFS: back edges go to a block still on the stack.
    let mut state = vec![0u8; n]; // 0 new, 1 on stack, 2 done
    let mut order = Vec::new();
    let mut back: Vec<(usize, usize)> = Vec::new();
    let mut stack = vec![(0usize, 0usize)];
    state[0] = 1;
    while let Some(&mut (b, ref mut i)) = stack.last_mut() {
        if *i < blocks[b].succs.len() {
            let s = blocks[b].succs[*i];
            *i += 1;
            match state[s] {
                0 => {
                    state[s] = 1;
                    stack.push((s, 0));
                }
                1 => back.push((b, s)),
                _ => {}
            }
        } else {
            state[b] = 2;
            order.push(b);
            stack.pop();
        }
    }
    let preds = {
        let mut p = vec![Vec::new(); n];
        for (b, block) in blocks.iter().enumerate() {
            for &s in &block.succs {
                p[s].push(b);
            }
        }
        p
    };
    let mut by_head: FxHashMap<usize, Vec<usize>> = FxHashMap::default();
    for (tail, head) in back {
        let body = by_head.entry(head).or_insert_with(|| vec![head]);
        let mut work = vec![tail];
        while let Some(b) = work.pop() {
            if !body.contains(&b) {
                body.push(b);
                work.extend(preds[b].iter().copied());
            }
        }
    }
    // Outermost first: heads in reverse postorder.
    let mut rpo_index = vec![usize::MAX; n];
    for (i, &b) in order.iter().rev().enumerate() {
        rpo_index[b] = i;
    }
    let mut loops: Vec<(usize, Vec<usize>)> = by_head.into_iter().collect();
    loops.sort_by_key(|(h, _)| rpo_index[*h]);
    loops
}

/// The blocks reachable from the first, successors renumbered.
fn keep_reachable(blocks: Vec<AstBlock>) -> Vec<AstBlock> {
    let mut seen = vec![false; blocks.len()];
    let mut work = vec![0];
    while let Some(b) = work.pop() {
        if !std::mem::replace(&mut seen[b], true) {
            work.extend(blocks[b].succs.iter().copied());
        }
    }
    let mut index = vec![usize::MAX; blocks.len()];
    let mut next = 0;
    for (i, s) in seen.iter().enumerate() {
        if *s {
            index[i] = next;
            next += 1;
        }
    }
    blocks
        .into_iter()
        .enumerate()
        .filter(|(i, _)| seen[*i])
        .map(|(_, mut b)| {
            b.succs = b.succs.iter().map(|&s| index[s]).collect();
            b
        })
        .collect()
}

// ---------------------------------------------------------------------------------------------
// Pinning a path

fn pin(typed: &TypedProgram, p: &PinSpec) -> Result<Program, PassError> {
    let unsupported = |what: String| PassError::Unsupported { span: None, what };
    let Some((index, body)) = typed
        .program
        .decls
        .iter()
        .enumerate()
        .find_map(|(i, d)| named_body(d).filter(|(name, _)| *name == p.implementation).map(|(_, b)| (i, b)))
    else {
        return Err(unsupported(format!("pinning a path of {}, which has no body", p.implementation)));
    };
    let blocks = blocks_of(typed, body, false).map_err(|u| PassError::Unsupported { span: u.span, what: u.what })?;
    let by_label: FxHashMap<&str, usize> = blocks.iter().enumerate().map(|(i, b)| (b.label.as_str(), i)).collect();
    // The path's blocks that the program has (vcgen may name blocks of its own).
    let mut path: Vec<usize> = Vec::new();
    for label in &p.path {
        if let Some(&b) = by_label.get(label.as_str()) {
            if path.contains(&b) {
                return Err(unsupported("pinning a path that visits a block twice".into()));
            }
            path.push(b);
        }
    }
    if path.is_empty() {
        return Err(unsupported("pinning an empty path".into()));
    }
    // vcgen merges chains of blocks and drops empty ones: the blocks between two of the
    // path's (and before its first) are found again, as the shortest way through blocks not
    // on the path.
    let on_path: FxHashSet<usize> = path.iter().copied().collect();
    let mut full: Vec<usize> = Vec::new();
    let mut from = 0;
    if path[0] != 0 {
        full.push(0);
    }
    for &to in &path {
        if from != to || full.is_empty() {
            let way = way_between(&blocks, from, to, &on_path).ok_or_else(|| {
                unsupported(format!("pinning a path with no way {} -> {}", blocks[from].label, blocks[to].label))
            })?;
            full.extend(way);
        }
        if full.last() != Some(&to) {
            full.push(to);
        }
        from = to;
    }
    let mut seen = FxHashSet::default();
    if !full.iter().all(|b| seen.insert(*b)) {
        return Err(unsupported("pinning a path that visits a block twice".into()));
    }
    let path = full;
    // A loop the path enters is cut as vcgen cuts it (the path is one of the cut graph): at
    // its head the invariants (the head's leading assertions) are checked, what the loop
    // modifies is havocked, and the invariants are assumed; a path that ends where the body
    // goes back to the head checks them there.
    let loops = natural_loops(&blocks);
    let invariants = |h: usize| -> Vec<Cmd> {
        blocks[h].cmds.iter().take_while(|c| matches!(c.kind, CmdKind::Assert { .. })).cloned().collect()
    };
    let pinned: Vec<AstBlock> = path
        .iter()
        .enumerate()
        .map(|(i, &b)| {
            let mut block = blocks[b].clone();
            if let Some((_, body)) = loops.iter().find(|(h, _)| *h == b) {
                let checks = invariants(b);
                let rest = block.cmds.split_off(checks.len());
                let modified = loop_targets(typed, &blocks, body);
                if !modified.is_empty() {
                    let span = block.tok.unwrap_or_default();
                    let vars = modified.iter().map(|&m| Ident::at(m, span)).collect();
                    block.cmds.push(Cmd { kind: CmdKind::Havoc { vars }, span });
                }
                block.cmds.extend(checks.into_iter().map(|c| match c.kind {
                    CmdKind::Assert { attrs, expr } => Cmd { kind: CmdKind::Assume { attrs, expr }, span: c.span },
                    _ => c,
                }));
                block.cmds.extend(rest);
            }
            if i + 1 == path.len() {
                for (h, body) in &loops {
                    if body.contains(&b) && blocks[b].succs.contains(h) {
                        block.cmds.extend(invariants(*h));
                    }
                }
            }
            block.succs = if i + 1 < path.len() { vec![i + 1] } else { Vec::new() };
            block
        })
        .collect();
    let pinned = with_blocks(&typed.program.decls[index], pinned, Vec::new());
    Ok(Program { decls: replace_decls(&typed.program, [(index, pinned)].into_iter().collect()) })
}

/// What a loop may change, as vcgen havocs it at the loop's head: the variables its commands
/// assign or havoc, the outs of its calls, and what its callees modify.
fn loop_targets(typed: &TypedProgram, blocks: &[AstBlock], body: &[usize]) -> Vec<Symbol> {
    let mut out: Vec<Symbol> = Vec::new();
    let mut push = |n: Symbol| {
        if !out.contains(&n) {
            out.push(n);
        }
    };
    for &b in body {
        for c in &blocks[b].cmds {
            match &c.kind {
                CmdKind::Assign { lhss, .. } => lhss.iter().for_each(|l| push(root(l).name)),
                CmdKind::Havoc { vars } => vars.iter().for_each(|v| push(v.name)),
                CmdKind::Call(call) => {
                    call.outs.iter().for_each(|o| push(o.name));
                    if let Some(Ref::Procedure(p)) = typed.referent(&call.callee) {
                        for &g in &typed.symbols().procedure(p).modifies {
                            push(typed.symbols().var(g).name.name);
                        }
                    }
                }
                _ => {}
            }
        }
    }
    out
}

/// The blocks strictly between `from` and `to` on a shortest way that enters no block of
/// `avoid` but `to`; `to == from` (the entry being the path's first block) gives none.
fn way_between(blocks: &[AstBlock], from: usize, to: usize, avoid: &FxHashSet<usize>) -> Option<Vec<usize>> {
    if from == to {
        return Some(Vec::new());
    }
    let mut previous = vec![usize::MAX; blocks.len()];
    let mut queue = std::collections::VecDeque::from([from]);
    previous[from] = from;
    while let Some(b) = queue.pop_front() {
        for &s in &blocks[b].succs {
            if previous[s] != usize::MAX || (avoid.contains(&s) && s != to) {
                continue;
            }
            previous[s] = b;
            if s == to {
                let mut way = Vec::new();
                let mut at = previous[to];
                while at != from {
                    way.push(at);
                    at = previous[at];
                }
                way.reverse();
                return Some(way);
            }
            queue.push_back(s);
        }
    }
    None
}

/// The fields a path of an implementation touches (abstracted reads and dropped writes), and
/// whether it passes a loop summary: read off the abstraction's blocks on the path.
pub fn touched_on_path(typed: &TypedProgram, implementation: Symbol, path: &[String]) -> (FxHashSet<Symbol>, bool) {
    let mut fields = FxHashSet::default();
    let mut summary = false;
    let body =
        typed.program.decls.iter().filter_map(named_body).find(|(name, _)| *name == implementation).map(|(_, b)| b);
    let Some(body) = body else { return (fields, summary) };
    let Ok(blocks) = blocks_of(typed, body, false) else { return (fields, summary) };
    let on_path: FxHashSet<&str> = path.iter().map(String::as_str).collect();
    for b in blocks.iter().filter(|b| on_path.contains(b.label.as_str())) {
        for c in &b.cmds {
            match &c.kind {
                CmdKind::Havoc { vars } => {
                    for v in vars.iter() {
                        let name = v.name.as_str();
                        if let Some(f) = name.strip_prefix(ABS_OLD).or_else(|| name.strip_prefix(ABS)) {
                            fields.insert(Symbol::intern(f));
                        }
                    }
                }
                CmdKind::Assume { attrs, .. } => {
                    for a in attrs.iter() {
                        if a.key.as_str() == FIELD_MARK
                            && let Some(AttrParam::Str(f, _)) = a.params.first()
                        {
                            fields.insert(Symbol::intern(f));
                        }
                        if a.key.as_str() == SUMMARY_MARK {
                            summary = true;
                        }
                    }
                }
                _ => {}
            }
        }
    }
    (fields, summary)
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::passes::Pass;
    use crate::passes::tests::typed;

    fn abstracted(text: &str, tracked: &[&str], concrete: &[&str], summarize: bool, only: Option<&str>) -> String {
        let t = typed(text);
        let a = Abstraction {
            tracked: tracked.iter().map(|s| Symbol::intern(s)).collect(),
            concrete: concrete.iter().map(|s| Symbol::intern(s)).collect(),
            summarize,
            only: only.map(Symbol::intern),
            concrete_impls: FxHashSet::default(),
        };
        let program =
            FieldAbstraction(Some(Arc::new(a))).run(&t, &mut Default::default()).expect("runs").expect("changes");
        let printed = crate::printer::print_program(&program, &Default::default());
        // The output must check again.
        let mut sources = crate::source::SourceMap::new();
        let id = sources.add("t.bpl", "t.bpl", printed.clone());
        let parsed = crate::parser::parse(&mut sources, id, &[]).expect("the abstraction parses");
        assert!(
            matches!(
                crate::typeck::run(parsed, &crate::typeck::TypeckOptions::default(), false),
                crate::typeck::Outcome::Typed(..)
            ),
            "the abstraction does not check:\n{printed}"
        );
        printed
    }

    const PROGRAM: &str = "var F: [int]int; var G: [int]int; var x: int;\n\
        procedure P(i: int) returns (r: int) modifies F, G, x; {\n\
          r := F[i] + G[i];\n\
          G[i] := r; F[i] := 1;\n\
          x, G[i] := G[i], x;\n\
          havoc G;\n\
          assert F[i] == 1;\n\
        }\n";

    #[test]
    fn untracked_reads_are_fresh_and_writes_are_dropped() {
        let out = abstracted(PROGRAM, &["F"], &[], false, None);
        assert!(out.contains("havoc abs$G;\n    r := F[i] + abs$G[i];"), "{out}");
        assert!(out.contains("assume {:rboogie_field \"G\"} true;\n    F[i] := 1;"), "{out}");
        assert!(out.contains("assume {:rboogie_field \"G\"} true;\n    x := abs$G[i];"), "{out}");
        assert!(!out.contains("havoc G"), "{out}");
        assert!(out.contains("assert F[i] == 1;"), "{out}");
        assert!(out.contains("abs$G: [int]int"), "{out}");
    }

    #[test]
    fn concretized_fields_are_accessed_without_switches() {
        let out = abstracted(PROGRAM, &["F"], &["G"], false, None);
        assert!(out.contains("abs$G := {:rboogie_no_switch} G;\n    r := F[i] + abs$G[i];"), "{out}");
        assert!(out.contains("G[i] := {:rboogie_no_switch} r;"), "{out}");
        // The field's write goes first: it reads the state before the assignment.
        assert!(out.contains("G[i] := {:rboogie_no_switch} x;\n    x := abs$G[i];"), "{out}");
        assert!(out.contains("havoc abs$G;\n    G := {:rboogie_no_switch} abs$G;"), "{out}");
    }

    #[test]
    fn old_reads_get_their_own_local() {
        let text = "var F: [int]int;\nprocedure P(i: int) modifies F; { assert F[i] == old(F[i]); }\n";
        let out = abstracted(text, &[], &[], false, None);
        assert!(out.contains("havoc abs$F;\n    havoc abs$old$F;\n    assert abs$F[i] == old(abs$old$F[i]);"), "{out}");
    }

    #[test]
    fn a_loop_over_untracked_fields_only_is_summarized() {
        let text = "var Buf: [int]int; var Done: [int]bool;\n\
            procedure Main() modifies Done; {\n  var i: int; var s: int;\n\
              i := 0; s := 0;\n  while (i < 100) { s := s + Buf[i]; i := i + 1; }\n\
              Done[0] := true;\n  assert Done[0];\n}\n";
        let out = abstracted(text, &["Done"], &[], true, Some("Main"));
        assert!(out.contains("assume {:rboogie_summary} true;"), "{out}");
        assert!(out.contains("havoc s, abs$Buf, i;") || out.contains("havoc abs$Buf, s, i;"), "{out}");
        assert!(!out.contains("s := s + abs$Buf[i]"), "{out}");
        // Tracked: the loop stays.
        let out = abstracted(text, &["Done", "Buf"], &[], true, Some("Main"));
        assert!(!out.contains("rboogie_summary"), "{out}");
    }

    #[test]
    fn a_loop_that_writes_a_global_or_asserts_stays() {
        let text = "var Buf: [int]int; var n: int;\n\
            procedure Main() modifies n; {\n  var i: int;\n\
              i := 0;\n  while (i < 10) { n := n + Buf[i]; i := i + 1; }\n\
              while (i < 20) { assert i >= 0; i := i + 1; }\n}\n";
        let out = abstracted(text, &[], &[], true, Some("Main"));
        assert!(!out.contains("rboogie_summary"), "{out}");
    }

    #[test]
    fn a_dead_copy_of_an_untracked_field_is_dropped() {
        let text = "var F: [int]int; var G: [int]int;\n\
            procedure P(i: int) modifies F; { var snap: [int]int; var used: int;\n\
              snap := G; used := G[i]; F[i] := used; assert F[i] == used; }\n";
        let out = abstracted(text, &["F"], &[], false, None);
        assert!(!out.contains("snap :="), "{out}");
        assert!(out.contains("havoc abs$G;\n    used := abs$G[i];"), "{out}");
        // Nothing names `snap` any more: its declaration goes too.
        assert!(!out.contains("snap"), "{out}");
        assert!(out.contains("var used: int;"), "{out}");
    }

    #[test]
    fn locals_with_where_clauses_stay() {
        let text = "var F: [int]int; var G: [int]int;\n\
            procedure P(i: int) modifies F; { var snap: [int]int where snap[0] == 0; var dead: [int]int;\n\
              snap := G; dead := G; F[i] := 1; assert F[i] == 1; }\n";
        let out = abstracted(text, &["F"], &[], false, None);
        assert!(!out.contains("snap :="), "{out}");
        assert!(out.contains("var snap: [int]int where snap[0] == 0;"), "{out}");
        assert!(!out.contains("dead"), "{out}");
    }

    #[test]
    fn asserted_fields_are_those_flowing_into_checks() {
        let t = typed(
            "var Req: [int]int; var Done: [int]bool; var Lock: [int]bool; var Stat: [int]int;\n\
             procedure P(d: int) modifies Stat; { var r: int;\n\
               assume !Lock[d]; r := Req[d]; Stat[d] := Stat[d] + 1; if (Stat[d] > 0) { assert !Done[r]; } }\n",
        );
        let sorted = |set: FxHashSet<Symbol>| {
            let mut names: Vec<&str> = set.iter().map(|s| s.as_str()).collect();
            names.sort_unstable();
            names.join(",")
        };
        // Through the assertion: `Done`, and `Req` through `r`.
        assert_eq!(sorted(asserted_fields(&t)), "Done,Req");
        // The assumption and the branch count too for feasibility.
        assert_eq!(sorted(relevant_fields(&t)), "Done,Lock,Req,Stat");
    }

    #[test]
    fn fields_are_the_global_maps() {
        let t = typed("var A: [int]int; var b: int; const C: [int]int; var D: [int][int]bool;\n");
        let names: Vec<&str> = fields(&t).iter().map(|s| s.as_str()).collect();
        assert_eq!(names, ["A", "D"]);
    }

    #[test]
    fn contracts_of_bodiless_procedures_force_their_fields() {
        let text = "var A: [int]int; var B: [int]int; var C: [int]int;\n\
            procedure Ext(); requires A[0] == 0; modifies A;\n\
            procedure P() requires B[0] == 0; modifies A, B; { call Ext(); assert C[1] == 1; }\n";
        let t = typed(text);
        let f = |s: FxHashSet<Symbol>| {
            let mut v: Vec<&str> = s.iter().map(|s| s.as_str()).collect();
            v.sort();
            v
        };
        assert_eq!(f(forced(&t, true)), ["A"]);
        assert_eq!(f(forced(&t, false)), ["A", "B"]);
        assert_eq!(f(property_fields(&t)), ["A", "B", "C"]);
    }
}
