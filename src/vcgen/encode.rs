//! Boogie's types, declarations and expressions as SMT-LIB 2.6 text.
//!
//! Expects a type-checked program. Guarantees declarations before use: sorts, then functions
//! and constants, then axioms ([`Encoder::prelude`]); what an implementation's encoding needs
//! beyond that (a sort first seen in a local's type) accumulates in [`Encoder::take_new_decls`]
//! and goes out before the implementation's scope is pushed.
//!
//! The encoding (Boogie's monomorphic SMT-LIB encoding, as far as this generator goes):
//! `int`/`real`/`bool`/`bvN` as SMT-LIB's sorts; user types as uninterpreted sorts (one per
//! instance of a type constructor); monomorphic maps as nested arrays (`[A,B]R` is
//! `(Array A (Array B R))`, sound and complete for Boogie's map semantics); `{:builtin}` and
//! `{:bvbuiltin}` functions as the named SMT-LIB operator; `{:inline}` functions expanded at
//! each use; `{:define}` functions as `define-fun`; other function bodies as Boogie's
//! definition axiom `forall xs :: {f(xs)} f(xs) == body`; `unique` constants as `distinct`
//! per type; monomorphic datatypes as SMT-LIB datatypes ([`Encoder::datatype_decls`], field
//! access and update as Boogie's `FieldAccess` has them); floats as [`super::float`] says;
//! code expressions as Boogie's VC of their blocks ([`super::codeexpr`]). Polymorphism,
//! polymorphic datatypes (the monomorphization pass instantiates them), lambdas and strings
//! are [`Unsupported`] for now.
//!
//! Pools: in an implementation (not in the prelude), a quantifier with `{:pool}` variables or
//! `{:add_to_pool}` and an assertion or assumption with `{:add_to_pool}` carry SMT-LIB
//! annotations for [`super::instantiate`], which removes them.
//!
//! Names: constants and functions by their Boogie names, quoted (`|x|`); bound variables as
//! `|x!N|` (`!` never occurs in Boogie identifiers, so these cannot clash); variables'
//! incarnations are named by the caller through [`Env`].

use rustc_hash::{FxHashMap, FxHashSet};
use std::fmt::Write;

use super::Unsupported;
use crate::ast::{
    ArithCoercion, AttrParam, Attribute, BinaryOp, BlockTail, CmdKind, Decl, Expr, ExprKind, FunctionDecl, LoopSpec,
    QuantKind, Quantifier, StmtList, Trigger, UnaryOp, VarGroup,
};
use crate::ast::{Span, Symbol};
use crate::typeck::{FunctionId, FunctionKind, Ref, Type, TypeCtorId, TypedProgram, VarId, VarKind};

/// Where the encoder finds the current (or old) incarnation of a program variable.
pub trait Env {
    fn var(&self, v: VarId, old: bool) -> Option<String>;
}

/// An environment with no variables (axioms, function bodies).
pub struct NoVars;

impl Env for NoVars {
    fn var(&self, _: VarId, _: bool) -> Option<String> {
        None
    }
}

pub(super) struct Ctx {
    /// Applications of `{:never_pattern}` functions met, for `:no-pattern` (Boogie never
    /// picks them as triggers; without this z3 would).
    never_patterns: Vec<String>,
    old: bool,
    /// Bound variables and substituted formals.
    pub(super) bound: FxHashMap<VarId, String>,
    /// Boogie's `isPositiveContext`: false inside an assertion's expression, flipped under
    /// `!` and on the left of `==>`. Only code expressions read it (their VC is negated in a
    /// positive context).
    pub(super) positive: bool,
}

impl Ctx {
    fn new(old: bool, bound: FxHashMap<VarId, String>) -> Ctx {
        Ctx { never_patterns: Vec::new(), old, bound, positive: true }
    }
}

pub struct Encoder<'p> {
    pub typed: &'p TypedProgram,
    /// Sorts declared so far.
    declared_sorts: FxHashSet<String>,
    new_decls: String,
    /// Functions by what a call becomes: `None` when the function is unsupported.
    function_names: FxHashMap<FunctionId, String>,
    /// The attributes of the assertions, assumptions and invariants that carry
    /// `{:add_to_pool}`, by the address of their expression: what [`Encoder::expr`] annotates
    /// for [`super::instantiate`].
    command_pools: FxHashMap<usize, &'p [Attribute]>,
    /// Whether quantifiers and commands get the `:rboogie-pools` and `:rboogie-add-to-pool`
    /// annotations [`super::instantiate`] reads and removes (not in the prelude: Boogie
    /// instantiates quantifiers of an implementation's VC only).
    annotate_pools: bool,
    /// Every pool a `{:pool}` bound variable named so far, with the sorts of those variables
    /// (Boogie's `labelToTypes`), keyed by the label as an SMT-LIB string literal.
    pool_sorts: FxHashMap<String, FxHashSet<String>>,
    /// The definition axioms of lifted lambdas whose bound variables all have pools, as
    /// annotated quantifiers (see [`Encoder::lambda_definitions`]).
    lambda_definitions: Vec<String>,
    /// Datatypes whose declaration the solver cannot be given (a field of a sort the encoder
    /// refuses): their values are refused too.
    refused_datatypes: FxHashSet<TypeCtorId>,
    /// Code expressions encoded so far (they number their bound variables).
    pub(super) code_exprs: u32,
    /// Under `/prune`, the axioms [`super::prune`] may leave out, by origin, as `assert`
    /// commands: the prelude then holds the others only.
    prunable_axioms: Option<Vec<(super::prune::AxiomKey, String)>>,
    /// Maps of several arguments as Z3's arrays of several indexes, `(Array A B R)` with
    /// `(select m i j)` (Boogie's encoding, which Z3 reads and its models print as functions
    /// of several arguments); otherwise as nested arrays `(Array A (Array B R))`, the form
    /// SMT-LIB 2.6 and cvc5 read. Set by [`Encoder::multi_index_arrays`].
    multi_index: bool,
    /// Boogie's map operators (`{:builtin "MapAdd"}`, ...) as functions of their own, each
    /// defined pointwise by an axiom ([`Encoder::portable_map_operators`]), instead of Z3's
    /// `(_ map f)`, which only Z3 reads.
    portable_map_ops: bool,
    /// The functions made for map operators so far, by the operator and its sorts.
    map_ops: FxHashMap<String, String>,
    /// Their declarations, not yet given out (in the prelude after the datatypes, whose sorts
    /// an operator's may be, and before the functions, whose `define-fun` bodies may apply
    /// them).
    map_op_decls: String,
    /// Their definition axioms, not yet given out.
    map_op_axioms: String,
    /// `/trackVerificationCoverage`: an axiom with an `{:id}` is asserted under a literal of
    /// its own ([`Encoder::axiom_tracks`]).
    track_axioms: bool,
    axiom_tracks: Vec<(String, String)>,
}

pub use crate::smt::names::quote;

/// The sort of a type named `name`: Boogie's `T@name` (z3 then names its elements
/// `T@name!val!N`, as Boogie's models show them).
pub fn sort_name(name: &str) -> String {
    quote(&format!("T@{name}"))
}

/// Whether `q` is the definition axiom the lambda pass gives a lifted lambda,
/// `forall holes.., vars.. :: {lambda#N(holes..)[vars..]} ..`, with a `{:pool}` on a variable.
fn is_pooled_lambda_definition(q: &Quantifier) -> bool {
    let [Trigger { positive: true, exprs, .. }] = &q.triggers[..] else { return false };
    let [Expr { kind: ExprKind::Select { map, .. }, .. }] = &exprs[..] else { return false };
    let map = match &map.kind {
        ExprKind::Coerce { arg, .. } => arg,
        _ => map,
    };
    q.kind == QuantKind::Forall
        && matches!(&map.kind, ExprKind::Call { func, .. } if func.as_str().starts_with("lambda#"))
        && q.vars.iter().any(|g| g.attrs.iter().any(|a| a.key == "pool"))
}

/// `{:key}` or `{:key true}`.
pub fn find_bool_attribute(attrs: &[crate::ast::Attribute], key: &str) -> bool {
    attrs.iter().any(|a| {
        a.key == key
            && (a.params.is_empty()
                || matches!(&a.params[..], [AttrParam::Expr(Expr { kind: ExprKind::BoolLit(true), .. })]))
    })
}

/// Boogie's `CheckIntAttribute`: the value of `{:key N}`, when its parameter is a literal.
pub fn int_attr(attrs: &[crate::ast::Attribute], key: &str) -> Option<i64> {
    attrs.iter().filter(|a| a.key == key).find_map(|a| match &a.params[..] {
        [AttrParam::Expr(Expr { kind: ExprKind::IntLit(n), .. })] => n.parse().ok(),
        _ => None,
    })
}

