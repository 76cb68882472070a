//! Type erasure: a polymorphic program as a monomorphic one over a universe of values `$U`
//! and a sort of type terms `$T` (Boogie's `/typeEncoding:p` and `/typeEncoding:a`, and the
//! fallback for polymorphism the monomorphizer cannot instantiate).
//!
//! Expects a type-checked program. Runs only when the program is polymorphic in Boogie's sense
//! (`MonomorphismChecker`: type parameters on a function, procedure, implementation, binder
//! or map type, or a type constructor with arguments) and either `/typeEncoding:p|a` was
//! given or monomorphization left the program polymorphic. Guarantees a monomorphic,
//! type-checked program that is valid only if the input is (sound), with Boogie's fatal
//! messages for what its erasing encodings refuse (datatypes, `{:define}`).
//!
//! How. Values of `int`, `bool`, `real`, bit-vector, float, rounding-mode, string and regex
//! types keep their sorts; every other value (user types, type variables, maps) is a `$U`.
//! Each type has a term of sort `$T` (`$T.int`, `$T.C(t)`, `$T.Map3(t1, t2)`), with tags
//! that make different constructors differ and inverses that make them injective; `$typeof`
//! gives a value's type. Native values cross into `$U` positions through `$box.int` /
//! `$unbox.int`. A function's type parameters become leading `$T` arguments (Boogie's
//! "arguments" encoding); a quantifier's type parameters are taken from the types of its
//! bound variables where they can be (Boogie's "premisses" encoding) and quantified as `$T`
//! otherwise, and every bound `$U` variable gets the premise `$typeof(x) == t`. Maps are
//! abstracted by shape (binders and the parts that mention them; the rest become type
//! arguments) into `$select`/`$store` functions with the select-of-store axioms and no
//! extensionality, as Boogie has without array theory. Procedures' type parameters become
//! `$T` in-parameters; `$U` variables get a where clause with their type. The two options
//! differ only in patterns: under `/typeEncoding:a` a quantifier without triggers offers z3
//! the patterns Boogie's arguments encoding, whose VC has no typing terms, would offer it
//! (its typing terms as `:no-pattern`s, or no usable pattern where Boogie's has none).
//!
//! Why this is sound: the input's model extends to one of the output's in which `$U` holds
//! every value tagged with its type; each axiom the pass adds holds there. That is why the
//! typing axioms of `$select` and `$store` are guarded (a store of a value of another type
//! does not make a map of the store's type) and why a function body with `$U` parameters
//! becomes a definition axiom guarded by its parameters' types rather than an unguarded one.

use std::rc::Rc;

use rustc_hash::{FxHashMap, FxHashSet};

use super::TypeEncoding;
use super::monomorphize::{canon, match_type, type_name};
use super::{PassError, rewrite};
use crate::ast::{
    self, AssignLhs, AttrParam, Attribute, AxiomDecl, BinaryOp, Body, CallCmd, Cmd, CmdKind, ConstDecl, Decl, Expr,
    ExprKind, FnParam, FunctionDecl, GlobalVarDecl, Ident, LocalVars, NodeId, Program, QuantKind, Quantifier, Span,
    Spec, Symbol, Trigger, TypeKind, VarGroup,
};
use crate::typeck::types::MapType;
use crate::typeck::{FunctionKind, Ref, Type, TypeCtorId, TypeVarId, TypedProgram, VarId};

/// Type-variable ids standing for a map shape's abstracted parts and its binders.
const HOLE_BASE: u32 = 0xE000_0000;
const BOUND_BASE: u32 = 0xE800_0000;
/// The ids `canon` gives map binders.
const CANON_BASE: u32 = 0xF000_0000;

/// The pass: `/typeEncoding:p|a` erases explicitly; under `m` it erases what
/// monomorphization left.
pub struct EraseTypes {
    pub encoding: TypeEncoding,
}

impl super::Pass for EraseTypes {
    fn name(&self) -> &'static str {
        "erase-types"
    }

    fn run(&self, typed: &TypedProgram, _cx: &mut super::PassCx) -> Result<Option<Program>, PassError> {
        run(typed, self.encoding)
    }
}

fn run(typed: &TypedProgram, encoding: TypeEncoding) -> Result<Option<Program>, PassError> {
    // With `/typeEncoding:p|a` Boogie erases whatever its `MonomorphismChecker` calls
    // polymorphic; otherwise monomorphization ran first, and only what it left needs erasing
    // (its output still declares the type constructors it instantiated).
    let explicit = encoding != TypeEncoding::Monomorphic;
    if !is_polymorphic(typed, explicit) {
        return Ok(None);
    }
    // Without `/typeEncoding:p|a` what erasure cannot take is left to vcgen, which refuses
    // the implementations that need it (and `/noVerify` runs need nothing).
    let refuse = |message: &str| if explicit { Err(PassError::Fatal(message.to_string())) } else { Ok(None) };
    for d in &typed.program.decls {
        match d {
            Decl::Datatype(_) => return refuse("Datatypes only supported with monomorphic encoding"),
            Decl::Function(f) if find_bool_attribute(&f.attrs, "define") => {
                return refuse("Functions with :define attribute only supported with monomorphic encoding");
            }
            Decl::YieldInvariant(_) | Decl::Action(_) | Decl::YieldProcedure(_) => return Ok(None),
            _ => {}
        }
    }
    let mut eraser = Eraser::new(typed, encoding == TypeEncoding::Arguments);
    let decls = eraser.program();
    if let Some((span, what)) = eraser.unsupported {
        if !explicit {
            return Ok(None);
        }
        return Err(PassError::Unsupported { span: Some(span), what });
    }
    Ok(Some(Program { decls }))
}

/// Boogie's `MonomorphismChecker`; type constructors with arguments count only with
/// `with_constructors`.
fn is_polymorphic(typed: &TypedProgram, with_constructors: bool) -> bool {
    fn poly_map(t: &Type) -> bool {
        match t.expanded() {
            Type::Map(m) => !m.type_params.is_empty() || m.args.iter().any(poly_map) || poly_map(&m.result),
            Type::Ctor(_, args) => args.iter().any(poly_map),
            _ => false,
        }
    }
    fn poly_binder(e: &Expr) -> bool {
        let mut found = matches!(&e.kind, ExprKind::Quant(q) if !q.type_params.is_empty());
        e.for_each_child(&mut |c| found = found || poly_binder(c));
        found
    }
    let s = typed.symbols();
    let constructors = with_constructors
        && typed.program.decls.iter().any(|d| {
            matches!(d, Decl::Type(t) if t.synonym.is_none()
                && !t.params.is_empty()
                && !t.attrs.iter().any(|a| a.key == "builtin"))
        });
    // Every type variable is a binder resolution made: when the only ones are synonyms'
    // parameters (which stay inside the synonyms' bodies), no type, expression or binder is
    // polymorphic, and the scans of every expression's type below are not needed (after
    // monomorphization, the usual case).
    let synonym_params: FxHashSet<u32> = typed
        .program
        .decls
        .iter()
        .filter_map(|d| match d {
            Decl::Type(t) if t.synonym.is_some() => Some(t.params.iter().map(|p| p.id.0)),
            _ => None,
        })
        .flatten()
        .collect();
    if s.type_vars.iter().all(|v| synonym_params.contains(&v.name.id.0)) {
        return constructors;
    }
    constructors
        || s.functions.iter().any(|f| !f.type_params.is_empty())
        || s.procedures.iter().any(|p| !p.type_params.is_empty())
        || s.implementations.iter().any(|i| !i.type_params.is_empty())
        || s.vars.iter().any(|v| poly_map(&v.ty))
        || typed.typing.expr_types.iter().any(poly_map)
        || typed.program.decls.iter().any(|d| match d {
            Decl::Axiom(a) => poly_binder(&a.expr),
            Decl::Function(f) => f.body.as_ref().is_some_and(poly_binder),
            _ => false,
        })
        || typed.typing.expr_types.iter().any(|t| matches!(t.expanded(), Type::Var(_)))
}

fn find_bool_attribute(attrs: &[Attribute], key: &str) -> bool {
    attrs.iter().any(|a| a.key == key)
}

/// How a value is represented after erasure.
#[derive(Clone, Copy, PartialEq, Eq, Debug)]
enum Rep {
    /// In its own sort.
    Native,
    /// As a `$U`.
    U,
}

fn rep(t: &Type) -> Rep {
    match t.expanded() {
        Type::Bool
        | Type::Int
        | Type::Real
        | Type::RMode
        | Type::String
        | Type::RegEx
        | Type::Bv(_)
        | Type::Float { .. } => Rep::Native,
        _ => Rep::U,
    }
}

/// A constructor of type terms.
#[derive(Clone, PartialEq, Eq, Hash, Debug)]
enum TypeCon {
    Native(Type),
    User(TypeCtorId),
    /// A map shape, by index into `Eraser::shapes`.
    Map(usize),
}

struct TypeConInfo {
    name: Symbol,
    arity: usize,
    inverses: Vec<Symbol>,
}

/// A map type with the parts that do not mention its binders abstracted: `<a>[ref, Field a]a`
/// is the shape `<b0>[h0, Field b0]b0` with one hole.
struct Shape {
    /// Holes as `Type::Var(HOLE_BASE + i)`, binders as `Type::Var(BOUND_BASE + j)`.
    ty: Rc<MapType>,
    holes: usize,
    select: Symbol,
    store: Symbol,
}

struct Natives {
    boxer: Symbol,
    unboxer: Symbol,
}

