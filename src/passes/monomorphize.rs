//! Monomorphization: polymorphic functions, quantifiers over types and polymorphic maps
//! replaced by monomorphic instances (Boogie's `Monomorphizer`, Core/Monomorphization.cs).
//!
//! Expects a type-checked program. Guarantees, when it changes the program, one without type
//! parameters on functions and quantifiers and without polymorphic map types:
//! - each polymorphic function becomes one function per instantiation used, named
//!   `f_int`-style (bodies and `uses` axioms instantiated with it); unused ones disappear;
//! - a `forall<T> ...` becomes the conjunction of its instances (an `exists`, the disjunction)
//!   at Boogie's candidate types: for a type parameter `T`, every type that instantiates the
//!   parameter of a function, polymorphic map or type constructor that the body applies to `T`
//!   itself (Boogie's `InstantiationHintCollector`), found by iterating to a fixpoint;
//! - a polymorphic map type becomes an uninterpreted type `PolymorphicMapType_N` with one
//!   map per instantiation used (Boogie's one field per instance), read by a selector function
//!   and replaced by an update function, with an axiom per update saying it changes its own
//!   field only; `==` on such values is a function (`PolymorphicMapType_N_equal`) defined as
//!   the equality of every field, so that a comparison stays one application however many
//!   fields there are (written out at each comparison, Viper's heaps made single axioms of
//!   25 MB). Boogie uses a one-constructor datatype; these axioms hold of that datatype, so
//!   every counterexample Boogie can find is a model here too and nothing verifies that Boogie
//!   rejects. (The datatype itself, tried, made Z3 4.8.12 up to 30 times slower on Dafny's
//!   frames, and is not well founded for a map that holds itself.)
//! - a polymorphic datatype becomes one monomorphic datatype per instance used, named as
//!   Boogie names them (`List_int`, its constructors `cons_int`, `nil_int`; fields keep their
//!   names);
//! - a polymorphic procedure is instantiated at the types of each call (its implementation too
//!   when it is inlined), and a polymorphic implementation that is verified is verified at
//!   fresh uninterpreted types, shared by position (Boogie's `T_uid`).
//!
//! Map assignments through a polymorphic map (`p[13] := 5`) are first written as stores
//! (`p := p[13 := 5]`) and checked again, so that their instantiations are known.
//!
//! A program whose instantiation would never end (an expanding type cycle, [`cycles`]) is
//! refused as a whole with Boogie's message. What the pass does not handle leaves the program
//! as it is, for vcgen to refuse implementation by implementation as before: polymorphic
//! lambdas, parallel calls of polymorphic procedures, `/typeEncoding` other than monomorphic
//! (Boogie then encodes the types instead), and instantiations that do not reach a fixpoint
//! within a bound.
//!
//! Type synonyms whose body mentions a polymorphic datatype or map are rewritten (or, with
//! parameters, removed: every use is expanded).
//!
//! How: each round copies every monomorphic declaration and every function and procedure
//! instance known so far through [`rewrite`], registering the instances it meets; rounds
//! repeat until a round meets nothing new, and that round's copy is the result. Only
//! polymorphic quantifiers (instantiated at every instance known) depend on the instances
//! found, so a declaration or function instance whose copy met none is copied once, in the first
//! round that makes it, and kept (on Dafny's output the later rounds cost a fifth of the
//! first). One whose copy met one is copied again only when an instance was found after its
//! copy began: the last round (which finds nothing new) copies only what was copied before the
//! round before it found its last instance (a 10 MB Dafny-like program: the pass took 0.50 s,
//! now 0.42 s; the output is the same). Copies keep
//! the spans they were copied from: re-checking numbers every occurrence afresh
//! ([`crate::ast::NodeId`]), so instances sharing a position do not share an identity.

mod cycles;

use std::rc::Rc;

use rustc_hash::{FxHashMap, FxHashSet};

use super::{PassError, rewrite};
use crate::ast::{
    self, AssignLhs, AxiomDecl, BinaryOp, Body, Cmd, CmdKind, Decl, Expr, ExprKind, FnParam, FunctionDecl, Ident,
    NodeId, Program, QuantKind, Quantifier, Span, StoreExpr, Symbol, Trigger, TypeKind, VarGroup,
};
use crate::typeck::types::MapType;
use crate::typeck::{
    FunctionId, FunctionKind, Outcome, ProcedureId, Ref, Type, TypeCtorId, TypeVarId, TypeckOptions, TypedProgram,
};

/// Rounds and instances before giving up (Boogie's expanding type cycles never stop).
const MAX_ROUNDS: usize = 32;
const MAX_INSTANCES: usize = 2000;

/// Type variable ids for the binders of canonical map types: alpha-equivalent map types are
/// then equal.
const CANON_BASE: u32 = 0xF000_0000;

/// Type constructor ids for the fresh types a polymorphic implementation is verified at.
const FRESH_BASE: u32 = 0xF000_0000;

/// The pass: on under `/typeEncoding:m`; `inlining` is whether `{:inline}` procedures are
/// inlined (their instances then keep bodies).
pub struct Monomorphize {
    pub enabled: bool,
    pub inlining: bool,
}

impl super::Pass for Monomorphize {
    fn name(&self) -> &'static str {
        "monomorphize"
    }

    fn run(&self, typed: &TypedProgram, _cx: &mut super::PassCx) -> Result<Option<Program>, PassError> {
        if !self.enabled {
            return Ok(None);
        }
        run(typed, self.inlining)
    }
}

fn run(typed: &TypedProgram, inlining: bool) -> Result<Option<Program>, PassError> {
    if !is_polymorphic(typed) {
        return Ok(None);
    }
    // Boogie's `MonomorphizableChecker`: a type left open (in an attribute) is unhandled.
    if !typed.typing.ambiguous_in_attributes.is_empty() {
        return Err(PassError::Fatal(
            "Unable to monomorphize input program: unhandled polymorphic features detected".into(),
        ));
    }
    if !handled(typed) {
        return Ok(None);
    }
    if cycles::has_expanding_cycle(typed) {
        return Err(PassError::Fatal("Unable to monomorphize input program: expanding type cycle detected".into()));
    }
    let desugared;
    let typed = match desugar_map_assignments(typed) {
        Desugared::Unchanged => typed,
        Desugared::Unsupported => return Ok(None),
        Desugared::Changed(program) => {
            match crate::typeck::run(
                program,
                &TypeckOptions { infer_modifies: true, threads: true, trusted: false, pass_output: true },
                false,
            ) {
                Outcome::Typed(t, _) => {
                    desugared = t;
                    &*desugared
                }
                _ => return Ok(None),
            }
        }
    };
    let mut mono = Mono::new(typed, inlining);
    for _ in 0..MAX_ROUNDS {
        let before = mono.size();
        mono.round();
        if mono.unsupported || mono.size() > MAX_INSTANCES {
            return Ok(None);
        }
        if mono.size() == before {
            let decls = mono.assemble();
            return Ok(Some(Program { decls: mono.finish(decls) }));
        }
    }
    Ok(None)
}

/// Whether anything in the program has a type parameter or a polymorphic map type.
fn is_polymorphic(typed: &TypedProgram) -> bool {
    let s = typed.symbols();
    s.functions.iter().any(|f| !f.type_params.is_empty())
        || s.procedures.iter().any(|p| !p.type_params.is_empty())
        || s.implementations.iter().any(|i| !i.type_params.is_empty())
        || s.type_ctors.iter().any(|t| t.datatype_ctors.is_some() && t.arity > 0)
        || s.vars.iter().any(|v| needs_monomorphization(&v.ty))
        || typed.typing.expr_types.iter().any(needs_monomorphization)
}

fn needs_monomorphization(t: &Type) -> bool {
    match t.expanded() {
        Type::Var(_) => true,
        Type::Map(m) => {
            !m.type_params.is_empty() || m.args.iter().any(needs_monomorphization) || needs_monomorphization(&m.result)
        }
        Type::Ctor(_, args) => args.iter().any(needs_monomorphization),
        _ => false,
    }
}

/// What this pass leaves to vcgen's refusals.
fn handled(typed: &TypedProgram) -> bool {
    let s = typed.symbols();
    s.implementations.iter().all(|i| i.procedure.is_some())
}

// ---------------------------------------------------------------------------------------------
// Map assignments through polymorphic maps, as stores

enum Desugared {
    Unchanged,
    Changed(Program),
    Unsupported,
}

fn desugar_map_assignments(typed: &TypedProgram) -> Desugared {
    // Most programs have none: look before copying.
    struct Find<'a> {
        typed: &'a TypedProgram,
        found: bool,
    }
    impl crate::walk::Visitor for Find<'_> {
        fn cmd(&mut self, c: &Cmd) {
            if let CmdKind::Assign { lhss, .. } = &c.kind {
                self.found |= lhss.iter().any(|l| through_poly_map(self.typed, l));
            }
        }
    }
    let mut find = Find { typed, found: false };
    for d in &typed.program.decls {
        if matches!(d, Decl::Procedure(_) | Decl::Implementation(_)) {
            crate::walk::decl(&mut find, d);
        }
    }
    if !find.found {
        return Desugared::Unchanged;
    }
    struct D<'a> {
        typed: &'a TypedProgram,
        changed: bool,
        unsupported: bool,
    }
    impl rewrite::Rewriter for D<'_> {
        fn cmd(&mut self, c: &Cmd) -> Option<Vec<Cmd>> {
            let CmdKind::Assign { lhss, attrs, rhss } = &c.kind else { return None };
            let through_poly_map = |l: &AssignLhs| through_poly_map(self.typed, l);
            if !lhss.iter().any(through_poly_map) {
                return None;
            }
            let mut new_lhss = Vec::new();
            let mut new_rhss = Vec::new();
            for (l, r) in lhss.iter().zip(rhss.iter()) {
                if !through_poly_map(l) {
                    new_lhss.push(l.clone());
                    new_rhss.push(r.clone());
                    continue;
                }
                match as_store(l, r.clone()) {
                    Some((root, rhs)) => {
                        new_lhss.push(AssignLhs::Var(root));
                        new_rhss.push(rhs);
                    }
                    None => {
                        self.unsupported = true;
                        return None;
                    }
                }
            }
            self.changed = true;
            let kind = CmdKind::Assign { lhss: new_lhss.into(), attrs: attrs.clone(), rhss: new_rhss.into() };
            Some(vec![Cmd { kind, span: c.span }])
        }
    }
    let mut d = D { typed, changed: false, unsupported: false };
    let decls = rewrite::bodies(&mut d, &typed.program.decls);
    if d.unsupported {
        Desugared::Unsupported
    } else if d.changed {
        Desugared::Changed(Program { decls })
    } else {
        Desugared::Unchanged
    }
}

/// Whether `l` assigns a selection of a variable whose type has a polymorphic map.
fn through_poly_map(typed: &TypedProgram, l: &AssignLhs) -> bool {
    matches!(l, AssignLhs::Select { .. })
        && match typed.referent(lhs_root(l)) {
            Some(Ref::Var(v)) => has_poly_map(&typed.symbols().var(v).ty),
            _ => false,
        }
}

fn lhs_root(l: &AssignLhs) -> &Ident {
    match l {
        AssignLhs::Var(v) => v,
        AssignLhs::Select { base, .. } | AssignLhs::Field { base, .. } => lhs_root(base),
    }
}

