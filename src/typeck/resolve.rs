//! Name resolution (Boogie's `Resolve` methods): see [`super`] for what it produces.
//!
//! Expects a parsed [`Program`]; guarantees, when it reports no error, that every identifier
//! occurrence is bound in [`Resolution::refs`], every type written in the program is resolved
//! in [`Resolution::types`] and every expression carries a [`crate::ast::NodeId`].
//!
//! How it works: one walk numbers the expressions (in tree order); then the resolver follows
//! Boogie's `Program.Resolve` step by step, because Boogie's error order is the order of that
//! walk: register every top-level name (with `{:extern}` duplicates dropped), resolve type
//! constructors, synonyms (a fixed point, cycles reported) and datatype constructors, then
//! every other declaration in program order, then the where clauses of globals.
//!
//! Boogie quirks kept on purpose, because they show in its error output:
//! - A declaration such as `procedure P() { ... }` is a procedure *and* an implementation whose
//!   formals are copies (types unresolved again, where clauses dropped): errors in the formals'
//!   types and attributes come twice. The implementation's formals are variables of their own
//!   ([`super::ImplementationInfo::ins`]); the binder positions in `refs` name the procedure's.
//! - `x, y: T` shares one type and one where clause between the names: the type is resolved
//!   once per name (its errors repeat), the where clause too (errors of names that do not
//!   resolve repeat).
//! - A structured `if`/`while` guard is resolved where Boogie's block translation puts it:
//!   as `assume g` before the branch and again as `assume !g` after it.
//! - `assume` resolves its attributes twice; `call` resolves them twice when it resolves.
//! - A function with a body that is neither `{:inline}` nor `{:define}` becomes an axiom
//!   `forall formals :: {f(formals)} f(formals) == body` carrying the function's attributes;
//!   the body is resolved there, after the function.
//! - `forall x :: forall y :: e` without triggers is one quantifier over `x, y`.
//!
//! Re-resolving something Boogie has already resolved ("replay") reports only what Boogie
//! reports again: names that did not resolve, `old` misuse, trigger shapes, arity errors in
//! types; not the errors of names that did resolve, nor types it already replaced by `bool`.
//!
//! Identifier scopes are one hash map from a name to a stack of bindings (with the scope depth
//! of each), plus a log of the names each scope declared: lookups and declarations cost one
//! hash probe whatever the nesting.

use std::rc::Rc;

use rustc_hash::{FxHashMap, FxHashSet};

use super::types::{MapType, SynonymType};
use super::{
    DeclIndex, FunctionId, FunctionInfo, FunctionKind, ImplementationId, ImplementationInfo, LabelId, LabelInfo,
    ProcedureId, ProcedureInfo, Ref, Resolution, Type, TypeCtorId, TypeCtorInfo, TypeVarId, TypeVarInfo, TypeckOptions,
    VarId, VarInfo, VarKind,
};
use crate::ast::{
    self, ActionSpec, AssignLhs, AttrParam, Attribute, BigBlock, BinaryOp, BlockTail, Body, CallCmd, Cmd, CmdKind,
    Decl, ElseBranch, Expr, ExprKind, Ident, LoopSpec, Program, QuantKind, Spec, SpecTransfer, StmtList, Symbol,
    TypeKind, UnaryOp, VarGroup, YieldClauseBody, YieldSpec,
};
use crate::diagnostics::{Diagnostic, Phase};

/// Resolves `program`, numbering its expressions. Errors are [`crate::diagnostics::Phase::Resolve`].
pub fn run(program: &mut Program, options: &TypeckOptions) -> (Resolution, Vec<Diagnostic>) {
    run_with(program, options, number::Counter::default()).0
}

/// [`run`], also returning the identities the program's nodes had before they were numbered
/// afresh, in tree order, each with its kind: node `k` of the result had `old[k]`
/// ([`super::compare`] matches a pass's typed output with a check from scratch this way).
pub fn run_recording(
    program: &mut Program,
    options: &TypeckOptions,
) -> (Resolution, Vec<Diagnostic>, Vec<(ast::NodeId, NodeKind)>) {
    let counter = number::Counter { record: Some(Vec::new()), ..Default::default() };
    let ((resolution, diagnostics), counter) = run_with(program, options, counter);
    (resolution, diagnostics, counter.record.unwrap_or_default())
}

/// What a numbered node is.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum NodeKind {
    Ident,
    Type,
    Expr,
}

fn run_with(
    program: &mut Program,
    options: &TypeckOptions,
    mut counter: number::Counter,
) -> ((Resolution, Vec<Diagnostic>), number::Counter) {
    let with_lambdas = number::program(program, &mut counter);
    let mut resolver = Resolver::new(options);
    resolver.res.expr_count = counter.next;
    resolver.res.decls_with_lambdas = with_lambdas;
    let n = counter.next as usize;
    resolver.res.refs = super::NodeMap::with_len(n);
    resolver.program(program);
    ((resolver.res, resolver.diags), counter)
}

// ---------------------------------------------------------------------------------------------
// Numbering

/// Gives every expression, identifier occurrence and written type of the program a
/// [`crate::ast::NodeId`], in tree order (one numbering for the three): the keys of the
/// resolution's and the checker's side tables. Every [`Ident`] and [`ast::Type`] field of the
/// tree is visited here, so that two copies of one occurrence never share a key.
mod number {
    use crate::ast::*;

    /// The numbering's state: the next id, the lambdas met so far, and (when asked for) the
    /// identities the nodes had before, in order.
    #[derive(Default)]
    pub struct Counter {
        pub next: u32,
        pub(super) lambdas: u32,
        pub record: Option<Vec<(NodeId, super::NodeKind)>>,
    }

    fn next(n: &mut Counter, old: NodeId, kind: super::NodeKind) -> NodeId {
        if let Some(record) = &mut n.record {
            record.push((old, kind));
        }
        let id = NodeId(n.next);
        n.next += 1;
        id
    }

    fn id(i: &mut Ident, n: &mut Counter) {
        i.id = next(n, i.id, super::NodeKind::Ident);
    }

    fn ids(is: &mut [Ident], n: &mut Counter) {
        for i in is {
            id(i, n);
        }
    }

    fn opt_id(i: &mut Option<Ident>, n: &mut Counter) {
        if let Some(i) = i {
            id(i, n);
        }
    }

    fn ty(t: &mut Type, n: &mut Counter) {
        t.id = next(n, t.id, super::NodeKind::Type);
        match &mut t.kind {
            TypeKind::Int | TypeKind::Real | TypeKind::Bool => {}
            TypeKind::Named { name, args } => {
                id(name, n);
                for a in args.iter_mut() {
                    ty(a, n);
                }
            }
            TypeKind::Map(m) => {
                ids(&mut m.type_params, n);
                for a in m.args.iter_mut() {
                    ty(a, n);
                }
                ty(&mut m.result, n);
            }
        }
    }

    /// Numbers `p`; returns the declarations that contain a lambda, in order.
    pub fn program(p: &mut Program, n: &mut Counter) -> Vec<super::DeclIndex> {
        let mut with_lambdas = Vec::new();
        for (i, d) in p.decls.iter_mut().enumerate() {
            let before = n.lambdas;
            decl(d, n);
            if n.lambdas != before {
                with_lambdas.push(super::DeclIndex(i as u32));
            }
        }
        with_lambdas
    }

    fn param(p: &mut FnParam, n: &mut Counter) {
        attrs(&mut p.attrs, n);
        opt_id(&mut p.name, n);
        ty(&mut p.ty, n);
    }

    fn decl(d: &mut Decl, n: &mut Counter) {
        match d {
            Decl::Type(t) => {
                attrs(&mut t.attrs, n);
                id(&mut t.name, n);
                ids(&mut t.params, n);
                if let Some(s) = &mut t.synonym {
                    ty(s, n);
                }
            }
            Decl::Datatype(d) => {
                attrs(&mut d.attrs, n);
                id(&mut d.name, n);
                ids(&mut d.type_params, n);
                for c in &mut d.ctors {
                    id(&mut c.name, n);
                    groups(&mut c.fields, n);
                }
            }
            Decl::Const(c) => {
                attrs(&mut c.attrs, n);
                ids(&mut c.names, n);
                ty(&mut c.ty, n);
                if let Some(order) = &mut c.order {
                    for (_, parent) in order.parents.iter_mut() {
                        id(parent, n);
                    }
                }
                if let Some(axioms) = &mut c.uses {
                    for a in axioms {
                        axiom(a, n);
                    }
                }
            }
            Decl::Function(f) => {
                attrs(&mut f.attrs, n);
                id(&mut f.name, n);
                ids(&mut f.type_params, n);
                for p in &mut f.params {
                    param(p, n);
                }
                param(&mut f.result, n);
                if let Some(b) = &mut f.body {
                    expr(b, n);
                }
                if let Some(axioms) = &mut f.uses {
                    for a in axioms {
                        axiom(a, n);
                    }
                }
            }
            Decl::Axiom(a) => axiom(a, n),
            Decl::Var(v) => {
                attrs(&mut v.attrs, n);
                groups(&mut v.groups, n);
            }
            Decl::Procedure(p) => {
                attrs(&mut p.attrs, n);
                id(&mut p.name, n);
                ids(&mut p.type_params, n);
                groups(&mut p.ins, n);
                groups(&mut p.outs, n);
                for s in &mut p.specs {
                    match s {
                        Spec::Requires { attrs: a, expr: e, .. } | Spec::Ensures { attrs: a, expr: e, .. } => {
                            attrs(a, n);
                            expr(e, n);
                        }
                        Spec::Modifies { vars, .. } => ids(vars, n),
                        Spec::Measure { attrs: a, exprs, .. } => {
                            attrs(a, n);
                            for e in exprs {
                                expr(e, n);
                            }
                        }
                    }
                }
                if let Some(b) = &mut p.body {
                    body(b, n);
                }
            }
            Decl::Implementation(i) => {
                attrs(&mut i.attrs, n);
                id(&mut i.name, n);
                ids(&mut i.type_params, n);
                groups(&mut i.ins, n);
                groups(&mut i.outs, n);
                body(&mut i.body, n);
            }
            Decl::YieldInvariant(y) => {
                attrs(&mut y.attrs, n);
                id(&mut y.name, n);
                groups(&mut y.params, n);
                for (a, e, _) in &mut y.preserves {
                    attrs(a, n);
                    expr(e, n);
                }
            }
            Decl::Action(a) => {
                attrs(&mut a.attrs, n);
                id(&mut a.name, n);
                groups(&mut a.ins, n);
                groups(&mut a.outs, n);
                for s in &mut a.specs {
                    match s {
                        ActionSpec::Refines { attrs: at, name, .. } => {
                            attrs(at, n);
                            id(name, n);
                        }
                        ActionSpec::Modifies { vars, .. } => ids(vars, n),
                        ActionSpec::Requires { body: b, .. } => clause(b, n),
                        ActionSpec::Asserts { attrs: at, expr: e, .. } => {
                            attrs(at, n);
                            expr(e, n);
                        }
                    }
                }
                if let Some(b) = &mut a.body {
                    body(b, n);
                }
            }
            Decl::YieldProcedure(y) => {
                attrs(&mut y.attrs, n);
                id(&mut y.name, n);
                groups(&mut y.ins, n);
                groups(&mut y.outs, n);
                for s in &mut y.specs {
                    match s {
                        YieldSpec::Refines { attrs: at, name, .. } => {
                            attrs(at, n);
                            id(name, n);
                        }
                        YieldSpec::RefinesInline { attrs: at, action_attrs, name, body: b, .. } => {
                            attrs(at, n);
                            attrs(action_attrs, n);
                            id(name, n);
                            body(b, n);
                        }
                        YieldSpec::Requires { body: b, .. }
                        | YieldSpec::Preserves { body: b, .. }
                        | YieldSpec::Ensures { body: b, .. } => clause(b, n),
                        YieldSpec::Measure { attrs: at, exprs, .. } => {
                            attrs(at, n);
                            for e in exprs {
                                expr(e, n);
                            }
                        }
                        YieldSpec::Modifies { vars, .. } => ids(vars, n),
                    }
                }
                if let Some(b) = &mut y.body {
                    body(b, n);
                }
            }
        }
    }

    fn clause(c: &mut YieldClauseBody, n: &mut Counter) {
        match c {
            YieldClauseBody::Expr { attrs: a, expr: e } => {
                attrs(a, n);
                expr(e, n);
            }
            YieldClauseBody::Call(c) => call(c, n),
        }
    }

    fn axiom(a: &mut AxiomDecl, n: &mut Counter) {
        attrs(&mut a.attrs, n);
        expr(&mut a.expr, n);
    }

    fn attrs(attrs: &mut [Attribute], n: &mut Counter) {
        for a in attrs {
            for p in &mut a.params {
                if let AttrParam::Expr(e) = p {
                    expr(e, n);
                }
            }
        }
    }

    fn groups(groups: &mut [VarGroup], n: &mut Counter) {
        for g in groups {
            attrs(&mut g.attrs, n);
            ids(&mut g.names, n);
            ty(&mut g.ty, n);
            if let Some(w) = &mut g.where_clause {
                expr(w, n);
            }
        }
    }

    fn locals(locals: &mut [LocalVars], n: &mut Counter) {
        for l in locals {
            attrs(&mut l.attrs, n);
            groups(&mut l.groups, n);
        }
    }

    fn body(b: &mut Body, n: &mut Counter) {
        locals(&mut b.locals, n);
        stmts(&mut b.stmts, n);
    }