struct Eraser<'a> {
    typed: &'a TypedProgram,
    taken: FxHashSet<Symbol>,
    span: Span,
    u: Symbol,
    t: Symbol,
    type_of: Symbol,
    tag: Symbol,
    cons: FxHashMap<TypeCon, usize>,
    con_infos: Vec<TypeConInfo>,
    con_order: Vec<TypeCon>,
    natives: FxHashMap<Type, Natives>,
    native_order: Vec<Type>,
    shapes: Vec<Shape>,
    shape_index: FxHashMap<Type, usize>,
    /// Type variables in scope and the `$T` terms they stand for (innermost last).
    scope: Vec<(TypeVarId, Expr)>,
    /// Functions whose signature changed, by id: their declarations are rewritten.
    decls_out: Vec<Decl>,
    /// Out-parameter temporaries the current implementation needs.
    temps: Vec<(Symbol, Type)>,
    unsupported: Option<(Span, String)>,
    /// `/typeEncoding:a`: quantifiers offer z3 the patterns Boogie's arguments encoding would.
    arguments: bool,
    /// Functions no term applies, by their parameters' sorts: triggers that never match.
    never: FxHashMap<String, Symbol>,
}

impl<'a> Eraser<'a> {
    fn new(typed: &'a TypedProgram, arguments: bool) -> Eraser<'a> {
        let s = typed.symbols();
        let mut taken: FxHashSet<Symbol> = s
            .functions_by_name
            .keys()
            .chain(s.procedures_by_name.keys())
            .chain(s.types_by_name.keys())
            .chain(s.globals.keys())
            .copied()
            .collect();
        let span = typed.program.decls.first().map_or(Span { file: ast::FileId(0), start: 0, end: 0 }, |d| d.span());
        let mut fresh = |base: &str| fresh_in(&mut taken, base);
        let (u, t, type_of, tag) = (fresh("$U"), fresh("$T"), fresh("$typeof"), fresh("$tag"));
        Eraser {
            typed,
            taken,
            span,
            u,
            t,
            type_of,
            tag,
            cons: FxHashMap::default(),
            con_infos: Vec::new(),
            con_order: Vec::new(),
            natives: FxHashMap::default(),
            native_order: Vec::new(),
            shapes: Vec::new(),
            shape_index: FxHashMap::default(),
            scope: Vec::new(),
            decls_out: Vec::new(),
            temps: Vec::new(),
            unsupported: None,
            arguments,
            never: FxHashMap::default(),
        }
    }

    fn fresh_name(&mut self, base: &str) -> Symbol {
        fresh_in(&mut self.taken, base)
    }

    fn refuse(&mut self, span: Span, what: &str) {
        if self.unsupported.is_none() {
            self.unsupported = Some((span, what.to_string()));
        }
    }

    // --- building the tree

    fn var(&self, name: Symbol) -> Expr {
        let span = self.span;
        Expr { kind: ExprKind::Var(Ident::at(name, span)), span, id: NodeId::NONE }
    }

    fn call(&self, func: Symbol, args: Vec<Expr>) -> Expr {
        Expr { kind: ExprKind::Call { func, args: args.into() }, span: self.span, id: NodeId::NONE }
    }

    fn named_type(&self, name: Symbol) -> ast::Type {
        let span = self.span;
        ast::Type::new(TypeKind::Named { name: Ident::at(name, span), args: Box::new([]) }, span)
    }

    fn u_type(&self) -> ast::Type {
        self.named_type(self.u)
    }

    fn t_type(&self) -> ast::Type {
        self.named_type(self.t)
    }

    fn native_type(&self, t: &Type) -> ast::Type {
        let span = self.span;
        let named = |name: String| TypeKind::Named { name: Ident::new(&name, span), args: Box::new([]) };
        let kind = match t.expanded() {
            Type::Bool => TypeKind::Bool,
            Type::Int => TypeKind::Int,
            Type::Real => TypeKind::Real,
            Type::Bv(n) => named(format!("bv{n}")),
            Type::Float { significand, exponent } => named(format!("float{significand}e{exponent}")),
            Type::RMode => named("rmode".into()),
            Type::String => named("string".into()),
            Type::RegEx => named("regex".into()),
            _ => return self.u_type(),
        };
        ast::Type::new(kind, span)
    }

    fn erased_type(&self, t: &Type) -> ast::Type {
        match rep(t) {
            Rep::Native => self.native_type(t),
            Rep::U => self.u_type(),
        }
    }

    fn binder(&self, name: Symbol, ty: ast::Type) -> VarGroup {
        let span = self.span;
        VarGroup { attrs: Box::new([]), names: Box::new([Ident::at(name, span)]), ty, where_clause: None, span }
    }

    fn quantifier(&self, kind: QuantKind, vars: Vec<VarGroup>, trigger: Vec<Expr>, body: Expr) -> Expr {
        let triggers: Box<[Trigger]> = if trigger.is_empty() {
            Box::new([])
        } else {
            Box::new([Trigger { positive: true, exprs: trigger.into(), span: self.span }])
        };
        let q = Quantifier { kind, type_params: Box::new([]), vars: vars.into(), attrs: Box::new([]), triggers, body };
        Expr { kind: ExprKind::Quant(Box::new(q)), span: self.span, id: NodeId::NONE }
    }

    fn axiom(&mut self, expr: Expr) {
        let span = self.span;
        self.decls_out.push(Decl::Axiom(Box::new(AxiomDecl { hideable: false, attrs: Box::new([]), expr, span })));
    }

    fn function_decl(&self, name: Symbol, params: Vec<ast::Type>, result: ast::Type) -> Decl {
        let span = self.span;
        let param = |ty: ast::Type| FnParam { attrs: Box::new([]), name: None, ty, span };
        Decl::Function(Box::new(FunctionDecl {
            revealed: false,
            attrs: Box::new([]),
            name: Ident::at(name, span),
            type_params: Box::new([]),
            params: params.into_iter().map(param).collect(),
            result: param(result),
            returns_form: false,
            body: None,
            uses: None,
            span,
        }))
    }

    // --- type terms

    fn con(&mut self, con: TypeCon, arity: usize) -> usize {
        if let Some(&i) = self.cons.get(&con) {
            return i;
        }
        let base = match &con {
            TypeCon::Native(t) => format!("$T.{}", type_name(t)),
            TypeCon::User(c) => format!("$T.{}", self.typed.symbols().type_ctors[c.0 as usize].name.name),
            TypeCon::Map(k) => format!("$T.Map{k}"),
        };
        let name = self.fresh_name(&base);
        let inverses = (0..arity).map(|i| self.fresh_name(&format!("{base}.inv{i}"))).collect();
        self.con_infos.push(TypeConInfo { name, arity, inverses });
        self.con_order.push(con.clone());
        self.cons.insert(con, self.con_infos.len() - 1);
        self.con_infos.len() - 1
    }

    fn apply_con(&mut self, con: TypeCon, args: Vec<Expr>) -> Expr {
        let i = self.con(con, args.len());
        let name = self.con_infos[i].name;
        if args.is_empty() { self.var(name) } else { self.call(name, args) }
    }

    /// The `$T` term of `t` in the current scope.
    fn type_term(&mut self, t: &Type, span: Span) -> Expr {
        match t.expanded() {
            Type::Var(v) => match self.scope.iter().rev().find(|(w, _)| w == v).or_else(|| {
                // A function body resolved as an axiom binds the function's type parameters
                // again, under the same names.
                let names = &self.typed.symbols().type_vars;
                let name = |w: &TypeVarId| names.get(w.0 as usize).map(|i| i.name.name);
                self.scope.iter().rev().find(|(w, _)| name(w).is_some() && name(w) == name(v))
            }) {
                Some((_, term)) => term.clone(),
                None => {
                    self.refuse(span, "this use of a type variable in type erasure");
                    self.apply_con(TypeCon::Native(Type::Int), Vec::new())
                }
            },
            Type::Ctor(c, args) => {
                let args: Vec<Expr> = args.iter().map(|a| self.type_term(a, span)).collect();
                self.apply_con(TypeCon::User(*c), args)
            }
            Type::Map(_) => {
                let (k, holes) = self.shape(t);
                let args: Vec<Expr> = holes.iter().map(|h| self.type_term(h, span)).collect();
                self.apply_con(TypeCon::Map(k), args)
            }
            Type::Proxy(_) | Type::Synonym(_) => {
                self.refuse(span, "an uninferred type in type erasure");
                self.apply_con(TypeCon::Native(Type::Int), Vec::new())
            }
            native => {
                let native = native.clone();
                self.apply_con(TypeCon::Native(native), Vec::new())
            }
        }
    }

    fn type_of_expr(&self, e: Expr) -> Expr {
        self.call(self.type_of, vec![e])
    }

    /// The shape of map type `t` and the types that fill its holes.
    fn shape(&mut self, t: &Type) -> (usize, Vec<Type>) {
        let m = match canon(t, &FxHashMap::default(), 0) {
            Type::Map(m) => m,
            _ => {
                // Not reached for a type-checked program; the pass then refuses the program.
                self.refuse(self.span, "a selection from a non-map in type erasure");
                Rc::new(MapType { type_params: Vec::new(), args: Vec::new(), result: Type::Int })
            }
        };
        let mut holes = Vec::new();
        let ty = Rc::new(MapType {
            type_params: (0..m.type_params.len() as u32).map(|j| TypeVarId(BOUND_BASE + j)).collect(),
            args: m.args.iter().map(|a| abstract_type(a, &m.type_params, &mut holes)).collect(),
            result: abstract_type(&m.result, &m.type_params, &mut holes),
        });
        let key = Type::Map(ty.clone());
        if let Some(&k) = self.shape_index.get(&key) {
            return (k, holes);
        }
        let k = self.shapes.len();
        let select = self.fresh_name(&format!("$select{k}"));
        let store = self.fresh_name(&format!("$store{k}"));
        self.shapes.push(Shape { ty, holes: holes.len(), select, store });
        self.shape_index.insert(key, k);
        (k, holes)
    }

    // --- coercions

    fn natives(&mut self, t: &Type) -> &Natives {
        let t = canon(t, &FxHashMap::default(), 0);
        if !self.natives.contains_key(&t) {
            let name = type_name(&t);
            let boxer = self.fresh_name(&format!("$box.{name}"));
            let unboxer = self.fresh_name(&format!("$unbox.{name}"));
            self.natives.insert(t.clone(), Natives { boxer, unboxer });
            self.native_order.push(t.clone());
        }
        &self.natives[&t]
    }

    /// `e`, of type `t`, moved from representation `from` to `to`.
    fn coerce(&mut self, e: Expr, t: &Type, from: Rep, to: Rep) -> Expr {
        match (from, to) {
            (Rep::Native, Rep::U) => {
                let f = self.natives(t).boxer;
                self.call(f, vec![e])
            }
            (Rep::U, Rep::Native) => {
                let f = self.natives(t).unboxer;
                self.call(f, vec![e])
            }
            _ => e,
        }
    }

    /// `e` erased and moved to representation `to`.
    fn expr_as(&mut self, e: &Expr, to: Rep) -> Expr {
        let t = self.typed.type_of(e.id).clone();
        let erased = self.expr(e);
        self.coerce(erased, &t, rep(&t), to)
    }

    // --- expressions

    /// `e` erased, in the representation of its own type.
    fn expr(&mut self, e: &Expr) -> Expr {
        let typed = self.typed;
        let ty = typed.type_of(e.id).clone();
        let kind = match &e.kind {
            ExprKind::Call { func, args } => {
                let Some(Ref::Function(f)) = typed.resolution.refs.get(e.id).copied() else {
                    self.refuse(e.span, "this call in type erasure");
                    return e.clone();
                };
                let info = typed.symbols().function(f);
                if info.kind != FunctionKind::Declared {
                    self.refuse(e.span, "datatypes in type erasure");
                    return e.clone();
                }
                let inst = self.call_instantiation(e, f);
                let mut new_args: Vec<Expr> = inst.iter().map(|t| self.type_term(t, e.span)).collect();
                for (a, p) in args.iter().zip(&info.param_types) {
                    let arg = self.expr_as(a, rep(p));
                    new_args.push(arg);
                }
                let call = Expr { kind: ExprKind::Call { func: *func, args: new_args.into() }, span: e.span, id: e.id };
                return self.coerce(call, &ty, rep(&info.result), rep(&ty));
            }
            ExprKind::Binary { op: op @ (BinaryOp::Eq | BinaryOp::Neq), lhs, rhs } => {
                let (l, r) = (rep(typed.type_of(lhs.id)), rep(typed.type_of(rhs.id)));
                let to = if l == r { l } else { Rep::U };
                ExprKind::Binary { op: *op, lhs: Box::new(self.expr_as(lhs, to)), rhs: Box::new(self.expr_as(rhs, to)) }
            }
            ExprKind::Binary { op, lhs, rhs } => {
                ExprKind::Binary { op: *op, lhs: Box::new(self.expr(lhs)), rhs: Box::new(self.expr(rhs)) }
            }
            ExprKind::Unary { op, arg } => ExprKind::Unary { op: *op, arg: Box::new(self.expr(arg)) },
            ExprKind::Old(a) => ExprKind::Old(Box::new(self.expr(a))),
            ExprKind::Arith { to, arg } => ExprKind::Arith { to: *to, arg: Box::new(self.expr(arg)) },
            ExprKind::BvConcat { lhs, rhs } => {
                ExprKind::BvConcat { lhs: Box::new(self.expr(lhs)), rhs: Box::new(self.expr(rhs)) }
            }
            ExprKind::Extract { arg, hi, lo } => ExprKind::Extract { arg: Box::new(self.expr(arg)), hi: *hi, lo: *lo },
            ExprKind::Coerce { arg, .. } => return self.expr(arg),
            ExprKind::Select { map, indexes } => {
                let m = self.expr_as(map, Rep::U);
                let map_type = typed.type_of(map.id).clone();
                let inst = self.map_instantiation(e, &map_type, indexes, None);
                let indexes: Vec<Expr> = indexes.iter().map(|i| self.expr_as(i, Rep::U)).collect();
                let selected = self.select(&map_type, &inst, m, indexes, e.span);
                return self.coerce(selected, &ty, Rep::U, rep(&ty));
            }
            ExprKind::Store(s) => {
                let m = self.expr_as(&s.map, Rep::U);
                let map_type = typed.type_of(s.map.id).clone();
                let inst = self.map_instantiation(e, &map_type, &s.indexes, Some(&s.value));
                let indexes: Vec<Expr> = s.indexes.iter().map(|i| self.expr_as(i, Rep::U)).collect();
                let value = self.expr_as(&s.value, Rep::U);
                return self.store(&map_type, &inst, m, indexes, value, e.span);
            }
            ExprKind::Quant(q) if q.kind != QuantKind::Lambda => return self.quantifier_expr(q, e),
            ExprKind::Let(l) => ExprKind::Let(Box::new(ast::LetExpr {
                vars: l.vars.clone(),
                rhss: l.rhss.iter().map(|r| self.expr(r)).collect(),
                attrs: self.attrs(&l.attrs),
                body: self.expr(&l.body),
            })),
            ExprKind::IfThenElse { cond, then, els } => ExprKind::IfThenElse {
                cond: Box::new(self.expr(cond)),
                then: Box::new(self.expr(then)),
                els: Box::new(self.expr(els)),
            },
            ExprKind::Quant(_) => {
                self.refuse(e.span, "lambda expressions in type erasure");
                return e.clone();
            }
            ExprKind::Is { .. } | ExprKind::Field { .. } | ExprKind::FieldUpdate(_) => {
                self.refuse(e.span, "datatypes in type erasure");
                return e.clone();
            }
            ExprKind::Code(_) => {
                self.refuse(e.span, "code expressions in type erasure");
                return e.clone();
            }
            _ => return e.clone(),
        };
        Expr { kind, span: e.span, id: e.id }
    }

    fn attrs(&mut self, attrs: &[Attribute]) -> Box<[Attribute]> {
        attrs
            .iter()
            .map(|a| Attribute {
                key: a.key,
                params: a
                    .params
                    .iter()
                    .map(|p| match p {
                        AttrParam::Expr(e) if e.id.0 != NodeId::NONE.0 => AttrParam::Expr(self.expr(e)),
                        other => other.clone(),
                    })
                    .collect(),
                span: a.span,
            })
            .collect()
    }

    /// The type arguments of polymorphic function call `e`.
    fn call_instantiation(&mut self, e: &Expr, f: crate::typeck::FunctionId) -> Vec<Type> {
        let info = self.typed.symbols().function(f);
        if info.type_params.is_empty() {
            return Vec::new();
        }
        if let Some(inst) = self.typed.typing.instantiations.get(&e.id.0)
            && inst.len() == info.type_params.len()
        {
            return inst.clone();
        }
        let ExprKind::Call { args, .. } = &e.kind else { unreachable!("a call") };
        let mut found = FxHashMap::default();
        for (p, a) in info.param_types.iter().zip(args.iter()) {
            match_type(&canon(p, &FxHashMap::default(), 0), &self.canon_of(a), &info.type_params, &mut found);
        }
        match_type(&canon(&info.result, &FxHashMap::default(), 0), &self.canon_of(e), &info.type_params, &mut found);
        self.found(&info.type_params.clone(), &found, e.span)
    }

    fn canon_of(&self, e: &Expr) -> Type {
        canon(self.typed.type_of(e.id), &FxHashMap::default(), 0)
    }

    fn found(&mut self, params: &[TypeVarId], found: &FxHashMap<TypeVarId, Type>, span: Span) -> Vec<Type> {
        params
            .iter()
            .map(|p| match found.get(p) {
                Some(t) => t.clone(),
                None => {
                    self.refuse(span, "an instantiation type erasure cannot infer");
                    Type::Int
                }
            })
            .collect()
    }

    /// The instantiation of the binders of `map_type` at a selection or store.
    fn map_instantiation(&mut self, e: &Expr, map_type: &Type, indexes: &[Expr], value: Option<&Expr>) -> Vec<Type> {
        let Type::Map(m) = canon(map_type, &FxHashMap::default(), 0) else {
            self.refuse(e.span, "a selection from a non-map in type erasure");
            return Vec::new();
        };
        if m.type_params.is_empty() {
            return Vec::new();
        }
        if let Some(inst) = self.typed.typing.instantiations.get(&e.id.0)
            && inst.len() == m.type_params.len()
        {
            return inst.clone();
        }
        let mut found = FxHashMap::default();
        for (p, i) in m.args.iter().zip(indexes) {
            match_type(p, &self.canon_of(i), &m.type_params, &mut found);
        }
        let result = value.unwrap_or(e);
        match_type(&m.result, &self.canon_of(result), &m.type_params, &mut found);
        self.found(&m.type_params, &found, e.span)
    }

    fn map_args(&mut self, map_type: &Type, inst: &[Type], span: Span) -> (usize, Vec<Expr>, Vec<Expr>) {
        let (k, holes) = self.shape(map_type);
        let holes: Vec<Expr> = holes.iter().map(|h| self.type_term(h, span)).collect();
        let inst: Vec<Expr> = inst.iter().map(|t| self.type_term(t, span)).collect();
        (k, holes, inst)
    }

    /// `$selectK(holes, m, inst, indexes)`, a `$U`.
    fn select(&mut self, map_type: &Type, inst: &[Type], m: Expr, indexes: Vec<Expr>, span: Span) -> Expr {
        let (k, mut args, inst) = self.map_args(map_type, inst, span);
        args.push(m);
        args.extend(inst);
        args.extend(indexes);
        self.call(self.shapes[k].select, args)
    }

    /// `$storeK(holes, m, inst, indexes, value)`, a `$U`.
    fn store(&mut self, map_type: &Type, inst: &[Type], m: Expr, indexes: Vec<Expr>, value: Expr, span: Span) -> Expr {
        let (k, mut args, inst) = self.map_args(map_type, inst, span);
        args.push(m);
        args.extend(inst);
        args.extend(indexes);
        args.push(value);
        self.call(self.shapes[k].store, args)
    }

    /// `forall<a> x: T :: body` as `forall x: $U :: $typeof(x) == t(T) ==> body`, its type
    /// parameters taken from its variables' types where they can be.
    fn quantifier_expr(&mut self, q: &Quantifier, e: &Expr) -> Expr {
        let typed = self.typed;
        let scope_len = self.scope.len();
        let mut bound: Vec<(Ident, Type)> = Vec::new();
        // The type of each bound name in order (`None`: not resolved, refused).
        let mut bound_types: Vec<Option<Type>> = Vec::new();
        for g in q.vars.iter() {
            for n in g.names.iter() {
                match typed.referent(n) {
                    Some(Ref::Var(v)) => {
                        let t = typed.symbols().var(v).ty.clone();
                        bound_types.push(Some(t.clone()));
                        bound.push((*n, t));
                    }
                    _ => {
                        bound_types.push(None);
                        self.refuse(n.span, "a bound variable type erasure cannot resolve");
                    }
                }
            }
        }
        let mut extra: Vec<VarGroup> = Vec::new();
        let mut trivial: FxHashSet<usize> = FxHashSet::default();
        for p in q.type_params.iter() {
            let Some(Ref::TypeVar(v)) = typed.referent(p) else {
                self.refuse(p.span, "a type parameter type erasure cannot resolve");
                continue;
            };
            let mut term = None;
            for (i, (name, t)) in bound.iter().enumerate() {
                if rep(t) != Rep::U {
                    continue;
                }
                let base = self.type_of_expr(self.var(name.name));
                if let Some(x) = self.extract(t, v, base) {
                    if matches!(t.expanded(), Type::Var(w) if *w == v) {
                        trivial.insert(i);
                    }
                    term = Some(x);
                    break;
                }
            }
            let term = term.unwrap_or_else(|| {
                let name = Symbol::intern(&format!("$tv.{}", p.name));
                extra.push(self.binder(name, self.t_type()));
                self.var(name)
            });
            self.scope.push((v, term));
        }
        let mut premises = Vec::new();
        for (i, (name, t)) in bound.iter().enumerate() {
            if rep(t) == Rep::U && !trivial.contains(&i) {
                let actual = self.type_of_expr(self.var(name.name));
                let expected = self.type_term(t, name.span);
                premises.push(self.eq(actual, expected));
            }
        }
        let mut types = bound_types.into_iter();
        let mut vars: Vec<VarGroup> = Vec::new();
        for g in q.vars.iter() {
            for n in g.names.iter() {
                let ty = types.next().flatten().map_or_else(|| self.u_type(), |t| self.erased_type(&t));
                vars.push(VarGroup {
                    attrs: g.attrs.clone(),
                    names: Box::new([*n]),
                    ty,
                    where_clause: None,
                    span: g.span,
                });
            }
        }
        vars.extend(extra);
        let triggers: Box<[Trigger]> = q
            .triggers
            .iter()
            .map(|t| Trigger {
                positive: t.positive,
                exprs: t.exprs.iter().map(|x| self.expr(x)).collect(),
                span: t.span,
            })
            .collect();
        let attrs = self.attrs(&q.attrs);
        let body = self.expr(&q.body);
        self.scope.truncate(scope_len);
        let mut triggers = triggers.into_vec();
        if self.arguments && !triggers.iter().any(|t| t.positive) {
            triggers.extend(self.argument_patterns(&vars, &body, &premises));
        }
        let triggers: Box<[Trigger]> = triggers.into();
        let body = match premises.into_iter().reduce(|a, b| self.and(a, b)) {
            None => body,
            Some(p) if q.kind == QuantKind::Forall => self.binary(BinaryOp::Imp, p, body),
            Some(p) => self.and(p, body),
        };
        let quant = Quantifier { kind: q.kind, type_params: Box::new([]), vars: vars.into(), attrs, triggers, body };
        Expr { kind: ExprKind::Quant(Box::new(quant)), span: e.span, id: e.id }
    }

    /// Under `/typeEncoding:a`, the patterns z3 may infer for a quantifier without triggers
    /// (bound `vars`, erased `body`, typing `premises`) made those Boogie's arguments encoding
    /// gives it. Its VC has no typing terms: a type parameter is a bound `$T` variable, a value
    /// carries no type, so z3 draws patterns only from the program's own applications. Here
    /// the premises and the type parameters read off `$typeof` are typing terms: they become
    /// `:no-pattern`s, and where Boogie's z3 would find no pattern at all (a variable only
    /// under `==`, say), which leaves the quantifier uninstantiated since `smt.mbqi` is off,
    /// a trigger no term matches does the same, as z3 ignores `:no-pattern`s that leave no
    /// pattern. Patterns are hints, so either way the formula means the same.
    fn argument_patterns(&mut self, vars: &[VarGroup], body: &Expr, premises: &[Expr]) -> Vec<Trigger> {
        let bound: FxHashSet<Symbol> = vars.iter().flat_map(|g| g.names.iter().map(|n| n.name)).collect();
        let inverses: FxHashSet<Symbol> = self.con_infos.iter().flat_map(|c| c.inverses.iter().copied()).collect();
        let mut scan = PatternScan {
            bound: &bound,
            type_of: self.type_of,
            inverses: &inverses,
            used: FxHashSet::default(),
            covered: FxHashSet::default(),
            typing: Vec::new(),
        };
        scan.vars(body);
        for p in premises {
            scan.premise_terms(p);
        }
        if scan.typing.is_empty() {
            return Vec::new();
        }
        if scan.used.iter().all(|v| scan.covered.contains(v)) {
            return scan
                .typing
                .iter()
                .map(|(_, t)| Trigger { positive: false, exprs: Box::new([t.clone()]), span: self.span })
                .collect();
        }
        let sorts: Vec<ast::Type> = vars.iter().flat_map(|g| g.names.iter().map(|_| g.ty.clone())).collect();
        let key = sorts.iter().map(crate::printer::print_type).collect::<Vec<_>>().join(",");
        let never = match self.never.get(&key) {
            Some(f) => *f,
            None => {
                let f = self.fresh_name("$never");
                self.never.insert(key, f);
                let decl = self.function_decl(f, sorts, self.native_type(&Type::Bool));
                self.decls_out.push(decl);
                f
            }
        };
        let args = vars.iter().flat_map(|g| g.names.iter().map(|n| self.var(n.name))).collect();
        vec![Trigger { positive: true, exprs: Box::new([self.call(never, args)]), span: self.span }]
    }

    /// A term for type variable `v` read off `base`, the type term of a value of type `t`.
    fn extract(&mut self, t: &Type, v: TypeVarId, base: Expr) -> Option<Expr> {
        match t.expanded() {
            Type::Var(w) if *w == v => Some(base),
            Type::Ctor(c, args) => {
                let con = self.con(TypeCon::User(*c), args.len());
                for (i, a) in args.iter().enumerate() {
                    if mentions(a, v) {
                        let inv = self.con_infos[con].inverses[i];
                        return self.extract(a, v, self.call(inv, vec![base]));
                    }
                }
                None
            }
            Type::Map(_) => {
                let (k, holes) = self.shape(t);
                let con = self.con(TypeCon::Map(k), holes.len());
                for (i, h) in holes.iter().enumerate() {
                    if mentions(h, v) {
                        let inv = self.con_infos[con].inverses[i];
                        return self.extract(h, v, self.call(inv, vec![base]));
                    }
                }
                None
            }
            _ => None,
        }
    }

    fn binary(&self, op: BinaryOp, lhs: Expr, rhs: Expr) -> Expr {
        Expr {
            kind: ExprKind::Binary { op, lhs: Box::new(lhs), rhs: Box::new(rhs) },
            span: self.span,
            id: NodeId::NONE,
        }
    }

    fn eq(&self, lhs: Expr, rhs: Expr) -> Expr {
        self.binary(BinaryOp::Eq, lhs, rhs)
    }

    fn and(&self, lhs: Expr, rhs: Expr) -> Expr {
        self.binary(BinaryOp::And, lhs, rhs)
    }

    // --- declarations

    fn program(&mut self) -> Vec<Decl> {
        let typed = self.typed;
        let mut decls = Vec::new();
        for d in &typed.program.decls {
            match d {
                Decl::Type(_) => decls.push(d.clone()),
                Decl::Const(c) => decls.push(self.constant(c)),
                Decl::Function(f) => decls.push(self.function(f)),
                Decl::Axiom(a) => {
                    let expr = self.expr(&a.expr);
                    decls.push(Decl::Axiom(Box::new(AxiomDecl {
                        hideable: a.hideable,
                        attrs: self.attrs(&a.attrs),
                        expr,
                        span: a.span,
                    })));
                }
                Decl::Var(v) => {
                    let groups = self.var_groups(&v.groups);
                    decls.push(Decl::Var(Box::new(GlobalVarDecl { attrs: v.attrs.clone(), groups, span: v.span })));
                }
                Decl::Procedure(p) => decls.push(self.procedure(p)),
                Decl::Implementation(i) => decls.push(self.implementation(i)),
                other => decls.push(other.clone()),
            }
        }
        self.prelude(&mut decls);
        decls.append(&mut self.decls_out);
        decls
    }

    fn axioms(&mut self, axioms: &[AxiomDecl]) -> Box<[AxiomDecl]> {
        axioms
            .iter()
            .map(|a| AxiomDecl {
                hideable: a.hideable,
                attrs: self.attrs(&a.attrs),
                expr: self.expr(&a.expr),
                span: a.span,
            })
            .collect()
    }

    fn constant(&mut self, c: &ConstDecl) -> Decl {
        let typed = self.typed;
        let ty = match c.names.first().and_then(|n| typed.referent(n)) {
            Some(Ref::Var(v)) => typed.symbols().var(v).ty.clone(),
            _ => Type::Int,
        };
        if rep(&ty) == Rep::U {
            for n in c.names.iter() {
                let actual = self.type_of_expr(self.var(n.name));
                let expected = self.type_term(&ty, n.span);
                let fact = self.eq(actual, expected);
                self.axiom(fact);
            }
        }
        let uses = c.uses.as_ref().map(|axioms| self.axioms(axioms));
        Decl::Const(Box::new(ConstDecl {
            attrs: c.attrs.clone(),
            unique: c.unique,
            names: c.names.clone(),
            ty: self.erased_type(&ty),
            order: c.order.clone(),
            uses,
            span: c.span,
        }))
    }

    /// `$T` parameters for type parameters `params` (declared as `written`), in scope from now.
    fn type_params(&mut self, written: &[Ident], params: &[TypeVarId]) -> Vec<(Symbol, ast::Type)> {
        let mut out = Vec::new();
        for (w, v) in written.iter().zip(params) {
            let name = Symbol::intern(&format!("$tv.{}", w.name));
            out.push((name, self.t_type()));
            let term = self.var(name);
            self.scope.push((*v, term));
        }
        out
    }

    fn function(&mut self, f: &FunctionDecl) -> Decl {
        let typed = self.typed;
        let Some(Ref::Function(id)) = typed.referent(&f.name) else {
            return Decl::Function(Box::new(f.clone()));
        };
        let info = typed.symbols().function(id).clone();
        let changed = !info.type_params.is_empty()
            || info.param_types.iter().any(|t| rep(t) == Rep::U)
            || rep(&info.result) == Rep::U;
        if changed && f.attrs.iter().any(|a| matches!(a.key.as_str(), "builtin" | "bvbuiltin")) {
            self.refuse(f.name.span, "a built-in function over erased types");
        }
        let scope_len = self.scope.len();
        let tparams = self.type_params(&f.type_params, &info.type_params);
        let mut params: Vec<FnParam> = tparams
            .iter()
            .map(|(name, ty)| FnParam {
                attrs: Box::new([]),
                name: Some(Ident::at(*name, f.span)),
                ty: ty.clone(),
                span: f.span,
            })
            .collect();
        for (p, t) in f.params.iter().zip(&info.param_types) {
            params.push(FnParam { attrs: p.attrs.clone(), name: p.name, ty: self.erased_type(t), span: p.span });
        }
        let result = FnParam {
            attrs: f.result.attrs.clone(),
            name: f.result.name,
            ty: self.erased_type(&info.result),
            span: f.result.span,
        };
        let inline = find_bool_attribute(&f.attrs, "inline");
        let mut body = None;
        if let Some(b) = &f.body {
            let erased = self.expr_as(b, rep(&info.result));
            if inline || !changed {
                body = Some(erased);
            } else {
                // The definition axiom, guarded by the parameters' types.
                let mut vars = Vec::new();
                let mut args = Vec::new();
                let mut premises = Vec::new();
                for (name, ty) in &tparams {
                    vars.push(self.binder(*name, ty.clone()));
                    args.push(self.var(*name));
                }
                for (p, t) in f.params.iter().zip(&info.param_types) {
                    let name = p.name.map_or_else(|| Symbol::intern("$unnamed"), |n| n.name);
                    vars.push(self.binder(name, self.erased_type(t)));
                    args.push(self.var(name));
                    if rep(t) == Rep::U {
                        let actual = self.type_of_expr(self.var(name));
                        let expected = self.type_term(t, p.span);
                        premises.push(self.eq(actual, expected));
                    }
                }
                let app = self.call(f.name.name, args);
                let definition = self.eq(app.clone(), erased);
                let body = match premises.into_iter().reduce(|a, b| self.and(a, b)) {
                    Some(p) => self.binary(BinaryOp::Imp, p, definition),
                    None => definition,
                };
                let axiom =
                    if vars.is_empty() { body } else { self.quantifier(QuantKind::Forall, vars, vec![app], body) };
                self.axiom(axiom);
            }
        }
        if rep(&info.result) == Rep::U && !inline {
            // The result's type (not for an `{:inline}` function: its body is its meaning).
            let mut vars = Vec::new();
            let mut args = Vec::new();
            for (name, ty) in &tparams {
                vars.push(self.binder(*name, ty.clone()));
                args.push(self.var(*name));
            }
            for (i, t) in info.param_types.iter().enumerate() {
                let name = Symbol::intern(&format!("$x{i}"));
                vars.push(self.binder(name, self.erased_type(t)));
                args.push(self.var(name));
            }
            let app = self.call(f.name.name, args);
            let expected = self.type_term(&info.result, f.name.span);
            let fact = self.eq(self.type_of_expr(app.clone()), expected);
            let axiom = if vars.is_empty() { fact } else { self.quantifier(QuantKind::Forall, vars, vec![app], fact) };
            self.axiom(axiom);
        }
        let uses = f.uses.as_ref().map(|axioms| self.axioms(axioms));
        self.scope.truncate(scope_len);
        Decl::Function(Box::new(FunctionDecl {
            revealed: f.revealed,
            attrs: f.attrs.clone(),
            name: f.name,
            type_params: Box::new([]),
            params: params.into(),
            result,
            returns_form: f.returns_form,
            body,
            uses,
            span: f.span,
        }))
    }

    /// Variable groups with erased types; each `$U` variable's where clause says its type.
    fn var_groups(&mut self, groups: &[VarGroup]) -> Box<[VarGroup]> {
        let typed = self.typed;
        groups
            .iter()
            .map(|g| {
                let ty = match g.names.first().and_then(|n| typed.referent(n)) {
                    Some(Ref::Var(v)) => typed.symbols().var(v).ty.clone(),
                    _ => Type::Int,
                };
                let mut clause = g.where_clause.as_ref().map(|w| self.expr(w));
                if rep(&ty) == Rep::U {
                    for n in g.names.iter() {
                        let actual = self.type_of_expr(self.var(n.name));
                        let expected = self.type_term(&ty, n.span);
                        let fact = self.eq(actual, expected);
                        clause = Some(match clause {
                            Some(c) => self.and(fact, c),
                            None => fact,
                        });
                    }
                }
                VarGroup {
                    attrs: self.attrs(&g.attrs),
                    names: g.names.clone(),
                    ty: self.erased_type(&ty),
                    where_clause: clause.map(Box::new),
                    span: g.span,
                }
            })
            .collect()
    }

    fn with_type_params(&self, params: Vec<(Symbol, ast::Type)>, groups: Box<[VarGroup]>) -> Box<[VarGroup]> {
        params.into_iter().map(|(name, ty)| self.binder(name, ty)).chain(groups.into_vec()).collect()
    }

    fn procedure(&mut self, p: &ast::ProcedureDecl) -> Decl {
        let typed = self.typed;
        let scope_len = self.scope.len();
        let params = match typed.referent(&p.name) {
            Some(Ref::Procedure(id)) => {
                let vars = typed.symbols().procedure(id).type_params.clone();
                self.type_params(&p.type_params, &vars)
            }
            _ => Vec::new(),
        };
        let ins = self.var_groups(&p.ins);
        let ins = self.with_type_params(params, ins);
        let outs = self.var_groups(&p.outs);
        let specs = p
            .specs
            .iter()
            .map(|s| match s {
                Spec::Requires { free, attrs, expr, span } => {
                    Spec::Requires { free: *free, attrs: self.attrs(attrs), expr: self.expr(expr), span: *span }
                }
                Spec::Ensures { free, attrs, expr, span } => {
                    Spec::Ensures { free: *free, attrs: self.attrs(attrs), expr: self.expr(expr), span: *span }
                }
                other => other.clone(),
            })
            .collect();
        let body = p.body.as_ref().map(|b| self.body(b));
        self.scope.truncate(scope_len);
        Decl::Procedure(Box::new(ast::ProcedureDecl {
            pure: p.pure,
            attrs: p.attrs.clone(),
            name: p.name,
            type_params: Box::new([]),
            ins,
            outs,
            specs,
            body,
            span: p.span,
        }))
    }

    fn implementation(&mut self, i: &ast::ImplementationDecl) -> Decl {
        let typed = self.typed;
        let scope_len = self.scope.len();
        let info = typed.symbols().implementations.iter().find(|info| info.name.same_node(&i.name));
        let params = match info {
            Some(info) => {
                let vars = info.type_params.clone();
                self.type_params(&i.type_params, &vars)
            }
            None => Vec::new(),
        };
        let ins = self.var_groups(&i.ins);
        let ins = self.with_type_params(params, ins);
        let outs = self.var_groups(&i.outs);
        let body = self.body(&i.body);
        self.scope.truncate(scope_len);
        Decl::Implementation(Box::new(ast::ImplementationDecl {
            attrs: i.attrs.clone(),
            name: i.name,
            type_params: Box::new([]),
            ins,
            outs,
            body,
            span: i.span,
        }))
    }

    fn body(&mut self, b: &Body) -> Body {
        let saved = std::mem::take(&mut self.temps);
        let mut locals: Vec<LocalVars> = b
            .locals
            .iter()
            .map(|l| LocalVars { attrs: l.attrs.clone(), groups: self.var_groups(&l.groups), span: l.span })
            .collect();
        let stmts = rewrite::stmt_list(self, &b.stmts);
        let temps = std::mem::replace(&mut self.temps, saved);
        if !temps.is_empty() {
            let groups = temps.iter().map(|(name, t)| self.binder(*name, self.erased_type(t))).collect();
            locals.push(LocalVars { attrs: Box::new([]), groups, span: b.span });
        }
        Body { locals: locals.into(), stmts, span: b.span }
    }

    // --- commands

    fn call_cmd(&mut self, call: &CallCmd, span: Span) -> Vec<Cmd> {
        let typed = self.typed;
        let Some(Ref::Procedure(p)) = typed.referent(&call.callee) else {
            return vec![Cmd { kind: CmdKind::Call(Box::new(rewrite::call_cmd(self, call))), span }];
        };
        let info = typed.symbols().procedure(p).clone();
        let formal = |v: VarId| typed.symbols().var(v).ty.clone();
        let mut found = FxHashMap::default();
        for (v, a) in info.ins.iter().zip(call.args.iter()) {
            match_type(&canon(&formal(*v), &FxHashMap::default(), 0), &self.canon_of(a), &info.type_params, &mut found);
        }
        let mut actual_out_types = Vec::new();
        for (v, o) in info.outs.iter().zip(call.outs.iter()) {
            let actual = match typed.referent(o) {
                Some(Ref::Var(w)) => typed.symbols().var(w).ty.clone(),
                _ => formal(*v),
            };
            match_type(
                &canon(&formal(*v), &FxHashMap::default(), 0),
                &canon(&actual, &FxHashMap::default(), 0),
                &info.type_params,
                &mut found,
            );
            actual_out_types.push(actual);
        }
        let inst = self.found(&info.type_params, &found, call.span);
        let mut args: Vec<Expr> = inst.iter().map(|t| self.type_term(t, call.span)).collect();
        for (v, a) in info.ins.iter().zip(call.args.iter()) {
            let arg = self.expr_as(a, rep(&formal(*v)));
            args.push(arg);
        }
        let mut outs = Vec::new();
        let mut after = Vec::new();
        for ((v, o), actual) in info.outs.iter().zip(call.outs.iter()).zip(&actual_out_types) {
            if rep(&formal(*v)) == rep(actual) {
                outs.push(*o);
                continue;
            }
            let temp = self.fresh_name("$out");
            self.temps.push((temp, formal(*v)));
            outs.push(Ident::at(temp, o.span));
            let value = self.coerce(self.var(temp), actual, Rep::U, Rep::Native);
            after.push(Cmd {
                kind: CmdKind::Assign {
                    lhss: Box::new([AssignLhs::Var(*o)]),
                    attrs: Box::new([]),
                    rhss: Box::new([value]),
                },
                span,
            });
        }
        let new = CallCmd {
            is_async: call.is_async,
            is_free: call.is_free,
            attrs: self.attrs(&call.attrs),
            outs: outs.into(),
            callee: call.callee,
            args: args.into(),
            span: call.span,
        };
        let mut cmds = vec![Cmd { kind: CmdKind::Call(Box::new(new)), span }];
        cmds.extend(after);
        cmds
    }

    /// The current value of assignment target `l` (erased, in its type's representation)
    /// and its type.
    fn lhs_value(&mut self, l: &AssignLhs) -> (Expr, Type) {
        match l {
            AssignLhs::Var(x) => {
                let ty = match self.typed.referent(x) {
                    Some(Ref::Var(v)) => self.typed.symbols().var(v).ty.clone(),
                    _ => Type::Int,
                };
                (self.var(x.name), ty)
            }
            AssignLhs::Select { base, indexes, span } => {
                let (m, map_type) = self.lhs_value(base);
                let (m, result) = self.lhs_select(&map_type, m, indexes, *span);
                (m, result)
            }
            AssignLhs::Field { span, .. } => {
                self.refuse(*span, "datatypes in type erasure");
                (self.var(Symbol::intern("$field")), Type::Int)
            }
        }
    }

    /// The instantiation and result type of `map_type` selected at `indexes`.
    fn lhs_instantiation(
        &mut self,
        map_type: &Type,
        indexes: &[Expr],
        value: Option<&Type>,
        span: Span,
    ) -> (Vec<Type>, Type) {
        let Type::Map(m) = canon(map_type, &FxHashMap::default(), 0) else {
            self.refuse(span, "a map assignment to a non-map in type erasure");
            return (Vec::new(), Type::Int);
        };
        let mut found = FxHashMap::default();
        for (p, i) in m.args.iter().zip(indexes) {
            match_type(p, &self.canon_of(i), &m.type_params, &mut found);
        }
        if let Some(v) = value {
            match_type(&m.result, &canon(v, &FxHashMap::default(), 0), &m.type_params, &mut found);
        }
        let inst = self.found(&m.type_params, &found, span);
        let subst: FxHashMap<TypeVarId, Type> = m.type_params.iter().copied().zip(inst.iter().cloned()).collect();
        let result = canon(&m.result, &subst, 0);
        (inst, result)
    }

    fn lhs_select(&mut self, map_type: &Type, m: Expr, indexes: &[Expr], span: Span) -> (Expr, Type) {
        let (inst, result) = self.lhs_instantiation(map_type, indexes, None, span);
        let indexes: Vec<Expr> = indexes.iter().map(|i| self.expr_as(i, Rep::U)).collect();
        let selected = self.select(map_type, &inst, m, indexes, span);
        let value = self.coerce(selected, &result, Rep::U, rep(&result));
        (value, result)
    }

    /// `l := value` as an assignment to `l`'s variable: the variable and its new value.
    fn assign_target(&mut self, l: &AssignLhs, value: Expr, value_type: Option<&Type>) -> (Ident, Expr) {
        match l {
            AssignLhs::Var(x) => (*x, value),
            AssignLhs::Select { base, indexes, span } => {
                let (m, map_type) = self.lhs_value(base);
                let (inst, result) = self.lhs_instantiation(&map_type, indexes, value_type, *span);
                let indexes: Vec<Expr> = indexes.iter().map(|i| self.expr_as(i, Rep::U)).collect();
                let value = self.coerce(value, &result, rep(&result), Rep::U);
                let stored = self.store(&map_type, &inst, m, indexes, value, *span);
                self.assign_target(base, stored, None)
            }
            AssignLhs::Field { base, span, .. } => {
                self.refuse(*span, "datatypes in type erasure");
                self.assign_target(base, value, None)
            }
        }
    }

    fn assign(&mut self, lhss: &[AssignLhs], attrs: &[Attribute], rhss: &[Expr], span: Span) -> Cmd {
        let typed = self.typed;
        let mut targets = Vec::new();
        let mut values = Vec::new();
        for (l, r) in lhss.iter().zip(rhss) {
            let value_type = typed.type_of(r.id).clone();
            let target_type = self.lhs_type(l, Some(&value_type));
            let value = self.expr_as(r, rep(&target_type));
            let (x, value) = self.assign_target(l, value, Some(&value_type));
            targets.push(AssignLhs::Var(x));
            values.push(value);
        }
        Cmd { kind: CmdKind::Assign { lhss: targets.into(), attrs: self.attrs(attrs), rhss: values.into() }, span }
    }

    /// The type of assignment target `l`.
    fn lhs_type(&mut self, l: &AssignLhs, value_type: Option<&Type>) -> Type {
        match l {
            AssignLhs::Var(x) => match self.typed.referent(x) {
                Some(Ref::Var(v)) => self.typed.symbols().var(v).ty.clone(),
                _ => Type::Int,
            },
            AssignLhs::Select { base, indexes, span } => {
                let map_type = self.lhs_type(base, None);
                self.lhs_instantiation(&map_type, indexes, value_type, *span).1
            }
            AssignLhs::Field { span, .. } => {
                self.refuse(*span, "datatypes in type erasure");
                Type::Int
            }
        }
    }

    // --- the declarations erasure needs

    fn prelude(&mut self, decls: &mut Vec<Decl>) {
        // Build every shape's axioms first: they may name more constructors and natives.
        let mut axioms = Vec::new();
        let mut k = 0;
        while k < self.shapes.len() {
            axioms.extend(self.shape_axioms(k));
            k += 1;
        }
        let mut out = Vec::new();
        for name in [self.t, self.u] {
            let span = self.span;
            out.push(Decl::Type(Box::new(ast::TypeDecl {
                attrs: Box::new([]),
                name: Ident::at(name, span),
                params: Box::new([]),
                synonym: None,
                span,
            })));
        }
        out.push(self.function_decl(self.type_of, vec![self.u_type()], self.t_type()));
        out.push(self.function_decl(self.tag, vec![self.t_type()], self.native_type(&Type::Int)));
        // Natives: box and unbox.
        let natives = self.native_order.clone();
        for t in &natives {
            let (boxer, unboxer) = {
                let n = &self.natives[t];
                (n.boxer, n.unboxer)
            };
            out.push(self.function_decl(boxer, vec![self.native_type(t)], self.u_type()));
            out.push(self.function_decl(unboxer, vec![self.u_type()], self.native_type(t)));
            let x = Symbol::intern("x");
            let boxed = self.call(boxer, vec![self.var(x)]);
            let unboxed = self.call(unboxer, vec![boxed.clone()]);
            let roundtrip = self.eq(unboxed, self.var(x));
            let term = self.type_term(t, self.span);
            let typing = self.eq(self.type_of_expr(boxed.clone()), term);
            let body = self.and(roundtrip, typing);
            let vars = vec![self.binder(x, self.native_type(t))];
            axioms.push(self.quantifier(QuantKind::Forall, vars, vec![boxed], body));
            let u = Symbol::intern("u");
            let unboxed = self.call(unboxer, vec![self.var(u)]);
            let term = self.type_term(t, self.span);
            let premise = self.eq(self.type_of_expr(self.var(u)), term);
            let back = self.eq(self.call(boxer, vec![unboxed.clone()]), self.var(u));
            let body = self.binary(BinaryOp::Imp, premise, back);
            let vars = vec![self.binder(u, self.u_type())];
            axioms.push(self.quantifier(QuantKind::Forall, vars, vec![unboxed], body));
        }
        // Type constructors: tags and inverses.
        for i in 0..self.con_infos.len() {
            let (name, arity, inverses) = {
                let c = &self.con_infos[i];
                (c.name, c.arity, c.inverses.clone())
            };
            let span = self.span;
            if arity == 0 {
                out.push(Decl::Const(Box::new(ConstDecl {
                    attrs: Box::new([]),
                    unique: false,
                    names: Box::new([Ident::at(name, span)]),
                    ty: self.t_type(),
                    order: None,
                    uses: None,
                    span,
                })));
                let tag = self.call(self.tag, vec![self.var(name)]);
                axioms.push(self.eq(tag, int_lit(i, self.span)));
                continue;
            }
            out.push(self.function_decl(name, vec![self.t_type(); arity], self.t_type()));
            for inv in &inverses {
                out.push(self.function_decl(*inv, vec![self.t_type()], self.t_type()));
            }
            let names: Vec<Symbol> = (0..arity).map(|j| Symbol::intern(&format!("t{j}"))).collect();
            let app = self.call(name, names.iter().map(|n| self.var(*n)).collect());
            let mut body = self.eq(self.call(self.tag, vec![app.clone()]), int_lit(i, self.span));
            for (j, inv) in inverses.iter().enumerate() {
                let back = self.eq(self.call(*inv, vec![app.clone()]), self.var(names[j]));
                body = self.and(body, back);
            }
            let vars = names.iter().map(|n| self.binder(*n, self.t_type())).collect();
            axioms.push(self.quantifier(QuantKind::Forall, vars, vec![app], body));
        }
        // Shapes: select and store.
        for k in 0..self.shapes.len() {
            let shape = &self.shapes[k];
            let (holes, binders, arity) = (shape.holes, shape.ty.type_params.len(), shape.ty.args.len());
            let (select, store) = (shape.select, shape.store);
            let mut params = vec![self.t_type(); holes];
            params.push(self.u_type());
            params.extend(vec![self.t_type(); binders]);
            params.extend((0..arity).map(|_| self.u_type()));
            out.push(self.function_decl(select, params.clone(), self.u_type()));
            params.push(self.u_type());
            out.push(self.function_decl(store, params, self.u_type()));
        }
        for a in axioms {
            let span = self.span;
            out.push(Decl::Axiom(Box::new(AxiomDecl { hideable: false, attrs: Box::new([]), expr: a, span })));
        }
        decls.append(&mut out);
    }

    /// The select-of-store axioms of shape `k` and the typing of its selections and stores.
    fn shape_axioms(&mut self, k: usize) -> Vec<Expr> {
        let (ty, holes, select, store) = {
            let s = &self.shapes[k];
            (s.ty.clone(), s.holes, s.select, s.store)
        };
        let names = |prefix: &str, n: usize| -> Vec<Symbol> {
            (0..n).map(|i| Symbol::intern(&format!("{prefix}{i}"))).collect()
        };
        let (h, b, x, c, y) = (
            names("h", holes),
            names("b", ty.type_params.len()),
            names("x", ty.args.len()),
            names("c", ty.type_params.len()),
            names("y", ty.args.len()),
        );
        let (m, v) = (Symbol::intern("m"), Symbol::intern("v"));
        let vars_of = |this: &Self, list: &[(&[Symbol], bool)]| -> Vec<VarGroup> {
            list.iter()
                .flat_map(|(ns, is_t)| {
                    ns.iter().map(move |n| this.binder(*n, if *is_t { this.t_type() } else { this.u_type() }))
                })
                .collect()
        };
        // The variables of a store: holes, map, binders, indexes, value.
        let store_vars = |this: &Self| -> Vec<VarGroup> {
            vars_of(
                this,
                &[
                    (&h, true),
                    (std::slice::from_ref(&m), false),
                    (&b, true),
                    (&x, false),
                    (std::slice::from_ref(&v), false),
                ],
            )
        };
        let vs = |this: &Self, ns: &[Symbol]| -> Vec<Expr> { ns.iter().map(|n| this.var(*n)).collect() };
        let sel = |this: &Self, map: Expr, bs: &[Symbol], xs: &[Symbol]| -> Expr {
            let mut args = vs(this, &h);
            args.push(map);
            args.extend(vs(this, bs));
            args.extend(vs(this, xs));
            this.call(select, args)
        };
        let sto = |this: &Self| -> Expr {
            let mut args = vs(this, &h);
            args.push(this.var(m));
            args.extend(vs(this, &b));
            args.extend(vs(this, &x));
            args.push(this.var(v));
            this.call(store, args)
        };
        let mut axioms = Vec::new();
        // select(store(m, b, x, v), b, x) == v
        {
            let lhs = sel(self, sto(self), &b, &x);
            let body = self.eq(lhs.clone(), self.var(v));
            let vars = store_vars(self);
            axioms.push(self.quantifier(QuantKind::Forall, vars, vec![lhs], body));
        }
        // (b, x) != (c, y) ==> select(store(m, b, x, v), c, y) == select(m, c, y)
        {
            let lhs = sel(self, sto(self), &c, &y);
            let mut differ: Option<Expr> = None;
            for (p, q) in b.iter().zip(&c).chain(x.iter().zip(&y)) {
                let ne = self.binary(BinaryOp::Neq, self.var(*p), self.var(*q));
                differ = Some(match differ {
                    Some(d) => self.binary(BinaryOp::Or, d, ne),
                    None => ne,
                });
            }
            let same = self.eq(lhs.clone(), sel(self, self.var(m), &c, &y));
            // A map without indexes or binders has a single entry: no such axiom.
            if let Some(d) = differ {
                let body = self.binary(BinaryOp::Imp, d, same);
                let mut vars = store_vars(self);
                vars.extend(vars_of(self, &[(&c, true), (&y, false)]));
                axioms.push(self.quantifier(QuantKind::Forall, vars, vec![lhs], body));
            }
        }
        // Typing, in a scope where the holes and binders are the bound `$T` variables.
        let scope_len = self.scope.len();
        for (i, n) in h.iter().enumerate() {
            let term = self.var(*n);
            self.scope.push((TypeVarId(HOLE_BASE + i as u32), term));
        }
        for (j, n) in b.iter().enumerate() {
            let term = self.var(*n);
            self.scope.push((TypeVarId(BOUND_BASE + j as u32), term));
        }
        let holes_terms: Vec<Expr> = h.iter().map(|n| self.var(*n)).collect();
        let map_term = self.apply_con(TypeCon::Map(k), holes_terms);
        let result_term = self.type_term(&ty.result, self.span);
        self.scope.truncate(scope_len);
        // $typeof(m) == Map(h) ==> $typeof(select(m, b, x)) == result
        {
            let app = sel(self, self.var(m), &b, &x);
            let premise = self.eq(self.type_of_expr(self.var(m)), map_term.clone());
            let fact = self.eq(self.type_of_expr(app.clone()), result_term.clone());
            let body = self.binary(BinaryOp::Imp, premise, fact);
            let vars = vars_of(self, &[(&h, true), (std::slice::from_ref(&m), false), (&b, true), (&x, false)]);
            axioms.push(self.quantifier(QuantKind::Forall, vars, vec![app], body));
        }
        // $typeof(m) == Map(h) && $typeof(v) == result ==> $typeof(store(m, b, x, v)) == Map(h)
        {
            let app = sto(self);
            let p1 = self.eq(self.type_of_expr(self.var(m)), map_term.clone());
            let p2 = self.eq(self.type_of_expr(self.var(v)), result_term.clone());
            let fact = self.eq(self.type_of_expr(app.clone()), map_term.clone());
            let body = self.binary(BinaryOp::Imp, self.and(p1, p2), fact);
            let vars = store_vars(self);
            axioms.push(self.quantifier(QuantKind::Forall, vars, vec![app], body));
        }
        axioms
    }
}

impl rewrite::Rewriter for Eraser<'_> {
    fn expr(&mut self, e: &Expr) -> Option<Expr> {
        Some(Eraser::expr(self, e))
    }

