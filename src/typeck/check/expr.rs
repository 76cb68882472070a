//! Expressions: Boogie's `Expr.Typecheck` and the `IAppliable.Typecheck` of every operator,
//! function application, map access and coercion.

use std::rc::Rc;

use super::super::types::{MapType, Type, TypeVarId};
use super::super::unify::{Subst, Unifier};
use super::super::{FunctionId, Ref, TypeCtorId, VarId};
use super::{Checker, Inst, InstRecord, ctor_subst};
use crate::ast::*;

impl<'a> Checker<'a> {
    /// Infers and checks `e`, records its type, and returns it.
    pub(super) fn expr(&mut self, e: &'a Expr) -> Type {
        let t = if self.trusted { self.synthesized(e) } else { self.expr_kind(e) };
        if let Some(slot) = self.types.get_mut(e.id.index()) {
            *slot = Some(t.clone());
        }
        t
    }

    /// The outcome of an `NAryExpr`'s own check: once it ran, Boogie never runs it again; while
    /// its arguments have errors it does not run, and the node keeps the type it had (at first
    /// the error type).
    fn nary_start(&self, e: &Expr) -> Option<Type> {
        let i = e.id.index();
        if self.checked.get(i).copied().unwrap_or(false) {
            return Some(self.types[i].clone().unwrap_or_else(Unifier::error_type));
        }
        None
    }

    /// `Some(type)` when the node's own check must not run (see [`Checker::nary_start`]):
    /// its arguments reported errors since `before`, or it ran already.
    fn nary_gate(&self, e: &Expr, before: usize) -> Option<Type> {
        if self.errors != before {
            return Some(self.nary_skip(e));
        }
        self.nary_start(e)
    }

    fn nary_skip(&self, e: &Expr) -> Type {
        self.types.get(e.id.index()).cloned().flatten().unwrap_or_else(Unifier::error_type)
    }

    fn nary_done(&mut self, e: &Expr, t: Option<Type>) -> Type {
        if let Some(c) = self.checked.get_mut(e.id.index()) {
            *c = true;
        }
        t.unwrap_or_else(Unifier::error_type)
    }

    fn record_inst(&mut self, node: NodeId, span: Span, order: u32, params: Vec<TypeVarId>, inst: Inst) {
        if node.0 != NodeId::NONE.0
            && let Some(slot) = self.inst_of.get_mut(node.index())
        {
            *slot = self.insts.len() as u32;
        }
        let in_attribute = self.attribute_depth > 0;
        self.insts.push(InstRecord { node, span, order, params, inst, in_attribute });
    }

    /// The type of `e` in a trusted program ([`crate::typeck::TypeckOptions::trusted`]):
    /// without type variables every function, map and operator has one result type, so the
    /// type of an application, selection or operation follows from its operator and operands
    /// without unifying. It is the type [`Checker::expr_kind`] gives a well-typed expression
    /// (the same value: `int` for `-x` even when `x`'s type is a synonym of it, the map's own
    /// result type for a selection). The other forms, rarer or with binders, take the full
    /// path, whose subexpressions come back here.
    fn synthesized(&mut self, e: &'a Expr) -> Type {
        match &e.kind {
            ExprKind::Call { args, .. } => {
                for a in args.iter() {
                    self.expr(a);
                }
                match self.function(e.id) {
                    Some(f) => self.sy.functions[f.index()].result.clone(),
                    None => Unifier::error_type(),
                }
            }
            ExprKind::Unary { op, arg } => {
                let t = self.expr(arg);
                match op {
                    UnaryOp::Not => Type::Bool,
                    UnaryOp::Neg if matches!(t.expanded(), Type::Real) => Type::Real,
                    UnaryOp::Neg => Type::Int,
                }
            }
            ExprKind::Binary { op, lhs, rhs } => {
                let t0 = self.expr(lhs);
                self.expr(rhs);
                use BinaryOp::*;
                match op {
                    Add | Sub | Mul => match t0.expanded() {
                        Type::Real => Type::Real,
                        f @ Type::Float { .. } => f.clone(),
                        _ => Type::Int,
                    },
                    Div | Mod => Type::Int,
                    RealDiv => match t0.expanded() {
                        f @ Type::Float { .. } => f.clone(),
                        _ => Type::Real,
                    },
                    Pow => Type::Real,
                    Iff | Imp | And | Or | Eq | Neq | Lt | Le | Gt | Ge | Subtype => Type::Bool,
                }
            }
            ExprKind::Select { map, indexes } => {
                let mt = self.expr(map);
                for i in indexes.iter() {
                    self.expr(i);
                }
                match mt.expanded() {
                    Type::Map(m) => m.result.clone(),
                    _ => Unifier::error_type(),
                }
            }
            ExprKind::Store(s) => {
                let mt = self.expr(&s.map);
                for i in s.indexes.iter() {
                    self.expr(i);
                }
                self.expr(&s.value);
                mt
            }
            ExprKind::IfThenElse { cond, then, els } => {
                self.expr(cond);
                let t = self.expr(then);
                self.expr(els);
                t
            }
            _ => self.expr_kind(e),
        }
    }

