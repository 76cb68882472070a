//! Unification with proxies, as Boogie's `AbsyType.cs` does it: the type checker's inference
//! engine.
//!
//! A [`Type::Proxy`] is an inference variable. Three kinds exist, as in Boogie:
//! - a plain proxy (`TypeProxy`), which unifies with anything (occurs check aside);
//! - a bit-vector proxy (`BvTypeProxy`) with a minimum width and, for the result of `++`,
//!   constraints tying its width to its operands' widths;
//! - a map proxy (`MapTypeProxy`) of a known arity with the selections made on it so far
//!   (argument types and result type), which must hold of the map type it becomes.
//!
//! Binding a proxy is permanent: a failed unification may leave partial bindings behind, which
//! is what Boogie does and what its error messages show. Bound type variables of map types are
//! renamed apart with fresh type variables ([`Unifier::fresh_var`]), numbered after the
//! program's own.
//!
//! `unifiable` variables and the substitution `unifier` exist for equality (`==` lets the free
//! type variables of both sides be instantiated); everywhere else they are empty.
//!
//! Written by hand: the rules are Boogie's own (its order of cases decides which partial
//! bindings a failure leaves), which no unification library reproduces.

use std::rc::Rc;

use rustc_hash::FxHashMap;

use super::types::{MapType, ProxyId, SynonymType, Type, TypeVarId};
use crate::ast::Symbol;

pub type Subst = FxHashMap<TypeVarId, Type>;

#[derive(Clone, Debug)]
pub struct MapConstraint {
    pub args: Vec<Type>,
    pub result: Type,
}

#[derive(Clone, Debug)]
pub enum ProxyKind {
    Plain,
    Bv { min_bits: u32, constraints: Option<Rc<Vec<(Type, Type)>>> },
    Map { arity: usize, constraints: Vec<MapConstraint> },
}

#[derive(Clone, Debug)]
struct Proxy {
    kind: ProxyKind,
    bound: Option<Type>,
}

/// The proxies of one type-checking run and the fresh type variables it made.
pub struct Unifier {
    proxies: Vec<Proxy>,
    /// Type variables from `var_base` on are fresh ones; their names, for messages.
    var_base: u32,
    fresh_names: Vec<FreshName>,
}

/// What a fresh type variable prints as.
#[derive(Clone, Copy, Debug)]
pub enum FreshName {
    /// A renamed copy of one of the program's type variables.
    Copy(TypeVarId),
    Named(Symbol),
}

/// The proxy Boogie gives every expression whose type could not be determined
/// (`Expr.ErrorType`). There is one for the whole run: the first unification binds it for good,
/// and later erroneous expressions then print as that type, as in Boogie.
pub const ERROR_PROXY: ProxyId = ProxyId(0);

impl Unifier {
    pub fn new(var_base: u32) -> Unifier {
        Unifier { proxies: vec![Proxy { kind: ProxyKind::Plain, bound: None }], var_base, fresh_names: Vec::new() }
    }

    pub fn error_type() -> Type {
        Type::Proxy(ERROR_PROXY)
    }

    /// Whether zonking changes nothing: no proxy was made but the error proxy, still unbound
    /// (a monomorphic program without errors).
    pub fn zonk_is_identity(&self) -> bool {
        self.proxies.len() == 1 && self.proxies[0].bound.is_none()
    }

    fn add(&mut self, kind: ProxyKind) -> Type {
        let id = ProxyId(self.proxies.len() as u32);
        self.proxies.push(Proxy { kind, bound: None });
        Type::Proxy(id)
    }

    pub fn new_proxy(&mut self) -> Type {
        self.add(ProxyKind::Plain)
    }

    pub fn new_bv_proxy(&mut self, min_bits: u32) -> Type {
        self.add(ProxyKind::Bv { min_bits, constraints: None })
    }

    /// The type of `t0 ++ t1` while either width is unknown.
    pub fn new_concat_proxy(&mut self, t0: &Type, t1: &Type) -> Type {
        let t0 = self.follow(t0);
        let t1 = self.follow(t1);
        let min_bits = self.min_bits_for(&t0).saturating_add(self.min_bits_for(&t1));
        self.add(ProxyKind::Bv { min_bits, constraints: Some(Rc::new(vec![(t0, t1)])) })
    }

