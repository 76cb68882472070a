//! Lambda lifting: every `lambda` becomes an application of a fresh function, defined by an
//! axiom (Boogie's `LambdaHelper.ExpandLambdas` with its default `MaxHolesLambdaLifter`).
//!
//! Expects a type-checked program. Guarantees a program without lambda expressions (but for
//! the rare ones described below, left for vcgen to refuse), with for each lifted lambda
//! `lambda<A> x: X :: body` of type `M`:
//! - a function `lambda#N<F>(l#0: T0, .., l#k: Tk): M`, where `l#0..l#k` stand for the
//!   lambda's *holes*, its maximal subexpressions that mention none of its bound variables
//!   (its own, nor those of quantifiers and lets inside it) and whose types mention none of
//!   its bound type variables, in source order: attributes first, then the body; `F` are the type variables free in the lambda (of the enclosing
//!   procedure, function or quantifier);
//! - an axiom `forall<A, F> l#0: T0, .., x: X :: {:attrs} {lambda#N(l#0, ..)[x]}
//!   lambda#N(l#0, ..)[x] == body'`, `body'` being the body with each hole replaced by its
//!   `l#i`, and the lambda's attributes (holes replaced too) on it and on the function;
//! - the lambda itself replaced by `lambda#N(hole0, .., holek)`, coerced to `M` when a type
//!   variable of the function occurs in its result type only (so re-checking infers it).
//!
//! `old` inside a lambda first moves onto the global variables it governs (`old(g + x)`
//! becomes `old(g) + x`), so `old(g)` is a hole of its own, evaluated where the lambda was;
//! globals outside `old` are holes too, hence the lambda's meaning in a two-state context is
//! kept. Inner lambdas are lifted before the lambdas around them, so an inner lambda's holes
//! become parts of the outer one's body, as in Boogie.
//!
//! Lambdas whose lifted forms are alpha-equivalent (same shape up to the names of bound
//! variables, holes of the same types in the same places, same types) share one function,
//! as in Boogie's `LiftedLambdas` under `AlphaEquality`, so that `(lambda x: int :: a + b)`
//! and `(lambda x: int :: b + a)` are provably equal; a lambda with attributes (its own, or
//! a quantifier's or let's inside it) is equal to no other. As in Boogie, each lambda takes a
//! name from the counter whether or not it ends up sharing one, so numbers may skip.
//! Functions and axioms go at the end of the program, functions first.
//!
//! Left as they are (vcgen refuses them): lambdas containing code expressions, and lambdas
//! with a free type variable that occurs neither in a hole's type nor in the lambda's type
//! (it could not be passed to the function).
//!
//! How: the declarations resolution lists as having lambdas are edited in place ([`edit`]),
//! in the pipeline on the input itself ([`super::Pass::run_owned`]): each outermost lambda is
//! replaced by its lifted copy, made through [`rewrite`], and nothing else is copied (copying
//! the whole program, as before, took half again the memory the program held and most of
//! the pass's time: on a 10 MB Dafny-like program the pass took 0.135 s, now 0.070 s, and
//! `/noVerify`'s peak memory fell from 400 to 340 MB). At a lambda the copy first lifts the
//! lambdas inside it, then moves `old` inward ([`OldOnGlobals`]), marks the nodes that
//! mention a bound variable ([`Lifter::mark`]), and copies the body again replacing every
//! unmarked node by a fresh variable ([`HoleFiller`]). A call carries the [`NodeId`] of the
//! lambda it replaces (`old(g)` the id of `g`), so an enclosing lambda can still find every
//! type in the typed program. Every other node built here (the holes' variables, the
//! functions, their axioms) gets a fresh identity, with its type, referent and
//! instantiation recorded in an [`Extension`] of the input's tables: the output is not
//! resolved and checked again ([`Output::Typed`]; on `Seq.bpl`-like input that check was a
//! seventh of `/noVerify`'s time). Forms the extension does not record (a lambda with
//! attributes, calls needing a coercion, renamed type variables, a lambda left as it is,
//! `/freeVarLambdaLifting`) have the whole output checked again instead. Identifiers built
//! here are located at the lambda they come from.

use rustc_hash::{FxHashMap, FxHashSet};

use super::{Output, PassError, edit, rewrite};
use crate::ast::{
    self, AttrParam, Attribute, AxiomDecl, BinaryOp, Decl, Expr, ExprKind, FnParam, FunctionDecl, Ident, LetExpr,
    NodeId, Program, QuantKind, Quantifier, Span, Symbol, Trigger, TypeKind, VarGroup,
};
use crate::typeck::extend::Extension;
use crate::typeck::{
    DeclIndex, FunctionId, FunctionInfo, FunctionKind, Ref, Type, TypeVarId, TypedProgram, VarId, VarKind,
};

/// The pass: `/freeVarLambdaLifting` lifts over free variables only.
#[derive(Default)]
pub struct LiftLambdas {
    pub free_vars_only: bool,
}

impl super::Pass for LiftLambdas {
    fn name(&self) -> &'static str {
        "lambda"
    }

    fn run(&self, typed: &TypedProgram, _cx: &mut super::PassCx) -> Result<Option<Program>, PassError> {
        Ok(run(typed, self.free_vars_only).map(|output| match output {
            Output::Program(program) | Output::Typed(program, _) => program,
        }))
    }

    fn run_typed(&self, typed: &TypedProgram, _cx: &mut super::PassCx) -> Result<Option<Output>, PassError> {
        Ok(run(typed, self.free_vars_only))
    }

    fn run_owned(&self, typed: &mut TypedProgram, _cx: &mut super::PassCx) -> Result<Option<Output>, PassError> {
        if typed.resolution.decls_with_lambdas.is_empty() {
            return Ok(None);
        }
        let decls = std::mem::take(&mut typed.program.decls);
        Ok(match lift(typed, decls, self.free_vars_only) {
            Ok(output) => Some(output),
            Err(decls) => {
                typed.program.decls = decls;
                None
            }
        })
    }
}

/// The pass on a copy of `typed`'s declarations.
fn run(typed: &TypedProgram, free_vars_only: bool) -> Option<Output> {
    // Resolution lists the declarations with lambdas; without any, nothing is copied.
    if typed.resolution.decls_with_lambdas.is_empty() {
        return None;
    }
    lift(typed, typed.program.decls.clone(), free_vars_only).ok()
}

/// Lifts the lambdas of `decls` (`typed`'s declarations, which `typed` itself may no longer
/// hold) in place: only the declarations resolution lists, and in them only the lambdas, are
/// edited ([`edit`]); the rest of the tree is kept as it is. `decls` back when nothing was
/// lifted.
fn lift(typed: &TypedProgram, mut decls: Vec<Decl>, free_vars_only: bool) -> Result<Output, Vec<Decl>> {
    let mut lifter = Lifter::new(typed, decls.len());
    lifter.free_vars_only = free_vars_only;
    lifter.typed_ok = !free_vars_only;
    for d in &typed.resolution.decls_with_lambdas {
        edit::decl(&mut lifter, &mut decls[d.0 as usize]);
    }
    if lifter.lifted.is_empty() {
        return Err(decls);
    }
    decls.extend(lifter.functions.into_iter().map(|f| Decl::Function(Box::new(f))));
    decls.extend(lifter.axioms.into_iter().map(|a| Decl::Axiom(Box::new(a))));
    let program = Program { decls };
    Ok(if lifter.typed_ok {
        // Every lambda was lifted ([`Lifter::typed_ok`]).
        lifter.ext.no_lambdas_left();
        Output::Typed(program, lifter.ext)
    } else {
        Output::Program(program)
    })
}