    fn expr_kind(&mut self, e: &'a Expr) -> Type {
        match &e.kind {
            ExprKind::BoolLit(_) => Type::Bool,
            ExprKind::IntLit(_) => Type::Int,
            ExprKind::DecLit(_) => Type::Real,
            ExprKind::FloatLit(text) => float_literal_type(text),
            ExprKind::BvLit { width, .. } => Type::Bv(*width),
            ExprKind::StrLit(_) => Type::String,
            ExprKind::RoundingMode(_) => Type::RMode,
            ExprKind::Var(name) => match self.var_at(name) {
                Some(v) => self.var_type(v),
                None => Unifier::error_type(),
            },
            ExprKind::Old(inner) => self.expr(inner),
            ExprKind::BvBounds { .. } => Unifier::error_type(),
            ExprKind::Call { func, args } => {
                let order = self.next_order();
                let before = self.errors;
                let mut actuals = self.spare_actuals.pop().unwrap_or_default();
                for a in args.iter() {
                    let t = self.expr(a);
                    actuals.push((t, a.span));
                }
                let Some(fid) = self.function(e.id) else { return Unifier::error_type() };
                let arity = self.sy.functions[fid.index()].param_types.len();
                if arity != args.len() {
                    self.error(
                        e.span,
                        format!(
                            "wrong number of arguments to function: {} ({} instead of {})",
                            func,
                            args.len(),
                            arity
                        ),
                    );
                    return self.nary_skip(e);
                }
                if let Some(t) = self.nary_gate(e, before) {
                    return t;
                }
                let subject = args.first().map_or(e.span, |a| a.span);
                let t = self.apply_function(fid, &actuals, subject, Some((e.id, e.span)), order);
                actuals.clear();
                self.spare_actuals.push(actuals);
                self.nary_done(e, t)
            }
            ExprKind::Arith { to, arg } => {
                let before = self.errors;
                let t = self.expr(arg);
                if let Some(t) = self.nary_gate(e, before) {
                    return t;
                }
                let (expected, result) = match to {
                    ArithCoercion::ToInt => (Type::Real, Type::Int),
                    ArithCoercion::ToReal => (Type::Int, Type::Real),
                };
                if !self.u.unify(&t, &expected) {
                    let msg = format!(
                        "argument type {} does not match expected type {}",
                        self.show(&t),
                        self.show(&expected)
                    );
                    self.error(e.span, msg);
                }
                self.nary_done(e, Some(result))
            }
            ExprKind::Unary { op, arg } => {
                let before = self.errors;
                let t = self.expr(arg);
                if let Some(t) = self.nary_gate(e, before) {
                    return t;
                }
                let result = match op {
                    UnaryOp::Neg => {
                        if self.u.unify(&t, &Type::Int) {
                            Some(Type::Int)
                        } else if self.u.unify(&t, &Type::Real) {
                            Some(Type::Real)
                        } else {
                            None
                        }
                    }
                    UnaryOp::Not => self.u.unify(&t, &Type::Bool).then_some(Type::Bool),
                };
                if result.is_none() {
                    let name = if *op == UnaryOp::Neg { "-" } else { "!" };
                    let msg = format!("invalid argument type ({}) to unary operator {name}", self.show(&t));
                    self.error(e.span, msg);
                }
                self.nary_done(e, result)
            }
            ExprKind::Binary { op, lhs, rhs } => {
                let before = self.errors;
                let t0 = self.expr(lhs);
                let t1 = self.expr(rhs);
                if let Some(t) = self.nary_gate(e, before) {
                    return t;
                }
                let result = self.binary(*op, &t0, &t1, e.span);
                self.nary_done(e, result)
            }
            ExprKind::BvConcat { lhs, rhs } => {
                let t0 = self.expr(lhs);
                let t1 = self.expr(rhs);
                let p0 = self.u.new_bv_proxy(0);
                let ok = self.u.unify(&t0, &p0) && {
                    let p1 = self.u.new_bv_proxy(0);
                    self.u.unify(&t1, &p1)
                };
                if ok {
                    let f0 = self.u.shallow(&t0);
                    let f1 = self.u.shallow(&t1);
                    match (f0, f1) {
                        (Type::Bv(a), Type::Bv(b)) => Type::Bv(a.saturating_add(b)),
                        _ => self.u.new_concat_proxy(&t0, &t1),
                    }
                } else {
                    let msg = format!("++ operands need to be bitvectors (got {}, {})", self.show(&t0), self.show(&t1));
                    self.error(e.span, msg);
                    Unifier::error_type()
                }
            }
            ExprKind::Extract { arg, hi, lo } => {
                let t = self.expr(arg);
                if hi < lo {
                    self.error(e.span, "start index in extract must be no bigger than the end index");
                    return Unifier::error_type();
                }
                let width = hi - lo;
                let constraint = self.u.new_bv_proxy(width);
                if self.u.unify(&constraint, &t) {
                    Type::Bv(width)
                } else {
                    let msg =
                        format!("extract operand must be a bitvector of at least {width} bits (got {})", self.show(&t));
                    self.error(e.span, msg);
                    Unifier::error_type()
                }
            }
            ExprKind::Is { arg, ctor } => {
                let order = self.next_order();
                let before = self.errors;
                let t = self.expr(arg);
                if let Some(t) = self.nary_gate(e, before) {
                    return t;
                }
                let result = self.is_constructor(&t, ctor, e, order);
                self.nary_done(e, result)
            }
            ExprKind::Coerce { arg, ty } => {
                let before = self.errors;
                let t = self.expr(arg);
                if let Some(t) = self.nary_gate(e, before) {
                    return t;
                }
                let Some(target) = self.resolved_type(ty) else { return self.nary_done(e, None) };
                if !self.u.unify(&target, &t) {
                    let msg = format!("{} cannot be coerced to {}", self.show(&t), self.show(&target));
                    self.error(e.span, msg);
                }
                self.nary_done(e, Some(target))
            }
            ExprKind::Select { map, indexes } => {
                let order = self.next_order();
                let before = self.errors;
                let mt = self.expr(map);
                let args: Vec<(Type, Span)> = indexes.iter().map(|i| (self.expr(i), i.span)).collect();
                if let Some(t) = self.nary_gate(e, before) {
                    return t;
                }
                let result = self.map_select(
                    &mt,
                    || crate::printer::print_expr(map),
                    map.span,
                    &args,
                    e.span,
                    "map select",
                    Some(e.id),
                    order,
                );
                self.nary_done(e, result)
            }
            ExprKind::Store(s) => {
                let order = self.next_order();
                let before = self.errors;
                let mt = self.expr(&s.map);
                let args: Vec<(Type, Span)> = s.indexes.iter().map(|i| (self.expr(i), i.span)).collect();
                let vt = self.expr(&s.value);
                if let Some(t) = self.nary_gate(e, before) {
                    return t;
                }
                let result = self.map_select(
                    &mt,
                    || crate::printer::print_expr(&s.map),
                    s.map.span,
                    &args,
                    e.span,
                    "map store",
                    Some(e.id),
                    order,
                );
                let result = match result {
                    None => None,
                    Some(r) => {
                        if self.u.unify(&r, &vt) {
                            Some(mt)
                        } else {
                            let msg = format!(
                                "right-hand side in map store with wrong type: {} (expected: {})",
                                self.show(&vt),
                                self.show(&r)
                            );
                            self.error(s.value.span, msg);
                            None
                        }
                    }
                };
                self.nary_done(e, result)
            }
            ExprKind::Field { arg, field } => {
                let before = self.errors;
                let t = self.expr(arg);
                if let Some(t) = self.nary_gate(e, before) {
                    return t;
                }
                let result = self.field_access(&t, field, field.span);
                self.nary_done(e, result)
            }
            ExprKind::FieldUpdate(fu) => {
                let before = self.errors;
                let t = self.expr(&fu.arg);
                let vt = self.expr(&fu.value);
                if let Some(t) = self.nary_gate(e, before) {
                    return t;
                }
                let result = match self.field_access(&t, &fu.field, fu.field.span) {
                    None => None,
                    Some(expected) => {
                        if self.u.unify(&vt, &expected) {
                            Some(t)
                        } else {
                            let msg = format!(
                                "right-hand side in field update with wrong type: {} (expected: {})",
                                self.show(&vt),
                                self.show(&expected)
                            );
                            self.error(fu.field.span, msg);
                            None
                        }
                    }
                };
                self.nary_done(e, result)
            }
            ExprKind::IfThenElse { cond, then, els } => {
                let before = self.errors;
                let c = self.expr(cond);
                let t1 = self.expr(then);
                let t2 = self.expr(els);
                if let Some(t) = self.nary_gate(e, before) {
                    return t;
                }
                let result = if !self.u.unify(&c, &Type::Bool) {
                    let msg = format!("the first argument to if-then-else should be bool, not {}", self.show(&c));
                    self.error(e.span, msg);
                    None
                } else if !self.u.unify(&t1, &t2) {
                    let msg = format!(
                        "branches of if-then-else have incompatible types {} and {}",
                        self.show(&t1),
                        self.show(&t2)
                    );
                    self.error(e.span, msg);
                    None
                } else {
                    Some(t1)
                };
                self.nary_done(e, result)
            }
            ExprKind::Quant(q) => self.binder(q, e),
            ExprKind::Let(l) => {
                let mut rhs_types = Vec::with_capacity(l.rhss.len());
                for r in &l.rhss {
                    rhs_types.push(self.expr(r));
                }
                for (v, t) in l.vars.iter().zip(rhs_types) {
                    if let Some(id) = self.var_at(&v.name) {
                        self.let_types.insert(id, t);
                    }
                }
                self.attributes(&l.attrs);
                for v in &l.vars {
                    self.unchecked_attributes(&v.attrs);
                }
                self.expr(&l.body)
            }
            ExprKind::Code(code) => {
                self.locals(&code.locals);
                for b in &code.blocks {
                    for c in &b.cmds {
                        self.cmd(c);
                    }
                    match &b.transfer {
                        SpecTransfer::Goto { attrs, .. } => self.unchecked_attributes(attrs),
                        SpecTransfer::Return { attrs, value, span } => {
                            self.unchecked_attributes(attrs);
                            let t = self.expr(value);
                            if !self.u.unify(&t, &Type::Bool) {
                                let msg = format!("a return expression must be of type bool (got: {})", self.show(&t));
                                self.error(*span, msg);
                            }
                        }
                    }
                }
                Type::Bool
            }
        }
    }