    pub fn new_map_proxy(&mut self, arity: usize) -> Type {
        self.add(ProxyKind::Map { arity, constraints: Vec::new() })
    }

    pub fn fresh_var(&mut self, name: FreshName) -> TypeVarId {
        let id = TypeVarId(self.var_base + self.fresh_names.len() as u32);
        self.fresh_names.push(name);
        id
    }

    /// How a fresh type variable prints; `None` for the program's own.
    pub fn fresh_var_name(&self, id: TypeVarId) -> Option<FreshName> {
        id.0.checked_sub(self.var_base).and_then(|i| self.fresh_names.get(i as usize)).copied()
    }

    /// A fresh variable printed as `v` is.
    pub fn fresh_copy(&mut self, v: TypeVarId) -> TypeVarId {
        let name = self.fresh_var_name(v).unwrap_or(FreshName::Copy(v));
        self.fresh_var(name)
    }

    pub fn proxy_count(&self) -> usize {
        self.proxies.len()
    }

    pub fn kind(&self, p: ProxyId) -> &ProxyKind {
        &self.proxies[p.index()].kind
    }

    fn is_constrained(&self, p: ProxyId) -> bool {
        !matches!(self.proxies[p.index()].kind, ProxyKind::Plain)
    }

    /// What `p` stands for, proxies followed to the end (Boogie's `ProxyFor`, with its path
    /// shortening); `None` when unbound.
    pub fn proxy_for(&mut self, p: ProxyId) -> Option<Type> {
        let bound = self.proxies[p.index()].bound.clone()?;
        if let Type::Proxy(q) = bound
            && self.proxies[q.index()].bound.is_some()
        {
            let end = self.proxy_for(q);
            self.proxies[p.index()].bound = end.clone();
            return end;
        }
        Some(bound)
    }

    /// Read-only [`Unifier::proxy_for`].
    pub fn bound(&self, p: ProxyId) -> Option<&Type> {
        let mut b = self.proxies[p.index()].bound.as_ref()?;
        while let Type::Proxy(q) = b {
            match &self.proxies[q.index()].bound {
                Some(next) => b = next,
                None => break,
            }
        }
        Some(b)
    }

    /// Boogie's `TypeProxy.FollowProxy`: a bound proxy's binding, anything else unchanged.
    pub fn follow(&mut self, t: &Type) -> Type {
        if let Type::Proxy(p) = t
            && let Some(b) = self.proxy_for(*p)
        {
            return b;
        }
        t.clone()
    }

    /// Synonyms and bound proxies removed at the top.
    pub fn shallow(&self, t: &Type) -> Type {
        let mut t = t.expanded();
        loop {
            match t {
                Type::Proxy(p) => match self.bound(*p) {
                    Some(b) => t = b.expanded(),
                    None => return t.clone(),
                },
                _ => return t.clone(),
            }
        }
    }

    fn define(&mut self, p: ProxyId, ty: Type) {
        let ty = self.follow(&ty);
        if !matches!(ty, Type::Proxy(q) if q == p) {
            self.proxies[p.index()].bound = Some(ty);
        }
    }

    // -----------------------------------------------------------------------------------------
    // Queries that look through proxies

    pub fn is_bool(&self, t: &Type) -> bool {
        matches!(self.shallow(t), Type::Bool)
    }
    pub fn is_int(&self, t: &Type) -> bool {
        matches!(self.shallow(t), Type::Int)
    }
    pub fn is_real(&self, t: &Type) -> bool {
        matches!(self.shallow(t), Type::Real)
    }
    /// Boogie's `IsBv`: a bit-vector type or a bit-vector proxy.
    pub fn is_bv(&self, t: &Type) -> bool {
        match self.shallow(t) {
            Type::Bv(_) => true,
            Type::Proxy(p) => matches!(self.kind(p), ProxyKind::Bv { .. }),
            _ => false,
        }
    }
    /// Boogie's `IsMap`: a map type or a map proxy.
    pub fn is_map(&self, t: &Type) -> bool {
        match self.shallow(t) {
            Type::Map(_) => true,
            Type::Proxy(p) => matches!(self.kind(p), ProxyKind::Map { .. }),
            _ => false,
        }
    }
    pub fn float(&self, t: &Type) -> Option<(u32, u32)> {
        match self.shallow(t) {
            Type::Float { significand, exponent } => Some((significand, exponent)),
            _ => None,
        }
    }