/// A lifted lambda as compared for sharing: its body and attributes with bound variables
/// renamed by binding order and the types of binders, holes and the lambda kept aside as
/// resolved types (synonyms expanded).
#[derive(PartialEq)]
struct Shape {
    type_params: usize,
    dummy_types: Vec<Type>,
    hole_types: Vec<Type>,
    binder_types: Vec<Type>,
    result: Type,
    attrs: Box<[Attribute]>,
    body: Expr,
}

impl Shape {
    /// A hash consistent with `==`: the types, and the body's operators and names (attributes
    /// left out), so that sharing looks among a few candidates, not every lambda lifted.
    fn key(&self) -> u64 {
        use std::hash::{Hash, Hasher};
        fn body(e: &Expr, h: &mut rustc_hash::FxHasher) {
            std::mem::discriminant(&e.kind).hash(h);
            match &e.kind {
                ExprKind::Var(v) => v.name.hash(h),
                ExprKind::Call { func, .. } => func.hash(h),
                _ => {}
            }
            e.for_each_child(&mut |c| body(c, h));
        }
        let mut h = rustc_hash::FxHasher::default();
        (self.type_params, &self.dummy_types, &self.hole_types, &self.binder_types, &self.result).hash(&mut h);
        body(&self.body, &mut h);
        h.finish()
    }
}

struct Lifted {
    shape: Shape,
    function: Symbol,
    function_id: FunctionId,
    /// The function's type parameters (the type variables free in the lambda).
    free_vars: Vec<TypeVarId>,
    /// Its definition axiom, by index in [`Lifter::axioms`], and the number of its holes.
    axiom: usize,
    holes: usize,
    /// Some type parameter of the function occurs in its result type only: calls are coerced.
    coerce: bool,
}

/// A lambda to define: what [`Lifter::lift`] found out about it.
struct Lambda<'q> {
    quantifier: &'q Quantifier,
    number: usize,
    span: Span,
    /// The function's type parameters.
    free_vars: Vec<TypeVarId>,
    coerce: bool,
    hole_names: Vec<Symbol>,
    /// The identifier of each hole's variable in the body.
    hole_occurrences: Vec<NodeId>,
    hole_types: Vec<Type>,
    /// The lambda's bound variables.
    dummies: Vec<VarId>,
    dummy_types: Vec<Type>,
    result: Type,
    /// Attributes and body with the holes replaced.
    attrs: Box<[Attribute]>,
    body: Expr,
}

struct Lifter<'a> {
    typed: &'a TypedProgram,
    /// How many declarations the program has: the functions built here are declared after them.
    decl_count: usize,
    /// Names of functions and globals: a function name must not clash with them.
    taken: FxHashSet<Symbol>,
    /// Boogie's `lambdaid`: one number per lambda met, shared or not.
    counter: usize,
    lifted: Vec<Lifted>,
    /// The lifted lambdas by [`Shape::key`]: only shapes with one key can be equal.
    by_key: FxHashMap<u64, Vec<usize>>,
    functions: Vec<FunctionDecl>,
    axioms: Vec<AxiomDecl>,
    /// The entries of what is built here ([`Output::Typed`]): calls, the functions, their
    /// axioms. Copied nodes keep their identities, and with them their entries.
    ext: Extension,
    /// Whether every lambda was lifted in the common form that [`Lifter::ext`] records. A
    /// lambda with attributes, one whose calls need a coercion, one whose type variables are
    /// renamed, one left as it is, and `/freeVarLambdaLifting` make the output checked again.
    typed_ok: bool,
    // --- per lambda, while marking
    /// Variables bound in the lambda being lifted (its own and those of binders inside it).
    bound: FxHashSet<VarId>,
    /// Type variables bound in the lambda being lifted (its own and those of quantifiers in it).
    bound_type_vars: FxHashSet<TypeVarId>,
    /// Numbers of the expressions that mention a bound variable.
    marked: FxHashSet<u32>,
    binder_names: FxHashSet<Symbol>,
    has_code: bool,
    /// `/freeVarLambdaLifting`: the holes are the free variables (and `old(g)`), one per
    /// variable, rather than the maximal subexpressions without bound variables.
    free_vars_only: bool,
}

