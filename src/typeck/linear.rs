//! Civl's linear types and primitives outside Civl: which procedures the primitives
//! (`/lib:base`'s `Move`, `One_Get`, ..., `Path_Store`) are, which types are linear, and the
//! errors of Boogie's `LinearTypeChecker` for implementations that are not yield procedures'
//! ([`availability`]). [`crate::passes::linear`] rewrites the primitives' calls.
//!
//! Expects a resolved and type-checked program. Guarantees Boogie's errors, declaration by
//! declaration:
//! - a global or an output declared `{:linear_in}`/`{:linear_out}`;
//! - in each implementation (but the primitives' own), first its commands': a primitive's
//!   path argument that is not a path (a variable, or fields and map entries of one, never
//!   through a `One` nor a `Map`'s `dom`), a `Move` of anything but variables, a
//!   `Path_Load`/`Path_Store` of a linear value, a primitive that would assign an input, one of
//!   the call's outputs or a global the procedure does not modify; an assignment to a field of
//!   a `One` or `Map`, a linear variable moved twice by one assignment, a pack of a linear
//!   field from anything but a variable, an unpack of a linear value from anything but a
//!   variable; a linear argument that is not a variable (not a path, for a primitive's
//!   in-out parameter), a global one to a procedure that is not pure, one passed twice;
//! - then, when the commands had none, which linear variables are available where (see
//!   [`Availability`]): at each return and at each call.
//!
//! Not made: Civl's own checks (yield procedures and actions are refused later, in
//! [`crate::passes::civl`]), the check of loop heads for linear globals, and the checks of
//! `One` and `Map` instantiated at linear types.
//!
//! A type is linear (Boogie's `LinearTypeCollector`) when it is `One T`, a `Map K V` whose `K`
//! is a `One _` or whose `V` is linear, or a datatype with a field of a linear type. The
//! implementations are analysed on vcgen's blocks (`crate::passes::blocks::blocks_for_analysis`),
//! as Boogie analyses its own, so that each error is at the token Boogie reports it at.

use rustc_hash::FxHashMap;

use super::{ProcedureId, Ref, Resolution, Symbols, Type, TypeCtorId, TypeVarId, Typing, VarKind};
use crate::ast::{CallCmd, Cmd, CmdKind, Decl, Expr, ExprKind, Symbol};
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

/// The names of all of Civl's primitives (Boogie's `CivlPrimitives.LinearPrimitives`): those
/// rewritten ([`Primitive`]) and those with bodies of their own.
const ALL_PRIMITIVE_NAMES: [&str; 13] = [
    "Loc_New",
    "Tag_New",
    "Tags_New",
    "Move",
    "Map_MakeEmpty",
    "Map_Get",
    "Map_Put",
    "Map_Split",
    "Map_Join",
    "One_Get",
    "One_Put",
    "Path_Load",
    "Path_Store",
];

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
    let linear = ctors.iter().any(|c| field_types(symbols, *c, args).iter().any(|f| linear_avoiding(symbols, f, seen)));
    seen.pop();
    linear
}

/// The field types of constructor `ctor` in the instance of its datatype at `args`.
fn field_types(symbols: &Symbols, ctor: super::FunctionId, args: &[Type]) -> Vec<Type> {
    let info = symbols.function(ctor);
    // A constructor's result is its datatype applied to the datatype's parameters, in order.
    let Type::Ctor(_, params) = &info.result else { return Vec::new() };
    let params: Vec<TypeVarId> =
        params.iter().filter_map(|p| if let Type::Var(v) = p { Some(*v) } else { None }).collect();
    info.param_types.iter().map(|t| super::resolve::substitute(t, &params, args)).collect()
}

/// Boogie's `CheckPrimitiveCall` for a call of `primitive`: its errors.
fn primitive_call_errors(
    resolution: &Resolution,
    typing: &Typing,
    primitive: Primitive,
    call: &CallCmd,
) -> Vec<String> {
    let mut errors = Vec::new();
    if primitive == Primitive::Move {
        for (i, a) in call.args.iter().enumerate().take(2) {
            if !matches!(a.kind, ExprKind::Var(_)) {
                errors.push(format!("argument at position {i} must be a variable"));
            }
        }
        return errors;
    }
    let Some(path) = call.args.first() else { return errors };
    if !legal_path(&resolution.symbols, typing, path) {
        errors.push("illegal path expression at position 0".to_string());
    }
    if matches!(primitive, Primitive::PathLoad | Primitive::PathStore)
        && let Some(t) = typing.expr_types.get(path.id.index())
        && is_linear(&resolution.symbols, t)
    {
        errors.push("argument at position 0 must have ordinary type".to_string());
    }
    errors
}

