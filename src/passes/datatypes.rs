//! Datatype commands as assignments: Boogie's desugaring of unpack commands and of field
//! assignments (`UnpackCmd.ComputeDesugaring`, `FieldAssignLhs.AsSimpleAssignment`).
//!
//! Expects a type-checked program. Guarantees one without unpack commands and without
//! assignment targets that go through a field; expressions are untouched (vcgen encodes
//! `e->f`, `e->(f := v)` and `e is C` itself).
//!
//! How: in every body,
//! - `C(x, y) := e` becomes `assert {:rboogie_unpack} e is C; x, y := e->f, e->g;` (the
//!   attribute has vcgen report a failure as Boogie does, "the precondition for unpack could
//!   not be proved") (`f`, `g` the fields of `C`; once `e is C` holds, `e->f` is
//!   `C`'s own selector, whatever other constructors have a field `f`);
//! - a target through a field becomes an assignment of its variable, the selected part
//!   replaced: `q[x]->a := v` is `q := q[x := q[x]->(a := v)]`.
//!
//! Both keep the command's span, the `:=` token, where Boogie reports a failed unpack.

use super::{Pass, PassCx, PassError, rewrite};
use crate::ast::{
    AssignLhs, Attribute, Cmd, CmdKind, Expr, ExprKind, FieldUpdateExpr, NodeId, Program, StoreExpr, Symbol,
};
use crate::typeck::{FunctionKind, Ref, TypedProgram};

/// The pass (no configuration).
pub struct Datatypes;

impl Pass for Datatypes {
    fn name(&self) -> &'static str {
        "datatypes"
    }

    fn run(&self, typed: &TypedProgram, _cx: &mut PassCx) -> Result<Option<Program>, PassError> {
        // Both need a datatype; most programs have neither: look before copying.
        if typed.symbols().type_ctors.iter().all(|t| t.datatype_ctors.is_none()) {
            return Ok(None);
        }
        struct Find(bool);
        impl crate::walk::Visitor for Find {
            fn cmd(&mut self, c: &Cmd) {
                self.0 |= match &c.kind {
                    CmdKind::Unpack { .. } => true,
                    CmdKind::Assign { lhss, .. } => lhss.iter().any(through_field),
                    _ => false,
                };
            }
        }
        let mut find = Find(false);
        for d in &typed.program.decls {
            crate::walk::decl(&mut find, d);
        }
        if !find.0 {
            return Ok(None);
        }
        let mut d = Desugar { typed, changed: false };
        let decls = rewrite::bodies(&mut d, &typed.program.decls);
        Ok(d.changed.then_some(Program { decls }))
    }
}

struct Desugar<'a> {
    typed: &'a TypedProgram,
    changed: bool,
}

impl rewrite::Rewriter for Desugar<'_> {
    fn cmd(&mut self, c: &Cmd) -> Option<Vec<Cmd>> {
        match &c.kind {
            CmdKind::Unpack { ctor, vars, attrs, rhs } => {
                let Some(Ref::Function(f)) = self.typed.resolution.refs.get(ctor.id).copied() else {
                    return None;
                };
                let info = self.typed.symbols().function(f);
                if !matches!(info.kind, FunctionKind::Constructor { .. }) {
                    return None;
                }
                self.changed = true;
                let marker = Attribute { key: Symbol::intern(super::UNPACK_CHECK), params: Box::new([]), span: c.span };
                let test = expr(ExprKind::Is { arg: rhs.clone(), ctor: *ctor }, c.span);
                let mut out =
                    vec![Cmd { kind: CmdKind::Assert { attrs: Box::new([marker]), expr: test }, span: c.span }];
                if !vars.is_empty() {
                    let rhss = info
                        .params
                        .iter()
                        .map(|p| {
                            let mut field = self.typed.symbols().var(*p).name;
                            field.span = c.span;
                            expr(ExprKind::Field { arg: rhs.clone(), field }, c.span)
                        })
                        .collect();
                    let lhss = vars.iter().map(|v| AssignLhs::Var(*v)).collect();
                    out.push(Cmd { kind: CmdKind::Assign { lhss, attrs: attrs.clone(), rhss }, span: c.span });
                }
                Some(out)
            }
            CmdKind::Assign { lhss, attrs, rhss } if lhss.iter().any(through_field) => {
                self.changed = true;
                let (lhss, rhss): (Vec<AssignLhs>, Vec<Expr>) = lhss
                    .iter()
                    .zip(rhss.iter())
                    .map(
                        |(l, r)| {
                            if through_field(l) { simple_assignment(l, r.clone()) } else { (l.clone(), r.clone()) }
                        },
                    )
                    .unzip();
                let kind = CmdKind::Assign { lhss: lhss.into(), attrs: attrs.clone(), rhss: rhss.into() };
                Some(vec![Cmd { kind, span: c.span }])
            }
            _ => None,
        }
    }
}

fn expr(kind: ExprKind, span: crate::ast::Span) -> Expr {
    Expr { kind, span, id: NodeId::NONE }
}

fn through_field(l: &AssignLhs) -> bool {
    match l {
        AssignLhs::Var(_) => false,
        AssignLhs::Select { base, .. } => through_field(base),
        AssignLhs::Field { .. } => true,
    }
}

/// `l := rhs` as an assignment of `l`'s variable.
fn simple_assignment(l: &AssignLhs, rhs: Expr) -> (AssignLhs, Expr) {
    match l {
        AssignLhs::Var(_) => (l.clone(), rhs),
        AssignLhs::Select { base, indexes, span } => {
            let store = StoreExpr { map: lhs_value(base), indexes: indexes.clone(), value: rhs };
            simple_assignment(base, expr(ExprKind::Store(Box::new(store)), *span))
        }
        AssignLhs::Field { base, field, span } => {
            let update = FieldUpdateExpr { arg: lhs_value(base), field: *field, value: rhs };
            simple_assignment(base, expr(ExprKind::FieldUpdate(Box::new(update)), *span))
        }
    }
}

/// The value a target denotes, as an expression.
fn lhs_value(l: &AssignLhs) -> Expr {
    match l {
        AssignLhs::Var(v) => expr(ExprKind::Var(*v), v.span),
        AssignLhs::Select { base, indexes, span } => {
            expr(ExprKind::Select { map: Box::new(lhs_value(base)), indexes: indexes.clone() }, *span)
        }
        AssignLhs::Field { base, field, span } => {
            expr(ExprKind::Field { arg: Box::new(lhs_value(base)), field: *field }, *span)
        }
    }
}
