//! Procedure inlining: calls of procedures marked `{:inline N}` replaced by the callee's body
//! (Boogie's `Inliner`, Inline.cs).
//!
//! Expects a type-checked, monomorphic program. Guarantees a program in which, under
//! `/inline:assume` (the default) and `/inline:assert`, every call to a procedure with an
//! implementation and an inlining depth, in every implementation that is verified, is replaced
//! as Boogie replaces it:
//! - above the depth (counted per procedure down a chain of inlined calls, set by the call's
//!   `{:inline N}`, else the implementation's, else the procedure's), by the callee's body;
//! - at depth 0, by `assume false` (`/inline:assume`), `assert false` (`/inline:assert`), or
//!   left a call (`/inline:spec`).
//!
//! Under `assume` and `assert`, implementations of procedures with `{:inline}` are not verified
//! on their own (Boogie's `IsSkipVerification`): they get `{:verify false}`. `/inline:none`
//! leaves the program as it is.
//!
//! How, as Boogie does it: on blocks. Boogie coalesces every implementation's blocks before
//! it inlines, so the caller and each callee are first lowered to Boogie's coalesced blocks
//! ([`super::blocks::blocks_of`], with Boogie's `anonN` labels) and the result is written
//! back as labeled blocks with gotos, marked so that the verifier does not coalesce them again
//! ([`crate::vcgen::cfg::BLOCK_FORM`]): execution traces print these blocks. A block `B` holding
//! inlined calls is split at each: `B` ends in a goto to the first call's entry, and the code
//! after the `k`th call goes on in a block `B$k` with `B`'s token. Between them come:
//! - `inline$P$n$Entry`: the callee's in-parameters assigned the arguments, each `requires`
//!   asserted (at the call; in bounded mode marked with the `requires` it stands for,
//!   [`super::REQUIRES_CLAUSE`]), the callee's locals and outs havocked, and every variable the
//!   callee modifies copied into a local that stands for it under `old` (in bounded mode only
//!   those the copy reads under `old`, which sequentialization would make switch points);
//! - the callee's (coalesced, not yet inlined) blocks with their labels prefixed `inline$P$n$`
//!   and `return` turned into a goto to the exit; nested calls in them are inlined in turn;
//! - `inline$P$n$Return`: each `ensures` asserted (free ones dropped, `{:InlineAssume}` ones
//!   assumed), the outs copied to the call's targets, and a goto to `B$k`. The asserts are
//!   Boogie's `AssertEnsuresCmd` ([`super::INLINED_ENSURES`]): a failure is a postcondition's,
//!   on the return path this block's goto (which has no token) ends.
//!
//! The callee's formals and locals become fresh locals of the caller named
//! `inline$P$k$x` (the prefix grows `$` signs until no name in the caller starts with it, as in
//! Boogie's `ComputePrefix`). Copies of the callee's code keep the callee's spans, so errors
//! point into the callee; two copies of one occurrence are told apart by the numbers
//! re-checking gives them ([`crate::ast::NodeId`]), not by position.

use rustc_hash::{FxHashMap, FxHashSet};

use super::Inlining;
use super::blocks::{AstBlock, blocks_of, is_literal_false, mark_block_form, stmt_list, verify_false};
use super::{PassError, rewrite};
use crate::ast::{
    AssignLhs, AttrParam, Attribute, BigBlock, BlockTail, Body, CallCmd, Cmd, CmdKind, CodeExpr, Decl, Expr, ExprKind,
    Ident, LocalVars, Program, Span, Spec, SpecBlock, SpecTransfer, StmtList, Symbol, VarGroup,
};
use crate::typeck::{ImplementationId, ProcedureId, Ref, TypedProgram, VarId, VarKind};
use crate::vcgen::encode::int_attr;

/// The pass: `/inline:X` (what a call past its depth becomes), `/inlineDepth:N`, and
/// `/printInlined`.
#[derive(Clone, Debug)]
pub struct Inline {
    pub mode: Inlining,
    pub depth: Option<u32>,
    pub print_inlined: bool,
    /// Inline into this implementation only (bounded mode's entry point), even if it has
    /// `{:inline}` itself.
    pub only: Option<Symbol>,
    /// Stratified inlining ([`crate::vcgen::stratified`]): the call sites to inline, by path
    /// ([`site_path`]); every other call site within the bound is blocked (`assume false`).
    /// `None`: inline every call within the bound.
    pub sites: Option<std::sync::Arc<FxHashSet<String>>>,
    /// Context-bounded checking ([`super::sequentialize`]): `async` calls (and c2s's
    /// `call {:async}`) are inlined too, as threads. The copy's `Entry` starts with
    /// `assume {:rboogie_spawn "PREFIX"} true` and its `Return` ends with
    /// `assume {:rboogie_join "PREFIX"} true` (`PREFIX` the copy's label prefix); the callee's
    /// `ensures` are not asserted there (nothing waits for a thread).
    pub threads: bool,
    /// Houdini's inlining (Boogie's `ProcessImplementationForHoudini`, with every `ensures`
    /// marked `{:InlineAssume}`): the callee's `requires` are asserted as the call's
    /// preconditions ([`super::INLINED_REQUIRES`]), its `ensures` assumed, and the assertions
    /// of the copied body (loop invariants too) dropped: the callee's own check proves them.
    pub houdini: bool,
    /// Bounded mode's `/stackDepthBound:N` (with [`Inline::only`]; Corral's `StackDepth`): a
    /// call with N calls already on the inlining stack (its own making N + 1) is cut as a call
    /// past the recursion bound is.
    pub stack_depth: Option<u32>,
    /// `/coalesceBlocks`: bodies are coalesced before they are inlined into and copied
    /// ([`blocks_of`]), as Boogie's `CoalesceBlocks` runs before its `Inline`.
    pub coalesce: bool,
}

/// The attributes marking where an inlined thread starts and ends ([`Inline::threads`]).
pub const SPAWN: &str = "rboogie_spawn";
pub const JOIN: &str = "rboogie_join";

/// Whether a call starts a thread: `async call P()` or c2s's `call {:async} P()`.
pub fn is_async(call: &CallCmd) -> bool {
    call.is_async || has_attr(&call.attrs, "async")
}

/// A call site's path from the entry point: its caller's path, then `/P@F:O` for a call of
/// `P` at offset `O` of file `F` (copies of one call made by loop unrolling share it).
pub fn site_path(parent: &str, call: &CallCmd) -> String {
    format!("{parent}/{}@{}:{}", call.callee.name, call.span.file.0, call.span.start)
}

impl super::Pass for Inline {
    fn name(&self) -> &'static str {
        if self.houdini { "houdini-inline" } else { "inline" }
    }

    fn run(&self, typed: &TypedProgram, cx: &mut super::PassCx) -> Result<Option<Program>, PassError> {
        let Some(changes) = changes(typed, self, cx)? else { return Ok(None) };
        let mut decls = typed.program.decls.clone();
        for (index, decl) in changes {
            decls[index] = decl;
        }
        Ok(Some(Program { decls }))
    }

    /// As [`Pass::run`], without copying the declarations it does not change: those it
    /// replaces stay in `typed`, which the pipeline retires.
    fn run_owned(&self, typed: &mut TypedProgram, cx: &mut super::PassCx) -> Result<Option<super::Output>, PassError> {
        let Some(changes) = changes(typed, self, cx)? else { return Ok(None) };
        let mut decls = std::mem::take(&mut typed.program.decls);
        typed.program.decls =
            changes.into_iter().map(|(index, decl)| std::mem::replace(&mut decls[index], decl)).collect();
        Ok(Some(super::Output::Program(Program { decls })))
    }
}