    fn stmts(s: &mut StmtList, n: &mut Counter) {
        for b in &mut s.blocks {
            opt_id(&mut b.label, n);
            for c in &mut b.cmds {
                cmd(c, n);
            }
            match &mut b.tail {
                None => {}
                Some(BlockTail::If(i)) => if_cmd(i, n),
                Some(BlockTail::While(w)) => {
                    if let Some(g) = &mut w.guard {
                        expr(g, n);
                    }
                    for inv in &mut w.invariants {
                        match inv {
                            LoopSpec::Invariant { attrs: a, expr: e, .. } => {
                                attrs(a, n);
                                expr(e, n);
                            }
                            LoopSpec::YieldInvariant { attrs: a, call: c, .. } => {
                                attrs(a, n);
                                call(c, n);
                            }
                            LoopSpec::Measure { attrs: a, exprs, .. } => {
                                attrs(a, n);
                                for e in exprs {
                                    expr(e, n);
                                }
                            }
                        }
                    }
                    stmts(&mut w.body, n);
                }
                Some(BlockTail::Goto { attrs: a, targets, .. }) => {
                    attrs(a, n);
                    ids(targets, n);
                }
                Some(BlockTail::Return { attrs: a, .. }) => attrs(a, n),
                Some(BlockTail::Break { label, .. }) => opt_id(label, n),
            }
        }
    }

    fn if_cmd(i: &mut IfCmd, n: &mut Counter) {
        attrs(&mut i.attrs, n);
        if let Some(g) = &mut i.guard {
            expr(g, n);
        }
        stmts(&mut i.then, n);
        match &mut i.els {
            None => {}
            Some(ElseBranch::If(e)) => if_cmd(e, n),
            Some(ElseBranch::Block(b)) => stmts(b, n),
        }
    }

    fn call(c: &mut CallCmd, n: &mut Counter) {
        attrs(&mut c.attrs, n);
        ids(&mut c.outs, n);
        id(&mut c.callee, n);
        for a in &mut c.args {
            expr(a, n);
        }
    }

    fn lhs(l: &mut AssignLhs, n: &mut Counter) {
        match l {
            AssignLhs::Var(v) => id(v, n),
            AssignLhs::Select { base, indexes, .. } => {
                lhs(base, n);
                for e in indexes {
                    expr(e, n);
                }
            }
            AssignLhs::Field { base, field, .. } => {
                lhs(base, n);
                id(field, n);
            }
        }
    }

    fn cmd(c: &mut Cmd, n: &mut Counter) {
        match &mut c.kind {
            CmdKind::Assert { attrs: a, expr: e } | CmdKind::Assume { attrs: a, expr: e } => {
                attrs(a, n);
                expr(e, n);
            }
            CmdKind::Havoc { vars } => ids(vars, n),
            CmdKind::HideReveal { name, .. } => opt_id(name, n),
            CmdKind::ChangeScope { .. } => {}
            CmdKind::Assign { lhss, attrs: a, rhss } => {
                for l in lhss {
                    lhs(l, n);
                }
                attrs(a, n);
                for e in rhss {
                    expr(e, n);
                }
            }
            CmdKind::Unpack { ctor, vars, attrs: a, rhs } => {
                id(ctor, n);
                ids(vars, n);
                attrs(a, n);
                expr(rhs, n);
            }
            CmdKind::Call(c) => call(c, n),
            CmdKind::ParCall { calls } => {
                for c in calls {
                    call(c, n);
                }
            }
            CmdKind::Measure { attrs: a, exprs } => {
                attrs(a, n);
                for e in exprs {
                    expr(e, n);
                }
            }
        }
    }

    pub fn expr(e: &mut Expr, n: &mut Counter) {
        e.id = next(n, e.id, super::NodeKind::Expr);
        match &mut e.kind {
            ExprKind::BoolLit(_)
            | ExprKind::IntLit(_)
            | ExprKind::DecLit(_)
            | ExprKind::FloatLit(_)
            | ExprKind::BvLit { .. }
            | ExprKind::StrLit(_)
            | ExprKind::RoundingMode(_)
            | ExprKind::BvBounds { .. } => {}
            ExprKind::Var(v) => id(v, n),
            ExprKind::Call { args, .. } => {
                for a in args.iter_mut() {
                    expr(a, n);
                }
            }
            ExprKind::Is { arg, ctor } => {
                expr(arg, n);
                id(ctor, n);
            }
            ExprKind::Field { arg, field } => {
                expr(arg, n);
                id(field, n);
            }
            ExprKind::Coerce { arg, ty: t } => {
                expr(arg, n);
                ty(t, n);
            }
            ExprKind::Old(a)
            | ExprKind::Arith { arg: a, .. }
            | ExprKind::Unary { arg: a, .. }
            | ExprKind::Extract { arg: a, .. } => expr(a, n),
            ExprKind::Binary { lhs, rhs, .. } | ExprKind::BvConcat { lhs, rhs } => {
                expr(lhs, n);
                expr(rhs, n);
            }
            ExprKind::Select { map, indexes } => {
                expr(map, n);
                for i in indexes.iter_mut() {
                    expr(i, n);
                }
            }
            ExprKind::Store(s) => {
                expr(&mut s.map, n);
                for i in s.indexes.iter_mut() {
                    expr(i, n);
                }
                expr(&mut s.value, n);
            }
            ExprKind::FieldUpdate(f) => {
                expr(&mut f.arg, n);
                id(&mut f.field, n);
                expr(&mut f.value, n);
            }
            ExprKind::Quant(q) => {
                if q.kind == QuantKind::Lambda {
                    n.lambdas += 1;
                }
                ids(&mut q.type_params, n);
                groups(&mut q.vars, n);
                attrs(&mut q.attrs, n);
                for t in &mut q.triggers {
                    for e in &mut t.exprs {
                        expr(e, n);
                    }
                }
                expr(&mut q.body, n);
            }
            ExprKind::Let(l) => {
                for v in &mut l.vars {
                    attrs(&mut v.attrs, n);
                    id(&mut v.name, n);
                }
                for r in &mut l.rhss {
                    expr(r, n);
                }
                attrs(&mut l.attrs, n);
                expr(&mut l.body, n);
            }
            ExprKind::IfThenElse { cond, then, els } => {
                expr(cond, n);
                expr(then, n);
                expr(els, n);
            }
            ExprKind::Code(c) => {
                locals(&mut c.locals, n);
                for b in &mut c.blocks {
                    id(&mut b.label, n);
                    for cm in &mut b.cmds {
                        cmd(cm, n);
                    }
                    match &mut b.transfer {
                        SpecTransfer::Goto { attrs: a, targets, .. } => {
                            attrs(a, n);
                            ids(targets, n);
                        }
                        SpecTransfer::Return { attrs: a, value, .. } => {
                            attrs(a, n);
                            expr(value, n);
                        }
                    }
                }
            }
        }
    }
}

// ---------------------------------------------------------------------------------------------
// The resolver

/// Boogie's `ResolutionContext.State`: where `old` is allowed (two-state) and where globals are
/// not (state-less: axioms, function bodies, pure procedures).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
enum State {
    StateLess,
    Single,
    Two,
}

/// One top-level declaration as Boogie's parser lists them: `const x, y: T` is two, a
/// function's `uses` axioms come before it and its definition axiom after it, a procedure
/// with a body is a procedure and an implementation.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
enum Item {
    ConstAxiom {
        decl: u32,
        index: u32,
    },
    Const {
        decl: u32,
        name: u32,
    },
    FunctionAxiom {
        decl: u32,
        index: u32,
    },
    Function {
        decl: u32,
    },
    /// The axiom Boogie makes of a function body that is neither `{:inline}` nor `{:define}`.
    FunctionDefinition {
        decl: u32,
    },
    Axiom {
        decl: u32,
    },
    Type {
        decl: u32,
    },
    Datatype {
        decl: u32,
    },
    Global {
        decl: u32,
        group: u32,
        name: u32,
    },
    Procedure {
        decl: u32,
    },
    /// The implementation part of `procedure P() { ... }` (or of an action or yield procedure
    /// with a body).
    ProcedureBody {
        decl: u32,
    },
    Implementation {
        decl: u32,
    },
}

/// The kinds of procedures Boogie distinguishes when resolving calls.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
enum ProcKind {
    Plain,
    YieldInvariant,
    Action,
    YieldProcedure,
}

#[derive(Clone, Copy, Debug)]
struct ProcMeta {
    pure: bool,
    kind: ProcKind,
    /// The numbers of in- and out-parameters as declared (calls are checked against them
    /// before the callee is resolved).
    ins: usize,
    outs: usize,
    /// Civl: the layer of a yield procedure or yield invariant, the layer range of an action.
    layers: (i64, i64),
}

/// Civl's `LayerRange.Min` and `LayerRange.Max`.
const LAYER_MIN: i64 = 0;
const LAYER_MAX: i64 = i32::MAX as i64;

/// Civl's `FindLayers`: the numbers of every `{:layer ...}`, without duplicates, in order.
fn find_layers(attrs: &[Attribute]) -> Vec<i64> {
    let mut layers: Vec<i64> = attrs
        .iter()
        .filter(|a| a.key == "layer")
        .flat_map(|a| a.params.iter())
        .filter_map(|p| match p {
            AttrParam::Expr(Expr { kind: ExprKind::IntLit(d), .. }) => Some(d.parse::<i64>().unwrap_or(LAYER_MAX)),
            _ => None,
        })
        .collect();
    layers.sort_unstable();
    layers.dedup();
    layers
}

#[derive(Clone, Copy, Debug, PartialEq, Eq)]
enum TypeEntry {
    Ctor,
    Datatype,
    Synonym,
}

struct Resolver<'o> {
    #[allow(dead_code)]
    options: &'o TypeckOptions,
    res: Resolution,
    diags: Vec<Diagnostic>,

    /// Where each top-level name came from, so that a dropped `{:extern}` duplicate can be
    /// ignored (Boogie adds `{:ignore}` to it).
    var_origin: FxHashMap<VarId, Item>,
    function_origin: FxHashMap<FunctionId, Item>,
    procedure_origin: FxHashMap<ProcedureId, Item>,
    type_origin: FxHashMap<TypeCtorId, Item>,
    externs: FxHashSet<Item>,
    ignored: FxHashSet<Item>,
    axiom_names: FxHashMap<String, Item>,
    type_entries: Vec<TypeEntry>,
    proc_meta: Vec<ProcMeta>,
    /// Variables declared with `{:assumption}`, and those already assigned once.
    assumption_vars: FxHashSet<VarId>,
    assigned_assumptions: FxHashSet<VarId>,

    type_binders: Vec<(Symbol, TypeVarId)>,
    bindings: FxHashMap<Symbol, Vec<(VarId, u32)>>,
    scope_log: Vec<Symbol>,
    scope_marks: Vec<usize>,
    labels: Vec<FxHashMap<Symbol, LabelId>>,
    statement_ids: FxHashSet<String>,

    state: State,
    trigger_mode: bool,
    /// Boogie's `rc.Proc`: the procedure whose implementation is being resolved.
    current_proc: Option<ProcedureId>,
    /// Re-resolving something Boogie resolved before (see the module header).
    replay: bool,
}

fn find_bool_attr(attrs: &[Attribute], key: &str) -> bool {
    attrs.iter().any(|a| {
        a.key == key
            && match &a.params[..] {
                [] => true,
                [AttrParam::Expr(Expr { kind: ExprKind::BoolLit(true), .. })] => true,
                _ => false,
            }
    })
}

fn find_string_attr<'a>(attrs: &'a [Attribute], key: &str) -> Option<&'a str> {
    attrs.iter().find_map(|a| match &a.params[..] {
        [AttrParam::Str(s, _)] if a.key == key => Some(s.as_str()),
        _ => None,
    })
}

/// `bvN`: Boogie's test for a bit-vector type name.
fn is_bv_name(name: &str) -> bool {
    name.len() > 2 && name.starts_with("bv") && name[2..].bytes().all(|b| b.is_ascii_digit())
}

/// `float<digits>e<digits>`: significand and exponent.
fn float_name(name: &str) -> Option<(&str, &str)> {
    let rest = name.strip_prefix("float")?;
    let (sig, exp) = rest.split_once('e')?;
    if sig.is_empty()
        || exp.is_empty()
        || !sig.bytes().all(|b| b.is_ascii_digit())
        || !exp.bytes().all(|b| b.is_ascii_digit())
    {
        return None;
    }
    Some((sig, exp))
}

/// The program's declarations in Boogie's order.
fn items(program: &Program) -> Vec<Item> {
    let mut items = Vec::with_capacity(program.decls.len() + program.decls.len() / 4);
    for (i, d) in program.decls.iter().enumerate() {
        let decl = i as u32;
        match d {
            Decl::Type(_) => items.push(Item::Type { decl }),
            Decl::Datatype(_) => items.push(Item::Datatype { decl }),
            Decl::Const(c) => {
                for index in 0..c.uses.as_ref().map_or(0, |u| u.len()) {
                    items.push(Item::ConstAxiom { decl, index: index as u32 });
                }
                for name in 0..c.names.len() {
                    items.push(Item::Const { decl, name: name as u32 });
                }
            }
            Decl::Function(f) => {
                for index in 0..f.uses.as_ref().map_or(0, |u| u.len()) {
                    items.push(Item::FunctionAxiom { decl, index: index as u32 });
                }
                items.push(Item::Function { decl });
                if f.body.is_some() && !find_bool_attr(&f.attrs, "inline") && !find_bool_attr(&f.attrs, "define") {
                    items.push(Item::FunctionDefinition { decl });
                }
            }
            Decl::Axiom(_) => items.push(Item::Axiom { decl }),
            Decl::Var(v) => {
                for (g, group) in v.groups.iter().enumerate() {
                    for name in 0..group.names.len() {
                        items.push(Item::Global { decl, group: g as u32, name: name as u32 });
                    }
                }
            }
            Decl::Procedure(p) => {
                items.push(Item::Procedure { decl });
                if p.body.is_some() {
                    items.push(Item::ProcedureBody { decl });
                }
            }
            Decl::Implementation(_) => items.push(Item::Implementation { decl }),
            Decl::YieldInvariant(_) => items.push(Item::Procedure { decl }),
            Decl::Action(a) => {
                items.push(Item::Procedure { decl });
                if a.body.is_some() {
                    items.push(Item::ProcedureBody { decl });
                }
            }
            Decl::YieldProcedure(y) => {
                items.push(Item::Procedure { decl });
                if y.body.is_some() {
                    items.push(Item::ProcedureBody { decl });
                }
            }
        }
    }
    items
}