pub fn string_attr<'e>(attrs: &'e [crate::ast::Attribute], key: &str) -> Option<&'e str> {
    attrs.iter().find(|a| a.key == key).and_then(|a| match a.params.first() {
        Some(AttrParam::Str(s, _)) => Some(s.as_str()),
        _ => None,
    })
}

impl<'p> Encoder<'p> {
    pub fn new(typed: &'p TypedProgram) -> Encoder<'p> {
        Encoder {
            typed,
            declared_sorts: FxHashSet::default(),
            new_decls: String::new(),
            function_names: FxHashMap::default(),
            command_pools: command_pools(typed),
            annotate_pools: true,
            pool_sorts: FxHashMap::default(),
            lambda_definitions: Vec::new(),
            refused_datatypes: FxHashSet::default(),
            code_exprs: 0,
            prunable_axioms: None,
            multi_index: false,
            portable_map_ops: false,
            map_ops: FxHashMap::default(),
            map_op_decls: String::new(),
            map_op_axioms: String::new(),
            track_axioms: false,
            axiom_tracks: Vec::new(),
        }
    }

    /// Under `/prune`: [`Encoder::prelude`] keeps the program's axioms (those of `axiom`
    /// declarations, `uses` clauses and function definitions) for [`Encoder::prunable_axioms`].
    /// `/trackVerificationCoverage`: see [`Encoder::axiom_tracks`].
    pub fn track_axioms(&mut self) {
        self.track_axioms = true;
    }

    /// The literals of the axioms with an `{:id}` and their ids, under
    /// [`Encoder::track_axioms`]: each such axiom `A` is asserted as `l ==> A` (Boogie's
    /// `NamedAssumeOp`), and a check assumes every `l`.
    pub fn axiom_tracks(&self) -> &[(String, String)] {
        &self.axiom_tracks
    }

    pub fn keep_axioms_apart(&mut self) {
        self.prunable_axioms = Some(Vec::new());
    }

    /// The axioms the prelude left out, in program order, by origin.
    pub fn prunable_axioms(&self) -> &[(super::prune::AxiomKey, String)] {
        self.prunable_axioms.as_deref().unwrap_or_default()
    }

    /// An axiom's `assert` command: into the prelude's axioms, or kept apart under `/prune`.
    fn push_axiom(&mut self, axioms: &mut String, key: super::prune::AxiomKey, command: String) {
        match &mut self.prunable_axioms {
            Some(apart) => apart.push((key, command)),
            None => axioms.push_str(&command),
        }
    }

    /// The pools `{:pool}` variables met so far name, with their sorts (see
    /// [`super::instantiate`]).
    pub fn pool_sorts(&self) -> &FxHashMap<String, FxHashSet<String>> {
        &self.pool_sorts
    }

    /// The definition axioms of the lifted lambdas whose own bound variables all have
    /// `{:pool}`s (Boogie's `BindLambdaFunction`), each a quantifier
    /// `(forall (holes.. vars..) (! (= (select (lambda#N holes..) vars..) body) :pattern ..
    /// :rboogie-pools (..)))`: [`super::instantiate`] instantiates them at the lambda's
    /// applications in a VC and its pools' terms.
    pub fn lambda_definitions(&self) -> &[String] {
        &self.lambda_definitions
    }

    /// Records the lambda definitions among the conjuncts of axiom `e` (monomorphization
    /// joins a polymorphic axiom's instances with `&&`).
    fn record_lambda_definitions(&mut self, e: &'p Expr) -> Result<(), Unsupported> {
        match &e.kind {
            ExprKind::Binary { op: BinaryOp::And, lhs, rhs } => {
                self.record_lambda_definitions(lhs)?;
                self.record_lambda_definitions(rhs)
            }
            ExprKind::Quant(q) if is_pooled_lambda_definition(q) => {
                let annotate = std::mem::replace(&mut self.annotate_pools, true);
                let text = self.expr(e, &NoVars);
                self.annotate_pools = annotate;
                self.lambda_definitions.push(text?);
                Ok(())
            }
            _ => Ok(()),
        }
    }

    /// ` :rboogie-add-to-pool ("L" (sort term) ...)` for each `{:add_to_pool "L", e...}` in
    /// `attrs`, the terms encoded in `ctx`.
    fn add_to_pool_annotations(
        &mut self,
        attrs: &[Attribute],
        env: &dyn Env,
        ctx: &mut Ctx,
    ) -> Result<String, Unsupported> {
        let mut out = String::new();
        for a in attrs.iter().filter(|a| a.key == "add_to_pool" && a.params.len() > 1) {
            let Some(AttrParam::Str(label, _)) = a.params.first() else { continue };
            let mut terms = Vec::new();
            for p in &a.params[1..] {
                // A term whose type was never inferred is no pool term (Boogie's
                // `InstantiationSourceChecker` needs its type).
                if let AttrParam::Expr(e) = p
                    && !matches!(self.typed.type_of(e.id).expanded(), Type::Proxy(_))
                {
                    let sort = self.sort(self.typed.type_of(e.id))?;
                    terms.push(format!("({sort} {})", self.ex(e, env, ctx)?));
                }
            }
            if !terms.is_empty() {
                let _ = write!(out, " :rboogie-add-to-pool ({} {})", smt_string(label), terms.join(" "));
            }
        }
        Ok(out)
    }

    /// How many code expressions were encoded so far.
    pub fn code_exprs_encoded(&self) -> u32 {
        self.code_exprs
    }

    /// Declarations made since the last call (sorts first met while encoding).
    pub fn take_new_decls(&mut self) -> String {
        let mut out = std::mem::take(&mut self.new_decls);
        out += &std::mem::take(&mut self.map_op_decls);
        out += &std::mem::take(&mut self.map_op_axioms);
        out
    }

    fn function_decl(&self, f: FunctionId) -> Option<&'p FunctionDecl> {
        let info = self.typed.symbols().function(f);
        match info.decl.map(|d| &self.typed.program.decls[d.0 as usize]) {
            Some(Decl::Function(fd)) => Some(fd),
            _ => None,
        }
    }

    // -----------------------------------------------------------------------------------------
    // Sorts

    pub fn sort(&mut self, ty: &Type) -> Result<String, Unsupported> {
        Ok(match ty.expanded() {
            Type::Bool => "Bool".into(),
            Type::Int => "Int".into(),
            Type::Real => "Real".into(),
            Type::Bv(n) => format!("(_ BitVec {n})"),
            Type::Ctor(id, _) => {
                let info = &self.typed.symbols().type_ctors[id.0 as usize];
                if info.datatype_ctors.is_some() {
                    if info.arity > 0 {
                        return Err(Unsupported::new(None, "polymorphic datatypes"));
                    }
                    if self.refused_datatypes.contains(id) {
                        return Err(Unsupported::new(None, "this datatype"));
                    }
                    // Declared in the prelude (`datatype_decls`).
                    return Ok(sort_name(&info.name.name));
                }
                if let Some(sort) = self.builtin_sort(*id, ty)? {
                    return Ok(sort);
                }
                // Named by the type, not by how it was written: `C (S a)` with `S` a synonym
                // is the sort of `C` applied to the expansion.
                let name = sort_name(&ty.deep_expanded().display(self.typed.symbols()).to_string());
                if self.declared_sorts.insert(name.clone()) {
                    let _ = writeln!(self.new_decls, "(declare-sort {name} 0)");
                }
                name
            }
            Type::Map(m) => {
                if !m.type_params.is_empty() {
                    return Err(Unsupported::new(None, "polymorphic maps"));
                }
                let mut sort = self.sort(&m.result)?;
                if self.multi_index && m.args.len() > 1 {
                    let args = m.args.iter().map(|a| self.sort(a)).collect::<Result<Vec<_>, _>>()?;
                    return Ok(format!("(Array {} {sort})", args.join(" ")));
                }
                for a in m.args.iter().rev() {
                    sort = format!("(Array {} {sort})", self.sort(a)?);
                }
                sort
            }
            Type::Var(_) => return Err(Unsupported::new(None, "polymorphism")),
            Type::Float { significand, exponent } => super::float::sort(*significand, *exponent)?,
            Type::RMode => "RoundingMode".into(),
            Type::String => "String".into(),
            // Boogie writes z3's old `(RegEx String)`; SMT-LIB 2.6's name, which both solvers read.
            Type::RegEx => "RegLan".into(),
            Type::Synonym(_) | Type::Proxy(_) => unreachable!("expanded"),
        })
    }

