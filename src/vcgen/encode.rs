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
//! per type; code expressions as Boogie's VC of their blocks ([`super::codeexpr`]).
//! Polymorphism, datatypes, lambdas, floats and strings are [`Unsupported`] for now.
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
    QuantKind, StmtList, UnaryOp, VarGroup,
};
use crate::typeck::{FunctionId, FunctionKind, Ref, Type, TypedProgram, VarId, VarKind};

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
    /// Sorts declared so far (and functions declared on demand, [`Encoder::declare_once`]).
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
    /// Code expressions encoded so far (they number their bound variables).
    pub(super) code_exprs: u32,
}

/// An SMT-LIB quoted symbol. Quoting does not make a symbol new (`|store|` is `store`), so a
/// name that SMT-LIB or a solver reserves gets Boogie's `q@` prefix (`SMTLibNameUtils`); z3
/// would let `store` be overloaded, cvc5 refuses it.
pub fn quote(name: &str) -> String {
    let name = if RESERVED_SMT_WORDS.contains(&name) || name.starts_with(|c: char| c.is_ascii_digit() || c == '.') {
        format!("q@{name}")
    } else {
        name.to_string()
    };
    format!("|{}|", name.replace(['|', '\\'], "_"))
}

/// Boogie's `SMTLibNameUtils.reservedSmtWordsList`, less the entries no Boogie identifier can
/// spell.
const RESERVED_SMT_WORDS: &[&str] = &[
    "as",
    "DECIMAL",
    "exists",
    "forall",
    "let",
    "NUMERAL",
    "par",
    "STRING",
    "assert",
    "check-sat",
    "declare-sort",
    "declare-fun",
    "define-fun",
    "exit",
    "get-assertions",
    "get-assignment",
    "get-info",
    "get-proof",
    "get-unsat-core",
    "get-value",
    "pop",
    "push",
    "set-logic",
    "set-info",
    "set-option",
    "and",
    "or",
    "not",
    "iff",
    "true",
    "false",
    "xor",
    "distinct",
    "ite",
    "Bool",
    "Int",
    "Real",
    "div",
    "mod",
    "rem",
    "sin",
    "cos",
    "tan",
    "asin",
    "acos",
    "atan",
    "sinh",
    "cosh",
    "tanh",
    "asinh",
    "acosh",
    "atanh",
    "pi",
    "euler",
    "to_real",
    "to_int",
    "is_int",
    "extract",
    "concat",
    "bvnot",
    "bvneg",
    "bvand",
    "bvor",
    "bvadd",
    "bvmul",
    "bvudiv",
    "bvurem",
    "bvshl",
    "bvlshr",
    "bvult",
    "store",
    "select",
    "const",
    "default",
    "map",
    "union",
    "intersect",
    "difference",
    "complement",
    "subset",
    "array-ext",
    "as-array",
    "Array",
    "bit1",
    "bit0",
    "bvsub",
    "bvsdiv",
    "bvsrem",
    "bvsmod",
    "bvsdiv0",
    "bvudiv0",
    "bvsrem0",
    "bvurem0",
    "bvsmod0",
    "bvsdiv_i",
    "bvudiv_i",
    "bvsrem_i",
    "bvurem_i",
    "bvumod_i",
    "bvule",
    "bvsle",
    "bvuge",
    "bvsge",
    "bvslt",
    "bvugt",
    "bvsgt",
    "bvxor",
    "bvnand",
    "bvnor",
    "bvxnor",
    "sign_extend",
    "zero_extend",
    "repeat",
    "bvredor",
    "bvredand",
    "bvcomp",
    "bvumul_noovfl",
    "bvsmul_noovfl",
    "bvsmul_noudfl",
    "bvashr",
    "rotate_left",
    "rotate_right",
    "ext_rotate_left",
    "ext_rotate_right",
    "int2bv",
    "bv2nat",
    "mkbv",
    "plusInfinity",
    "minusInfinity",
    "abs",
    "remainder",
    "fusedMA",
    "squareRoot",
    "roundToIntegral",
    "isZero",
    "isNZero",
    "isPZero",
    "isSignMinus",
    "min",
    "max",
    "asFloat",
    "flet",
    "implies",
    "if_then_else",
    "lblneg",
    "lblpos",
    "lbl-lit",
    "if",
    "equals",
    "equiv",
    "bool",
    "minimize",
    "maximize",
    "real_pow",
    "UOrdering2",
    "UOrdering3",
    "NaN",
    "fp.abs",
    "fp.neg",
    "fp.add",
    "fp.sub",
    "fp.mul",
    "fp.div",
    "fp.fma",
    "fp.sqrt",
    "fp.rem",
    "fp.roundToIntegral",
    "fp.min",
    "fp.max",
    "fp.leq",
    "fp.lt",
    "fp.geq",
    "fp.gt",
    "fp.eq",
    "fp.isNormal",
    "fp.isSubnormal",
    "fp.isZero",
    "fp.isInfinite",
    "fp.isNaN",
    "fp.isNegative",
    "fp.isPositive",
    "fp",
    "fp.to_ubv",
    "fp.to_sbv",
    "to_fp",
    "rmode",
    "roundNearestTiesToEven",
    "roundNearestTiesToAway",
    "roundTowardPositive",
    "roundTowardNegative",
    "roundTowardZero",
    "RNE",
    "RNA",
    "RTP",
    "RTN",
    "RTZ",
];

