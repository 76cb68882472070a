//! Civl declarations that Civl would check nothing for: `base` (`crate::library`) declares
//! `pure action Assert`, so every program that uses the library has an action, Civl or not.
//!
//! Expects a type-checked program. Guarantees, when the program has no yield procedure and no
//! yield invariant and every action is `pure`, without mover type and without specifications
//! (`refines`, `requires`, `asserts`, `modifies`), a program without those actions and the
//! same verification outcome. Any other Civl program is refused here, at its first Civl
//! declaration (rboogie does not verify Civl yet): the later passes do not know Civl's
//! declarations (monomorphization would expand the library's types everywhere but in them).
//!
//! Why this is sound: only yield procedures and actions may call an action (resolution
//! reports other callers), so without yield procedures the actions are called by nothing that
//! is verified. Boogie's Civl rewriting then adds no check for them either: a checker of an
//! action's gate needs `asserts` clauses, mover checks a mover type, refinement checks a
//! `refines` clause, and the action's own copy is only ever inlined.

use super::{Pass, PassCx, PassError};
use crate::ast::{Decl, Program};
use crate::typeck::TypedProgram;

/// The pass (no configuration).
pub struct Civl;

impl Pass for Civl {
    fn name(&self) -> &'static str {
        "civl"
    }

    fn run(&self, typed: &TypedProgram, _cx: &mut PassCx) -> Result<Option<Program>, PassError> {
        run(typed)
    }
}

fn run(typed: &TypedProgram) -> Result<Option<Program>, PassError> {
    let decls = &typed.program.decls;
    let mut actions = 0;
    let civl = |span| Err(PassError::Unsupported { span: Some(span), what: "Civl".to_string() });
    for d in decls {
        match d {
            Decl::YieldProcedure(y) => return civl(y.span),
            Decl::YieldInvariant(y) => return civl(y.span),
            Decl::Action(a) if !(a.pure && a.mover.is_none() && a.specs.is_empty()) => return civl(a.span),
            Decl::Action(_) => actions += 1,
            _ => {}
        }
    }
    if actions == 0 {
        return Ok(None);
    }
    let decls = decls.iter().filter(|d| !matches!(d, Decl::Action(_))).cloned().collect();
    Ok(Some(Program { decls }))
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::passes::tests::typed;

    fn after(text: &str) -> Option<Program> {
        run(&typed(text)).unwrap()
    }

    #[test]
    fn inert_actions_go_the_rest_stays() {
        let program = after("pure action A(b: bool) { assert b; }\nprocedure P();").expect("changed");
        assert_eq!(program.decls.len(), 1);
        assert!(after("procedure P();").is_none());
    }

    /// A yield procedure, a yield invariant or an action Civl checks something for: refused
    /// at that declaration.
    #[test]
    fn civl_programs_are_refused_at_their_first_civl_declaration() {
        for text in [
            "pure action A(b: bool) { assert b; }\nyield procedure {:layer 1} Y();",
            "var {:layer 0, 1} x: int;\nyield invariant {:layer 1} Inv(); preserves x >= 0;",
            "var {:layer 0, 1} x: int;\natomic action {:layer 1} Incr() modifies x; { x := x + 1; }",
        ] {
            match run(&typed(text)) {
                Err(PassError::Unsupported { span: Some(_), what }) => assert_eq!(what, "Civl"),
                other => panic!("not refused: {other:?}\n{text}"),
            }
        }
    }
}