/// The signature shared by procedures, implementations and the Civl declarations.
struct Signature<'a> {
    name: Ident,
    type_params: &'a [Ident],
    ins: &'a [VarGroup],
    outs: &'a [VarGroup],
    attrs: &'a [Attribute],
}

impl<'o> Resolver<'o> {
    fn new(options: &'o TypeckOptions) -> Resolver<'o> {
        Resolver {
            options,
            res: Resolution::default(),
            diags: Vec::new(),
            var_origin: FxHashMap::default(),
            function_origin: FxHashMap::default(),
            procedure_origin: FxHashMap::default(),
            type_origin: FxHashMap::default(),
            externs: FxHashSet::default(),
            ignored: FxHashSet::default(),
            axiom_names: FxHashMap::default(),
            type_entries: Vec::new(),
            proc_meta: Vec::new(),
            assumption_vars: FxHashSet::default(),
            assigned_assumptions: FxHashSet::default(),
            type_binders: Vec::new(),
            bindings: FxHashMap::default(),
            scope_log: Vec::new(),
            scope_marks: Vec::new(),
            labels: Vec::new(),
            statement_ids: FxHashSet::default(),
            state: State::Single,
            trigger_mode: false,
            current_proc: None,
            replay: false,
        }
    }

    fn error(&mut self, span: ast::Span, message: impl Into<String>) {
        self.diags.push(Diagnostic::error(Phase::Resolve, span, message));
    }

    fn bind(&mut self, id: ast::NodeId, r: Ref) {
        self.res.refs.insert(id, r);
    }

    // -----------------------------------------------------------------------------------------
    // Scopes

    fn push_scope(&mut self) {
        self.scope_marks.push(self.scope_log.len());
    }

    fn pop_scope(&mut self) {
        let Some(mark) = self.scope_marks.pop() else { return };
        for name in self.scope_log.drain(mark..) {
            if let Some(stack) = self.bindings.get_mut(&name) {
                stack.pop();
            }
        }
    }

    fn lookup_var(&self, name: Symbol) -> Option<VarId> {
        self.bindings.get(&name).and_then(|s| s.last()).map(|b| b.0)
    }

    fn new_var(&mut self, name: Ident, kind: VarKind) -> VarId {
        let id = VarId(self.res.symbols.vars.len() as u32);
        self.res.symbols.vars.push(VarInfo { name, kind, ty: Type::Bool, attrs_of: None });
        id
    }

    /// A variable for `name`: in replay, the one made the first time.
    fn var_for(&mut self, name: Ident, kind: VarKind) -> VarId {
        if self.replay
            && let Some(Ref::Var(v)) = self.res.refs.get(name.id)
        {
            return *v;
        }
        self.new_var(name, kind)
    }

    /// Boogie's `AddVariable`: declares `id` in the current scope, reporting a duplicate at
    /// `at` unless one of the two is `{:extern}` (which is then dropped).
    fn add_variable(&mut self, id: VarId, at: ast::Span, is_extern: bool) {
        let name = self.res.symbols.vars[id.index()].name.name;
        let depth = self.scope_marks.len() as u32;
        let stack = self.bindings.entry(name).or_default();
        match stack.last().copied() {
            Some((previous, d)) if d == depth => {
                let previous_extern = self.var_origin.get(&previous).is_some_and(|o| self.externs.contains(o));
                if is_extern {
                    if let Some(o) = self.var_origin.get(&id) {
                        self.ignored.insert(*o);
                    }
                } else if previous_extern {
                    if let Some(o) = self.var_origin.get(&previous) {
                        self.ignored.insert(*o);
                    }
                    if let Some(last) = self.bindings.get_mut(&name).and_then(|s| s.last_mut()) {
                        *last = (id, depth);
                    }
                } else {
                    self.error(at, format!("more than one declaration of variable name: {name}"));
                }
            }
            _ => {
                stack.push((id, depth));
                if depth > 0 {
                    self.scope_log.push(name);
                }
            }
        }
    }

    /// Declares a variable of a nested scope (formal, local, bound), binding its name.
    fn declare(&mut self, name: Ident, kind: VarKind, bind: bool) -> VarId {
        let id = self.var_for(name, kind);
        if bind {
            self.bind(name.id, Ref::Var(id));
        }
        self.add_variable(id, name.span, false);
        id
    }

    fn add_type_binder(&mut self, name: Ident, at: ast::Span, bind: bool) -> TypeVarId {
        let existing = if bind {
            match self.res.refs.get(name.id) {
                Some(Ref::TypeVar(v)) => Some(*v),
                _ => None,
            }
        } else {
            None
        };
        let id = existing.unwrap_or_else(|| {
            let id = TypeVarId(self.res.symbols.type_vars.len() as u32);
            self.res.symbols.type_vars.push(TypeVarInfo { name });
            id
        });
        if bind {
            self.bind(name.id, Ref::TypeVar(id));
        }
        if is_bv_name(&name.name) {
            self.error(at, format!("type name: {} is registered for bitvectors", name.name));
        } else if self.res.symbols.types_by_name.contains_key(&name.name) {
            self.error(at, format!("name is already reserved for type constructor: {}", name.name));
        } else if self.type_binders.iter().any(|(n, _)| *n == name.name) {
            self.error(at, format!("more than one declaration of type variable: {}", name.name));
        } else {
            self.type_binders.push((name.name, id));
        }
        id
    }

    fn lookup_type_binder(&self, name: Symbol) -> Option<TypeVarId> {
        self.type_binders.iter().find(|(n, _)| *n == name).map(|(_, id)| *id)
    }

    fn is_registered_binder(&self, id: TypeVarId) -> bool {
        self.type_binders.iter().any(|(_, v)| *v == id)
    }
}

// ---------------------------------------------------------------------------------------------
// Types

/// The type variables free in `ty`, in order of first occurrence (Boogie's `FreeVariables`).
fn free_type_vars(ty: &Type, out: &mut Vec<TypeVarId>) {
    match ty {
        Type::Var(v) if !out.contains(v) => {
            out.push(*v);
        }
        Type::Ctor(_, args) => {
            for a in args.iter() {
                free_type_vars(a, out);
            }
        }
        Type::Map(m) => {
            let mut inner = Vec::new();
            for a in &m.args {
                free_type_vars(a, &mut inner);
            }
            free_type_vars(&m.result, &mut inner);
            for v in inner {
                if !m.type_params.contains(&v) && !out.contains(&v) {
                    out.push(v);
                }
            }
        }
        Type::Synonym(s) => free_type_vars(&s.expansion, out),
        _ => {}
    }
}

/// Replaces the type variables `params` by `args` (no capture: every binder is distinct).
/// Without parameters the type is shared, not copied: every use of a synonym such as
/// `type Heap = <a>[ref, Field a]a` then expands to the same map type, which the unifier
/// recognises by identity.
pub(crate) fn substitute(ty: &Type, params: &[TypeVarId], args: &[Type]) -> Type {
    if params.is_empty() {
        return ty.clone();
    }
    match ty {
        Type::Var(v) => match params.iter().position(|p| p == v) {
            Some(i) => args.get(i).cloned().unwrap_or(Type::Bool),
            None => ty.clone(),
        },
        Type::Ctor(c, a) => Type::Ctor(*c, a.iter().map(|t| substitute(t, params, args)).collect()),
        Type::Map(m) => Type::Map(Rc::new(MapType {
            type_params: m.type_params.clone(),
            args: m.args.iter().map(|t| substitute(t, params, args)).collect(),
            result: substitute(&m.result, params, args),
        })),
        Type::Synonym(s) => Type::Synonym(Rc::new(SynonymType {
            synonym: s.synonym,
            args: s.args.iter().map(|t| substitute(t, params, args)).collect(),
            expansion: substitute(&s.expansion, params, args),
        })),
        _ => ty.clone(),
    }
}

/// Boogie's `SortTypeParams`: the parameters in order of first occurrence in `types`, then
/// those that do not occur.
fn sort_type_params(params: &[TypeVarId], types: &[&Type]) -> Vec<TypeVarId> {
    if params.len() < 2 {
        return params.to_vec();
    }
    let mut free = Vec::new();
    for t in types {
        free_type_vars(t, &mut free);
    }
    let mut sorted: Vec<TypeVarId> = free.into_iter().filter(|v| params.contains(v)).collect();
    for p in params {
        if !sorted.contains(p) {
            sorted.push(*p);
        }
    }
    sorted
}

impl Resolver<'_> {
    /// Resolves a type written in the program and records it in [`Resolution::types`].
    fn resolve_type(&mut self, ty: &ast::Type) -> Type {
        let t = self.ty(ty);
        self.res.types.insert_first(ty.id, || t.clone());
        t
    }

    fn ty(&mut self, ty: &ast::Type) -> Type {
        match &ty.kind {
            TypeKind::Int => Type::Int,
            TypeKind::Real => Type::Real,
            TypeKind::Bool => Type::Bool,
            TypeKind::Map(m) => {
                let saved = self.type_binders.len();
                let params: Vec<TypeVarId> =
                    m.type_params.iter().map(|p| self.add_type_binder(*p, p.span, true)).collect();
                let args: Vec<Type> = m.args.iter().map(|a| self.ty(a)).collect();
                let result = self.ty(&m.result);
                let mut free = Vec::new();
                for a in &args {
                    free_type_vars(a, &mut free);
                }
                free_type_vars(&result, &mut free);
                for p in &params {
                    if self.is_registered_binder(*p) && !free.contains(p) {
                        let name = self.res.symbols.type_vars[p.0 as usize].name.name;
                        self.error(ty.span, format!("type variable must occur in map arguments: {name}"));
                    }
                }
                let refs: Vec<&Type> = args.iter().chain(std::iter::once(&result)).collect();
                let type_params = sort_type_params(&params, &refs);
                self.type_binders.truncate(saved);
                Type::Map(Rc::new(MapType { type_params, args, result }))
            }
            TypeKind::Named { name, args } => self.named_type(ty, *name, args),
        }
    }

    fn named_type(&mut self, ty: &ast::Type, name: Ident, args: &[ast::Type]) -> Type {
        let text: &str = &name.name;
        let replay = self.replay;
        if is_bv_name(text) {
            if !args.is_empty() && !replay {
                self.error(ty.span, format!("bitvector types must not be applied to arguments: {text}"));
            }
            return match text[2..].parse::<u32>() {
                Ok(n) => Type::Bv(n),
                Err(_) => {
                    self.error(ty.span, format!("bitvector width too large: {text}"));
                    Type::Bool
                }
            };
        }
        if let Some((sig, exp)) = float_name(text) {
            if !args.is_empty() && !replay {
                self.error(ty.span, format!("float types must not be applied to arguments: {text}"));
            }
            return match (sig.parse::<u32>(), exp.parse::<u32>()) {
                (Ok(significand), Ok(exponent)) => Type::Float { significand, exponent },
                _ => {
                    self.error(ty.span, format!("float type too large: {text}"));
                    Type::Bool
                }
            };
        }
        let builtin = match text {
            "rmode" => Some((Type::RMode, "rounding mode type")),
            "string" => Some((Type::String, "string type")),
            "regex" => Some((Type::RegEx, "regex type")),
            _ => None,
        };
        if let Some((t, what)) = builtin {
            if !args.is_empty() && !replay {
                self.error(ty.span, format!("{what} must not be applied to arguments: {text}"));
            }
            return t;
        }
        if let Some(v) = self.lookup_type_binder(name.name) {
            self.bind(name.id, Ref::TypeVar(v));
            if !args.is_empty() && !replay {
                self.error(ty.span, format!("type variables must not be applied to arguments: {text}"));
            }
            return Type::Var(v);
        }
        if let Some(&id) = self.res.symbols.types_by_name.get(&name.name) {
            self.bind(name.id, Ref::TypeCtor(id));
            let arity = self.res.symbols.type_ctors[id.0 as usize].arity;
            match self.type_entries[id.0 as usize] {
                TypeEntry::Ctor | TypeEntry::Datatype => {
                    if args.len() != arity {
                        self.error(ty.span, format!("type constructor received wrong number of arguments: {text}"));
                        return Type::Bool;
                    }
                    let args: Vec<Type> = args.iter().map(|a| self.ty(a)).collect();
                    return Type::Ctor(id, args.into());
                }
                TypeEntry::Synonym => {
                    if args.len() != arity {
                        self.error(ty.span, format!("type synonym received wrong number of arguments: {text}"));
                        return Type::Bool;
                    }
                    let args: Vec<Type> = args.iter().map(|a| self.ty(a)).collect();
                    let expansion = match &self.res.symbols.type_ctors[id.0 as usize].synonym {
                        Some((params, body)) => substitute(body, params, &args),
                        None => Type::Bool,
                    };
                    return Type::Synonym(Rc::new(SynonymType { synonym: id, args, expansion }));
                }
            }
        }
        if !replay {
            self.error(ty.span, format!("undeclared type: {text} (replacing with \"bool\" to continue resolving)"));
        }
        Type::Bool
    }