    /// Whether proxy `p` occurs in `t` (Boogie's `FreeProxies`).
    fn contains_proxy(&self, t: &Type, p: ProxyId) -> bool {
        match t {
            Type::Proxy(q) => match self.bound(*q) {
                Some(b) => self.contains_proxy(&b.clone(), p),
                None => *q == p,
            },
            Type::Ctor(_, args) => args.iter().any(|a| self.contains_proxy(a, p)),
            Type::Map(m) => m.args.iter().any(|a| self.contains_proxy(a, p)) || self.contains_proxy(&m.result, p),
            Type::Synonym(s) => self.contains_proxy(&s.expansion, p),
            _ => false,
        }
    }

    /// Boogie's `ReallyOccursIn` for an unbound proxy: `p` is a strict part of `that`.
    fn really_occurs_in(&mut self, p: ProxyId, that: &Type) -> bool {
        let that = self.follow(that.expanded());
        if !self.contains_proxy(&that, p) {
            return false;
        }
        match &that {
            Type::Ctor(..) => true,
            Type::Map(_) => true,
            Type::Proxy(q) => *q != p && matches!(self.kind(*q), ProxyKind::Map { .. }),
            _ => false,
        }
    }

    /// The free type variables of `t`, in order of occurrence, proxies followed.
    pub fn free_vars(&self, t: &Type) -> Vec<TypeVarId> {
        let mut out = Vec::new();
        self.collect_free_vars(t, &mut Vec::new(), &mut out);
        out
    }

    fn collect_free_vars(&self, t: &Type, bound: &mut Vec<TypeVarId>, out: &mut Vec<TypeVarId>) {
        match t {
            Type::Var(v) if !bound.contains(v) && !out.contains(v) => {
                out.push(*v);
            }
            Type::Proxy(p) => {
                if let Some(b) = self.bound(*p) {
                    self.collect_free_vars(&b.clone(), bound, out);
                }
            }
            Type::Ctor(_, args) => args.iter().for_each(|a| self.collect_free_vars(a, bound, out)),
            Type::Map(m) => {
                let n = bound.len();
                bound.extend(m.type_params.iter().copied());
                m.args.iter().for_each(|a| self.collect_free_vars(a, bound, out));
                self.collect_free_vars(&m.result, bound, out);
                bound.truncate(n);
            }
            Type::Synonym(s) => self.collect_free_vars(&s.expansion, bound, out),
            _ => {}
        }
    }

    /// Whether any unbound proxy is left in `t`.
    pub fn has_free_proxy(&self, t: &Type) -> bool {
        match t {
            Type::Proxy(p) => match self.bound(*p) {
                Some(b) => self.has_free_proxy(&b.clone()),
                None => true,
            },
            Type::Ctor(_, args) => args.iter().any(|a| self.has_free_proxy(a)),
            Type::Map(m) => m.args.iter().any(|a| self.has_free_proxy(a)) || self.has_free_proxy(&m.result),
            Type::Synonym(s) => s.args.iter().any(|a| self.has_free_proxy(a)) || self.has_free_proxy(&s.expansion),
            _ => false,
        }
    }

    /// `t` with every bound proxy replaced by its binding (Boogie's view of a type once
    /// inference is done). Unbound proxies stay.
    pub fn zonk(&self, t: &Type) -> Type {
        if !self.mentions_proxy(t) {
            return t.clone();
        }
        match t {
            Type::Proxy(p) => match self.bound(*p) {
                Some(b) => self.zonk(&b.clone()),
                None => t.clone(),
            },
            Type::Ctor(c, args) => Type::Ctor(*c, args.iter().map(|a| self.zonk(a)).collect()),
            Type::Map(m) => Type::Map(Rc::new(MapType {
                type_params: m.type_params.clone(),
                args: m.args.iter().map(|a| self.zonk(a)).collect(),
                result: self.zonk(&m.result),
            })),
            Type::Synonym(s) => Type::Synonym(Rc::new(SynonymType {
                synonym: s.synonym,
                args: s.args.iter().map(|a| self.zonk(a)).collect(),
                expansion: self.zonk(&s.expansion),
            })),
            _ => t.clone(),
        }
    }