impl<'a> Lifter<'a> {
    fn new(typed: &'a TypedProgram, decl_count: usize) -> Lifter<'a> {
        let s = typed.symbols();
        let taken = s.functions_by_name.keys().chain(s.globals.keys()).copied().collect();
        Lifter {
            typed,
            decl_count,
            taken,
            counter: 0,
            lifted: Vec::new(),
            by_key: FxHashMap::default(),
            functions: Vec::new(),
            axioms: Vec::new(),
            ext: Extension::new(typed),
            typed_ok: true,
            bound: FxHashSet::default(),
            bound_type_vars: FxHashSet::default(),
            marked: FxHashSet::default(),
            binder_names: FxHashSet::default(),
            has_code: false,
            free_vars_only: false,
        }
    }

    // --- one lambda

    /// The application that replaces lambda `e` (whose inner lambdas are lifted already in
    /// `attrs` and `body`), or `None` when this lambda stays.
    fn lift(&mut self, e: &Expr, q: &Quantifier, attrs: Box<[Attribute]>, body: Expr, number: usize) -> Option<Expr> {
        let typed = self.typed;
        let symbols = typed.symbols();

        // `old` only around globals.
        let mut old = OldOnGlobals { typed, in_old: false };
        let attrs = rewrite::attrs(&mut old, &attrs);
        let body = rewrite::expr(&mut old, &body);

        // What is bound, and which nodes mention it.
        self.bound.clear();
        self.bound_type_vars.clear();
        self.marked.clear();
        self.binder_names.clear();
        self.has_code = false;
        let mut dummies = Vec::new();
        for g in &q.vars {
            for name in &g.names {
                let Some(Ref::Var(v)) = typed.referent(name) else { return None };
                self.bound.insert(v);
                self.binder_names.insert(name.name);
                dummies.push(v);
            }
        }
        for tp in &q.type_params {
            let Some(Ref::TypeVar(v)) = typed.referent(tp) else { return None };
            self.bound_type_vars.insert(v);
        }
        self.mark_attrs(&attrs);
        self.mark(&body);
        if self.has_code {
            return None;
        }

        // Holes out, fresh variables in: attributes first, then the body (Boogie's order).
        let mut filler = HoleFiller {
            typed,
            marked: &self.marked,
            taken: &self.binder_names,
            holes: Vec::new(),
            names: Vec::new(),
            occurrences: Vec::new(),
            ext: &mut self.ext,
            next: 0,
            free_vars: self.free_vars_only.then(|| FreeVarHoles {
                typed,
                bound: &self.bound,
                seen: FxHashMap::default(),
            }),
        };
        let lifted_attrs = rewrite::attrs(&mut filler, &attrs);
        let lifted_body = rewrite::expr(&mut filler, &body);
        let HoleFiller { holes, names: hole_names, occurrences, .. } = filler;

        // Types: holes', the lambda's, and the type variables free in the lifted lambda.
        let hole_types: Vec<Type> = holes.iter().map(|h| typed.type_of(h.id).clone()).collect();
        let result = typed.type_of(e.id).clone();
        let dummy_types: Vec<Type> = dummies.iter().map(|v| symbols.var(*v).ty.clone()).collect();
        let (free_vars, coerce) = self.free_type_params(&hole_types, &result, &dummy_types, &lifted_body)?;

        // Shared with an alpha-equivalent lambda lifted before?
        let shape = Shape {
            type_params: q.type_params.len(),
            dummy_types: dummy_types.iter().map(Type::deep_expanded).collect(),
            hole_types: hole_types.iter().map(Type::deep_expanded).collect(),
            binder_types: Vec::new(),
            result: result.deep_expanded(),
            attrs: Box::new([]),
            body: lifted_body.clone(),
        };
        let shape = self.canonical(shape, &dummies, &lifted_attrs);
        // Boogie compares attributes by reference (`QKeyValue.Equals` compares its parameter
        // lists as objects), so a lambda with an attribute, on it or on a binder inside it,
        // never shares a function: sharing it would prove `a == b` where Boogie cannot.
        let shareable = lifted_attrs.is_empty() && !has_binder_attrs(&shape.body);
        // The common form, whose entries are recorded (see [`Lifter::typed_ok`]).
        self.typed_ok &= shareable && !coerce && q.vars.iter().all(|g| g.attrs.is_empty());
        let key = shape.key();
        let same = self.by_key.get(&key).and_then(|ls| ls.iter().find(|&&l| self.lifted[l].shape == shape));
        if shareable && let Some(&l) = same {
            let l = &self.lifted[l];
            let (function, coerce, axiom, hole_count) = (l.function, l.coerce, l.axiom, l.holes);
            let (function_id, free_vars) = (l.function_id, l.free_vars.clone());
            self.merge_variable_attrs(axiom, hole_count, q);
            return Some(self.application(function, function_id, &free_vars, coerce, holes, &result, e));
        }
        let hole_count = holes.len();

        let (function, function_id) = self.define(Lambda {
            quantifier: q,
            number,
            span: e.span,
            free_vars: free_vars.clone(),
            coerce,
            hole_names,
            hole_occurrences: occurrences,
            hole_types,
            dummies,
            dummy_types,
            result: result.clone(),
            attrs: lifted_attrs,
            body: lifted_body,
        });
        self.by_key.entry(key).or_default().push(self.lifted.len());
        self.lifted.push(Lifted {
            shape,
            function,
            function_id,
            free_vars: free_vars.clone(),
            axiom: self.axioms.len() - 1,
            holes: hole_count,
            coerce,
        });
        Some(self.application(function, function_id, &free_vars, coerce, holes, &result, e))
    }

    /// Boogie's `LiftedLambdas.TryGetValue`: a lambda that shares the function of one lifted
    /// before adds its variables' attributes to the first one's, variable by variable (but
    /// for those already there), so the shared definition axiom carries the `{:pool}`s of
    /// both. Only attributes of strings move: an expression would name the other lambda's
    /// variables.
    fn merge_variable_attrs(&mut self, axiom: usize, holes: usize, q: &Quantifier) {
        let extra: Vec<&[Attribute]> = q.vars.iter().flat_map(|g| g.names.iter().map(move |_| &g.attrs[..])).collect();
        if extra.iter().all(|a| a.is_empty()) {
            return;
        }
        self.typed_ok = false;
        let ExprKind::Quant(forall) = &mut self.axioms[axiom].expr.kind else { return };
        // One group per variable, so that each can take attributes of its own.
        let mut vars: Vec<VarGroup> = Vec::new();
        for g in forall.vars.iter() {
            for n in g.names.iter() {
                vars.push(VarGroup { names: Box::new([*n]), where_clause: None, ..g.clone() });
            }
        }
        for (v, extra) in vars.iter_mut().skip(holes).zip(extra) {
            let mut attrs = v.attrs.to_vec();
            for a in extra {
                let strings_only = a.params.iter().all(|p| matches!(p, AttrParam::Str(..)));
                if strings_only && !attrs.iter().any(|b| same_strings_attr(a, b)) {
                    attrs.extend(rewrite::attrs(&mut Respan, std::slice::from_ref(a)).into_vec());
                }
            }
            v.attrs = attrs.into_boxed_slice();
        }
        forall.vars = vars.into_boxed_slice();
    }

    /// Declares the function and axiom of a lambda not met before; returns the function's name.
    fn define(&mut self, lambda: Lambda) -> (Symbol, FunctionId) {
        let typed = self.typed;
        let symbols = typed.symbols();
        let Lambda {
            quantifier: q,
            number,
            span,
            free_vars,
            coerce,
            hole_names,
            hole_occurrences,
            hole_types,
            dummies,
            dummy_types,
            result,
            attrs,
            body,
        } = lambda;
        let own_type_params: Vec<TypeVarId> = q
            .type_params
            .iter()
            .filter_map(|tp| match typed.referent(tp) {
                Some(Ref::TypeVar(v)) => Some(v),
                _ => None,
            })
            .collect();
        let mut name = format!("lambda#{number}");
        while self.taken.contains(&Symbol::intern(&name)) {
            name.push('\'');
        }
        let function = Symbol::intern(&name);
        self.taken.insert(function);

        // Free type variables keep their names unless that would capture or merge them.
        let mut renames: FxHashMap<TypeVarId, Symbol> = FxHashMap::default();
        let mut used: Vec<Symbol> = own_type_params.iter().map(|v| symbols.type_vars[v.0 as usize].name.name).collect();
        for v in &free_vars {
            let base = symbols.type_vars[v.0 as usize].name.name;
            let mut n = base;
            let mut k = 0;
            while used.contains(&n) {
                k += 1;
                n = Symbol::intern(&format!("{base}#{k}"));
            }
            used.push(n);
            if n != base {
                renames.insert(*v, n);
            }
        }
        self.typed_ok &= renames.is_empty();
        let types = TypeWriter { typed, renames: &renames };
        let closed: Vec<Attribute> = attrs.iter().filter(|a| !self.attr_mentions_bound(a)).cloned().collect();
        let ext = &mut self.ext;
        // A binder of a free type variable: the function's and the axiom's share the variable
        // (their scopes do not overlap), each occurrence numbered.
        let type_param = |v: &TypeVarId, ext: &mut Extension| {
            let name = renames.get(v).copied().unwrap_or(symbols.type_vars[v.0 as usize].name.name);
            ext.ident(name, span, Some(Ref::TypeVar(*v)))
        };

        // The function.
        let mut param_vars = Vec::new();
        let params: Box<[FnParam]> = hole_names
            .iter()
            .zip(&hole_types)
            .map(|(n, t)| {
                let (name, v) = ext.declare_var(*n, span, VarKind::In, t);
                param_vars.push(v);
                FnParam { attrs: Box::new([]), name: Some(name), ty: types.ast(t, span, ext), span }
            })
            .collect();
        let fn_attrs = rewrite::attrs(&mut Respan, &closed);
        let function_name = ext.ident(function, span, None);
        let function_id = ext.add_function(FunctionInfo {
            name: function_name,
            kind: FunctionKind::Declared,
            type_params: free_vars.clone(),
            params: param_vars,
            param_types: hole_types.clone(),
            result: result.clone(),
            decl: Some(DeclIndex((self.decl_count + self.functions.len()) as u32)),
        });
        ext.bind(function_name.id, Ref::Function(function_id));
        let function_type_params = free_vars.iter().map(|v| type_param(v, ext)).collect();
        let result_ty = types.ast(&result, span, ext);
        self.functions.push(FunctionDecl {
            revealed: false,
            attrs: fn_attrs,
            name: function_name,
            type_params: function_type_params,
            params,
            result: FnParam { attrs: Box::new([]), name: None, ty: result_ty, span },
            returns_form: false,
            body: None,
            uses: None,
            span,
        });

        // The axiom's variables: the holes', then the lambda's own.
        let mut hole_vars = Vec::new();
        let mut vars: Vec<VarGroup> = hole_names
            .iter()
            .zip(&hole_types)
            .zip(&hole_occurrences)
            .map(|((n, t), occurrence)| {
                let (name, v) = ext.declare_var(*n, span, VarKind::Bound, t);
                ext.bind(*occurrence, Ref::Var(v));
                hole_vars.push(v);
                VarGroup {
                    attrs: Box::new([]),
                    names: Box::new([name]),
                    ty: types.ast(t, span, ext),
                    where_clause: None,
                    span,
                }
            })
            .collect();
        let mut dummy_index = 0;
        for g in &q.vars {
            let names = g.names.clone();
            dummy_index += names.len();
            vars.push(VarGroup {
                attrs: g.attrs.clone(),
                names,
                ty: types.ast(&dummy_types[dummy_index - 1], g.ty.span, ext),
                where_clause: None,
                span: g.span,
            });
        }

        // `lambda#N(l#0, ..)[x, ..]`, typed as the body is.
        let (map_params, body_type): (Vec<Type>, Type) = match result.expanded() {
            Type::Map(m) => (m.type_params.iter().map(|v| Type::Var(*v)).collect(), m.result.clone()),
            // Never: a lambda is a map.
            other => (Vec::new(), other.clone()),
        };
        let select = |ext: &mut Extension| {
            let args = hole_names
                .iter()
                .zip(&hole_vars)
                .zip(&hole_types)
                .map(|((n, v), t)| ext.var_expr(*n, span, *v, t))
                .collect();
            let mut f = Expr { kind: ExprKind::Call { func: function, args }, span, id: ext.fresh() };
            ext.bind(f.id, Ref::Function(function_id));
            ext.set_type(f.id, result.clone());
            if !free_vars.is_empty() {
                ext.set_instantiation(f.id, free_vars.iter().map(|v| Type::Var(*v)).collect());
            }
            if coerce {
                f = Expr {
                    kind: ExprKind::Coerce { arg: Box::new(f), ty: Box::new(types.ast(&result, span, ext)) },
                    span,
                    id: ext.fresh(),
                };
            }
            let indexes = q
                .vars
                .iter()
                .flat_map(|g| g.names.iter())
                .zip(&dummies)
                .zip(&dummy_types)
                .map(|((n, v), t)| ext.var_expr(n.name, span, *v, t))
                .collect();
            let e = Expr { kind: ExprKind::Select { map: Box::new(f), indexes }, span, id: ext.fresh() };
            ext.set_type(e.id, body_type.clone());
            if !map_params.is_empty() {
                ext.set_instantiation(e.id, map_params.clone());
            }
            e
        };
        let trigger = select(ext);
        let lhs = select(ext);
        let body =
            if renames.is_empty() { body } else { rewrite::expr(&mut RenameTypes { typed, types: &types }, &body) };
        let equation = Expr {
            kind: ExprKind::Binary { op: BinaryOp::Eq, lhs: Box::new(lhs), rhs: Box::new(body) },
            span,
            id: ext.fresh(),
        };
        ext.set_type(equation.id, Type::Bool);
        let forall = Quantifier {
            kind: QuantKind::Forall,
            type_params: q.type_params.iter().copied().chain(free_vars.iter().map(|v| type_param(v, ext))).collect(),
            vars: vars.into_boxed_slice(),
            attrs,
            triggers: Box::new([Trigger { positive: true, exprs: Box::new([trigger]), span }]),
            body: equation,
        };
        let id = ext.fresh();
        ext.set_type(id, Type::Bool);
        self.axioms.push(AxiomDecl {
            hideable: false,
            attrs: Box::new([]),
            expr: Expr { kind: ExprKind::Quant(Box::new(forall)), span, id },
            span,
        });
        (function, function_id)
    }

    /// The type parameters of a lambda's function, in order (the type variables free in the
    /// lifted lambda), and whether calls need a coercion to infer them; `None` when one of
    /// them occurs in neither the holes' types nor the lambda's, so no call could pass it.
    fn free_type_params(
        &self,
        hole_types: &[Type],
        result: &Type,
        dummy_types: &[Type],
        body: &Expr,
    ) -> Option<(Vec<TypeVarId>, bool)> {
        let mut signature_vars = Vec::new();
        hole_types.iter().for_each(|t| free_type_vars(t, &mut signature_vars));
        let in_params = signature_vars.clone();
        free_type_vars(result, &mut signature_vars);
        let mut free = Vec::new();
        dummy_types.iter().for_each(|t| free_type_vars(t, &mut free));
        self.body_type_vars(body, &mut free);
        let mut free_vars: Vec<TypeVarId> =
            signature_vars.iter().copied().filter(|v| !self.bound_type_vars.contains(v)).collect();
        for v in free {
            if self.bound_type_vars.contains(&v) || free_vars.contains(&v) {
                continue;
            }
            if !signature_vars.contains(&v) {
                return None;
            }
            free_vars.push(v);
        }
        let coerce = free_vars.iter().any(|v| !in_params.contains(v));
        Some((free_vars, coerce))
    }

    /// `f(holes)`, coerced to the lambda's type when the function needs it to be inferred.
    /// It carries the lambda's number: an enclosing lambda finds its type there.
    /// Its entries: the call refers to the function and instantiates its type parameters with
    /// themselves (the lambda's type is the call's).
    #[allow(clippy::too_many_arguments)]
    fn application(
        &mut self,
        function: Symbol,
        function_id: FunctionId,
        free_vars: &[TypeVarId],
        coerce: bool,
        holes: Vec<Expr>,
        result: &Type,
        e: &Expr,
    ) -> Expr {
        self.ext.bind(e.id, Ref::Function(function_id));
        if !free_vars.is_empty() {
            self.ext.set_instantiation(e.id, free_vars.iter().map(|v| Type::Var(*v)).collect());
        }
        let call =
            Expr { kind: ExprKind::Call { func: function, args: holes.into_boxed_slice() }, span: e.span, id: e.id };
        if !coerce {
            return call;
        }
        let types = TypeWriter { typed: self.typed, renames: &FxHashMap::default() };
        Expr {
            kind: ExprKind::Coerce { arg: Box::new(call), ty: Box::new(types.ast(result, e.span, &mut self.ext)) },
            span: e.span,
            id: e.id,
        }
    }

    /// Marks `e` and its subexpressions that mention a bound variable or bound type variable;
    /// records the binders met on the way (their variables are bound too).
    fn mark(&mut self, e: &Expr) -> bool {
        let mut mentions = false;
        match &e.kind {
            ExprKind::Var(x) => {
                mentions = matches!(self.typed.referent(x), Some(Ref::Var(v)) if self.bound.contains(&v));
            }
            ExprKind::Quant(q) => {
                for tp in &q.type_params {
                    if let Some(Ref::TypeVar(v)) = self.typed.referent(tp) {
                        self.bound_type_vars.insert(v);
                    }
                }
                for g in &q.vars {
                    for name in &g.names {
                        if let Some(Ref::Var(v)) = self.typed.referent(name) {
                            self.bound.insert(v);
                        }
                        self.binder_names.insert(name.name);
                    }
                    mentions |= self.mark_attrs(&g.attrs);
                    if let Some(w) = &g.where_clause {
                        mentions |= self.mark(w);
                    }
                }
                mentions |= self.mark_attrs(&q.attrs);
            }
            ExprKind::Let(l) => {
                for v in &l.vars {
                    if let Some(Ref::Var(id)) = self.typed.referent(&v.name) {
                        self.bound.insert(id);
                    }
                    self.binder_names.insert(v.name.name);
                    mentions |= self.mark_attrs(&v.attrs);
                }
                mentions |= self.mark_attrs(&l.attrs);
            }
            ExprKind::Code(_) => self.has_code = true,
            _ => {}
        }
        e.for_each_child(&mut |c| mentions |= self.mark(c));
        // A node whose type mentions a bound type variable (`pick(0)` at the lambda's own `T`)
        // cannot be passed in from outside either.
        if !mentions && e.id.0 != NodeId::NONE.0 {
            let mut vars = Vec::new();
            free_type_vars(self.typed.type_of(e.id), &mut vars);
            mentions = vars.iter().any(|v| self.bound_type_vars.contains(v));
        }
        if mentions {
            self.marked.insert(e.id.0);
        }
        mentions
    }

    fn mark_attrs(&mut self, attrs: &[Attribute]) -> bool {
        let mut mentions = false;
        for a in attrs {
            for p in &a.params {
                if let AttrParam::Expr(x) = p {
                    mentions |= self.mark(x);
                }
            }
        }
        mentions
    }

    /// Whether a lifted attribute still mentions a bound variable (it cannot go on the
    /// function, where only the holes' variables are in scope).
    fn attr_mentions_bound(&self, a: &Attribute) -> bool {
        fn go(lifter: &Lifter, e: &Expr) -> bool {
            let mut found = matches!(&e.kind, ExprKind::Var(x)
                if matches!(lifter.typed.referent(x), Some(Ref::Var(v)) if lifter.bound.contains(&v)));
            e.for_each_child(&mut |c| found |= go(lifter, c));
            found
        }
        a.params.iter().any(|p| matches!(p, AttrParam::Expr(x) if go(self, x)))
    }

    /// The type variables occurring in the types of the marked expressions of a lifted body
    /// and of its binders.
    fn body_type_vars(&self, e: &Expr, out: &mut Vec<TypeVarId>) {
        if e.id.0 != NodeId::NONE.0 && self.marked.contains(&e.id.0) {
            free_type_vars(self.typed.type_of(e.id), out);
        }
        if let ExprKind::Quant(q) = &e.kind {
            for g in &q.vars {
                for name in &g.names {
                    if let Some(Ref::Var(v)) = self.typed.referent(name) {
                        free_type_vars(&self.typed.symbols().var(v).ty, out);
                    }
                }
            }
        }
        e.for_each_child(&mut |c| self.body_type_vars(c, out));
    }

    /// `shape` with the bound variables of the body and attributes renamed by binding order.
    fn canonical(&self, mut shape: Shape, dummies: &[VarId], attrs: &[Attribute]) -> Shape {
        let mut canon = Canonical { typed: self.typed, names: FxHashMap::default(), binder_types: Vec::new() };
        for v in dummies {
            canon.bind(*v);
        }
        shape.attrs = rewrite::attrs(&mut canon, attrs);
        shape.body = rewrite::expr(&mut canon, &shape.body);
        shape.binder_types = canon.binder_types;
        shape
    }
}

/// In place, a lambda is replaced by its lifted copy ([`rewrite::Rewriter::expr`] below).
impl edit::Editor for Lifter<'_> {
    fn expr(&mut self, e: &mut Expr) -> bool {
        match rewrite::Rewriter::expr(self, e) {
            Some(lifted) => {
                *e = lifted;
                true
            }
            None => false,
        }
    }
}

