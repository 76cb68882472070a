//! Civl's linear primitives (`/lib:base`'s `Move`, `One_Get`, ..., `Path_Store`): which
//! procedures they are, which types are linear, and the checks Boogie's `LinearTypeChecker`
//! makes of their calls (`CheckPrimitiveCall`). [`crate::passes::linear`] rewrites the calls.
//!
//! Expects a resolved and type-checked program. Guarantees, from [`check`], Boogie's errors
//! for a primitive's call whose path argument is not a path (a variable, or fields and map
//! entries of one, never through a `One` nor a `Map`'s `dom`), for a `Move` of anything but
//! variables, for `Path_Load`/`Path_Store` of a linear value, and for a primitive that would
//! assign an input variable, one of the call's outputs or a global the enclosing procedure
//! does not modify. Boogie's other linear checks (which linear variables are available where)
//! are not made.
//!
//! A type is linear (Boogie's `LinearTypeCollector`) when it is `One T`, a `Map K V` whose `K`
//! is a `One _` or whose `V` is linear, or a datatype with a field of a linear type.

use rustc_hash::FxHashMap;

use super::{ProcedureId, Ref, Resolution, Symbols, Type, TypeCtorId, TypeVarId, Typing, VarKind};
use crate::ast::{CallCmd, Cmd, CmdKind, Decl, Expr, ExprKind, Program, Symbol};
use crate::diagnostics::{Diagnostic, Phase};

/// The primitives, by their names in the library.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Primitive {
    Move,
    OneGet,
    OnePut,
    MapGet,
    MapPut,
    MapSplit,
    MapJoin,
    PathLoad,
    PathStore,
}

impl Primitive {
    pub const ALL: [Primitive; 9] = [
        Primitive::Move,
        Primitive::OneGet,
        Primitive::OnePut,
        Primitive::MapGet,
        Primitive::MapPut,
        Primitive::MapSplit,
        Primitive::MapJoin,
        Primitive::PathLoad,
        Primitive::PathStore,
    ];

    pub fn name(self) -> &'static str {
        match self {
            Primitive::Move => "Move",
            Primitive::OneGet => "One_Get",
            Primitive::OnePut => "One_Put",
            Primitive::MapGet => "Map_Get",
            Primitive::MapPut => "Map_Put",
            Primitive::MapSplit => "Map_Split",
            Primitive::MapJoin => "Map_Join",
            Primitive::PathLoad => "Path_Load",
            Primitive::PathStore => "Path_Store",
        }
    }

    /// How many arguments and results the library's declaration has.
    fn arity(self) -> (usize, usize) {
        match self {
            Primitive::Move | Primitive::OneGet | Primitive::OnePut | Primitive::MapJoin | Primitive::PathStore => {
                (2, 0)
            }
            Primitive::MapGet | Primitive::MapSplit => (2, 1),
            Primitive::MapPut => (3, 0),
            Primitive::PathLoad => (1, 1),
        }
    }
}

/// The program's primitives: the procedures declared with a primitive's name, type
/// parameters (the library's are polymorphic; Boogie rewrites only the procedures its
/// monomorphization instantiated) and the primitive's numbers of arguments and results.
pub fn primitives(symbols: &Symbols) -> FxHashMap<ProcedureId, Primitive> {
    Primitive::ALL
        .iter()
        .filter_map(|p| {
            let id = *symbols.procedures_by_name.get(&Symbol::intern(p.name()))?;
            let info = symbols.procedure(id);
            let shape = (info.ins.len(), info.outs.len());
            (!info.type_params.is_empty() && shape == p.arity()).then_some((id, *p))
        })
        .collect()
}

/// The datatype `t` is an instance of.
pub fn datatype(symbols: &Symbols, t: &Type) -> Option<TypeCtorId> {
    match t.expanded() {
        Type::Ctor(id, _) if symbols.type_ctors[id.0 as usize].datatype_ctors.is_some() => Some(*id),
        _ => None,
    }
}

/// The arguments of `t` when it is an instance of the datatype called `name`.
pub fn datatype_named<'t>(symbols: &Symbols, t: &'t Type, name: &str) -> Option<&'t [Type]> {
    match t.expanded() {
        Type::Ctor(id, args)
            if datatype(symbols, t).is_some() && symbols.type_ctors[id.0 as usize].name.name.as_str() == name =>
        {
            Some(args)
        }
        _ => None,
    }
}

/// Whether `t` holds linear values (see the module's notes).
pub fn is_linear(symbols: &Symbols, t: &Type) -> bool {
    linear_avoiding(symbols, t, &mut Vec::new())
}

/// [`is_linear`], not looking again into the datatype instances in `seen` (a path to a linear
/// field that goes round a cycle has a shorter one that does not).
fn linear_avoiding(symbols: &Symbols, t: &Type, seen: &mut Vec<Type>) -> bool {
    let t = t.deep_expanded();
    if datatype_named(symbols, &t, "One").is_some() {
        return true;
    }
    if let Some(args) = datatype_named(symbols, &t, "Map") {
        return args.len() == 2
            && (datatype_named(symbols, &args[0], "One").is_some() || linear_avoiding(symbols, &args[1], seen));
    }
    let Type::Ctor(id, args) = &t else { return false };
    let Some(ctors) = &symbols.type_ctors[id.0 as usize].datatype_ctors else { return false };
    if seen.contains(&t) {
        return false;
    }
    seen.push(t.clone());
    let linear = ctors.iter().any(|c| {
        let info = symbols.function(*c);
        // A constructor's result is its datatype applied to the datatype's parameters, in order.
        let Type::Ctor(_, params) = &info.result else { return false };
        let params: Vec<TypeVarId> =
            params.iter().filter_map(|p| if let Type::Var(v) = p { Some(*v) } else { None }).collect();
        info.param_types.iter().any(|p| linear_avoiding(symbols, &instantiate(p, &params, args), seen))
    });
    seen.pop();
    linear
}