    /// The sort of a type constructor declared `{:builtin "..."}` (Boogie's `GetBuiltin`): the
    /// solver's own, never declared. `Seq` of one argument is SMT-LIB's `(Seq S)` (Boogie's
    /// `IsSeq`); a nullary one naming an SMT-LIB sort is that sort. Boogie prints any other
    /// as an undeclared sort the solver rejects: refused here. `None` without the attribute.
    fn builtin_sort(&mut self, id: TypeCtorId, ty: &Type) -> Result<Option<String>, Unsupported> {
        let info = &self.typed.symbols().type_ctors[id.0 as usize];
        let Some(Decl::Type(decl)) = info.decl.map(|d| &self.typed.program.decls[d.0 as usize]) else {
            return Ok(None);
        };
        let Some(builtin) = string_attr(&decl.attrs, "builtin") else { return Ok(None) };
        let Type::Ctor(_, args) = ty.expanded() else { return Ok(None) };
        match (builtin, &args[..]) {
            ("Seq", [element]) => Ok(Some(format!("(Seq {})", self.sort(element)?))),
            ("Int" | "Real" | "Bool" | "String" | "RegLan" | "RoundingMode", []) => Ok(Some(builtin.to_string())),
            _ => Err(Unsupported::new(decl.attrs.first().map(|a| a.span), format!("the builtin type \"{builtin}\""))),
        }
    }

    // -----------------------------------------------------------------------------------------
    // The program's declarations

    /// Sorts, constants, functions and axioms of the whole program, as SMT-LIB commands.
    pub fn prelude(&mut self) -> Result<String, Unsupported> {
        self.annotate_pools = false;
        let prelude = self.prelude_commands();
        self.annotate_pools = true;
        prelude
    }