    /// Boogie's `CheckBoundVariableOccurrences`: every registered type parameter must occur in
    /// the argument (or result) types.
    fn check_type_params_occur(&mut self, params: &[TypeVarId], types: &[&Type], at: ast::Span, what: &str) {
        let mut free = Vec::new();
        for t in types {
            free_type_vars(t, &mut free);
        }
        for p in params {
            if self.is_registered_binder(*p) && !free.contains(p) {
                let name = self.res.symbols.type_vars[p.0 as usize].name.name;
                self.error(at, format!("type variable must occur in {what}: {name}"));
            }
        }
    }

    /// Synonyms a type mentions by name (Boogie's `FindDependencies`).
    fn synonym_dependencies(&self, ty: &ast::Type, out: &mut Vec<TypeCtorId>) {
        match &ty.kind {
            TypeKind::Named { name, args } => {
                if let Some(&id) = self.res.symbols.types_by_name.get(&name.name)
                    && self.type_entries[id.0 as usize] == TypeEntry::Synonym
                {
                    out.push(id);
                }
                for a in args {
                    self.synonym_dependencies(a, out);
                }
            }
            TypeKind::Map(m) => {
                for a in &m.args {
                    self.synonym_dependencies(a, out);
                }
                self.synonym_dependencies(&m.result, out);
            }
            _ => {}
        }
    }
}

// ---------------------------------------------------------------------------------------------
// Registration (Boogie's `Register` methods) and the program walk

impl Resolver<'_> {
    fn item_attrs<'p>(&self, p: &'p Program, item: Item) -> &'p [Attribute] {
        match item {
            Item::ConstAxiom { decl, index } => match &p.decls[decl as usize] {
                Decl::Const(c) => c.uses.as_ref().map_or(&[][..], |u| &u[index as usize].attrs),
                _ => &[],
            },
            Item::FunctionAxiom { decl, index } => match &p.decls[decl as usize] {
                Decl::Function(f) => f.uses.as_ref().map_or(&[][..], |u| &u[index as usize].attrs),
                _ => &[],
            },
            Item::FunctionDefinition { .. } => &[],
            Item::Global { decl, .. } => match &p.decls[decl as usize] {
                Decl::Var(v) => &v.attrs,
                _ => &[],
            },
            Item::Const { decl, .. }
            | Item::Function { decl }
            | Item::Axiom { decl }
            | Item::Type { decl }
            | Item::Datatype { decl }
            | Item::Procedure { decl }
            | Item::ProcedureBody { decl }
            | Item::Implementation { decl } => match &p.decls[decl as usize] {
                Decl::Type(d) => &d.attrs,
                Decl::Datatype(d) => &d.attrs,
                Decl::Const(d) => &d.attrs,
                Decl::Function(d) => &d.attrs,
                Decl::Axiom(d) => &d.attrs,
                Decl::Var(d) => &d.attrs,
                Decl::Procedure(d) => &d.attrs,
                Decl::Implementation(d) => &d.attrs,
                Decl::YieldInvariant(d) => &d.attrs,
                Decl::Action(d) => &d.attrs,
                Decl::YieldProcedure(d) => &d.attrs,
            },
        }
    }

    fn is_ignored(&self, p: &Program, item: Item) -> bool {
        self.ignored.contains(&item) || find_bool_attr(self.item_attrs(p, item), "ignore")
    }

    /// Boogie's `SelectNonExtern` for a new declaration against the one already registered:
    /// `Some(true)` keeps the new one, `Some(false)` the old one, `None` is a duplicate.
    fn select_non_extern(&mut self, new: Item, previous: Option<Item>) -> Option<bool> {
        if self.externs.contains(&new) {
            self.ignored.insert(new);
            Some(false)
        } else if let Some(prev) = previous
            && self.externs.contains(&prev)
        {
            self.ignored.insert(prev);
            Some(true)
        } else {
            None
        }
    }

    fn add_function(&mut self, name: Ident, info: FunctionInfo, origin: Option<Item>) -> FunctionId {
        let id = FunctionId(self.res.symbols.functions.len() as u32);
        self.res.symbols.functions.push(info);
        if let Some(o) = origin {
            self.function_origin.insert(id, o);
        }
        self.bind(name.id, Ref::Function(id));
        match self.res.symbols.functions_by_name.get(&name.name).copied() {
            None => {
                self.res.symbols.functions_by_name.insert(name.name, id);
            }
            Some(previous) => {
                let prev_origin = self.function_origin.get(&previous).copied();
                match origin.and_then(|o| self.select_non_extern(o, prev_origin)) {
                    Some(true) => {
                        self.res.symbols.functions_by_name.insert(name.name, id);
                    }
                    Some(false) => {}
                    None => self.error(name.span, format!("more than one declaration of function name: {}", name.name)),
                }
            }
        }
        id
    }

    fn add_type(&mut self, name: Ident, arity: usize, entry: TypeEntry, decl: u32, origin: Item) -> TypeCtorId {
        let id = TypeCtorId(self.res.symbols.type_ctors.len() as u32);
        self.res.symbols.type_ctors.push(TypeCtorInfo {
            name,
            arity,
            synonym: None,
            datatype_ctors: None,
            decl: Some(DeclIndex(decl)),
        });
        self.type_entries.push(entry);
        self.type_origin.insert(id, origin);
        self.bind(name.id, Ref::TypeCtor(id));
        if is_bv_name(&name.name) {
            self.error(name.span, format!("type name: {} is registered for bitvectors", name.name));
            return id;
        }
        match self.res.symbols.types_by_name.get(&name.name).copied() {
            None => {
                self.res.symbols.types_by_name.insert(name.name, id);
            }
            Some(previous) => {
                let prev_origin = self.type_origin.get(&previous).copied();
                match self.select_non_extern(origin, prev_origin) {
                    Some(true) => {
                        self.res.symbols.types_by_name.insert(name.name, id);
                    }
                    Some(false) => {}
                    None => self.error(name.span, format!("more than one declaration of type name: {}", name.name)),
                }
            }
        }
        id
    }

    fn add_procedure(&mut self, sig: &Signature, decl: u32, meta: ProcMeta, origin: Item) -> ProcedureId {
        let id = ProcedureId(self.res.symbols.procedures.len() as u32);
        self.res.symbols.procedures.push(ProcedureInfo {
            name: sig.name,
            type_params: Vec::new(),
            ins: Vec::new(),
            outs: Vec::new(),
            modifies: Vec::new(),
            decl: DeclIndex(decl),
        });
        let count = |gs: &[VarGroup]| gs.iter().map(|g| g.names.len()).sum::<usize>();
        self.proc_meta.push(ProcMeta { ins: count(sig.ins), outs: count(sig.outs), ..meta });
        self.procedure_origin.insert(id, origin);
        self.bind(sig.name.id, Ref::Procedure(id));
        match self.res.symbols.procedures_by_name.get(&sig.name.name).copied() {
            None => {
                self.res.symbols.procedures_by_name.insert(sig.name.name, id);
            }
            Some(previous) => {
                let prev_origin = self.procedure_origin.get(&previous).copied();
                match self.select_non_extern(origin, prev_origin) {
                    Some(true) => {
                        self.res.symbols.procedures_by_name.insert(sig.name.name, id);
                    }
                    Some(false) => {}
                    None => self.error(
                        sig.name.span,
                        format!("more than one declaration of procedure name: {}", sig.name.name),
                    ),
                }
            }
        }
        id
    }

    fn add_axiom(&mut self, attrs: &[Attribute], at: ast::Span, origin: Item) {
        let Some(name) = find_string_attr(attrs, "name") else { return };
        match self.axiom_names.get(name).copied() {
            None => {
                self.axiom_names.insert(name.to_string(), origin);
            }
            Some(previous) => match self.select_non_extern(origin, Some(previous)) {
                Some(true) => {
                    self.axiom_names.insert(name.to_string(), origin);
                }
                Some(false) => {}
                // Monomorphization copies a polymorphic function's `uses` axioms per instance.
                None if self.options.pass_output => {}
                None => self.error(at, format!("more than one declaration of axiom name: {name}")),
            },
        }
    }

    fn register(&mut self, p: &Program, item: Item) {
        if find_bool_attr(self.item_attrs(p, item), "extern") {
            self.externs.insert(item);
        }
        match (item, &p.decls[item_decl(item) as usize]) {
            (Item::ConstAxiom { index, .. }, Decl::Const(c)) => {
                if let Some(a) = c.uses.as_ref().and_then(|u| u.get(index as usize)) {
                    self.add_axiom(&a.attrs, a.span, item);
                }
            }
            (Item::FunctionAxiom { index, .. }, Decl::Function(f)) => {
                if let Some(a) = f.uses.as_ref().and_then(|u| u.get(index as usize)) {
                    self.add_axiom(&a.attrs, a.span, item);
                }
            }
            (Item::Axiom { .. }, Decl::Axiom(a)) => self.add_axiom(&a.attrs, a.span, item),
            (Item::Const { name, decl }, Decl::Const(c)) => {
                let ident = c.names[name as usize];
                let id = self.new_var(ident, VarKind::Const { unique: c.unique });
                self.res.symbols.vars[id.index()].attrs_of = Some(DeclIndex(decl));
                self.bind(ident.id, Ref::Var(id));
                self.var_origin.insert(id, item);
                self.add_variable(id, c.span, self.externs.contains(&item));
            }
            (Item::Global { group, name, decl }, Decl::Var(v)) => {
                let ident = v.groups[group as usize].names[name as usize];
                let id = self.new_var(ident, VarKind::Global);
                self.res.symbols.vars[id.index()].attrs_of = Some(DeclIndex(decl));
                if find_bool_attr(&v.attrs, "assumption") {
                    self.assumption_vars.insert(id);
                }
                self.bind(ident.id, Ref::Var(id));
                self.var_origin.insert(id, item);
                self.add_variable(id, ident.span, self.externs.contains(&item));
            }
            (Item::Function { decl }, Decl::Function(f)) => {
                let info = FunctionInfo {
                    name: f.name,
                    kind: FunctionKind::Declared,
                    type_params: Vec::new(),
                    params: Vec::new(),
                    param_types: Vec::new(),
                    result: Type::Bool,
                    decl: Some(DeclIndex(decl)),
                };
                self.add_function(f.name, info, Some(item));
            }
            (Item::Datatype { decl }, Decl::Datatype(d)) => {
                let datatype = TypeCtorId(self.res.symbols.type_ctors.len() as u32);
                let mut ctors = Vec::new();
                for (index, c) in d.ctors.iter().enumerate() {
                    let info = FunctionInfo {
                        name: c.name,
                        kind: FunctionKind::Constructor { datatype, index },
                        type_params: Vec::new(),
                        params: Vec::new(),
                        param_types: Vec::new(),
                        result: Type::Bool,
                        decl: Some(DeclIndex(decl)),
                    };
                    ctors.push(self.add_function(c.name, info, None));
                }
                let id = self.add_type(d.name, d.type_params.len(), TypeEntry::Datatype, decl, item);
                self.res.symbols.type_ctors[id.0 as usize].datatype_ctors = Some(ctors);
            }
            (Item::Type { decl }, Decl::Type(t)) => {
                let entry = if t.synonym.is_some() { TypeEntry::Synonym } else { TypeEntry::Ctor };
                self.add_type(t.name, t.params.len(), entry, decl, item);
            }
            (Item::Procedure { decl }, d) => {
                let (sig, meta) = match d {
                    Decl::Procedure(p) => (
                        procedure_signature(p),
                        ProcMeta { pure: p.pure, kind: ProcKind::Plain, ins: 0, outs: 0, layers: (0, 0) },
                    ),
                    Decl::YieldInvariant(y) => (
                        Signature { name: y.name, type_params: &[], ins: &y.params, outs: &[], attrs: &y.attrs },
                        ProcMeta { pure: false, kind: ProcKind::YieldInvariant, ins: 0, outs: 0, layers: (0, 0) },
                    ),
                    Decl::Action(a) => (
                        Signature { name: a.name, type_params: &[], ins: &a.ins, outs: &a.outs, attrs: &a.attrs },
                        ProcMeta { pure: a.pure, kind: ProcKind::Action, ins: 0, outs: 0, layers: (0, 0) },
                    ),
                    Decl::YieldProcedure(y) => (
                        Signature { name: y.name, type_params: &[], ins: &y.ins, outs: &y.outs, attrs: &y.attrs },
                        ProcMeta { pure: false, kind: ProcKind::YieldProcedure, ins: 0, outs: 0, layers: (0, 0) },
                    ),
                    _ => return,
                };
                let id = self.add_procedure(&sig, decl, meta, item);
                let layers = match meta.kind {
                    ProcKind::Plain => (0, 0),
                    ProcKind::Action => self.to_layer_range(sig.attrs, sig.name.span, (LAYER_MIN, LAYER_MAX)),
                    ProcKind::YieldInvariant | ProcKind::YieldProcedure => {
                        let layers = find_layers(sig.attrs);
                        if layers.len() == 1 {
                            (layers[0], layers[0])
                        } else {
                            self.error(sig.name.span, "expected single layer number");
                            (0, 0)
                        }
                    }
                };
                self.proc_meta[id.index()].layers = layers;
            }
            _ => {}
        }
    }

    fn program(&mut self, p: &Program) {
        let items = items(p);
        for &item in &items {
            self.register(p, item);
        }
        for (name, stack) in &self.bindings {
            if let Some(&(v, 0)) = stack.first() {
                self.res.symbols.globals.insert(*name, v);
            }
        }
        self.resolve_types(p, &items);
        for &item in &items {
            if matches!(item, Item::Type { .. } | Item::Datatype { .. }) || self.is_ignored(p, item) {
                continue;
            }
            self.resolve_item(p, item);
        }
        for &item in &items {
            if let Item::Global { decl, group, name } = item
                && !self.is_ignored(p, item)
                && let Decl::Var(v) = &p.decls[decl as usize]
            {
                let g = &v.groups[group as usize];
                let ident = g.names[name as usize];
                let var = self.lookup_ref_var(ident);
                self.where_clause(g, name, var, ident);
            }
        }
        // Globals chosen among `{:extern}` duplicates may have changed: the table says who won.
        self.res.symbols.globals.clear();
        for (name, stack) in &self.bindings {
            if let Some(&(v, 0)) = stack.first() {
                self.res.symbols.globals.insert(*name, v);
            }
        }
    }

    fn lookup_ref_var(&self, ident: Ident) -> Option<VarId> {
        match self.res.refs.get(ident.id) {
            Some(Ref::Var(v)) => Some(*v),
            _ => None,
        }
    }

    /// Boogie's `ResolveWhere` for the `index`-th name of a group: the where clause is shared
    /// by the group's names, so from the second name on it is a replay.
    fn where_clause(&mut self, g: &VarGroup, index: u32, var: Option<VarId>, ident: Ident) {
        let assumption = var.is_some_and(|v| self.assumption_vars.contains(&v));
        if let Some(w) = &g.where_clause {
            if assumption {
                self.error(ident.span, "assumption variable may not be declared with a where clause");
            }
            let saved = self.replay;
            self.replay = saved || index > 0;
            self.expr(w);
            self.replay = saved;
        }
    }

    fn resolve_types(&mut self, p: &Program, items: &[Item]) {
        for &item in items {
            match (item, &p.decls[item_decl(item) as usize]) {
                (Item::Type { .. }, Decl::Type(t)) if t.synonym.is_none() && !self.is_ignored(p, item) => {
                    self.attrs(&t.attrs)
                }
                (Item::Datatype { .. }, Decl::Datatype(d)) if !self.is_ignored(p, item) => self.attrs(&d.attrs),
                _ => {}
            }
        }

        // Synonyms, by a fixed point over their dependencies.
        let mut synonyms: Vec<(u32, TypeCtorId, Vec<TypeCtorId>)> = Vec::new();
        for &item in items {
            if let (Item::Type { decl }, Decl::Type(t)) = (item, &p.decls[item_decl(item) as usize])
                && let Some(body) = &t.synonym
                && !self.is_ignored(p, item)
            {
                let Some(Ref::TypeCtor(id)) = self.res.refs.get(t.name.id).copied() else { continue };
                let mut deps = Vec::new();
                self.synonym_dependencies(body, &mut deps);
                synonyms.push((decl, id, deps));
            }
        }
        let mut resolved: FxHashSet<TypeCtorId> = FxHashSet::default();
        let mut unresolved = synonyms.len();
        while unresolved > 0 {
            for (decl, id, deps) in &synonyms {
                if !resolved.contains(id) && deps.iter().all(|d| resolved.contains(d)) {
                    self.resolve_synonym(p, *decl, *id, false);
                    resolved.insert(*id);
                }
            }
            let now = synonyms.len() - resolved.len();
            if now < unresolved {
                unresolved = now;
            } else {
                for (decl, id, _) in &synonyms {
                    if !resolved.contains(id) {
                        let name = self.res.symbols.type_ctors[id.0 as usize].name;
                        self.error(
                            name.span,
                            format!(
                                "type synonym could not be resolved because of cycles: {} (replacing body with \"bool\" to continue resolving)",
                                name.name
                            ),
                        );
                        self.resolve_synonym(p, *decl, *id, true);
                    }
                }
                unresolved = 0;
            }
        }

        // Datatype constructors.
        for &item in items {
            if let (Item::Datatype { .. }, Decl::Datatype(d)) = (item, &p.decls[item_decl(item) as usize]) {
                let Some(Ref::TypeCtor(dt)) = self.res.refs.get(d.name.id).copied() else { continue };
                let ctors = self.res.symbols.type_ctors[dt.0 as usize].datatype_ctors.clone().unwrap_or_default();
                for (c, f) in d.ctors.iter().zip(ctors) {
                    self.resolve_constructor(d, c, dt, f);
                }
            }
        }
        self.check_datatypes_well_founded(p, items);
    }

    fn resolve_synonym(&mut self, p: &Program, decl: u32, id: TypeCtorId, as_bool: bool) {
        let Decl::Type(t) = &p.decls[decl as usize] else { return };
        self.attrs(&t.attrs);
        let saved = self.type_binders.len();
        let params: Vec<TypeVarId> = t.params.iter().map(|q| self.add_type_binder(*q, q.span, true)).collect();
        let body = match &t.synonym {
            Some(body) if !as_bool => self.resolve_type(body),
            _ => Type::Bool,
        };
        self.type_binders.truncate(saved);
        self.res.symbols.type_ctors[id.0 as usize].synonym = Some((params, body));
    }

    fn resolve_constructor(&mut self, d: &ast::DatatypeDecl, c: &ast::Constructor, dt: TypeCtorId, f: FunctionId) {
        let saved = self.type_binders.len();
        let type_params: Vec<TypeVarId> =
            d.type_params.iter().map(|q| self.add_type_binder(*q, q.span, true)).collect();
        self.push_scope();
        let mut params = Vec::new();
        let mut param_types = Vec::new();
        for g in &c.fields {
            for &name in &g.names {
                let v = self.declare(name, VarKind::In, true);
                let ty = self.resolve_type(&g.ty);
                self.res.symbols.vars[v.index()].ty = ty.clone();
                self.attrs(&g.attrs);
                params.push(v);
                param_types.push(ty);
            }
        }
        self.pop_scope();
        let result = Type::Ctor(dt, type_params.iter().map(|v| Type::Var(*v)).collect());
        let types: Vec<&Type> = param_types.iter().chain(std::iter::once(&result)).collect();
        self.check_type_params_occur(&type_params, &types, c.name.span, "function arguments");
        self.type_binders.truncate(saved);
        for (index, v) in params.iter().enumerate() {
            let field = self.res.symbols.vars[v.index()].name.name;
            self.res.symbols.accessors.entry((dt, field)).or_default().push((f, index));
        }
        let info = &mut self.res.symbols.functions[f.index()];
        info.type_params = type_params;
        info.params = params;
        info.param_types = param_types;
        info.result = result;
    }

    /// Boogie's `CheckDatatypesWellFounded`: every datatype needs a constructor whose fields
    /// can be built without it.
    fn check_datatypes_well_founded(&mut self, p: &Program, items: &[Item]) {
        let mut all = Vec::new();
        for &item in items {
            if let (Item::Datatype { .. }, Decl::Datatype(d)) = (item, &p.decls[item_decl(item) as usize])
                && let Some(Ref::TypeCtor(dt)) = self.res.refs.get(d.name.id).copied()
            {
                all.push(dt);
            }
        }
        let mut constructible: FxHashSet<TypeCtorId> = FxHashSet::default();
        loop {
            let count = constructible.len();
            for &dt in &all {
                if constructible.contains(&dt) {
                    continue;
                }
                let ctors = self.res.symbols.type_ctors[dt.0 as usize].datatype_ctors.clone().unwrap_or_default();
                let ok = ctors.iter().any(|f| {
                    self.res.symbols.functions[f.index()]
                        .param_types
                        .iter()
                        .all(|t| self.constructible(t, &constructible))
                });
                if ok {
                    constructible.insert(dt);
                }
            }
            if constructible.len() == count {
                break;
            }
        }
        if constructible.len() < all.len() {
            let names: Vec<String> = all
                .iter()
                .filter(|d| !constructible.contains(d))
                .map(|d| self.res.symbols.type_ctors[d.0 as usize].name.name.to_string())
                .collect();
            // Boogie reports this at no token: `(0,-1)`.
            let nowhere = ast::Span { file: ast::FileId(u32::MAX), start: 0, end: 0 };
            self.error(nowhere, format!("Datatype declarations are not well-founded: {}", names.join(", ")));
        }
    }

    fn constructible(&self, ty: &Type, constructible: &FxHashSet<TypeCtorId>) -> bool {
        match ty {
            Type::Ctor(c, _) => self.type_entries[c.0 as usize] != TypeEntry::Datatype || constructible.contains(c),
            Type::Map(m) => {
                m.args.iter().all(|a| self.constructible(a, constructible))
                    && self.constructible(&m.result, constructible)
            }
            _ => true,
        }
    }
}