/// The declarations the pass changes, by index, as they become; `None` when it changes none.
fn changes(
    typed: &TypedProgram,
    options: &Inline,
    cx: &mut super::PassCx,
) -> Result<Option<Vec<(usize, Decl)>>, PassError> {
    if options.mode == Inlining::None || (options.houdini && options.depth.is_none()) {
        return Ok(None);
    }
    let program = &typed.program;
    let has_inline = program.decls.iter().any(|d| match d {
        Decl::Procedure(p) => has_attr(&p.attrs, "inline"),
        Decl::Implementation(i) => has_attr(&i.attrs, "inline"),
        _ => false,
    });
    if !has_inline && options.depth.is_none() {
        return Ok(None);
    }
    let symbols = typed.symbols();
    let mut impl_of_proc: FxHashMap<ProcedureId, ImplementationId> = FxHashMap::default();
    for (i, info) in symbols.implementations.iter().enumerate() {
        if let Some(p) = info.procedure
            && is_procedure_body(typed, info.decl)
        {
            let id = ImplementationId(i as u32);
            let e = impl_of_proc.entry(p).or_insert(id);
            if symbols.implementations[e.index()].decl > info.decl {
                *e = id;
            }
        }
    }
    let skip_inlined = matches!(options.mode, Inlining::Assume | Inlining::Assert);
    let mut changes: Vec<(usize, Decl)> = Vec::new();
    // Each callee's blocks (Boogie's `OriginalBlocks`), once lowered.
    let mut callee_blocks: FxHashMap<ImplementationId, StmtList> = FxHashMap::default();
    for (index, info) in symbols.implementations.iter().enumerate() {
        let Some(proc_id) = info.procedure else { continue };
        // Civl's bodies (actions, yield procedures) are left to Civl, which the verifier refuses.
        if !is_procedure_body(typed, info.decl) {
            continue;
        }
        let proc_attrs = proc_decl(typed, proc_id).map_or(&[][..], |p| &p.attrs[..]);
        let (attrs, _, _, body) = impl_parts(typed, ImplementationId(index as u32));
        if verify_false(attrs) || verify_false(proc_attrs) || options.only.is_some_and(|o| o != info.name.name) {
            continue;
        }
        let original = &program.decls[info.decl.0 as usize];
        if skip_inlined && options.only.is_none() && (has_attr(attrs, "inline") || has_attr(proc_attrs, "inline")) {
            let verify = Attribute {
                key: Symbol::intern("verify"),
                params: Box::new([AttrParam::Expr(Expr {
                    kind: ExprKind::BoolLit(false),
                    span: info.name.span,
                    id: crate::ast::NodeId::NONE,
                })]),
                span: info.name.span,
            };
            let mut changed = original.clone();
            match &mut changed {
                Decl::Implementation(d) => d.attrs = d.attrs.iter().cloned().chain([verify]).collect(),
                Decl::Procedure(d) => d.attrs = d.attrs.iter().cloned().chain([verify]).collect(),
                _ => {}
            }
            changes.push((info.decl.0 as usize, changed));
            continue;
        }
        // A body the verifier cannot lower it reports itself, as it is.
        let Ok(blocks) = blocks_of(typed, body, options.coalesce) else { continue };
        let blocks = stmt_list(type_checked_order(blocks, options.threads), body);
        let mut inliner =
            Inliner::new(typed, options, &impl_of_proc, ImplementationId(index as u32), &blocks, &mut callee_blocks);
        let StmtList { blocks, end } = blocks;
        let stmts = inliner.blocks(blocks.into_vec());
        if let Some(e) = inliner.error {
            return Err(e);
        }
        if !inliner.inlined {
            continue;
        }
        // One declaration per new local, as Boogie prints them.
        let mut locals = body.locals.to_vec();
        locals.extend(inliner.new_locals.into_iter().map(|g| LocalVars {
            attrs: Box::new([]),
            span: g.span,
            groups: Box::new([g]),
        }));
        let new_body = Body { locals: locals.into(), stmts: StmtList { blocks: stmts.into(), end }, span: body.span };
        let mut changed = match original {
            Decl::Implementation(d) => Decl::Implementation(Box::new(d.with_body(new_body))),
            Decl::Procedure(d) => Decl::Procedure(Box::new(d.with_body(Some(new_body)))),
            _ => continue,
        };
        if options.print_inlined {
            let mut log = String::new();
            print_inlined(&changed, typed, &mut log);
            cx.print(log);
        }
        mark_block_form(&mut changed);
        changes.push((info.decl.0 as usize, changed));
    }
    Ok((!changes.is_empty()).then_some(changes))
}

/// Boogie's `EmitImpl`: the procedure, then the implementation after inlining.
fn print_inlined(decl: &Decl, typed: &TypedProgram, log: &mut String) {
    log.push_str("after inlining procedure calls\n");
    // Boogie emits the procedure and the implementation one after the other, not as a list.
    // Each of the two has a writer of its own (which moves the tokens of what it prints).
    let _recording = crate::moved::Recording::start();
    for decl in split_procedure(decl.clone()) {
        match &decl {
            Decl::Implementation(d) => crate::moved::implementation_writer(log, "<console>", d.name.name.as_str()),
            _ => crate::moved::writer(log, "<console>"),
        }
        let program = Program { decls: vec![decl] };
        log.push_str(&crate::printer::print_program(&program, &emit_impl_options(crate::emit::type_table(typed))));
    }
}

/// How Boogie's `EmitImpl` prints an implementation: its body as blocks, in Boogie's layout;
/// `types` is the program's [`crate::emit::type_table`].
pub(crate) fn emit_impl_options(types: crate::emit::TypeTable) -> crate::printer::PrintOptions {
    crate::printer::PrintOptions { pretty: false, emit: true, blocks: true, where_comments: true, types: Some(types) }
}

/// A procedure with a body as Boogie holds it: a procedure and an implementation.
pub(crate) fn split_procedure(decl: Decl) -> Vec<Decl> {
    match decl {
        Decl::Procedure(p) if p.body.is_some() => {
            let mut spec = *p;
            let body = spec.body.take().expect("checked above");
            let imp = crate::ast::ImplementationDecl {
                attrs: spec.attrs.clone(),
                name: spec.name,
                type_params: spec.type_params.clone(),
                ins: spec.ins.clone(),
                outs: spec.outs.clone(),
                body,
                span: spec.span,
            };
            vec![Decl::Procedure(Box::new(spec)), Decl::Implementation(Box::new(imp))]
        }
        other => vec![other],
    }
}

/// The program as Boogie prints it under `/print` with `/printInlined`: procedures with bodies
/// split, every body as the blocks the parser makes of it (Boogie's `Implementation.Emit`
/// prints blocks, not statements, when it prints inlined code). A body that cannot be lowered
/// stays as it is.
pub fn as_parsed_blocks(typed: &TypedProgram) -> Program {
    let mut decls = Vec::new();
    let unmarked = typed.program.decls.iter().map(super::blocks::without_block_form);
    for decl in unmarked.flat_map(split_procedure) {
        let decl = match decl {
            Decl::Implementation(mut imp) => {
                if let Ok(blocks) = blocks_of(typed, &imp.body, false) {
                    imp.body.stmts = stmt_list(blocks, &imp.body);
                }
                Decl::Implementation(imp)
            }
            other => other,
        };
        decls.push(decl);
    }
    Program { decls }
}

