//! A typed program's side tables extended in place: what a pass records about the nodes it
//! builds, when it knows their types and referents, instead of having its output resolved and
//! type-checked again from scratch.
//!
//! Expects the [`TypedProgram`] the pass read, and a pass whose output keeps the identities
//! ([`NodeId`]) of the nodes it copied, each still meaning what it meant (same type, same
//! referent; [`crate::passes::rewrite`] copies so). Guarantees, once [`Extension::apply`]d to
//! the input's tables, tables for the output: the copied nodes' entries as they were, and
//! the entries recorded here for the nodes built with [`Extension::fresh`] identities, the
//! variables and functions added after the existing ones (so no existing id moves), and
//! the declarations added at the end of the program.
//!
//! Nothing here checks that what a pass records is what checking its output would give:
//! [`super::compare`] does, under `--check-passes` and in the passes' tests.

use super::{
    FunctionId, FunctionInfo, ProcedureId, Ref, Resolution, Type, TypedProgram, Typing, VarId, VarInfo, VarKind,
};
use crate::ast::{Expr, ExprKind, Ident, NodeId, Span, Symbol};

/// Entries for the nodes, variables and functions a pass built.
#[derive(Debug, Default)]
pub struct Extension {
    next: u32,
    var_base: usize,
    function_base: usize,
    refs: Vec<(NodeId, Ref)>,
    expr_types: Vec<(NodeId, Type)>,
    written: Vec<(NodeId, Type)>,
    instantiations: Vec<(NodeId, Vec<Type>)>,
    vars: Vec<VarInfo>,
    functions: Vec<FunctionInfo>,
    modifies: Vec<(ProcedureId, Vec<VarId>)>,
    no_lambdas: bool,
}

impl Extension {
    /// An empty extension of `typed`'s tables: fresh ids start after its last node.
    pub fn new(typed: &TypedProgram) -> Extension {
        Extension {
            next: typed.resolution.expr_count,
            var_base: typed.symbols().vars.len(),
            function_base: typed.symbols().functions.len(),
            ..Extension::default()
        }
    }

    /// An identity no node of the input has.
    pub fn fresh(&mut self) -> NodeId {
        let id = NodeId(self.next);
        self.next += 1;
        id
    }

    /// Identifier `id` refers to `r` (or, for a function application, the application does).
    pub fn bind(&mut self, id: NodeId, r: Ref) {
        self.refs.push((id, r));
    }

    /// Expression `id` has type `t`.
    pub fn set_type(&mut self, id: NodeId, t: Type) {
        self.expr_types.push((id, t));
    }

    /// The type written at `id` (a declaration's or binder's type) is `t`.
    pub fn set_written(&mut self, id: NodeId, t: Type) {
        self.written.push((id, t));
    }

    /// Application or selection `id` instantiates its function's or map's type parameters so.
    pub fn set_instantiation(&mut self, id: NodeId, types: Vec<Type>) {
        self.instantiations.push((id, types));
    }

    /// A new variable (a formal or bound variable of something the pass built).
    pub fn add_var(&mut self, info: VarInfo) -> VarId {
        self.vars.push(info);
        VarId((self.var_base + self.vars.len() - 1) as u32)
    }

    /// An identifier with a fresh identity, referring to `r` when given.
    pub fn ident(&mut self, name: Symbol, span: Span, r: Option<Ref>) -> Ident {
        let ident = Ident { id: self.fresh(), ..Ident::at(name, span) };
        if let Some(r) = r {
            self.bind(ident.id, r);
        }
        ident
    }

    /// A new variable of type `ty` and the identifier that declares it.
    pub fn declare_var(&mut self, name: Symbol, span: Span, kind: VarKind, ty: &Type) -> (Ident, VarId) {
        let ident = self.ident(name, span, None);
        let v = self.add_var(VarInfo { name: ident, kind, ty: ty.clone(), attrs_of: None });
        self.bind(ident.id, Ref::Var(v));
        (ident, v)
    }

    /// An occurrence of variable `v`, of type `ty`, as an expression.
    pub fn var_expr(&mut self, name: Symbol, span: Span, v: VarId, ty: &Type) -> Expr {
        let ident = self.ident(name, span, Some(Ref::Var(v)));
        let e = Expr { kind: ExprKind::Var(ident), span, id: self.fresh() };
        self.set_type(e.id, ty.clone());
        e
    }

    /// A new function, declared by a declaration the pass adds.
    pub fn add_function(&mut self, info: FunctionInfo) -> FunctionId {
        self.functions.push(info);
        FunctionId((self.function_base + self.functions.len() - 1) as u32)
    }

    /// Procedure `id` has a `modifies` clause more, naming `vars` (in order).
    pub fn add_modifies(&mut self, id: ProcedureId, vars: Vec<VarId>) {
        self.modifies.push((id, vars));
    }

    /// The output has no lambda left ([`Resolution::decls_with_lambdas`] becomes empty).
    pub fn no_lambdas_left(&mut self) {
        self.no_lambdas = true;
    }

    /// Writes the entries into the input's tables, which become the output's.
    pub fn apply(self, resolution: &mut Resolution, typing: &mut Typing) {
        let n = self.next as usize;
        resolution.expr_count = self.next;
        if self.no_lambdas {
            resolution.decls_with_lambdas.clear();
        }
        resolution.refs.grow(n);
        for (id, r) in self.refs {
            resolution.refs.insert(id, r);
        }
        for (id, t) in self.written {
            resolution.types.insert(id, t);
        }
        if typing.expr_types.len() < n {
            typing.expr_types.resize(n, Type::Bool);
        }
        for (id, t) in self.expr_types {
            typing.expr_types[id.index()] = t;
        }
        for (id, types) in self.instantiations {
            typing.instantiations.insert(id.0, types);
        }
        let symbols = &mut resolution.symbols;
        symbols.vars.extend(self.vars);
        for (id, vars) in self.modifies {
            symbols.procedures[id.index()].modifies.extend(vars);
        }
        for info in self.functions {
            let id = FunctionId(symbols.functions.len() as u32);
            symbols.functions_by_name.insert(info.name.name, id);
            symbols.functions.push(info);
        }
    }
}