/// `a[i][j] := v` as `a := a[i := a[i][j := v]]`; `None` for field updates and for index
/// expressions with binders (copied, they would bind twice at one position).
fn as_store(l: &AssignLhs, rhs: Expr) -> Option<(Ident, Expr)> {
    match l {
        AssignLhs::Var(v) => Some((*v, rhs)),
        AssignLhs::Select { base, indexes, span } => {
            if indexes.iter().any(has_binder) {
                return None;
            }
            let map = lhs_expr(base)?;
            let store = StoreExpr { map, indexes: indexes.clone(), value: rhs };
            as_store(base, Expr { kind: ExprKind::Store(Box::new(store)), span: *span, id: NodeId::NONE })
        }
        AssignLhs::Field { .. } => None,
    }
}

fn lhs_expr(l: &AssignLhs) -> Option<Expr> {
    match l {
        AssignLhs::Var(v) => Some(Expr { kind: ExprKind::Var(*v), span: v.span, id: NodeId::NONE }),
        AssignLhs::Select { base, indexes, span } => Some(Expr {
            kind: ExprKind::Select { map: Box::new(lhs_expr(base)?), indexes: indexes.clone() },
            span: *span,
            id: NodeId::NONE,
        }),
        AssignLhs::Field { .. } => None,
    }
}

fn has_binder(e: &Expr) -> bool {
    if matches!(e.kind, ExprKind::Quant(_) | ExprKind::Let(_) | ExprKind::Code(_)) {
        return true;
    }
    let mut found = false;
    e.for_each_child(&mut |c| found |= has_binder(c));
    found
}

fn has_poly_map(t: &Type) -> bool {
    match t.expanded() {
        Type::Map(m) => !m.type_params.is_empty() || m.args.iter().any(has_poly_map) || has_poly_map(&m.result),
        Type::Ctor(_, args) => args.iter().any(has_poly_map),
        _ => false,
    }
}

// ---------------------------------------------------------------------------------------------
// Instantiation

/// A polymorphic map type and the instances of it the program uses.
struct PolyMap {
    /// The map type, canonical.
    ty: Rc<MapType>,
    name: Symbol,
    instances: Vec<Vec<Type>>,
    index: FxHashMap<Vec<Type>, usize>,
    /// Per instance: the field's (monomorphic) map type, its selector and its update function.
    fields: Vec<(Type, Symbol, Symbol)>,
    /// `==` on its values: a function defined as the equality of every field.
    equal: Symbol,
}

struct Mono<'a> {
    typed: &'a TypedProgram,
    sigma: FxHashMap<TypeVarId, Type>,
    /// In a copy that may occur more than once (an instance): binders are copied under the
    /// current substitution, and code expressions are refused.
    copy: bool,
    unsupported: bool,
    functions: FxHashMap<(FunctionId, Vec<Type>), Symbol>,
    function_order: Vec<(FunctionId, Vec<Type>)>,
    maps: Vec<PolyMap>,
    map_index: FxHashMap<Type, usize>,
    /// Every concrete `C T1 .. Tn` (n > 0) met, by constructor.
    ctors: FxHashMap<TypeCtorId, Vec<Vec<Type>>>,
    ctor_seen: FxHashSet<Type>,
    taken: FxHashSet<Symbol>,
    /// Whether `{:inline}` procedures are inlined (their instances then need bodies).
    inlining: bool,
    procedures: FxHashMap<(ProcedureId, Vec<Type>), Symbol>,
    procedure_order: Vec<(ProcedureId, Vec<Type>)>,
    /// Procedure instances whose implementation is instantiated too.
    with_body: FxHashSet<(ProcedureId, Vec<Type>)>,
    /// The uninterpreted types polymorphic implementations are verified at (Boogie's
    /// `T_uid`), by position among the type parameters.
    fresh_types: Vec<Symbol>,
    /// Instances of polymorphic datatypes, in the order met.
    datatypes: Vec<DatatypeInstance>,
    datatype_index: FxHashMap<(TypeCtorId, Vec<Type>), usize>,
    /// The last round's rewriting of each declaration (`None`: removed, a polymorphic one),
    /// and whether it is final: a rewriting that met no polymorphic quantifier does not
    /// depend on the instances known (only those are instantiated at every instance found),
    /// so later rounds keep it instead of rewriting the declaration again.
    rewritten: Vec<Option<Decl>>,
    settled: Vec<bool>,
    /// For a rewriting that met one: [`Mono::size`] when it began. While no instance is found
    /// after that, it is as the next round would make it again, and is kept.
    rewritten_at: Vec<usize>,
    /// The same for the function instances, by their index in `function_order`.
    function_instances: Vec<Decl>,
    function_settled: Vec<bool>,
    function_rewritten_at: Vec<usize>,
    /// The last round's procedure and datatype instances (few; made again each round).
    procedure_instances: Vec<Decl>,
    datatype_instances: FxHashMap<TypeCtorId, Vec<Decl>>,
    /// A polymorphic quantifier was met since this was last cleared.
    met_poly_binder: bool,
    /// The polymorphic quantifiers met at the top of the declaration being copied (not inside
    /// an instantiation), by node; then, per declaration, those its last copy met
    /// ([`Mono::instantiations_unchanged`]).
    top_poly: Vec<u32>,
    poly_met: Vec<Vec<u32>>,
    /// Each polymorphic quantifier's last instantiation (by the quantifier's node, under a
    /// substitution), with the candidate types it was made at: at the same candidates,
    /// instantiating it again gives the same conjunction and finds nothing new.
    instantiated: FxHashMap<InstantiationKey, (Vec<Vec<Type>>, Expr)>,
    /// [`canon`] of the shared types met (synonyms, maps, constructor applications), by the
    /// address of their `Rc` and the substitution's generation: the program's expressions
    /// share a few such types thousands of times. Each entry holds the type it is keyed by, so that the address
    /// stays that type's while the entry lives.
    canonical: std::cell::RefCell<FxHashMap<(usize, u64), (Type, Type)>>,
    /// The types [`Mono::note_type`] noted, keyed as `canonical`.
    noted: FxHashSet<(usize, u64)>,
    /// Which substitution `sigma` is: a number no other substitution had ([`canon`]'s memo
    /// is by type and substitution).
    sigma_generation: u64,
    generations: u64,
    /// The type variables by the node of their name: resolution makes a function's type
    /// parameters again for its definition axiom, under the same identifiers
    /// ([`Mono::function_sigma`]).
    type_vars_by_node: FxHashMap<u32, Vec<TypeVarId>>,
}

/// A polymorphic quantifier (its node's id) under a substitution (sorted by type variable).
type InstantiationKey = (u32, Vec<(TypeVarId, Type)>);

/// A polymorphic datatype at one instantiation: the new datatype's name and its
/// constructors', in declaration order.
#[derive(Clone)]
struct DatatypeInstance {
    datatype: TypeCtorId,
    inst: Vec<Type>,
    name: Symbol,
    ctors: Vec<Symbol>,
}