    pub(super) fn binary(&mut self, op: BinaryOp, t0: &Type, t1: &Type, span: Span) -> Option<Type> {
        use BinaryOp::*;
        let u = &mut self.u;
        let same_float = |u: &Unifier| match (u.float(t0), u.float(t1)) {
            (Some(a), Some(b)) if a == b => Some(Type::Float { significand: a.0, exponent: a.1 }),
            _ => None,
        };
        let result = match op {
            Add | Sub | Mul => {
                if u.unify(t0, &Type::Int) && u.unify(t1, &Type::Int) {
                    Some(Type::Int)
                } else if u.unify(t0, &Type::Real) && u.unify(t1, &Type::Real) {
                    Some(Type::Real)
                } else {
                    same_float(u)
                }
            }
            Div | Mod => (u.unify(t0, &Type::Int) && u.unify(t1, &Type::Int)).then_some(Type::Int),
            RealDiv => {
                let ok0 = u.unify(t0, &Type::Int) || u.unify(t0, &Type::Real);
                if ok0 && (u.unify(t1, &Type::Int) || u.unify(t1, &Type::Real)) {
                    Some(Type::Real)
                } else {
                    same_float(u)
                }
            }
            Pow => (u.unify(t0, &Type::Real) && u.unify(t1, &Type::Real)).then_some(Type::Real),
            Eq | Neq | Subtype => {
                // reports its own error
                return self.equality(t0, t1, span, op).then_some(Type::Bool);
            }
            Gt | Ge | Lt | Le => {
                if (u.unify(t0, &Type::Int) && u.unify(t1, &Type::Int))
                    || (u.unify(t0, &Type::Real) && u.unify(t1, &Type::Real))
                {
                    Some(Type::Bool)
                } else {
                    same_float(u).map(|_| Type::Bool)
                }
            }
            And | Or | Imp | Iff => (u.unify(t0, &Type::Bool) && u.unify(t1, &Type::Bool)).then_some(Type::Bool),
        };
        if result.is_none() {
            let msg = format!(
                "invalid argument types ({} and {}) to binary operator {}",
                self.show(t0),
                self.show(t1),
                op.symbol()
            );
            self.error(span, msg);
        }
        result
    }