/// The blocks in the order Boogie has them when it inlines: its type checker (Civl's linear
/// checker, run on every program) prunes every implementation's unreachable blocks
/// (`Implementation.PruneUnreachableBlocks`), which lists them in the order of a depth-first
/// walk with a stack (a block's last successor first) and leaves a block holding a literal
/// `assert false` or `assume false` without successors. With `threads` (context-bounded
/// checking) such a block keeps its successors: a thread that fails or blocks stops, and the
/// threads after it go on.
pub(crate) fn type_checked_order(mut blocks: Vec<AstBlock>, threads: bool) -> Vec<AstBlock> {
    let mut order = Vec::new();
    let mut seen = vec![false; blocks.len()];
    let mut stack = if blocks.is_empty() { Vec::new() } else { vec![0] };
    while let Some(b) = stack.pop() {
        if std::mem::replace(&mut seen[b], true) {
            continue;
        }
        order.push(b);
        if !threads && blocks[b].cmds.iter().any(is_literal_false) {
            blocks[b].succs.clear();
        }
        stack.extend(blocks[b].succs.iter().copied());
    }
    let mut index = vec![usize::MAX; blocks.len()];
    for (i, &b) in order.iter().enumerate() {
        index[b] = i;
    }
    let mut blocks: Vec<Option<AstBlock>> = blocks.into_iter().map(Some).collect();
    order
        .iter()
        .map(|&b| {
            let mut block = blocks[b].take().expect("each block is visited once");
            block.succs = block.succs.iter().map(|&s| index[s]).collect();
            block
        })
        .collect()
}

pub(crate) fn has_attr(attrs: &[Attribute], key: &str) -> bool {
    attrs.iter().any(|a| a.key == key)
}

fn proc_decl(typed: &TypedProgram, p: ProcedureId) -> Option<&crate::ast::ProcedureDecl> {
    match &typed.program.decls[typed.symbols().procedure(p).decl.0 as usize] {
        Decl::Procedure(d) => Some(d),
        _ => None,
    }
}

/// Whether an implementation is a procedure's or an implementation declaration's body (not a
/// Civl action's or yield procedure's, which this pass leaves as they are).
fn is_procedure_body(typed: &TypedProgram, decl: crate::typeck::DeclIndex) -> bool {
    matches!(typed.program.decls[decl.0 as usize], Decl::Implementation(_) | Decl::Procedure(_))
}

/// An implementation's attributes, in- and out-parameter groups and body.
fn impl_parts(typed: &TypedProgram, id: ImplementationId) -> (&[Attribute], &[VarGroup], &[VarGroup], &Body) {
    match &typed.program.decls[typed.symbols().implementations[id.index()].decl.0 as usize] {
        Decl::Implementation(d) => (&d.attrs, &d.ins, &d.outs, &d.body),
        Decl::Procedure(d) => (&d.attrs, &d.ins, &d.outs, d.body.as_ref().expect("an implementation has a body")),
        _ => unreachable!("implementations are declared by procedures and implementations"),
    }
}

struct Inliner<'a, 'c> {
    typed: &'a TypedProgram,
    options: &'a Inline,
    /// `/inlineDepth:N`'s remaining depth (Boogie's `Inliner.inlineDepth`): when given, it
    /// decides for every call in place of the `{:inline N}` attributes.
    global_depth: Option<i64>,
    impl_of_proc: &'a FxHashMap<ProcedureId, ImplementationId>,
    /// The callees' blocks, shared by all callers.
    callee_blocks: &'c mut FxHashMap<ImplementationId, StmtList>,
    /// `inline$`, with `$`s added until nothing in the caller starts with it.
    prefix: String,
    /// How many times each procedure has been inlined into this caller.
    counters: FxHashMap<ProcedureId, u32>,
    /// Boogie's `UnrollDepthTracker`: the remaining depth per procedure, and the call that set it.
    depths: FxHashMap<ProcedureId, (i64, u32)>,
    /// Bounded mode (Corral's count, [`Inline::only`]): a call is inlined while its callee has
    /// fewer than this many copies on the inlining stack, and cut past it.
    per_callee: Option<i64>,
    on_stack: FxHashMap<ProcedureId, i64>,
    /// The procedures being inlined by the inliners this one (a code expression's) is nested
    /// in: inlining one of them again here would never end, since each code expression's
    /// inliner counts depths afresh (see [`Inliner::code_expr`]).
    enclosing: Vec<ProcedureId>,
    /// The copies being inlined into, nested ([`Inline::stack_depth`]).
    frames: u32,
    /// The path of the copy being inlined into and the calls met in it so far (stratified
    /// inlining's site names); the copy about to be inlined.
    site_stack: Vec<String>,
    next_site: Option<String>,
    calls_seen: u32,
    /// Names of the caller's own variables: a global of the callee's that one of them would
    /// shadow cannot be named in the caller.
    caller_names: FxHashSet<Symbol>,
    new_locals: Vec<VarGroup>,
    inlined: bool,
    error: Option<PassError>,
}

impl<'a, 'c> Inliner<'a, 'c> {
    fn new(
        typed: &'a TypedProgram,
        options: &'a Inline,
        impl_of_proc: &'a FxHashMap<ProcedureId, ImplementationId>,
        caller: ImplementationId,
        blocks: &StmtList,
        callee_blocks: &'c mut FxHashMap<ImplementationId, StmtList>,
    ) -> Inliner<'a, 'c> {
        let symbols = typed.symbols();
        let info = &symbols.implementations[caller.index()];
        let caller_names: FxHashSet<Symbol> =
            info.ins.iter().chain(&info.outs).chain(&info.locals).map(|v| symbols.var(*v).name.name).collect();
        let mut prefix = "inline$".to_string();
        let globals = symbols
            .vars
            .iter()
            .filter(|v| matches!(v.kind, VarKind::Global | VarKind::Const { .. }))
            .map(|v| v.name.name);
        let labels = blocks.blocks.iter().filter_map(|b| b.label.map(|l| l.name));
        for name in caller_names.iter().copied().chain(globals).chain(labels) {
            distinguish_prefix(&mut prefix, &name);
        }
        Inliner {
            typed,
            options,
            global_depth: options.depth.map(i64::from).filter(|_| options.only.is_none()),
            impl_of_proc,
            callee_blocks,
            prefix,
            counters: FxHashMap::default(),
            depths: FxHashMap::default(),
            per_callee: options.depth.map(i64::from).filter(|_| options.only.is_some()),
            on_stack: FxHashMap::default(),
            enclosing: Vec::new(),
            frames: 0,
            site_stack: vec![String::new()],
            next_site: None,
            calls_seen: 0,
            caller_names,
            new_locals: Vec::new(),
            inlined: false,
            error: None,
        }
    }

