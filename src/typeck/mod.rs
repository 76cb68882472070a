//! Resolution and type checking: from the parsed [`Program`] to a [`TypedProgram`], or
//! Boogie's errors.
//!
//! Two phases, as in Boogie (`Program.Resolve`, then `Program.Typecheck`), each collecting all
//! its errors before the driver stops:
//!
//! 1. [`resolve`]: registers every top-level name with Boogie's duplicate rules, resolves
//!    every type to a [`Type`] (synonyms expanded, arities checked), binds every identifier
//!    occurrence to what it names (the [`Symbols`] arenas), numbers every expression
//!    ([`NodeId`]), and checks what Boogie checks while resolving (`old` outside two-state
//!    contexts, trigger shapes, labels, ...). Errors: [`Phase::Resolve`].
//! 2. [`check`]: infers and checks the type of every expression by unification (Boogie's
//!    `Typecheck`), records each expression's type and each polymorphic use's instantiation,
//!    and checks commands and declarations (assignments, modifies clauses, implementations
//!    against their procedures, ...). Errors: [`Phase::Typecheck`].
//!
//! The result keeps the tree as parsed and puts everything learned in side tables (see
//! ../shared/STYLE.md, "ids and side tables"): later stages never resolve a name or infer a
//! type again.

pub mod check;
pub mod compare;
pub mod extend;
pub mod linear;
pub mod resolve;
pub mod types;
pub mod unify;

use std::hash::Hash;

use rustc_hash::FxHashMap;

use crate::ast::{Ident, NodeId, Program, Symbol};
use crate::diagnostics::Diagnostic;
pub use types::{ProxyId, Type, TypeCtorId, TypeNames, TypeVarId};

/// Options of Boogie's that change what resolution and type checking accept.
#[derive(Clone, Debug, Default)]
pub struct TypeckOptions {
    /// `/inferModifies`: no error for assigning a global missing from `modifies`.
    pub infer_modifies: bool,
    /// Bounded mode ([`crate::bounded`]): `async` calls may spawn threads from any procedure
    /// (Corral's dialect), not only from Civl's yield procedures and actions.
    pub threads: bool,
    /// The program is a pass's output, built from a checked program: when no type variable
    /// but a synonym's parameter is left in it (monomorphized, or never polymorphic), the
    /// checker computes the types of applications, operators and map accesses from their
    /// operands instead of unifying (`check::Checker::synthesized`). Same tables for a
    /// well-typed program; an ill-typed one may go unreported, so only re-checks of passes'
    /// output set it, never in debug builds nor under `--check-passes`.
    pub trusted: bool,
    /// The program is a pass's output, checked again: what concerns only the program as the
    /// user wrote it is not checked. Statement ids (`{:id "..."}`) may repeat: inlining a
    /// procedure at two calls, or unrolling a loop, copies its statements with their
    /// attributes; and axiom names (`{:name "..."}`): monomorphization copies a polymorphic
    /// function's `uses` axioms once per instance. (Boogie does all three after resolution
    /// and never resolves their output again.)
    pub pass_output: bool,
}

/// A side table keyed by node ([`NodeId`]): an entry for some of the program's numbered
/// expressions, identifiers and written types. Ids are dense (resolution numbers the whole
/// program in tree order), so a vector indexed by id is both the smallest and the fastest
/// map. A node not numbered ([`NodeId::NONE`]) has no entry; look a node up only in the tables
/// of the program it was numbered in (a pass's output is numbered afresh).
#[derive(Clone, Debug)]
pub struct NodeMap<V> {
    slots: Vec<Option<V>>,
}

impl<V> Default for NodeMap<V> {
    fn default() -> Self {
        NodeMap { slots: Vec::new() }
    }
}

/// A table of `n` entries per node made by `f`, with room for a quarter as many again: a pass
/// that records the nodes it builds ([`extend::Extension::apply`]) then grows the table in
/// place. Room never written costs no memory; without it, on a 10 MB Dafny-like program,
/// lambda lifting's two tables were copied to grow them, a third of the pass's time (0.070
/// s, now 0.041 s).
fn with_headroom<V>(n: usize, f: impl FnMut() -> V) -> Vec<V> {
    let mut table = Vec::with_capacity(n + n / 4);
    table.resize_with(n, f);
    table
}