    fn cmd(&mut self, c: &Cmd) -> Option<Vec<Cmd>> {
        match &c.kind {
            CmdKind::Call(call) => Some(self.call_cmd(call, c.span)),
            CmdKind::Assign { lhss, attrs, rhss } => Some(vec![self.assign(lhss, attrs, rhss, c.span)]),
            CmdKind::ParCall { .. } | CmdKind::Unpack { .. } => {
                self.refuse(c.span, "this command in type erasure");
                None
            }
            _ => None,
        }
    }
}

/// `t` with the maximal parts that mention none of `binders` (nor any binder nested inside)
/// replaced by holes, which are collected in `holes`.
/// The pattern candidates of a quantifier's erased body as Boogie's arguments encoding has
/// them: its variables are the bound ones and, for each type parameter read off a bound
/// variable, that typing term (Boogie's bound `$T` variable); candidates are applications of
/// functions other than the typing ones that mention any (z3 looks into no nested quantifier).
struct PatternScan<'s> {
    bound: &'s FxHashSet<Symbol>,
    type_of: Symbol,
    inverses: &'s FxHashSet<Symbol>,
    /// Boogie's variables the body mentions.
    used: FxHashSet<String>,
    /// Those some candidate mentions.
    covered: FxHashSet<String>,
    /// Typing terms over bound variables, by their text: what Boogie's VC has no term for.
    typing: Vec<(String, Expr)>,
}

