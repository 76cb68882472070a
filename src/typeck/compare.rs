//! Does a pass's typed output ([`super::extend`]) say what checking it from scratch says?
//!
//! Expects a [`TypedProgram`] whose tables a pass extended. Guarantees `Ok` only when a copy
//! of its program, resolved and type-checked afresh, gives every identifier the same referent,
//! every written type and every expression the same type, every polymorphic application
//! the same instantiation, and lists the same declarations with lambdas. Variables, functions
//! and type variables are compared by what they print as (name, kind, type), not by id: a pass
//! may share a type variable between binders that checking from scratch keeps apart, and it
//! numbers nothing afresh.
//!
//! How: the copy is numbered afresh with the old identities recorded in tree order
//! ([`super::resolve::run_recording`]), so node `k` of the check is the node the pass's
//! tables know as `old[k]`. Run by `--check-passes` and by the passes' tests; it costs a
//! full check and more, so never otherwise.

use super::resolve::NodeKind;
use super::{Ref, Type, TypeckOptions, TypedProgram};
use crate::ast::NodeId;

/// At most this many differences are described.
const SHOWN: usize = 8;

/// `Err` describes the first differences between `fast`'s tables and a check from scratch.
pub fn against_recheck(fast: &TypedProgram) -> Result<(), String> {
    let mut program = fast.program.clone();
    let options = TypeckOptions { infer_modifies: true, threads: true, trusted: false, pass_output: true };
    let (resolution, diagnostics, old) = super::resolve::run_recording(&mut program, &options);
    if let Some(d) = diagnostics.iter().find(|d| d.severity == crate::diagnostics::Severity::Error) {
        return Err(format!("the program does not resolve again: {}", d.message));
    }
    let checked = super::check::run(&program, &resolution, &options);
    if let Some(d) = checked.diagnostics.iter().find(|d| d.severity == crate::diagnostics::Severity::Error) {
        return Err(format!("the program does not type-check again: {}", d.message));
    }
    let full = TypedProgram { program, resolution, typing: checked.typing };
    let mut differences = Vec::new();
    let mut differ = |k: usize, kind: NodeKind, what: &str, ours: String, theirs: String| {
        if ours != theirs && differences.len() < SHOWN {
            differences.push(format!("node {k} ({kind:?}): {what}: recorded {ours}, checked {theirs}"));
        }
    };
    for (k, &(id, kind)) in old.iter().enumerate() {
        let new = NodeId(k as u32);
        let known = id.0 != NodeId::NONE.0;
        let recorded_ref = if known { fast.resolution.refs.get(id).copied() } else { None };
        let checked_ref = full.resolution.refs.get(new).copied();
        differ(k, kind, "referent", describe_ref(fast, recorded_ref), describe_ref(&full, checked_ref));
        match kind {
            NodeKind::Type => {
                let recorded = if known { fast.resolution.types.get(id) } else { None };
                let checked = full.resolution.types.get(new);
                differ(k, kind, "written type", show_opt(fast, recorded), show_opt(&full, checked));
            }
            NodeKind::Expr => {
                let recorded = if known { fast.typing.expr_types.get(id.index()) } else { None };
                let checked = full.typing.expr_types.get(new.index());
                differ(k, kind, "type", show_opt(fast, recorded), show_opt(&full, checked));
                let recorded = if known { fast.typing.instantiations.get(&id.0) } else { None };
                let checked = full.typing.instantiations.get(&new.0);
                differ(k, kind, "instantiation", show_list(fast, recorded), show_list(&full, checked));
            }
            NodeKind::Ident => {}
        }
    }
    let names = |typed: &TypedProgram, vars: &[super::VarId]| -> Vec<String> {
        vars.iter().map(|v| typed.symbols().var(*v).name.name.to_string()).collect()
    };
    for (ours, theirs) in fast.symbols().procedures.iter().zip(&full.symbols().procedures) {
        let (recorded, checked) = (names(fast, &ours.modifies), names(&full, &theirs.modifies));
        if recorded != checked && differences.len() < SHOWN {
            differences.push(format!(
                "procedure {}: modifies: recorded {}, checked {}",
                ours.name.name,
                recorded.join(", "),
                checked.join(", ")
            ));
        }
    }
    if fast.resolution.decls_with_lambdas != full.resolution.decls_with_lambdas {
        differences.push(format!(
            "declarations with lambdas: recorded {:?}, checked {:?}",
            fast.resolution.decls_with_lambdas, full.resolution.decls_with_lambdas
        ));
    }
    if differences.is_empty() { Ok(()) } else { Err(differences.join("; ")) }
}

fn show(typed: &TypedProgram, t: &Type) -> String {
    t.deep_expanded().display(typed.symbols()).to_string()
}

fn show_opt(typed: &TypedProgram, t: Option<&Type>) -> String {
    t.map_or_else(|| "nothing".to_string(), |t| show(typed, t))
}

fn show_list(typed: &TypedProgram, ts: Option<&Vec<Type>>) -> String {
    match ts {
        None => "nothing".to_string(),
        Some(ts) => ts.iter().map(|t| show(typed, t)).collect::<Vec<_>>().join(", "),
    }
}

fn describe_ref(typed: &TypedProgram, r: Option<Ref>) -> String {
    let s = typed.symbols();
    match r {
        None => "nothing".to_string(),
        Some(Ref::Var(v)) => {
            let info = s.var(v);
            format!("variable {} ({:?}) : {}", info.name.name, info.kind, show(typed, &info.ty))
        }
        Some(Ref::Function(f)) => {
            let info = s.function(f);
            let params: Vec<String> =
                info.type_params.iter().map(|v| s.type_vars[v.0 as usize].name.name.to_string()).collect();
            let args: Vec<String> = info.param_types.iter().map(|t| show(typed, t)).collect();
            format!(
                "function {}<{}>({}) : {}",
                info.name.name,
                params.join(", "),
                args.join(", "),
                show(typed, &info.result)
            )
        }
        Some(Ref::Procedure(p)) => format!("procedure {}", s.procedure(p).name.name),
        Some(Ref::TypeCtor(c)) => format!("type {}", s.type_ctors[c.0 as usize].name.name),
        Some(Ref::TypeVar(v)) => format!("type variable {}", s.type_vars[v.0 as usize].name.name),
        Some(Ref::Label(l)) => format!("label {}", s.labels[l.index()].name.name),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// A program as checked from scratch has the tables checking it again gives.
    #[test]
    fn a_checked_program_agrees_with_itself() {
        let typed = crate::passes::tests::typed(
            "function F<T>(x: T) : int;\n\
             type S a = [a]int;\n\
             procedure P(y: int) returns (m: [int]int, s: S bool)\n\
             {\n  m := (lambda i: int :: i + y + F(true));\n}\n",
        );
        assert_eq!(against_recheck(&typed), Ok(()));
    }
}