    fn prelude_commands(&mut self) -> Result<String, Unsupported> {
        let typed = self.typed;
        let symbols = typed.symbols();
        let datatypes = self.datatype_decls();
        let mut decls = String::new();
        let mut axioms = String::new();
        // Constants, with `unique` ones distinct per type.
        let mut unique: Vec<(String, Vec<String>)> = Vec::new();
        for (i, info) in symbols.vars.iter().enumerate() {
            if let VarKind::Const { unique: u } = info.kind {
                // A `{:extern}` duplicate that resolution dropped for the other declaration of
                // its name is not declared: the name is the other's.
                if symbols.globals.get(&info.name.name).is_some_and(|&w| w.index() != i) {
                    continue;
                }
                let sort = self.sort(&info.ty)?;
                let name = quote(&info.name.name);
                let _ = writeln!(decls, "(declare-fun {name} () {sort})");
                if u {
                    match unique.iter_mut().find(|(s, _)| *s == sort) {
                        Some((_, names)) => names.push(name),
                        None => unique.push((sort, vec![name])),
                    }
                }
            }
        }
        for (_, names) in unique {
            if names.len() > 1 {
                let _ = writeln!(axioms, "(assert (distinct {}))", names.join(" "));
            }
        }
        // Functions: every name known before any body is encoded, so that bodies may call
        // functions declared later; `{:define}` bodies become `define-fun`s once every declared
        // function is, in an order where each comes after those it uses.
        // Boogie keeps functions and variables apart; SMT-LIB has one name space, where z3
        // overloads a function and a constant of the same name (then refuses the ambiguous
        // use) and cvc5 refuses the second declaration. A function named like a variable (of
        // any kind: a bound variable would shadow it) gets a suffix no identifier has.
        let var_names: FxHashSet<Symbol> = symbols.vars.iter().map(|v| v.name.name).collect();
        let function_name = |name: Symbol| {
            if var_names.contains(&name) { quote(&format!("{name}@@fn")) } else { quote(&name) }
        };
        let mut defined: Vec<(FunctionId, &'p FunctionDecl)> = Vec::new();
        let mut with_axiom: Vec<(FunctionId, &'p Expr)> = Vec::new();
        for (i, info) in symbols.functions.iter().enumerate() {
            let id = FunctionId(i as u32);
            if info.kind != FunctionKind::Declared || !info.type_params.is_empty() {
                continue;
            }
            let Some(fd) = self.function_decl(id) else { continue };
            if let Some(b) = typed.typing.builtins.get(&id) {
                self.function_names.insert(id, b.head());
                continue;
            }
            if find_bool_attribute(&fd.attrs, "inline") && fd.body.is_some() {
                continue;
            }
            let name = function_name(info.name.name);
            self.function_names.insert(id, name.clone());
            match &fd.body {
                Some(_) if find_bool_attribute(&fd.attrs, "define") => defined.push((id, fd)),
                body => {
                    let sorts = info.param_types.iter().map(|t| self.sort(t)).collect::<Result<Vec<_>, _>>()?;
                    let result = self.sort(&info.result)?;
                    let _ = writeln!(decls, "(declare-fun {name} ({}) {result})", sorts.join(" "));
                    if let Some(body) = body {
                        with_axiom.push((id, body));
                    }
                }
            }
        }
        let mut definitions: Vec<(String, String)> = Vec::new();
        for (id, fd) in defined {
            let info = symbols.function(id);
            let name = self.function_names[&id].clone();
            let mut ctx = self.formals_ctx(id);
            let params = self.binders(id)?;
            let result = self.sort(&info.result)?;
            let body = self.ex(fd.body.as_ref().expect("defined functions have bodies"), &NoVars, &mut ctx)?;
            definitions.push((name.clone(), format!("(define-fun {name} ({params}) {result} {body})\n")));
        }
        decls += &in_dependency_order(definitions);
        for (id, body) in with_axiom {
            // Boogie's definition axiom.
            let info = symbols.function(id);
            let name = self.function_names[&id].clone();
            let mut ctx = self.formals_ctx(id);
            let b = self.ex(body, &NoVars, &mut ctx)?;
            let command = if info.params.is_empty() {
                format!("(assert (= {name} {b}))\n")
            } else {
                let vars: Vec<String> = info.params.iter().map(|p| bound_name(typed, *p)).collect();
                let app = format!("({name} {})", vars.join(" "));
                let binders = self.binders(id)?;
                format!("(assert (forall ({binders}) (! (= {app} {b}) :pattern ({app}))))\n")
            };
            self.push_axiom(&mut axioms, super::prune::AxiomKey::Definition(info.name.name), command);
        }
        // Axioms, including those of `uses` clauses.
        for (d, decl) in typed.program.decls.iter().enumerate() {
            use super::prune::AxiomKey;
            let uses = |uses: &'p Option<Box<[crate::ast::AxiomDecl]>>| -> Vec<(AxiomKey, &'p crate::ast::AxiomDecl)> {
                let uses = uses.iter().flatten().enumerate();
                uses.map(|(k, a)| (AxiomKey::Uses(d as u32, k as u32), a)).collect()
            };
            let list = match decl {
                Decl::Axiom(a) => vec![(AxiomKey::Decl(d as u32), &**a)],
                Decl::Const(c) => uses(&c.uses),
                Decl::Function(f) => uses(&f.uses),
                _ => Vec::new(),
            };
            for (key, axiom) in list {
                let e = &axiom.expr;
                let mut t = self.expr(e, &NoVars)?;
                if self.track_axioms
                    && let Some(id) = super::coverage::id_attr(&axiom.attrs)
                {
                    // `%` is in no Boogie identifier.
                    let literal = format!("cover%ax{}", self.axiom_tracks.len());
                    let _ = writeln!(decls, "(declare-fun {literal} () Bool)");
                    t = format!("(=> {literal} {t})");
                    self.axiom_tracks.push((literal, id.to_string()));
                }
                self.push_axiom(&mut axioms, key, format!("(assert {t})\n"));
                self.record_lambda_definitions(e)?;
            }
        }
        let mut out = std::mem::take(&mut self.new_decls);
        out += &datatypes;
        out += &std::mem::take(&mut self.map_op_decls);
        out += &decls;
        out += &std::mem::take(&mut self.map_op_axioms);
        out += &axioms;
        Ok(out)
    }

    /// A context in which a function's formals are its bound variables.
    fn formals_ctx(&self, f: FunctionId) -> Ctx {
        let mut ctx = Ctx::new(false, FxHashMap::default());
        for p in &self.typed.symbols().function(f).params {
            ctx.bound.insert(*p, bound_name(self.typed, *p));
        }
        ctx
    }

    /// A function's formals as SMT-LIB binders: `(|x!1| Int) (|y!2| Bool)`.
    fn binders(&mut self, f: FunctionId) -> Result<String, Unsupported> {
        let info = self.typed.symbols().function(f);
        let mut binders = Vec::new();
        for (p, t) in info.params.iter().zip(&info.param_types) {
            binders.push(format!("({} {})", bound_name(self.typed, *p), self.sort(t)?));
        }
        Ok(binders.join(" "))
    }

    // -----------------------------------------------------------------------------------------
    // Expressions

    /// `e` as an SMT-LIB term, its variables looked up in `env`.
    /// An assertion's or assumption's expression carrying `{:add_to_pool}` comes out as
    /// `(! term :rboogie-add-to-pool ...)`, its pool terms in the same incarnations.
    pub fn expr(&mut self, e: &Expr, env: &dyn Env) -> Result<String, Unsupported> {
        self.expr_in(e, env, true)
    }

    /// [`Encoder::expr`] in Boogie's positive context (an assumption) or not (the expression
    /// an assertion checks): the two differ only where `e` holds a code expression, and
    /// [`Encoder::code_exprs_encoded`] tells whether it did.
    pub fn expr_in(&mut self, e: &Expr, env: &dyn Env, positive: bool) -> Result<String, Unsupported> {
        let mut ctx = Ctx { positive, ..Ctx::new(false, FxHashMap::default()) };
        let t = self.ex(e, env, &mut ctx)?;
        if self.annotate_pools
            && let Some(attrs) = self.command_pools.get(&(e as *const Expr as usize)).copied()
        {
            let annotations = self.add_to_pool_annotations(attrs, env, &mut ctx)?;
            if !annotations.is_empty() {
                return Ok(format!("(! {t}{annotations})"));
            }
        }
        Ok(t)
    }

    /// `e` with some variables replaced by terms (a callee's formals by the actuals).
    pub fn expr_with(
        &mut self,
        e: &Expr,
        env: &dyn Env,
        subst: &FxHashMap<VarId, String>,
        old: bool,
        positive: bool,
    ) -> Result<String, Unsupported> {
        self.ex(e, env, &mut Ctx { positive, ..Ctx::new(old, subst.clone()) })
    }

    fn args(&mut self, args: &[Expr], env: &dyn Env, ctx: &mut Ctx) -> Result<Vec<String>, Unsupported> {
        args.iter().map(|a| self.ex(a, env, ctx)).collect()
    }

    /// A binary operator's term around its left operand's text: `prefix + l + suffix`, with the
    /// right operand's text `r` inside the suffix.
    fn binary_parts(
        &mut self,
        op: BinaryOp,
        lhs: &Expr,
        rhs: &Expr,
        span: Span,
        r: String,
    ) -> Result<(String, String), Unsupported> {
        let typed = self.typed;
        // On floats, Boogie's `VCExprBinaryFloatOp` (see `super::float`).
        if let Type::Float { .. } = typed.type_of(lhs.id).expanded()
            && let Some(f) = super::float::binary_operator(op)
        {
            return Ok((format!("({f} "), format!(" {r})")));
        }
        let f = match op {
            BinaryOp::Iff | BinaryOp::Eq => "=",
            BinaryOp::Imp => "=>",
            BinaryOp::And => "and",
            BinaryOp::Or => "or",
            BinaryOp::Neq => return Ok(("(not (= ".into(), format!(" {r}))"))),
            BinaryOp::Lt => "<",
            BinaryOp::Le => "<=",
            BinaryOp::Gt => ">",
            BinaryOp::Ge => ">=",
            BinaryOp::Add => "+",
            BinaryOp::Sub => "-",
            BinaryOp::Mul => "*",
            BinaryOp::Div => "div",
            BinaryOp::Mod => "mod",
            BinaryOp::RealDiv => {
                let int = |x: &Expr| matches!(typed.type_of(x.id).expanded(), Type::Int);
                let prefix = if int(lhs) { "(/ (to_real " } else { "(/ " };
                let close = if int(lhs) { ")" } else { "" };
                let r = if int(rhs) { format!("(to_real {r})") } else { r };
                return Ok((prefix.into(), format!("{close} {r})")));
            }
            // Boogie's `real_pow`, a function its background predicates declare and nothing
            // defines: `**` is uninterpreted (so a proof never depends on what it computes).
            BinaryOp::Pow => {
                if self.declared_sorts.insert(REAL_POW_DECL.to_string()) {
                    self.new_decls.push_str(REAL_POW_DECL);
                }
                "real_pow"
            }
            BinaryOp::Subtype => return Err(Unsupported::new(Some(span), "<:")),
        };
        Ok((format!("({f} "), format!(" {r})")))
    }

    pub(super) fn ex(&mut self, e: &Expr, env: &dyn Env, ctx: &mut Ctx) -> Result<String, Unsupported> {
        let typed = self.typed;
        let unsupported = |what: &str| Err(Unsupported::new(Some(e.span), what));
        Ok(match &e.kind {
            ExprKind::BoolLit(b) => b.to_string(),
            ExprKind::IntLit(digits) => digits.to_string(),
            ExprKind::DecLit(text) => real_literal(text),
            ExprKind::BvLit { value, width } => format!("(_ bv{value} {width})"),
            ExprKind::Var(name) => {
                let Some(Ref::Var(v)) = typed.referent(name) else {
                    return unsupported("an unresolved name");
                };
                if let Some(t) = ctx.bound.get(&v) {
                    return Ok(t.clone());
                }
                match typed.symbols().var(v).kind {
                    VarKind::Const { .. } => quote(&name.name),
                    _ => match env.var(v, ctx.old) {
                        Some(t) => t,
                        None => return unsupported("a variable out of scope"),
                    },
                }
            }
            ExprKind::Call { args: arg_exprs, .. } => {
                let Some(Ref::Function(f)) = typed.resolution.refs.get(e.id).copied() else {
                    return unsupported("an unresolved function");
                };
                let info = typed.symbols().function(f);
                if !info.type_params.is_empty() {
                    return unsupported("polymorphic functions");
                }
                if let FunctionKind::Constructor { .. } = info.kind {
                    self.sort(typed.type_of(e.id))?;
                    let args = self.args(arg_exprs, env, ctx)?;
                    let name = quote(&info.name.name);
                    return Ok(if args.is_empty() { name } else { format!("({name} {})", args.join(" ")) });
                }
                let mut args = self.args(arg_exprs, env, ctx)?;
                if let Some(name) = self.function_names.get(&f).cloned() {
                    // `to_fp` of an integer (z3 reads it, as Boogie's tests write it): SMT-LIB's
                    // `to_fp` takes a real, and cvc5 refuses an integer; the same value as a real.
                    if typed.typing.builtins.get(&f).is_some_and(|b| b.name == "to_fp" && args.len() == 1)
                        && matches!(typed.type_of(arg_exprs[0].id).expanded(), Type::Int)
                    {
                        args[0] = format!("(to_real {})", args[0]);
                    }
                    let term = match typed.typing.builtins.get(&f) {
                        // A constant map of a value stays SMT-LIB's `(as const ..)` for every
                        // solver: the array theory then knows every index without an axiom to
                        // trigger (`MapConst(false) != MapConst(true)` has no index to read).
                        Some(b)
                            if b.name == "MapConst"
                                && args.len() == 1
                                && (!self.portable_map_ops || is_value(&args[0])) =>
                        {
                            self.const_map(typed.type_of(e.id), args.swap_remove(0))?
                        }
                        Some(b) => match self.map_builtin(b.name, e, arg_exprs)? {
                            Some(head) => b.apply(&head, &args),
                            // `seq.empty` is overloaded on its result sort: SMT-LIB's `as`.
                            None if b.name == "seq.empty" => {
                                format!("(as seq.empty {})", self.sort(typed.type_of(e.id))?)
                            }
                            None => b.apply(&name, &args),
                        },
                        None if args.is_empty() => name.clone(),
                        None => format!("({name} {})", args.join(" ")),
                    };
                    if !args.is_empty()
                        && let Some(fd) = self.function_decl(f)
                        && find_bool_attribute(&fd.attrs, "never_pattern")
                    {
                        ctx.never_patterns.push(term.clone());
                    }
                    term
                } else if let Some(fd) = self.function_decl(f)
                    && let Some(body) = &fd.body
                    && find_bool_attribute(&fd.attrs, "inline")
                {
                    let mut inner = Ctx { positive: ctx.positive, ..Ctx::new(false, FxHashMap::default()) };
                    for (p, a) in info.params.iter().zip(args) {
                        inner.bound.insert(*p, a);
                    }
                    self.ex(body, &super::encode::NoVars, &mut inner)?
                } else {
                    return unsupported("this function");
                }
            }
            ExprKind::Old(a) => {
                let was = ctx.old;
                ctx.old = true;
                let t = self.ex(a, env, ctx);
                ctx.old = was;
                t?
            }
            ExprKind::Arith { to, arg } => {
                let a = self.ex(arg, env, ctx)?;
                match to {
                    ArithCoercion::ToInt => format!("(to_int {a})"),
                    ArithCoercion::ToReal => format!("(to_real {a})"),
                }
            }
            ExprKind::Unary { .. } => {
                // A chain of them (`!!...!p`, thousands deep in generated code) is written front
                // to back: nesting each operand's text in the next copied the chain's text once
                // per operator (quadratic). Each `!` flips the polarity of what it applies to.
                let mut ops = Vec::new();
                let mut inner = e;
                while let ExprKind::Unary { op, arg } = &inner.kind {
                    ops.push(*op);
                    inner = arg;
                }
                let flip = ops.iter().filter(|&&op| op == UnaryOp::Not).count() % 2 == 1;
                let a = self.ex_flipped(flip, inner, env, ctx)?;
                let mut out = String::with_capacity(a.len() + 7 * ops.len());
                for op in &ops {
                    out += match op {
                        UnaryOp::Not => "(not ",
                        UnaryOp::Neg => "(- ",
                    };
                }
                out += &a;
                out.extend(std::iter::repeat_n(')', ops.len()));
                out
            }
            ExprKind::Binary { rhs, .. } if matches!(rhs.kind, ExprKind::Binary { .. }) => {
                self.right_chain(e, env, ctx)?
            }
            ExprKind::Binary { op, lhs, rhs } => {
                // A left-nested chain (`x0 + x1 + ... + xn`, as front ends and inlining make
                // them, thousands deep) is written front to back: nesting each operand's text
                // in the next would copy the chain's text once per operator (quadratic).
                let mut spine: Vec<(BinaryOp, &Expr, &Expr, Span)> = vec![(*op, &**lhs, &**rhs, e.span)];
                loop {
                    let (o, l, _, _) = spine[spine.len() - 1];
                    match &l.kind {
                        ExprKind::Binary { op, lhs, rhs } if o != BinaryOp::Imp => {
                            spine.push((*op, &**lhs, &**rhs, l.span))
                        }
                        _ => break,
                    }
                }
                let (innermost_op, bottom, _, _) = spine[spine.len() - 1];
                let text = self.ex_flipped(innermost_op == BinaryOp::Imp, bottom, env, ctx)?;
                let mut prefixes = Vec::with_capacity(spine.len());
                let mut suffixes = Vec::with_capacity(spine.len());
                for &(op, lhs, rhs, span) in spine.iter().rev() {
                    let r = self.ex(rhs, env, ctx)?;
                    let (prefix, suffix) = self.binary_parts(op, lhs, rhs, span, r)?;
                    prefixes.push(prefix);
                    suffixes.push(suffix);
                }
                let mut out = String::with_capacity(
                    text.len() + prefixes.iter().chain(&suffixes).map(String::len).sum::<usize>(),
                );
                for p in prefixes.iter().rev() {
                    out += p;
                }
                out += &text;
                for s in &suffixes {
                    out += s;
                }
                out
            }
            ExprKind::BvConcat { lhs, rhs } => {
                format!("(concat {} {})", self.ex(lhs, env, ctx)?, self.ex(rhs, env, ctx)?)
            }
            ExprKind::Extract { arg, hi, lo } => {
                let a = self.ex(arg, env, ctx)?;
                if hi <= lo {
                    return unsupported("an empty bit-vector extract");
                }
                format!("((_ extract {} {lo}) {a})", hi - 1)
            }
            ExprKind::Coerce { arg, .. } => self.ex(arg, env, ctx)?,
            ExprKind::Select { map, indexes } => {
                self.check_map(map)?;
                let m = self.ex(map, env, ctx)?;
                let idx = self.args(indexes, env, ctx)?;
                self.select(m, &idx)
            }
            ExprKind::Store(s) => {
                self.check_map(&s.map)?;
                let m = self.ex(&s.map, env, ctx)?;
                let idx = self.args(&s.indexes, env, ctx)?;
                let v = self.ex(&s.value, env, ctx)?;
                self.store(&m, &idx, v)
            }
            ExprKind::IfThenElse { .. } => {
                // An else-if chain, written front to back (as a chain of unary operators).
                let mut heads = Vec::new();
                let mut last = e;
                while let ExprKind::IfThenElse { cond, then, els } = &last.kind {
                    heads.push(format!("(ite {} {} ", self.ex(cond, env, ctx)?, self.ex(then, env, ctx)?));
                    last = els;
                }
                let tail = self.ex(last, env, ctx)?;
                let mut out =
                    String::with_capacity(heads.iter().map(String::len).sum::<usize>() + tail.len() + heads.len());
                for h in &heads {
                    out += h;
                }
                out += &tail;
                out.extend(std::iter::repeat_n(')', heads.len()));
                out
            }
            ExprKind::Let(l) => {
                let rhss = self.args(&l.rhss, env, ctx)?;
                let mut bindings = Vec::new();
                let mut saved = Vec::new();
                for (v, rhs) in l.vars.iter().zip(rhss) {
                    let Some(Ref::Var(id)) = typed.referent(&v.name) else {
                        return unsupported("an unresolved let binder");
                    };
                    let name = bound_name(typed, id);
                    bindings.push(format!("({name} {rhs})"));
                    saved.push((id, ctx.bound.insert(id, name)));
                }
                let body = self.ex(&l.body, env, ctx);
                restore(ctx, saved);
                format!("(let ({}) {})", bindings.join(" "), body?)
            }
            ExprKind::Quant(q) => {
                let kind = match q.kind {
                    QuantKind::Forall => "forall",
                    QuantKind::Exists => "exists",
                    QuantKind::Lambda => return unsupported("lambda expressions"),
                };
                if !q.type_params.is_empty() {
                    return unsupported("polymorphic quantifiers");
                }
                let mut binders = Vec::new();
                let mut saved = Vec::new();
                // Each bound variable's `{:pool}` labels, registered as Boogie's
                // `FindInstantiationHints` does.
                let mut pools = Vec::new();
                for g in q.vars.iter() {
                    let labels: Vec<String> = g
                        .attrs
                        .iter()
                        .filter(|a| a.key == "pool")
                        .flat_map(|a| a.params.iter())
                        .filter_map(|p| match p {
                            AttrParam::Str(s, _) => Some(smt_string(s)),
                            AttrParam::Expr(_) => None,
                        })
                        .collect();
                    for n in g.names.iter() {
                        let Some(Ref::Var(id)) = typed.referent(n) else {
                            return Err(Unsupported::new(Some(n.span), "an unresolved bound variable"));
                        };
                        let name = bound_name(typed, id);
                        let sort = self.sort(&typed.symbols().var(id).ty)?;
                        for l in &labels {
                            self.pool_sorts.entry(l.clone()).or_default().insert(sort.clone());
                        }
                        binders.push(format!("({name} {sort})"));
                        saved.push((id, ctx.bound.insert(id, name)));
                        pools.push(format!("({})", labels.join(" ")));
                    }
                }
                let pools = if self.annotate_pools && pools.iter().any(|p| p != "()") {
                    format!(" :rboogie-pools ({})", pools.join(" "))
                } else {
                    String::new()
                };
                let outer_never = std::mem::take(&mut ctx.never_patterns);
                let result = (|| {
                    let body = self.ex(&q.body, env, ctx)?;
                    let mut patterns = String::new();
                    let names: Vec<&str> = binders.iter().map(|b| b[1..].split(' ').next().unwrap_or("")).collect();
                    if q.triggers.iter().all(|t| !t.positive) {
                        for term in &ctx.never_patterns {
                            if names.iter().any(|n| term.contains(n)) {
                                let _ = write!(patterns, " :no-pattern {term}");
                            }
                        }
                    }
                    for t in &q.triggers {
                        let terms = self.args(&t.exprs, env, ctx)?;
                        if t.positive {
                            let _ = write!(patterns, " :pattern ({})", terms.join(" "));
                        } else {
                            for term in terms {
                                let _ = write!(patterns, " :no-pattern {term}");
                            }
                        }
                    }
                    if self.annotate_pools {
                        patterns += &pools;
                        patterns += &self.add_to_pool_annotations(&q.attrs, env, ctx)?;
                    }
                    Ok(if patterns.is_empty() {
                        format!("({kind} ({}) {body})", binders.join(" "))
                    } else {
                        format!("({kind} ({}) (! {body}{patterns}))", binders.join(" "))
                    })
                })();
                restore(ctx, saved);
                let inner = std::mem::replace(&mut ctx.never_patterns, outer_never);
                ctx.never_patterns.extend(inner);
                result?
            }
            ExprKind::FloatLit(text) => match typed.type_of(e.id).expanded() {
                Type::Float { significand, exponent } => super::float::literal(text, *significand, *exponent)
                    .map_err(|u| Unsupported::new(Some(e.span), u.what))?,
                _ => return unsupported("a float literal of no float type"),
            },
            ExprKind::RoundingMode(mode) => mode.name().to_string(),
            ExprKind::StrLit(text) => string_literal(text),
            ExprKind::Is { arg, ctor } => {
                let Some((_, ctors)) = self.datatype_of(arg)? else { return unsupported("`is` on a non-datatype") };
                let symbols = typed.symbols();
                let Some(c) = ctors.iter().find(|c| symbols.function(**c).name.name == ctor.name) else {
                    return unsupported("an unknown constructor");
                };
                let a = self.ex(arg, env, ctx)?;
                self.tester(*c, &a)
            }
            ExprKind::Field { arg, field } => {
                let Some((dt, _)) = self.datatype_of(arg)? else { return unsupported("a field of a non-datatype") };
                let a = self.ex(arg, env, ctx)?;
                match self.field_access(dt, field.name, &a) {
                    Some(t) => t,
                    None => return unsupported("an unknown field"),
                }
            }
            ExprKind::FieldUpdate(u) => {
                let Some((dt, _)) = self.datatype_of(&u.arg)? else {
                    return unsupported("a field update of a non-datatype");
                };
                let a = self.ex(&u.arg, env, ctx)?;
                let v = self.ex(&u.value, env, ctx)?;
                match self.field_update(dt, u.field.name, &a, &v) {
                    Some(t) => t,
                    None => return unsupported("an unknown field"),
                }
            }
            ExprKind::Code(c) => self.code_expr(c, env, ctx)?,
            ExprKind::BvBounds { .. } => return unsupported("bit-vector bounds"),
        })
    }

    // -----------------------------------------------------------------------------------------
    // Datatypes

    /// `declare-datatypes` for every monomorphic datatype, a command per strongly connected
    /// component of the "a field's type mentions" graph, each after those it mentions
    /// (Boogie's `PrepareDataTypes`). Constructors keep their names; the field `f` of
    /// constructor `C` is the selector `f#C`, as Boogie names it. A component with a field of
    /// a sort the encoder refuses is not declared and its datatypes are refused.
    fn datatype_decls(&mut self) -> String {
        use petgraph::graph::{DiGraph, NodeIndex};
        let symbols = self.typed.symbols();
        let datatypes: Vec<TypeCtorId> = (0..symbols.type_ctors.len())
            .map(|i| TypeCtorId(i as u32))
            .filter(|id| {
                let info = &symbols.type_ctors[id.0 as usize];
                info.datatype_ctors.is_some() && info.arity == 0
            })
            .collect();
        let node: FxHashMap<TypeCtorId, usize> = datatypes.iter().enumerate().map(|(i, d)| (*d, i)).collect();
        let mut graph: DiGraph<TypeCtorId, ()> = DiGraph::new();
        for d in &datatypes {
            graph.add_node(*d);
        }
        for (i, d) in datatypes.iter().enumerate() {
            for c in self.ctors(*d) {
                for t in &symbols.function(c).param_types {
                    let mut mentioned = Vec::new();
                    mentioned_datatypes(t, &mut mentioned);
                    for m in mentioned {
                        if let Some(&j) = node.get(&m) {
                            graph.add_edge(NodeIndex::new(i), NodeIndex::new(j), ());
                        }
                    }
                }
            }
        }
        let mut out = String::new();
        // Tarjan's order is a postorder: a component comes after those it mentions.
        for scc in petgraph::algo::tarjan_scc(&graph) {
            let members: Vec<TypeCtorId> = scc.iter().map(|n| graph[*n]).collect();
            match self.datatype_component(&members) {
                Ok(decl) => out += &decl,
                Err(_) => self.refused_datatypes.extend(members),
            }
        }
        out
    }

    fn datatype_component(&mut self, members: &[TypeCtorId]) -> Result<String, Unsupported> {
        let symbols = self.typed.symbols();
        let mut sorts = Vec::new();
        let mut bodies = Vec::new();
        for d in members {
            sorts.push(format!("({} 0)", sort_name(&symbols.type_ctors[d.0 as usize].name.name)));
            let mut ctors = Vec::new();
            for c in self.ctors(*d) {
                let info = symbols.function(c);
                let mut text = format!("({}", quote(&info.name.name));
                for (p, t) in info.params.iter().zip(&info.param_types) {
                    let selector = selector_name(&symbols.var(*p).name.name, &info.name.name);
                    let _ = write!(text, " ({selector} {})", self.sort(t)?);
                }
                text.push(')');
                ctors.push(text);
            }
            bodies.push(format!("({})", ctors.join(" ")));
        }
        Ok(format!("(declare-datatypes ({}) ({}))\n", sorts.join(" "), bodies.join(" ")))
    }

    fn ctors(&self, d: TypeCtorId) -> Vec<FunctionId> {
        self.typed.symbols().type_ctors[d.0 as usize].datatype_ctors.clone().unwrap_or_default()
    }

    /// The datatype `e`'s type is, with its constructors (its sort declared); `None` for
    /// another type.
    fn datatype_of(&mut self, e: &Expr) -> Result<Option<(TypeCtorId, Vec<FunctionId>)>, Unsupported> {
        let ty = self.typed.type_of(e.id);
        let &Type::Ctor(id, _) = ty.expanded() else { return Ok(None) };
        if self.typed.symbols().type_ctors[id.0 as usize].datatype_ctors.is_none() {
            return Ok(None);
        }
        self.sort(ty).map_err(|u| Unsupported::new(Some(e.span), &u.what))?;
        Ok(Some((id, self.ctors(id))))
    }

    /// Whether `a` was made by constructor `c`: `((_ is C) a)`. cvc5 1.0 finds no constructor
    /// in `(_ is |C|)` when `C` is no simple symbol (a name with `#` or `'`, which only the bars
    /// make a symbol), so such a constructor is tested as `a` equal to `C` applied to `a`'s own
    /// selectors (`a` itself for a constant constructor), which holds exactly when `a` is a `C`.
    fn tester(&self, c: FunctionId, a: &str) -> String {
        let symbols = self.typed.symbols();
        let info = symbols.function(c);
        let name = quote(&info.name.name);
        if is_simple_symbol(&name[1..name.len() - 1]) {
            return format!("((_ is {name}) {a})");
        }
        if info.params.is_empty() {
            return format!("(= {a} {name})");
        }
        let fields: Vec<String> = info
            .params
            .iter()
            .map(|p| format!("({} {a})", selector_name(&symbols.var(*p).name.name, &info.name.name)))
            .collect();
        format!("(= {a} ({name} {}))", fields.join(" "))
    }

    /// `a->field` (Boogie's `FieldAccess`): the selector of the first constructor with that
    /// field, unless `a` is one of the others with it, tested last to first.
    fn field_access(&self, dt: TypeCtorId, field: Symbol, a: &str) -> Option<String> {
        let symbols = self.typed.symbols();
        let accessors = symbols.accessors.get(&(dt, field))?;
        let selector = |c: FunctionId| format!("({} {a})", selector_name(&field, &symbols.function(c).name.name));
        let mut t = selector(accessors.first()?.0);
        for (c, _) in &accessors[1..] {
            t = format!("(ite {} {} {t})", self.tester(*c, a), selector(*c));
        }
        Some(t)
    }

    /// `a->(field := v)` (Boogie's `FieldAccess.Update`): `a`'s constructor rebuilt with `v`
    /// for the field, the other fields read as `a->g`; when `a` is none of the constructors
    /// with the field, the first of them.
    fn field_update(&self, dt: TypeCtorId, field: Symbol, a: &str, v: &str) -> Option<String> {
        let symbols = self.typed.symbols();
        let accessors = symbols.accessors.get(&(dt, field))?;
        let rebuilt = |(c, index): (FunctionId, usize)| -> Option<String> {
            let info = symbols.function(c);
            let mut args = Vec::new();
            for (j, p) in info.params.iter().enumerate() {
                args.push(if j == index {
                    v.to_string()
                } else {
                    self.field_access(dt, symbols.var(*p).name.name, a)?
                });
            }
            Some(format!("({} {})", quote(&info.name.name), args.join(" ")))
        };
        let mut t = rebuilt(*accessors.first()?)?;
        for &(c, index) in &accessors[1..] {
            t = format!("(ite {} {} {t})", self.tester(c, a), rebuilt((c, index))?);
        }
        Some(t)
    }

    /// A binary operation whose right operand is one too (`p ==> q ==> ...`, right-nested
    /// conjunctions), down its right spine: each level's left operand and the operator's
    /// text before the right operand, then the last right operand, then each level's closing
    /// text, in one buffer. Nesting each level's text in the next, as the recursion did,
    /// copied the chain's text once per level: quadratic in its length. The operands are
    /// encoded, and the operators' texts made, in the order the recursion made them.
    fn right_chain(&mut self, e: &Expr, env: &dyn Env, ctx: &mut Ctx) -> Result<String, Unsupported> {
        /// Where the right operand goes in the text [`Encoder::binary_parts`] makes.
        const HOLE: &str = "\u{1}";
        let mut levels: Vec<(BinaryOp, &Expr, &Expr, Span, String)> = Vec::new();
        let mut last = e;
        while let ExprKind::Binary { op, lhs, rhs } = &last.kind {
            let l = self.ex_flipped(*op == BinaryOp::Imp, lhs, env, ctx)?;
            levels.push((*op, &**lhs, &**rhs, last.span, l));
            last = rhs;
        }
        let bottom = self.ex(last, env, ctx)?;
        let mut closes = Vec::with_capacity(levels.len());
        let mut opens = Vec::with_capacity(levels.len());
        for (op, lhs, rhs, span, l) in levels.into_iter().rev() {
            let (prefix, suffix) = self.binary_parts(op, lhs, rhs, span, HOLE.to_string())?;
            let (mid, close) = suffix.split_once(HOLE).expect("the right operand has a place");
            opens.push(prefix + &l + mid);
            closes.push(close.to_string());
        }
        let mut out = String::with_capacity(bottom.len() + opens.iter().chain(&closes).map(String::len).sum::<usize>());
        for o in opens.iter().rev() {
            out += o;
        }
        out += &bottom;
        for c in &closes {
            out += c;
        }
        Ok(out)
    }

    /// `e` in the opposite context when `flip` (Boogie flips it for the operand of `!` and the
    /// left of `==>`).
    pub(super) fn ex_flipped(
        &mut self,
        flip: bool,
        e: &Expr,
        env: &dyn Env,
        ctx: &mut Ctx,
    ) -> Result<String, Unsupported> {
        ctx.positive ^= flip;
        let t = self.ex(e, env, ctx);
        ctx.positive ^= flip;
        t
    }

    /// Z3's array operators behind Boogie's `{:builtin "MapAdd"}`, ... (the function head
    /// `SMTLibLineariser.CheckMapApply` writes); `None` for other names. `MapConst` is
    /// [`Encoder::const_map`]'s, but for a solver other than Z3 when its argument is no value.
    fn map_builtin(&mut self, name: &str, call: &Expr, args: &[Expr]) -> Result<Option<String>, Unsupported> {
        if self.portable_map_ops {
            return self.portable_map_op(name, call, args);
        }
        let typed = self.typed;
        let element = |this: &mut Self, ty: &Type| -> Result<String, Unsupported> {
            match ty.expanded() {
                Type::Map(m) => this.sort(&m.result),
                _ => Err(Unsupported::new(Some(call.span), "a map operator on a non-map")),
            }
        };
        let int2 = |op: &str| format!("(_ map ({op} (Int Int) Int))");
        Ok(Some(match name {
            "MapAdd" => int2("+"),
            "MapSub" => int2("-"),
            "MapMul" => int2("*"),
            "MapDiv" => int2("div"),
            "MapMod" => int2("mod"),
            "MapGt" => int2(">"),
            "MapGe" => int2(">="),
            "MapLt" => int2("<"),
            "MapLe" => int2("<="),
            "MapEq" => {
                let Some(first) = args.first() else { return Ok(None) };
                let s = element(self, typed.type_of(first.id))?;
                format!("(_ map (= ({s} {s}) Bool))")
            }
            "MapIff" => "(_ map (= (Bool Bool) Bool))".to_string(),
            "MapOr" => "(_ map or)".to_string(),
            "MapAnd" => "(_ map and)".to_string(),
            "MapNot" => "(_ map not)".to_string(),
            "MapImp" => "(_ map =>)".to_string(),
            "MapIte" => {
                let s = element(self, typed.type_of(call.id))?;
                format!("(_ map (ite (Bool {s} {s}) {s}))")
            }
            _ => return Ok(None),
        }))
    }

    /// A map operator for a solver that does not read Z3's `(_ map f)`: a function of its
    /// own, declared once per operator and sorts, and the axiom that defines it at every
    /// index, `forall m.., i :: {F(m..)[i]} F(m..)[i] == op(m1[i], ..)` (the trigger Boogie
    /// gives a lambda's definition). Two such maps are equal by the arrays' extensionality,
    /// whose witness index the trigger then reads. `MapConst(v)` too (`F(v)[i] == v`): cvc5
    /// takes only values for SMT-LIB's `(as const ..)`. A map of several arguments is read at
    /// all of them, as the encoding has such maps (nested arrays for these solvers).
    fn portable_map_op(&mut self, name: &str, call: &Expr, args: &[Expr]) -> Result<Option<String>, Unsupported> {
        let op = match name {
            "MapAdd" => "+",
            "MapSub" => "-",
            "MapMul" => "*",
            "MapDiv" => "div",
            "MapMod" => "mod",
            "MapGt" => ">",
            "MapGe" => ">=",
            "MapLt" => "<",
            "MapLe" => "<=",
            "MapEq" | "MapIff" => "=",
            "MapOr" => "or",
            "MapAnd" => "and",
            "MapNot" => "not",
            "MapImp" => "=>",
            "MapIte" => "ite",
            // Its value at every index is its one argument (the type checker holds builtins to
            // their operators' arities).
            "MapConst" => "",
            _ => return Ok(None),
        };
        let typed = self.typed;
        let indexes_of = |t: &Type| match t.expanded() {
            Type::Map(m) if m.type_params.is_empty() => Some(m.args.clone()),
            _ => None,
        };
        let Some(indexes) = indexes_of(typed.type_of(call.id)) else {
            return Err(Unsupported::new(Some(call.span), "a map operator on a non-map"));
        };
        let mut sorts = Vec::with_capacity(args.len());
        for a in args {
            if name != "MapConst" && indexes_of(typed.type_of(a.id)).as_ref() != Some(&indexes) {
                return Err(Unsupported::new(Some(a.span), "a map operator on maps of other indexes"));
            }
            sorts.push(self.sort(typed.type_of(a.id))?);
        }
        let result = self.sort(typed.type_of(call.id))?;
        let key = format!("{name} ({}) {result}", sorts.join(" "));
        if let Some(f) = self.map_ops.get(&key) {
            return Ok(Some(f.clone()));
        }
        // `!` followed by a letter: no Boogie name, incarnation or bound variable (`x!N`).
        let f = quote(&format!("map!{name}!{}", self.map_ops.len()));
        let maps: Vec<String> = (0..sorts.len()).map(|k| format!("|m!{k}|")).collect();
        let is: Vec<String> = (0..indexes.len()).map(|k| format!("|i!{k}|")).collect();
        let mut binders: Vec<String> = maps.iter().zip(&sorts).map(|(m, s)| format!("({m} {s})")).collect();
        for (i, t) in is.iter().zip(&indexes) {
            binders.push(format!("({i} {})", self.sort(t)?));
        }
        let value = if name == "MapConst" {
            maps[0].clone()
        } else {
            let at: Vec<String> = maps.iter().map(|m| self.select(m.clone(), &is)).collect();
            format!("({op} {})", at.join(" "))
        };
        let read = self.select(format!("({f} {})", maps.join(" ")), &is);
        let _ = writeln!(self.map_op_decls, "(declare-fun {f} ({}) {result})", sorts.join(" "));
        let _ = writeln!(
            self.map_op_axioms,
            "(assert (forall ({}) (! (= {read} {value}) :pattern ({read}))))",
            binders.join(" ")
        );
        self.map_ops.insert(key, f.clone());
        Ok(Some(f))
    }

    /// The map of type `ty` that is `v` everywhere: SMT-LIB's `((as const S) v)`, and, for a
    /// map of several arguments as nested arrays, a constant array of constant arrays.
    fn const_map(&mut self, ty: &Type, v: String) -> Result<String, Unsupported> {
        let Type::Map(m) = ty.expanded() else {
            return Err(Unsupported::new(None, "a map operator on a non-map"));
        };
        if m.args.len() <= 1 || self.multi_index {
            return Ok(format!("((as const {}) {v})", self.sort(ty)?));
        }
        let mut sort = self.sort(&m.result)?;
        let mut term = v;
        for a in m.args.iter().rev() {
            sort = format!("(Array {} {sort})", self.sort(a)?);
            term = format!("((as const {sort}) {term})");
        }
        Ok(term)
    }

    fn check_map(&self, map: &Expr) -> Result<(), Unsupported> {
        match self.typed.type_of(map.id).expanded() {
            Type::Map(m) if m.type_params.is_empty() => Ok(()),
            _ => Err(Unsupported::new(Some(map.span), "polymorphic maps")),
        }
    }
}

/// `define-fun` commands, each after those whose names its text uses (names are quoted, so a
/// name's text occurs only where the function is applied). Definitions that use each other
/// stay in the given order: the solver then reports the cycle.
/// A Boogie string literal as an SMT-LIB 2.6 one. Boogie copies the text between the quotes
/// verbatim; its one escape, `\"`, is a quote, which SMT-LIB writes `""`, and a character
/// outside printable ASCII is written `\u{X}` (the form both solvers read).
fn string_literal(text: &str) -> String {
    let mut out = String::with_capacity(text.len() + 2);
    out.push('"');
    let mut chars = text.chars().peekable();
    while let Some(c) = chars.next() {
        match c {
            '\\' if chars.peek() == Some(&'"') => {
                chars.next();
                out.push_str("\"\"");
            }
            '"' => out.push_str("\"\""),
            ' '..='~' => out.push(c),
            _ => {
                let _ = write!(out, "\\u{{{:x}}}", c as u32);
            }
        }
    }
    out.push('"');
    out
}

fn in_dependency_order(definitions: Vec<(String, String)>) -> String {
    let mut out = String::new();
    let mut done = vec![false; definitions.len()];
    fn visit(i: usize, defs: &[(String, String)], done: &mut [bool], on_path: &mut Vec<usize>, out: &mut String) {
        if done[i] || on_path.contains(&i) {
            return;
        }
        on_path.push(i);
        for (j, (name, _)) in defs.iter().enumerate() {
            if j != i && defs[i].1.contains(name.as_str()) {
                visit(j, defs, done, on_path, out);
            }
        }
        on_path.pop();
        done[i] = true;
        out.push_str(&defs[i].1);
    }
    for i in 0..definitions.len() {
        visit(i, &definitions, &mut done, &mut Vec::new(), &mut out);
    }
    out
}

/// The attributes of the assertions, assumptions and loop invariants that carry
/// `{:add_to_pool}`, by the address of their expression (what `cfg` hands on to passification).
fn command_pools(typed: &TypedProgram) -> FxHashMap<usize, &[Attribute]> {
    fn add<'p>(attrs: &'p [Attribute], e: &'p Expr, out: &mut FxHashMap<usize, &'p [Attribute]>) {
        if attrs.iter().any(|a| a.key == "add_to_pool") {
            out.insert(e as *const Expr as usize, attrs);
        }
    }
    fn walk<'p>(list: &'p StmtList, out: &mut FxHashMap<usize, &'p [Attribute]>) {
        for b in list.blocks.iter() {
            for c in b.cmds.iter() {
                if let CmdKind::Assert { attrs, expr } | CmdKind::Assume { attrs, expr } = &c.kind {
                    add(attrs, expr, out);
                }
            }
            if let Some(BlockTail::While(w)) = &b.tail {
                for spec in w.invariants.iter() {
                    if let LoopSpec::Invariant { attrs, expr, .. } = spec {
                        add(attrs, expr, out);
                    }
                }
            }
            for nested in b.tail.iter().flat_map(|t| t.nested_lists()) {
                walk(nested, out);
            }
        }
    }
    let mut out = FxHashMap::default();
    for d in &typed.program.decls {
        match d {
            Decl::Implementation(i) => walk(&i.body.stmts, &mut out),
            // Boogie type-checks no attributes of requires clauses, and reads no pool terms
            // off them that way.
            Decl::Procedure(p) => {
                if let Some(body) = &p.body {
                    walk(&body.stmts, &mut out);
                }
            }
            _ => {}
        }
    }
    out
}