    /// Boogie's `DoInlineBlocks`: `blocks` (labeled, each ending in a goto or a return) with
    /// the calls to inline replaced; a block is split after each inlined call.
    fn blocks(&mut self, blocks: Vec<BigBlock>) -> Vec<BigBlock> {
        let mut out = Vec::with_capacity(blocks.len());
        for b in blocks {
            let label = b.label.expect("a block has a label");
            let piece = |k: u32| match k {
                0 => label.name,
                k => Symbol::intern(&format!("{}${k}", label.name)),
            };
            let mut cmds: Vec<Cmd> = Vec::new();
            let mut pieces = 0;
            for c in b.cmds {
                let CmdKind::Call(call) = &c.kind else {
                    cmds.push(self.in_code_exprs(c));
                    continue;
                };
                match self.call(call, &piece(pieces + 1)) {
                    CallAction::Keep => cmds.push(c),
                    CallAction::Replace(new) => cmds.push(new),
                    CallAction::Inline(inlined) => {
                        // No blocks only after an error, which ends the pass.
                        let Some(entry) = inlined.first().and_then(|b| b.label) else { continue };
                        out.push(BigBlock {
                            label: Some(Ident::at(piece(pieces), label.span)),
                            cmds: std::mem::take(&mut cmds).into(),
                            tail: Some(goto(entry.name, b.span)),
                            span: b.span,
                        });
                        out.extend(inlined);
                        pieces += 1;
                    }
                }
            }
            let label = if pieces == 0 { label } else { Ident::at(piece(pieces), label.span) };
            out.push(BigBlock { label: Some(label), cmds: cmds.into(), tail: b.tail, span: b.span });
        }
        out
    }

    /// `c` with the calls in its code expressions inlined (Boogie visits the expressions of
    /// assertions, assumptions and assignments' right-hand sides).
    fn in_code_exprs(&mut self, c: Cmd) -> Cmd {
        let has_code = |e: &Expr| has_code_expr(e);
        let inside = match &c.kind {
            CmdKind::Assert { expr, .. } | CmdKind::Assume { expr, .. } => has_code(expr),
            CmdKind::Assign { rhss, .. } => rhss.iter().any(has_code),
            _ => false,
        };
        if !inside {
            return c;
        }
        rewrite::cmd(&mut CodeExprInliner { inliner: self }, &c)
    }

    /// Boogie's `VisitCodeExpr`: the calls in a code expression's blocks inlined by an inliner
    /// of their own (no prefix, depths counted afresh, the procedures' counters shared), the
    /// callees' variables becoming locals of the code expression.
    fn code_expr(&mut self, c: &CodeExpr) -> CodeExpr {
        let mut enclosing = self.enclosing.clone();
        enclosing.extend(self.on_stack.iter().filter(|&(_, &n)| n > 0).map(|(&p, _)| p));
        let mut sub = Inliner {
            typed: self.typed,
            options: self.options,
            global_depth: self.global_depth.and(self.options.depth.map(i64::from)),
            impl_of_proc: self.impl_of_proc,
            callee_blocks: &mut *self.callee_blocks,
            prefix: String::new(),
            counters: std::mem::take(&mut self.counters),
            depths: FxHashMap::default(),
            per_callee: self.per_callee,
            on_stack: FxHashMap::default(),
            enclosing,
            frames: 0,
            site_stack: vec![String::new()],
            next_site: None,
            calls_seen: 0,
            caller_names: self.caller_names.clone(),
            new_locals: Vec::new(),
            inlined: false,
            error: None,
        };
        let mut blocks = Vec::with_capacity(c.blocks.len());
        for b in c.blocks.iter() {
            let tail = match &b.transfer {
                SpecTransfer::Goto { attrs, targets, span } => {
                    BlockTail::Goto { attrs: attrs.clone(), targets: targets.clone(), span: *span }
                }
                SpecTransfer::Return { attrs, span, .. } => BlockTail::Return { attrs: attrs.clone(), span: *span },
            };
            let big = BigBlock { label: Some(b.label), cmds: b.cmds.clone(), tail: Some(tail), span: b.span };
            let mut pieces = sub.blocks(vec![big]);
            let last = pieces.pop().expect("a block yields at least one piece");
            for piece in pieces {
                match piece.tail {
                    Some(BlockTail::Goto { attrs, targets, span }) => blocks.push(SpecBlock {
                        label: piece.label.expect("a block has a label"),
                        cmds: piece.cmds,
                        transfer: SpecTransfer::Goto { attrs, targets, span },
                        span: piece.span,
                    }),
                    _ => {
                        sub.error.get_or_insert(PassError::Unsupported {
                            span: Some(piece.span),
                            what: "inlining this procedure into a code expression".into(),
                        });
                    }
                }
            }
            blocks.push(SpecBlock {
                label: last.label.expect("a block has a label"),
                cmds: last.cmds,
                transfer: b.transfer.clone(),
                span: last.span,
            });
        }
        self.counters = sub.counters;
        self.inlined |= sub.inlined;
        if let Some(e) = sub.error {
            self.error.get_or_insert(e);
        }
        let locals = c.locals.iter().cloned().chain(sub.new_locals.into_iter().map(|g| LocalVars {
            attrs: Box::new([]),
            span: g.span,
            groups: Box::new([g]),
        }));
        CodeExpr { locals: locals.collect(), blocks: blocks.into() }
    }

    /// Boogie's `DoInlineBlocks` on one call; inlined code goes on at `next`.
    fn call(&mut self, call: &CallCmd, next: &Symbol) -> CallAction {
        let thread = is_async(call);
        if thread && !self.options.threads {
            return CallAction::Keep;
        }
        let Some(Ref::Procedure(p)) = self.typed.referent(&call.callee) else { return CallAction::Keep };
        let Some(&imp) = self.impl_of_proc.get(&p) else { return CallAction::Keep };
        if !self.typed.symbols().procedure(p).type_params.is_empty() {
            return CallAction::Keep;
        }
        self.calls_seen += 1;
        let serial = self.calls_seen;
        let depth = match (self.per_callee, self.global_depth) {
            (Some(_), _) if self.options.stack_depth.is_some_and(|bound| self.frames >= bound) => 0,
            (Some(bound), _) => bound - self.on_stack.get(&p).copied().unwrap_or(0),
            (None, Some(d)) => d,
            (None, None) => self.depth(call, p, imp, serial),
        };
        // Stratified inlining: a site not chosen yet stays open.
        if depth > 0
            && let Some(sites) = &self.options.sites
        {
            let parent = self.site_stack.last().expect("the entry's frame");
            let path = site_path(parent, call);
            if !sites.contains(&path) {
                self.inlined = true;
                let literal = Expr { kind: ExprKind::BoolLit(false), span: call.span, id: crate::ast::NodeId::NONE };
                return CallAction::Replace(Cmd {
                    kind: CmdKind::Assume { attrs: Box::new([]), expr: literal },
                    span: call.span,
                });
            }
            self.next_site = Some(path);
        }
        if depth > 0 && self.enclosing.contains(&p) {
            // A code expression in `p`'s inlined body calls `p` (directly or through other
            // inlined procedures): its inliner would inline `p` again, with that same code
            // expression in it, for ever (Boogie's does, until its stack overflows).
            self.error.get_or_insert(PassError::Unsupported {
                span: Some(call.span),
                what: format!(
                    "inlining procedure {} again into a code expression of its own inlined body (an inlining without end)",
                    self.typed.symbols().procedure(p).name.name
                ),
            });
            return CallAction::Keep;
        }
        let action = if depth > 0 {
            self.inlined = true;
            CallAction::Inline(self.inline(call, p, imp, *next))
        } else if depth == 0 {
            self.inlined = true;
            let literal = Expr { kind: ExprKind::BoolLit(false), span: call.span, id: crate::ast::NodeId::NONE };
            match self.options.mode {
                Inlining::Assert => CallAction::Replace(Cmd {
                    kind: CmdKind::Assert { attrs: Box::new([]), expr: literal },
                    span: call.span,
                }),
                Inlining::Assume => CallAction::Replace(Cmd {
                    kind: CmdKind::Assume { attrs: Box::new([]), expr: literal },
                    span: call.span,
                }),
                _ => CallAction::Keep,
            }
        } else {
            CallAction::Keep
        };
        if self.depths.get(&p).is_some_and(|&(_, by)| by == serial) {
            self.depths.remove(&p);
        }
        action
    }