    /// Quantifiers and lambdas (`QuantifierExpr.Typecheck`, `LambdaExpr.Typecheck`).
    fn binder(&mut self, q: &'a Quantifier, e: &'a Expr) -> Type {
        let type_params: Vec<TypeVarId> = q
            .type_params
            .iter()
            .filter_map(|t| match self.referent(t.id) {
                Some(Ref::TypeVar(v)) => Some(v),
                _ => None,
            })
            .collect();
        let mut dummies: Vec<VarId> = Vec::new();
        for g in &q.vars {
            for name in &g.names {
                if let Some(v) = self.var_at(name) {
                    dummies.push(v);
                }
            }
        }
        // Where clauses of bound variables are not checked by Boogie; they still get types.
        self.silent += 1;
        for g in &q.vars {
            self.attributes(&g.attrs);
            if let Some(w) = &g.where_clause {
                self.expr(w);
            }
        }
        self.silent -= 1;
        let dummy_types: Vec<Type> = dummies.iter().map(|v| self.var_type(*v)).collect();
        let mut in_dummies: Vec<TypeVarId> = Vec::new();
        for t in &dummy_types {
            for v in self.u.free_vars(t) {
                if !in_dummies.contains(&v) {
                    in_dummies.push(v);
                }
            }
        }
        let unmentioned: Vec<TypeVarId> = type_params.iter().copied().filter(|v| !in_dummies.contains(v)).collect();
        self.attributes(&q.attrs);
        if q.kind == QuantKind::Lambda {
            let body = self.expr(&q.body);
            let mut sorted: Vec<TypeVarId> = in_dummies.iter().copied().filter(|v| type_params.contains(v)).collect();
            sorted.extend(unmentioned.iter().copied());
            let t = Type::Map(Rc::new(MapType { type_params: sorted, args: dummy_types, result: body }));
            if let Some(v) = unmentioned.first() {
                let name = self.sy.type_vars.get(v.0 as usize).map(|i| i.name.name);
                if let Some(name) = name {
                    self.error(
                        e.span,
                        format!("the type variable {name} does not occur in types of the lambda parameters"),
                    );
                }
            }
            return t;
        }
        for tr in &q.triggers {
            for te in &tr.exprs {
                self.expr(te);
            }
        }
        let body = self.expr(&q.body);
        if !self.u.unify(&body, &Type::Bool) {
            self.error(e.span, "quantifier body must be of type bool");
        }
        if !unmentioned.is_empty() {
            for tr in q.triggers.iter().filter(|t| t.positive) {
                let mut mentioned = Vec::new();
                for te in &tr.exprs {
                    self.trigger_type_vars(te, &mut mentioned);
                }
                for v in &unmentioned {
                    if !mentioned.contains(v) {
                        let name = self.sy.type_vars.get(v.0 as usize).map(|i| i.name.name);
                        if let Some(name) = name {
                            self.error(
                                tr.span,
                                format!(
                                    "trigger does not mention {name}, which does not occur in variables types either"
                                ),
                            );
                        }
                    }
                }
            }
        }
        Type::Bool
    }