impl<'a> Mono<'a> {
    fn new(typed: &'a TypedProgram, inlining: bool) -> Mono<'a> {
        let s = typed.symbols();
        let taken = s
            .functions_by_name
            .keys()
            .chain(s.procedures_by_name.keys())
            .chain(s.types_by_name.keys())
            .chain(s.globals.keys())
            .copied()
            .collect();
        Mono {
            typed,
            sigma: FxHashMap::default(),
            copy: false,
            unsupported: false,
            functions: FxHashMap::default(),
            function_order: Vec::new(),
            maps: Vec::new(),
            map_index: FxHashMap::default(),
            ctors: FxHashMap::default(),
            ctor_seen: FxHashSet::default(),
            taken,
            inlining,
            procedures: FxHashMap::default(),
            procedure_order: Vec::new(),
            with_body: FxHashSet::default(),
            fresh_types: Vec::new(),
            datatypes: Vec::new(),
            datatype_index: FxHashMap::default(),
            rewritten: Vec::new(),
            settled: Vec::new(),
            rewritten_at: Vec::new(),
            function_instances: Vec::new(),
            function_settled: Vec::new(),
            function_rewritten_at: Vec::new(),
            procedure_instances: Vec::new(),
            datatype_instances: FxHashMap::default(),
            met_poly_binder: false,
            top_poly: Vec::new(),
            poly_met: Vec::new(),
            instantiated: FxHashMap::default(),
            canonical: Default::default(),
            noted: FxHashSet::default(),
            sigma_generation: 0,
            generations: 0,
            type_vars_by_node: {
                let mut by_node: FxHashMap<u32, Vec<TypeVarId>> = FxHashMap::default();
                for (k, v) in s.type_vars.iter().enumerate() {
                    if v.name.id.0 != NodeId::NONE.0 {
                        by_node.entry(v.name.id.0).or_default().push(TypeVarId(k as u32));
                    }
                }
                by_node
            },
        }
    }

    fn size(&self) -> usize {
        self.function_order.len()
            + self.procedure_order.len()
            + self.with_body.len()
            + self.maps.iter().map(|m| 1 + m.instances.len()).sum::<usize>()
            + self.ctor_seen.len()
            + self.datatypes.len()
    }

    fn fresh_name(&mut self, base: String) -> Symbol {
        let mut name = base.clone();
        let mut n = 0;
        while self.taken.contains(&Symbol::intern(&name)) {
            n += 1;
            name = format!("{base}${n}");
        }
        let s = Symbol::intern(&name);
        self.taken.insert(s);
        s
    }

    // --- types

    /// `t` with the current substitution applied, synonyms expanded and map binders renamed
    /// canonically.
    fn canon(&self, t: &Type) -> Type {
        let Some(address) = shared_address(t) else { return canon(t, &self.sigma, 0) };
        let key = (address, self.sigma_generation);
        if let Some((_, canonical)) = self.canonical.borrow().get(&key) {
            return canonical.clone();
        }
        let canonical = canon(t, &self.sigma, 0);
        self.canonical.borrow_mut().insert(key, (t.clone(), canonical.clone()));
        canonical
    }

    /// Makes `sigma` the substitution; returns the one to restore with [`Mono::leave_sigma`].
    fn enter_sigma(&mut self, sigma: FxHashMap<TypeVarId, Type>) -> (FxHashMap<TypeVarId, Type>, u64) {
        self.generations += 1;
        let generation = std::mem::replace(&mut self.sigma_generation, self.generations);
        (std::mem::replace(&mut self.sigma, sigma), generation)
    }

    fn extend_sigma(&mut self, pairs: impl IntoIterator<Item = (TypeVarId, Type)>) {
        self.sigma.extend(pairs);
        self.generations += 1;
        self.sigma_generation = self.generations;
    }

    fn leave_sigma(&mut self, (sigma, generation): (FxHashMap<TypeVarId, Type>, u64)) {
        self.sigma = sigma;
        self.sigma_generation = generation;
    }

    /// Records the concrete constructor types in `t` (Boogie's type instantiations).
    fn note_ctors(&mut self, t: &Type) {
        match t {
            Type::Ctor(c, args) if !args.is_empty() => {
                args.iter().for_each(|a| self.note_ctors(a));
                if is_closed(t) && self.ctor_seen.insert(t.clone()) {
                    self.ctors.entry(*c).or_default().push(args.to_vec());
                }
            }
            Type::Map(m) => {
                m.args.iter().for_each(|a| self.note_ctors(a));
                self.note_ctors(&m.result);
            }
            _ => {}
        }
    }

    /// [`Mono::note_ctors`] of `t` under the current substitution, once per shared type and
    /// substitution: the program's expressions share a few types thousands of times, and
    /// noting one again finds nothing (the constructor types only grow). Keyed as
    /// [`Mono::canon`]'s memo; `t` is the checker's, alive as long as the pass.
    fn note_type(&mut self, t: &Type) {
        match shared_address(t) {
            Some(address) if !self.noted.insert((address, self.sigma_generation)) => return,
            Some(_) => {}
            // A variable may stand for any type under the substitution.
            None if matches!(t, Type::Var(_) | Type::Proxy(_)) => {}
            // Nothing to note in a type without arguments.
            None => return,
        }
        let t = self.canon(t);
        self.note_ctors(&t);
    }

    /// A canonical, closed type as written in the new program.
    fn ast_type(&mut self, t: &Type, span: Span) -> ast::Type {
        let named = |name: &str, args: Box<[ast::Type]>| TypeKind::Named { name: Ident::new(name, span), args };
        let kind = match t {
            Type::Bool => TypeKind::Bool,
            Type::Int => TypeKind::Int,
            Type::Real => TypeKind::Real,
            Type::Bv(n) => named(&format!("bv{n}"), Box::new([])),
            Type::Float { significand, exponent } => named(&format!("float{significand}e{exponent}"), Box::new([])),
            Type::RMode => named("rmode", Box::new([])),
            Type::String => named("string", Box::new([])),
            Type::RegEx => named("regex", Box::new([])),
            Type::Ctor(c, _) if c.0 >= FRESH_BASE => {
                named(self.fresh_types[(c.0 - FRESH_BASE) as usize].as_str(), Box::new([]))
            }
            Type::Ctor(c, args) if self.is_poly_datatype(*c) => {
                let i = self.datatype_instance(*c, args.to_vec());
                named(self.datatypes[i].name.as_str(), Box::new([]))
            }
            Type::Ctor(c, args) => {
                let name = self.typed.symbols().type_ctors[c.0 as usize].name.name;
                let args = args.iter().map(|a| self.ast_type(a, span)).collect();
                named(name.as_str(), args)
            }
            Type::Map(m) if m.type_params.is_empty() => TypeKind::Map(Box::new(ast::MapType {
                type_params: Box::new([]),
                args: m.args.iter().map(|a| self.ast_type(a, span)).collect(),
                result: self.ast_type(&m.result, span),
            })),
            Type::Map(_) => {
                let m = self.poly_map(t);
                named(self.maps[m].name.as_str(), Box::new([]))
            }
            Type::Var(_) | Type::Synonym(_) | Type::Proxy(_) => {
                self.unsupported = true;
                TypeKind::Int
            }
        };
        ast::Type::new(kind, span)
    }

    /// Whether a synonym's body mentions what this pass replaces.
    fn synonym_changes(&self, body: &ast::Type) -> bool {
        match self.typed.resolution.types.get(body.id) {
            Some(t) => {
                let t = canon(t, &FxHashMap::default(), 0);
                has_poly_map(&t) || self.has_poly_datatype(&t)
            }
            None => written_poly_map(body),
        }
    }

    fn is_poly_datatype(&self, c: TypeCtorId) -> bool {
        c.0 < FRESH_BASE && {
            let info = &self.typed.symbols().type_ctors[c.0 as usize];
            info.datatype_ctors.is_some() && info.arity > 0
        }
    }

    /// Whether `t` mentions an instance of a polymorphic datatype (which gets a new name).
    fn has_poly_datatype(&self, t: &Type) -> bool {
        match t {
            Type::Ctor(c, args) => self.is_poly_datatype(*c) || args.iter().any(|a| self.has_poly_datatype(a)),
            Type::Map(m) => m.args.iter().any(|a| self.has_poly_datatype(a)) || self.has_poly_datatype(&m.result),
            _ => false,
        }
    }

    /// The instance of polymorphic datatype `dt` at `inst` (Boogie's `InstantiateTypeCtorDecl`).
    fn datatype_instance(&mut self, dt: TypeCtorId, inst: Vec<Type>) -> usize {
        if let Some(&i) = self.datatype_index.get(&(dt, inst.clone())) {
            return i;
        }
        if !inst.iter().all(is_closed) {
            self.unsupported = true;
        }
        let suffix: Vec<String> = inst.iter().map(|t| self.type_name(t)).collect();
        let suffix = suffix.join("_");
        let symbols = self.typed.symbols();
        let info = &symbols.type_ctors[dt.0 as usize];
        let name = self.fresh_name(format!("{}_{suffix}", info.name.name));
        let ctors = info
            .datatype_ctors
            .clone()
            .unwrap_or_default()
            .iter()
            .map(|c| self.fresh_name(format!("{}_{suffix}", symbols.function(*c).name.name)))
            .collect();
        self.datatypes.push(DatatypeInstance { datatype: dt, inst: inst.clone(), name, ctors });
        self.datatype_index.insert((dt, inst), self.datatypes.len() - 1);
        self.datatypes.len() - 1
    }

    /// The declaration of datatype instance `i`: the constructors' field types instantiated.
    fn datatype_decl(&mut self, i: usize) -> Option<Decl> {
        let typed = self.typed;
        let DatatypeInstance { datatype, inst, name, ctors } = self.datatypes[i].clone();
        let info = &typed.symbols().type_ctors[datatype.0 as usize];
        let Some(Decl::Datatype(d)) = info.decl.map(|d| &typed.program.decls[d.0 as usize]) else {
            self.unsupported = true;
            return None;
        };
        let ids = info.datatype_ctors.clone().unwrap_or_default();
        let mut new_ctors = Vec::new();
        for (k, f) in ids.iter().enumerate() {
            let c = typed.symbols().function(*f);
            let sigma: FxHashMap<TypeVarId, Type> = c.type_params.iter().copied().zip(inst.iter().cloned()).collect();
            let fields = c
                .params
                .iter()
                .zip(&c.param_types)
                .map(|(p, t)| {
                    let t = canon(t, &sigma, 0);
                    self.note_ctors(&t);
                    VarGroup {
                        attrs: Box::new([]),
                        names: Box::new([Ident::at(typed.symbols().var(*p).name.name, d.span)]),
                        ty: self.ast_type(&t, d.span),
                        where_clause: None,
                        span: d.span,
                    }
                })
                .collect();
            new_ctors.push(ast::Constructor { name: Ident::at(ctors[k], c.name.span), fields });
        }
        Some(Decl::Datatype(Box::new(ast::DatatypeDecl {
            attrs: d.attrs.clone(),
            name: Ident::at(name, d.name.span),
            type_params: Box::new([]),
            ctors: new_ctors.into(),
            span: d.span,
        })))
    }

    fn poly_map(&mut self, t: &Type) -> usize {
        let key = canon(t, &FxHashMap::default(), 0);
        if let Some(&i) = self.map_index.get(&key) {
            return i;
        }
        let Type::Map(m) = &key else { unreachable!("a map type") };
        let name = self.fresh_name(format!("PolymorphicMapType_{}", self.maps.len()));
        let equal = self.fresh_name(format!("{name}_equal"));
        self.maps.push(PolyMap {
            equal,
            ty: m.clone(),
            name,
            instances: Vec::new(),
            index: FxHashMap::default(),
            fields: Vec::new(),
        });
        self.map_index.insert(key, self.maps.len() - 1);
        self.maps.len() - 1
    }

    /// The field of polymorphic map `m` for the instantiation `inst`.
    fn field(&mut self, m: usize, inst: Vec<Type>) -> usize {
        if let Some(&k) = self.maps[m].index.get(&inst) {
            return k;
        }
        let map = self.maps[m].ty.clone();
        let subst: FxHashMap<TypeVarId, Type> = map.type_params.iter().copied().zip(inst.iter().cloned()).collect();
        let field = Type::Map(Rc::new(MapType {
            type_params: Vec::new(),
            args: map.args.iter().map(|a| canon(a, &subst, 0)).collect(),
            result: canon(&map.result, &subst, 0),
        }));
        let base = format!("{}_{}", self.maps[m].name, inst.iter().map(type_name).collect::<Vec<_>>().join("_"));
        let select = self.fresh_name(base.clone());
        let update = self.fresh_name(format!("{base}_update"));
        let info = &mut self.maps[m];
        info.index.insert(inst.clone(), info.instances.len());
        info.instances.push(inst);
        info.fields.push((field, select, update));
        info.instances.len() - 1
    }

    fn function_instance(&mut self, f: FunctionId, inst: Vec<Type>) -> Symbol {
        if let Some(&name) = self.functions.get(&(f, inst.clone())) {
            return name;
        }
        let base = self.typed.symbols().function(f).name.name;
        let name = self.fresh_name(format!("{}_{}", base, inst.iter().map(type_name).collect::<Vec<_>>().join("_")));
        self.functions.insert((f, inst.clone()), name);
        self.function_order.push((f, inst));
        name
    }

    /// The instantiation of the polymorphic function call, map selection or store `e`, under
    /// the current substitution: the type checker's, or (for a node it did not see) the types
    /// of the arguments (and result) matched against the signature.
    fn instantiation(&mut self, e: &Expr) -> Vec<Type> {
        let typed = self.typed;
        // What the type checker found, under the current substitution.
        if let Some(inst) = typed.typing.instantiations.get(&e.id.0) {
            return inst.iter().map(|t| self.canon(t)).collect();
        }
        let (params, patterns, actuals): (Vec<TypeVarId>, Vec<Type>, Vec<&Expr>) = match &e.kind {
            ExprKind::Call { args, .. } => {
                let Some(Ref::Function(f)) = typed.resolution.refs.get(e.id).copied() else {
                    self.unsupported = true;
                    return Vec::new();
                };
                let info = typed.symbols().function(f);
                let mut patterns: Vec<Type> = info.param_types.clone();
                patterns.push(info.result.clone());
                (info.type_params.clone(), patterns, args.iter().chain([e]).collect())
            }
            ExprKind::Select { .. } | ExprKind::Store(_) => {
                let (map, indexes) = match &e.kind {
                    ExprKind::Select { map, indexes } => (&**map, &**indexes),
                    ExprKind::Store(s) => (&s.map, &*s.indexes),
                    _ => unreachable!("a selection or store"),
                };
                let Type::Map(m) = self.canon(typed.type_of(map.id)) else {
                    self.unsupported = true;
                    return Vec::new();
                };
                let mut patterns = m.args.clone();
                patterns.push(m.result.clone());
                let result = match &e.kind {
                    ExprKind::Store(s) => &s.value,
                    _ => e,
                };
                (m.type_params.clone(), patterns, indexes.iter().chain([result]).collect())
            }
            _ => {
                self.unsupported = true;
                return Vec::new();
            }
        };
        let mut found = FxHashMap::default();
        for (pattern, actual) in patterns.iter().zip(actuals) {
            let pattern = canon(pattern, &FxHashMap::default(), 0);
            let actual = self.canon(typed.type_of(actual.id));
            if !match_type(&pattern, &actual, &params, &mut found) {
                self.unsupported = true;
            }
        }
        params
            .iter()
            .map(|p| {
                found.get(p).cloned().unwrap_or_else(|| {
                    self.unsupported = true;
                    Type::Int
                })
            })
            .collect()
    }

    fn call(&self, name: Symbol, args: Vec<Expr>, span: Span) -> Expr {
        Expr { kind: ExprKind::Call { func: name, args: args.into() }, span, id: NodeId::NONE }
    }

    // --- rounds

    fn round(&mut self) {
        let typed = self.typed;
        self.verification_instances();
        let stale = stale_synonyms(&typed.program.decls);
        if self.settled.len() != typed.program.decls.len() {
            self.rewritten = vec![None; typed.program.decls.len()];
            self.settled = vec![false; typed.program.decls.len()];
            self.rewritten_at = vec![usize::MAX; typed.program.decls.len()];
            self.poly_met = vec![Vec::new(); typed.program.decls.len()];
        }
        // The instances known now: a rewriting begun with as many is complete.
        let known = self.size();
        let mut decls = std::mem::take(&mut self.rewritten);
        for (k, decl) in typed.program.decls.iter().enumerate() {
            if self.settled[k] || self.rewritten_at[k] == known {
                continue;
            }
            // A copy whose polymorphic quantifiers would all be instantiated as before is as a
            // copy made now (a quarter of the pass's time on Dafny's output was such copies).
            if decls[k].is_some() && !self.poly_met[k].is_empty() && self.instantiations_unchanged(k) {
                self.rewritten_at[k] = self.size();
                continue;
            }
            self.rewritten_at[k] = self.size();
            self.met_poly_binder = false;
            self.top_poly.clear();
            self.settled[k] = true;
            let d = match decl {
                Decl::Type(t) if stale.contains(&t.name.name) => {
                    decls[k] = None;
                    continue;
                }
                Decl::Procedure(p) if !p.type_params.is_empty() => {
                    decls[k] = None;
                    continue;
                }
                Decl::Implementation(i) if !i.type_params.is_empty() => {
                    decls[k] = None;
                    continue;
                }
                Decl::Function(f) if !f.type_params.is_empty() => {
                    decls[k] = None;
                    continue;
                }
                Decl::Datatype(d) if !d.type_params.is_empty() => {
                    decls[k] = None;
                    continue;
                }
                // A synonym with parameters is expanded where it is used (Boogie removes it);
                // one that needs no change stays, for the types written with it.
                Decl::Type(t) if t.synonym.as_ref().is_some_and(|b| self.synonym_changes(b)) => {
                    if !t.params.is_empty() {
                        decls.push(None);
                        continue;
                    }
                    let mut t = t.clone();
                    t.synonym = t.synonym.as_ref().map(|b| self.written_type(b));
                    Decl::Type(t)
                }
                Decl::Datatype(d) => {
                    let mut d = d.clone();
                    d.ctors = d
                        .ctors
                        .iter()
                        .map(|c| ast::Constructor { name: c.name, fields: rewrite::var_groups(self, &c.fields) })
                        .collect();
                    Decl::Datatype(d)
                }
                Decl::Function(f) => Decl::Function(Box::new(self.function(f, None))),
                Decl::Axiom(a) => Decl::Axiom(Box::new(rewrite::axiom(self, a))),
                Decl::Const(c) => {
                    let mut c = c.clone();
                    c.ty = self.written_type(&c.ty);
                    c.uses = c.uses.map(|u| u.iter().map(|a| rewrite::axiom(self, a)).collect());
                    Decl::Const(c)
                }
                Decl::Var(v) => {
                    let mut v = v.clone();
                    v.groups = rewrite::var_groups(self, &v.groups);
                    Decl::Var(v)
                }
                // Built field by field: a copy of the whole declaration would copy the body
                // only to replace it.
                Decl::Procedure(p) => Decl::Procedure(Box::new(ast::ProcedureDecl {
                    pure: p.pure,
                    name: p.name,
                    type_params: p.type_params.clone(),
                    ins: rewrite::var_groups(self, &p.ins),
                    outs: rewrite::var_groups(self, &p.outs),
                    attrs: rewrite::attrs(self, &p.attrs),
                    specs: p.specs.iter().map(|s| rewrite::spec(self, s)).collect(),
                    body: p.body.as_ref().map(|b| self.body(b)),
                    span: p.span,
                })),
                Decl::Implementation(i) => Decl::Implementation(Box::new(ast::ImplementationDecl {
                    name: i.name,
                    type_params: i.type_params.clone(),
                    ins: rewrite::var_groups(self, &i.ins),
                    outs: rewrite::var_groups(self, &i.outs),
                    attrs: rewrite::attrs(self, &i.attrs),
                    body: self.body(&i.body),
                    span: i.span,
                })),
                other => other.clone(),
            };
            self.settled[k] = !self.met_poly_binder;
            let mut met = std::mem::take(&mut self.top_poly);
            met.sort_unstable();
            met.dedup();
            self.poly_met[k] = met;
            decls[k] = Some(d);
        }
        self.rewritten = decls;
        // Function instances, including those found while instantiating others.
        let mut i = 0;
        while i < self.function_order.len() && !self.unsupported && self.size() <= MAX_INSTANCES {
            if self.function_settled.get(i).copied().unwrap_or(false)
                || self.function_rewritten_at.get(i) == Some(&known)
            {
                i += 1;
                continue;
            }
            let began = self.size();
            let (f, inst) = self.function_order[i].clone();
            let info = typed.symbols().function(f);
            let Some(Decl::Function(decl)) = info.decl.map(|d| &typed.program.decls[d.0 as usize]) else {
                self.unsupported = true;
                break;
            };
            let sigma = self.function_sigma(&info.type_params, &inst);
            let saved = self.enter_sigma(sigma);
            let copy = std::mem::replace(&mut self.copy, true);
            self.met_poly_binder = false;
            let new = Decl::Function(Box::new(self.function(decl, Some((f, &inst)))));
            self.leave_sigma(saved);
            self.copy = copy;
            if i < self.function_instances.len() {
                self.function_instances[i] = new;
                self.function_settled[i] = !self.met_poly_binder;
                self.function_rewritten_at[i] = began;
            } else {
                self.function_instances.push(new);
                self.function_settled.push(!self.met_poly_binder);
                self.function_rewritten_at.push(began);
            }
            i += 1;
        }
        let mut procedures = Vec::new();
        let mut i = 0;
        while i < self.procedure_order.len() && !self.unsupported && self.size() <= MAX_INSTANCES {
            let (p, inst) = self.procedure_order[i].clone();
            procedures.extend(self.procedure_instance(p, &inst));
            i += 1;
        }
        let mut datatype_instances: FxHashMap<TypeCtorId, Vec<Decl>> = FxHashMap::default();
        let mut i = 0;
        while i < self.datatypes.len() && !self.unsupported && self.size() <= MAX_INSTANCES {
            if let Some(d) = self.datatype_decl(i) {
                datatype_instances.entry(self.datatypes[i].datatype).or_default().push(d);
            }
            i += 1;
        }
        self.procedure_instances = procedures;
        self.datatype_instances = datatype_instances;
    }

    /// The program the last round made: its declarations, each polymorphic one replaced by
    /// its instances, and the procedure instances at the end.
    fn assemble(&mut self) -> Vec<Decl> {
        let typed = self.typed;
        let mut instances: FxHashMap<FunctionId, Vec<Decl>> = FxHashMap::default();
        let functions = std::mem::take(&mut self.function_instances);
        for ((f, _), d) in self.function_order.iter().zip(functions) {
            instances.entry(*f).or_default().push(d);
        }
        let mut datatype_instances = std::mem::take(&mut self.datatype_instances);
        let decls = std::mem::take(&mut self.rewritten);
        let mut out = Vec::new();
        for (decl, new) in typed.program.decls.iter().zip(decls) {
            match new {
                Some(d) => out.push(d),
                None => {
                    if let Decl::Function(f) = decl
                        && let Some(Ref::Function(id)) = typed.referent(&f.name)
                    {
                        out.extend(instances.remove(&id).unwrap_or_default());
                    }
                    if let Decl::Datatype(d) = decl
                        && let Some(Ref::TypeCtor(id)) = typed.referent(&d.name)
                    {
                        out.extend(datatype_instances.remove(&id).unwrap_or_default());
                    }
                }
            }
        }
        out.extend(std::mem::take(&mut self.procedure_instances));
        out
    }

    /// The substitution for a function instance: its type parameters, and the binders that
    /// resolution made again for its body (the definition axiom's, named by the same
    /// identifiers), at `inst`.
    fn function_sigma(&self, params: &[TypeVarId], inst: &[Type]) -> FxHashMap<TypeVarId, Type> {
        let vars = &self.typed.symbols().type_vars;
        let mut sigma: FxHashMap<TypeVarId, Type> = params.iter().copied().zip(inst.iter().cloned()).collect();
        for (p, t) in params.iter().zip(inst) {
            let name = vars[p.0 as usize].name;
            for &k in self.type_vars_by_node.get(&name.id.0).into_iter().flatten() {
                sigma.insert(k, t.clone());
            }
        }
        sigma
    }

    /// Polymorphic implementations that are verified are verified at fresh uninterpreted
    /// types, shared by position (Boogie's `Initialize`).
    fn verification_instances(&mut self) {
        let typed = self.typed;
        for info in &typed.symbols().implementations {
            let Some(p) = info.procedure else { continue };
            let n = typed.symbols().procedure(p).type_params.len();
            if n == 0 {
                continue;
            }
            let attrs = |d: crate::typeck::DeclIndex| match &typed.program.decls[d.0 as usize] {
                Decl::Procedure(d) => d.attrs.clone(),
                Decl::Implementation(d) => d.attrs.clone(),
                _ => Box::new([]),
            };
            let (own, proc_attrs) = (attrs(info.decl), attrs(typed.symbols().procedure(p).decl));
            let skip = own.iter().chain(proc_attrs.iter()).any(|a| {
                (a.key == "inline" && self.inlining)
                    || (a.key == "verify"
                        && matches!(&a.params[..], [ast::AttrParam::Expr(Expr { kind: ExprKind::BoolLit(false), .. })]))
            });
            if skip {
                continue;
            }
            while self.fresh_types.len() < n {
                let name = typed.symbols().type_vars
                    [info.type_params.get(self.fresh_types.len()).map_or(0, |v| v.0 as usize)]
                .name
                .name;
                let name = self.fresh_name(format!("{name}_{}", self.fresh_types.len()));
                self.fresh_types.push(name);
            }
            let inst: Vec<Type> =
                (0..n).map(|k| Type::Ctor(TypeCtorId(FRESH_BASE + k as u32), Rc::from(Vec::new()))).collect();
            self.procedure_instance_name(p, inst.clone());
            self.with_body.insert((p, inst));
        }
    }

    fn procedure_instance_name(&mut self, p: ProcedureId, inst: Vec<Type>) -> Symbol {
        if let Some(&name) = self.procedures.get(&(p, inst.clone())) {
            return name;
        }
        let base = self.typed.symbols().procedure(p).name.name;
        let name = self.fresh_name(format!(
            "{}_{}",
            base,
            inst.iter().map(|t| self.type_name(t)).collect::<Vec<_>>().join("_")
        ));
        self.procedures.insert((p, inst.clone()), name);
        self.procedure_order.push((p, inst));
        name
    }

    fn type_name(&self, t: &Type) -> String {
        match t {
            Type::Ctor(c, _) if c.0 >= FRESH_BASE => self.fresh_types[(c.0 - FRESH_BASE) as usize].to_string(),
            t => type_name(t),
        }
    }

    /// The procedure `p` at `inst`, with its implementations when they are needed.
    fn procedure_instance(&mut self, p: ProcedureId, inst: &[Type]) -> Vec<Decl> {
        let typed = self.typed;
        let key = (p, inst.to_vec());
        let name = self.procedures[&key];
        let with_body = self.with_body.contains(&key);
        let info = typed.symbols().procedure(p);
        let saved = self.enter_sigma(info.type_params.iter().copied().zip(inst.iter().cloned()).collect());
        let copy = std::mem::replace(&mut self.copy, true);
        let mut out = Vec::new();
        if let Decl::Procedure(d) = &typed.program.decls[info.decl.0 as usize] {
            for imp in typed.symbols().implementations.iter().filter(|i| i.decl == info.decl) {
                self.extend_sigma(imp.type_params.iter().copied().zip(inst.iter().cloned()));
            }
            out.push(Decl::Procedure(Box::new(ast::ProcedureDecl {
                pure: d.pure,
                attrs: rewrite::attrs(self, &d.attrs),
                name: Ident::at(name, d.name.span),
                type_params: Box::new([]),
                ins: self.binders(&d.ins),
                outs: self.binders(&d.outs),
                specs: d.specs.iter().map(|s| rewrite::spec(self, s)).collect(),
                body: if with_body { d.body.as_ref().map(|b| self.body(b)) } else { None },
                span: d.span,
            })));
        } else {
            self.unsupported = true;
        }
        if with_body {
            for imp in typed.symbols().implementations.iter().filter(|i| i.procedure == Some(p)) {
                let Decl::Implementation(d) = &typed.program.decls[imp.decl.0 as usize] else { continue };
                self.extend_sigma(imp.type_params.iter().copied().zip(inst.iter().cloned()));
                out.push(Decl::Implementation(Box::new(ast::ImplementationDecl {
                    attrs: rewrite::attrs(self, &d.attrs),
                    name: Ident::at(name, d.name.span),
                    type_params: Box::new([]),
                    ins: self.binders(&d.ins),
                    outs: self.binders(&d.outs),
                    body: self.body(&d.body),
                    span: d.span,
                })));
            }
        }
        self.leave_sigma(saved);
        self.copy = copy;
        out
    }

    /// Variable groups of binders, their types under the current substitution.
    fn binders(&mut self, groups: &[VarGroup]) -> Box<[VarGroup]> {
        groups
            .iter()
            .map(|g| VarGroup {
                attrs: rewrite::attrs(self, &g.attrs),
                names: g.names.iter().map(|n| Ident::at(n.name, n.span)).collect(),
                ty: self.written_type(&g.ty),
                where_clause: g.where_clause.as_ref().map(|w| Box::new(rewrite::expr(self, w))),
                span: g.span,
            })
            .collect()
    }

    /// A function declaration: as it is, or the instance `inst` of it.
    fn function(&mut self, f: &FunctionDecl, inst: Option<(FunctionId, &[Type])>) -> FunctionDecl {
        let name = match inst {
            Some((id, inst)) => Ident::at(self.functions[&(id, inst.to_vec())], f.name.span),
            None => f.name,
        };
        let info_types = inst.map(|(id, _)| {
            let info = self.typed.symbols().function(id);
            (info.param_types.clone(), info.result.clone())
        });
        let param = |this: &mut Self, p: &FnParam, ty: Option<&Type>| FnParam {
            attrs: rewrite::attrs(this, &p.attrs),
            name: p.name.map(|n| Ident::at(n.name, n.span)),
            ty: match ty {
                Some(t) => {
                    let t = this.canon(t);
                    this.note_ctors(&t);
                    this.ast_type(&t, p.ty.span)
                }
                None => this.written_type(&p.ty),
            },
            span: p.span,
        };
        let params = f
            .params
            .iter()
            .enumerate()
            .map(|(i, p)| {
                let ty = info_types.as_ref().map(|(ps, _)| &ps[i]);
                param(self, p, ty)
            })
            .collect();
        let result = param(self, &f.result, info_types.as_ref().map(|(_, r)| r));
        FunctionDecl {
            revealed: f.revealed,
            attrs: rewrite::attrs(self, &f.attrs),
            name,
            type_params: Box::new([]),
            params,
            result,
            returns_form: f.returns_form,
            body: f.body.as_ref().map(|b| rewrite::expr(self, b)),
            uses: f.uses.as_ref().map(|u| u.iter().map(|a| rewrite::axiom(self, a)).collect()),
            span: f.span,
        }
    }

    fn body(&mut self, b: &Body) -> Body {
        Body {
            locals: b
                .locals
                .iter()
                .map(|l| ast::LocalVars {
                    attrs: rewrite::attrs(self, &l.attrs),
                    groups: self.binders(&l.groups),
                    span: l.span,
                })
                .collect(),
            stmts: rewrite::stmt_list(self, &b.stmts),
            span: b.span,
        }
    }

    /// A type written in the program: kept when nothing in it changes.
    fn written_type(&mut self, t: &ast::Type) -> ast::Type {
        match self.type_hook(t) {
            Some(t) => t,
            None => t.clone(),
        }
    }

    fn type_hook(&mut self, t: &ast::Type) -> Option<ast::Type> {
        let Some(resolved) = self.typed.resolution.types.get(t.id) else {
            if !self.sigma.is_empty() || written_poly_map(t) {
                self.unsupported = true;
            }
            return None;
        };
        self.note_type(resolved);
        let c = self.canon(resolved);
        if !needs_monomorphization(resolved) && !self.has_poly_datatype(&c) {
            return None;
        }
        Some(self.ast_type(&c, t.span))
    }

    // --- expressions

    /// Candidate types for each of `params` in `q` (Boogie's instantiation hints).
    fn hints(&mut self, params: &[TypeVarId], q: &Quantifier) -> Vec<Vec<Type>> {
        let mut hints: Vec<Vec<Type>> = vec![Vec::new(); params.len()];
        let add = |hints: &mut Vec<Vec<Type>>, at: usize, t: &Type| {
            if !hints[at].contains(t) {
                hints[at].push(t.clone());
            }
        };
        let mut exprs: Vec<&Expr> = vec![&q.body];
        for t in q.triggers.iter() {
            exprs.extend(t.exprs.iter());
        }
        let mut types: Vec<Type> = Vec::new();
        for g in q.vars.iter() {
            for n in g.names.iter() {
                if let Some(Ref::Var(v)) = self.typed.referent(n) {
                    types.push(self.canon(&self.typed.symbols().var(v).ty));
                }
            }
        }
        while let Some(e) = exprs.pop() {
            e.for_each_child(&mut |c| exprs.push(c));
            match &e.kind {
                ExprKind::Call { .. } => {
                    if let Some(Ref::Function(f)) = self.typed.resolution.refs.get(e.id).copied()
                        && !self.typed.symbols().function(f).type_params.is_empty()
                    {
                        let inst = self.instantiation(e);
                        for (i, t) in inst.iter().enumerate() {
                            if let Type::Var(v) = t
                                && let Some(at) = params.iter().position(|p| p == v)
                            {
                                let known: Vec<Type> = self
                                    .function_order
                                    .iter()
                                    .filter(|(g, _)| *g == f)
                                    .map(|(_, inst)| inst[i].clone())
                                    .collect();
                                known.iter().for_each(|k| add(&mut hints, at, k));
                            }
                        }
                    }
                }
                ExprKind::Select { map, .. } => self.map_hints(e, map, params, &mut hints),
                ExprKind::Store(s) => self.map_hints(e, &s.map, params, &mut hints),
                ExprKind::Coerce { .. } => types.push(self.canon(self.typed.type_of(e.id))),
                ExprKind::Quant(inner) => {
                    for g in inner.vars.iter() {
                        for n in g.names.iter() {
                            if let Some(Ref::Var(v)) = self.typed.referent(n) {
                                types.push(self.canon(&self.typed.symbols().var(v).ty));
                            }
                        }
                    }
                }
                _ => {}
            }
        }
        for t in &types {
            self.ctor_hints(t, params, &mut hints);
        }
        hints
    }

    fn map_hints(&mut self, e: &Expr, map: &Expr, params: &[TypeVarId], hints: &mut [Vec<Type>]) {
        let t = self.canon(self.typed.type_of(map.id));
        let Type::Map(m) = &t else { return };
        if m.type_params.is_empty() {
            return;
        }
        let key = canon(&t, &FxHashMap::default(), 0);
        let inst = self.instantiation(e);
        let Some(&pm) = self.map_index.get(&key) else { return };
        for (i, t) in inst.iter().enumerate() {
            if let Type::Var(v) = t
                && let Some(at) = params.iter().position(|p| p == v)
            {
                for known in &self.maps[pm].instances {
                    if !hints[at].contains(&known[i]) {
                        hints[at].push(known[i].clone());
                    }
                }
            }
        }
    }

    fn ctor_hints(&self, t: &Type, params: &[TypeVarId], hints: &mut [Vec<Type>]) {
        match t {
            Type::Ctor(c, args) => {
                for (i, a) in args.iter().enumerate() {
                    if let Type::Var(v) = a
                        && let Some(at) = params.iter().position(|p| p == v)
                    {
                        for known in self.ctors.get(c).into_iter().flatten() {
                            if !hints[at].contains(&known[i]) {
                                hints[at].push(known[i].clone());
                            }
                        }
                    }
                    self.ctor_hints(a, params, hints);
                }
            }
            Type::Map(m) => {
                m.args.iter().for_each(|a| self.ctor_hints(a, params, hints));
                self.ctor_hints(&m.result, params, hints);
            }
            _ => {}
        }
    }

    /// A quantifier copied with fresh binders, under the current substitution.
    fn quantifier_copy(&mut self, q: &Quantifier) -> Quantifier {
        let vars = self.binders(&q.vars);
        Quantifier {
            kind: q.kind,
            type_params: Box::new([]),
            vars,
            attrs: rewrite::attrs(self, &q.attrs),
            triggers: q
                .triggers
                .iter()
                .map(|t| Trigger { positive: t.positive, exprs: rewrite::exprs(self, &t.exprs), span: t.span })
                .collect(),
            body: rewrite::expr(self, &q.body),
        }
    }

    fn poly_quantifier(&mut self, q: &Quantifier, e: &Expr) -> Expr {
        self.met_poly_binder = true;
        if !self.copy && self.sigma.is_empty() {
            self.top_poly.push(e.id.0);
        }
        let Some(params) = self.quantifier_type_params(q) else {
            self.unsupported = true;
            return e.clone();
        };
        let mut sigma: Vec<(TypeVarId, Type)> = self.sigma.iter().map(|(v, t)| (*v, t.clone())).collect();
        sigma.sort_by_key(|(v, _)| v.0);
        let key = (e.id.0, sigma);
        let hints = self.hints(&params, q);
        if let Some((at, done)) = self.instantiated.get(&key)
            && *at == hints
        {
            return done.clone();
        }
        let mut tuples: Vec<Vec<Type>> = vec![Vec::new()];
        for h in hints.iter() {
            tuples = tuples
                .iter()
                .flat_map(|prefix| {
                    h.iter().map(move |t| {
                        let mut p = prefix.clone();
                        p.push(t.clone());
                        p
                    })
                })
                .collect();
        }
        let mut parts = Vec::new();
        for tuple in tuples {
            let mut sigma = self.sigma.clone();
            sigma.extend(params.iter().copied().zip(tuple));
            let saved_sigma = self.enter_sigma(sigma);
            let saved_copy = std::mem::replace(&mut self.copy, true);
            let copy = self.quantifier_copy(q);
            self.leave_sigma(saved_sigma);
            self.copy = saved_copy;
            parts.push(if copy.vars.is_empty() {
                copy.body
            } else {
                Expr { kind: ExprKind::Quant(Box::new(copy)), span: e.span, id: NodeId::NONE }
            });
        }
        let (op, unit) = match q.kind {
            QuantKind::Exists => (BinaryOp::Or, false),
            _ => (BinaryOp::And, true),
        };
        let done = combine(parts, op, unit, e.span);
        self.instantiated.insert(key, (hints, done.clone()));
        done
    }

    /// The type variables `q` binds; `None` when one did not resolve to a type variable.
    fn quantifier_type_params(&self, q: &Quantifier) -> Option<Vec<TypeVarId>> {
        q.type_params
            .iter()
            .map(|tp| match self.typed.referent(tp) {
                Some(Ref::TypeVar(v)) => Some(v),
                _ => None,
            })
            .collect()
    }

    /// Whether declaration `k`'s last copy is as a copy made now would be: each polymorphic
    /// quantifier it met at its top has the candidate types it was instantiated at, so
    /// [`Mono::poly_quantifier`] would give the same conjunction, and nothing else in a copy
    /// depends on the instances known. A quantifier the walk does not reach (in an attribute)
    /// counts as changed.
    fn instantiations_unchanged(&mut self, k: usize) -> bool {
        struct Unchanged<'m, 'a> {
            mono: &'m mut Mono<'a>,
            ids: &'m [u32],
            found: usize,
            same: bool,
        }
        impl crate::walk::Visitor for Unchanged<'_, '_> {
            fn expr(&mut self, e: &Expr) {
                let ExprKind::Quant(q) = &e.kind else { return };
                if !self.same || q.type_params.is_empty() || !self.ids.contains(&e.id.0) {
                    return;
                }
                self.found += 1;
                let Some(params) = self.mono.quantifier_type_params(q) else {
                    self.same = false;
                    return;
                };
                let hints = self.mono.hints(&params, q);
                self.same = matches!(self.mono.instantiated.get(&(e.id.0, Vec::new())), Some((at, _)) if *at == hints);
            }
        }
        let typed = self.typed;
        let ids = std::mem::take(&mut self.poly_met[k]);
        let mut check = Unchanged { mono: self, ids: &ids, found: 0, same: true };
        crate::walk::decl(&mut check, &typed.program.decls[k]);
        let same = check.same && check.found == ids.len();
        self.poly_met[k] = ids;
        same
    }

    /// `S_k(m)`: the field of polymorphic map value `m` for the instantiation of `e`.
    fn field_of(&mut self, e: &Expr, map: &Expr) -> Option<(usize, usize)> {
        let t = self.canon(self.typed.type_of(map.id));
        let Type::Map(m) = &t else { return None };
        if m.type_params.is_empty() {
            return None;
        }
        let inst = self.instantiation(e);
        if inst.iter().any(|t| !is_closed(t)) {
            self.unsupported = true;
            return None;
        }
        let pm = self.poly_map(&t);
        Some((pm, self.field(pm, inst)))
    }

    fn is_poly_map_value(&self, e: &Expr) -> Option<usize> {
        let t = self.canon(self.typed.type_of(e.id));
        match &t {
            Type::Map(m) if !m.type_params.is_empty() => {
                self.map_index.get(&canon(&t, &FxHashMap::default(), 0)).copied()
            }
            _ => None,
        }
    }
}

fn combine(parts: Vec<Expr>, op: BinaryOp, unit: bool, span: Span) -> Expr {
    parts
        .into_iter()
        .reduce(|a, b| Expr {
            kind: ExprKind::Binary { op, lhs: Box::new(a), rhs: Box::new(b) },
            span,
            id: NodeId::NONE,
        })
        .unwrap_or(Expr { kind: ExprKind::BoolLit(unit), span, id: NodeId::NONE })
}

impl rewrite::Rewriter for Mono<'_> {
    fn expr(&mut self, e: &Expr) -> Option<Expr> {
        if self.unsupported {
            return Some(e.clone());
        }
        if e.id.0 != NodeId::NONE.0 && e.id.index() < self.typed.typing.expr_types.len() {
            self.note_type(self.typed.type_of(e.id));
        }
        match &e.kind {
            ExprKind::Call { args, .. } => {
                let Some(Ref::Function(f)) = self.typed.resolution.refs.get(e.id).copied() else {
                    return None;
                };
                if self.typed.symbols().function(f).type_params.is_empty() {
                    return None;
                }
                let inst = self.instantiation(e);
                if inst.iter().any(|t| !is_closed(t)) {
                    self.unsupported = true;
                    return None;
                }
                let name = match self.typed.symbols().function(f).kind {
                    FunctionKind::Constructor { datatype, index } => {
                        let i = self.datatype_instance(datatype, inst);
                        self.datatypes[i].ctors[index]
                    }
                    FunctionKind::Declared => self.function_instance(f, inst),
                };
                let args = rewrite::exprs(self, args);
                Some(Expr { kind: ExprKind::Call { func: name, args }, span: e.span, id: NodeId::NONE })
            }
            ExprKind::Select { map, indexes } => {
                let (pm, k) = self.field_of(e, map)?;
                let select = self.maps[pm].fields[k].1;
                let map = rewrite::expr(self, map);
                let indexes = rewrite::exprs(self, indexes);
                let field = self.call(select, vec![map], e.span);
                Some(Expr { kind: ExprKind::Select { map: Box::new(field), indexes }, span: e.span, id: NodeId::NONE })
            }
            ExprKind::Store(s) => {
                let (pm, k) = self.field_of(e, &s.map)?;
                if has_binder(&s.map) {
                    self.unsupported = true;
                    return None;
                }
                let (_, select, update) = self.maps[pm].fields[k];
                let map = rewrite::expr(self, &s.map);
                let store = StoreExpr {
                    map: self.call(select, vec![map.clone()], e.span),
                    indexes: rewrite::exprs(self, &s.indexes),
                    value: rewrite::expr(self, &s.value),
                };
                let field = Expr { kind: ExprKind::Store(Box::new(store)), span: e.span, id: NodeId::NONE };
                Some(self.call(update, vec![map, field], e.span))
            }
            ExprKind::Binary { op: op @ (BinaryOp::Eq | BinaryOp::Neq), lhs, rhs } => {
                // Operands whose types differ once instantiated are never equal (Boogie's
                // `PolymorphicMapAndBinderSubstituter`).
                let (a, b) = (self.canon(self.typed.type_of(lhs.id)), self.canon(self.typed.type_of(rhs.id)));
                if a != b && is_closed(&a) && is_closed(&b) {
                    return Some(Expr {
                        kind: ExprKind::BoolLit(*op == BinaryOp::Neq),
                        span: e.span,
                        id: NodeId::NONE,
                    });
                }
                let pm = self.is_poly_map_value(lhs)?;
                let a = rewrite::expr(self, lhs);
                let b = rewrite::expr(self, rhs);
                // Whatever fields a later round finds: the function's definition lists them.
                let eq = self.call(self.maps[pm].equal, vec![a, b], e.span);
                Some(if *op == BinaryOp::Eq {
                    eq
                } else {
                    Expr {
                        kind: ExprKind::Unary { op: ast::UnaryOp::Not, arg: Box::new(eq) },
                        span: e.span,
                        id: NodeId::NONE,
                    }
                })
            }
            ExprKind::Is { arg, ctor } => {
                let Type::Ctor(dt, args) = self.canon(self.typed.type_of(arg.id)) else { return None };
                if !self.is_poly_datatype(dt) {
                    return None;
                }
                let i = self.datatype_instance(dt, args.to_vec());
                let symbols = self.typed.symbols();
                let ctors = symbols.type_ctors[dt.0 as usize].datatype_ctors.clone().unwrap_or_default();
                let Some(k) = ctors.iter().position(|c| symbols.function(*c).name.name == ctor.name) else {
                    self.unsupported = true;
                    return None;
                };
                let ctor = Ident::at(self.datatypes[i].ctors[k], ctor.span);
                let arg = Box::new(rewrite::expr(self, arg));
                Some(Expr { kind: ExprKind::Is { arg, ctor }, span: e.span, id: NodeId::NONE })
            }
            ExprKind::Quant(q) if q.kind == QuantKind::Lambda && !q.type_params.is_empty() => {
                self.unsupported = true;
                None
            }
            ExprKind::Quant(q) if !q.type_params.is_empty() => Some(self.poly_quantifier(q, e)),
            ExprKind::Quant(q) if self.copy => {
                let copy = self.quantifier_copy(q);
                Some(Expr { kind: ExprKind::Quant(Box::new(copy)), span: e.span, id: NodeId::NONE })
            }
            // A copy's binders, as a quantifier's.
            ExprKind::Let(l) if self.copy => {
                let vars = l
                    .vars
                    .iter()
                    .map(|v| ast::LetVar {
                        attrs: rewrite::attrs(self, &v.attrs),
                        name: Ident::at(v.name.name, v.name.span),
                    })
                    .collect();
                let copy = ast::LetExpr {
                    vars,
                    rhss: rewrite::exprs(self, &l.rhss),
                    attrs: rewrite::attrs(self, &l.attrs),
                    body: rewrite::expr(self, &l.body),
                };
                Some(Expr { kind: ExprKind::Let(Box::new(copy)), span: e.span, id: NodeId::NONE })
            }
            ExprKind::Code(_) if self.copy => {
                self.unsupported = true;
                None
            }
            _ => None,
        }
    }