impl rewrite::Rewriter for Lifter<'_> {
    fn expr(&mut self, e: &Expr) -> Option<Expr> {
        let ExprKind::Quant(q) = &e.kind else { return None };
        if q.kind != QuantKind::Lambda {
            return None;
        }
        // Inner lambdas first (Boogie's visitor lifts bottom-up).
        let attrs = rewrite::attrs(self, &q.attrs);
        let body = rewrite::expr(self, &q.body);
        let number = self.counter;
        self.counter += 1;
        let lifted = self.lift(e, q, attrs.clone(), body.clone(), number);
        self.typed_ok &= lifted.is_some();
        Some(lifted.unwrap_or_else(|| Expr {
            kind: ExprKind::Quant(Box::new(Quantifier {
                kind: q.kind,
                type_params: q.type_params.clone(),
                vars: rewrite::var_groups(self, &q.vars),
                attrs,
                triggers: q.triggers.clone(),
                body,
            })),
            span: e.span,
            id: e.id,
        }))
    }
}

/// Moves `old` onto the global variables under it (Boogie's `OldFinder` and
/// `ApplyReplacingOldExprs`): other variables are the same in either state.
struct OldOnGlobals<'a> {
    typed: &'a TypedProgram,
    in_old: bool,
}

impl rewrite::Rewriter for OldOnGlobals<'_> {
    fn expr(&mut self, e: &Expr) -> Option<Expr> {
        match &e.kind {
            ExprKind::Old(inner) => {
                let was = std::mem::replace(&mut self.in_old, true);
                let copy = rewrite::expr(self, inner);
                self.in_old = was;
                Some(copy)
            }
            ExprKind::Var(x) if self.in_old => match self.typed.referent(x) {
                Some(Ref::Var(v)) if self.typed.symbols().var(v).kind == VarKind::Global => {
                    Some(Expr { kind: ExprKind::Old(Box::new(e.clone())), span: e.span, id: e.id })
                }
                _ => None,
            },
            _ => None,
        }
    }
}