    /// [`Unifier::zonk`] of an owned type: kept as it is when no proxy is in it.
    pub fn zonked(&self, t: Type) -> Type {
        if self.mentions_proxy(&t) { self.zonk(&t) } else { t }
    }

    fn mentions_proxy(&self, t: &Type) -> bool {
        match t {
            Type::Proxy(_) => true,
            Type::Ctor(_, args) => args.iter().any(|a| self.mentions_proxy(a)),
            Type::Map(m) => m.args.iter().any(|a| self.mentions_proxy(a)) || self.mentions_proxy(&m.result),
            Type::Synonym(s) => s.args.iter().any(|a| self.mentions_proxy(a)) || self.mentions_proxy(&s.expansion),
            _ => false,
        }
    }

    // -----------------------------------------------------------------------------------------
    // Substitution

    /// Boogie's `Substitute`: replaces free type variables; bound proxies are looked through.
    pub fn substitute(&mut self, t: &Type, subst: &Subst) -> Type {
        if subst.is_empty() || !self.may_change(t, subst) {
            return t.clone();
        }
        match t {
            Type::Var(v) => subst.get(v).cloned().unwrap_or_else(|| t.clone()),
            Type::Proxy(p) => match self.proxy_for(*p) {
                Some(b) => self.substitute(&b, subst),
                None => t.clone(),
            },
            Type::Ctor(c, args) => {
                let args: Rc<[Type]> = args.iter().map(|a| self.substitute(a, subst)).collect();
                Type::Ctor(*c, args)
            }
            Type::Map(m) => {
                let collision = m
                    .type_params
                    .iter()
                    .any(|p| subst.contains_key(p) || subst.values().any(|v| self.free_vars(v).contains(p)));
                if collision {
                    // Rename the map's own variables apart first (Boogie clones the map type).
                    let mut rename = Subst::default();
                    let mut params = Vec::with_capacity(m.type_params.len());
                    for p in &m.type_params {
                        let fresh = self.fresh_copy(*p);
                        rename.insert(*p, Type::Var(fresh));
                        params.push(fresh);
                    }
                    let args: Vec<Type> = m.args.iter().map(|a| self.substitute(a, &rename)).collect();
                    let result = self.substitute(&m.result, &rename);
                    let renamed = MapType { type_params: params, args, result };
                    return self.substitute(&Type::Map(Rc::new(renamed)), subst);
                }
                let args = m.args.iter().map(|a| self.substitute(a, subst)).collect();
                let result = self.substitute(&m.result, subst);
                Type::Map(Rc::new(MapType { type_params: m.type_params.clone(), args, result }))
            }
            Type::Synonym(s) => {
                let args = s.args.iter().map(|a| self.substitute(a, subst)).collect();
                let expansion = self.substitute(&s.expansion, subst);
                Type::Synonym(Rc::new(SynonymType { synonym: s.synonym, args, expansion }))
            }
            _ => t.clone(),
        }
    }

    /// Whether substituting `subst` in `t` could give anything but `t`: a variable of its
    /// domain occurs in `t` (free or not), or a bound proxy, which substitution replaces. When
    /// not, `t` is kept as it is (shared, and recognised by identity when unified).
    fn may_change(&self, t: &Type, subst: &Subst) -> bool {
        match t {
            Type::Var(v) => subst.contains_key(v),
            Type::Proxy(p) => self.proxies[p.index()].bound.is_some(),
            Type::Ctor(_, args) => args.iter().any(|a| self.may_change(a, subst)),
            Type::Map(m) => m.args.iter().any(|a| self.may_change(a, subst)) || self.may_change(&m.result, subst),
            Type::Synonym(s) => {
                s.args.iter().any(|a| self.may_change(a, subst)) || self.may_change(&s.expansion, subst)
            }
            _ => false,
        }
    }

    // -----------------------------------------------------------------------------------------
    // Equality (Boogie's `Type.Equals`, alpha-equivalence on map type parameters)

    pub fn equal(&self, a: &Type, b: &Type) -> bool {
        self.equals(a, b, &mut Vec::new(), &mut Vec::new())
    }

