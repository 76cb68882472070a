//! Type checking (Boogie's `Typecheck` methods): see [`super`] for what it produces.
//!
//! Expects a program that resolved without errors; a missing table entry (which only an
//! unresolved program would have) is skipped quietly, never a panic.
//!
//! How it works: one walk over the declarations in program order, as Boogie's
//! `Program.Typecheck` does, inferring every expression's type by unification with proxies
//! ([`super::unify`]) and reporting Boogie's errors in Boogie's order and words. Details of that
//! order that a reader would not guess:
//! - a procedure declared with a body is a procedure followed by an implementation (its
//!   attributes checked twice); a function's `uses` axioms come before it and the axiom that
//!   defines a function with a body (neither `{:inline}` nor `{:define}`) after it;
//! - `var {:a e} x, y: T where w` checks `e` and `w` once per variable;
//! - structured statements are checked in the order of the blocks Boogie makes of them
//!   (`BigBlocksResolutionContext`): a guard `g` is checked as `assume g` before its branch and
//!   again as `assume !g` before the else branch or after the loop body;
//! - a function application, operator, map access, coercion (Boogie's `NAryExpr`) whose
//!   arguments had errors is not checked itself and gets Boogie's one error type, a proxy the
//!   first unification binds for the rest of the run (so later messages show what Boogie's do);
//!   one that was checked once is not checked again when Boogie visits it a second time.
//!
//! Before the walk, Boogie's `FunctionDependencyChecker` (`{:inline}`/`{:define}` bodies and
//! call cycles among them); after it, if there were no errors, Boogie's
//! `TypeAmbiguitySeeker` (warnings for type parameters inference left open, which it then
//! fixes: `int`, `bvN`, a polymorphic map).

mod expr;

use rustc_hash::FxHashMap;

use super::types::{ProxyDisplay, Type, TypeCtorId, TypeNames, TypeVarId};
use super::unify::{FreshName, ProxyKind, Unifier};
use super::{
    DeclIndex, FunctionId, ImplementationId, ProcedureId, Ref, Resolution, Symbols, TypeckOptions, Typing, VarId,
    VarKind,
};
use crate::ast::*;
use crate::diagnostics::{Diagnostic, Phase};

/// What type checking found.
pub struct Checked {
    pub typing: Typing,
    pub diagnostics: Vec<Diagnostic>,
    /// The errors are those of Boogie's function dependency check, which stops before type
    /// checking proper and prints its errors without the `N type checking errors` line.
    pub dependency_errors: bool,
}

/// Type-checks a resolved program. Errors are [`crate::diagnostics::Phase::Typecheck`].
pub fn run(program: &Program, resolution: &Resolution, options: &TypeckOptions) -> Checked {
    let mut c = Checker::new(program, resolution, options);
    let dependencies_ok = c.function_dependencies();
    if dependencies_ok {
        for (i, decl) in program.decls.iter().enumerate() {
            c.decl(DeclIndex(i as u32), decl);
        }
        if c.errors == 0 {
            c.resolve_ambiguities();
        }
    }
    let (typing, diagnostics) = c.finish();
    Checked { typing, diagnostics, dependency_errors: !dependencies_ok }
}

/// A polymorphic use's instantiation, as recorded while checking.
enum Inst {
    Known(Vec<Type>),
    /// A selection on a map whose type was a proxy then: the instantiation is that of the map
    /// type the proxy became, worked out at the end (Boogie's `MapTypeProxyParamInstantiation`).
    OnMapProxy {
        map: Type,
        args: Vec<Type>,
        result: Type,
    },
}

/// The type parameters of a polymorphic use and what they were instantiated with.
struct InstRecord {
    node: NodeId,
    span: Span,
    /// Boogie visits a node before its arguments when it seeks ambiguities; this orders them so.
    order: u32,
    params: Vec<TypeVarId>,
    inst: Inst,
    /// In an attribute's parameter, where Boogie's `TypeAmbiguitySeeker` does not look.
    in_attribute: bool,
}

/// The procedure whose body is being checked (Boogie's `tc.Proc`), for the frame check.
#[derive(Clone, Copy)]
struct Frame {
    procedure: Option<ProcedureId>,
    /// Civl bodies follow other rules; they are not frame-checked here.
    civl: bool,
}

pub(super) struct Checker<'a> {
    res: &'a Resolution,
    sy: &'a Symbols,
    options: &'a TypeckOptions,
    program: &'a Program,
    u: Unifier,
    types: Vec<Option<Type>>,
    /// Boogie's `NAryExpr.TypeParameters != null`: the node's own check has run.
    checked: Vec<bool>,
    insts: Vec<InstRecord>,
    /// Where a type parameter in an attribute stayed ambiguous (see [`Typing`]).
    ambiguous_in_attributes: Vec<Span>,
    /// The record of an expression's instantiation in `insts`, by node.
    inst_of: Vec<u32>,
    next_order: u32,
    diags: Vec<Diagnostic>,
    errors: usize,
    /// Inside attributes Boogie never checks: infer types, report nothing.
    silent: u32,
    /// Inside an attribute's parameters.
    attribute_depth: u32,
    /// Let-bound variables take their right-hand side's type.
    let_types: FxHashMap<VarId, Type>,
    /// Emptied argument lists of function applications, for the next ones: one allocation per
    /// nesting depth instead of one per application.
    spare_actuals: Vec<Vec<(Type, Span)>>,
    frame: Option<Frame>,
    impl_of_decl: FxHashMap<u32, ImplementationId>,
    proc_of_decl: FxHashMap<u32, ProcedureId>,
    function_of_decl: FxHashMap<u32, FunctionId>,
    /// The last type variable bound at each name position: for a function's type parameter,
    /// the binder its definition axiom replays.
    replayed_type_var: FxHashMap<u32, TypeVarId>,
    builtins: FxHashMap<FunctionId, crate::smt::builtins::Builtin>,
    /// [`TypeckOptions::trusted`] and no type variable in the program but synonyms'
    /// parameters ([`only_synonym_parameters`]): expression types are
    /// [`Checker::synthesized`].
    trusted: bool,
}

/// Type names for messages: the program's, plus the checker's fresh variables and proxies.
struct Names<'a> {
    sy: &'a Symbols,
    u: &'a Unifier,
}

impl TypeNames for Names<'_> {
    fn type_ctor_name(&self, id: TypeCtorId) -> Symbol {
        match self.sy.type_ctors.get(id.0 as usize) {
            Some(c) => c.name.name,
            None => Symbol::intern("?"),
        }
    }
    fn type_var_name(&self, id: TypeVarId) -> Symbol {
        let id = match self.u.fresh_var_name(id) {
            Some(FreshName::Named(s)) => return s,
            Some(FreshName::Copy(v)) => v,
            None => id,
        };
        match self.sy.type_vars.get(id.0 as usize) {
            Some(v) => v.name.name,
            None => Symbol::intern("?"),
        }
    }
    fn proxy(&self, id: super::ProxyId) -> ProxyDisplay {
        if id.index() >= self.u.proxy_count() {
            return ProxyDisplay::Unknown;
        }
        match self.u.bound(id) {
            Some(t) => ProxyDisplay::Bound(t.clone()),
            None => match self.u.kind(id) {
                ProxyKind::Map { arity, .. } => ProxyDisplay::Map(*arity),
                _ => ProxyDisplay::Unknown,
            },
        }
    }
}

