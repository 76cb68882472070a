//! Houdini's assignment made part of the program: bounded mode under `/contractInfer`
//! (the driver computes the assignment with [`crate::houdini::infer`] on the program the
//! bounded check verifies, then runs this pass and the check).
//!
//! Expects a type-checked program and values for some of its constants (Houdini's existential
//! constants, `const {:existential true} b: bool`). Guarantees the same program with one axiom
//! per constant given a value, `axiom b;` or `axiom !b;`, after every other declaration:
//! verifying it is verifying the program under that assignment, so a candidate `b ==> e` is
//! asserted (and, past the assertion, assumed) exactly when Houdini kept `b`. A constant
//! without a value stays free. Without values (every mode but that one) the pass does nothing.

use std::sync::Arc;

use rustc_hash::FxHashMap;

use super::{Pass, PassCx, PassError};
use crate::ast::{AxiomDecl, Decl, Expr, ExprKind, NodeId, Program, UnaryOp};
use crate::typeck::TypedProgram;

/// The pass, with the constants' values by name (in Houdini's order).
pub struct AssignConstants(pub Option<Arc<Vec<(String, bool)>>>);

impl Pass for AssignConstants {
    fn name(&self) -> &'static str {
        "houdini-assignment"
    }

    fn run(&self, typed: &TypedProgram, _cx: &mut PassCx) -> Result<Option<Program>, PassError> {
        let Some(assignment) = &self.0 else { return Ok(None) };
        let values: FxHashMap<&str, bool> = assignment.iter().map(|(name, value)| (name.as_str(), *value)).collect();
        let mut axioms = Vec::new();
        for d in &typed.program.decls {
            let Decl::Const(c) = d else { continue };
            for name in c.names.iter() {
                let Some(&value) = values.get(name.name.as_str()) else { continue };
                // The axiom is at the constant's name, as the assignment speaks of it.
                let constant = Expr { kind: ExprKind::Var(*name), span: name.span, id: NodeId::NONE };
                let expr = if value {
                    constant
                } else {
                    let arg = Box::new(constant);
                    Expr { kind: ExprKind::Unary { op: UnaryOp::Not, arg }, span: name.span, id: NodeId::NONE }
                };
                axioms.push(Decl::Axiom(Box::new(AxiomDecl {
                    hideable: false,
                    attrs: Box::new([]),
                    expr,
                    span: name.span,
                })));
            }
        }
        if axioms.is_empty() {
            return Ok(None);
        }
        let mut program = typed.program.clone();
        program.decls.extend(axioms);
        Ok(Some(program))
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn each_valued_constant_gets_its_axiom() {
        let typed = crate::passes::tests::typed(
            "const {:existential true} b0: bool;\nconst {:existential true} b1, b2: bool;\nconst c: int;\n",
        );
        let values = vec![("b0".to_string(), true), ("b2".to_string(), false)];
        let pass = AssignConstants(Some(Arc::new(values)));
        let program = pass.run(&typed, &mut PassCx::default()).unwrap().expect("changed");
        let printed = crate::printer::print_program(&program, &Default::default());
        assert!(printed.contains("axiom b0;") && printed.contains("axiom !b2;"), "{printed}");
        assert!(!printed.contains("axiom !b1") && !printed.contains("axiom b1"), "{printed}");
        assert!(AssignConstants(None).run(&typed, &mut PassCx::default()).unwrap().is_none());
    }
}
