//! STORM's harness (seed 004, §5.2): the concurrent program `Init; T_1 || ... || T_n`, built
//! from procedures the user names, for context-bounded checking
//! ([`crate::passes::sequentialize`]).
//!
//! The threads are the procedures named by `/thread:P` (once per thread: `/thread:P
//! /thread:P` runs two copies of `P`) and, in program order after them, the procedures marked
//! `{:thread}` (or `{:thread N}`: N copies); `Init` is `/init:P` or the procedure marked
//! `{:init}`. The harness is a procedure [`ENTRY`], the entry point of bounded mode:
//!
//! ```text
//! procedure storm$main() { call storm$init(); async call storm$thread$P(); ... }
//! procedure storm$thread$P() { var <P's parameters>; assume <P's requires>; call outs := P(ins); }
//! ```
//!
//! Each wrapper gives its procedure arbitrary arguments that satisfy its preconditions (its
//! locals are named as the procedure's parameters, so the preconditions read as written);
//! `where` clauses on the parameters hold as they do on locals. The threads are spawned one
//! after the other once `Init` is done, with nothing shared touched in between: each starts in
//! the first round, and the sequentialization interleaves them.
//!
//! The attributes take effect only in bounded mode: without it the program is Boogie's, and
//! Boogie ignores attributes it does not know.

use crate::ast::{
    AttrParam, BigBlock, Body, CallCmd, Cmd, CmdKind, Decl, Expr, ExprKind, Ident, LocalVars, ProcedureDecl, Program,
    Span, Spec, StmtList, Symbol,
};

/// The harness's entry point.
pub const ENTRY: &str = "storm$main";
/// The prefix of a thread's wrapper, before the name of the procedure it runs (one wrapper per
/// procedure; each thread is an `async call` of it). No `$<digits>$` in it: a copy's label,
/// `inline$storm$thread$P$0$Entry`, names it.
pub const THREAD: &str = "storm$thread$";

/// The harness the command line asks for.
#[derive(Clone, Debug, Default, PartialEq)]
pub struct Request<'a> {
    /// `/init:P`
    pub init: Option<&'a str>,
    /// `/thread:P`, in order.
    pub threads: &'a [String],
    /// `/main:P` was given: an entry point of its own, which a harness may not replace.
    pub main: bool,
}

/// What is wrong with a request, and where when the program says it.
#[derive(Clone, Debug, PartialEq)]
pub struct Invalid {
    pub at: Option<Span>,
    pub message: String,
}

impl From<String> for Invalid {
    fn from(message: String) -> Invalid {
        Invalid { at: None, message }
    }
}

impl From<&str> for Invalid {
    fn from(message: &str) -> Invalid {
        Invalid { at: None, message: message.into() }
    }
}