    fn label(&mut self, name: &Ident) -> Ident {
        Ident::at(name.name, name.span)
    }

    fn var(&mut self, name: &Ident) -> Ident {
        Ident::at(name.name, name.span)
    }

    fn cmd(&mut self, c: &Cmd) -> Option<Vec<Cmd>> {
        if let CmdKind::ParCall { calls } = &c.kind
            && calls.iter().any(|call| self.polymorphic_callee(call).is_some())
        {
            self.unsupported = true;
        }
        if let CmdKind::Call(call) = &c.kind
            && let Some(p) = self.polymorphic_callee(call)
        {
            let name = self.call_instance(p, call);
            let mut new = rewrite::call_cmd(self, call);
            new.callee = Ident::at(name, call.callee.span);
            return Some(vec![Cmd { kind: CmdKind::Call(Box::new(new)), span: c.span }]);
        }
        if let CmdKind::Assign { lhss, .. } = &c.kind {
            for l in lhss.iter() {
                if matches!(l, AssignLhs::Select { .. })
                    && let Some(Ref::Var(v)) = self.typed.referent(lhs_root(l))
                    && has_poly_map(&self.typed.symbols().var(v).ty)
                {
                    self.unsupported = true;
                }
            }
        }
        None
    }

    fn ty(&mut self, t: &ast::Type) -> Option<ast::Type> {
        self.type_hook(t)
    }
}