    /// The type variables free in the instantiations of the applications in `e` (Boogie's
    /// `ComputeFreeVariables` on a trigger, type variables part).
    fn trigger_type_vars(&mut self, e: &Expr, out: &mut Vec<TypeVarId>) {
        if let Some(i) = self.inst_of.get(e.id.index()).map(|&i| i as usize).filter(|&i| i < self.insts.len()) {
            let (_, inst) = self.instantiation(i);
            for t in inst {
                for v in self.u.free_vars(&t) {
                    if !out.contains(&v) {
                        out.push(v);
                    }
                }
            }
        }
        e.for_each_child(&mut |c| self.trigger_type_vars(c, out));
    }

    /// Boogie's `Type.CheckArgumentTypes`: instantiates the type parameters with fresh proxies,
    /// unifies formals with actuals (reporting each mismatch), and returns the instantiation;
    /// the results' types are `formal_outs` under [`Instantiation::subst`].
    #[allow(clippy::too_many_arguments)]
    pub(super) fn check_argument_types(
        &mut self,
        params: &[TypeVarId],
        formals: &[Type],
        actuals: &[(Type, Span)],
        formal_outs: &[Type],
        actual_outs: Option<&[(Type, Span)]>,
        subject: Span,
        op: OpName,
    ) -> Instantiation {
        let unchecked = Instantiation { subst: Subst::default(), inst: Vec::new(), determined: params.is_empty() };
        if formals.len() != actuals.len() {
            self.error(subject, format!("wrong number of arguments in {op}: {}", actuals.len()));
            return unchecked;
        }
        if let Some(outs) = actual_outs
            && formal_outs.len() != outs.len()
        {
            self.error(subject, format!("wrong number of result variables in {op}: {}", outs.len()));
            return unchecked;
        }
        let before = self.errors;
        let mut subst = Subst::default();
        let mut inst = Vec::with_capacity(params.len());
        for p in params {
            let proxy = self.u.new_proxy();
            inst.push(proxy.clone());
            subst.insert(*p, proxy);
        }
        for (i, (formal, (actual, span))) in formals.iter().zip(actuals).enumerate() {
            let unified = if subst.is_empty() {
                self.u.unify(formal, actual)
            } else {
                let f = self.u.substitute(formal, &subst);
                self.u.unify(&f, actual)
            };
            if !unified {
                let msg = format!(
                    "invalid type for argument {i} in {op}: {} (expected: {})",
                    self.show(actual),
                    self.show(formal)
                );
                self.error(*span, msg);
            }
        }
        if let Some(outs) = actual_outs {
            for (i, (formal, (actual, span))) in formal_outs.iter().zip(outs).enumerate() {
                let f = self.u.substitute(formal, &subst);
                if !self.u.unify(&f, actual) {
                    let msg = format!(
                        "invalid type for out-parameter {i} in {op}: {} (expected: {})",
                        self.show(actual),
                        self.show(&f)
                    );
                    self.error(*span, msg);
                }
            }
        }
        let mut determined = true;
        if self.errors != before {
            let mut free = Vec::new();
            for r in formal_outs {
                let r = self.u.substitute(r, &subst);
                free.extend(self.u.free_vars(&r));
            }
            determined = !params.iter().any(|p| free.contains(p));
        }
        Instantiation { subst, inst, determined }
    }