/// The declaration of Boogie's `real_pow` (`**`), made once per session where `**` occurs
/// (kept in [`Encoder::declared_sorts`] beside the sorts declared on first use). `real_pow` is
/// reserved ([`crate::smt::names`]), so no user's function is named so.
const REAL_POW_DECL: &str = "(declare-fun real_pow (Real Real) Real)\n";

/// Whether `term` is a literal value (a numeral, decimal, Boolean or bit-vector constant, or
/// the negation of a number): what cvc5 takes for `(as const ..)`.
fn is_value(term: &str) -> bool {
    let number = |t: &str| !t.is_empty() && t.chars().all(|c| c.is_ascii_digit() || c == '.');
    let t = term.strip_prefix("(- ").and_then(|t| t.strip_suffix(')')).unwrap_or(term);
    number(t)
        || matches!(term, "true" | "false")
        || term.starts_with("#b")
        || term.starts_with("#x")
        || (term.starts_with("(_ bv") && term[5..].chars().all(|c| c.is_ascii_digit() || c == ' ' || c == ')'))
}

/// Whether `text` is an SMT-LIB simple symbol (one that needs no bars).
fn is_simple_symbol(text: &str) -> bool {
    !text.is_empty()
        && !text.starts_with(|c: char| c.is_ascii_digit())
        && text.chars().all(|c| c.is_ascii_alphanumeric() || "~!@$%^&*_-+=<>.?/".contains(c))
}