impl Mono<'_> {
    fn polymorphic_callee(&self, call: &ast::CallCmd) -> Option<ProcedureId> {
        match self.typed.referent(&call.callee) {
            Some(Ref::Procedure(p)) if !self.typed.symbols().procedure(p).type_params.is_empty() => Some(p),
            _ => None,
        }
    }

    /// The instance of `p` that `call` calls.
    fn call_instance(&mut self, p: ProcedureId, call: &ast::CallCmd) -> Symbol {
        let typed = self.typed;
        let info = typed.symbols().procedure(p);
        let inst = self.call_instantiation(p, call);
        if inst.iter().any(|t| !is_closed(t)) {
            self.unsupported = true;
        }
        let name = self.procedure_instance_name(p, inst.clone());
        let inlined = self.inlining
            && typed.symbols().implementations.iter().any(|i| {
                i.procedure == Some(p)
                    && match &typed.program.decls[i.decl.0 as usize] {
                        Decl::Procedure(d) => d.attrs.iter().any(|a| a.key == "inline"),
                        Decl::Implementation(d) => {
                            d.attrs.iter().any(|a| a.key == "inline")
                                || match &typed.program.decls[info.decl.0 as usize] {
                                    Decl::Procedure(pd) => pd.attrs.iter().any(|a| a.key == "inline"),
                                    _ => false,
                                }
                        }
                        _ => false,
                    }
            });
        if inlined {
            self.with_body.insert((p, inst));
        }
        name
    }

    /// The type arguments of `call` of polymorphic procedure `p`, under the current
    /// substitution: its in-parameters' types matched against the arguments' and its
    /// out-parameters' against the targets'.
    fn call_instantiation(&mut self, p: ProcedureId, call: &ast::CallCmd) -> Vec<Type> {
        let typed = self.typed;
        let info = typed.symbols().procedure(p);
        let mut found = FxHashMap::default();
        let mut pairs: Vec<(Type, Type)> = Vec::new();
        for (v, a) in info.ins.iter().zip(call.args.iter()) {
            pairs.push((typed.symbols().var(*v).ty.clone(), self.canon(typed.type_of(a.id))));
        }
        for (v, o) in info.outs.iter().zip(call.outs.iter()) {
            match typed.referent(o) {
                Some(Ref::Var(w)) => {
                    pairs.push((typed.symbols().var(*v).ty.clone(), self.canon(&typed.symbols().var(w).ty)))
                }
                _ => self.unsupported = true,
            }
        }
        for (pattern, actual) in &pairs {
            if !match_type(&canon(pattern, &FxHashMap::default(), 0), actual, &info.type_params, &mut found) {
                self.unsupported = true;
            }
        }
        if info.type_params.iter().any(|v| !found.contains_key(v)) {
            self.unsupported = true;
        }
        info.type_params.iter().map(|v| found.get(v).cloned().unwrap_or(Type::Int)).collect()
    }

    /// The round's declarations, with each polymorphic map's type, selectors, updates and
    /// their axioms added.
    fn finish(mut self, mut decls: Vec<Decl>) -> Vec<Decl> {
        let span = Span { file: crate::ast::FileId(0), start: 0, end: 0 };
        let span = decls.first().map_or(span, |d| d.span());
        for name in &self.fresh_types {
            decls.push(Decl::Type(Box::new(ast::TypeDecl {
                attrs: Box::new([]),
                name: Ident::at(*name, span),
                params: Box::new([]),
                synonym: None,
                span,
            })));
        }
        for m in 0..self.maps.len() {
            let name = self.maps[m].name;
            decls.push(Decl::Type(Box::new(ast::TypeDecl {
                attrs: Box::new([]),
                name: Ident::at(name, span),
                params: Box::new([]),
                synonym: None,
                span,
            })));
            let sort = || ast::Type::new(TypeKind::Named { name: Ident::at(name, span), args: Box::new([]) }, span);
            let fields = self.maps[m].fields.clone();
            let field_types: Vec<ast::Type> = fields.iter().map(|(t, _, _)| self.ast_type(t, span)).collect();
            let param =
                |n: &str, ty: ast::Type| FnParam { attrs: Box::new([]), name: Some(Ident::new(n, span)), ty, span };
            let unnamed = |ty: ast::Type| FnParam { attrs: Box::new([]), name: None, ty, span };
            let function = |name: Symbol, params: Vec<FnParam>, result: FnParam, body: Option<Expr>| {
                Decl::Function(Box::new(FunctionDecl {
                    revealed: false,
                    attrs: Box::new([]),
                    name: Ident::at(name, span),
                    type_params: Box::new([]),
                    params: params.into(),
                    result,
                    returns_form: false,
                    body,
                    uses: None,
                    span,
                }))
            };
            for (k, (_, select, update)) in fields.iter().enumerate() {
                decls.push(function(*select, vec![param("m", sort())], unnamed(field_types[k].clone()), None));
                decls.push(function(
                    *update,
                    vec![param("m", sort()), param("v", field_types[k].clone())],
                    unnamed(sort()),
                    None,
                ));
            }
            let var = |n: &str| Expr { kind: ExprKind::Var(Ident::new(n, span)), span, id: NodeId::NONE };
            let call = |f: Symbol, args: Vec<Expr>| Expr {
                kind: ExprKind::Call { func: f, args: args.into() },
                span,
                id: NodeId::NONE,
            };
            let eq = |lhs: Expr, rhs: Expr| Expr {
                kind: ExprKind::Binary { op: BinaryOp::Eq, lhs: Box::new(lhs), rhs: Box::new(rhs) },
                span,
                id: NodeId::NONE,
            };
            let group = |n: &str, ty: ast::Type| VarGroup {
                attrs: Box::new([]),
                names: Box::new([Ident::new(n, span)]),
                ty,
                where_clause: None,
                span,
            };
            // An update sets its own field and keeps the others: one axiom per update.
            for (k, (_, _, update)) in fields.iter().enumerate() {
                let updated = call(*update, vec![var("m"), var("v")]);
                let parts = fields
                    .iter()
                    .enumerate()
                    .map(|(j, (_, select, _))| {
                        let rhs = if j == k { var("v") } else { call(*select, vec![var("m")]) };
                        eq(call(*select, vec![updated.clone()]), rhs)
                    })
                    .collect();
                let q = Quantifier {
                    kind: QuantKind::Forall,
                    type_params: Box::new([]),
                    vars: Box::new([group("m", sort()), group("v", field_types[k].clone())]),
                    attrs: Box::new([]),
                    triggers: Box::new([Trigger { positive: true, exprs: Box::new([updated]), span }]),
                    body: combine(parts, BinaryOp::And, true, span),
                };
                decls.push(Decl::Axiom(Box::new(AxiomDecl {
                    hideable: false,
                    attrs: Box::new([]),
                    expr: Expr { kind: ExprKind::Quant(Box::new(q)), span, id: NodeId::NONE },
                    span,
                })));
            }
            // `==`: every field equal (Boogie's datatype equality), a function defined by its
            // body, so that each comparison is one application however many fields there are.
            let body = combine(
                fields
                    .iter()
                    .map(|(_, select, _)| eq(call(*select, vec![var("a")]), call(*select, vec![var("b")])))
                    .collect(),
                BinaryOp::And,
                true,
                span,
            );
            decls.push(function(
                self.maps[m].equal,
                vec![param("a", sort()), param("b", sort())],
                unnamed(ast::Type::new(TypeKind::Bool, span)),
                Some(body),
            ));
        }
        decls
    }
}