    fn equals(&self, a: &Type, b: &Type, ba: &mut Vec<TypeVarId>, bb: &mut Vec<TypeVarId>) -> bool {
        match a {
            Type::Synonym(s) => return self.equals(&s.expansion, b, ba, bb),
            Type::Proxy(p) => {
                if matches!(b, Type::Proxy(q) if q == p) {
                    return true;
                }
                return match self.bound(*p) {
                    Some(t) => self.equals(&t.clone(), b, ba, bb),
                    None => false,
                };
            }
            _ => {}
        }
        let b = self.shallow(b);
        match (a, &b) {
            (Type::Var(v), Type::Var(w)) => {
                let i = ba.iter().rposition(|x| x == v);
                let j = bb.iter().rposition(|x| x == w);
                match (i, j) {
                    (Some(i), Some(j)) => i == j,
                    (None, None) => v == w,
                    _ => false,
                }
            }
            (Type::Ctor(c, xs), Type::Ctor(d, ys)) => {
                c == d && xs.len() == ys.len() && xs.iter().zip(ys.iter()).all(|(x, y)| self.equals(x, y, ba, bb))
            }
            (Type::Map(m), Type::Map(n)) => {
                if m.type_params.len() != n.type_params.len() || m.args.len() != n.args.len() {
                    return false;
                }
                let (la, lb) = (ba.len(), bb.len());
                ba.extend(m.type_params.iter().copied());
                bb.extend(n.type_params.iter().copied());
                let ok = m.args.iter().zip(n.args.iter()).all(|(x, y)| self.equals(x, y, ba, bb))
                    && self.equals(&m.result, &n.result, ba, bb);
                ba.truncate(la);
                bb.truncate(lb);
                ok
            }
            (Type::Var(_) | Type::Ctor(..) | Type::Map(_), _) => false,
            (x, y) => basic_equal(x, y),
        }
    }

    // -----------------------------------------------------------------------------------------
    // Unification

    /// Boogie's `Unify(that)`: makes `a` and `b` equal if possible; true on success.
    pub fn unify(&mut self, a: &Type, b: &Type) -> bool {
        self.unify_in(a, b, &[], &mut Subst::default())
    }

    pub fn unify_in(&mut self, a: &Type, b: &Type, uv: &[TypeVarId], subst: &mut Subst) -> bool {
        if basic_equal(a.expanded(), b.expanded()) {
            return true;
        }
        match a {
            Type::Synonym(s) => {
                let e = s.expansion.clone();
                self.unify_in(&e, b, uv, subst)
            }
            Type::Proxy(p) => self.unify_proxy(*p, a, b, uv, subst),
            Type::Var(v) => self.unify_var(*v, a, b, uv, subst),
            Type::Ctor(c, xs) => {
                let b = b.expanded();
                match b {
                    Type::Proxy(_) | Type::Var(_) => {
                        let b = b.clone();
                        self.unify_in(&b, a, uv, subst)
                    }
                    Type::Ctor(d, ys) if c == d && xs.len() == ys.len() => {
                        let (xs, ys) = (xs.clone(), ys.clone());
                        let mut good = true;
                        for (x, y) in xs.iter().zip(ys.iter()) {
                            good &= self.unify_in(x, y, uv, subst);
                        }
                        good
                    }
                    _ => false,
                }
            }
            Type::Map(m) => {
                let b = b.expanded();
                match b {
                    Type::Proxy(_) | Type::Var(_) => {
                        let b = b.clone();
                        self.unify_in(&b, a, uv, subst)
                    }
                    // A type unifies with itself, binding nothing: no renaming apart needed.
                    Type::Map(n) if Rc::ptr_eq(m, n) => true,
                    Type::Map(n) => {
                        let (m, n) = (m.clone(), n.clone());
                        self.unify_maps(&m, &n, uv, subst)
                    }
                    _ => false,
                }
            }
            _ => {
                let b = b.expanded();
                match b {
                    Type::Proxy(_) | Type::Var(_) => {
                        let b = b.clone();
                        self.unify_in(&b, a, uv, subst)
                    }
                    _ => basic_equal(a, b),
                }
            }
        }
    }