/// The SMT-LIB selector of field `field` of constructor `ctor` (Boogie's `field#ctor`).
fn selector_name(field: &str, ctor: &str) -> String {
    quote(&format!("{field}#{ctor}"))
}

/// The datatypes a type mentions, through maps and type constructors' arguments.
fn mentioned_datatypes(t: &Type, out: &mut Vec<TypeCtorId>) {
    match t.expanded() {
        Type::Ctor(id, args) => {
            out.push(*id);
            args.iter().for_each(|a| mentioned_datatypes(a, out));
        }
        Type::Map(m) => {
            m.args.iter().for_each(|a| mentioned_datatypes(a, out));
            mentioned_datatypes(&m.result, out);
        }
        _ => {}
    }
}

/// `s` as an SMT-LIB string literal.
fn smt_string(s: &str) -> String {
    format!("\"{}\"", s.replace('"', "\"\""))
}

fn restore(ctx: &mut Ctx, saved: Vec<(VarId, Option<String>)>) {
    for (id, old) in saved.into_iter().rev() {
        match old {
            Some(t) => ctx.bound.insert(id, t),
            None => ctx.bound.remove(&id),
        };
    }
}

impl Encoder<'_> {
    /// Encodes maps of several arguments as arrays of several indexes (see the field).
    pub fn multi_index_arrays(&mut self, on: bool) {
        self.multi_index = on;
    }

    /// Encodes Boogie's map operators for solvers other than Z3 (see the field).
    pub fn portable_map_operators(&mut self, on: bool) {
        self.portable_map_ops = on;
    }

    /// `m[i, j]`, as the encoding has maps.
    pub fn select(&self, m: String, indexes: &[String]) -> String {
        if self.multi_index && indexes.len() > 1 {
            return format!("(select {m} {})", indexes.join(" "));
        }
        indexes.iter().fold(m, |t, i| format!("(select {t} {i})"))
    }

    /// `m[i, j := v]`, as the encoding has maps.
    pub fn store(&self, m: &str, indexes: &[String], v: String) -> String {
        if self.multi_index && indexes.len() > 1 {
            return format!("(store {m} {} {v})", indexes.join(" "));
        }
        store(m, indexes, v)
    }
}