/// Boogie's checks of what a primitive assigns (its `ModifiedArgument`, the path's variable):
/// not an input, not one of the call's outputs, not a global `enclosing` does not modify.
fn modified_argument_errors(
    resolution: &Resolution,
    primitive: Primitive,
    call: &CallCmd,
    enclosing: Option<ProcedureId>,
) -> Vec<String> {
    let mut errors = Vec::new();
    if matches!(primitive, Primitive::Move | Primitive::PathLoad) {
        return errors;
    }
    let Some(root) = call.args.first().and_then(root) else { return errors };
    let Some(Ref::Var(v)) = resolution.refs.get(root.id).copied() else { return errors };
    let symbols = &resolution.symbols;
    let info = symbols.var(v);
    let is_out = |o: &crate::ast::Ident| resolution.refs.get(o.id).copied() == Some(Ref::Var(v));
    if info.kind == VarKind::In {
        errors.push(format!("primitive assigns to input variable: {}", info.name.name));
    } else if call.outs.iter().any(is_out) {
        errors.push(format!("primitive assigns to input variable that is also an output variable: {}", info.name.name));
    } else if info.kind == VarKind::Global
        && let Some(p) = enclosing
        && !symbols.procedure(p).modifies.contains(&v)
    {
        errors.push(format!(
            "primitive assigns to a global variable that is not in the enclosing procedure's modifies clause: {}",
            info.name.name
        ));
    }
    errors
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

/// Boogie's `LinearKind`: how a formal or global declares itself.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
enum Kind {
    Ordinary,
    Linear,
    LinearIn,
    LinearOut,
}

fn kind_of(attrs: &[crate::ast::Attribute]) -> Kind {
    let has = |k: &str| attrs.iter().any(|a| a.key.as_str() == k);
    if has("linear") {
        Kind::Linear
    } else if has("linear_in") {
        Kind::LinearIn
    } else if has("linear_out") {
        Kind::LinearOut
    } else {
        Kind::Ordinary
    }
}

/// The kinds of the declared formals of `groups`, in order (one per name).
fn group_kinds(groups: &[crate::ast::VarGroup]) -> Vec<(Kind, crate::ast::Ident)> {
    groups.iter().flat_map(|g| g.names.iter().map(move |n| (kind_of(&g.attrs), *n))).collect()
}

/// Boogie's linear availability checking (`LinearTypeChecker`'s visit of implementations that
/// are not yield procedures'), with the per-command checks it makes first; see [`Availability`].
pub fn availability(typed: &super::TypedProgram) -> Vec<Diagnostic> {
    let symbols = typed.symbols();
    let primitives = primitives(symbols);
    let mut a =
        Availability { typed, kinds: FxHashMap::default(), globals: Vec::new(), primitives, errors: Vec::new() };
    if !a.relevant() {
        return Vec::new();
    }
    a.collect_kinds();
    a.run();
    a.errors
}

/// The state of the check: the declared kinds of globals and formals (procedures' and
/// implementations'), and the errors found, in Boogie's order (declaration by declaration; in
/// an implementation, its commands' checks, then, only when they found nothing, the
/// availability of linear variables along its blocks).
///
/// A linear variable is available where it holds its value for the procedure: an input
/// `{:linear}`/`{:linear_in}` at entry, a variable once a linear value is moved into it; moving
/// its value out (assigning it to another variable, packing it, passing it to a `linear_in`
/// parameter) makes it unavailable. At a return, every linear output, `{:linear}` or
/// `{:linear_out}` input and linear global must be available; an argument of a linear
/// parameter must be available at the call. Paths join by intersection.
struct Availability<'a> {
    typed: &'a super::TypedProgram,
    kinds: FxHashMap<super::VarId, Kind>,
    /// The globals declared linear, in order.
    globals: Vec<super::VarId>,
    primitives: FxHashMap<ProcedureId, Primitive>,
    errors: Vec<Diagnostic>,
}