    /// Boogie's `TryDefineCount`: the depth tracked for `p`, else the call's `{:inline N}`,
    /// else the procedure's (over the implementation's); -1 when none.
    fn depth(&mut self, call: &CallCmd, p: ProcedureId, imp: ImplementationId, serial: u32) -> i64 {
        if let Some(&(d, _)) = self.depths.get(&p) {
            return d;
        }
        let mut depth = int_attr(&call.attrs, "inline").unwrap_or(-1);
        if depth < 0 {
            if let Some(d) = int_attr(impl_parts(self.typed, imp).0, "inline") {
                depth = d;
            }
            if let Some(d) = proc_decl(self.typed, p).and_then(|pd| int_attr(&pd.attrs, "inline")) {
                depth = d;
            }
        }
        if depth >= 0 {
            self.depths.insert(p, (depth, serial));
        }
        depth
    }

    /// Boogie's `InlineCallCmd` and `CreateInlinedBlocks`: the blocks that stand for `call`,
    /// the entry first, the exit going on at `next`.
    fn inline(&mut self, call: &CallCmd, p: ProcedureId, imp: ImplementationId, next: Symbol) -> Vec<BigBlock> {
        let typed = self.typed;
        let symbols = typed.symbols();
        let proc_info = symbols.procedure(p);
        let impl_info = &symbols.implementations[imp.index()];
        let (_, ins, outs, body) = impl_parts(typed, imp);
        let pdecl = proc_decl(typed, p).expect("a procedure's declaration");
        let count = {
            let c = self.counters.entry(p).or_insert(0);
            let n = *c;
            *c += 1;
            n
        };
        let here = format!("{}{}${}$", self.prefix, proc_info.name.name, count);
        let named = |name: &str| Symbol::intern(&format!("{here}{name}"));
        let at = impl_info.name.span;

        // Fresh locals for the callee's locals, ins and outs (in that order, as Boogie adds
        // them), then for the globals it modifies.
        let mut map: FxHashMap<VarId, Symbol> = FxHashMap::default();
        let mut declared: Vec<(Symbol, &VarGroup)> = Vec::new();
        let local_groups = body.locals.iter().flat_map(|l| l.groups.iter());
        for g in local_groups.chain(ins.iter()).chain(outs.iter()) {
            for n in &g.names {
                if let Some(Ref::Var(v)) = typed.referent(n) {
                    let new = named(&n.name);
                    map.insert(v, new);
                    declared.push((new, g));
                }
            }
        }
        for (pv, iv) in proc_info.ins.iter().zip(&impl_info.ins).chain(proc_info.outs.iter().zip(&impl_info.outs)) {
            // In `procedure P(x) { ... }` the binders name the procedure's formals.
            if let Some(&new) = map.get(iv).or_else(|| map.get(pv)) {
                map.insert(*pv, new);
                map.insert(*iv, new);
            }
        }
        let mut old_map: FxHashMap<VarId, Symbol> = FxHashMap::default();
        let mut modified: Vec<VarId> = Vec::new();
        // A local or formal of the callee's named as a global it modifies (hiding it there)
        // takes the copy's name `inline$P$n$g`: Boogie's two copies share it (its variables
        // are objects, not names); here the old value's copy gets `$old` added until it
        // names nothing else, since the output is resolved by name.
        let mut taken: FxHashSet<Symbol> = map.values().copied().collect();
        for &g in &proc_info.modifies {
            if let std::collections::hash_map::Entry::Vacant(e) = old_map.entry(g) {
                let mut name = named(&symbols.var(g).name.name);
                while taken.contains(&name) {
                    name = Symbol::intern(&format!("{name}$old"));
                }
                taken.insert(name);
                e.insert(name);
                modified.push(g);
            }
        }
        let exit_label = Ident::at(named("Return"), at);
        let mut renamer = Renamer {
            typed,
            map: &map,
            old_map: &old_map,
            in_old: false,
            label_prefix: here.clone(),
            exit: exit_label,
            caller_names: &self.caller_names,
            shadowed: None,
            copying_binder: false,
            used_old: FxHashSet::default(),
        };
        for (new, g) in &declared {
            let where_clause = g.where_clause.as_ref().map(|w| Box::new(rewrite::expr(&mut renamer, w)));
            let name = Ident::at(*new, g.span);
            self.new_locals.push(VarGroup {
                attrs: Box::new([]),
                names: Box::new([name]),
                ty: g.ty.clone(),
                where_clause,
                span: g.span,
            });
        }
        let var = |name: Symbol, like: Span| Ident::at(name, like);
        let assign = |lhs: Ident, rhs: Expr, span: Span| Cmd {
            kind: CmdKind::Assign { lhss: Box::new([AssignLhs::Var(lhs)]), attrs: Box::new([]), rhss: Box::new([rhs]) },
            span,
        };

        // Boogie adds the callee's `requires e >= 0` for its measure and the checks of its
        // recursive calls to the callee's body before inlining: not done here, so refused.
        if let Some(Spec::Measure { span, .. }) = pdecl.specs.iter().find(|s| matches!(s, Spec::Measure { .. })) {
            let what = "inlining a procedure with a measure".to_string();
            self.error.get_or_insert(PassError::Unsupported { span: Some(*span), what });
            return Vec::new();
        }

        // Entry.
        let mut entry = Vec::new();
        let thread = self.options.threads && is_async(call);
        let marker = |key: &str| {
            let param = AttrParam::Str(here.clone(), at);
            let attr = Attribute { key: Symbol::intern(key), params: Box::new([param]), span: call.span };
            let yes = Expr { kind: ExprKind::BoolLit(true), span: call.span, id: crate::ast::NodeId::NONE };
            Cmd { kind: CmdKind::Assume { attrs: Box::new([attr]), expr: yes }, span: call.span }
        };
        if thread {
            entry.push(marker(SPAWN));
        }
        for (formal, arg) in impl_info.ins.iter().zip(&call.args) {
            entry.push(assign(var(map[formal], call.span), arg.clone(), at));
        }
        for spec in &pdecl.specs {
            if let Spec::Requires { free: false, attrs, expr, span } = spec {
                let expr = rewrite::expr(&mut renamer, expr);
                let mut attrs = rewrite::attrs(&mut renamer, attrs);
                // Boogie's inliner asserts a precondition as an `AssertRequiresCmd`, whose
                // failure is the call's precondition's, one check per `requires`; bounded mode
                // reports an assertion at the call, and names the `requires` it stands for.
                let marker = match self.options.only {
                    Some(_) if !self.options.houdini => super::REQUIRES_CLAUSE,
                    _ => super::INLINED_REQUIRES,
                };
                let marker = Attribute { key: Symbol::intern(marker), params: Box::new([]), span: *span };
                attrs = attrs.into_iter().chain([marker]).collect();
                entry.push(Cmd { kind: CmdKind::Assert { attrs, expr }, span: call.span });
            }
        }
        let havocked: Vec<Ident> = impl_info.locals.iter().chain(&impl_info.outs).map(|v| var(map[v], at)).collect();
        if !havocked.is_empty() {
            entry.push(Cmd { kind: CmdKind::Havoc { vars: havocked.into() }, span: at });
        }

        // The body's blocks, then the exit.
        let original = match self.callee_blocks.entry(imp) {
            std::collections::hash_map::Entry::Occupied(e) => e.into_mut(),
            std::collections::hash_map::Entry::Vacant(e) => match blocks_of(typed, body, self.options.coalesce) {
                Ok(blocks) => e.insert(stmt_list(type_checked_order(blocks, self.options.threads), body)),
                Err(unsupported) => {
                    self.error.get_or_insert(PassError::Unsupported { span: unsupported.span, what: unsupported.what });
                    return Vec::new();
                }
            },
        };
        let start = original.blocks.first().and_then(|b| b.label).map(|l| l.name);
        let mut copied: Vec<BigBlock> = original.blocks.iter().map(|b| rewrite::big_block(&mut renamer, b)).collect();
        // Boogie's `RemoveAsserts` under a global inlining depth (Houdini's).
        if self.options.houdini {
            for b in &mut copied {
                b.cmds = b.cmds.iter().filter(|c| !matches!(c.kind, CmdKind::Assert { .. })).cloned().collect();
            }
        }
        let mut exit = Vec::new();
        for spec in &pdecl.specs {
            if let Spec::Ensures { free, attrs, expr, span } = spec
                && !thread
            {
                let expr = rewrite::expr(&mut renamer, expr);
                if has_attr(attrs, "InlineAssume") || (self.options.houdini && !free) {
                    exit.push(Cmd { kind: CmdKind::Assume { attrs: Box::new([]), expr }, span: *span });
                } else if !free {
                    // Boogie's `AssertEnsuresCmd`: a postcondition's failure (vcgen).
                    let marker =
                        Attribute { key: Symbol::intern(super::INLINED_ENSURES), params: Box::new([]), span: *span };
                    let attrs = rewrite::attrs(&mut renamer, attrs).into_iter().chain([marker]).collect();
                    // The command is a copy with a token of its own (a print moves it, not the
                    // callee's `ensures`, which the marker's span names).
                    let own = Span { file: crate::ast::FileId(u32::MAX), ..*span };
                    exit.push(Cmd { kind: CmdKind::Assert { attrs, expr }, span: own });
                }
            }
        }
        for (formal, target) in impl_info.outs.iter().zip(&call.outs) {
            let copy = var(map[formal], at);
            let value = Expr { kind: ExprKind::Var(copy), span: copy.span, id: crate::ast::NodeId::NONE };
            exit.push(assign(*target, value, at));
        }
        if thread {
            exit.push(marker(JOIN));
        }
        // The copies that stand for the modified globals under `old`, last in the entry. In
        // bounded mode only those the copied code reads under `old`: the others are locals
        // assigned and never read, and each is a read of a shared global, which
        // sequentialization makes a context-switch point (STORM's harness inlines callees that
        // modify every field of the device extension: on a 200-field driver, two thirds of the
        // entry point's commands were such copies). Boogie's inliner copies every one, and so
        // does this one where its output is shown (`/printInlined`) or checked modularly.
        let every_copy = self.options.only.is_none() || self.options.print_inlined;
        for g in modified.iter().filter(|g| every_copy || renamer.used_old.contains(g)) {
            if let Some(ty) = global_type(typed, *g) {
                let name = Ident::at(old_map[g], at);
                self.new_locals.push(VarGroup {
                    attrs: Box::new([]),
                    names: Box::new([name]),
                    ty,
                    where_clause: None,
                    span: at,
                });
            }
            let global = symbols.var(*g).name;
            if self.caller_names.contains(&global.name) {
                renamer.shadowed = Some(call.span);
            }
            let current = Expr { kind: ExprKind::Var(global), span: global.span, id: crate::ast::NodeId::NONE };
            entry.push(assign(var(old_map[g], at), current, at));
        }
        if let Some(span) = renamer.shadowed
            && self.error.is_none()
        {
            self.error = Some(PassError::Unsupported {
                span: Some(span),
                what: "inlining a procedure that uses a global the caller's variables hide".into(),
            });
        }

        let mut blocks = Vec::with_capacity(copied.len() + 2);
        let start = start.map_or(exit_label.name, |l| named(&l));
        blocks.push(BigBlock {
            label: Some(Ident::at(named("Entry"), at)),
            cmds: entry.into(),
            tail: Some(goto(start, call.span)),
            span: at,
        });
        blocks.extend(copied);
        // Boogie gives `Entry` and `Return` the callee's token; `/print` moves the two apart,
        // so their spans differ (in their ends only, which no message shows).
        let exit_span = Span { end: at.end + 1, ..at };
        // Boogie's goto out of `Return` has no token (`Token.NoToken`, reported as `(0,0)`
        // where an inlined postcondition fails, unless `/printInlined` printed it): a span in
        // no file, of its own so that a print can place it.
        let nowhere = Span { file: crate::ast::FileId(u32::MAX), ..at };
        let exit_goto = match goto(next, at) {
            BlockTail::Goto { attrs, targets, .. } => BlockTail::Goto { attrs, targets, span: nowhere },
            other => other,
        };
        blocks.push(BigBlock { label: Some(exit_label), cmds: exit.into(), tail: Some(exit_goto), span: exit_span });

        // Nested calls in the copy, one level deeper.
        *self.on_stack.entry(p).or_default() += 1;
        self.frames += 1;
        let site = self.next_site.take();
        if let Some(path) = &site {
            self.site_stack.push(path.clone());
        }
        if let Some(g) = &mut self.global_depth {
            *g -= 1;
        } else if let Some(d) = self.depths.get_mut(&p) {
            d.0 -= 1;
        }
        let blocks = self.blocks(blocks);
        if let Some(g) = &mut self.global_depth {
            *g += 1;
        } else if let Some(d) = self.depths.get_mut(&p) {
            d.0 += 1;
        }
        *self.on_stack.entry(p).or_default() -= 1;
        self.frames -= 1;
        if site.is_some() {
            self.site_stack.pop();
        }
        blocks
    }
}