/// Adds the harness to `program` when threads are named; returns whether it did.
pub fn add(program: &mut Program, request: &Request) -> Result<bool, Invalid> {
    let procedure = |name: &str| {
        program.decls.iter().find_map(|d| match d {
            Decl::Procedure(p) if p.name.name.as_str() == name => Some(&**p),
            _ => None,
        })
    };
    let mut threads: Vec<&ProcedureDecl> = Vec::new();
    for name in request.threads {
        threads.push(procedure(name).ok_or_else(|| format!("thread procedure {name} not found"))?);
    }
    for d in &program.decls {
        let Decl::Procedure(p) = d else { continue };
        for a in p.attrs.iter().filter(|a| a.key.as_str() == "thread") {
            let copies = match &a.params[..] {
                [] => Some(1),
                [AttrParam::Expr(Expr { kind: ExprKind::IntLit(n), .. })] => {
                    n.as_str().parse::<usize>().ok().filter(|&n| n <= 1000)
                }
                _ => None,
            };
            let Some(copies) = copies else {
                let message = format!("{{:thread N}} on {}: N must be a number of threads up to 1000", p.name.name);
                return Err(Invalid { at: Some(a.span), message });
            };
            threads.extend(std::iter::repeat_n(&**p, copies));
        }
    }
    let marked_init: Vec<&ProcedureDecl> = program
        .decls
        .iter()
        .filter_map(|d| match d {
            Decl::Procedure(p) if p.attrs.iter().any(|a| a.key.as_str() == "init") => Some(&**p),
            _ => None,
        })
        .collect();
    let init = match request.init {
        Some(name) => Some(procedure(name).ok_or_else(|| format!("init procedure {name} not found"))?),
        None if marked_init.len() > 1 => {
            let message = "more than one procedure is marked {:init}".into();
            return Err(Invalid { at: Some(marked_init[1].name.span), message });
        }
        None => marked_init.first().copied(),
    };
    if threads.is_empty() {
        return match request.init {
            Some(_) => {
                Err("/init names the initialization of a harness with no threads (/thread:P or {:thread})".into())
            }
            None => Ok(false),
        };
    }
    let entry_marked = program.decls.iter().any(|d| match d {
        Decl::Procedure(p) => p.attrs.iter().any(|a| a.key.as_str() == "entrypoint"),
        Decl::Implementation(i) => i.attrs.iter().any(|a| a.key.as_str() == "entrypoint"),
        _ => false,
    });
    if request.main || entry_marked {
        return Err("a harness of threads (/thread:P or {:thread}) and an entry point (/main:P or \
                    {:entrypoint}) cannot both be given"
            .into());
    }
    for p in threads.iter().chain(&init) {
        if !p.type_params.is_empty() {
            let message = format!("{} has type parameters: it cannot be a thread or the initialization", p.name.name);
            return Err(Invalid { at: Some(p.name.span), message });
        }
    }

    let mut added = Vec::new();
    let mut main_cmds = Vec::new();
    let at = init.unwrap_or(threads[0]).name.span;
    if let Some(p) = init {
        let name = "storm$init".to_string();
        added.push(wrapper(p, &name));
        main_cmds.push(call(&name, false, at));
    }
    let mut wrapped = rustc_hash::FxHashSet::default();
    for p in &threads {
        let name = format!("{THREAD}{}", p.name.name);
        if wrapped.insert(p.name.name) {
            added.push(wrapper(p, &name));
        }
        main_cmds.push(call(&name, true, p.name.span));
    }
    added.push(procedure_with(ENTRY, Vec::new(), main_cmds, at));
    program.decls.extend(added);
    Ok(true)
}

/// `procedure NAME() { var <p's parameters>; assume <p's requires>; call outs := p(ins); }`
fn wrapper(p: &ProcedureDecl, name: &str) -> Decl {
    let at = p.name.span;
    let locals = p
        .ins
        .iter()
        .chain(p.outs.iter())
        .map(|g| LocalVars { attrs: Box::new([]), groups: Box::new([g.clone()]), span: g.span })
        .collect();
    let mut cmds: Vec<Cmd> = p
        .specs
        .iter()
        .filter_map(|s| match s {
            Spec::Requires { expr, span, .. } => {
                Some(Cmd { kind: CmdKind::Assume { attrs: Box::new([]), expr: expr.clone() }, span: *span })
            }
            _ => None,
        })
        .collect();
    let names = |groups: &[crate::ast::VarGroup]| -> Vec<Ident> {
        groups.iter().flat_map(|g| g.names.iter().copied()).collect()
    };
    let args = names(&p.ins)
        .into_iter()
        .map(|n| Expr { kind: ExprKind::Var(n), span: n.span, id: crate::ast::NodeId::NONE })
        .collect();
    cmds.push(Cmd {
        kind: CmdKind::Call(Box::new(CallCmd {
            is_async: false,
            is_free: false,
            attrs: Box::new([]),
            outs: names(&p.outs).into(),
            callee: p.name,
            args,
            span: at,
        })),
        span: at,
    });
    procedure_with(name, locals, cmds, at)
}

/// `call NAME();` or `async call NAME();`
fn call(name: &str, is_async: bool, at: Span) -> Cmd {
    let call = CallCmd {
        is_async,
        is_free: false,
        attrs: Box::new([]),
        outs: Box::new([]),
        callee: Ident::at(Symbol::intern(name), at),
        args: Box::new([]),
        span: at,
    };
    Cmd { kind: CmdKind::Call(Box::new(call)), span: at }
}

/// A procedure without parameters or contract, with a body of `cmds`.
fn procedure_with(name: &str, locals: Vec<LocalVars>, cmds: Vec<Cmd>, at: Span) -> Decl {
    let block = BigBlock { label: None, cmds: cmds.into(), tail: None, span: at };
    let body = Body { locals: locals.into(), stmts: StmtList { blocks: Box::new([block]), end: at }, span: at };
    Decl::Procedure(Box::new(ProcedureDecl {
        pure: false,
        attrs: Box::new([]),
        name: Ident::at(Symbol::intern(name), at),
        type_params: Box::new([]),
        ins: Box::new([]),
        outs: Box::new([]),
        specs: Box::new([]),
        body: Some(body),
        span: at,
    }))
}