    fn unify_maps(&mut self, m: &MapType, n: &MapType, uv: &[TypeVarId], subst: &mut Subst) -> bool {
        if m.type_params.len() != n.type_params.len() || m.args.len() != n.args.len() {
            return false;
        }
        let mut s0 = Subst::default();
        let mut s1 = Subst::default();
        let mut fresh = Vec::with_capacity(m.type_params.len());
        for (p0, p1) in m.type_params.iter().zip(n.type_params.iter()) {
            let f = self.fresh_copy(*p0);
            fresh.push(f);
            s0.insert(*p0, Type::Var(f));
            s1.insert(*p1, Type::Var(f));
        }
        let mut good = true;
        for (x, y) in m.args.iter().zip(n.args.iter()) {
            let x = self.substitute(x, &s0);
            let y = self.substitute(y, &s1);
            good &= self.unify_in(&x, &y, uv, subst);
        }
        let r0 = self.substitute(&m.result, &s0);
        let r1 = self.substitute(&n.result, &s1);
        good &= self.unify_in(&r0, &r1, uv, subst);
        if good && !fresh.is_empty() {
            // A fresh variable must not escape into either type or the substitution.
            let escaped = |u: &Unifier, t: &Type| u.free_vars(t).iter().any(|v| fresh.contains(v));
            if escaped(self, &Type::Map(Rc::new(m.clone()))) || escaped(self, &Type::Map(Rc::new(n.clone()))) {
                return false;
            }
            if subst.values().any(|t| escaped(self, t)) {
                return false;
            }
        }
        good
    }

    fn unify_var(&mut self, v: TypeVarId, a: &Type, b: &Type, uv: &[TypeVarId], subst: &mut Subst) -> bool {
        let b = b.expanded().clone();
        if let Type::Proxy(q) = b
            && !self.is_constrained(q)
        {
            return self.unify_in(&b, a, uv, subst);
        }
        if self.equal(a, &b) {
            return true;
        }
        if uv.contains(&v) {
            return match subst.get(&v).cloned() {
                None => self.add_substitution(v, &b, subst),
                Some(prev) => self.unify_in(&prev, &b, uv, subst),
            };
        }
        match b {
            Type::Var(w) if uv.contains(&w) => self.unify_in(&b, a, uv, subst),
            _ => false,
        }
    }

    fn add_substitution(&mut self, v: TypeVarId, new: &Type, subst: &mut Subst) -> bool {
        let t = self.substitute(new, subst);
        if self.free_vars(&t).contains(&v) {
            return false;
        }
        let mut single = Subst::default();
        single.insert(v, t.clone());
        let keys: Vec<TypeVarId> = subst.keys().copied().collect();
        for k in keys {
            let old = subst[&k].clone();
            let new = self.substitute(&old, &single);
            subst.insert(k, new);
        }
        subst.insert(v, t);
        true
    }