/// Binds `params` in `pattern` so that it equals `actual`; false when they cannot match.
pub(super) fn match_type(
    pattern: &Type,
    actual: &Type,
    params: &[TypeVarId],
    found: &mut FxHashMap<TypeVarId, Type>,
) -> bool {
    match (pattern, actual) {
        (Type::Var(v), _) if params.contains(v) => match found.get(v) {
            Some(t) => t == actual,
            None => {
                found.insert(*v, actual.clone());
                true
            }
        },
        (Type::Ctor(c, a), Type::Ctor(d, b)) => {
            c == d && a.len() == b.len() && a.iter().zip(b.iter()).all(|(x, y)| match_type(x, y, params, found))
        }
        (Type::Map(m), Type::Map(n)) => {
            m.type_params == n.type_params
                && m.args.len() == n.args.len()
                && m.args.iter().zip(&n.args).all(|(x, y)| match_type(x, y, params, found))
                && match_type(&m.result, &n.result, params, found)
        }
        _ => pattern == actual,
    }
}

/// Whether `t` has no free type variables.
/// The synonyms that name a polymorphic datatype, directly or through other such synonyms:
/// the datatype is gone after this pass, and every use of the synonym has been expanded to
/// one of its instances (a type with a polymorphic datatype is always rewritten), so the
/// synonym goes too (`type UnitMap K = Map K Unit;` of `/lib:base`).
fn stale_synonyms(decls: &[Decl]) -> FxHashSet<Symbol> {
    fn mentions(t: &ast::Type, names: &FxHashSet<Symbol>) -> bool {
        match &t.kind {
            TypeKind::Named { name, args } => names.contains(&name.name) || args.iter().any(|a| mentions(a, names)),
            TypeKind::Map(m) => m.args.iter().any(|a| mentions(a, names)) || mentions(&m.result, names),
            _ => false,
        }
    }
    let mut stale: FxHashSet<Symbol> = decls
        .iter()
        .filter_map(|d| match d {
            Decl::Datatype(d) if !d.type_params.is_empty() => Some(d.name.name),
            _ => None,
        })
        .collect();
    let datatypes = stale.len();
    loop {
        let before = stale.len();
        for d in decls {
            if let Decl::Type(t) = d
                && let Some(expansion) = &t.synonym
                && mentions(expansion, &stale)
            {
                stale.insert(t.name.name);
            }
        }
        if stale.len() == before {
            break;
        }
    }
    if datatypes == 0 { FxHashSet::default() } else { stale }
}