impl<V> NodeMap<V> {
    /// A table for the ids `0..n`.
    pub fn with_len(n: usize) -> Self {
        NodeMap { slots: with_headroom(n, || None) }
    }
    pub fn get(&self, id: NodeId) -> Option<&V> {
        self.slots.get(id.index()).and_then(Option::as_ref)
    }
    /// Records `v` for `id` (replacing what was there); an id outside the table is ignored.
    pub fn insert(&mut self, id: NodeId, v: V) {
        if let Some(slot) = self.slots.get_mut(id.index()) {
            *slot = Some(v);
        }
    }
    /// Records `v` for `id` unless it has an entry already.
    pub fn insert_first(&mut self, id: NodeId, v: impl FnOnce() -> V) {
        if let Some(slot @ None) = self.slots.get_mut(id.index()) {
            *slot = Some(v());
        }
    }
    /// Makes room for ids below `n`.
    pub fn grow(&mut self, n: usize) {
        if self.slots.len() < n {
            self.slots.resize_with(n, || None);
        }
    }
}

/// A side table keyed by node for the few nodes that have an entry (written types, about one
/// node in twelve): a dense [`NodeMap`] of them would be a table as long as the program, made
/// and paged in at every check, for mostly empty slots.
#[derive(Clone, Debug)]
pub struct SparseNodeMap<V> {
    entries: FxHashMap<u32, V>,
}

impl<V> Default for SparseNodeMap<V> {
    fn default() -> Self {
        SparseNodeMap { entries: FxHashMap::default() }
    }
}

impl<V> SparseNodeMap<V> {
    pub fn get(&self, id: NodeId) -> Option<&V> {
        self.entries.get(&id.0)
    }
    /// Records `v` for `id` unless it has an entry already; a node not numbered has none.
    pub fn insert_first(&mut self, id: NodeId, v: impl FnOnce() -> V) {
        if id.0 != NodeId::NONE.0 {
            self.entries.entry(id.0).or_insert_with(v);
        }
    }
    pub fn insert(&mut self, id: NodeId, v: V) {
        if id.0 != NodeId::NONE.0 {
            self.entries.insert(id.0, v);
        }
    }
}

// ---------------------------------------------------------------------------------------------
// Ids

macro_rules! ids {
    ($($(#[$doc:meta])* $name:ident;)*) => {$(
        $(#[$doc])*
        #[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, PartialOrd, Ord)]
        pub struct $name(pub u32);
        impl $name {
            pub fn index(self) -> usize {
                self.0 as usize
            }
        }
    )*};
}

ids! {
    /// A variable of any kind (constant, global, formal, local, bound): [`Symbols::vars`].
    VarId;
    /// A function, including datatype constructors and field selectors: [`Symbols::functions`].
    FunctionId;
    /// [`Symbols::procedures`]
    ProcedureId;
    /// [`Symbols::implementations`]
    ImplementationId;
    /// [`Symbols::axioms`]
    AxiomId;
    /// A block label within one implementation (or code expression): [`Symbols::labels`].
    LabelId;
}

/// An index into [`Program::decls`].
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub struct DeclIndex(pub u32);

// ---------------------------------------------------------------------------------------------
// What names refer to

/// What an identifier occurrence names.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum Ref {
    Var(VarId),
    Function(FunctionId),
    Procedure(ProcedureId),
    TypeCtor(TypeCtorId),
    TypeVar(TypeVarId),
    Label(LabelId),
}

#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum VarKind {
    /// `const`; `unique` when declared so.
    Const { unique: bool },
    /// `var` at the top level.
    Global,
    /// An in-parameter of a procedure, implementation or function.
    In,
    /// An out-parameter of a procedure or implementation (or a function's named result).
    Out,
    /// `var` in an implementation body or code expression.
    Local,
    /// Bound by a quantifier, lambda or let.
    Bound,
}

#[derive(Clone, Debug)]
pub struct VarInfo {
    pub name: Ident,
    pub kind: VarKind,
    /// The declared type, resolved. A let-bound variable has no declared type: resolution
    /// leaves `Type::Bool` there and the type checker takes the type of its right-hand side.
    pub ty: Type,
    pub attrs_of: Option<DeclIndex>,
}