/// Copies a lambda's body replacing each unmarked node (one that mentions no bound variable)
/// by a fresh variable `l#i`, collecting the nodes replaced.
struct HoleFiller<'a> {
    typed: &'a TypedProgram,
    marked: &'a FxHashSet<u32>,
    /// Names of the lambda's binders, which the fresh variables must not take.
    taken: &'a FxHashSet<Symbol>,
    holes: Vec<Expr>,
    names: Vec<Symbol>,
    /// The identifier of each hole's variable (one: a hole met again under
    /// `/freeVarLambdaLifting` reuses the variable unrecorded, and that output is checked again).
    occurrences: Vec<NodeId>,
    ext: &'a mut Extension,
    next: usize,
    /// Under `/freeVarLambdaLifting` (Boogie's `LiftLambdaFreeVars`), the holes are the
    /// lambda's free variables instead, each one hole however often it occurs (`old(g)` one
    /// of its own, evaluated where the lambda is), and constants stay in the body.
    free_vars: Option<FreeVarHoles<'a>>,
}

struct FreeVarHoles<'a> {
    typed: &'a TypedProgram,
    bound: &'a FxHashSet<VarId>,
    /// The hole each free variable (and whether under `old`) got.
    seen: FxHashMap<(Symbol, bool), Symbol>,
}