fn item_decl(item: Item) -> u32 {
    match item {
        Item::ConstAxiom { decl, .. }
        | Item::Const { decl, .. }
        | Item::FunctionAxiom { decl, .. }
        | Item::Function { decl }
        | Item::FunctionDefinition { decl }
        | Item::Axiom { decl }
        | Item::Type { decl }
        | Item::Datatype { decl }
        | Item::Global { decl, .. }
        | Item::Procedure { decl }
        | Item::ProcedureBody { decl }
        | Item::Implementation { decl } => decl,
    }
}

fn procedure_signature(p: &ast::ProcedureDecl) -> Signature<'_> {
    Signature { name: p.name, type_params: &p.type_params, ins: &p.ins, outs: &p.outs, attrs: &p.attrs }
}

// ---------------------------------------------------------------------------------------------
// Declarations (Boogie's `Resolve` methods)

impl Resolver<'_> {
    fn resolve_item(&mut self, p: &Program, item: Item) {
        match (item, &p.decls[item_decl(item) as usize]) {
            (Item::ConstAxiom { index, .. }, Decl::Const(c)) => {
                if let Some(a) = c.uses.as_ref().and_then(|u| u.get(index as usize)) {
                    self.axiom(a);
                }
            }
            (Item::FunctionAxiom { index, .. }, Decl::Function(f)) => {
                if let Some(a) = f.uses.as_ref().and_then(|u| u.get(index as usize)) {
                    self.axiom(a);
                }
            }
            (Item::Axiom { .. }, Decl::Axiom(a)) => self.axiom(a),
            (Item::Const { name, .. }, Decl::Const(c)) => {
                let ident = c.names[name as usize];
                let ty = self.resolve_type(&c.ty);
                if let Some(v) = self.lookup_ref_var(ident) {
                    self.res.symbols.vars[v.index()].ty = ty;
                }
                self.attrs(&c.attrs);
            }
            (Item::Global { group, name, .. }, Decl::Var(v)) => {
                let g = &v.groups[group as usize];
                let ident = g.names[name as usize];
                let ty = self.resolve_type(&g.ty);
                if let Some(var) = self.lookup_ref_var(ident) {
                    self.res.symbols.vars[var.index()].ty = ty;
                }
                self.attrs(&v.attrs);
                self.attrs(&g.attrs);
                self.to_layer_range(&v.attrs, ident.span, (LAYER_MIN, LAYER_MAX));
            }
            (Item::Function { .. }, Decl::Function(f)) => self.function(f),
            (Item::FunctionDefinition { .. }, Decl::Function(f)) => self.function_definition(f),
            (Item::Procedure { .. }, Decl::Procedure(d)) => {
                let Some(Ref::Procedure(id)) = self.res.refs.get(d.name.id).copied() else { return };
                let (mut requires, mut ensures, mut measures, mut modifies) = (vec![], vec![], vec![], vec![]);
                for s in &d.specs {
                    match s {
                        Spec::Requires { attrs, expr, span, .. } => requires.push(Clause::Expr(attrs, expr, *span)),
                        Spec::Ensures { attrs, expr, span, .. } => ensures.push(Clause::Expr(attrs, expr, *span)),
                        Spec::Measure { attrs, exprs, span, .. } => measures.push((&attrs[..], &exprs[..], *span)),
                        Spec::Modifies { vars, span } => modifies.push((&vars[..], *span)),
                    }
                }
                let specs = ProcSpecs { modifies, requires, measures, preserves: vec![], ensures };
                self.procedure(id, &procedure_signature(d), d.pure, &specs);
            }
            (Item::Procedure { .. }, Decl::YieldInvariant(y)) => {
                let Some(Ref::Procedure(id)) = self.res.refs.get(y.name.id).copied() else { return };
                let sig = Signature { name: y.name, type_params: &[], ins: &y.params, outs: &[], attrs: &y.attrs };
                let preserves = y.preserves.iter().map(|(a, e, span)| Clause::Expr(a, e, *span)).collect();
                let specs =
                    ProcSpecs { modifies: vec![], requires: vec![], measures: vec![], preserves, ensures: vec![] };
                self.current_proc = Some(id);
                self.procedure(id, &sig, false, &specs);
                self.current_proc = None;
            }
            (Item::Procedure { .. }, Decl::Action(a)) => self.action(a),
            (Item::Procedure { .. }, Decl::YieldProcedure(y)) => self.yield_procedure(y),
            (Item::ProcedureBody { .. }, Decl::Procedure(d)) => {
                if let Some(body) = &d.body {
                    self.implementation(&procedure_signature(d), body, true, item_decl(item));
                }
            }
            (Item::ProcedureBody { .. }, Decl::Action(a)) => {
                if let Some(body) = &a.body {
                    let sig = Signature { name: a.name, type_params: &[], ins: &a.ins, outs: &a.outs, attrs: &a.attrs };
                    self.implementation(&sig, body, true, item_decl(item));
                }
            }
            (Item::ProcedureBody { .. }, Decl::YieldProcedure(y)) => {
                if let Some(body) = &y.body {
                    let sig = Signature { name: y.name, type_params: &[], ins: &y.ins, outs: &y.outs, attrs: &y.attrs };
                    self.implementation(&sig, body, true, item_decl(item));
                }
            }
            (Item::Implementation { .. }, Decl::Implementation(i)) => {
                let sig = Signature {
                    name: i.name,
                    type_params: &i.type_params,
                    ins: &i.ins,
                    outs: &i.outs,
                    attrs: &i.attrs,
                };
                self.implementation(&sig, &i.body, false, item_decl(item));
            }
            _ => {}
        }
    }

    fn axiom(&mut self, a: &ast::AxiomDecl) {
        self.attrs(&a.attrs);
        let saved = self.state;
        self.state = State::StateLess;
        self.expr(&a.expr);
        self.state = saved;
    }

    fn function(&mut self, f: &ast::FunctionDecl) {
        let Some(Ref::Function(id)) = self.res.refs.get(f.name.id).copied() else { return };
        let saved_binders = self.type_binders.len();
        let type_params: Vec<TypeVarId> =
            f.type_params.iter().map(|q| self.add_type_binder(*q, q.span, true)).collect();
        self.push_scope();
        let mut params = Vec::new();
        let mut param_types = Vec::new();
        for p in &f.params {
            let v = match p.name {
                Some(name) => self.declare(name, VarKind::In, true),
                None => self.new_var(Ident::at(Symbol::intern(""), p.span), VarKind::In),
            };
            let ty = self.resolve_type(&p.ty);
            self.res.symbols.vars[v.index()].ty = ty.clone();
            self.attrs(&p.attrs);
            params.push(v);
            param_types.push(ty);
        }
        let result_var = f.result.name.map(|name| self.declare(name, VarKind::Out, true));
        let result = self.resolve_type(&f.result.ty);
        if let Some(v) = result_var {
            self.res.symbols.vars[v.index()].ty = result.clone();
        }
        self.attrs(&f.result.attrs);
        self.attrs(&f.attrs);
        if let Some(body) = &f.body
            && (find_bool_attr(&f.attrs, "inline") || find_bool_attr(&f.attrs, "define"))
        {
            let saved = self.state;
            self.state = State::StateLess;
            self.expr(body);
            self.state = saved;
        }
        self.pop_scope();
        let types: Vec<&Type> = param_types.iter().chain(std::iter::once(&result)).collect();
        self.check_type_params_occur(&type_params, &types, f.name.span, "function arguments");
        self.type_binders.truncate(saved_binders);
        let type_params = sort_type_params(&type_params, &types);
        let info = &mut self.res.symbols.functions[id.index()];
        info.type_params = type_params;
        info.params = params;
        info.param_types = param_types;
        info.result = result;
    }

    /// The axiom Boogie makes of a function's body: `(forall<T> x: X :: {:attrs} {f(x)} f(x) ==
    /// body)`, whose type parameters are new (reported at the function's name), whose bound
    /// variables are the formals again, and whose attributes are the function's (a replay).
    fn function_definition(&mut self, f: &ast::FunctionDecl) {
        let Some(Ref::Function(id)) = self.res.refs.get(f.name.id).copied() else { return };
        let Some(body) = &f.body else { return };
        let saved_state = self.state;
        self.state = State::StateLess;
        if f.params.is_empty() && f.type_params.is_empty() {
            self.expr(body);
            self.state = saved_state;
            return;
        }
        let saved_binders = self.type_binders.len();
        for q in &f.type_params {
            self.add_type_binder(*q, f.name.span, false);
        }
        self.push_scope();
        let params = self.res.symbols.functions[id.index()].params.clone();
        for (p, v) in f.params.iter().zip(params) {
            if p.name.is_some() {
                self.add_variable(v, p.span, false);
            }
        }
        let saved_replay = self.replay;
        self.replay = true;
        self.attrs(&f.attrs);
        self.replay = saved_replay;
        self.expr(body);
        self.pop_scope();
        self.type_binders.truncate(saved_binders);
        self.state = saved_state;
    }
}

