//! Only the entry point's body: the other implementations dropped.
//!
//! Expects a bounded-mode program after eager inlining (Corral's `/staticInlining`): the entry
//! point has every call inlined to the bound, and the calls left in it are to procedures
//! checked by their contracts (bodiless ones, or copies past the bound, which inlining blocks).
//! No other implementation is verified in bounded mode.
//!
//! Guarantees the same verdict and the same trace for the entry point: every procedure stays
//! declared with its contract (a procedure written with its body loses only the body), and
//! the globals, functions, axioms and types stay as they are.
//!
//! Why: the passes after inlining (field abstraction, loop unrolling, sequentialization,
//! pinning) and their re-checks walk every declaration, so the dead bodies cost as much as the
//! entry point itself. The field-abstraction refinement loop runs those passes again for each
//! check: there, dropping the bodies once before the loop halves each iteration's pass time on
//! driver-like programs, whose routines are all inlined into the harness.

use crate::ast::{Decl, Program, Symbol};
use crate::typeck::TypedProgram;

use super::PassError;

/// The pass: `None` changes nothing.
pub struct EntryOnly(pub Option<Symbol>);

impl super::Pass for EntryOnly {
    fn name(&self) -> &'static str {
        "entry-only"
    }

    fn run(&self, typed: &TypedProgram, _cx: &mut super::PassCx) -> Result<Option<Program>, PassError> {
        let Some(entry) = self.0 else { return Ok(None) };
        let dead = |d: &Decl| match d {
            Decl::Implementation(i) => i.name.name != entry,
            Decl::Procedure(p) => p.body.is_some() && p.name.name != entry,
            _ => false,
        };
        if !typed.program.decls.iter().any(dead) {
            return Ok(None);
        }
        let mut decls = Vec::with_capacity(typed.program.decls.len());
        for d in &typed.program.decls {
            match d {
                Decl::Implementation(i) if i.name.name != entry => {}
                // The procedure stays, as its declaration: `procedure P(...) specs;`.
                Decl::Procedure(p) if p.body.is_some() && p.name.name != entry => {
                    decls.push(Decl::Procedure(Box::new(p.with_body(None))));
                }
                d => decls.push(d.clone()),
            }
        }
        Ok(Some(Program { decls }))
    }
}

#[cfg(test)]
mod tests {
    use crate::passes::Pass;

    fn after(text: &str, entry: &str) -> String {
        let typed = crate::passes::tests::typed(text);
        let program = super::EntryOnly(Some(crate::ast::Symbol::intern(entry)))
            .run(&typed, &mut Default::default())
            .expect("the pass runs");
        program.map(|p| crate::printer::print_program(&p, &Default::default())).unwrap_or_default()
    }

    #[test]
    fn other_bodies_go_and_their_contracts_stay() {
        let text = "var g: int;\n\
                    procedure Main() modifies g; { call P(); }\n\
                    procedure P() modifies g; ensures g > 0; { g := 1; }\n\
                    procedure Q(x: int) returns (y: int);\n\
                    implementation Q(x: int) returns (y: int) { y := x; }\n\
                    implementation Main() { call P(); }\n";
        let printed = after(text, "Main");
        assert!(printed.contains("procedure P()"), "{printed}");
        assert!(printed.contains("ensures g > 0;"), "{printed}");
        assert!(!printed.contains("g := 1"), "{printed}");
        assert!(!printed.contains("implementation Q"), "{printed}");
        assert!(printed.contains("implementation Main"), "{printed}");
        assert!(printed.matches("call P();").count() == 2, "{printed}");
    }

    #[test]
    fn nothing_to_drop_is_no_change() {
        assert_eq!(after("procedure Main() { assert true; }\n", "Main"), "");
    }
}