fn is_closed(t: &Type) -> bool {
    fn go(t: &Type, bound: &mut Vec<TypeVarId>) -> bool {
        match t {
            Type::Var(v) => bound.contains(v),
            Type::Ctor(_, args) => args.iter().all(|a| go(a, bound)),
            Type::Map(m) => {
                let n = bound.len();
                bound.extend(m.type_params.iter().copied());
                let ok = m.args.iter().all(|a| go(a, bound)) && go(&m.result, bound);
                bound.truncate(n);
                ok
            }
            Type::Synonym(s) => go(&s.expansion, bound),
            Type::Proxy(_) => false,
            _ => true,
        }
    }
    go(t, &mut Vec::new())
}

fn written_poly_map(t: &ast::Type) -> bool {
    match &t.kind {
        TypeKind::Map(m) => {
            !m.type_params.is_empty() || m.args.iter().any(written_poly_map) || written_poly_map(&m.result)
        }
        TypeKind::Named { args, .. } => args.iter().any(written_poly_map),
        _ => false,
    }
}

/// The address that identifies a type shared by many nodes (a synonym, a map type or a
/// constructor application, by its `Rc`), which [`Mono::canon`]'s and [`Mono::note_type`]'s
/// memos are keyed by; `None` for a type without such a part.
fn shared_address(t: &Type) -> Option<usize> {
    match t {
        Type::Synonym(s) => Some(Rc::as_ptr(s) as usize),
        Type::Map(m) => Some(Rc::as_ptr(m) as usize),
        Type::Ctor(_, args) if !args.is_empty() => Some(args.as_ptr() as usize),
        _ => None,
    }
}