/// `m[i, j := v]` on nested arrays.
pub fn store(m: &str, indexes: &[String], v: String) -> String {
    match indexes {
        [] => v,
        [i, rest @ ..] => {
            let inner = format!("(select {m} {i})");
            format!("(store {m} {i} {})", store(&inner, rest, v))
        }
    }
}

/// The variables bound by a quantifier's groups, in order.
pub fn bound_vars(typed: &TypedProgram, groups: &[VarGroup]) -> Result<Vec<VarId>, Unsupported> {
    let mut ids = Vec::new();
    for g in groups {
        for n in &g.names {
            match typed.referent(n) {
                Some(Ref::Var(id)) => ids.push(id),
                _ => return Err(Unsupported::new(Some(n.span), "an unresolved bound variable")),
            }
        }
    }
    Ok(ids)
}

/// The SMT name of a bound variable (or a function's formal).
pub fn bound_name(typed: &TypedProgram, id: VarId) -> String {
    quote(&format!("{}!{}", typed.symbols().var(id).name.name, id.0))
}

/// A `decimal` or `dec_float` literal (`1.5`, `1e5`, `2.5e-3`) as an SMT-LIB real.
fn real_literal(text: &str) -> String {
    let (mantissa, exp) = match text.split_once(['e', 'E']) {
        Some((m, e)) => (m, e.parse::<i64>().unwrap_or(0)),
        None => (text, 0),
    };
    let (int, frac) = mantissa.split_once('.').unwrap_or((mantissa, ""));
    let digits = format!("{int}{frac}");
    let digits = digits.trim_start_matches('0');
    let digits = if digits.is_empty() { "0" } else { digits };
    let scale = frac.len() as i64 - exp;
    if scale <= 0 {
        format!("{digits}{}.0", "0".repeat((-scale) as usize))
    } else {
        format!("(/ {digits}.0 1{}.0)", "0".repeat(scale as usize))
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn real_literals() {
        assert_eq!(real_literal("1.5"), "(/ 15.0 10.0)");
        assert_eq!(real_literal("1e5"), "100000.0");
        assert_eq!(real_literal("2.5e-3"), "(/ 25.0 10000.0)");
        assert_eq!(real_literal("0.0"), "(/ 0.0 10.0)");
    }

    /// What cvc5 takes in `(as const ..)`: literals only.
    #[test]
    fn literal_values() {
        for v in ["0", "12", "1.5", "(- 3)", "true", "false", "#b101", "#x1f", "(_ bv5 32)"] {
            assert!(is_value(v), "{v}");
        }
        for t in ["|n@0|", "(* 2 |n@0|)", "(- |n@0|)", "(/ 15.0 10.0)", "(_ bv5 |x|)", ""] {
            assert!(!is_value(t), "{t}");
        }
    }

    #[test]
    fn nested_stores() {
        assert_eq!(store("m", &["i".into(), "j".into()], "v".into()), "(store m i (store (select m i) j v))");
    }
}