type VarSet = rustc_hash::FxHashSet<super::VarId>;

impl Availability<'_> {
    /// Whether the program declares anything linear (most do not: nothing to check).
    fn relevant(&self) -> bool {
        let symbols = self.typed.symbols();
        !self.primitives.is_empty()
            || symbols
                .type_ctors
                .iter()
                .any(|t| t.datatype_ctors.is_some() && matches!(t.name.name.as_str(), "One" | "Map"))
            || self.typed.program.decls.iter().any(|d| match d {
                Decl::Var(g) => {
                    kind_of(&g.attrs) != Kind::Ordinary || g.groups.iter().any(|g| kind_of(&g.attrs) != Kind::Ordinary)
                }
                Decl::Procedure(p) => p.ins.iter().chain(p.outs.iter()).any(|g| kind_of(&g.attrs) != Kind::Ordinary),
                Decl::Implementation(i) => {
                    i.ins.iter().chain(i.outs.iter()).any(|g| kind_of(&g.attrs) != Kind::Ordinary)
                }
                _ => false,
            })
    }

    fn collect_kinds(&mut self) {
        let symbols = self.typed.symbols();
        let var_of = |n: &crate::ast::Ident| match self.typed.referent(n) {
            Some(Ref::Var(v)) => Some(v),
            _ => None,
        };
        let mut kinds = FxHashMap::default();
        for d in &self.typed.program.decls {
            match d {
                Decl::Var(g) => {
                    let declared = kind_of(&g.attrs);
                    for (k, n) in group_kinds(&g.groups) {
                        if let Some(v) = var_of(&n) {
                            kinds.insert(v, if k == Kind::Ordinary { declared } else { k });
                        }
                    }
                }
                Decl::Procedure(p) => {
                    if let Some(&id) = symbols.procedures_by_name.get(&p.name.name) {
                        let info = symbols.procedure(id);
                        for (v, (k, _)) in info.ins.iter().zip(group_kinds(&p.ins)) {
                            kinds.insert(*v, k);
                        }
                        for (v, (k, _)) in info.outs.iter().zip(group_kinds(&p.outs)) {
                            kinds.insert(*v, k);
                        }
                    }
                }
                _ => {}
            }
        }
        for info in &symbols.implementations {
            let (ins, outs) = match self.typed.program.decls.get(info.decl.0 as usize) {
                Some(Decl::Procedure(p)) => (group_kinds(&p.ins), group_kinds(&p.outs)),
                Some(Decl::Implementation(i)) => (group_kinds(&i.ins), group_kinds(&i.outs)),
                _ => continue,
            };
            for (v, (k, _)) in info.ins.iter().zip(ins) {
                kinds.insert(*v, k);
            }
            for (v, (k, _)) in info.outs.iter().zip(outs) {
                kinds.insert(*v, k);
            }
        }
        self.kinds = kinds;
        self.globals = self.linear_globals();
    }

    fn kind(&self, v: super::VarId) -> Kind {
        self.kinds.get(&v).copied().unwrap_or(Kind::Ordinary)
    }

    fn ty_linear(&self, t: &Type) -> bool {
        is_linear(self.typed.symbols(), t)
    }

    fn var_linear(&self, v: super::VarId) -> bool {
        self.ty_linear(&self.typed.symbols().var(v).ty)
    }

    /// Boogie's `IsOrdinary` of a formal or global: of an ordinary type, or declared so.
    fn ordinary(&self, v: super::VarId) -> bool {
        !self.var_linear(v) || self.kind(v) == Kind::Ordinary
    }

    fn var_ref(&self, e: &Expr) -> Option<super::VarId> {
        match &e.kind {
            ExprKind::Var(n) => match self.typed.referent(n) {
                Some(Ref::Var(v)) => Some(v),
                _ => None,
            },
            _ => None,
        }
    }

    fn error(&mut self, span: crate::ast::Span, message: String) {
        let d = Diagnostic::error(Phase::Typecheck, span, message);
        // Availability is propagated around loops: one error, once.
        if !self.errors.iter().any(|e| e.span.same_as(&d.span) && e.message == d.message) {
            self.errors.push(d);
        }
    }

    /// Whether some linear variable's availability is checked in this implementation: it has
    /// a formal declared linear, the program a linear global, or the body a call of a
    /// procedure with an input declared linear.
    fn needs_flow(&self, info: &super::ImplementationInfo, body: &crate::ast::Body) -> bool {
        if info.ins.iter().chain(info.outs.iter()).any(|v| self.kind(*v) != Kind::Ordinary) || !self.globals.is_empty()
        {
            return true;
        }
        struct Calls<'a, 'b>(&'a Availability<'b>, bool);
        impl crate::walk::Visitor for Calls<'_, '_> {
            fn cmd(&mut self, c: &Cmd) {
                if let CmdKind::Call(call) = &c.kind
                    && let Some(Ref::Procedure(p)) = self.0.typed.referent(&call.callee)
                {
                    let ins = &self.0.typed.symbols().procedure(p).ins;
                    self.1 |= ins.iter().any(|v| self.0.kind(*v) != Kind::Ordinary);
                }
            }
        }
        let mut calls = Calls(self, false);
        crate::walk::stmts(&mut calls, &body.stmts);
        calls.1
    }

    fn linear_globals(&self) -> Vec<super::VarId> {
        let symbols = self.typed.symbols();
        let mut globals: Vec<super::VarId> = self
            .kinds
            .iter()
            .filter(|(v, k)| **k != Kind::Ordinary && symbols.var(**v).kind == VarKind::Global)
            .map(|(v, _)| *v)
            .collect();
        globals.sort();
        globals
    }

    fn run(&mut self) {
        let symbols = self.typed.symbols();
        let decls = &self.typed.program.decls;
        let by_decl: FxHashMap<usize, &super::ImplementationInfo> =
            symbols.implementations.iter().map(|i| (i.decl.0 as usize, i)).collect();
        for (index, d) in decls.iter().enumerate() {
            // Boogie's `VisitVariable`: globals and outputs are `{:linear}` or nothing.
            let declared_badly = |groups: &[crate::ast::VarGroup]| -> Vec<crate::ast::Span> {
                group_kinds(groups)
                    .into_iter()
                    .filter(|(k, _)| matches!(k, Kind::LinearIn | Kind::LinearOut))
                    .map(|(_, n)| n.span)
                    .collect()
            };
            let bad = match d {
                Decl::Var(g) if matches!(kind_of(&g.attrs), Kind::LinearIn | Kind::LinearOut) => {
                    g.groups.iter().flat_map(|g| g.names.iter().map(|n| n.span)).collect()
                }
                Decl::Var(g) => declared_badly(&g.groups),
                Decl::Procedure(p) => declared_badly(&p.outs),
                _ => Vec::new(),
            };
            for span in bad {
                self.error(
                    span,
                    "variable must be declared linear (as opposed to linear_in or linear_out)".to_string(),
                );
            }
            let implementation = match d {
                Decl::Procedure(p) if p.body.is_some() => true,
                Decl::Implementation(_) => true,
                _ => false,
            };
            if !implementation {
                continue;
            }
            let Some(info) = by_decl.get(&index).copied() else { continue };
            // The library's primitives with bodies (`Loc_New`, `Map_MakeEmpty`, ...) are not
            // checked (Boogie's `CivlPrimitives.IsPrimitive`).
            if ALL_PRIMITIVE_NAMES.contains(&info.name.name.as_str()) {
                continue;
            }
            let Some((_, body)) = crate::passes::blocks::named_body(d) else { continue };
            self.implementation(info, body);
        }
    }

    fn implementation(&mut self, info: &super::ImplementationInfo, body: &crate::ast::Body) {
        // Lowering to blocks costs about what vcgen's does: only for an implementation whose
        // availability can matter (a linear formal or global, a call with a linear formal);
        // the others get their commands' checks alone.
        if !self.needs_flow(info, body) {
            struct Commands<'a, 'b>(&'a mut Availability<'b>, Option<ProcedureId>);
            impl crate::walk::Visitor for Commands<'_, '_> {
                fn cmd(&mut self, c: &Cmd) {
                    self.0.command(c, self.1);
                }
            }
            let mut commands = Commands(self, info.procedure);
            crate::walk::stmts(&mut commands, &body.stmts);
            return;
        }
        let Ok(blocks) = crate::passes::blocks::blocks_for_analysis(self.typed, body) else { return };
        let enclosing = info.procedure;
        let before = self.errors.len();
        for b in &blocks {
            for c in &b.cmds {
                self.command(c, enclosing);
            }
        }
        if self.errors.len() > before || blocks.is_empty() {
            return;
        }
        let globals = self.globals.clone();
        let mut start: VarSet = globals.iter().copied().collect();
        start.extend(info.ins.iter().copied().filter(|v| matches!(self.kind(*v), Kind::Linear | Kind::LinearIn)));
        let mut available: Vec<Option<VarSet>> = vec![None; blocks.len()];
        available[0] = Some(start);
        let mut stack = vec![0usize];
        let mut on_stack = vec![false; blocks.len()];
        on_stack[0] = true;
        while let Some(b) = stack.pop() {
            on_stack[b] = false;
            let mut end = available[b].clone().unwrap_or_default();
            for c in &blocks[b].cmds {
                self.transfer(c, &mut end, &globals);
            }
            if blocks[b].succs.is_empty() {
                let at = blocks[b].transfer.unwrap_or(body.span);
                let symbols = self.typed.symbols();
                for g in &globals {
                    if !end.contains(g) && !self.ordinary(*g) {
                        self.error(
                            at,
                            format!("global variable {} must be available at a return", symbols.var(*g).name.name),
                        );
                    }
                }
                for v in &info.ins {
                    if !end.contains(v) && matches!(self.kind(*v), Kind::Linear | Kind::LinearOut) && !self.ordinary(*v)
                    {
                        self.error(
                            at,
                            format!("input variable {} must be available at a return", symbols.var(*v).name.name),
                        );
                    }
                }
                for v in &info.outs {
                    if !end.contains(v) && !self.ordinary(*v) {
                        self.error(
                            at,
                            format!("output variable {} must be available at a return", symbols.var(*v).name.name),
                        );
                    }
                }
                continue;
            }
            for &t in &blocks[b].succs {
                match &mut available[t] {
                    None => {
                        available[t] = Some(end.clone());
                        stack.push(t);
                        on_stack[t] = true;
                    }
                    Some(there) => {
                        let size = there.len();
                        there.retain(|v| end.contains(v));
                        if there.len() < size && !on_stack[t] {
                            stack.push(t);
                            on_stack[t] = true;
                        }
                    }
                }
            }
        }
        // Every linear global must be available at each loop head (of a reducible graph, as
        // Boogie checks only those), ordinary or not.
        if globals.is_empty() {
            return;
        }
        for h in loop_heads(&blocks).unwrap_or_default() {
            let at = blocks[h].tok.unwrap_or(body.span);
            for g in &globals {
                if !available[h].as_ref().is_some_and(|a| a.contains(g)) {
                    let name = self.typed.symbols().var(*g).name.name;
                    self.error(at, format!("global variable {name} must be available at a loop head"));
                }
            }
        }
    }
}