/// Whether every type variable of the program is a parameter of a type synonym: no function,
/// procedure, quantifier or map type binds one, so every expression has a closed type (a
/// synonym's uses carry its expansion). [`TypeckOptions::trusted`] applies to such programs.
fn only_synonym_parameters(sy: &Symbols) -> bool {
    let mut synonym_parameter = vec![false; sy.type_vars.len()];
    for (params, _) in sy.type_ctors.iter().filter_map(|c| c.synonym.as_ref()) {
        for p in params {
            if let Some(slot) = synonym_parameter.get_mut(p.0 as usize) {
                *slot = true;
            }
        }
    }
    synonym_parameter.iter().all(|&s| s)
}

/// `{:name}` or `{:name true}` (Boogie's `FindBoolAttribute`).
pub(super) fn find_bool_attr(attrs: &[Attribute], name: &str) -> bool {
    attrs.iter().any(|a| {
        a.key == name
            && (a.params.is_empty()
                || (a.params.len() == 1
                    && matches!(&a.params[0], AttrParam::Expr(Expr { kind: ExprKind::BoolLit(true), .. }))))
    })
}

impl<'a> Checker<'a> {
    fn new(program: &'a Program, res: &'a Resolution, options: &'a TypeckOptions) -> Checker<'a> {
        let sy = &res.symbols;
        let n = res.expr_count as usize;
        let mut impl_of_decl = FxHashMap::default();
        for (i, info) in sy.implementations.iter().enumerate() {
            impl_of_decl.insert(info.decl.0, ImplementationId(i as u32));
        }
        let mut proc_of_decl = FxHashMap::default();
        for (i, info) in sy.procedures.iter().enumerate() {
            proc_of_decl.insert(info.decl.0, ProcedureId(i as u32));
        }
        let mut function_of_decl = FxHashMap::default();
        for (i, info) in sy.functions.iter().enumerate() {
            if let (Some(d), super::FunctionKind::Declared) = (info.decl, &info.kind) {
                function_of_decl.insert(d.0, FunctionId(i as u32));
            }
        }
        let mut replayed_type_var = FxHashMap::default();
        for (i, tv) in sy.type_vars.iter().enumerate() {
            replayed_type_var.insert(tv.name.id.0, TypeVarId(i as u32));
        }
        let trusted = options.trusted && only_synonym_parameters(sy);
        // A trusted check records no instantiation and runs each node's own check whenever
        // it meets the node (the same type each time): it needs neither table.
        let per_node = if trusted { 0 } else { n };
        Checker {
            replayed_type_var,
            res,
            sy,
            options,
            program,
            u: Unifier::new(sy.type_vars.len() as u32),
            types: super::with_headroom(n, || None),
            checked: vec![false; per_node],
            insts: Vec::new(),
            ambiguous_in_attributes: Vec::new(),
            inst_of: vec![u32::MAX; per_node],
            next_order: 0,
            diags: Vec::new(),
            errors: 0,
            silent: 0,
            attribute_depth: 0,
            let_types: FxHashMap::default(),
            spare_actuals: Vec::new(),
            frame: None,
            impl_of_decl,
            proc_of_decl,
            function_of_decl,
            builtins: FxHashMap::default(),
            trusted,
        }
    }

    // -----------------------------------------------------------------------------------------
    // Reporting

    fn error(&mut self, span: Span, message: impl Into<String>) {
        if self.silent > 0 {
            return;
        }
        self.errors += 1;
        self.diags.push(Diagnostic::error(Phase::Typecheck, span, message));
    }

    fn warning(&mut self, span: Span, message: impl Into<String>) {
        self.diags.push(Diagnostic::warning(Phase::Typecheck, span, message));
    }

    /// A type as Boogie prints it in a message, proxies shown as what they are bound to.
    fn show(&self, t: &Type) -> String {
        let names = Names { sy: self.sy, u: &self.u };
        t.display(&names).to_string()
    }

    // -----------------------------------------------------------------------------------------
    // Table look-ups (quietly absent for an unresolved program)

    fn referent(&self, id: NodeId) -> Option<Ref> {
        self.res.refs.get(id).copied()
    }

    fn var_at(&self, name: &Ident) -> Option<VarId> {
        match self.referent(name.id) {
            Some(Ref::Var(v)) if v.index() < self.sy.vars.len() => Some(v),
            _ => None,
        }
    }

    fn var_type(&self, v: VarId) -> Type {
        match self.let_types.get(&v) {
            Some(t) => t.clone(),
            None => self.sy.vars[v.index()].ty.clone(),
        }
    }

    fn resolved_type(&self, ty: &crate::ast::Type) -> Option<Type> {
        self.res.types.get(ty.id).cloned()
    }

    fn function(&self, id: NodeId) -> Option<FunctionId> {
        match self.referent(id) {
            Some(Ref::Function(f)) if f.index() < self.sy.functions.len() => Some(f),
            _ => None,
        }
    }

    fn procedure(&self, id: NodeId) -> Option<ProcedureId> {
        match self.referent(id) {
            Some(Ref::Procedure(p)) if p.index() < self.sy.procedures.len() => Some(p),
            _ => None,
        }
    }

    // -----------------------------------------------------------------------------------------
    // Declarations

    fn decl(&mut self, index: DeclIndex, decl: &'a Decl) {
        match decl {
            Decl::Type(t) => self.attributes(&t.attrs),
            Decl::Datatype(d) => {
                self.datatype_fields(d);
                self.attributes(&d.attrs);
            }
            Decl::Const(c) => {
                if let Some(axioms) = &c.uses {
                    for ax in axioms {
                        self.axiom(ax);
                    }
                }
                for name in &c.names {
                    self.attributes(&c.attrs);
                    self.assumption_variable(&c.attrs, name);
                }
            }
            Decl::Function(f) => self.function_decl(index, f),
            Decl::Axiom(ax) => self.axiom(ax),
            Decl::Var(v) => {
                for g in &v.groups {
                    for name in &g.names {
                        self.variable(&v.attrs, g, name);
                    }
                }
            }
            Decl::Procedure(p) => {
                let pid = self.proc_of_decl.get(&index.0).copied();
                self.procedure_decl(p, pid);
                if let Some(body) = &p.body {
                    // Boogie's parser makes the body an implementation with the procedure's
                    // attributes and formals (where clauses stripped).
                    self.attributes(&p.attrs);
                    for g in p.ins.iter().chain(&p.outs) {
                        for _ in &g.names {
                            self.attributes(&g.attrs);
                        }
                    }
                    let frame = Frame { procedure: pid, civl: false };
                    self.body(body, frame);
                }
            }
            Decl::Implementation(im) => self.implementation(index, im),
            Decl::YieldInvariant(y) => {
                self.attributes(&y.attrs);
                self.formals(&y.params);
                for (attrs, e, span) in &y.preserves {
                    self.attributes(attrs);
                    self.bool_spec(e, *span, "preconditions must be of type bool");
                }
            }
            Decl::Action(a) => {
                self.attributes(&a.attrs);
                self.formals(&a.ins);
                self.formals(&a.outs);
                for s in &a.specs {
                    match s {
                        ActionSpec::Requires { body, span } => self.yield_clause(body, *span, "preconditions"),
                        ActionSpec::Asserts { attrs, expr, span } => {
                            self.attributes(attrs);
                            self.bool_spec(expr, *span, "preconditions must be of type bool");
                        }
                        ActionSpec::Refines { .. } | ActionSpec::Modifies { .. } => {}
                    }
                }
                if let Some(body) = &a.body {
                    self.body(body, Frame { procedure: None, civl: true });
                }
            }
            Decl::YieldProcedure(y) => {
                self.attributes(&y.attrs);
                self.formals(&y.ins);
                self.formals(&y.outs);
                for s in &y.specs {
                    match s {
                        YieldSpec::Requires { body, span } | YieldSpec::Preserves { body, span } => {
                            self.yield_clause(body, *span, "preconditions")
                        }
                        YieldSpec::Ensures { body, span } => self.yield_clause(body, *span, "postconditions"),
                        YieldSpec::Measure { attrs, exprs, .. } => self.measure(attrs, exprs),
                        // Resolution leaves an inline action's body to Civl, which is not
                        // implemented: nothing in it is bound, so nothing in it is checked.
                        YieldSpec::RefinesInline { .. } | YieldSpec::Refines { .. } | YieldSpec::Modifies { .. } => {}
                    }
                }
                if let Some(body) = &y.body {
                    self.body(body, Frame { procedure: None, civl: true });
                }
            }
        }
    }

    fn yield_clause(&mut self, body: &'a YieldClauseBody, span: Span, what: &str) {
        match body {
            YieldClauseBody::Expr { attrs, expr } => {
                self.attributes(attrs);
                self.bool_spec(expr, span, &format!("{what} must be of type bool"));
            }
            YieldClauseBody::Call(call) => self.call(call),
        }
    }

    fn axiom(&mut self, ax: &'a AxiomDecl) {
        self.attributes(&ax.attrs);
        let t = self.expr(&ax.expr);
        if !self.u.unify(&t, &Type::Bool) {
            self.error(ax.span, "axioms must be of type bool");
        }
    }

    /// A clause that must be boolean (requires, ensures, preserves).
    fn bool_spec(&mut self, e: &'a Expr, span: Span, message: &str) {
        let t = self.expr(e);
        if !self.u.unify(&t, &Type::Bool) {
            self.error(span, message.to_string());
        }
    }

    /// Boogie's `Variable.Typecheck`: attributes, where clause, `{:assumption}`.
    fn variable(&mut self, attrs: &'a [Attribute], group: &'a VarGroup, name: &Ident) {
        self.attributes(attrs);
        self.attributes(&group.attrs);
        if let Some(w) = &group.where_clause {
            let t = self.expr(w);
            if !self.u.unify(&t, &Type::Bool) {
                self.error(name.span, "where clauses must be of type bool");
            }
        }
        let mut all = attrs.iter().chain(group.attrs.iter());
        if all.any(|a| a.key == "assumption") {
            let assumption = find_bool_attr(attrs, "assumption") || find_bool_attr(&group.attrs, "assumption");
            self.assumption_check(assumption, name);
        }
    }

    fn assumption_variable(&mut self, attrs: &[Attribute], name: &Ident) {
        if find_bool_attr(attrs, "assumption") {
            self.assumption_check(true, name);
        }
    }

    fn assumption_check(&mut self, assumption: bool, name: &Ident) {
        if !assumption {
            return;
        }
        if let Some(v) = self.var_at(name) {
            let t = self.var_type(v);
            if !self.u.is_bool(&t) {
                self.error(name.span, "assumption variable must be of type 'bool'");
            }
        }
    }

    fn formals(&mut self, groups: &'a [VarGroup]) {
        for g in groups {
            for name in &g.names {
                self.variable(&[], g, name);
            }
        }
    }

    fn function_decl(&mut self, index: DeclIndex, f: &'a FunctionDecl) {
        if let Some(axioms) = &f.uses {
            for ax in axioms {
                self.axiom(ax);
            }
        }
        // DeclWithFormals.Typecheck: attributes, then the formals' attributes.
        self.attributes(&f.attrs);
        for p in &f.params {
            self.attributes(&p.attrs);
        }
        self.attributes(&f.result.attrs);
        let fid = self.function_of_decl.get(&index.0).copied();
        self.builtin(fid, f);
        let Some(body) = &f.body else { return };
        let result = fid.map(|id| self.sy.functions[id.index()].result.clone());
        let inline = find_bool_attr(&f.attrs, "inline");
        let define = find_bool_attr(&f.attrs, "define");
        if inline {
            let t = self.expr(body);
            if let Some(result) = result
                && !self.u.unify(&t, &result)
            {
                let msg =
                    format!("function body with invalid type: {} (expected: {})", self.show(&t), self.show(&result));
                self.error(body.span, msg);
            }
        } else if define {
            let before = self.errors;
            let t = self.expr(body);
            if let Some(result) = &result {
                if self.errors == before {
                    self.equality(result, &t, f.name.span, BinaryOp::Eq);
                }
                if !self.u.unify(&t, result) {
                    let msg =
                        format!("function body with invalid type: {} (expected: {})", self.show(&t), self.show(result));
                    self.error(body.span, msg);
                }
            }
        } else {
            // The definition axiom `(forall<..> xs :: {f(xs)} f(xs): R == body)`, checked after
            // the function; the quantifier carries the function's attributes. Its type
            // parameters are new binders (resolution's replay of the function's, bound at the
            // same names): the formals' and the result's types are seen through them.
            if !f.params.is_empty() || !f.type_params.is_empty() {
                self.attributes(&f.attrs);
            }
            let mut replay = super::unify::Subst::default();
            let mut params = Vec::new();
            if let Some(fid) = fid {
                let info = &self.sy.functions[fid.index()];
                for t in &info.type_params {
                    let Some(tv) = self.sy.type_vars.get(t.0 as usize) else { continue };
                    if let Some(&r) = self.replayed_type_var.get(&tv.name.id.0)
                        && r != *t
                    {
                        replay.insert(*t, Type::Var(r));
                    }
                }
                params = info.params.clone();
            }
            let result = result.map(|r| self.u.substitute(&r, &replay));
            if !replay.is_empty() {
                for v in &params {
                    let t = self.sy.vars[v.index()].ty.clone();
                    let t = self.u.substitute(&t, &replay);
                    self.let_types.insert(*v, t);
                }
            }
            let before = self.errors;
            let t = self.expr(body);
            let equal = match &result {
                Some(result) if self.errors == before => self.equality(result, &t, f.name.span, BinaryOp::Eq),
                _ => false,
            };
            // The equation's type (Boogie's error type when it failed) must be bool, as the
            // quantifier's body or the axiom.
            let eq_type = if equal { Type::Bool } else { Unifier::error_type() };
            if !self.u.unify(&eq_type, &Type::Bool) {
                let msg = if f.params.is_empty() && f.type_params.is_empty() {
                    "axioms must be of type bool"
                } else {
                    "quantifier body must be of type bool"
                };
                self.error(f.name.span, msg);
            }
            for v in &params {
                self.let_types.remove(v);
            }
        }
    }

    /// Boogie's check of `==`/`!=`: the sides must unify, their free type variables being
    /// instantiable. Returns false after reporting.
    /// Parses the string of `{:bvbuiltin}` (or else `{:builtin}`, Boogie's `ExtractBuiltin`
    /// order) into the SMT-LIB operator the encoder sends: a string no solver would read is an
    /// error here, not a rejected query later.
    fn builtin(&mut self, fid: Option<FunctionId>, f: &FunctionDecl) {
        let attr = ["bvbuiltin", "builtin"].iter().find_map(|key| {
            f.attrs.iter().find(|a| a.key == *key).and_then(|a| match a.params.first() {
                Some(AttrParam::Str(text, span)) => Some((text, *span)),
                _ => None,
            })
        });
        let Some((text, span)) = attr else { return };
        match crate::smt::builtins::parse(text, f.params.len()) {
            Ok(b) => {
                if let Some(id) = fid {
                    self.builtins.insert(id, b);
                }
            }
            Err(message) => self.error(span, message),
        }
    }

    fn equality(&mut self, t0: &Type, t1: &Type, span: Span, op: BinaryOp) -> bool {
        if self.u.equal(t0, t1) {
            return true;
        }
        let mut unifiable = self.u.free_vars(t0);
        unifiable.extend(self.u.free_vars(t1));
        let mut subst = super::unify::Subst::default();
        if self.u.unify_in(t0, t1, &unifiable, &mut subst) {
            return true;
        }
        let msg = format!(
            "invalid argument types ({} and {}) to binary operator {}",
            self.show(t0),
            self.show(t1),
            op.symbol()
        );
        self.error(span, msg);
        false
    }

    /// Fields of the same name in different constructors must have the same type
    /// (`DatatypeTypeCtorDecl.Typecheck`).
    fn datatype_fields(&mut self, d: &'a DatatypeDecl) {
        let Some(Ref::TypeCtor(dt)) = self.referent(d.name.id) else { return };
        let Some(info) = self.sy.type_ctors.get(dt.0 as usize) else { return };
        let Some(ctors) = info.datatype_ctors.clone() else { return };
        // field name -> (constructor position, field position), in order of first occurrence
        let mut order: Vec<Symbol> = Vec::new();
        let mut accessors: FxHashMap<Symbol, Vec<(usize, usize)>> = FxHashMap::default();
        for (ci, f) in ctors.iter().enumerate() {
            let Some(fi) = self.sy.functions.get(f.index()) else { return };
            for (pi, v) in fi.params.iter().enumerate() {
                let name = self.sy.vars[v.index()].name.name;
                let list = accessors.entry(name).or_default();
                if list.is_empty() {
                    order.push(name);
                }
                list.push((ci, pi));
            }
        }
        for name in order {
            let list = accessors[&name].clone();
            if list.len() < 2 {
                continue;
            }
            let (c0, f0) = list[0];
            let first = &self.sy.functions[ctors[c0].index()];
            let first_ty = first.param_types[f0].clone();
            let first_name = first.name.name;
            for &(ci, fi) in &list[1..] {
                let ctor = &self.sy.functions[ctors[ci].index()];
                let subst = ctor_subst(&ctor.result, &first.result);
                let field_ty = ctor.param_types[fi].clone();
                let field_var = ctor.params[fi];
                let normalized = self.u.substitute(&field_ty, &subst);
                if !self.u.equal(&normalized, &first_ty) {
                    let field = self.sy.vars[field_var.index()].name;
                    self.error(
                        field.span,
                        format!(
                            "type mismatch between field {} and identically-named field in constructor {}",
                            field.name, first_name
                        ),
                    );
                }
            }
        }
    }

    fn procedure_decl(&mut self, p: &'a ProcedureDecl, pid: Option<ProcedureId>) {
        self.attributes(&p.attrs);
        self.formals(&p.ins);
        self.formals(&p.outs);
        // modifies
        for s in &p.specs {
            if let Spec::Modifies { vars, .. } = s {
                for v in vars {
                    if let Some(id) = self.var_at(v) {
                        let info = &self.sy.vars[id.index()];
                        if matches!(info.kind, VarKind::Const { .. }) {
                            let msg = format!("modifies list contains constant: {}", v.name);
                            self.error(p.name.span, msg);
                        }
                    }
                }
            }
        }
        let _ = pid;
        // A clause's attributes Boogie resolves but never type-checks: they get types (a lambda
        // in one is lifted), errors dropped.
        for s in &p.specs {
            if let Spec::Requires { expr, span, attrs, .. } = s {
                self.bool_spec(expr, *span, "preconditions must be of type bool");
                self.unchecked_attributes(attrs);
            }
        }
        for s in &p.specs {
            if let Spec::Measure { attrs, exprs, .. } = s {
                self.measure(attrs, exprs);
            }
        }
        for s in &p.specs {
            if let Spec::Ensures { expr, span, attrs, .. } = s {
                self.bool_spec(expr, *span, "postconditions must be of type bool");
                self.unchecked_attributes(attrs);
            }
        }
    }

    fn implementation(&mut self, index: DeclIndex, im: &'a ImplementationDecl) {
        self.attributes(&im.attrs);
        self.formals(&im.ins);
        self.formals(&im.outs);
        let iid = self.impl_of_decl.get(&index.0).copied();
        let info = iid.and_then(|i| self.sy.implementations.get(i.index()));
        let proc = info.and_then(|i| i.procedure).filter(|p| p.index() < self.sy.procedures.len());
        if let (Some(info), Some(pid)) = (info, proc) {
            let pinfo = &self.sy.procedures[pid.index()];
            if info.type_params.len() != pinfo.type_params.len() {
                self.error(
                    im.name.span,
                    format!("mismatched number of type parameters in procedure implementation: {}", im.name.name),
                );
            } else {
                let impl_params = self.sorted_params(&info.type_params, &info.ins, &info.outs);
                let proc_params = self.sorted_params(&pinfo.type_params, &pinfo.ins, &pinfo.outs);
                let mut s_impl = super::unify::Subst::default();
                let mut s_proc = super::unify::Subst::default();
                for (pi, ii) in proc_params.iter().zip(&impl_params) {
                    let fresh = self.u.fresh_copy(*pi);
                    s_proc.insert(*pi, Type::Var(fresh));
                    s_impl.insert(*ii, Type::Var(fresh));
                }
                let (iins, iouts, pins, pouts) =
                    (info.ins.clone(), info.outs.clone(), pinfo.ins.clone(), pinfo.outs.clone());
                self.match_formals(im, &iins, &pins, "in", &s_impl, &s_proc);
                self.match_formals(im, &iouts, &pouts, "out", &s_impl, &s_proc);
            }
        }
        self.body(&im.body, Frame { procedure: proc, civl: false });
    }

    /// Boogie's `SortTypeParams`: type parameters in order of first occurrence in the formals'
    /// types, then the others.
    fn sorted_params(&self, params: &[TypeVarId], ins: &[VarId], outs: &[VarId]) -> Vec<TypeVarId> {
        let mut sorted = Vec::with_capacity(params.len());
        for v in ins.iter().chain(outs) {
            for tv in self.u.free_vars(&self.sy.vars[v.index()].ty) {
                if params.contains(&tv) && !sorted.contains(&tv) {
                    sorted.push(tv);
                }
            }
        }
        for p in params {
            if !sorted.contains(p) {
                sorted.push(*p);
            }
        }
        sorted
    }

    fn match_formals(
        &mut self,
        im: &ImplementationDecl,
        impl_formals: &[VarId],
        proc_formals: &[VarId],
        inout: &str,
        s_impl: &super::unify::Subst,
        s_proc: &super::unify::Subst,
    ) {
        if impl_formals.len() != proc_formals.len() {
            self.error(
                im.name.span,
                format!("mismatched number of {inout}-parameters in procedure implementation: {}", im.name.name),
            );
            return;
        }
        for (iv, pv) in impl_formals.iter().zip(proc_formals) {
            let t = self.sy.vars[iv.index()].ty.clone();
            let u = self.sy.vars[pv.index()].ty.clone();
            let t = self.u.substitute(&t, s_impl);
            let u = self.u.substitute(&u, s_proc);
            if !self.u.equal(&t, &u) {
                let a = self.sy.vars[iv.index()].name.name;
                let b = self.sy.vars[pv.index()].name.name;
                let c = if a == b { a.to_string() } else { format!("{b} (named {a} in implementation)") };
                self.error(
                    im.name.span,
                    format!("mismatched type of {inout}-parameter in implementation {}: {c}", im.name.name),
                );
            }
        }
    }

    fn body(&mut self, body: &'a Body, frame: Frame) {
        let saved = self.frame.replace(frame);
        self.locals(&body.locals);
        self.stmt_list(&body.stmts);
        self.frame = saved;
    }

    fn locals(&mut self, locals: &'a [LocalVars]) {
        for l in locals {
            for g in &l.groups {
                for name in &g.names {
                    self.variable(&l.attrs, g, name);
                }
            }
        }
    }

    // -----------------------------------------------------------------------------------------
    // Statements, in the order of the blocks Boogie makes of them

    fn stmt_list(&mut self, list: &'a StmtList) {
        for b in &list.blocks {
            for c in &b.cmds {
                self.cmd(c);
            }
            match &b.tail {
                Some(BlockTail::If(ifcmd)) => self.if_chain(ifcmd),
                Some(BlockTail::While(w)) => {
                    for inv in &w.invariants {
                        match inv {
                            LoopSpec::Invariant { free, attrs, expr, span } => {
                                self.predicate(*free, attrs, expr, *span);
                            }
                            LoopSpec::YieldInvariant { call, .. } => self.call(call),
                            LoopSpec::Measure { attrs, exprs, .. } => self.measure(attrs, exprs),
                        }
                    }
                    if let Some(g) = &w.guard {
                        self.guard(g, w.span);
                    }
                    self.stmt_list(&w.body);
                    if let Some(g) = &w.guard {
                        self.negated_guard(g, w.span);
                    }
                }
                _ => {}
            }
        }
    }

    fn if_chain(&mut self, first: &'a IfCmd) {
        let mut ifcmd = first;
        loop {
            if let Some(g) = &ifcmd.guard {
                self.guard(g, ifcmd.span);
            }
            self.stmt_list(&ifcmd.then);
            match &ifcmd.els {
                Some(ElseBranch::Block(b)) => {
                    if let Some(g) = &ifcmd.guard {
                        self.negated_guard(g, ifcmd.span);
                    }
                    self.stmt_list(b);
                    return;
                }
                Some(ElseBranch::If(next)) => {
                    if let Some(g) = &ifcmd.guard {
                        self.negated_guard(g, ifcmd.span);
                    }
                    ifcmd = next;
                }
                None => {
                    if let Some(g) = &ifcmd.guard {
                        self.negated_guard(g, ifcmd.span);
                    }
                    return;
                }
            }
        }
    }

    /// `assume g` made of a guard.
    fn guard(&mut self, g: &'a Expr, at: Span) {
        let t = self.expr(g);
        if !self.u.unify(&t, &Type::Bool) {
            let msg = format!("an assumed expression must be of type bool (got: {})", self.show(&t));
            self.error(at, msg);
        }
    }

    /// `assume !g` made of a guard, `!g` built as Boogie's `Expr.Not` builds it: `!!x` is `x`,
    /// a comparison is replaced by its negation with swapped operands (`a <= b` by `b < a`,
    /// reported at `b`), anything else is negated. The guard's parts are checked again.
    fn negated_guard(&mut self, g: &'a Expr, at: Span) {
        let before = self.errors;
        let not = match &g.kind {
            ExprKind::Unary { op: UnaryOp::Not, arg } => self.expr(arg),
            ExprKind::Binary { op, lhs, rhs }
                if matches!(
                    op,
                    BinaryOp::Eq | BinaryOp::Neq | BinaryOp::Lt | BinaryOp::Le | BinaryOp::Ge | BinaryOp::Gt
                ) =>
            {
                let (negated, first, second) = match op {
                    BinaryOp::Eq => (BinaryOp::Neq, lhs, rhs),
                    BinaryOp::Neq => (BinaryOp::Eq, lhs, rhs),
                    BinaryOp::Lt => (BinaryOp::Le, rhs, lhs),
                    BinaryOp::Le => (BinaryOp::Lt, rhs, lhs),
                    BinaryOp::Ge => (BinaryOp::Gt, rhs, lhs),
                    _ => (BinaryOp::Ge, rhs, lhs),
                };
                let t0 = self.expr(first);
                let t1 = self.expr(second);
                if self.errors != before {
                    Unifier::error_type()
                } else {
                    self.binary(negated, &t0, &t1, first.span).unwrap_or_else(Unifier::error_type)
                }
            }
            _ => {
                let t = self.expr(g);
                if self.errors != before {
                    Unifier::error_type()
                } else if self.u.unify(&t, &Type::Bool) {
                    Type::Bool
                } else {
                    // Boogie's `Expr.Not` makes this negation at no token: `(0,-1)`.
                    let nowhere = Span { file: FileId(u32::MAX), start: 0, end: 0 };
                    let msg = format!("invalid argument type ({}) to unary operator !", self.show(&t));
                    self.error(nowhere, msg);
                    Unifier::error_type()
                }
            }
        };
        if !self.u.unify(&not, &Type::Bool) {
            let msg = format!("an assumed expression must be of type bool (got: {})", self.show(&not));
            self.error(at, msg);
        }
    }

    fn predicate(&mut self, free: bool, attrs: &'a [Attribute], e: &'a Expr, span: Span) {
        self.attributes(attrs);
        let t = self.expr(e);
        if !self.u.unify(&t, &Type::Bool) {
            let what = if free { "an assumed" } else { "an asserted" };
            let msg = format!("{what} expression must be of type bool (got: {})", self.show(&t));
            self.error(span, msg);
        }
    }

    fn measure(&mut self, attrs: &'a [Attribute], exprs: &'a [Expr]) {
        self.attributes(attrs);
        for e in exprs {
            let t = self.expr(e);
            let t = self.u.zonk(&t);
            if !(self.u.equal(&t, &Type::Int) || self.u.equal(&t, &Type::Bool)) {
                let msg = format!("a measure expression must be of type int or bool (got: {})", self.show(&t));
                self.error(e.span, msg);
            }
        }
    }

    fn cmd(&mut self, c: &'a Cmd) {
        match &c.kind {
            CmdKind::Assert { attrs, expr } => self.predicate(false, attrs, expr, c.span),
            CmdKind::Assume { attrs, expr } => self.predicate(true, attrs, expr, c.span),
            CmdKind::Havoc { vars } => {
                for v in vars {
                    self.ident_expr(v);
                }
                let assigned: Vec<VarId> = vars.iter().filter_map(|v| self.var_at(v)).collect();
                self.check_assignments(&assigned, c.span);
            }
            CmdKind::Assign { lhss, attrs, rhss } => self.assign(lhss, attrs, rhss, c.span),
            CmdKind::Unpack { ctor, vars, attrs, rhs } => self.unpack(ctor, vars, attrs, rhs, c.span),
            CmdKind::Call(call) => self.call(call),
            CmdKind::ParCall { calls } => {
                for call in calls {
                    self.call(call);
                }
            }
            CmdKind::Measure { attrs, exprs } => self.measure(attrs, exprs),
            CmdKind::HideReveal { .. } | CmdKind::ChangeScope { .. } => {}
        }
    }

    fn ident_expr(&mut self, v: &Ident) -> Option<Type> {
        self.var_at(v).map(|id| self.var_type(id))
    }

    /// Boogie's `Cmd.CheckAssignments`.
    fn check_assignments(&mut self, assigned: &[VarId], at: Span) {
        for &v in assigned {
            let info = &self.sy.vars[v.index()];
            let mutable = matches!(info.kind, VarKind::Global | VarKind::Out | VarKind::Local);
            if !mutable {
                let msg = format!("command assigns to an immutable variable: {}", info.name.name);
                self.error(at, msg);
            } else if info.kind == VarKind::Global && !self.options.infer_modifies {
                let Some(frame) = self.frame else { continue };
                if frame.civl {
                    continue;
                }
                let Some(pid) = frame.procedure else { continue };
                if !self.sy.procedures[pid.index()].modifies.contains(&v) {
                    let msg = format!(
                        "command assigns to a global variable that is not in the enclosing procedure's modifies clause: {}",
                        info.name.name
                    );
                    self.error(at, msg);
                }
            }
        }
    }

    fn assign(&mut self, lhss: &'a [AssignLhs], attrs: &'a [Attribute], rhss: &'a [Expr], at: Span) {
        let before = self.errors;
        self.attributes(attrs);
        let mut ltypes = Vec::with_capacity(lhss.len());
        for l in lhss {
            ltypes.push(self.lhs(l));
        }
        let mut rtypes = Vec::with_capacity(rhss.len());
        for r in rhss {
            rtypes.push(self.expr(r));
        }
        if self.errors > before {
            return;
        }
        let assigned: Vec<VarId> = lhss.iter().filter_map(|l| self.var_at(lhs_root(l))).collect();
        self.check_assignments(&assigned, at);
        for ((l, lt), rt) in lhss.iter().zip(ltypes).zip(rtypes) {
            let Some(lt) = lt else { continue };
            if !self.u.unify(&lt, &rt) {
                let msg = format!(
                    "mismatched types in assignment command (cannot assign {} to {})",
                    self.show(&rt),
                    self.show(&lt)
                );
                self.error(lhs_span(l), msg);
            }
        }
    }

    /// The type of an assignment's left-hand side; `None` after an error.
    fn lhs(&mut self, l: &'a AssignLhs) -> Option<Type> {
        match l {
            AssignLhs::Var(v) => self.ident_expr(v).map(|t| t.expanded().clone()),
            AssignLhs::Select { base, indexes, span } => {
                let map = self.lhs(base);
                let mut args = Vec::with_capacity(indexes.len());
                for i in indexes.iter() {
                    args.push((self.expr(i), i.span));
                }
                let map = map.unwrap_or_else(Unifier::error_type);
                let order = self.next_order();
                self.map_select(
                    &map,
                    || print_lhs(base),
                    lhs_span(base),
                    &args,
                    *span,
                    "map assignment",
                    Some(NodeId::NONE),
                    order,
                )
            }
            AssignLhs::Field { base, field, .. } => {
                let before = self.errors;
                let t = self.lhs(base);
                if self.errors != before {
                    return None;
                }
                self.field_access(&t.unwrap_or_else(Unifier::error_type), field, field.span)
            }
        }
    }

    fn unpack(&mut self, ctor: &Ident, vars: &'a [Ident], attrs: &'a [Attribute], rhs: &'a Expr, at: Span) {
        self.attributes(attrs);
        // The left side is the application `C(vars)`.
        let before = self.errors;
        let args: Vec<(Type, Span)> =
            vars.iter().map(|v| (self.ident_expr(v).unwrap_or_else(Unifier::error_type), v.span)).collect();
        let fid = self.function(ctor.id);
        let ltype = match fid {
            Some(f) if self.errors == before => self.apply_function(f, &args, ctor.span, None, 0),
            _ => None,
        };
        let rtype = self.expr(rhs);
        let assigned: Vec<VarId> = vars.iter().filter_map(|v| self.var_at(v)).collect();
        self.check_assignments(&assigned, at);
        let Some(ltype) = ltype else { return };
        if !self.u.unify(&ltype, &rtype) {
            let msg = format!(
                "mismatched types in assignment command (cannot assign {} to {})",
                self.show(&rtype),
                self.show(&ltype)
            );
            self.error(at, msg);
            return;
        }
        if let Some(f) = fid
            && !matches!(self.sy.functions[f.index()].kind, super::FunctionKind::Constructor { .. })
        {
            self.error(at, "left side of unpack command must be a constructor application");
        }
        let mut seen = Vec::new();
        for v in &assigned {
            if seen.contains(v) {
                let msg = format!(
                    "variable {} is assigned more than once in unpack command",
                    self.sy.vars[v.index()].name.name
                );
                self.error(at, msg);
            } else {
                seen.push(*v);
            }
        }
    }

    fn call(&mut self, call: &'a CallCmd) {
        self.attributes(&call.attrs);
        let mut ins = Vec::with_capacity(call.args.len());
        for a in &call.args {
            ins.push((self.expr(a), a.span));
        }
        let mut outs = Vec::with_capacity(call.outs.len());
        for o in &call.outs {
            outs.push((self.ident_expr(o).unwrap_or_else(Unifier::error_type), o.span));
        }
        let Some(pid) = self.procedure(call.callee.id) else { return };
        let mut assigned: Vec<VarId> = Vec::new();
        if !call.is_async {
            assigned.extend(call.outs.iter().filter_map(|o| self.var_at(o)));
            assigned.extend(self.sy.procedures[pid.index()].modifies.iter().copied());
        }
        self.check_assignments(&assigned, call.span);
        let sy = self.sy;
        let p = &sy.procedures[pid.index()];
        let formal_ins: Vec<Type> = p.ins.iter().map(|v| sy.vars[v.index()].ty.clone()).collect();
        let formal_outs: Vec<Type> = p.outs.iter().map(|v| sy.vars[v.index()].ty.clone()).collect();
        let op = expr::OpName::CallTo(call.callee.name);
        self.check_argument_types(&p.type_params, &formal_ins, &ins, &formal_outs, Some(&outs), call.span, op);
    }

    // -----------------------------------------------------------------------------------------
    // Attributes

    /// Boogie's `TypecheckAttributes`.
    fn attributes(&mut self, attrs: &'a [Attribute]) {
        self.attribute_depth += 1;
        self.attribute_params(attrs);
        self.attribute_depth -= 1;
    }

    fn attribute_params(&mut self, attrs: &'a [Attribute]) {
        for a in attrs {
            for p in &a.params {
                let ty = match p {
                    AttrParam::Expr(e) => Some(self.expr(e)),
                    AttrParam::Str(..) => None,
                };
                if a.key == "minimize" || a.key == "maximize" {
                    let ok = ty.as_ref().is_some_and(|t| self.u.is_int(t) || self.u.is_real(t) || self.u.is_bv(t));
                    if !ok {
                        self.error(
                            a.span,
                            "attributes :minimize and :maximize accept only one argument of type int, real or bv",
                        );
                        break;
                    }
                }
                if a.key == "verified_under" {
                    let ok = ty.as_ref().is_some_and(|t| self.u.is_bool(t));
                    if !ok {
                        self.error(a.span, "attribute :verified_under accepts only one argument of type bool");
                        break;
                    }
                }
            }
        }
    }

    /// Attributes Boogie never type-checks: their expressions get types, errors are dropped.
    fn unchecked_attributes(&mut self, attrs: &'a [Attribute]) {
        self.silent += 1;
        self.attributes(attrs);
        self.silent -= 1;
    }

    fn next_order(&mut self) -> u32 {
        self.next_order += 1;
        self.next_order
    }

    // -----------------------------------------------------------------------------------------
    // Function dependencies (Boogie's FunctionDependencyChecker, before type checking)

    /// Returns false when type checking must not go on.
    fn function_dependencies(&mut self) -> bool {
        let mut functions: Vec<(&'a FunctionDecl, bool, bool)> = Vec::new();
        for d in &self.program.decls {
            if let Decl::Function(f) = d {
                let inline_attr = f.attrs.iter().find(|a| a.key == "inline");
                if let Some(a) = inline_attr
                    && let Some(AttrParam::Expr(e)) = a.params.first()
                    && !matches!(e.kind, ExprKind::BoolLit(_))
                {
                    self.error(f.name.span, "Parameter to :inline attribute on a function must be Boolean");
                }
                let inline = find_bool_attr(&f.attrs, "inline");
                let define = find_bool_attr(&f.attrs, "define");
                if inline && define {
                    self.error(f.name.span, "A function may not have both :inline and :define attributes");
                }
                if inline && f.body.is_none() {
                    self.error(f.name.span, "Function with :inline attribute must have a body");
                }
                if define && f.body.is_none() {
                    self.error(f.name.span, "Function with :define attribute must have a body");
                }
                functions.push((f, inline, define));
            }
        }
        if self.errors > 0 {
            return false;
        }
        // The graph: an edge from an inline/define function to every inline/define function its
        // body calls.
        let mut index_of: FxHashMap<FunctionId, usize> = FxHashMap::default();
        let mut nodes: Vec<&'a FunctionDecl> = Vec::new();
        for (f, inline, define) in &functions {
            if (*inline || *define)
                && let Some(id) =
                    self.function(f.name.id).or_else(|| self.sy.functions_by_name.get(&f.name.name).copied())
            {
                index_of.insert(id, nodes.len());
                nodes.push(f);
            }
        }
        if nodes.is_empty() {
            return true;
        }
        let mut edges: Vec<Vec<usize>> = vec![Vec::new(); nodes.len()];
        for (i, f) in nodes.iter().enumerate() {
            if let Some(body) = &f.body {
                let mut calls = Vec::new();
                collect_calls(body, &mut |id| calls.push(id));
                for id in calls {
                    if let Some(callee) = self.function(id)
                        && let Some(&j) = index_of.get(&callee)
                        && !edges[i].contains(&j)
                    {
                        edges[i].push(j);
                    }
                }
            }
        }
        let before = self.errors;
        for scc in strongly_connected_components(&edges) {
            let cyclic = scc.len() > 1 || edges[scc[0]].contains(&scc[0]);
            if cyclic {
                let names: Vec<String> = scc.iter().map(|&i| nodes[i].name.name.to_string()).collect();
                let at = nodes[scc[0]].name.span;
                self.error(at, format!("Call cycle detected among functions: {}", names.join(", ")));
            }
        }
        self.errors == before
    }

    // -----------------------------------------------------------------------------------------
    // Ambiguities (Boogie's TypeAmbiguitySeeker) and the result

    fn resolve_ambiguities(&mut self) {
        let mut order: Vec<usize> = (0..self.insts.len()).collect();
        order.sort_by_key(|&i| self.insts[i].order);
        for i in order {
            let (params, inst) = self.instantiation(i);
            let span = self.insts[i].span;
            for (p, t) in params.iter().zip(&inst) {
                if self.u.has_free_proxy(t) && self.insts[i].in_attribute {
                    // Boogie leaves it a proxy, which its monomorphization then refuses.
                    self.instantiate_proxies(t);
                    self.ambiguous_in_attributes.push(span);
                } else if self.u.has_free_proxy(t) {
                    self.instantiate_proxies(t);
                    let msg = format!(
                        "type parameter {} is ambiguous, instantiating to {}",
                        Names { sy: self.sy, u: &self.u }.type_var_name(*p),
                        self.show(t)
                    );
                    self.warning(span, msg);
                }
            }
        }
    }

    /// The type parameters and instantiation of record `i`, as known now.
    fn instantiation(&mut self, i: usize) -> (Vec<TypeVarId>, Vec<Type>) {
        match &self.insts[i].inst {
            Inst::Known(ts) => (self.insts[i].params.clone(), ts.clone()),
            Inst::OnMapProxy { map, args, result } => {
                let (map, mut args) = (map.clone(), args.clone());
                args.push(result.clone());
                match self.u.shallow(&map) {
                    Type::Map(m) if !m.type_params.is_empty() && m.args.len() + 1 == args.len() => {
                        let mut formals = m.args.clone();
                        formals.push(m.result.clone());
                        let inst = self.u.infer_type_params(&m.type_params, &formals, &args);
                        self.insts[i].params = m.type_params.clone();
                        self.insts[i].inst = Inst::Known(inst.clone());
                        (m.type_params.clone(), inst)
                    }
                    _ => (Vec::new(), Vec::new()),
                }
            }
        }
    }

    /// Boogie's `InTypeSeeker`: every unbound proxy in `t` gets a default.
    fn instantiate_proxies(&mut self, t: &Type) {
        match t {
            Type::Proxy(p) => {
                if let Some(b) = self.u.proxy_for(*p) {
                    return self.instantiate_proxies(&b);
                }
                let default = match self.u.kind(*p).clone() {
                    ProxyKind::Plain => Type::Int,
                    ProxyKind::Bv { min_bits, .. } => Type::Bv(min_bits),
                    ProxyKind::Map { arity, .. } => {
                        let mut params = Vec::with_capacity(arity + 1);
                        let mut args = Vec::with_capacity(arity);
                        for i in 0..arity {
                            let v = self.u.fresh_var(FreshName::Named(Symbol::intern(&format!("arg{i}"))));
                            params.push(v);
                            args.push(Type::Var(v));
                        }
                        let r = self.u.fresh_var(FreshName::Named(Symbol::intern("res")));
                        params.push(r);
                        Type::Map(std::rc::Rc::new(super::types::MapType {
                            type_params: params,
                            args,
                            result: Type::Var(r),
                        }))
                    }
                };
                self.u.unify(t, &default);
            }
            Type::Ctor(_, args) => args.iter().for_each(|a| self.instantiate_proxies(a)),
            Type::Map(m) => {
                m.args.iter().for_each(|a| self.instantiate_proxies(a));
                self.instantiate_proxies(&m.result);
            }
            Type::Synonym(s) => self.instantiate_proxies(&s.expansion),
            _ => {}
        }
    }

    fn finish(mut self) -> (Typing, Vec<Diagnostic>) {
        let mut typing = Typing {
            builtins: std::mem::take(&mut self.builtins),
            ambiguous_in_attributes: std::mem::take(&mut self.ambiguous_in_attributes),
            ..Typing::default()
        };
        let error = self.u.zonk(&Unifier::error_type());
        // In place: the table is as long as the program has expressions. Without proxies (a
        // monomorphic program: the check after monomorphization) no type is walked.
        let identity = self.u.zonk_is_identity();
        typing.expr_types = std::mem::take(&mut self.types)
            .into_iter()
            .map(|t| match t {
                Some(t) if identity => t,
                Some(t) => self.u.zonked(t),
                None => error.clone(),
            })
            .collect();
        for i in 0..self.insts.len() {
            let (_, inst) = self.instantiation(i);
            let node = self.insts[i].node;
            if node.0 != NodeId::NONE.0 {
                typing.instantiations.insert(node.0, inst.iter().map(|t| self.u.zonk(t)).collect());
            }
        }
        (typing, self.diags)
    }
}

/// The substitution that maps a constructor's own result type `ctor_result` (a datatype
/// applied to type variables) to `target` (the same datatype applied to other types).
fn ctor_subst(ctor_result: &Type, target: &Type) -> super::unify::Subst {
    let mut s = super::unify::Subst::default();
    if let (Type::Ctor(_, xs), Type::Ctor(_, ys)) = (ctor_result.expanded(), target.expanded()) {
        for (x, y) in xs.iter().zip(ys.iter()) {
            if let Type::Var(v) = x {
                s.insert(*v, y.clone());
            }
        }
    }
    s
}

/// The variable an assignment target assigns.
pub(crate) fn lhs_root(l: &AssignLhs) -> &Ident {
    match l {
        AssignLhs::Var(v) => v,
        AssignLhs::Select { base, .. } | AssignLhs::Field { base, .. } => lhs_root(base),
    }
}

fn lhs_span(l: &AssignLhs) -> Span {
    match l {
        AssignLhs::Var(v) => v.span,
        AssignLhs::Select { span, .. } | AssignLhs::Field { span, .. } => *span,
    }
}

/// An assignment's left-hand side as Boogie prints it (`AssignLhs.Emit`).
fn print_lhs(l: &AssignLhs) -> String {
    match l {
        AssignLhs::Var(v) => v.name.to_string(),
        AssignLhs::Select { base, indexes, .. } => {
            let idx: Vec<String> = indexes.iter().map(crate::printer::print_expr).collect();
            format!("{}[{}]", print_lhs(base), idx.join(", "))
        }
        AssignLhs::Field { base, field, .. } => format!("{}->{}", print_lhs(base), field.name),
    }
}

/// Calls `f` with the span of every function application in `e` (for the dependency graph).
fn collect_calls(e: &Expr, f: &mut dyn FnMut(NodeId)) {
    if let ExprKind::Call { .. } = e.kind {
        f(e.id);
    }
    e.for_each_child(&mut |c| collect_calls(c, f));
}

/// Tarjan's algorithm (the graphs are a program's few inline functions; no library needed).
fn strongly_connected_components(edges: &[Vec<usize>]) -> Vec<Vec<usize>> {
    struct State<'e> {
        edges: &'e [Vec<usize>],
        index: Vec<Option<usize>>,
        low: Vec<usize>,
        on_stack: Vec<bool>,
        stack: Vec<usize>,
        next: usize,
        out: Vec<Vec<usize>>,
    }
    fn visit(s: &mut State, v: usize) {
        s.index[v] = Some(s.next);
        s.low[v] = s.next;
        s.next += 1;
        s.stack.push(v);
        s.on_stack[v] = true;
        for &w in &s.edges[v] {
            match s.index[w] {
                None => {
                    visit(s, w);
                    s.low[v] = s.low[v].min(s.low[w]);
                }
                Some(i) if s.on_stack[w] => s.low[v] = s.low[v].min(i),
                _ => {}
            }
        }
        if Some(s.low[v]) == s.index[v] {
            let mut scc = Vec::new();
            while let Some(w) = s.stack.pop() {
                s.on_stack[w] = false;
                scc.push(w);
                if w == v {
                    break;
                }
            }
            scc.reverse();
            s.out.push(scc);
        }
    }
    let n = edges.len();
    let mut s = State {
        edges,
        index: vec![None; n],
        low: vec![0; n],
        on_stack: vec![false; n],
        stack: Vec::new(),
        next: 0,
        out: Vec::new(),
    };
    for v in 0..n {
        if s.index[v].is_none() {
            visit(&mut s, v);
        }
    }
    s.out
}