#[derive(Clone, Debug)]
pub struct TypeCtorInfo {
    pub name: Ident,
    pub arity: usize,
    /// For a synonym: its parameters and its body, expanded.
    pub synonym: Option<(Vec<TypeVarId>, Type)>,
    /// For a datatype: its constructors.
    pub datatype_ctors: Option<Vec<FunctionId>>,
    pub decl: Option<DeclIndex>,
}

#[derive(Clone, Debug)]
pub struct TypeVarInfo {
    pub name: Ident,
}

#[derive(Clone, Debug, PartialEq, Eq)]
pub enum FunctionKind {
    /// A `function` declaration.
    Declared,
    /// A datatype constructor.
    Constructor { datatype: TypeCtorId, index: usize },
}

#[derive(Clone, Debug)]
pub struct FunctionInfo {
    pub name: Ident,
    pub kind: FunctionKind,
    pub type_params: Vec<TypeVarId>,
    /// The formals (bound as [`VarKind::In`] variables when named, for the body's sake);
    /// unnamed formals get a variable too, so the lists line up with `param_types`.
    pub params: Vec<VarId>,
    pub param_types: Vec<Type>,
    pub result: Type,
    pub decl: Option<DeclIndex>,
}

#[derive(Clone, Debug)]
pub struct ProcedureInfo {
    pub name: Ident,
    pub type_params: Vec<TypeVarId>,
    pub ins: Vec<VarId>,
    pub outs: Vec<VarId>,
    /// The `modifies` clauses' variables, in order, duplicates kept.
    pub modifies: Vec<VarId>,
    pub decl: DeclIndex,
}

#[derive(Clone, Debug)]
pub struct ImplementationInfo {
    pub name: Ident,
    /// `None` when the procedure is not declared (a resolution error).
    pub procedure: Option<ProcedureId>,
    pub type_params: Vec<TypeVarId>,
    pub ins: Vec<VarId>,
    pub outs: Vec<VarId>,
    pub locals: Vec<VarId>,
    /// `Some(i)` for the body of a procedure declared with one (`procedure P() { ... }`),
    /// which Boogie splits into a procedure and an implementation.
    pub decl: DeclIndex,
}

#[derive(Clone, Debug)]
pub struct LabelInfo {
    pub name: Ident,
}

/// Every named thing in the program, in arenas addressed by the ids above.
#[derive(Clone, Debug, Default)]
pub struct Symbols {
    pub vars: Vec<VarInfo>,
    pub type_ctors: Vec<TypeCtorInfo>,
    pub type_vars: Vec<TypeVarInfo>,
    pub functions: Vec<FunctionInfo>,
    pub procedures: Vec<ProcedureInfo>,
    pub implementations: Vec<ImplementationInfo>,
    pub labels: Vec<LabelInfo>,
    /// Top-level names: variables and constants, functions, procedures, types.
    pub globals: FxHashMap<Symbol, VarId>,
    pub functions_by_name: FxHashMap<Symbol, FunctionId>,
    pub procedures_by_name: FxHashMap<Symbol, ProcedureId>,
    pub types_by_name: FxHashMap<Symbol, TypeCtorId>,
    /// Datatype field selectors (Boogie's `DatatypeTypeCtorDecl.GetAccessors`): for a datatype
    /// and a field name, each constructor that has such a field with the field's index among
    /// the constructor's parameters, in constructor order. Resolution fills it; `e->f`,
    /// `e->(f := v)` and `e is C` are resolved by the type checker once the datatype of `e` is
    /// known, as in Boogie.
    pub accessors: FxHashMap<(TypeCtorId, Symbol), Vec<(FunctionId, usize)>>,
}

impl Symbols {
    pub fn var(&self, id: VarId) -> &VarInfo {
        &self.vars[id.index()]
    }
    pub fn function(&self, id: FunctionId) -> &FunctionInfo {
        &self.functions[id.index()]
    }
    pub fn procedure(&self, id: ProcedureId) -> &ProcedureInfo {
        &self.procedures[id.index()]
    }
}