/// A requires/ensures/preserves clause: a proposition, or (Civl) a call of a yield invariant.
enum Clause<'a> {
    Expr(&'a [Attribute], &'a Expr, ast::Span),
}

#[derive(Clone, Copy, PartialEq, Eq)]
enum ClauseKind {
    Requires,
    Ensures,
}

struct ProcSpecs<'a> {
    modifies: Vec<(&'a [Ident], ast::Span)>,
    requires: Vec<Clause<'a>>,
    measures: Vec<(&'a [Attribute], &'a [Expr], ast::Span)>,
    preserves: Vec<Clause<'a>>,
    ensures: Vec<Clause<'a>>,
}

impl Resolver<'_> {
    /// Declares a group's names as formals (Boogie's `RegisterFormals`): each name, then its
    /// type (resolved once per name), then the group's attributes.
    fn formals(&mut self, groups: &[VarGroup], kind: VarKind, bind: bool) -> Vec<VarId> {
        let mut vars = Vec::new();
        for g in groups {
            for &name in &g.names {
                let v = if bind {
                    self.declare(name, kind, true)
                } else {
                    let v = self.new_var(name, kind);
                    self.add_variable(v, name.span, false);
                    v
                };
                let ty = self.resolve_type(&g.ty);
                self.res.symbols.vars[v.index()].ty = ty;
                if find_bool_attr(&g.attrs, "assumption") {
                    self.assumption_vars.insert(v);
                }
                self.attrs(&g.attrs);
                self.variable_layers(&g.attrs, name.span);
                vars.push(v);
            }
        }
        vars
    }

    fn formals_where(&mut self, groups: &[VarGroup], vars: &[VarId]) {
        let mut k = 0;
        for g in groups {
            for (i, &name) in g.names.iter().enumerate() {
                let v = vars.get(k).copied();
                k += 1;
                self.where_clause(g, i as u32, v, name);
            }
        }
    }

    fn clause(&mut self, c: &Clause, kind: ClauseKind) {
        let Clause::Expr(attrs, e, span) = c;
        self.expr(e);
        self.attrs(attrs);
        self.spec_layers(attrs, *span, kind);
    }

    /// Civl's layer checks of a requires/ensures clause (`Requires.Resolve`).
    fn spec_layers(&mut self, attrs: &[Attribute], at: ast::Span, kind: ClauseKind) {
        let Some(p) = self.current_proc else { return };
        let meta = self.proc_meta[p.index()];
        match meta.kind {
            ProcKind::YieldProcedure => self.at_most_layer(attrs, at, meta.layers.0),
            ProcKind::Action if kind == ClauseKind::Requires => {
                let layers = find_layers(attrs);
                match (layers.first(), layers.last()) {
                    (Some(&lo), Some(&hi)) => {
                        let (min, max) = meta.layers;
                        if !(min <= lo && hi <= max) {
                            self.error(at, format!("each layer must be within [{min}, {max}]"));
                        }
                    }
                    _ => self.error(at, "expected layers"),
                }
            }
            _ => {}
        }
    }

    fn at_most_layer(&mut self, attrs: &[Attribute], at: ast::Span, layer: i64) {
        match find_layers(attrs).last() {
            None => self.error(at, "expected layers"),
            Some(&hi) if hi > layer => self.error(at, format!("each layer must not be more than {layer}")),
            _ => {}
        }
    }

    /// The yield procedure being resolved, with its layer.
    fn yield_procedure_layer(&self) -> Option<i64> {
        let p = self.current_proc?;
        let meta = self.proc_meta[p.index()];
        (meta.kind == ProcKind::YieldProcedure).then_some(meta.layers.0)
    }

    /// Civl's `ToLayerRange`.
    fn to_layer_range(&mut self, attrs: &[Attribute], at: ast::Span, default: (i64, i64)) -> (i64, i64) {
        let layers = find_layers(attrs);
        match layers.as_slice() {
            [] => default,
            [l] => (*l, *l),
            [lo, hi] => (*lo, *hi),
            _ => {
                self.error(at, "invalid layer range");
                default
            }
        }
    }

    /// Civl's layer check of a variable of a yield procedure (`Variable.Resolve`).
    fn variable_layers(&mut self, attrs: &[Attribute], at: ast::Span) {
        if let Some(layer) = self.yield_procedure_layer() {
            let (_, hi) = self.to_layer_range(attrs, at, (LAYER_MIN, layer));
            if hi > layer {
                self.error(at, "hidden layer of local variable may not be more than the layer of its procedure");
            }
        }
    }

    /// Civl's layer check of a measure (`MeasureCmd.Resolve`).
    fn measure_layers(&mut self, attrs: &[Attribute], at: ast::Span) {
        if let Some(layer) = self.yield_procedure_layer() {
            let layers = find_layers(attrs);
            if layers.is_empty() {
                self.error(at, "measure command in a yield procedure must specify at least one layer");
            } else if layers.iter().any(|l| *l > layer) {
                self.error(at, format!("each layer must not be more than {layer}"));
            }
        }
    }

    /// Boogie's `Procedure.Resolve`.
    fn procedure(&mut self, id: ProcedureId, sig: &Signature, pure: bool, specs: &ProcSpecs) {
        self.push_scope();
        let mut modifies = Vec::new();
        for (vars, span) in &specs.modifies {
            if vars.is_empty() {
                continue;
            }
            if pure {
                let what = if self.proc_meta[id.index()].kind == ProcKind::Action { "action" } else { "procedure" };
                self.error(sig.name.span, format!("unnecessary modifies clause for pure {what}"));
                let _ = span;
                break;
            }
            for v in vars.iter() {
                if let Some(var) = self.ident_expr(*v) {
                    modifies.push(var);
                }
            }
        }
        let saved_binders = self.type_binders.len();
        let type_params: Vec<TypeVarId> =
            sig.type_params.iter().map(|q| self.add_type_binder(*q, q.span, true)).collect();
        let saved_state = self.state;
        if pure {
            self.state = State::StateLess;
        }
        let ins = self.formals(sig.ins, VarKind::In, true);
        self.formals_where(sig.ins, &ins);
        for c in &specs.requires {
            self.clause(c, ClauseKind::Requires);
        }
        for (attrs, exprs, span) in &specs.measures {
            self.attrs(attrs);
            self.measure_layers(attrs, *span);
            for e in exprs.iter() {
                self.expr(e);
            }
        }
        for c in &specs.preserves {
            self.clause(c, ClauseKind::Requires);
        }
        let outs = self.formals(sig.outs, VarKind::Out, true);
        self.formals_where(sig.outs, &outs);
        if !pure {
            self.state = State::Two;
        }
        for c in &specs.ensures {
            self.clause(c, ClauseKind::Ensures);
        }
        self.state = saved_state;
        self.attrs(sig.attrs);
        let types: Vec<Type> = ins.iter().chain(&outs).map(|v| self.res.symbols.vars[v.index()].ty.clone()).collect();
        let type_refs: Vec<&Type> = types.iter().collect();
        self.check_type_params_occur(&type_params, &type_refs, sig.name.span, "procedure arguments");
        self.type_binders.truncate(saved_binders);
        self.pop_scope();
        let info = &mut self.res.symbols.procedures[id.index()];
        info.type_params = sort_type_params(&type_params, &type_refs);
        info.ins = ins;
        info.outs = outs;
        info.modifies = modifies;
    }

    /// Boogie's `Implementation.Resolve`. `copy` for the implementation part of a declaration
    /// with a body: its formals are copies (the binder positions keep naming the procedure's).
    fn implementation(&mut self, sig: &Signature, body: &Body, copy: bool, decl: u32) {
        let procedure = self.res.symbols.procedures_by_name.get(&sig.name.name).copied();
        if procedure.is_none() {
            self.error(sig.name.span, format!("implementation given for undeclared procedure: {}", sig.name.name));
        } else if !copy {
            self.bind(sig.name.id, Ref::Procedure(procedure.unwrap_or(ProcedureId(0))));
        }
        let id = ImplementationId(self.res.symbols.implementations.len() as u32);
        let saved_binders = self.type_binders.len();
        let type_params: Vec<TypeVarId> =
            sig.type_params.iter().map(|q| self.add_type_binder(*q, q.span, true)).collect();
        self.push_scope();
        self.current_proc = procedure;
        let ins = self.formals(sig.ins, VarKind::In, !copy);
        let outs = self.formals(sig.outs, VarKind::Out, !copy);
        let locals = self.locals(&body.locals);
        self.current_proc = None;
        self.labels.push(FxHashMap::default());
        self.register_labels(&body.stmts);
        self.attrs(sig.attrs);
        self.current_proc = procedure;
        let saved_state = self.state;
        let meta = procedure.map(|p| self.proc_meta[p.index()]);
        match meta {
            Some(m) if m.pure => self.state = State::StateLess,
            Some(m) if m.kind == ProcKind::Action => {}
            _ => self.state = State::Two,
        }
        self.stmts(&body.stmts);
        self.current_proc = None;
        self.state = saved_state;
        self.labels.pop();
        self.pop_scope();
        let types: Vec<Type> = ins.iter().chain(&outs).map(|v| self.res.symbols.vars[v.index()].ty.clone()).collect();
        let type_refs: Vec<&Type> = types.iter().collect();
        self.check_type_params_occur(&type_params, &type_refs, sig.name.span, "implementation arguments");
        self.type_binders.truncate(saved_binders);
        self.res.symbols.implementations.push(ImplementationInfo {
            name: sig.name,
            procedure,
            type_params: sort_type_params(&type_params, &type_refs),
            ins,
            outs,
            locals,
            decl: DeclIndex(decl),
        });
        let _ = id;
    }

    /// Local variables: each declared and resolved, then all where clauses.
    fn locals(&mut self, locals: &[ast::LocalVars]) -> Vec<VarId> {
        let mut vars = Vec::new();
        for l in locals {
            for g in &l.groups {
                for &name in &g.names {
                    let v = self.declare(name, VarKind::Local, true);
                    let ty = self.resolve_type(&g.ty);
                    self.res.symbols.vars[v.index()].ty = ty;
                    if find_bool_attr(&l.attrs, "assumption") || find_bool_attr(&g.attrs, "assumption") {
                        self.assumption_vars.insert(v);
                    }
                    self.attrs(&l.attrs);
                    self.attrs(&g.attrs);
                    if self.yield_procedure_layer().is_some() {
                        let attrs: Vec<Attribute> = l.attrs.iter().chain(&g.attrs).cloned().collect();
                        self.variable_layers(&attrs, name.span);
                    }
                    vars.push(v);
                }
            }
        }
        let mut k = 0;
        for l in locals {
            for g in &l.groups {
                for (i, &name) in g.names.iter().enumerate() {
                    let v = vars.get(k).copied();
                    k += 1;
                    self.where_clause(g, i as u32, v, name);
                }
            }
        }
        vars
    }

    fn action(&mut self, a: &ast::ActionDecl) {
        let Some(Ref::Procedure(id)) = self.res.refs.get(a.name.id).copied() else { return };
        let sig = Signature { name: a.name, type_params: &[], ins: &a.ins, outs: &a.outs, attrs: &a.attrs };
        let (mut modifies, mut requires, mut yield_requires, mut asserts, mut refines) =
            (vec![], vec![], vec![], vec![], None);
        for s in &a.specs {
            match s {
                ActionSpec::Modifies { vars, span } => modifies.push((&vars[..], *span)),
                ActionSpec::Requires { body: YieldClauseBody::Expr { attrs, expr }, span } => {
                    requires.push(Clause::Expr(attrs, expr, *span))
                }
                ActionSpec::Requires { body: YieldClauseBody::Call(c), .. } => yield_requires.push(c),
                ActionSpec::Asserts { attrs, expr, .. } => asserts.push((attrs, expr)),
                ActionSpec::Refines { name, .. } => refines = Some(*name),
            }
        }
        self.current_proc = Some(id);
        let specs = ProcSpecs { modifies, requires, measures: vec![], preserves: vec![], ensures: vec![] };
        self.procedure(id, &sig, a.pure, &specs);
        self.push_scope();
        let ins = self.res.symbols.procedures[id.index()].ins.clone();
        for v in ins {
            let span = self.res.symbols.vars[v.index()].name.span;
            self.add_variable(v, span, false);
        }
        for c in yield_requires {
            self.call(c);
            self.expect_yield_invariant(c);
        }
        for (attrs, e) in asserts {
            self.expr(e);
            self.attrs(attrs);
        }
        self.pop_scope();
        self.current_proc = None;
        if let Some(r) = refines {
            self.action_ref(r);
        }
    }

    fn action_ref(&mut self, name: Ident) {
        match self.res.symbols.procedures_by_name.get(&name.name).copied() {
            Some(p) if self.proc_meta[p.index()].kind == ProcKind::Action => self.bind(name.id, Ref::Procedure(p)),
            _ => self.error(name.span, format!("undeclared action: {}", name.name)),
        }
    }

    fn expect_yield_invariant(&mut self, c: &CallCmd) {
        match self.res.symbols.procedures_by_name.get(&c.callee.name).copied() {
            Some(p) if self.proc_meta[p.index()].kind == ProcKind::YieldInvariant => {}
            _ => self.error(c.span, "expected call to yield invariant"),
        }
    }

    fn yield_procedure(&mut self, y: &ast::YieldProcedureDecl) {
        let Some(Ref::Procedure(id)) = self.res.refs.get(y.name.id).copied() else { return };
        let sig = Signature { name: y.name, type_params: &[], ins: &y.ins, outs: &y.outs, attrs: &y.attrs };
        let (mut modifies, mut requires, mut measures, mut preserves, mut ensures) =
            (vec![], vec![], vec![], vec![], vec![]);
        let (mut yield_requires, mut yield_preserves, mut yield_ensures) = (vec![], vec![], vec![]);
        let mut refines = None;
        for s in &y.specs {
            match s {
                YieldSpec::Modifies { vars, span } => modifies.push((&vars[..], *span)),
                YieldSpec::Requires { body: YieldClauseBody::Expr { attrs, expr }, span } => {
                    requires.push(Clause::Expr(attrs, expr, *span))
                }
                YieldSpec::Requires { body: YieldClauseBody::Call(c), .. } => yield_requires.push(c),
                YieldSpec::Preserves { body: YieldClauseBody::Expr { attrs, expr }, span } => {
                    preserves.push(Clause::Expr(attrs, expr, *span))
                }
                YieldSpec::Preserves { body: YieldClauseBody::Call(c), .. } => yield_preserves.push(c),
                YieldSpec::Ensures { body: YieldClauseBody::Expr { attrs, expr }, span } => {
                    ensures.push(Clause::Expr(attrs, expr, *span))
                }
                YieldSpec::Ensures { body: YieldClauseBody::Call(c), .. } => yield_ensures.push(c),
                YieldSpec::Measure { attrs, exprs, span } => measures.push((&attrs[..], &exprs[..], *span)),
                YieldSpec::Refines { name, .. } => refines = Some(*name),
                YieldSpec::RefinesInline { name, body, .. } => {
                    refines = Some(*name);
                    let _ = body;
                }
            }
        }
        self.current_proc = Some(id);
        let specs = ProcSpecs { modifies, requires, measures, preserves, ensures };
        self.procedure(id, &sig, false, &specs);
        let saved_state = self.state;
        self.state = State::Two;
        self.push_scope();
        let (ins, outs) = {
            let info = &self.res.symbols.procedures[id.index()];
            (info.ins.clone(), info.outs.clone())
        };
        for v in ins {
            let span = self.res.symbols.vars[v.index()].name.span;
            self.add_variable(v, span, false);
        }
        for c in yield_requires.into_iter().chain(yield_preserves) {
            self.call(c);
            self.expect_yield_invariant(c);
        }
        for v in outs {
            let span = self.res.symbols.vars[v.index()].name.span;
            self.add_variable(v, span, false);
        }
        for c in yield_ensures {
            self.call(c);
            self.expect_yield_invariant(c);
        }
        self.pop_scope();
        self.state = saved_state;
        self.current_proc = None;
        if let Some(r) = refines
            && y.specs.iter().find(|s| matches!(s, YieldSpec::RefinesInline { .. })).is_none()
        {
            self.action_ref(r);
        }
    }
}