    fn unify_proxy(&mut self, p: ProxyId, a: &Type, b: &Type, uv: &[TypeVarId], subst: &mut Subst) -> bool {
        if let Some(bound) = self.proxy_for(p) {
            return self.unify_in(&bound, b, uv, subst);
        }
        match self.kind(p).clone() {
            ProxyKind::Plain => {
                if self.really_occurs_in(p, b) {
                    return false;
                }
                self.define(p, b.expanded().clone());
                true
            }
            ProxyKind::Bv { min_bits, constraints } => {
                let that = self.follow(b.expanded());
                if self.really_occurs_in(p, &that) {
                    return false;
                }
                match that {
                    Type::Var(w) if uv.contains(&w) => self.unify_in(&that, a, uv, subst),
                    Type::Proxy(q) if q == p => true,
                    Type::Bv(n) => {
                        if min_bits > n {
                            return false;
                        }
                        if let Some(cs) = constraints {
                            for (t0, t1) in cs.iter() {
                                let min_t1 = self.min_bits_for(t1);
                                let left = self.increase_bits(t0, n.saturating_sub(min_t1));
                                self.increase_bits(t1, min_t1.saturating_add(left));
                            }
                        }
                        self.define(p, that);
                        true
                    }
                    Type::Proxy(q) => match self.kind(q).clone() {
                        ProxyKind::Bv { min_bits: other_min, constraints: other } => {
                            if constraints.is_some() || other.is_some() {
                                let mut list = Vec::new();
                                if let Some(c) = &constraints {
                                    list.extend(c.iter().cloned());
                                }
                                if let Some(c) = &other {
                                    list.extend(c.iter().cloned());
                                }
                                let np = self.add(ProxyKind::Bv {
                                    min_bits: min_bits.max(other_min),
                                    constraints: Some(Rc::new(list)),
                                });
                                self.define(p, np.clone());
                                self.define(q, np);
                            } else if min_bits <= other_min {
                                self.define(p, that);
                            } else {
                                self.define(q, a.clone());
                            }
                            true
                        }
                        ProxyKind::Map { .. } => false,
                        ProxyKind::Plain => self.unify_in(&that, a, uv, subst),
                    },
                    _ => false,
                }
            }
            ProxyKind::Map { arity, constraints } => {
                let that = self.follow(b.expanded());
                if self.really_occurs_in(p, &that) {
                    return false;
                }
                match that {
                    Type::Var(w) if uv.contains(&w) => self.unify_in(&that, a, uv, subst),
                    Type::Proxy(q) if q == p => true,
                    Type::Map(ref m) => {
                        if m.args.len() != arity {
                            return false;
                        }
                        let m = m.clone();
                        let mut good = true;
                        for c in &constraints {
                            good &= self.constraint_unify(c, &m, uv, subst);
                        }
                        if good {
                            self.define(p, that);
                        }
                        good
                    }
                    Type::Proxy(q) => match self.kind(q).clone() {
                        ProxyKind::Map { arity: other, .. } => {
                            if other != arity {
                                return false;
                            }
                            for c in constraints {
                                self.add_constraint(q, c);
                            }
                            self.define(p, that);
                            true
                        }
                        ProxyKind::Bv { .. } => false,
                        ProxyKind::Plain => self.unify_in(&that, a, uv, subst),
                    },
                    _ => false,
                }
            }
        }
    }

    fn min_bits_for(&self, t: &Type) -> u32 {
        match t.expanded() {
            Type::Bv(n) => *n,
            Type::Proxy(q) => match self.kind(*q) {
                ProxyKind::Bv { min_bits, .. } => *min_bits,
                _ => 0,
            },
            _ => 0,
        }
    }

    fn increase_bits(&mut self, t: &Type, to: u32) -> u32 {
        let t = self.follow(t.expanded());
        match t {
            Type::Bv(n) => to.saturating_sub(n),
            Type::Proxy(q) => {
                if let ProxyKind::Bv { min_bits, constraints } = self.kind(q).clone()
                    && min_bits < to
                {
                    let np = self.add(ProxyKind::Bv { min_bits: to, constraints });
                    self.define(q, np);
                }
                0
            }
            _ => 0,
        }
    }

    fn constraint_unify(&mut self, c: &MapConstraint, m: &MapType, uv: &[TypeVarId], subst: &mut Subst) -> bool {
        let mut s = Subst::default();
        for v in &m.type_params {
            let p = self.new_proxy();
            s.insert(*v, p);
        }
        let mut good = true;
        for (formal, actual) in m.args.iter().zip(c.args.iter()) {
            let f = self.substitute(formal, &s);
            good &= self.unify_in(&f, actual, uv, subst);
        }
        let r = self.substitute(&m.result, &s);
        good &= self.unify_in(&r, &c.result, uv, subst);
        good
    }

    fn add_constraint(&mut self, q: ProxyId, c: MapConstraint) {
        match self.proxy_for(q) {
            Some(Type::Map(m)) => {
                self.constraint_unify(&c, &m, &[], &mut Subst::default());
            }
            Some(Type::Proxy(r)) => self.add_constraint(r, c),
            Some(_) => {}
            None => {
                if let ProxyKind::Map { constraints, .. } = &mut self.proxies[q.index()].kind {
                    constraints.push(c);
                }
            }
        }
    }

    /// A selection `m[args]` on a map proxy (Boogie's `MapTypeProxy.CheckArgumentTypes` when
    /// the proxy is still unbound): records the constraint and returns the result's proxy.
    pub fn select_on_proxy(&mut self, q: ProxyId, args: Vec<Type>) -> Type {
        let result = self.new_proxy();
        self.add_constraint(q, MapConstraint { args, result: result.clone() });
        result
    }