impl FreeVarHoles<'_> {
    /// The key of `e`'s hole when `e` is a free variable or `old` of one.
    fn key(&self, e: &Expr) -> Option<(Symbol, bool)> {
        let (x, old) = match &e.kind {
            ExprKind::Var(x) => (x, false),
            ExprKind::Old(inner) => match &inner.kind {
                ExprKind::Var(x) => (x, true),
                _ => return None,
            },
            _ => return None,
        };
        match self.typed.referent(x) {
            Some(Ref::Var(v))
                if !self.bound.contains(&v) && !matches!(self.typed.symbols().var(v).kind, VarKind::Const { .. }) =>
            {
                Some((x.name, old))
            }
            _ => None,
        }
    }
}

impl HoleFiller<'_> {
    fn hole(&mut self, e: &Expr) -> Expr {
        let name = loop {
            let name = Symbol::intern(&format!("l#{}", self.next));
            self.next += 1;
            if !self.taken.contains(&name) {
                break name;
            }
        };
        self.holes.push(e.clone());
        self.names.push(name);
        let span = e.span;
        let ident = self.ext.ident(name, span, None);
        self.occurrences.push(ident.id);
        // An identity of its own: the hole keeps its entries (a call's referent) where it goes.
        let id = self.ext.fresh();
        self.ext.set_type(id, self.typed.type_of(e.id).clone());
        Expr { kind: ExprKind::Var(ident), span, id }
    }

    /// Attributes of a binder inside the lambda: parameters without variables (`{:weight 3}`)
    /// stay as written.
    fn inner_attrs(&mut self, attrs: &[Attribute]) -> Box<[Attribute]> {
        attrs
            .iter()
            .map(|a| Attribute {
                key: a.key,
                params: a
                    .params
                    .iter()
                    .map(|p| match p {
                        AttrParam::Expr(x) if mentions_var(x) => AttrParam::Expr(rewrite::expr(self, x)),
                        p => p.clone(),
                    })
                    .collect(),
                span: a.span,
            })
            .collect()
    }

    fn binders(&mut self, groups: &[VarGroup]) -> Box<[VarGroup]> {
        groups
            .iter()
            .map(|g| VarGroup {
                attrs: self.inner_attrs(&g.attrs),
                names: g.names.clone(),
                ty: g.ty.clone(),
                where_clause: g.where_clause.as_ref().map(|w| Box::new(rewrite::expr(self, w))),
                span: g.span,
            })
            .collect()
    }
}

impl rewrite::Rewriter for HoleFiller<'_> {
    fn expr(&mut self, e: &Expr) -> Option<Expr> {
        if let Some(free) = &self.free_vars {
            if let Some(key) = free.key(e) {
                if let Some(&name) = free.seen.get(&key) {
                    let span = e.span;
                    return Some(Expr { kind: ExprKind::Var(Ident::at(name, span)), span, id: e.id });
                }
                let hole = self.hole(e);
                let ExprKind::Var(x) = &hole.kind else { unreachable!("a hole is a variable") };
                self.free_vars.as_mut().expect("checked above").seen.insert(key, x.name);
                return Some(hole);
            }
        } else if !self.marked.contains(&e.id.0) {
            return Some(self.hole(e));
        }
        let kind = match &e.kind {
            ExprKind::Quant(q) => ExprKind::Quant(Box::new(Quantifier {
                kind: q.kind,
                type_params: q.type_params.clone(),
                vars: self.binders(&q.vars),
                attrs: self.inner_attrs(&q.attrs),
                triggers: triggers(self, &q.triggers),
                body: rewrite::expr(self, &q.body),
            })),
            ExprKind::Let(l) => ExprKind::Let(Box::new(LetExpr {
                vars: l.vars.clone(),
                rhss: rewrite::exprs(self, &l.rhss),
                attrs: self.inner_attrs(&l.attrs),
                body: rewrite::expr(self, &l.body),
            })),
            _ => return None,
        };
        Some(Expr { kind, span: e.span, id: e.id })
    }
}

/// Renames bound variables by binding order (`bv#0`, ...) and sets binder types aside, for
/// comparing lifted lambdas up to alpha-equivalence.
struct Canonical<'a> {
    typed: &'a TypedProgram,
    names: FxHashMap<VarId, Symbol>,
    binder_types: Vec<Type>,
}

impl Canonical<'_> {
    fn bind(&mut self, v: VarId) -> Symbol {
        let name = Symbol::intern(&format!("bv#{}", self.names.len()));
        self.names.insert(v, name);
        name
    }

    fn rename(&mut self, name: &Ident) -> Ident {
        match self.typed.referent(name) {
            Some(Ref::Var(v)) => {
                self.binder_types.push(self.typed.symbols().var(v).ty.deep_expanded());
                Ident::at(self.bind(v), name.span)
            }
            _ => *name,
        }
    }
}

impl rewrite::Rewriter for Canonical<'_> {
    fn expr(&mut self, e: &Expr) -> Option<Expr> {
        let kind = match &e.kind {
            ExprKind::Quant(q) => {
                let vars = q
                    .vars
                    .iter()
                    .map(|g| VarGroup {
                        attrs: g.attrs.clone(),
                        names: g.names.iter().map(|n| self.rename(n)).collect(),
                        ty: ast::Type::new(TypeKind::Bool, g.ty.span),
                        where_clause: None,
                        span: g.span,
                    })
                    .collect();
                ExprKind::Quant(Box::new(Quantifier {
                    kind: q.kind,
                    type_params: q.type_params.iter().map(|t| Ident::at(Symbol::intern("tv"), t.span)).collect(),
                    vars,
                    attrs: rewrite::attrs(self, &q.attrs),
                    triggers: triggers(self, &q.triggers),
                    body: rewrite::expr(self, &q.body),
                }))
            }
            ExprKind::Let(l) => {
                let rhss = rewrite::exprs(self, &l.rhss);
                let vars =
                    l.vars.iter().map(|v| ast::LetVar { attrs: v.attrs.clone(), name: self.rename(&v.name) }).collect();
                ExprKind::Let(Box::new(LetExpr {
                    vars,
                    rhss,
                    attrs: rewrite::attrs(self, &l.attrs),
                    body: rewrite::expr(self, &l.body),
                }))
            }
            _ => return None,
        };
        Some(Expr { kind, span: e.span, id: e.id })
    }

    fn var(&mut self, name: &Ident) -> Ident {
        match self.typed.referent(name) {
            Some(Ref::Var(v)) => match self.names.get(&v) {
                Some(n) => Ident::at(*n, name.span),
                None => *name,
            },
            _ => *name,
        }
    }
}