/// Inlines the calls in the code expressions of the expression it copies.
struct CodeExprInliner<'x, 'a, 'c> {
    inliner: &'x mut Inliner<'a, 'c>,
}

impl rewrite::Rewriter for CodeExprInliner<'_, '_, '_> {
    fn expr(&mut self, e: &Expr) -> Option<Expr> {
        let ExprKind::Code(c) = &e.kind else { return None };
        Some(Expr { kind: ExprKind::Code(Box::new(self.inliner.code_expr(c))), span: e.span, id: e.id })
    }
}

/// Whether a code expression occurs in `e`.
fn has_code_expr(e: &Expr) -> bool {
    let mut found = matches!(e.kind, ExprKind::Code(_));
    e.for_each_child(&mut |c| found = found || has_code_expr(c));
    found
}

/// `goto target;`
fn goto(target: Symbol, span: Span) -> BlockTail {
    BlockTail::Goto { attrs: Box::new([]), targets: Box::new([Ident::at(target, span)]), span }
}

enum CallAction {
    Keep,
    Replace(Cmd),
    Inline(Vec<BigBlock>),
}

/// The written type of a global variable or constant.
fn global_type(typed: &TypedProgram, g: VarId) -> Option<crate::ast::Type> {
    let info = typed.symbols().var(g);
    let decl = &typed.program.decls[info.attrs_of?.0 as usize];
    let groups: &[VarGroup] = match decl {
        Decl::Var(d) => &d.groups,
        _ => return None,
    };
    groups.iter().find(|gr| gr.names.iter().any(|n| n.same_node(&info.name))).map(|gr| gr.ty.clone())
}