    pub(super) fn apply_function(
        &mut self,
        f: FunctionId,
        actuals: &[(Type, Span)],
        subject: Span,
        node: Option<(NodeId, Span)>,
        order: u32,
    ) -> Option<Type> {
        let sy = self.sy;
        let info = &sy.functions[f.index()];
        let op = OpName::Application(info.name.name);
        let result = std::slice::from_ref(&info.result);
        let checked =
            self.check_argument_types(&info.type_params, &info.param_types, actuals, result, None, subject, op);
        if !checked.determined {
            return None;
        }
        let result = self.u.substitute(&info.result, &checked.subst);
        if let Some((node, at)) = node
            && !info.type_params.is_empty()
        {
            self.record_inst(node, at, order, info.type_params.clone(), Inst::Known(checked.inst));
        }
        Some(result)
    }

    /// Boogie's `MapSelect.Typecheck`, shared by selections, stores and map assignments.
    #[allow(clippy::too_many_arguments)]
    pub(super) fn map_select(
        &mut self,
        map: &Type,
        print_map: impl FnOnce() -> String,
        map_span: Span,
        args: &[(Type, Span)],
        subject: Span,
        op: &'static str,
        node: Option<NodeId>,
        order: u32,
    ) -> Option<Type> {
        let mt = map.expanded().clone();
        if self.u.is_map(&mt) {
            let arity = match self.u.shallow(&mt) {
                Type::Map(m) => m.args.len(),
                Type::Proxy(p) => match self.u.kind(p) {
                    super::super::unify::ProxyKind::Map { arity, .. } => *arity,
                    _ => 0,
                },
                _ => 0,
            };
            if arity != args.len() {
                self.error(subject, format!("wrong number of arguments in {op}: {} instead of {arity}", args.len()));
                return None;
            }
        } else {
            let proxy = self.u.new_map_proxy(args.len());
            if !self.u.unify(&mt, &proxy) {
                let msg = format!("{op} applied to a non-map: {}", print_map());
                self.error(map_span, msg);
                return None;
            }
        }
        match self.u.shallow(&mt) {
            Type::Map(m) => {
                let checked = self.check_argument_types(
                    &m.type_params,
                    &m.args,
                    args,
                    std::slice::from_ref(&m.result),
                    None,
                    subject,
                    OpName::Plain(op),
                );
                if !checked.determined {
                    return None;
                }
                let result = self.u.substitute(&m.result, &checked.subst);
                if let Some(node) = node
                    && !m.type_params.is_empty()
                {
                    self.record_inst(node, subject, order, m.type_params.clone(), Inst::Known(checked.inst));
                }
                Some(result)
            }
            Type::Proxy(p) => {
                let arg_types: Vec<Type> = args.iter().map(|(t, _)| t.clone()).collect();
                let result = self.u.select_on_proxy(p, arg_types.clone());
                if let Some(node) = node {
                    let inst = Inst::OnMapProxy { map: mt.clone(), args: arg_types, result: result.clone() };
                    self.record_inst(node, subject, order, Vec::new(), inst);
                }
                Some(result)
            }
            _ => None,
        }
    }