/// `t` with `subst` applied, synonyms expanded and the binders of map types renamed by
/// depth, so that alpha-equivalent types are equal.
pub(super) fn canon(t: &Type, subst: &FxHashMap<TypeVarId, Type>, depth: u32) -> Type {
    // Most types met are canonical already (closed, no synonym, binders named by depth): a
    // look costs no allocation, a rebuild one per node.
    if is_canonical(t, subst, depth) {
        return t.clone();
    }
    rebuild(t, subst, depth)
}

/// Whether [`canon`] would give `t` back unchanged.
fn is_canonical(t: &Type, subst: &FxHashMap<TypeVarId, Type>, depth: u32) -> bool {
    match t {
        Type::Synonym(_) | Type::Proxy(_) => false,
        Type::Var(v) => match subst.get(v) {
            None => true,
            Some(Type::Var(w)) => w.0 == v.0 && w.0 >= CANON_BASE,
            Some(_) => false,
        },
        Type::Ctor(_, args) => args.iter().all(|a| is_canonical(a, subst, depth)),
        Type::Map(m) => {
            let named_by_depth =
                m.type_params.iter().enumerate().all(|(i, p)| p.0 == CANON_BASE + depth * 64 + i as u32);
            let depth = if m.type_params.is_empty() { depth } else { depth + 1 };
            named_by_depth
                && m.args.iter().all(|a| is_canonical(a, subst, depth))
                && is_canonical(&m.result, subst, depth)
        }
        _ => true,
    }
}

fn rebuild(t: &Type, subst: &FxHashMap<TypeVarId, Type>, depth: u32) -> Type {
    match t.expanded() {
        Type::Var(v) => match subst.get(v) {
            Some(Type::Var(w)) if w.0 >= CANON_BASE => Type::Var(*w),
            Some(t) => canon(t, &FxHashMap::default(), depth),
            None => Type::Var(*v),
        },
        Type::Ctor(c, args) => Type::Ctor(*c, args.iter().map(|a| canon(a, subst, depth)).collect()),
        Type::Map(m) => {
            let mut inner = subst.clone();
            let mut params = Vec::with_capacity(m.type_params.len());
            for (i, p) in m.type_params.iter().enumerate() {
                let id = TypeVarId(CANON_BASE + depth * 64 + i as u32);
                inner.insert(*p, Type::Var(id));
                params.push(id);
            }
            let subst = if params.is_empty() { subst } else { &inner };
            let depth = if params.is_empty() { depth } else { depth + 1 };
            Type::Map(Rc::new(MapType {
                type_params: params,
                args: m.args.iter().map(|a| canon(a, subst, depth)).collect(),
                result: canon(&m.result, subst, depth),
            }))
        }
        other => other.clone(),
    }
}

/// A type as part of an instance name.
pub(super) fn type_name(t: &Type) -> String {
    match t {
        Type::Bool => "bool".into(),
        Type::Int => "int".into(),
        Type::Real => "real".into(),
        Type::Bv(n) => format!("bv{n}"),
        Type::Float { significand, exponent } => format!("float{significand}e{exponent}"),
        Type::RMode => "rmode".into(),
        Type::String => "string".into(),
        Type::RegEx => "regex".into(),
        Type::Ctor(c, args) => {
            let mut s = format!("T{}", c.0);
            for a in args.iter() {
                s.push('_');
                s.push_str(&type_name(a));
            }
            s
        }
        Type::Map(m) => {
            let args: Vec<String> = m.args.iter().map(type_name).collect();
            format!("Map${}${}$", args.join("$"), type_name(&m.result))
        }
        Type::Var(v) => format!("V{}", v.0),
        Type::Synonym(s) => type_name(&s.expansion),
        Type::Proxy(_) => "P".into(),
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::passes::tests::typed;

    /// `text` after monomorphization, printed; `None` when the pass left it as it was.
    fn mono(text: &str) -> Option<String> {
        let program = run(&typed(text), true).unwrap_or_else(|e| panic!("monomorphizes: {e:?}"))?;
        let printed = crate::printer::print_program(&program, &Default::default());
        // What the pass guarantees: no type parameters left, and a program that checks again.
        assert!(!printed.contains("<T>") && !printed.contains("forall<"), "{printed}");
        let again = crate::printer::print_program(&typed(&printed).program, &Default::default());
        assert_eq!(printed, again);
        Some(printed)
    }

    fn lines(printed: &str, prefix: &str) -> Vec<String> {
        printed.lines().filter(|l| l.starts_with(prefix)).map(str::to_string).collect()
    }

    #[test]
    fn a_function_used_at_two_types_gets_two_instances() {
        let printed =
            mono("function Id<T>(x: T): T;\nprocedure P() { assert Id(1) == 1; assert Id(true); }\n").expect("changes");
        assert_eq!(
            lines(&printed, "function"),
            ["function Id_int(x: int) : int;", "function Id_bool(x: bool) : bool;"]
        );
        assert!(printed.contains("    assert Id_int(1) == 1;\n    assert Id_bool(true);\n"), "{printed}");
    }

    #[test]
    fn unused_polymorphic_functions_disappear() {
        let printed =
            mono("function Unused<T>(x: T): T;\nfunction G<T>(x: T): bool;\nprocedure P() { assert G(1); }\n")
                .expect("changes");
        assert_eq!(lines(&printed, "function"), ["function G_int(x: int) : bool;"]);
    }

    #[test]
    fn a_quantifier_over_types_becomes_the_conjunction_of_its_instances() {
        let text = "function F<T>(x: T): int;\naxiom (forall<T> x: T :: F(x) >= 0);\n\
            procedure P() { assert F(3) >= 0; assert F(false) >= 0; }\n";
        let printed = mono(text).expect("changes");
        assert_eq!(
            lines(&printed, "axiom"),
            ["axiom (forall x: int :: F_int(x) >= 0) && (forall x: bool :: F_bool(x) >= 0);"]
        );
    }

    #[test]
    fn function_bodies_are_instantiated() {
        let text =
            "function {:inline} Same<T>(x: T): bool { x == x }\nprocedure P() { assert Same(1); assert Same(2); }\n";
        let printed = mono(text).expect("changes");
        assert!(printed.starts_with("function {:inline} Same_int(x: int) : bool\n{\n  x == x\n}\n"), "{printed}");
        assert_eq!(printed.matches("function").count(), 1, "{printed}");
    }

    #[test]
    fn a_polymorphic_map_becomes_one_map_per_instance() {
        let text = "var m: <T>[T]T;\n\
            procedure P() modifies m; { m[1] := 2; m[true] := false; assert m[1] == 2; }\n";
        let printed = mono(text).expect("changes");
        assert!(printed.starts_with("var m: PolymorphicMapType_0;\n"), "{printed}");
        assert!(
            printed.contains("    m := PolymorphicMapType_0_int_update(m, PolymorphicMapType_0_int(m)[1 := 2]);\n"),
            "{printed}"
        );
        assert!(printed.contains("    assert PolymorphicMapType_0_int(m)[1] == 2;\n"), "{printed}");
        assert_eq!(
            lines(&printed, "function"),
            [
                "function PolymorphicMapType_0_int(m: PolymorphicMapType_0) : [int]int;",
                "function PolymorphicMapType_0_int_update(m: PolymorphicMapType_0, v: [int]int) : PolymorphicMapType_0;",
                "function PolymorphicMapType_0_bool(m: PolymorphicMapType_0) : [bool]bool;",
                "function PolymorphicMapType_0_bool_update(m: PolymorphicMapType_0, v: [bool]bool) : PolymorphicMapType_0;",
                "function PolymorphicMapType_0_equal(a: PolymorphicMapType_0, b: PolymorphicMapType_0) : bool",
            ]
        );
        // An update changes its own field and no other: one axiom per update.
        assert_eq!(lines(&printed, "axiom").len(), 2);
    }

    #[test]
    fn equality_of_polymorphic_maps_is_one_application() {
        let text = "type M = <a>[int]a;\nprocedure P(x: M, y: M) { assert x == y; assert x != y[1 := true]; }\n";
        let printed = mono(text).expect("changes");
        assert!(printed.contains("    assert PolymorphicMapType_0_equal(x, y);\n"), "{printed}");
        assert!(
            printed.contains(
                "    assert !PolymorphicMapType_0_equal(x, PolymorphicMapType_0_bool_update(y, PolymorphicMapType_0_bool(y)[1 := true]));\n"
            ),
            "{printed}"
        );
        // Defined once, over every field.
        assert!(
            printed.contains("function PolymorphicMapType_0_equal(a: PolymorphicMapType_0, b: PolymorphicMapType_0) : bool\n{\n  PolymorphicMapType_0_bool(a) == PolymorphicMapType_0_bool(b)\n}\n"),
            "{printed}"
        );
    }

    #[test]
    fn a_polymorphic_procedure_is_instantiated_at_its_calls() {
        let text = "procedure Q<T>(x: T) returns (y: T);\nprocedure P() { var i: int; call i := Q(3); }\n";
        let printed = mono(text).expect("changes");
        assert!(printed.contains("    call i := Q_int(3);\n"), "{printed}");
        assert_eq!(lines(&printed, "procedure Q"), ["procedure Q_int(x: int) returns (y: int);"]);
    }

    #[test]
    fn a_polymorphic_datatype_becomes_one_datatype_per_instance() {
        let text = "datatype List<T> { nil(), cons(hd: T, tl: List T) }\n\
            procedure P() { var l: List int; l := cons(1, nil()); assert l->hd == 1; }\n";
        let printed = mono(text).expect("changes");
        assert!(
            printed.starts_with("datatype List_int {\n  nil_int(),\n  cons_int(hd: int, tl: List_int)\n}\n"),
            "{printed}"
        );
        assert!(printed.contains("    l := cons_int(1, nil_int());\n"), "{printed}");
    }

    #[test]
    fn monomorphic_programs_are_left_alone() {
        assert_eq!(mono("function f(x: int): int;\nprocedure P() { assert f(1) == f(1); }\n"), None);
    }

    #[test]
    fn an_expanding_type_cycle_is_refused() {
        let text = "type Box _;\nfunction box<T>(x: T): Box T;\nfunction f<T>(x: T): bool { f(box(x)) }\n\
            procedure P() { assert f(1); }\n";
        match run(&typed(text), true) {
            Err(PassError::Fatal(m)) => {
                assert_eq!(m, "Unable to monomorphize input program: expanding type cycle detected")
            }
            other => panic!("{other:?}"),
        }
    }
}