/// Copies the callee's code into the caller: formals and locals renamed, `old` resolved
/// against the copies made at entry, labels prefixed, `return` a jump to the exit.
struct Renamer<'r> {
    typed: &'r TypedProgram,
    map: &'r FxHashMap<VarId, Symbol>,
    old_map: &'r FxHashMap<VarId, Symbol>,
    in_old: bool,
    label_prefix: String,
    exit: Ident,
    caller_names: &'r FxHashSet<Symbol>,
    /// A global of the callee's named in the caller where a caller's variable hides it.
    shadowed: Option<Span>,
    /// Set while a binder is copied by the default rewriting (see [`Renamer::binder`]).
    copying_binder: bool,
    /// The modified globals the copy reads under `old` (each replaced by its entry copy).
    used_old: FxHashSet<VarId>,
}

impl Renamer<'_> {
    /// Boogie's `BoundVarAndReplacingOldSubstituter`: a quantifier's, lambda's or let's bound
    /// variables get the inlined call's prefix too (`inline$P$0$x`), at declaration and uses.
    fn binder(&mut self, e: &Expr) -> Expr {
        self.copying_binder = true;
        let mut copy = rewrite::expr(self, e);
        let prefixed =
            |name: &Ident, prefix: &str| Ident::at(Symbol::intern(&format!("{prefix}{}", name.name)), name.span);
        match &mut copy.kind {
            ExprKind::Quant(q) => {
                for group in q.vars.iter_mut() {
                    group.names = group.names.iter().map(|n| prefixed(n, &self.label_prefix)).collect();
                }
            }
            ExprKind::Let(l) => {
                for var in l.vars.iter_mut() {
                    var.name = prefixed(&var.name, &self.label_prefix);
                }
            }
            _ => {}
        }
        copy
    }
}

impl rewrite::Rewriter for Renamer<'_> {
    fn expr(&mut self, e: &Expr) -> Option<Expr> {
        if std::mem::take(&mut self.copying_binder) {
            return None;
        }
        if matches!(e.kind, ExprKind::Quant(_) | ExprKind::Let(_)) {
            return Some(self.binder(e));
        }
        let ExprKind::Old(inner) = &e.kind else { return None };
        let was = std::mem::replace(&mut self.in_old, true);
        let copy = rewrite::expr(self, inner);
        self.in_old = was;
        Some(copy)
    }

    fn var(&mut self, name: &Ident) -> Ident {
        let Some(Ref::Var(v)) = self.typed.referent(name) else { return *name };
        if let Some(&new) = self.map.get(&v) {
            return Ident::at(new, name.span);
        }
        if self.in_old
            && let Some(&new) = self.old_map.get(&v)
        {
            self.used_old.insert(v);
            return Ident::at(new, name.span);
        }
        let kind = self.typed.symbols().var(v).kind;
        if kind == VarKind::Bound {
            let renamed = Symbol::intern(&format!("{}{}", self.label_prefix, name.name));
            return Ident::at(renamed, name.span);
        }
        if matches!(kind, VarKind::Global | VarKind::Const { .. }) && self.caller_names.contains(&name.name) {
            self.shadowed = Some(name.span);
        }
        *name
    }

    fn label(&mut self, name: &Ident) -> Ident {
        Ident::at(Symbol::intern(&format!("{}{}", self.label_prefix, name.name)), name.span)
    }

    fn return_tail(&mut self, attrs: &[Attribute], span: Span) -> Option<BlockTail> {
        Some(BlockTail::Goto { attrs: attrs.into(), targets: Box::new([self.exit]), span })
    }
}

