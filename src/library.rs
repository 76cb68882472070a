//! Boogie's libraries (`/lib:NAME`): Boogie programs written for Boogie 3.5 call functions and
//! use datatypes they do not declare (`Option`, `Vec`, `Set_Add`, `MapConst`, `Between`, ...),
//! expecting `/lib:base` (and `/lib:node`, `/lib:set_size`) to add them.
//!
//! rboogie ships its own versions of these libraries, in `prelude/NAME.bpl`, built into the
//! binary. The driver parses each one named after the input files as one more file of the
//! program, with its own file id and the name `NAME.bpl` in messages and no `FILE_i` define,
//! as Boogie's `ExecutionEngine.ParseLibrary` does; as there, `base` is added also when a
//! top-level declaration of the input carries a Civl attribute ([`needs_base`]).

use crate::ast::{Attribute, Decl};

/// Every library: its name after `/lib:` and its text.
const LIBRARIES: &[(&str, &str)] = &[
    ("base", include_str!("../prelude/base.bpl")),
    ("havoc", include_str!("../prelude/havoc.bpl")),
    ("node", include_str!("../prelude/node.bpl")),
    ("set_size", include_str!("../prelude/set_size.bpl")),
];

/// The text of library `name`, if there is one.
pub fn text(name: &str) -> Option<&'static str> {
    LIBRARIES.iter().find(|(n, _)| *n == name).map(|(_, text)| *text)
}

/// Boogie's message for a library it does not have (its libraries are resources of its
/// `Core` assembly, hence the name).
pub fn unknown(name: &str) -> String {
    format!("Error locating library: Core.{name}.bpl not found")
}

/// Whether the program needs `base` because some top-level declaration has one of Civl's
/// attributes (Boogie's `CivlAttributes.HasCivlAttribute`; it then also infers modifies
/// clauses).
pub fn needs_base(decls: &[Decl]) -> bool {
    const CIVL: &[&str] = &["layer", "yields", "hide", "sync", "linear", "linear_in", "linear_out"];
    let civl = |attrs: &[Attribute]| attrs.iter().any(|a| CIVL.contains(&a.key.as_ref()));
    decls.iter().any(|d| match d {
        Decl::Type(d) => civl(&d.attrs),
        Decl::Datatype(d) => civl(&d.attrs),
        Decl::Const(d) => civl(&d.attrs),
        Decl::Function(d) => civl(&d.attrs),
        Decl::Axiom(d) => civl(&d.attrs),
        // Boogie gives each global variable the attributes after `var`.
        Decl::Var(d) => civl(&d.attrs) || d.groups.iter().any(|g| civl(&g.attrs)),
        Decl::Procedure(d) => civl(&d.attrs),
        Decl::Implementation(d) => civl(&d.attrs),
        Decl::YieldInvariant(d) => civl(&d.attrs),
        Decl::Action(d) => civl(&d.attrs),
        Decl::YieldProcedure(d) => civl(&d.attrs),
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn every_library_parses_and_the_rest_are_unknown() {
        for (name, _) in LIBRARIES {
            let mut sources = crate::source::SourceMap::new();
            let id = sources.add(format!("{name}.bpl"), format!("{name}.bpl"), text(name).unwrap().to_string());
            assert!(crate::parser::parse(&mut sources, id, &[]).is_ok(), "{name}");
        }
        assert!(text("Base").is_none());
        assert_eq!(unknown("x"), "Error locating library: Core.x.bpl not found");
    }
}