/// Names for printing types. A type variable the checker made (the instantiation it picks for
/// an ambiguous type parameter, `<arg0, res>[arg0]res`) is not in [`Symbols::type_vars`] and
/// prints as `t#N`.
impl TypeNames for Symbols {
    fn type_ctor_name(&self, id: TypeCtorId) -> Symbol {
        self.type_ctors[id.0 as usize].name.name
    }
    fn type_var_name(&self, id: TypeVarId) -> Symbol {
        match self.type_vars.get(id.0 as usize) {
            Some(info) => info.name.name,
            None => Symbol::intern(&format!("t#{}", id.0)),
        }
    }
}

/// What resolution learns.
#[derive(Clone, Debug, Default)]
pub struct Resolution {
    pub symbols: Symbols,
    /// What every identifier occurrence names, by its [`NodeId`]: declarations (binders) and
    /// uses alike (variables in expressions, callees, `modifies` entries, assignment targets,
    /// havoc targets, goto targets, type names in types), and the function each call
    /// expression applies, by the call's id.
    pub refs: NodeMap<Ref>,
    /// The number of nodes numbered: expressions, identifiers and written types share one
    /// numbering ([`NodeId`]s run from 0 to this).
    pub expr_count: u32,
    /// The type each `ast::Type` occurrence resolved to, by its [`NodeId`].
    /// Only whole types written in the program are recorded (a declaration's or binder's type,
    /// a coercion's, a synonym's body), not the types nested inside them. Where Boogie
    /// resolves one written type twice (`procedure P(x: T) { ... }` is a procedure and an
    /// implementation), the first resolution is kept; the variables' own types
    /// ([`VarInfo::ty`]) are the ones to use for formals.
    ///
    /// Notes on `refs` for the checker: the formals of `procedure P(..) { body }` are, for the
    /// implementation part, variables of their own ([`ImplementationInfo::ins`]), but their
    /// binders name the procedure's formals; the body of a function that is neither
    /// `{:inline}` nor `{:define}` (which Boogie resolves as an axiom) refers to the function's
    /// own formals ([`FunctionInfo::params`]); type parameters of procedures, functions,
    /// implementations, quantifiers and map types are bound at their binders
    /// ([`Ref::TypeVar`]), and [`ProcedureInfo::type_params`], [`FunctionInfo::type_params`]
    /// and map types list them in Boogie's order (first occurrence in the argument types).
    pub types: SparseNodeMap<Type>,
    /// The declarations with a lambda expression anywhere in them (attributes included), in
    /// order: what lambda lifting rewrites.
    pub decls_with_lambdas: Vec<DeclIndex>,
}

/// What type checking learns.
#[derive(Clone, Debug, Default)]
pub struct Typing {
    /// The type of every expression, by [`NodeId`].
    pub expr_types: Vec<Type>,
    /// For each use of a polymorphic function or map (by the number, `NodeId::0`, of the call
    /// or select expression), the types its type parameters were instantiated with, in order.
    pub instantiations: FxHashMap<u32, Vec<Type>>,
    /// The SMT-LIB operator of every `{:builtin}`/`{:bvbuiltin}` function, parsed and checked.
    pub builtins: FxHashMap<FunctionId, crate::smt::builtins::Builtin>,
    /// The uses of polymorphic functions and maps in attributes whose type parameters
    /// inference left open: Boogie neither warns about them nor instantiates them (its
    /// `TypeAmbiguitySeeker` skips attributes), and its monomorphization then refuses the
    /// program. Here they are instantiated to `int`, and listed.
    pub ambiguous_in_attributes: Vec<crate::ast::Span>,
}

/// A resolved and type-checked program: the tree as parsed, plus side tables.
#[derive(Clone, Debug)]
pub struct TypedProgram {
    pub program: Program,
    pub resolution: Resolution,
    pub typing: Typing,
}

impl TypedProgram {
    pub fn symbols(&self) -> &Symbols {
        &self.resolution.symbols
    }
    pub fn type_of(&self, id: NodeId) -> &Type {
        &self.typing.expr_types[id.index()]
    }
    pub fn referent(&self, name: &Ident) -> Option<Ref> {
        self.resolution.refs.get(name.id).copied()
    }
}

/// How far the program got, with the diagnostics of the phase that stopped it (and any
/// warnings of earlier phases).
pub enum Outcome {
    Typed(Box<TypedProgram>, Vec<Diagnostic>),
    /// Resolution errors; type checking did not run.
    ResolutionFailed(Vec<Diagnostic>),
    /// Type errors. `summary` is false for the errors of Boogie's function dependency check,
    /// which Boogie prints without its `N type checking errors detected` line.
    TypecheckFailed {
        diagnostics: Vec<Diagnostic>,
        summary: bool,
    },
}