impl PatternScan<'_> {
    /// The bound variable a typing term (`$typeof(x)` under inverses of type constructors)
    /// reads its type off.
    fn typing_base(&self, e: &Expr) -> Option<Symbol> {
        let ExprKind::Call { func, args } = &e.kind else { return None };
        let [arg] = &args[..] else { return None };
        if *func == self.type_of {
            return match &arg.kind {
                ExprKind::Var(x) => Some(x.name),
                _ => None,
            };
        }
        if self.inverses.contains(func) { self.typing_base(arg) } else { None }
    }

    fn note_typing(&mut self, e: &Expr) {
        let key = crate::printer::print_expr(e);
        if !self.typing.iter().any(|(k, _)| *k == key) {
            self.typing.push((key, e.clone()));
        }
    }

    /// Boogie's variables `e` mentions, noting candidates and typing terms on the way.
    fn vars(&mut self, e: &Expr) -> FxHashSet<String> {
        let mut out = FxHashSet::default();
        match &e.kind {
            ExprKind::Var(x) => {
                if self.bound.contains(&x.name) {
                    self.used.insert(x.name.to_string());
                    out.insert(x.name.to_string());
                }
            }
            ExprKind::Quant(_) => {}
            ExprKind::Call { args, .. } => {
                if let Some(base) = self.typing_base(e) {
                    if self.bound.contains(&base) {
                        // The term and the shorter ones inside it.
                        let mut t = e;
                        loop {
                            self.note_typing(t);
                            match &t.kind {
                                ExprKind::Call { args, .. } if !matches!(args[0].kind, ExprKind::Var(_)) => {
                                    t = &args[0]
                                }
                                _ => break,
                            }
                        }
                        let key = crate::printer::print_expr(e);
                        self.used.insert(key.clone());
                        out.insert(key);
                    }
                    return out;
                }
                for a in args.iter() {
                    out.extend(self.vars(a));
                }
                self.covered.extend(out.iter().cloned());
            }
            _ => e.for_each_child(&mut |c| {
                let inner = self.vars(c);
                out.extend(inner);
            }),
        }
        out
    }

    /// Notes the applications in premise `e` that mention a bound variable (all typing terms:
    /// Boogie's VC has no premises); whether `e` mentions one.
    fn premise_terms(&mut self, e: &Expr) -> bool {
        match &e.kind {
            ExprKind::Var(x) => self.bound.contains(&x.name),
            ExprKind::Quant(_) => false,
            _ => {
                let mut mentions = false;
                e.for_each_child(&mut |c| mentions |= self.premise_terms(c));
                if mentions && matches!(e.kind, ExprKind::Call { .. }) {
                    self.note_typing(e);
                }
                mentions
            }
        }
    }
}