/// `{:key}` or `{:key true}`.
pub fn find_bool_attribute(attrs: &[crate::ast::Attribute], key: &str) -> bool {
    attrs.iter().any(|a| {
        a.key == key
            && (a.params.is_empty()
                || matches!(&a.params[..], [AttrParam::Expr(Expr { kind: ExprKind::BoolLit(true), .. })]))
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
            code_exprs: 0,
        }
    }

    /// The pools `{:pool}` variables met so far name, with their sorts (see
    /// [`super::instantiate`]).
    pub fn pool_sorts(&self) -> &FxHashMap<String, FxHashSet<String>> {
        &self.pool_sorts
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

    /// Declares a function (and its axioms) for the encoding of the program or of the current
    /// implementation, once.
    pub(super) fn declare_once(&mut self, name: &str, commands: &str) {
        if self.declared_sorts.insert(name.to_string()) {
            self.new_decls.push_str(commands);
        }
    }

    /// Declarations made since the last call (sorts first met while encoding).
    pub fn take_new_decls(&mut self) -> String {
        std::mem::take(&mut self.new_decls)
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
                    return Err(Unsupported::new(None, "datatypes"));
                }
                let name = quote(&ty.expanded().display(self.typed.symbols()).to_string());
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
                for a in m.args.iter().rev() {
                    sort = format!("(Array {} {sort})", self.sort(a)?);
                }
                sort
            }
            Type::Var(_) => return Err(Unsupported::new(None, "polymorphism")),
            Type::Float { .. } | Type::RMode => return Err(Unsupported::new(None, "floating-point types")),
            Type::String | Type::RegEx => return Err(Unsupported::new(None, "strings")),
            Type::Synonym(_) | Type::Proxy(_) => unreachable!("expanded"),
        })
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
        let mut decls = String::new();
        let mut axioms = String::new();
        // Constants, with `unique` ones distinct per type.
        let mut unique: Vec<(String, Vec<String>)> = Vec::new();
        for info in &symbols.vars {
            if let VarKind::Const { unique: u } = info.kind {
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
        let mut defined: Vec<(FunctionId, &'p FunctionDecl)> = Vec::new();
        let mut with_axiom: Vec<(FunctionId, &'p Expr)> = Vec::new();
        for (i, info) in symbols.functions.iter().enumerate() {
            let id = FunctionId(i as u32);
            if info.kind != FunctionKind::Declared || !info.type_params.is_empty() {
                continue;
            }
            let Some(fd) = self.function_decl(id) else { continue };
            if let Some(b) = string_attr(&fd.attrs, "builtin").or_else(|| string_attr(&fd.attrs, "bvbuiltin")) {
                self.function_names.insert(id, b.to_string());
                continue;
            }
            if find_bool_attribute(&fd.attrs, "inline") && fd.body.is_some() {
                continue;
            }
            self.function_names.insert(id, quote(&info.name.name));
            match &fd.body {
                Some(_) if find_bool_attribute(&fd.attrs, "define") => defined.push((id, fd)),
                body => {
                    let sorts = info.param_types.iter().map(|t| self.sort(t)).collect::<Result<Vec<_>, _>>()?;
                    let result = self.sort(&info.result)?;
                    let _ = writeln!(decls, "(declare-fun {} ({}) {result})", quote(&info.name.name), sorts.join(" "));
                    if let Some(body) = body {
                        with_axiom.push((id, body));
                    }
                }
            }
        }
        let mut definitions: Vec<(String, String)> = Vec::new();
        for (id, fd) in defined {
            let info = symbols.function(id);
            let name = quote(&info.name.name);
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
            let name = quote(&info.name.name);
            let mut ctx = self.formals_ctx(id);
            let b = self.ex(body, &NoVars, &mut ctx)?;
            if info.params.is_empty() {
                let _ = writeln!(axioms, "(assert (= {name} {b}))");
            } else {
                let vars: Vec<String> = info.params.iter().map(|p| bound_name(typed, *p)).collect();
                let app = format!("({name} {})", vars.join(" "));
                let binders = self.binders(id)?;
                let _ = writeln!(axioms, "(assert (forall ({binders}) (! (= {app} {b}) :pattern ({app}))))");
            }
        }
        // Axioms, including those of `uses` clauses.
        for decl in &typed.program.decls {
            let list: Vec<&Expr> = match decl {
                Decl::Axiom(a) => vec![&a.expr],
                Decl::Const(c) => c.uses.iter().flatten().map(|a| &a.expr).collect(),
                Decl::Function(f) => f.uses.iter().flatten().map(|a| &a.expr).collect(),
                _ => Vec::new(),
            };
            for e in list {
                let t = self.expr(e, &NoVars)?;
                let _ = writeln!(axioms, "(assert {t})");
            }
        }
        let mut out = self.take_new_decls();
        out += &decls;
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
                let Some(Ref::Function(f)) = typed.resolution.refs.get(&crate::typeck::Pos::of(e.span)).copied() else {
                    return unsupported("an unresolved function");
                };
                let info = typed.symbols().function(f);
                if !info.type_params.is_empty() {
                    return unsupported("polymorphic functions");
                }
                if info.kind != FunctionKind::Declared {
                    return unsupported("datatypes");
                }
                let args = self.args(arg_exprs, env, ctx)?;
                if let Some(name) = self.function_names.get(&f).cloned() {
                    let name = self.map_builtin(&name, e, arg_exprs)?.unwrap_or(name);
                    let term = if args.is_empty() { name.clone() } else { format!("({name} {})", args.join(" ")) };
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
            ExprKind::Unary { op, arg } => {
                let a = self.ex_flipped(*op == UnaryOp::Not, arg, env, ctx)?;
                match op {
                    UnaryOp::Not => format!("(not {a})"),
                    UnaryOp::Neg => format!("(- {a})"),
                }
            }
            ExprKind::Binary { op, lhs, rhs } => {
                let l = self.ex_flipped(*op == BinaryOp::Imp, lhs, env, ctx)?;
                let r = self.ex(rhs, env, ctx)?;
                let f = match op {
                    BinaryOp::Iff | BinaryOp::Eq => "=",
                    BinaryOp::Imp => "=>",
                    BinaryOp::And => "and",
                    BinaryOp::Or => "or",
                    BinaryOp::Neq => return Ok(format!("(not (= {l} {r}))")),
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
                        let real = |t: String, x: &Expr| {
                            if matches!(typed.type_of(x.id).expanded(), Type::Int) {
                                format!("(to_real {t})")
                            } else {
                                t
                            }
                        };
                        return Ok(format!("(/ {} {})", real(l, lhs), real(r, rhs)));
                    }
                    BinaryOp::Pow => return unsupported("**"),
                    BinaryOp::Subtype => return unsupported("<:"),
                };
                format!("({f} {l} {r})")
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
                let mut t = self.ex(map, env, ctx)?;
                for i in indexes.iter() {
                    t = format!("(select {t} {})", self.ex(i, env, ctx)?);
                }
                t
            }
            ExprKind::Store(s) => {
                self.check_map(&s.map)?;
                let m = self.ex(&s.map, env, ctx)?;
                let idx = self.args(&s.indexes, env, ctx)?;
                let v = self.ex(&s.value, env, ctx)?;
                store(&m, &idx, v)
            }
            ExprKind::IfThenElse { cond, then, els } => {
                format!("(ite {} {} {})", self.ex(cond, env, ctx)?, self.ex(then, env, ctx)?, self.ex(els, env, ctx)?)
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
            ExprKind::FloatLit(_) | ExprKind::RoundingMode(_) => return unsupported("floating-point values"),
            ExprKind::StrLit(_) => return unsupported("strings"),
            ExprKind::Is { .. } | ExprKind::Field { .. } | ExprKind::FieldUpdate(_) => return unsupported("datatypes"),
            ExprKind::Code(c) => self.code_expr(c, env, ctx)?,
            ExprKind::BvBounds { .. } => return unsupported("bit-vector bounds"),
        })
    }

    /// `e` in the opposite context when `flip` (Boogie flips it for the operand of `!` and the
    /// left of `==>`).
    pub(super) fn ex_flipped(&mut self, flip: bool, e: &Expr, env: &dyn Env, ctx: &mut Ctx) -> Result<String, Unsupported> {
        ctx.positive ^= flip;
        let t = self.ex(e, env, ctx);
        ctx.positive ^= flip;
        t
    }

    /// Z3's array operators behind Boogie's `{:builtin "MapConst"}`, `"MapAdd"`, ... (the
    /// function head `SMTLibLineariser.CheckMapApply` writes); `None` for other names.
    fn map_builtin(&mut self, name: &str, call: &Expr, args: &[Expr]) -> Result<Option<String>, Unsupported> {
        let typed = self.typed;
        let element = |this: &mut Self, ty: &Type| -> Result<String, Unsupported> {
            match ty.expanded() {
                Type::Map(m) => this.sort(&m.result),
                _ => Err(Unsupported::new(Some(call.span), "a map operator on a non-map")),
            }
        };
        let int2 = |op: &str| format!("(_ map ({op} (Int Int) Int))");
        Ok(Some(match name {
            "MapConst" => format!("(as const {})", self.sort(typed.type_of(call.id))?),
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

    #[test]
    fn reserved_names_are_prefixed() {
        assert_eq!(quote("store"), "|q@store|");
        assert_eq!(quote("x"), "|x|");
        assert_eq!(quote("a|b\\c"), "|a_b_c|");
    }

    #[test]
    fn nested_stores() {
        assert_eq!(store("m", &["i".into(), "j".into()], "v".into()), "(store m i (store (select m i) j v))");
    }
}