    /// The datatype a type is, for field access and `is` (`None`: not a datatype).
    fn datatype_of(&mut self, t: &Type) -> Result<(TypeCtorId, Rc<[Type]>, Vec<FunctionId>), Type> {
        let shallow = self.u.shallow(t);
        match &shallow {
            Type::Ctor(c, args) => match self.sy.type_ctors.get(c.0 as usize).and_then(|i| i.datatype_ctors.clone()) {
                Some(ctors) => Ok((*c, args.clone(), ctors)),
                None => Err(shallow.clone()),
            },
            _ => Err(self.u.follow(t)),
        }
    }

    /// Boogie's `FieldAccess.Typecheck`.
    pub(super) fn field_access(&mut self, t: &Type, field: &Ident, span: Span) -> Option<Type> {
        let (c, args, ctors) = match self.datatype_of(t) {
            Ok(d) => d,
            Err(shown) => {
                let msg =
                    format!("field-access must be applied to a datatype, {} is not a datatype", self.show(&shown));
                self.error(span, msg);
                return None;
            }
        };
        for f in &ctors {
            let Some(info) = self.sy.functions.get(f.index()) else { continue };
            if let Some(i) = info.params.iter().position(|v| self.sy.vars[v.index()].name.name == field.name) {
                let subst = ctor_subst(&info.result, &Type::Ctor(c, args.clone()));
                let ft = info.param_types[i].clone();
                return Some(self.u.substitute(&ft, &subst));
            }
        }
        let shown = Type::Ctor(c, args);
        let msg = format!("datatype {} does not have a field with name {}", self.show(&shown), field.name);
        self.error(span, msg);
        None
    }