// ---------------------------------------------------------------------------------------------
// Statements and commands

impl Resolver<'_> {
    fn add_label(&mut self, label: Ident) {
        let Some(scope) = self.labels.last() else { return };
        if scope.contains_key(&label.name) {
            self.error(label.span, format!("more than one declaration of block name: {}", label.name));
            return;
        }
        let id = LabelId(self.res.symbols.labels.len() as u32);
        self.res.symbols.labels.push(LabelInfo { name: label });
        if let Some(scope) = self.labels.last_mut() {
            scope.insert(label.name, id);
        }
        self.bind(label.id, Ref::Label(id));
    }

    /// Registers the labels of a structured body in the order Boogie creates its blocks.
    fn register_labels(&mut self, list: &StmtList) {
        for b in &list.blocks {
            if let Some(label) = b.label {
                self.add_label(label);
            }
            if let Some(tail) = &b.tail {
                for nested in tail.nested_lists() {
                    self.register_labels(nested);
                }
            }
        }
    }

    fn goto_target(&mut self, target: Ident, at: ast::Span) {
        match self.labels.last().and_then(|s| s.get(&target.name)).copied() {
            Some(l) => self.bind(target.id, Ref::Label(l)),
            None => self.error(at, format!("goto to unknown block: {}", target.name)),
        }
    }

    /// A structured statement list, in the order of the blocks Boogie makes of it.
    fn stmts(&mut self, list: &StmtList) {
        for b in &list.blocks {
            self.big_block(b);
        }
    }

    fn big_block(&mut self, b: &BigBlock) {
        for c in &b.cmds {
            self.cmd(c);
        }
        match &b.tail {
            None | Some(BlockTail::Return { .. }) => {}
            Some(BlockTail::Break { label, .. }) => {
                if let Some(l) = label
                    && let Some(id) = self.labels.last().and_then(|s| s.get(&l.name)).copied()
                {
                    self.bind(l.id, Ref::Label(id));
                }
            }
            Some(BlockTail::Goto { targets, span, .. }) => {
                for t in targets {
                    self.goto_target(*t, *span);
                }
            }
            Some(BlockTail::While(w)) => {
                for spec in &w.invariants {
                    if let LoopSpec::YieldInvariant { call, .. } = spec {
                        self.call(call);
                    }
                }
                for spec in &w.invariants {
                    if let LoopSpec::Invariant { free, attrs, expr, span } = spec {
                        if *free {
                            self.assume(attrs, expr, *span);
                        } else {
                            self.assert(attrs, expr, *span);
                        }
                    }
                }
                for spec in &w.invariants {
                    if let LoopSpec::Measure { attrs, exprs, span } = spec {
                        self.attrs(attrs);
                        self.measure_layers(attrs, *span);
                        for e in exprs {
                            self.expr(e);
                        }
                    }
                }
                if let Some(g) = &w.guard {
                    self.expr(g);
                }
                self.stmts(&w.body);
                if let Some(g) = &w.guard {
                    self.replay_expr(g);
                }
            }
            Some(BlockTail::If(i)) => self.if_cmd(i),
        }
    }

    fn if_cmd(&mut self, i: &ast::IfCmd) {
        if let Some(g) = &i.guard {
            self.expr(g);
        }
        self.stmts(&i.then);
        if let Some(g) = &i.guard {
            self.replay_expr(g);
        }
        match &i.els {
            None => {}
            Some(ElseBranch::If(e)) => self.if_cmd(e),
            Some(ElseBranch::Block(b)) => self.stmts(b),
        }
    }

    fn replay_expr(&mut self, e: &Expr) {
        let saved = self.replay;
        self.replay = true;
        self.expr(e);
        self.replay = saved;
    }

    fn statement_id(&mut self, attrs: &[Attribute], at: ast::Span) {
        if self.options.pass_output {
            return;
        }
        if let Some(id) = find_string_attr(attrs, "id") {
            if self.statement_ids.contains(id) {
                self.error(at, format!("more than one statement with same id: {id}"));
            } else {
                self.statement_ids.insert(id.to_string());
            }
        }
    }

    fn assert(&mut self, attrs: &[Attribute], e: &Expr, at: ast::Span) {
        self.expr(e);
        self.attrs(attrs);
        if let Some(layer) = self.yield_procedure_layer()
            && !attrs.iter().any(|a| a.key == "yields")
        {
            self.at_most_layer(attrs, at, layer);
        }
        self.statement_id(attrs, at);
    }

    fn assume(&mut self, attrs: &[Attribute], e: &Expr, at: ast::Span) {
        self.attrs(attrs);
        self.expr(e);
        let saved = self.replay;
        self.replay = true;
        self.attrs(attrs);
        self.replay = saved;
        self.statement_id(attrs, at);
    }

    /// The variable an assignment's left-hand side finally assigns.
    fn lhs_root(&self, lhs: &AssignLhs) -> Option<VarId> {
        match lhs {
            AssignLhs::Var(v) => self.lookup_ref_var(*v),
            AssignLhs::Select { base, .. } | AssignLhs::Field { base, .. } => self.lhs_root(base),
        }
    }

    fn lhs(&mut self, lhs: &AssignLhs) {
        match lhs {
            AssignLhs::Var(v) => {
                self.ident_expr(*v);
            }
            AssignLhs::Select { base, indexes, .. } => {
                self.lhs(base);
                for e in indexes {
                    self.expr(e);
                }
            }
            AssignLhs::Field { base, .. } => self.lhs(base),
        }
    }

    fn cmd(&mut self, c: &Cmd) {
        match &c.kind {
            CmdKind::Assert { attrs, expr } => self.assert(attrs, expr, c.span),
            CmdKind::Assume { attrs, expr } => self.assume(attrs, expr, c.span),
            CmdKind::Havoc { vars } => {
                for v in vars {
                    self.ident_expr(*v);
                }
            }
            CmdKind::Assign { lhss, attrs, rhss } => self.assign(lhss, attrs, rhss, c.span),
            CmdKind::Unpack { ctor, vars, rhs, .. } => {
                self.function_name(ctor.name, ctor.span, ctor.id);
                for v in vars {
                    self.ident_expr(*v);
                }
                self.expr(rhs);
            }
            CmdKind::Call(call) => self.call(call),
            CmdKind::ParCall { calls } => {
                let before = self.diags.len();
                for call in calls {
                    self.call(call);
                }
                if self.diags.len() > before {
                    return;
                }
                self.par_call_outs(calls, c.span);
            }
            CmdKind::Measure { attrs, exprs } => {
                self.attrs(attrs);
                self.measure_layers(attrs, c.span);
                for e in exprs {
                    self.expr(e);
                }
            }
            CmdKind::HideReveal { name, .. } => {
                if let Some(n) = name {
                    self.function_name(n.name, n.span, n.id);
                }
            }
            CmdKind::ChangeScope { .. } => {}
        }
    }

    fn assign(&mut self, lhss: &[AssignLhs], attrs: &[Attribute], rhss: &[Expr], at: ast::Span) {
        self.attrs(attrs);
        if lhss.len() != rhss.len() {
            self.error(at, "number of left-hand sides does not match number of right-hand sides");
        }
        for l in lhss {
            self.lhs(l);
        }
        for r in rhss {
            self.expr(r);
        }
        let roots: Vec<Option<VarId>> = lhss.iter().map(|l| self.lhs_root(l)).collect();
        for i in 0..lhss.len() {
            for j in i + 1..lhss.len() {
                if let (Some(a), Some(b)) = (roots[i], roots[j])
                    && a == b
                {
                    let name = self.res.symbols.vars[b.index()].name.name;
                    let span = match &lhss[j] {
                        AssignLhs::Var(v) => v.span,
                        AssignLhs::Select { span, .. } | AssignLhs::Field { span, .. } => *span,
                    };
                    self.error(span, format!("variable {name} is assigned more than once in parallel assignment"));
                }
            }
        }
        for (i, l) in lhss.iter().enumerate() {
            let AssignLhs::Var(ident) = l else { continue };
            let Some(v) = roots[i] else { continue };
            if !self.assumption_vars.contains(&v) {
                continue;
            }
            let Some(rhs) = rhss.get(i) else { continue };
            let matches = match &rhs.kind {
                ExprKind::Binary { op: BinaryOp::And, lhs, .. } => match &lhs.kind {
                    ExprKind::Var(x) => self.lookup_ref_var(*x) == Some(v),
                    _ => false,
                },
                _ => false,
            };
            let name = ident.name;
            if !matches {
                self.error(
                    at,
                    format!(
                        "RHS of assignment to assumption variable {name} must match expression \"{name} && <boolean expression>\""
                    ),
                );
            } else if self.assigned_assumptions.contains(&v) {
                self.error(at, "assumption variable may not be assigned to more than once");
            } else {
                self.assigned_assumptions.insert(v);
            }
        }
    }

    /// Boogie's `CallCmd.Resolve`.
    fn call(&mut self, c: &CallCmd) {
        self.attrs(&c.attrs);
        let callee = self.res.symbols.procedures_by_name.get(&c.callee.name).copied();
        match callee {
            Some(p) => self.bind(c.callee.id, Ref::Procedure(p)),
            None => self.error(c.span, format!("call to undeclared procedure: {}", c.callee.name)),
        }
        for a in &c.args {
            self.expr(a);
        }
        let mut outs: Vec<VarId> = Vec::new();
        for o in &c.outs {
            if let Some(v) = self.ident_expr(*o) {
                if outs.contains(&v) {
                    self.error(c.span, format!("left-hand side of call command contains variable twice: {}", o.name));
                } else {
                    outs.push(v);
                }
            }
        }
        let Some(callee) = callee else { return };
        let meta = self.proc_meta[callee.index()];
        if c.args.len() != meta.ins {
            self.error(c.span, format!("wrong number of arguments in call to {}: {}", c.callee.name, c.args.len()));
            return;
        }
        if c.outs.len() != meta.outs {
            self.error(
                c.span,
                format!("wrong number of result variables in call to {}: {}", c.callee.name, c.outs.len()),
            );
            return;
        }
        if c.is_async && meta.outs > 0 {
            self.error(c.span, "a procedure called asynchronously cannot have output parameters");
            return;
        }
        let saved = self.replay;
        self.replay = true;
        self.attrs(&c.attrs);
        self.replay = saved;
        if let Some(layer) = self.yield_procedure_layer() {
            let layers = find_layers(&c.attrs);
            if layers.len() > 2 {
                self.error(c.span, "expected layer range");
            } else if layers.last().is_some_and(|l| *l > layer) {
                self.error(c.span, format!("layer must be no more than layer {layer}"));
            }
        }
        self.statement_id(&c.attrs, c.span);
        let Some(caller) = self.current_proc else { return };
        let caller = self.proc_meta[caller.index()];
        if caller.kind == ProcKind::Plain && meta.kind != ProcKind::Plain {
            self.error(c.span, "a procedure may only call other procedures");
        }
        if caller.pure && !meta.pure {
            self.error(c.span, "pure procedure may only call a pure procedure");
        }
        if caller.kind == ProcKind::YieldProcedure
            && !(meta.pure || matches!(meta.kind, ProcKind::YieldProcedure | ProcKind::YieldInvariant))
        {
            self.error(
                c.span,
                "a yielding procedure may only call pure actions, pure procedures, yield procedures, and yield invariants",
            );
        }
        if c.is_async {
            match caller.kind {
                ProcKind::Action if meta.kind != ProcKind::Action => {
                    self.error(c.span, "target of async call must be an action")
                }
                ProcKind::YieldProcedure if meta.kind != ProcKind::YieldProcedure => {
                    self.error(c.span, "target of async call must be a yield procedure")
                }
                ProcKind::Action | ProcKind::YieldProcedure => {}
                _ if self.options.threads => {}
                _ => self.error(c.span, "async call allowed only from a yield procedure or an action"),
            }
        }
    }

    /// Boogie's checks of a parallel call's left-hand sides (once its arms resolved).
    fn par_call_outs(&mut self, calls: &[CallCmd], at: ast::Span) {
        let mut inputs: FxHashMap<VarId, Vec<usize>> = FxHashMap::default();
        for (i, c) in calls.iter().enumerate() {
            let mut used = Vec::new();
            for a in &c.args {
                self.collect_vars(a, &mut used);
            }
            for v in used {
                let arms = inputs.entry(v).or_default();
                if !arms.contains(&i) {
                    arms.push(i);
                }
            }
        }
        let mut lhss: FxHashSet<VarId> = FxHashSet::default();
        for (i, c) in calls.iter().enumerate() {
            for o in &c.outs {
                let Some(v) = self.lookup_ref_var(*o) else { continue };
                if lhss.contains(&v) {
                    self.error(
                        at,
                        format!("left-hand side of parallel call command contains variable twice: {}", o.name),
                    );
                } else if inputs.get(&v).is_some_and(|arms| arms.len() > 1 || arms[0] != i) {
                    self.error(
                        at,
                        format!(
                            "left-hand side of parallel call command contains variable accessed on the right-hand side of a different arm: {}",
                            o.name
                        ),
                    );
                } else {
                    lhss.insert(v);
                }
            }
        }
    }

    /// The variables an expression mentions (bound ones included: they are distinct ids).
    fn collect_vars(&self, e: &Expr, out: &mut Vec<VarId>) {
        if let ExprKind::Var(x) = &e.kind {
            if let Some(v) = self.lookup_ref_var(*x)
                && !out.contains(&v)
            {
                out.push(v);
            }
            return;
        }
        e.for_each_child(&mut |c| self.collect_vars(c, out));
    }
}