fn abstract_type(t: &Type, binders: &[TypeVarId], holes: &mut Vec<Type>) -> Type {
    if !mentions_binder(t) {
        holes.push(t.clone());
        return Type::Var(TypeVarId(HOLE_BASE + holes.len() as u32 - 1));
    }
    match t {
        Type::Var(v) => match binders.iter().position(|b| b == v) {
            Some(j) => Type::Var(TypeVarId(BOUND_BASE + j as u32)),
            None => t.clone(),
        },
        Type::Ctor(c, args) => Type::Ctor(*c, args.iter().map(|a| abstract_type(a, binders, holes)).collect()),
        Type::Map(m) => Type::Map(Rc::new(MapType {
            type_params: m.type_params.clone(),
            args: m.args.iter().map(|a| abstract_type(a, binders, holes)).collect(),
            result: abstract_type(&m.result, binders, holes),
        })),
        other => other.clone(),
    }
}

/// Whether `t` mentions a map binder (after `canon`, binders have ids from `CANON_BASE`).
fn mentions_binder(t: &Type) -> bool {
    match t.expanded() {
        Type::Var(v) => v.0 >= CANON_BASE,
        Type::Ctor(_, args) => args.iter().any(mentions_binder),
        Type::Map(m) => m.args.iter().any(mentions_binder) || mentions_binder(&m.result),
        _ => false,
    }
}