/// The loop heads of `blocks` (entry: block 0), in block order: the targets of a depth-first
/// walk's back edges; `None` when the graph is not reducible (a back edge's target does not
/// dominate its source), where Boogie's `Graph.Headers` has none to check.
fn loop_heads(blocks: &[crate::passes::blocks::AstBlock]) -> Option<Vec<usize>> {
    use petgraph::graph::{DiGraph, NodeIndex};
    let mut graph = DiGraph::<(), ()>::with_capacity(blocks.len(), blocks.len());
    let nodes: Vec<NodeIndex> = blocks.iter().map(|_| graph.add_node(())).collect();
    for (b, block) in blocks.iter().enumerate() {
        for &s in &block.succs {
            graph.add_edge(nodes[b], nodes[s], ());
        }
    }
    let dominators = petgraph::algo::dominators::simple_fast(&graph, nodes[0]);
    let dominates =
        |a: usize, b: usize| dominators.dominators(nodes[b]).is_some_and(|mut chain| chain.any(|d| d == nodes[a]));
    // Iterative depth-first walk: an edge to a block still on the stack is a back edge.
    let mut state = vec![0u8; blocks.len()];
    let mut heads = Vec::new();
    let mut stack = vec![(0usize, 0usize)];
    state[0] = 1;
    while let Some(&mut (b, ref mut i)) = stack.last_mut() {
        if let Some(&s) = blocks[b].succs.get(*i) {
            *i += 1;
            match state[s] {
                0 => {
                    state[s] = 1;
                    stack.push((s, 0));
                }
                1 if dominates(s, b) => heads.push(s),
                1 => return None,
                _ => {}
            }
        } else {
            state[b] = 2;
            stack.pop();
        }
    }
    heads.sort_unstable();
    heads.dedup();
    Some(heads)
}