/// Resolves and type-checks `program`. With `stop_after_resolution` (Boogie's `/noTypecheck`)
/// a program that resolves comes back with an empty [`Typing`].
pub fn run(mut program: Program, options: &TypeckOptions, stop_after_resolution: bool) -> Outcome {
    use crate::diagnostics::Severity;
    let (resolution, mut diagnostics) = resolve::run(&mut program, options);
    if diagnostics.iter().any(|d| d.severity == Severity::Error) {
        return Outcome::ResolutionFailed(diagnostics);
    }
    if stop_after_resolution {
        return Outcome::Typed(Box::new(TypedProgram { program, resolution, typing: Typing::default() }), diagnostics);
    }
    let checked = check::run(&program, &resolution, options);
    diagnostics.extend(checked.diagnostics);
    if diagnostics.iter().any(|d| d.severity == Severity::Error) {
        return Outcome::TypecheckFailed { diagnostics, summary: !checked.dependency_errors };
    }
    let typed = Box::new(TypedProgram { program, resolution, typing: checked.typing });
    // Boogie's Civl type checker, after type checking: linear variables and primitives.
    if !options.pass_output {
        let linear = linear::availability(&typed);
        if !linear.is_empty() {
            diagnostics.extend(linear);
            return Outcome::TypecheckFailed { diagnostics, summary: true };
        }
    }
    Outcome::Typed(typed, diagnostics)
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::source::SourceMap;

    fn typed(text: &str) -> TypedProgram {
        let mut sources = SourceMap::new();
        let file = sources.add("t.bpl", "t.bpl", text.to_string());
        let program = crate::parser::parse(&mut sources, file, &[]).expect("parses");
        match run(program, &TypeckOptions::default(), false) {
            Outcome::Typed(typed, _) => *typed,
            _ => panic!("does not type-check"),
        }
    }

    #[test]
    fn every_polymorphic_use_keeps_its_own_instantiation() {
        let typed = typed("function id<T>(x: T): T;\naxiom id(1) == 1 && id(true);\n");
        let mut insts: Vec<String> =
            typed.typing.instantiations.values().map(|i| format!("{}", i[0].display(typed.symbols()))).collect();
        insts.sort();
        assert_eq!(insts, ["bool", "int"]);
    }

    /// Two copies of one axiom, at the same positions, one of them given `bool` for `int`:
    /// each copy's `x` names its own binder (identity is the node's number, not its
    /// position), so both check, at their own types.
    #[test]
    fn copies_at_one_position_resolve_apart() {
        use crate::ast::{Decl, ExprKind, TypeKind};
        let mut sources = SourceMap::new();
        let file = sources.add("t.bpl", "t.bpl", "axiom (forall x: int :: x == x);\n".to_string());
        let mut program = crate::parser::parse(&mut sources, file, &[]).expect("parses");
        let mut copy = program.decls[0].clone();
        let Decl::Axiom(a) = &mut copy else { panic!("an axiom") };
        let ExprKind::Quant(q) = &mut a.expr.kind else { panic!("a quantifier") };
        q.vars[0].ty.kind = TypeKind::Bool;
        program.decls.push(copy);
        let typed = match run(program, &TypeckOptions::default(), false) {
            Outcome::Typed(typed, _) => typed,
            _ => panic!("the copies do not type-check"),
        };
        let mut types = Vec::new();
        for d in &typed.program.decls {
            let Decl::Axiom(a) = d else { panic!("an axiom") };
            let ExprKind::Quant(q) = &a.expr.kind else { panic!("a quantifier") };
            let ExprKind::Binary { lhs, .. } = &q.body.kind else { panic!("an equality") };
            let ExprKind::Var(x) = &lhs.kind else { panic!("a variable") };
            let Some(Ref::Var(v)) = typed.referent(x) else { panic!("x resolves") };
            types.push(format!("{}", typed.symbols().var(v).ty.display(typed.symbols())));
        }
        assert_eq!(types, ["int", "bool"]);
    }
}