    /// Boogie's `InferTypeParameters`: instantiates `params` so that `formals` match `actuals`
    /// (assumed to succeed).
    pub fn infer_type_params(&mut self, params: &[TypeVarId], formals: &[Type], actuals: &[Type]) -> Vec<Type> {
        let mut s = Subst::default();
        let mut proxies = Vec::with_capacity(params.len());
        for v in params {
            let p = self.new_proxy();
            proxies.push(p.clone());
            s.insert(*v, p);
        }
        for (f, a) in formals.iter().zip(actuals.iter()) {
            let f = self.substitute(f, &s);
            self.unify(&f, a);
        }
        proxies
    }
}

fn basic_equal(a: &Type, b: &Type) -> bool {
    match (a, b) {
        (Type::Bool, Type::Bool)
        | (Type::Int, Type::Int)
        | (Type::Real, Type::Real)
        | (Type::RMode, Type::RMode)
        | (Type::String, Type::String)
        | (Type::RegEx, Type::RegEx) => true,
        (Type::Bv(m), Type::Bv(n)) => m == n,
        (Type::Float { significand: s0, exponent: e0 }, Type::Float { significand: s1, exponent: e1 }) => {
            s0 == s1 && e0 == e1
        }
        _ => false,
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn plain_proxy_binds() {
        let mut u = Unifier::new(0);
        let p = u.new_proxy();
        assert!(u.unify(&p, &Type::Int));
        assert!(u.is_int(&p));
        assert!(!u.unify(&p, &Type::Bool));
    }

    #[test]
    fn bv_proxy_minimum_width() {
        let mut u = Unifier::new(0);
        let p = u.new_bv_proxy(8);
        assert!(!u.unify(&p, &Type::Bv(4)));
        assert!(!u.unify(&p, &Type::Int));
        assert!(u.unify(&p, &Type::Bv(16)));
        assert_eq!(u.zonk(&p), Type::Bv(16));
    }

    #[test]
    fn concat_widths_propagate() {
        let mut u = Unifier::new(0);
        let a = u.new_bv_proxy(0);
        let c = u.new_concat_proxy(&a, &Type::Bv(8));
        assert!(u.unify(&c, &Type::Bv(24)));
        // the unknown operand must now be at least 16 bits wide
        assert!(!u.unify(&a, &Type::Bv(8)));
    }

    #[test]
    fn map_proxy_constraints_checked() {
        let mut u = Unifier::new(0);
        let m = u.new_map_proxy(1);
        let Type::Proxy(q) = m else { unreachable!() };
        let r = u.select_on_proxy(q, vec![Type::Int]);
        let map = Type::Map(Rc::new(MapType { type_params: vec![], args: vec![Type::Int], result: Type::Bool }));
        assert!(u.unify(&m, &map));
        assert!(u.is_bool(&r));
        let m2 = u.new_map_proxy(1);
        let Type::Proxy(q2) = m2 else { unreachable!() };
        u.select_on_proxy(q2, vec![Type::Bool]);
        assert!(!u.unify(&m2, &map));
    }

    #[test]
    fn polymorphic_maps_alpha_equivalent() {
        let mut u = Unifier::new(10);
        let (a, b) = (TypeVarId(1), TypeVarId(2));
        let ma = Type::Map(Rc::new(MapType { type_params: vec![a], args: vec![Type::Var(a)], result: Type::Var(a) }));
        let mb = Type::Map(Rc::new(MapType { type_params: vec![b], args: vec![Type::Var(b)], result: Type::Var(b) }));
        assert!(u.equal(&ma, &mb));
        assert!(u.unify(&ma, &mb));
        let mc = Type::Map(Rc::new(MapType { type_params: vec![b], args: vec![Type::Var(b)], result: Type::Int }));
        assert!(!u.unify(&ma, &mc));
    }

    #[test]
    fn type_variables_unify_only_when_unifiable() {
        let mut u = Unifier::new(10);
        let a = TypeVarId(1);
        assert!(!u.unify(&Type::Var(a), &Type::Int));
        let mut s = Subst::default();
        assert!(u.unify_in(&Type::Var(a), &Type::Int, &[a], &mut s));
        assert_eq!(s[&a], Type::Int);
    }
}