/// Gives every variable occurrence a position of its own (a second copy of attributes).
struct Respan;

impl rewrite::Rewriter for Respan {
    fn var(&mut self, name: &Ident) -> Ident {
        Ident::at(name.name, name.span)
    }
}

/// Rewrites the written types of a lifted body that mention a renamed type variable.
struct RenameTypes<'a, 'b> {
    typed: &'a TypedProgram,
    types: &'b TypeWriter<'a, 'b>,
}

impl rewrite::Rewriter for RenameTypes<'_, '_> {
    fn ty(&mut self, t: &ast::Type) -> Option<ast::Type> {
        let resolved = self.typed.resolution.types.get(t.id)?;
        let mut vars = Vec::new();
        free_type_vars(resolved, &mut vars);
        if vars.iter().any(|v| self.types.renames.contains_key(v)) {
            Some(self.types.ast(resolved, t.span, &mut Extension::default()))
        } else {
            None
        }
    }
}

/// Writes resolved types back as syntax, with positions of their own.
struct TypeWriter<'a, 'b> {
    typed: &'a TypedProgram,
    renames: &'b FxHashMap<TypeVarId, Symbol>,
}

impl TypeWriter<'_, '_> {
    /// `t` written at `like`, with the entries resolution gives a written type: its resolved
    /// type (at the top), the referents of the names in it.
    fn ast(&self, t: &Type, like: Span, ext: &mut Extension) -> ast::Type {
        let written = self.inner(t, like, ext);
        ext.set_written(written.id, t.clone());
        written
    }

    fn inner(&self, t: &Type, like: Span, ext: &mut Extension) -> ast::Type {
        let symbols = self.typed.symbols();
        let named = |name: Symbol, r: Option<Ref>, args: Box<[ast::Type]>, ext: &mut Extension| TypeKind::Named {
            name: ext.ident(name, like, r),
            args,
        };
        let builtin = |name: String, ext: &mut Extension| named(Symbol::intern(&name), None, Box::new([]), ext);
        let kind = match t {
            Type::Bool => TypeKind::Bool,
            Type::Int => TypeKind::Int,
            Type::Real => TypeKind::Real,
            Type::RMode => builtin("rmode".into(), ext),
            Type::String => builtin("string".into(), ext),
            Type::RegEx => builtin("regex".into(), ext),
            Type::Bv(n) => builtin(format!("bv{n}"), ext),
            Type::Float { significand, exponent } => builtin(format!("float{significand}e{exponent}"), ext),
            Type::Ctor(c, args) => {
                let args = args.iter().map(|a| self.inner(a, like, ext)).collect();
                named(symbols.type_ctors[c.0 as usize].name.name, Some(Ref::TypeCtor(*c)), args, ext)
            }
            Type::Synonym(s) => {
                let args = s.args.iter().map(|a| self.inner(a, like, ext)).collect();
                named(symbols.type_ctors[s.synonym.0 as usize].name.name, Some(Ref::TypeCtor(s.synonym)), args, ext)
            }
            Type::Var(v) => {
                let name = self.renames.get(v).copied().unwrap_or(symbols.type_vars[v.0 as usize].name.name);
                named(name, Some(Ref::TypeVar(*v)), Box::new([]), ext)
            }
            Type::Map(m) => {
                let type_params = m
                    .type_params
                    .iter()
                    .map(|v| ext.ident(symbols.type_vars[v.0 as usize].name.name, like, Some(Ref::TypeVar(*v))))
                    .collect();
                let args = m.args.iter().map(|a| self.inner(a, like, ext)).collect();
                let result = self.inner(&m.result, like, ext);
                TypeKind::Map(Box::new(ast::MapType { type_params, args, result }))
            }
            // Never in a checked program.
            Type::Proxy(_) => TypeKind::Bool,
        };
        ast::Type { id: ext.fresh(), ..ast::Type::new(kind, like) }
    }
}

fn triggers(r: &mut dyn rewrite::Rewriter, triggers: &[Trigger]) -> Box<[Trigger]> {
    triggers
        .iter()
        .map(|t| Trigger { positive: t.positive, exprs: rewrite::exprs(r, &t.exprs), span: t.span })
        .collect()
}

/// Whether attributes `a` and `b` have the same key and the same string parameters.
fn same_strings_attr(a: &Attribute, b: &Attribute) -> bool {
    a.key == b.key
        && a.params.len() == b.params.len()
        && a.params
            .iter()
            .zip(&b.params)
            .all(|(x, y)| matches!((x, y), (AttrParam::Str(x, _), AttrParam::Str(y, _)) if x == y))
}

/// Whether a quantifier, lambda or let in `e` carries an attribute.
fn has_binder_attrs(e: &Expr) -> bool {
    let mut found = match &e.kind {
        ExprKind::Quant(q) => !q.attrs.is_empty() || q.vars.iter().any(|g| !g.attrs.is_empty()),
        ExprKind::Let(l) => !l.attrs.is_empty() || l.vars.iter().any(|v| !v.attrs.is_empty()),
        _ => false,
    };
    e.for_each_child(&mut |c| found |= has_binder_attrs(c));
    found
}

fn mentions_var(e: &Expr) -> bool {
    let mut found = matches!(e.kind, ExprKind::Var(_) | ExprKind::Old(_));
    e.for_each_child(&mut |c| found |= mentions_var(c));
    found
}