// ---------------------------------------------------------------------------------------------
// Expressions and attributes

impl Resolver<'_> {
    /// Boogie's `QKeyValue.Resolve`: the parameters are resolved in a two-state context unless
    /// the context is state-less.
    fn attrs(&mut self, attrs: &[Attribute]) {
        for a in attrs {
            self.attribute(a);
        }
    }

    fn attribute(&mut self, a: &Attribute) {
        let key: &str = &a.key;
        if (key == "minimize" || key == "maximize") && a.params.len() != 1 {
            self.error(a.span, "attributes :minimize and :maximize accept only one argument");
        }
        if key == "verified_under" && a.params.len() != 1 {
            self.error(a.span, "attribute :verified_under accepts only one argument");
        }
        if key == "layer" {
            for p in &a.params {
                match p {
                    AttrParam::Expr(Expr { kind: ExprKind::IntLit(digits), .. }) => {
                        if digits.parse::<i32>().is_err() {
                            self.error(a.span, "layer is too large (max value is Int32.MaxValue)");
                        }
                    }
                    _ => self.error(a.span, "layer must be a non-negative integer"),
                }
            }
        }
        for p in &a.params {
            if let AttrParam::Expr(e) = p {
                let saved = self.state;
                if saved == State::Single {
                    self.state = State::Two;
                }
                self.expr(e);
                self.state = saved;
            }
        }
    }

    /// Boogie's `IdentifierExpr.Resolve`.
    fn ident_expr(&mut self, id: Ident) -> Option<VarId> {
        match self.lookup_var(id.name) {
            None => {
                self.error(id.span, format!("undeclared identifier: {}", id.name));
                None
            }
            Some(v) => {
                self.bind(id.id, Ref::Var(v));
                if self.state == State::StateLess
                    && !self.replay
                    && self.res.symbols.vars[v.index()].kind == VarKind::Global
                {
                    self.error(id.span, format!("cannot refer to a global variable in this context: {}", id.name));
                }
                Some(v)
            }
        }
    }

    /// Boogie's `FunctionCall.Resolve`.
    fn function_name(&mut self, name: Symbol, span: ast::Span, id: ast::NodeId) {
        match self.res.symbols.functions_by_name.get(&name).copied() {
            Some(f) => self.bind(id, Ref::Function(f)),
            None => self.error(span, format!("use of undeclared function: {name}")),
        }
    }

    fn expr(&mut self, e: &Expr) {
        match &e.kind {
            ExprKind::BoolLit(_)
            | ExprKind::IntLit(_)
            | ExprKind::DecLit(_)
            | ExprKind::FloatLit(_)
            | ExprKind::BvLit { .. }
            | ExprKind::StrLit(_)
            | ExprKind::RoundingMode(_) => {}
            ExprKind::Var(id) => {
                self.ident_expr(*id);
            }
            ExprKind::Call { func, args } => {
                self.function_name(*func, e.span, e.id);
                for a in args.iter() {
                    self.expr(a);
                }
            }
            ExprKind::Old(a) => {
                if self.state != State::Two {
                    self.error(e.span, "old expressions allowed only in two-state contexts");
                }
                self.expr(a);
            }
            ExprKind::Unary { op, arg } => {
                if self.trigger_mode && *op == UnaryOp::Not {
                    self.error(e.span, "boolean operators are not allowed in triggers");
                }
                self.expr(arg);
            }
            ExprKind::Binary { op, lhs, rhs } => {
                if self.trigger_mode {
                    match op {
                        BinaryOp::Eq => self.error(e.span, "equality is not allowed in triggers"),
                        BinaryOp::Lt | BinaryOp::Le | BinaryOp::Gt | BinaryOp::Ge => {
                            self.error(e.span, "arithmetic comparisons are not allowed in triggers")
                        }
                        BinaryOp::And | BinaryOp::Or | BinaryOp::Imp | BinaryOp::Iff => {
                            self.error(e.span, "boolean operators are not allowed in triggers")
                        }
                        _ => {}
                    }
                }
                self.expr(lhs);
                self.expr(rhs);
            }
            ExprKind::Coerce { arg, ty } => {
                self.resolve_type(ty);
                self.expr(arg);
            }
            ExprKind::BvBounds { .. } => self.error(e.span, "bitvector bounds in illegal position"),
            ExprKind::Quant(q) => self.quantifier(q, e.span),
            ExprKind::Let(l) => {
                if l.vars.len() != l.rhss.len() {
                    self.error(e.span, "number of left-hand sides does not match number of right-hand sides");
                }
                for r in &l.rhss {
                    self.expr(r);
                }
                self.push_scope();
                for v in &l.vars {
                    self.declare(v.name, VarKind::Bound, true);
                    self.attrs(&v.attrs);
                }
                self.attrs(&l.attrs);
                self.expr(&l.body);
                self.pop_scope();
            }
            ExprKind::Code(c) => self.code_expr(c),
            _ => e.for_each_child(&mut |c| self.expr(c)),
        }
    }

    fn quantifier(&mut self, q: &ast::Quantifier, span: ast::Span) {
        if self.trigger_mode {
            self.error(span, "quantifiers are not allowed in triggers");
        }
        // `forall x :: forall y :: e` without triggers is one quantifier (Boogie's
        // `MergeAdjacentQuantifier`).
        let mut chain = vec![q];
        if q.kind != QuantKind::Lambda {
            let mut current = q;
            while current.triggers.is_empty()
                && let ExprKind::Quant(inner) = &current.body.kind
                && inner.kind == q.kind
                && inner.triggers.is_empty()
            {
                chain.push(inner);
                current = inner;
            }
        }
        let saved_binders = self.type_binders.len();
        for part in &chain {
            for tp in &part.type_params {
                self.add_type_binder(*tp, tp.span, true);
            }
        }
        self.push_scope();
        let mut bound = Vec::new();
        for part in &chain {
            for g in &part.vars {
                for &name in &g.names {
                    let v = self.declare(name, VarKind::Bound, true);
                    let ty = self.resolve_type(&g.ty);
                    self.res.symbols.vars[v.index()].ty = ty;
                    self.attrs(&g.attrs);
                    bound.push(v);
                }
            }
        }
        for part in &chain {
            self.attrs(&part.attrs);
        }
        if q.kind != QuantKind::Lambda {
            for tr in &q.triggers {
                let before = self.diags.len();
                let saved = self.trigger_mode;
                self.trigger_mode = true;
                for e in &tr.exprs {
                    self.expr(e);
                    if let ExprKind::Var(x) = &e.kind {
                        self.error(
                            e.span,
                            format!("a matching pattern must be more than just a variable by itself: {}", x.name),
                        );
                    }
                }
                self.trigger_mode = saved;
                if self.diags.len() == before && tr.positive {
                    let mut mentioned = Vec::new();
                    for e in &tr.exprs {
                        self.collect_vars(e, &mut mentioned);
                    }
                    for v in &bound {
                        if !mentioned.contains(v) {
                            let name = self.res.symbols.vars[v.index()].name.name;
                            self.error(
                                tr.span,
                                format!("trigger must mention all quantified variables, but does not mention: {name}"),
                            );
                        }
                    }
                }
            }
        }
        let body = &chain[chain.len() - 1].body;
        self.expr(body);
        self.pop_scope();
        self.type_binders.truncate(saved_binders);
    }

    fn code_expr(&mut self, c: &ast::CodeExpr) {
        self.push_scope();
        self.locals(&c.locals);
        self.labels.push(FxHashMap::default());
        for b in &c.blocks {
            self.add_label(b.label);
        }
        for b in &c.blocks {
            for cmd in &b.cmds {
                self.cmd(cmd);
            }
            match &b.transfer {
                SpecTransfer::Goto { targets, span, .. } => {
                    for t in targets {
                        self.goto_target(*t, *span);
                    }
                }
                SpecTransfer::Return { value, .. } => self.expr(value),
            }
        }
        self.labels.pop();
        self.pop_scope();
    }
}