/// Boogie's `DistinguishPrefix`.
fn distinguish_prefix(prefix: &mut String, s: &str) {
    if !s.starts_with(prefix.as_str()) {
        return;
    }
    let bytes = s.as_bytes();
    for &b in &bytes[prefix.len()..] {
        prefix.push('$');
        if b != b'$' {
            break;
        }
    }
    if prefix == s {
        prefix.push('$');
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::passes::tests::typed;
    use crate::passes::{Pass, PassCx};

    /// `text` after inlining under `mode` (and `/inlineDepth` when given), printed; `None`
    /// when the pass left the program as it was.
    fn inlined(text: &str, mode: Inlining, depth: Option<u32>) -> Option<String> {
        let pass = Inline {
            mode,
            depth,
            print_inlined: false,
            only: None,
            sites: None,
            threads: false,
            houdini: false,
            stack_depth: None,
            coalesce: true,
        };
        let program = pass.run(&typed(text), &mut PassCx::default()).expect("inlines")?;
        Some(crate::printer::print_program(&program, &Default::default()))
    }

    /// The commands of block `label` in a printed program, trimmed.
    fn block<'p>(printed: &'p str, label: &str) -> Vec<&'p str> {
        let head = format!("\n  {label}:\n");
        let at = printed.find(&head).unwrap_or_else(|| panic!("no block {label} in\n{printed}")) + head.len();
        printed[at..].lines().take_while(|l| l.starts_with("    ")).map(str::trim).collect()
    }

    /// The labels of the blocks of the procedure printed from `header` on, in order.
    fn labels<'p>(printed: &'p str, header: &str) -> Vec<&'p str> {
        let at = printed.find(header).unwrap_or_else(|| panic!("no {header} in\n{printed}"));
        let body = printed[at..].split("\n}\n").next().unwrap_or_default();
        body.lines()
            .filter(|l| l.starts_with("  ") && !l.starts_with("   "))
            .filter_map(|l| l.trim().strip_suffix(':'))
            .collect()
    }

    /// A callee with a local, a precondition, a postcondition and `old`, called once.
    const ONE_CALL: &str = "var g: int;\n\
        procedure {:inline 1} P(a: int) returns (r: int) requires a > 0; ensures r == a + 1; modifies g; {\n\
          var x: int;\n\
          x := a; g := old(g) + 1; r := x + 1;\n\
        }\n\
        procedure Main() modifies g; { var y: int; call y := P(3); assert y == 4; }\n";

    /// A procedure that calls itself, inlined twice.
    const RECURSIVE: &str = "procedure {:inline 2} R(n: int) returns (r: int) {\n\
          if (n > 0) { call r := R(n - 1); r := r + 1; } else { r := 0; }\n\
        }\n\
        procedure Main() { var x: int; call x := R(5); }\n";

    /// Free and `{:InlineAssume}` specifications, two calls of one procedure.
    const SPECS: &str = "procedure {:inline 1} S(a: int) returns (r: int)\n\
          requires a > 0; free requires a > 1; ensures r > 0; free ensures r > 1; ensures {:InlineAssume} r > 2;\n\
        { r := a; }\n\
        procedure Main() { var y: int; call y := S(3); call y := S(4); }\n";

    #[test]
    fn callee_formals_and_locals_become_fresh_locals_of_the_caller() {
        let printed = inlined(ONE_CALL, Inlining::Assume, None).expect("changes");
        let main = &printed[printed.find("Main()").expect("Main")..];
        for var in ["x", "a", "r", "g"] {
            assert!(main.contains(&format!("  var inline$P$0${var}: int;\n")), "{var} in\n{main}");
        }
        assert_eq!(
            block(&printed, "inline$P$0$Entry")[..3],
            ["inline$P$0$a := 3;", "assert inline$P$0$a > 0;", "havoc inline$P$0$x, inline$P$0$r;"]
        );
        assert_eq!(
            block(&printed, "inline$P$0$anon0"),
            [
                "inline$P$0$x := inline$P$0$a;",
                "g := inline$P$0$g + 1;",
                "inline$P$0$r := inline$P$0$x + 1;",
                "goto inline$P$0$Return;"
            ]
        );
        // The callee itself is left as written.
        assert!(printed.contains("    x := a;\n    g := old(g) + 1;\n"), "{printed}");
    }

    #[test]
    fn requires_are_asserted_at_entry_and_ensures_at_return() {
        let printed = inlined(ONE_CALL, Inlining::Assume, None).expect("changes");
        assert!(block(&printed, "inline$P$0$Entry").contains(&"assert inline$P$0$a > 0;"));
        assert_eq!(
            block(&printed, "inline$P$0$Return"),
            ["assert inline$P$0$r == inline$P$0$a + 1;", "y := inline$P$0$r;", "goto anon0$1;"]
        );
        assert_eq!(block(&printed, "anon0$1"), ["assert y == 4;", "return;"]);
    }

    #[test]
    fn old_in_the_callee_reads_the_copy_taken_at_entry() {
        let printed = inlined(ONE_CALL, Inlining::Assume, None).expect("changes");
        assert_eq!(block(&printed, "inline$P$0$Entry").last(), Some(&"goto inline$P$0$anon0;"));
        assert!(block(&printed, "inline$P$0$Entry").contains(&"inline$P$0$g := g;"));
        let main = &printed[printed.find("Main()").expect("Main")..];
        assert!(!main.contains("old("), "{main}");
    }

    #[test]
    fn free_specifications_are_dropped_and_inline_assume_ensures_assumed() {
        let printed = inlined(SPECS, Inlining::Assume, None).expect("changes");
        let entry = block(&printed, "inline$S$0$Entry");
        assert!(entry.contains(&"assert inline$S$0$a > 0;"), "{entry:?}");
        assert!(!entry.iter().any(|c| c.contains("> 1")), "{entry:?}");
        assert_eq!(
            block(&printed, "inline$S$0$Return"),
            ["assert inline$S$0$r > 0;", "assume inline$S$0$r > 2;", "y := inline$S$0$r;", "goto anon0$1;"]
        );
    }

    #[test]
    fn each_call_gets_its_own_copy_and_the_calling_block_is_split() {
        let printed = inlined(SPECS, Inlining::Assume, None).expect("changes");
        assert_eq!(
            labels(&printed, "Main()"),
            [
                "anon0",
                "inline$S$0$Entry",
                "inline$S$0$anon0",
                "inline$S$0$Return",
                "anon0$1",
                "inline$S$1$Entry",
                "inline$S$1$anon0",
                "inline$S$1$Return",
                "anon0$2",
            ]
        );
        assert_eq!(block(&printed, "inline$S$1$Entry")[0], "inline$S$1$a := 4;");
        assert!(printed.contains("procedure {:rboogie_block_form} Main()"), "{printed}");
    }

    #[test]
    fn recursion_is_cut_at_the_inline_depth_as_the_mode_says() {
        for (mode, cut) in [
            (Inlining::Assume, "assume false;"),
            (Inlining::Assert, "assert false;"),
            (Inlining::Spec, "call inline$R$1$r := R(inline$R$1$n - 1);"),
        ] {
            let printed = inlined(RECURSIVE, mode, None).expect("changes");
            let main = &printed[printed.find("Main()").expect("Main")..];
            assert_eq!(main.matches("$Entry:\n").count(), 2, "{mode:?}:\n{main}");
            assert!(!main.contains("inline$R$2$"), "{mode:?}:\n{main}");
            let deepest = block(main, "inline$R$1$anon3_Then");
            assert_eq!(deepest[1], cut, "{mode:?}: {deepest:?}");
        }
    }

    #[test]
    fn inlined_procedures_are_verified_on_their_own_only_under_spec() {
        let assumed = inlined(RECURSIVE, Inlining::Assume, None).expect("changes");
        assert!(assumed.contains("procedure {:inline 2} {:verify false} R("), "{assumed}");
        let spec = inlined(RECURSIVE, Inlining::Spec, None).expect("changes");
        assert!(spec.contains("procedure {:inline 2} {:rboogie_block_form} R("), "{spec}");
        assert!(!spec.contains("{:verify false}"), "{spec}");
    }

    #[test]
    fn inline_depth_inlines_calls_without_the_attribute() {
        let text = "procedure Q(n: int) { call Q(n + 1); }\nprocedure Main() { call Q(0); }\n";
        assert_eq!(inlined(text, Inlining::Assume, None), None);
        let printed = inlined(text, Inlining::Assume, Some(1)).expect("changes");
        let main = &printed[printed.find("Main()").expect("Main")..];
        assert_eq!(block(main, "inline$Q$0$Entry"), ["inline$Q$0$n := 0;", "goto inline$Q$0$anon0;"]);
        assert_eq!(block(main, "inline$Q$0$anon0"), ["assume false;", "goto inline$Q$0$Return;"]);
    }

    #[test]
    fn the_prefix_grows_past_the_callers_names() {
        let text = "procedure {:inline 1} S(a: int) returns (r: int) { r := a; }\n\
            procedure Main() { var inline$y: int; call inline$y := S(3); }\n";
        let printed = inlined(text, Inlining::Assume, None).expect("changes");
        assert!(printed.contains("  var inline$$S$0$a: int;\n"), "{printed}");
        assert_eq!(block(&printed, "inline$$S$0$Return"), ["inline$y := inline$$S$0$r;", "goto anon0$1;"]);
        assert!(!printed.contains("inline$S$"), "{printed}");
        assert_eq!(inlined(text, Inlining::None, None), None);
    }

    /// The inlined program prints as a program that checks again and prints the same.
    #[test]
    fn inlined_programs_check_again() {
        for (text, mode) in [(ONE_CALL, Inlining::Assume), (RECURSIVE, Inlining::Spec), (SPECS, Inlining::Assert)] {
            let printed = inlined(text, mode, None).expect("changes");
            let again = crate::printer::print_program(&typed(&printed).program, &Default::default());
            assert_eq!(printed, again);
        }
    }
}