/// The type variables free in `t`, in order of first occurrence, added to `out`.
fn free_type_vars(t: &Type, out: &mut Vec<TypeVarId>) {
    match t {
        Type::Var(v) if !out.contains(v) => out.push(*v),
        Type::Ctor(_, args) => args.iter().for_each(|a| free_type_vars(a, out)),
        Type::Map(m) => {
            let mut inner = Vec::new();
            m.args.iter().for_each(|a| free_type_vars(a, &mut inner));
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

#[cfg(test)]
mod tests {
    use super::*;
    use crate::source::SourceMap;
    use crate::typeck::{Outcome, TypeckOptions};

    /// The declarations lambda lifting adds to `text`, printed.
    fn lifted(text: &str) -> String {
        let mut sources = SourceMap::new();
        let id = sources.add("t.bpl", "t.bpl", text.to_string());
        let program = crate::parser::parse(&mut sources, id, &[]).expect("parses");
        let Outcome::Typed(typed, _) = crate::typeck::run(program, &TypeckOptions::default(), false) else {
            panic!("does not type-check")
        };
        let before = typed.program.decls.len();
        let (Output::Program(program) | Output::Typed(program, _)) = run(&typed, false).expect("changes");
        let added = Program { decls: program.decls[before..].to_vec() };
        crate::printer::print_program(&added, &Default::default())
    }

    /// Resolution lists the declarations with lambdas, wherever in them (an attribute's
    /// parameter, a nested quantifier), and the pass changes nothing in a program with none.
    #[test]
    fn only_declarations_with_lambdas_are_listed() {
        let text = "function f(m: [int]int): bool;\n\
            axiom (forall x: int :: x == x);\n\
            procedure P() { assert {:note (lambda x: int :: x)} true; }\n\
            axiom (forall y: int :: f((lambda x: int :: x + y)));\n";
        let mut sources = SourceMap::new();
        let id = sources.add("t.bpl", "t.bpl", text.to_string());
        let program = crate::parser::parse(&mut sources, id, &[]).expect("parses");
        let Outcome::Typed(typed, _) = crate::typeck::run(program, &TypeckOptions::default(), false) else {
            panic!("does not type-check")
        };
        let listed: Vec<u32> = typed.resolution.decls_with_lambdas.iter().map(|d| d.0).collect();
        assert_eq!(listed, [2, 3]);
        assert!(lifted(text).contains("function lambda#0"));
        let none = "axiom (forall x: int :: x == x);\nprocedure P() { assert true; }\n";
        let file = sources.add("n.bpl", "n.bpl", none.to_string());
        let program = crate::parser::parse(&mut sources, file, &[]).expect("parses");
        let Outcome::Typed(typed, _) = crate::typeck::run(program, &TypeckOptions::default(), false) else {
            panic!("does not type-check")
        };
        assert!(typed.resolution.decls_with_lambdas.is_empty());
        assert!(run(&typed, false).is_none());
    }

    #[test]
    fn holes_become_arguments_and_alike_lambdas_share_a_function() {
        let text = "var g: int;\n\
            procedure P(a: int, b: int) modifies g; {\n\
              assert (lambda x: int :: x + a * b)[1] == (lambda y: int :: y + b)[1];\n\
              assert (lambda x: int :: old(g) < g + x)[0];\n\
            }\n";
        let expected = "function lambda#0(l#0: int) : [int]int;\n\
            function lambda#2(l#0: int, l#1: int) : [int]bool;\n\
            axiom (forall l#0: int, x: int :: {lambda#0(l#0)[x]} lambda#0(l#0)[x] == x + l#0);\n\
            axiom (forall l#0: int, l#1: int, x: int :: {lambda#2(l#0, l#1)[x]} \
            lambda#2(l#0, l#1)[x] == (l#0 < l#1 + x));\n";
        assert_eq!(lifted(text), expected);
    }

    #[test]
    fn free_type_variables_become_type_parameters() {
        let text = "function F<T>(int): T;\n\
            procedure P<T>(t: T) { assert (lambda i: int :: F(i))[0] == (lambda<U> u: U :: t)[true]; }\n";
        let expected = "function lambda#0<T>() : [int]T;\n\
            function lambda#1<T>(l#0: T) : <U>[U]T;\n\
            axiom (forall <T> i: int :: {(lambda#0() : [int]T)[i]} (lambda#0() : [int]T)[i] == F(i));\n\
            axiom (forall <U, T> l#0: T, u: U :: {lambda#1(l#0)[u]} lambda#1(l#0)[u] == l#0);\n";
        assert_eq!(lifted(text), expected);
    }
}

#[cfg(test)]
mod typed_output {
    use super::*;

    /// The tables the pass records for `text`'s lifted program, checked against a check from
    /// scratch; `false` when the pass had the program checked again instead.
    fn recorded_agree(text: &str) -> bool {
        let mut typed = crate::passes::tests::typed(text);
        match run(&typed, false).expect("changes") {
            Output::Typed(program, extension) => {
                extension.apply(&mut typed.resolution, &mut typed.typing);
                typed.program = program;
                if let Err(difference) = crate::typeck::compare::against_recheck(&typed) {
                    panic!("{difference}\n{}", crate::printer::print_program(&typed.program, &Default::default()));
                }
                true
            }
            Output::Program(_) => false,
        }
    }

    #[test]
    fn a_monomorphic_lambda_with_holes() {
        assert!(recorded_agree(
            "function F<T>(x: T) : int;\n\
             procedure P(y: int) returns (m: [int]int)\n\
             {\n  m := (lambda i: int :: i + y + F(true));\n}\n"
        ));
    }

    /// Dafny's frames: a lambda with type parameters of its own, over a polymorphic heap.
    #[test]
    fn a_polymorphic_lambda_over_a_heap() {
        assert!(recorded_agree(
            "type ref; type Field _; const null: ref;\n\
             type Heap = [ref]<alpha>[Field alpha]alpha;\n\
             const unique alloc: Field bool;\n\
             var $Heap: Heap;\n\
             procedure P(this: ref); modifies $Heap;\n\
             implementation P(this: ref) {\n\
               var $_Frame: <beta>[ref, Field beta]bool;\n\
               $_Frame := (lambda<alpha> $o: ref, $f: Field alpha :: $o != null && $Heap[$o][alloc] ==> $o == this);\n\
               assert $_Frame[this, alloc];\n\
             }\n"
        ));
    }

    /// Type variables free in the lambda become the function's; the call instantiates them.
    #[test]
    fn free_type_variables_of_a_polymorphic_procedure() {
        assert!(recorded_agree(
            "function G<T>(T) : bool;\n\
             procedure P<T>(x: T) returns (m: [int]T) {\n\
               m := (lambda i: int :: if G(x) && i > 0 then x else x);\n\
             }\n"
        ));
    }

    /// Nested lambdas, alike lambdas sharing one function, `old` inside a lambda, binders
    /// inside, a body that is all hole, lambdas in axioms and function bodies.
    #[test]
    fn nested_shared_two_state_and_declaration_lambdas() {
        assert!(recorded_agree(
            "var g: int;\n\
             function {:inline} K(c: int) : [int]int { (lambda z: int :: c) }\n\
             axiom (forall c: int :: (lambda q: int :: q + c)[0] == c);\n\
             procedure P(a: int) returns (m: [int][int]int, n: [int]int, o: [int]bool) modifies g; {\n\
               m := (lambda i: int :: (lambda j: int :: i + j + a));\n\
               n := (lambda k: int :: k + a);\n\
               n := (lambda l: int :: l + a);\n\
               n := (lambda i: int :: old(g) + g + i);\n\
               n := (lambda i: int :: a * 2);\n\
               o := (lambda i: int :: (forall t: int :: t > i ==> (var u := t + a; u > i)));\n\
             }\n"
        ));
    }

    /// What the pass does not record: the output is checked again.
    #[test]
    fn attributes_and_coercions_are_checked_again() {
        assert!(!recorded_agree("procedure P() returns (n: [int]int) { n := (lambda {:weight 2} i: int :: i); }\n"));
    }
}