    /// Boogie's `IsConstructor.Typecheck`.
    fn is_constructor(&mut self, t: &Type, ctor: &Ident, e: &Expr, order: u32) -> Option<Type> {
        let (c, args, ctors) = match self.datatype_of(t) {
            Ok(d) => d,
            Err(shown) => {
                let msg =
                    format!("is-constructor must be applied to a datatype, {} is not a datatype", self.show(&shown));
                self.error(ctor.span, msg);
                return None;
            }
        };
        let found = ctors.iter().find(|f| self.sy.functions.get(f.index()).is_some_and(|i| i.name.name == ctor.name));
        let Some(f) = found else {
            let shown = Type::Ctor(c, args);
            let msg = format!("datatype {} does not have a constructor with name {}", self.show(&shown), ctor.name);
            self.error(ctor.span, msg);
            return None;
        };
        let info = &self.sy.functions[f.index()];
        if !info.type_params.is_empty() {
            let subst = ctor_subst(&info.result, &Type::Ctor(c, args));
            let params = info.type_params.clone();
            let inst = params.iter().map(|p| subst.get(p).cloned().unwrap_or(Type::Var(*p))).collect();
            self.record_inst(e.id, e.span, order, params, Inst::Known(inst));
        }
        Some(Type::Bool)
    }
}

/// What [`Checker::check_argument_types`] found.
pub(super) struct Instantiation {
    /// The type parameters to their instances (empty for a monomorphic operation).
    pub subst: Subst,
    /// The instances, in the order of the parameters.
    pub inst: Vec<Type>,
    /// False when errors leave the results undetermined (a type parameter occurs in them).
    pub determined: bool,
}

/// What an argument check is about, for its messages (formatted only when one is reported).
#[derive(Clone, Copy)]
pub(super) enum OpName {
    Plain(&'static str),
    Application(Symbol),
    CallTo(Symbol),
}

impl std::fmt::Display for OpName {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        match self {
            OpName::Plain(s) => f.write_str(s),
            OpName::Application(name) => write!(f, "application of {name}"),
            OpName::CallTo(name) => write!(f, "call to {name}"),
        }
    }
}

/// The type of a float literal: its text ends in `<significand>e<exponent>`.
fn float_literal_type(text: &str) -> Type {
    let bytes = text.as_bytes();
    let mut i = bytes.len();
    while i > 0 && bytes[i - 1].is_ascii_digit() {
        i -= 1;
    }
    let exponent = text[i..].parse().unwrap_or(0);
    if i == 0 || bytes[i - 1] != b'e' {
        return Type::Float { significand: 0, exponent };
    }
    let end = i - 1;
    let mut j = end;
    while j > 0 && bytes[j - 1].is_ascii_digit() {
        j -= 1;
    }
    let significand = text[j..end].parse().unwrap_or(0);
    Type::Float { significand, exponent }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn float_literal_types() {
        assert_eq!(float_literal_type("0x1.8e1f24e8"), Type::Float { significand: 24, exponent: 8 });
        assert_eq!(float_literal_type("0NaN53e11"), Type::Float { significand: 53, exponent: 11 });
        assert_eq!(float_literal_type("-0x1.0e0f11e5"), Type::Float { significand: 11, exponent: 5 });
    }
}