/// `t` with the type parameters `params` replaced by `args`.
fn instantiate(t: &Type, params: &[TypeVarId], args: &[Type]) -> Type {
    match t.expanded() {
        Type::Var(v) => {
            params.iter().position(|p| p == v).and_then(|i| args.get(i)).cloned().unwrap_or_else(|| t.clone())
        }
        Type::Ctor(id, ts) => Type::Ctor(*id, ts.iter().map(|x| instantiate(x, params, args)).collect()),
        Type::Map(m) => {
            let m = super::types::MapType {
                type_params: m.type_params.clone(),
                args: m.args.iter().map(|x| instantiate(x, params, args)).collect(),
                result: instantiate(&m.result, params, args),
            };
            Type::Map(std::rc::Rc::new(m))
        }
        other => other.clone(),
    }
}

/// Boogie's errors for the primitives' calls in `program` (see the module's notes), in
/// program order.
pub fn check(program: &Program, resolution: &Resolution, typing: &Typing) -> Vec<Diagnostic> {
    let symbols = &resolution.symbols;
    let primitives = primitives(symbols);
    if primitives.is_empty() {
        return Vec::new();
    }
    struct Calls<'a> {
        resolution: &'a Resolution,
        typing: &'a Typing,
        primitives: FxHashMap<ProcedureId, Primitive>,
        /// The procedure whose body is walked.
        enclosing: Option<ProcedureId>,
        errors: Vec<Diagnostic>,
    }
    impl Calls<'_> {
        fn call(&mut self, call: &CallCmd) {
            let Some(Ref::Procedure(id)) = self.resolution.refs.get(call.callee.id).copied() else { return };
            let Some(primitive) = self.primitives.get(&id).copied() else { return };
            let mut error = |message: &str| {
                self.errors.push(Diagnostic::error(Phase::Typecheck, call.span, message));
            };
            if primitive == Primitive::Move {
                for (i, a) in call.args.iter().enumerate().take(2) {
                    if !matches!(a.kind, ExprKind::Var(_)) {
                        error(&format!("argument at position {i} must be a variable"));
                    }
                }
                return;
            }
            let Some(path) = call.args.first() else { return };
            if !legal_path(&self.resolution.symbols, self.typing, path) {
                error("illegal path expression at position 0");
            }
            if matches!(primitive, Primitive::PathLoad | Primitive::PathStore)
                && let Some(t) = self.typing.expr_types.get(path.id.index())
                && is_linear(&self.resolution.symbols, t)
            {
                error("argument at position 0 must have ordinary type");
            }
            // What the primitive assigns: the path's variable (Boogie's `ModifiedArgument`).
            if primitive == Primitive::PathLoad {
                return;
            }
            let Some(root) = root(path) else { return };
            let Some(Ref::Var(v)) = self.resolution.refs.get(root.id).copied() else { return };
            let symbols = &self.resolution.symbols;
            let info = symbols.var(v);
            let is_out = |o: &crate::ast::Ident| self.resolution.refs.get(o.id).copied() == Some(Ref::Var(v));
            if info.kind == VarKind::In {
                error(&format!("primitive assigns to input variable: {}", info.name.name));
            } else if call.outs.iter().any(is_out) {
                error(&format!(
                    "primitive assigns to input variable that is also an output variable: {}",
                    info.name.name
                ));
            } else if info.kind == VarKind::Global
                && let Some(p) = self.enclosing
                && !symbols.procedure(p).modifies.contains(&v)
            {
                error(&format!(
                    "primitive assigns to a global variable that is not in the enclosing procedure's modifies clause: {}",
                    info.name.name
                ));
            }
        }
    }
    impl crate::walk::Visitor for Calls<'_> {
        fn cmd(&mut self, c: &Cmd) {
            match &c.kind {
                CmdKind::Call(call) => self.call(call),
                CmdKind::ParCall { calls } => calls.iter().for_each(|call| self.call(call)),
                _ => {}
            }
        }
    }
    let mut calls = Calls { resolution, typing, primitives, enclosing: None, errors: Vec::new() };
    for d in &program.decls {
        calls.enclosing = match d {
            Decl::Procedure(p) => symbols.procedures_by_name.get(&p.name.name).copied(),
            Decl::Implementation(i) => symbols.procedures_by_name.get(&i.name.name).copied(),
            _ => None,
        };
        crate::walk::decl(&mut calls, d);
    }
    calls.errors
}

/// The variable at the root of a path (Boogie's `ExtractRootFromAccessPathExpr`).
fn root(e: &Expr) -> Option<&crate::ast::Ident> {
    match &e.kind {
        ExprKind::Var(v) => Some(v),
        ExprKind::Select { map: inner, .. } | ExprKind::Field { arg: inner, .. } => root(inner),
        _ => None,
    }
}

/// Boogie's `IsLegalPathExpr`: a variable, or fields and map entries of one, no field taken of
/// a `One` and no `dom` of a `Map`.
fn legal_path(symbols: &Symbols, typing: &Typing, e: &Expr) -> bool {
    match &e.kind {
        ExprKind::Var(_) => true,
        ExprKind::Select { map, .. } => legal_path(symbols, typing, map),
        ExprKind::Field { arg, field } => {
            let Some(t) = typing.expr_types.get(arg.id.index()) else { return false };
            if datatype_named(symbols, t, "One").is_some()
                || (datatype_named(symbols, t, "Map").is_some() && field.name.as_str() == "dom")
            {
                return false;
            }
            legal_path(symbols, typing, arg)
        }
        _ => false,
    }
}
