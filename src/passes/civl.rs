//! Civl declarations that Civl would check nothing for: `base` (`crate::library`) declares
//! `pure action Assert`, so every program that uses the library has an action, Civl or not.
//!
//! Expects a type-checked program. Guarantees, when the program has no yield procedure and no
//! yield invariant and every action is `pure`, without mover type and without specifications
//! (`refines`, `requires`, `asserts`, `modifies`), a program without those actions and the
//! same verification outcome; any other program is left as it is (the verifier refuses Civl).
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
    for d in decls {
        match d {
            Decl::YieldProcedure(_) | Decl::YieldInvariant(_) => return Ok(None),
            Decl::Action(a) if !(a.pure && a.mover.is_none() && a.specs.is_empty()) => return Ok(None),
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
        // A mover type or a yield procedure is Civl's to check: left alone.
        assert!(after("pure action A(b: bool) { assert b; }\nyield procedure {:layer 1} Y();").is_none());
        assert!(after("procedure P();").is_none());
    }
}