fn mentions(t: &Type, v: TypeVarId) -> bool {
    match t.expanded() {
        Type::Var(w) => *w == v,
        Type::Ctor(_, args) => args.iter().any(|a| mentions(a, v)),
        Type::Map(m) => m.args.iter().any(|a| mentions(a, v)) || mentions(&m.result, v),
        _ => false,
    }
}

/// `base`, or `base$N` when that is taken; taken from now on.
fn fresh_in(taken: &mut FxHashSet<Symbol>, base: &str) -> Symbol {
    let mut name = base.to_string();
    let mut n = 0;
    while taken.contains(&Symbol::intern(&name)) {
        n += 1;
        name = format!("{base}${n}");
    }
    let s = Symbol::intern(&name);
    taken.insert(s);
    s
}

fn int_lit(n: usize, like: Span) -> Expr {
    Expr { kind: ExprKind::IntLit(Symbol::intern(&n.to_string())), span: like, id: NodeId::NONE }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::passes::tests::typed;

    /// `text` with its types erased under `encoding`, printed; `None` when the pass left it
    /// as it was.
    fn erased(text: &str, encoding: TypeEncoding) -> Option<String> {
        let program = run(&typed(text), encoding).unwrap_or_else(|e| panic!("erases: {e:?}"))?;
        let printed = crate::printer::print_program(&program, &Default::default());
        // What the pass guarantees: no polymorphism left, and a program that checks again.
        assert!(!printed.contains("<T>") && !printed.contains("forall<") && !printed.contains("]T"), "{printed}");
        let again = crate::printer::print_program(&typed(&printed).program, &Default::default());
        assert_eq!(printed, again);
        Some(printed)
    }

    fn has_lines(printed: &str, expected: &[&str]) {
        for line in expected {
            assert!(printed.lines().any(|l| l == *line), "no line {line} in\n{printed}");
        }
    }

    const IDENTITY: &str = "function Id<T>(x: T): T;\nprocedure P() { assert Id(1) == 1; assert Id(true); }\n";

    /// A type constructor, and a quantifier whose type parameter the bound variable's type gives.
    const CONSTRUCTOR: &str = "type C _;\nconst c: C int;\nfunction F<T>(x: C T): bool;\n\
        axiom (forall<T> x: C T :: F(x));\nprocedure P() { assert F(c); }\n";

    #[test]
    fn type_parameters_of_functions_become_type_arguments() {
        let printed = erased(IDENTITY, TypeEncoding::Predicates).expect("changes");
        has_lines(
            &printed,
            &[
                "function Id($tv.T: $T, x: $U) : $U;",
                "    assert $unbox.int(Id($T.int, $box.int(1))) == 1;",
                "    assert $unbox.bool(Id($T.bool, $box.bool(true)));",
                "axiom (forall $tv.T: $T, $x0: $U :: {Id($tv.T, $x0)} $typeof(Id($tv.T, $x0)) == $tv.T);",
            ],
        );
    }

    #[test]
    fn native_values_are_boxed_with_inverse_and_typing_axioms() {
        let printed = erased(IDENTITY, TypeEncoding::Predicates).expect("changes");
        has_lines(
            &printed,
            &[
                "type $T;",
                "type $U;",
                "function $typeof($U) : $T;",
                "function $box.int(int) : $U;",
                "function $unbox.int($U) : int;",
                "axiom (forall x: int :: {$box.int(x)} $unbox.int($box.int(x)) == x && $typeof($box.int(x)) == $T.int);",
                "axiom (forall u: $U :: {$unbox.int(u)} $typeof(u) == $T.int ==> $box.int($unbox.int(u)) == u);",
            ],
        );
        // Distinct tags keep the type terms apart.
        has_lines(&printed, &["axiom $tag($T.int) == 0;", "axiom $tag($T.bool) == 1;"]);
    }

    #[test]
    fn type_constructors_become_injective_type_terms() {
        let printed = erased(CONSTRUCTOR, TypeEncoding::Predicates).expect("changes");
        has_lines(
            &printed,
            &[
                "const c: $U;",
                "function $T.C($T) : $T;",
                "function $T.C.inv0($T) : $T;",
                "axiom (forall t0: $T :: {$T.C(t0)} $tag($T.C(t0)) == 1 && $T.C.inv0($T.C(t0)) == t0);",
                "axiom $typeof(c) == $T.C($T.int);",
                "    assert F($T.int, c);",
            ],
        );
        // The quantifier's type parameter is read off its bound variable's type (premisses).
        has_lines(
            &printed,
            &["axiom (forall x: $U :: $typeof(x) == $T.C($T.C.inv0($typeof(x))) ==> F($T.C.inv0($typeof(x)), x));"],
        );
    }

    #[test]
    fn the_two_encodings_differ_only_in_patterns() {
        assert_eq!(erased(IDENTITY, TypeEncoding::Predicates), erased(IDENTITY, TypeEncoding::Arguments));
        let predicates = erased(CONSTRUCTOR, TypeEncoding::Predicates).expect("changes");
        let arguments = erased(CONSTRUCTOR, TypeEncoding::Arguments).expect("changes");
        let differ: Vec<(&str, &str)> = predicates.lines().zip(arguments.lines()).filter(|(p, a)| p != a).collect();
        assert_eq!(differ.len(), 1, "{differ:?}");
        assert!(differ[0].1.contains("{:nopats $typeof(x)}"), "{}", differ[0].1);
        assert_eq!(
            differ[0].0,
            differ[0].1.replace(
                "{:nopats $T.C.inv0($typeof(x))} {:nopats $typeof(x)} {:nopats $T.C($T.C.inv0($typeof(x)))} ",
                ""
            )
        );
    }

    #[test]
    fn polymorphic_maps_become_select_and_store_functions() {
        let text = "var m: <T>[T]T;\nprocedure P() modifies m; { m[1] := 2; assert m[1] == 2; }\n";
        let printed = erased(text, TypeEncoding::Predicates).expect("changes");
        has_lines(
            &printed,
            &[
                "var m: $U where $typeof(m) == $T.Map0;",
                "function $select0($U, $T, $U) : $U;",
                "function $store0($U, $T, $U, $U) : $U;",
                "    m := $store0(m, $T.int, $box.int(1), $box.int(2));",
                "    assert $unbox.int($select0(m, $T.int, $box.int(1))) == 2;",
            ],
        );
        // Select of store, at the same and at another index; no extensionality.
        let select_of_store = printed.lines().filter(|l| l.contains("{$select0($store0(m, b0, x0, v), ")).count();
        assert_eq!(select_of_store, 2, "{printed}");
    }

    #[test]
    fn type_parameters_of_procedures_become_in_parameters() {
        let text = "procedure Q<T>(x: T) returns (y: T);\nprocedure P() { var i: int; call i := Q(3); }\n";
        let printed = erased(text, TypeEncoding::Arguments).expect("changes");
        has_lines(
            &printed,
            &[
                "procedure Q($tv.T: $T, x: $U where $typeof(x) == $tv.T) returns (y: $U where $typeof(y) == $tv.T);",
                "  var $out: $U;",
                "    call $out := Q($T.int, $box.int(3));",
                "    i := $unbox.int($out);",
            ],
        );
    }

    #[test]
    fn monomorphic_programs_are_left_alone() {
        let plain = "type U;\nvar h: [U]int;\nprocedure P(u: U) modifies h; { h[u] := 1; assert h[u] == 1; }\n";
        for encoding in [TypeEncoding::Predicates, TypeEncoding::Arguments, TypeEncoding::Monomorphic] {
            assert_eq!(erased(plain, encoding), None, "{encoding:?}");
        }
    }

    #[test]
    fn datatypes_are_refused_under_the_erasing_encodings_only() {
        let text = "datatype List<T> { nil(), cons(hd: T, tl: List T) }\n\
            procedure P() { var l: List int; l := cons(1, nil()); }\n";
        match run(&typed(text), TypeEncoding::Predicates) {
            Err(PassError::Fatal(m)) => assert_eq!(m, "Datatypes only supported with monomorphic encoding"),
            other => panic!("{other:?}"),
        }
        // Under `/typeEncoding:m` monomorphization instantiates them first.
        assert_eq!(erased(text, TypeEncoding::Monomorphic), None);
    }
}