impl Availability<'_> {
    /// The callee, the primitive it is if it is rewritten, and whether it is one of Civl's
    /// primitives at all (`Loc_New` and the like are, without being rewritten).
    fn primitive_of(&self, call: &CallCmd) -> Option<(ProcedureId, Option<Primitive>, bool)> {
        match self.typed.referent(&call.callee) {
            Some(Ref::Procedure(id)) => {
                let rewritten = self.primitives.get(&id).copied();
                let name = self.typed.symbols().procedure(id).name.name;
                Some((id, rewritten, rewritten.is_some() || ALL_PRIMITIVE_NAMES.contains(&name.as_str())))
            }
            _ => None,
        }
    }

    /// The declared kind of `callee`'s `i`th input and whether its type, as the call
    /// instantiates it (the argument's), is linear.
    fn formal(&self, callee: ProcedureId, call: &CallCmd, i: usize) -> (Kind, bool) {
        let info = self.typed.symbols().procedure(callee);
        let kind = info.ins.get(i).map_or(Kind::Ordinary, |v| self.kind(*v));
        let linear = call.args.get(i).is_some_and(|a| self.ty_linear(self.typed.type_of(a.id)));
        (kind, linear)
    }

    fn callee_is_pure(&self, callee: ProcedureId) -> bool {
        let decl = self.typed.symbols().procedure(callee).decl;
        matches!(self.typed.program.decls.get(decl.0 as usize), Some(Decl::Procedure(p)) if p.pure)
    }

    /// The type an assignment target denotes (`None` where it cannot be told).
    fn lhs_type(&self, l: &crate::ast::AssignLhs) -> Option<Type> {
        use crate::ast::AssignLhs;
        let symbols = self.typed.symbols();
        match l {
            AssignLhs::Var(n) => match self.typed.referent(n) {
                Some(Ref::Var(v)) => Some(symbols.var(v).ty.clone()),
                _ => None,
            },
            AssignLhs::Select { base, .. } => match self.lhs_type(base)?.deep_expanded() {
                Type::Map(m) if m.type_params.is_empty() => Some(m.result.clone()),
                _ => None,
            },
            AssignLhs::Field { base, field, .. } => {
                let t = self.lhs_type(base)?.deep_expanded();
                let Type::Ctor(id, args) = &t else { return None };
                let (ctor, index) = *symbols.accessors.get(&(*id, field.name))?.first()?;
                field_types(symbols, ctor, args).into_iter().nth(index)
            }
        }
    }

    /// The constructor `e` applies, when it is a constructor application.
    fn constructor_call<'e>(&self, e: &'e Expr) -> Option<(super::FunctionId, &'e [Expr])> {
        let ExprKind::Call { args, .. } = &e.kind else { return None };
        let Some(Ref::Function(f)) = self.typed.resolution.refs.get(e.id).copied() else { return None };
        matches!(self.typed.symbols().function(f).kind, super::FunctionKind::Constructor { .. })
            .then_some((f, &args[..]))
    }

    fn primitive_linear_type(&self, t: &Type) -> bool {
        let symbols = self.typed.symbols();
        datatype_named(symbols, t, "One").is_some() || datatype_named(symbols, t, "Map").is_some()
    }

    /// Boogie's `VisitAssignCmd`, `VisitUnpackCmd` and `VisitCallCmd` on one command.
    fn command(&mut self, c: &Cmd, enclosing: Option<ProcedureId>) {
        match &c.kind {
            CmdKind::Assign { lhss, rhss, .. } => {
                let mut sources = VarSet::default();
                for (l, r) in lhss.iter().zip(rhss.iter()) {
                    if !self.legal_target(l) {
                        let at = match l {
                            crate::ast::AssignLhs::Var(n) => n.span,
                            crate::ast::AssignLhs::Select { span, .. } => *span,
                            crate::ast::AssignLhs::Field { field, .. } => field.span,
                        };
                        self.error(at, "illegal assignment target".to_string());
                        continue;
                    }
                    if !self.ty_linear(self.typed.type_of(r.id)) {
                        continue;
                    }
                    if let Some(v) = self.var_ref(r) {
                        if !sources.insert(v) {
                            let name = self.typed.symbols().var(v).name.name;
                            self.error(
                                r.span,
                                format!("linear variable {name} can occur at most once as the source of an assignment"),
                            );
                        }
                    } else if let Some((f, args)) = self.constructor_call(r)
                        && !self.primitive_linear_type(self.typed.type_of(r.id))
                    {
                        let params = self.typed.symbols().function(f).params.clone();
                        for (p, a) in params.iter().zip(args) {
                            if !self.ty_linear(self.typed.type_of(a.id)) {
                                continue;
                            }
                            match self.var_ref(a) {
                                None => {
                                    let field = self.typed.symbols().var(*p).name.name;
                                    self.error(
                                        a.span,
                                        format!("pack argument for linear field {field} must be a variable"),
                                    );
                                }
                                Some(v) if !sources.insert(v) => {
                                    let name = self.typed.symbols().var(v).name.name;
                                    self.error(a.span, format!("linear variable {name} can occur at most once as the source of an assignment"));
                                }
                                Some(_) => {}
                            }
                        }
                    }
                }
            }
            CmdKind::Unpack { rhs, .. }
                if self.ty_linear(self.typed.type_of(rhs.id)) && self.var_ref(rhs).is_none() =>
            {
                self.error(c.span, "source for unpack must be a linear variable".to_string());
            }
            CmdKind::Call(call) => self.call_checks(call, enclosing),
            _ => {}
        }
    }

    /// Boogie's `IsLegalAssignmentTarget`: no field of a `One` or a `Map` is assigned.
    fn legal_target(&self, l: &crate::ast::AssignLhs) -> bool {
        use crate::ast::AssignLhs;
        match l {
            AssignLhs::Var(_) => true,
            AssignLhs::Select { base, .. } => self.legal_target(base),
            AssignLhs::Field { base, .. } => {
                !self.lhs_type(base).is_some_and(|t| self.primitive_linear_type(&t)) && self.legal_target(base)
            }
        }
    }

    fn call_checks(&mut self, call: &CallCmd, enclosing: Option<ProcedureId>) {
        let Some((callee, primitive, _)) = self.primitive_of(call) else { return };
        if let Some(p) = primitive {
            for m in primitive_call_errors(&self.typed.resolution, &self.typed.typing, p, call) {
                self.error(call.span, m);
            }
        }
        let symbols = self.typed.symbols();
        let mut inputs = VarSet::default();
        let mut global_inputs = Vec::new();
        for (i, arg) in call.args.iter().enumerate() {
            let (kind, linear) = self.formal(callee, call, i);
            if kind == Kind::Ordinary || !linear {
                continue;
            }
            let inout = primitive.is_some() && kind == Kind::Linear;
            let actual = if inout { root(arg).and_then(|n| self.var_of_ident(n)) } else { self.var_ref(arg) };
            let Some(v) = actual else {
                let shown = crate::printer::print_expr(arg);
                let message = if inout {
                    format!("invalid access path expression passed to inout linear parameter: {shown}")
                } else {
                    format!("only variable can be passed to linear parameter: {shown}")
                };
                self.error(call.span, message);
                continue;
            };
            let info = symbols.var(v);
            if info.kind == VarKind::Global && !self.callee_is_pure(callee) {
                self.error(
                    call.span,
                    format!("only local linear variable can be an argument to a procedure call: {}", info.name.name),
                );
                continue;
            }
            if !inputs.insert(v) {
                self.error(
                    call.span,
                    format!("linear variable {} can occur only once as an input parameter", info.name.name),
                );
                continue;
            }
            if info.kind == VarKind::Global && kind == Kind::LinearIn {
                global_inputs.push(v);
            }
        }
        let outs: Vec<super::VarId> = call.outs.iter().filter_map(|o| self.var_of_ident(o)).collect();
        for g in global_inputs {
            if !outs.contains(&g) {
                let name = symbols.var(g).name.name;
                self.error(
                    call.span,
                    format!("global variable passed as input to pure call but not received as output: {name}"),
                );
            }
        }
        if let Some(p) = primitive {
            for m in modified_argument_errors(&self.typed.resolution, p, call, enclosing) {
                self.error(call.span, m);
            }
        }
    }

    fn var_of_ident(&self, n: &crate::ast::Ident) -> Option<super::VarId> {
        match self.typed.referent(n) {
            Some(Ref::Var(v)) => Some(v),
            _ => None,
        }
    }

    /// Boogie's `PropagateAvailableLinearVarsAcrossBlock`, one command.
    fn transfer(&mut self, c: &Cmd, start: &mut VarSet, globals: &[super::VarId]) {
        match &c.kind {
            CmdKind::Assign { lhss, rhss, .. } => {
                let mut add = Vec::new();
                for (l, r) in lhss.iter().zip(rhss.iter()) {
                    if !self.ty_linear(self.typed.type_of(r.id)) {
                        continue;
                    }
                    let Some(target) = self.var_of_ident(super::check::lhs_root(l)) else { continue };
                    if let Some(v) = self.var_ref(r) {
                        let was = start.contains(&v);
                        start.remove(&target);
                        if was {
                            start.remove(&v);
                            add.push(target);
                        }
                    } else if let Some((_, args)) = self.constructor_call(r)
                        && !self.primitive_linear_type(self.typed.type_of(r.id))
                    {
                        let linear: Vec<super::VarId> = args
                            .iter()
                            .filter(|a| self.ty_linear(self.typed.type_of(a.id)))
                            .filter_map(|a| self.var_ref(a))
                            .collect();
                        let all = linear.iter().all(|v| start.contains(v));
                        start.remove(&target);
                        if all {
                            for v in &linear {
                                start.remove(v);
                            }
                            add.push(target);
                        }
                    } else {
                        start.remove(&target);
                    }
                }
                start.extend(add);
            }
            CmdKind::Unpack { vars, rhs, .. } => {
                if !self.ty_linear(self.typed.type_of(rhs.id)) {
                    return;
                }
                let Some(source) = self.var_ref(rhs) else { return };
                let was = start.contains(&source);
                let targets: Vec<super::VarId> = vars.iter().filter_map(|n| self.var_of_ident(n)).collect();
                for t in &targets {
                    start.remove(t);
                }
                if was {
                    start.remove(&source);
                    for t in targets {
                        if self.var_linear(t) {
                            start.insert(t);
                        }
                    }
                }
            }
            CmdKind::Call(call) => {
                let Some((callee, primitive, is_primitive)) = self.primitive_of(call) else { return };
                let symbols = self.typed.symbols();
                if !is_primitive {
                    for g in globals {
                        if !start.contains(g) {
                            let name = symbols.var(*g).name.name;
                            self.error(call.span, format!("global variable {name} must be available at a call"));
                        }
                    }
                }
                for (i, arg) in call.args.iter().enumerate() {
                    let (kind, linear) = self.formal(callee, call, i);
                    if kind == Kind::Ordinary || !linear {
                        continue;
                    }
                    let actual = if primitive.is_some() && kind == Kind::Linear {
                        root(arg).and_then(|n| self.var_of_ident(n))
                    } else {
                        self.var_ref(arg)
                    };
                    let Some(v) = actual else { continue };
                    if kind == Kind::LinearOut {
                        start.insert(v);
                    } else if start.contains(&v) {
                        if call.is_async || kind == Kind::LinearIn {
                            start.remove(&v);
                        }
                    } else {
                        let name = symbols.var(v).name.name;
                        self.error(
                            call.span,
                            format!("unavailable source {name} for linear parameter at position {i}"),
                        );
                    }
                }
                for o in call.outs.iter() {
                    if let Some(v) = self.var_of_ident(o)
                        && self.var_linear(v)
                    {
                        start.insert(v);
                    }
                }
                for (i, arg) in call.args.iter().enumerate() {
                    if self.formal(callee, call, i).0 == Kind::LinearOut
                        && let Some(v) = self.var_ref(arg)
                    {
                        start.insert(v);
                    }
                }
            }
            CmdKind::Havoc { vars } => {
                for n in vars.iter() {
                    if let Some(v) = self.var_of_ident(n) {
                        start.remove(&v);
                    }
                }
            }
            _ => {}
        }
    }
}
