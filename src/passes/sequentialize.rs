//! Context-bounded sequentialization of a concurrent program: the eager translation of Lal and
//! Reps (CAV 2008) with maps, as STORM (seed 004, §5.2.2) and Corral (`/k:N`) apply it.
//!
//! Expects the program bounded mode leaves after inlining and unrolling: the entry point's
//! body as blocks, every call to a procedure with a body inlined, threads inlined at their
//! `async` calls between the inliner's markers ([`super::inline::SPAWN`], [`super::inline::JOIN`]),
//! no loops. Guarantees a sequential program whose entry point fails exactly when some
//! execution of the concurrent program, in which each thread runs in at most K rounds
//! (`/k:K`, Corral's meaning: K execution contexts per thread, K − 1 switches away), fails
//! an assertion.
//!
//! How:
//! - **Shared state.** Every global that some command writes (assignment, havoc, call out,
//!   a bodiless callee's `modifies`) once a thread may run (after a spawn), except
//!   `{:thread_local}` ones and Corral's allocator `alloc`, becomes a map over rounds
//!   `seq$g: [int]T`: round `r` reads `seq$g[r]` and writes `seq$g[r := v]`, so a VC grows by
//!   a constant per access whatever K is. Round 0 starts from the program's initial state;
//!   rounds 1..K−1 start from guessed values (the map as havocked, kept in `seq$g$init`), and
//!   at the end the last value of round r must equal the guess of round r + 1 (`assume`).
//!   A global written only before the first spawn stays one variable (see [`alone`]).
//! - **Rounds.** `seq$k` is the running thread's round. A switch may move it to any later
//!   round: a branch per round, `seq$r$N$R` (so a counterexample's blocks say the round), or
//!   to round K, where the thread has stopped: a stopped thread's writes go to a copy no one
//!   checks, its assertions are off and its assumptions do not block. Switches come before
//!   every command that reads or writes shared state, at `yield` (`yield;`, c2s's
//!   `assume {:yield} true`) and at `call corral_atomic_begin()`; under `/cooperative` only at
//!   `yield`; never inside an atomic block.
//! - **Threads.** A thread runs where it was spawned, from its spawner's round (Corral's
//!   semantics): at the spawn its spawner's round, thread id and atomic flag are saved, it
//!   gets a larger thread id and fresh thread-local globals; at the join (the end of the
//!   inlined thread) they are restored.
//! - **Failures.** `assert e` becomes a branch: `seq$fail$N` (a running thread, `e` false:
//!   the error flag is set and the thread stops) or `e`. The only
//!   assertion left is `!seq$err` at the end of the entry point, after the rounds are joined:
//!   a failure counts only in an execution whose guesses hold, and whatever the threads do
//!   after it. An assumption that may block (one not part of an if/else pair, the cuts of
//!   the recursion and loop bounds included) lets the thread stop instead (`seq$stop$N`),
//!   so a blocked or cut thread never hides another thread's failure; under `/cooperative`
//!   only the bounds' cuts do.
//! - **Corral's procedures.** `corral_atomic_begin`/`_end` set the atomic flag;
//!   `corral_getThreadID` and `corral_getChildThreadID` read the thread ids;
//!   `corral_assert_not_reachable` is `assert false`.

use rustc_hash::{FxHashMap, FxHashSet};

use super::blocks::{AstBlock, blocks_of, local_decl, named_body, replace_decls, with_blocks};
use super::inline::{JOIN, SPAWN, has_attr};
use super::{PassError, rewrite};
use crate::ast::{
    AssignLhs, AttrParam, Attribute, BinaryOp, CallCmd, Cmd, CmdKind, Decl, Expr, ExprKind, Ident, LocalVars, MapType,
    NodeId, Program, Span, Symbol, Type, TypeKind, UnaryOp,
};
use crate::typeck::{Ref, TypedProgram, VarId, VarKind};

/// The pass: the entry point sequentialized with `rounds` rounds per thread.
#[derive(Clone, Debug, PartialEq)]
pub struct Sequentialize {
    pub entry: Symbol,
    /// `/k:N` (Corral's default 2).
    pub rounds: u32,
    /// `/cooperative`: switches only at `yield`.
    pub cooperative: bool,
    /// The rounds a thread may use are bounded again by the constant [`BOUND`], so that one
    /// VC answers for every K up to `rounds`: under `BOUND <= k` it is the VC of `/k:k`.
    pub incremental: bool,
}

/// The constant that bounds the rounds used, when the pass is incremental: a switch to round
/// `r` > 0 needs `r < seq$bound`. Rounds from the bound on are then used by no thread, so
/// each keeps its guess, which the joining at the end makes equal to the round before's last
/// state: the constraints of the unused rounds always hold.
pub const BOUND: &str = "seq$bound";

/// The label prefixes of the blocks the pass adds: a switch to a round, a thread that stops,
/// a failed assertion (its block has the assertion's position).
pub const ROUND: &str = "seq$r$";
pub const STOP: &str = "seq$stop$";
pub const FAIL: &str = "seq$fail$";
/// Between an added block's own name and the label of the block it was added in.
pub const AT: &str = "$$at$";
/// The suffix of the pieces an original block is split into after its first (`L$$sN`).
pub const CONTINUED: &str = "$$s";
/// The attribute of the one assertion left, at the end of the entry point.
pub const FINAL: &str = "rboogie_seq_final";

/// The pipeline's entry for the pass: `None` outside context-bounded checking.
pub struct Threads(pub Option<Sequentialize>);

impl super::Pass for Threads {
    fn name(&self) -> &'static str {
        "sequentialize"
    }

    fn run(&self, typed: &TypedProgram, cx: &mut super::PassCx) -> Result<Option<Program>, PassError> {
        match &self.0 {
            Some(s) => s.run(typed, cx),
            None => Ok(None),
        }
    }
}

impl Sequentialize {
    fn run(&self, typed: &TypedProgram, _cx: &mut super::PassCx) -> Result<Option<Program>, PassError> {
        let Some((index, body)) = typed
            .program
            .decls
            .iter()
            .enumerate()
            .find_map(|(i, d)| named_body(d).filter(|(name, _)| *name == self.entry).map(|(_, b)| (i, b)))
        else {
            return Ok(None);
        };
        let blocks =
            blocks_of(typed, body, false).map_err(|u| PassError::Unsupported { span: u.span, what: u.what })?;
        // A thread whose code rboogie does not have (an `async` call of a procedure without a
        // body, or one the bounds cut) cannot be interleaved: refused, never checked as a call.
        if let Some(c) = blocks
            .iter()
            .flat_map(|b| &b.cmds)
            .find(|c| matches!(&c.kind, CmdKind::Call(call) if super::inline::is_async(call)))
        {
            return Err(PassError::Unsupported {
                span: Some(c.span),
                what: "an async call of a procedure without a body".into(),
            });
        }
        let spawns = blocks.iter().flat_map(|b| &b.cmds).any(|c| marker(c, SPAWN).is_some());
        if !spawns {
            // A sequential program: nothing to interleave (Corral's "single threaded
            // program").
            return Ok(None);
        }
        let mut s = Seq::new(typed, self, body.span);
        s.tid_bv = tid_is_bv32(typed);
        s.find_shared(&blocks)?;
        let new_blocks = s.transform(&blocks)?;
        let locals: Vec<LocalVars> = s.locals.iter().map(|(name, ty)| local_decl(*name, ty.clone(), s.at)).collect();
        let sequential = with_blocks(&typed.program.decls[index], new_blocks, locals);
        let mut program = Program { decls: replace_decls(&typed.program, [(index, sequential)].into_iter().collect()) };
        if s.incremental {
            program.decls.push(Decl::Const(Box::new(crate::ast::ConstDecl {
                attrs: Box::new([]),
                unique: false,
                names: Box::new([Ident::at(Symbol::intern(BOUND), s.at)]),
                ty: s.int_ty(),
                order: None,
                uses: None,
                span: s.at,
            })));
        }
        if s.tid_bv {
            program.decls.push(bv32_greater(s.at));
        }
        Ok(Some(program))
    }
}

/// The prefix a spawn or join marker names.
fn marker(c: &Cmd, key: &str) -> Option<String> {
    let CmdKind::Assume { attrs, .. } = &c.kind else { return None };
    attrs.iter().find(|a| a.key.as_str() == key).and_then(|a| match a.params.first() {
        Some(AttrParam::Str(s, _)) => Some(s.clone()),
        _ => None,
    })
}

/// The assertion a failure block ([`FAIL`]) of the entry point stands for: `e` in its first
/// command, `assume running && !e` ([`Seq::assertion`]). Houdini reads a sequentialized
/// program's candidate assertions off these blocks ([`crate::houdini`]).
pub fn failed_assertion(block: &crate::ast::BigBlock) -> Option<&Expr> {
    if !block.label.as_ref().is_some_and(|l| l.name.as_str().starts_with(FAIL)) {
        return None;
    }
    let CmdKind::Assume { expr, .. } = &block.cmds.first()?.kind else { return None };
    let ExprKind::Binary { op: BinaryOp::And, rhs, .. } = &expr.kind else { return None };
    let ExprKind::Unary { op: UnaryOp::Not, arg } = &rhs.kind else { return None };
    Some(arg)
}

/// A block being built: its commands, and its successors (indexes into the new blocks).
struct Piece {
    label: String,
    tok: Option<Span>,
    cmds: Vec<Cmd>,
    succs: Vec<usize>,
    transfer: Option<Span>,
}

struct Seq<'t> {
    typed: &'t TypedProgram,
    rounds: u32,
    cooperative: bool,
    /// Rounds above 0 are bounded by [`BOUND`] too.
    incremental: bool,
    /// Where the pass's own nodes stand: the body's opening brace.
    at: Span,
    /// Shared globals: the variable, its name, and the names of its round map and guesses.
    shared: FxHashMap<VarId, Shared>,
    shared_order: Vec<VarId>,
    thread_local: Vec<(VarId, Symbol, Type)>,
    /// The locals the pass adds, in order.
    locals: Vec<(Symbol, Type)>,
    declared: FxHashSet<Symbol>,
    pieces: Vec<Piece>,
    counter: usize,
    /// The label of the original block being translated.
    block_label: String,
    /// Thread ids are `bv32` (Corral's choice when its thread-id procedures return one), else
    /// `int`.
    tid_bv: bool,
    /// The entry point runs alone here (before its first spawn, see [`alone`]): no switches.
    alone: bool,
    /// The thread is in an atomic block here: the block's commands so far entered one
    /// (`call corral_atomic_begin()`) and did not leave it. A switch here could only keep the
    /// thread in its round (and a stopped one stopped), so none is made: two switch points
    /// with only the atomic flag's assignment between them left an empty block, and each of
    /// the first one's K arms went to each of the second's (a VC quadratic in K).
    atomic_here: bool,
}

struct Shared {
    map: Symbol,
    init: Symbol,
    havoc: Symbol,
}

const K: &str = "seq$k";
const ERR: &str = "seq$err";
const ATOMIC: &str = "seq$atomic";
const TID: &str = "seq$tid";
const TID_COUNT: &str = "seq$tidCount";
const CHILD: &str = "seq$child";

impl<'t> Seq<'t> {
    fn new(typed: &'t TypedProgram, options: &Sequentialize, at: Span) -> Seq<'t> {
        Seq {
            typed,
            rounds: options.rounds.max(1),
            cooperative: options.cooperative,
            incremental: options.incremental && options.rounds > 1,
            at,
            shared: FxHashMap::default(),
            shared_order: Vec::new(),
            thread_local: Vec::new(),
            locals: Vec::new(),
            declared: FxHashSet::default(),
            pieces: Vec::new(),
            counter: 0,
            block_label: String::new(),
            tid_bv: false,
            alone: false,
            atomic_here: false,
        }
    }

    // -----------------------------------------------------------------------------------------
    // Building nodes

    fn local(&mut self, name: &str, ty: Type) -> Symbol {
        let name = Symbol::intern(name);
        if self.declared.insert(name) {
            self.locals.push((name, ty));
        }
        name
    }

    fn int_ty(&self) -> Type {
        Type::new(TypeKind::Int, self.at)
    }
    fn bool_ty(&self) -> Type {
        Type::new(TypeKind::Bool, self.at)
    }
    fn tid_ty(&self) -> Type {
        if self.tid_bv {
            let name = Ident::at(Symbol::intern("bv32"), self.at);
            Type::new(TypeKind::Named { name, args: Box::new([]) }, self.at)
        } else {
            self.int_ty()
        }
    }
    fn tid_zero(&self) -> Expr {
        if self.tid_bv { self.e(ExprKind::BvLit { value: Symbol::intern("0"), width: 32 }) } else { self.int(0) }
    }
    /// `a > b` on thread ids (signed on `bv32`, as Corral's `CORRAL_BV32_GT`).
    fn tid_gt(&self, a: Expr, b: Expr) -> Expr {
        if self.tid_bv {
            self.e(ExprKind::Call { func: Symbol::intern(BV32_GT), args: Box::new([a, b]) })
        } else {
            self.bin(BinaryOp::Gt, a, b)
        }
    }
    fn rounds_of(&self, ty: &Type) -> Type {
        let map = MapType { type_params: Box::new([]), args: Box::new([self.int_ty()]), result: ty.clone() };
        Type::new(TypeKind::Map(Box::new(map)), self.at)
    }

    fn e(&self, kind: ExprKind) -> Expr {
        Expr { kind, span: self.at, id: NodeId::NONE }
    }
    fn var(&self, name: &str) -> Expr {
        self.e(ExprKind::Var(Ident::at(Symbol::intern(name), self.at)))
    }
    fn sym(&self, name: Symbol) -> Expr {
        self.e(ExprKind::Var(Ident::at(name, self.at)))
    }
    fn int(&self, n: u32) -> Expr {
        self.e(ExprKind::IntLit(Symbol::intern(&n.to_string())))
    }
    fn bool(&self, b: bool) -> Expr {
        self.e(ExprKind::BoolLit(b))
    }
    fn bin(&self, op: BinaryOp, lhs: Expr, rhs: Expr) -> Expr {
        self.e(ExprKind::Binary { op, lhs: Box::new(lhs), rhs: Box::new(rhs) })
    }
    fn not(&self, arg: Expr) -> Expr {
        self.e(ExprKind::Unary { op: UnaryOp::Not, arg: Box::new(arg) })
    }
    fn select(&self, map: Expr, index: Expr) -> Expr {
        self.e(ExprKind::Select { map: Box::new(map), indexes: Box::new([index]) })
    }
    fn assign(&self, lhs: AssignLhs, rhs: Expr) -> Cmd {
        Cmd {
            kind: CmdKind::Assign { lhss: Box::new([lhs]), attrs: Box::new([]), rhss: Box::new([rhs]) },
            span: self.at,
        }
    }
    fn set(&self, name: &str, rhs: Expr) -> Cmd {
        self.assign(AssignLhs::Var(Ident::at(Symbol::intern(name), self.at)), rhs)
    }
    fn set_sym(&self, name: Symbol, rhs: Expr) -> Cmd {
        self.assign(AssignLhs::Var(Ident::at(name, self.at)), rhs)
    }
    fn assume(&self, expr: Expr) -> Cmd {
        Cmd { kind: CmdKind::Assume { attrs: Box::new([]), expr }, span: self.at }
    }
    fn havoc(&self, names: &[Symbol]) -> Cmd {
        let vars = names.iter().map(|&n| Ident::at(n, self.at)).collect();
        Cmd { kind: CmdKind::Havoc { vars }, span: self.at }
    }
    /// `seq$k == K`: the thread has stopped.
    fn stopped(&self) -> Expr {
        self.bin(BinaryOp::Eq, self.var(K), self.int(self.rounds))
    }

    // -----------------------------------------------------------------------------------------
    // What is shared

    fn global(&self, name: &Ident) -> Option<VarId> {
        match self.typed.referent(name) {
            Some(Ref::Var(v)) if self.typed.symbols().var(v).kind == VarKind::Global => Some(v),
            _ => None,
        }
    }

    /// The declared type of a global.
    fn global_type(&self, g: VarId) -> Option<Type> {
        let info = self.typed.symbols().var(g);
        let decl = &self.typed.program.decls[info.attrs_of?.0 as usize];
        let Decl::Var(d) = decl else { return None };
        d.groups.iter().find(|gr| gr.names.iter().any(|n| n.same_node(&info.name))).map(|gr| gr.ty.clone())
    }

    fn global_attrs(&self, g: VarId) -> Vec<Symbol> {
        let info = self.typed.symbols().var(g);
        let Some(index) = info.attrs_of else { return Vec::new() };
        let Decl::Var(d) = &self.typed.program.decls[index.0 as usize] else { return Vec::new() };
        let mut keys: Vec<Symbol> = d.attrs.iter().map(|a| a.key).collect();
        for gr in d.groups.iter().filter(|gr| gr.names.iter().any(|n| n.same_node(&info.name))) {
            keys.extend(gr.attrs.iter().map(|a| a.key));
        }
        keys
    }

    fn find_shared(&mut self, blocks: &[AstBlock]) -> Result<(), PassError> {
        let mut written: Vec<VarId> = Vec::new();
        let mut seen: FxHashSet<VarId> = FxHashSet::default();
        // The globals written once a thread may run: after a spawn, in the spawner's code or
        // in a thread's. The others are written only while the entry point runs alone (the
        // device extension a harness's `{:init}` procedure sets up), and are constants to
        // the threads: every read of one, by any thread, comes after its last write, so it
        // stays a single variable and reading it is no switch point.
        let alone = alone(blocks);
        let mut concurrent_writes: FxHashSet<VarId> = FxHashSet::default();
        let mut note = |v: VarId, written: &mut Vec<VarId>, concurrent: bool| {
            if concurrent {
                concurrent_writes.insert(v);
            }
            if seen.insert(v) {
                written.push(v);
            }
        };
        let commands = blocks.iter().zip(&alone).flat_map(|(b, &alone)| {
            let mut spawned = !alone;
            b.cmds.iter().map(move |c| {
                spawned = spawned || marker(c, SPAWN).is_some();
                (c, spawned)
            })
        });
        for (c, concurrent) in commands {
            let mut note = |v: VarId, written: &mut Vec<VarId>| note(v, written, concurrent);
            match &c.kind {
                CmdKind::Assign { lhss, .. } => {
                    for l in lhss.iter() {
                        if let Some(v) = self.global(root(l)) {
                            note(v, &mut written);
                        }
                    }
                }
                CmdKind::Havoc { vars } => {
                    for n in vars.iter() {
                        if let Some(v) = self.global(n) {
                            note(v, &mut written);
                        }
                    }
                }
                CmdKind::Call(call) => {
                    for n in call.outs.iter() {
                        if let Some(v) = self.global(n) {
                            note(v, &mut written);
                        }
                    }
                    if let Some(Ref::Procedure(p)) = self.typed.referent(&call.callee) {
                        for &g in &self.typed.symbols().procedure(p).modifies {
                            note(g, &mut written);
                        }
                    }
                }
                _ => {}
            }
        }
        for g in written {
            let info = self.typed.symbols().var(g);
            let name = info.name.name;
            let Some(ty) = self.global_type(g) else { continue };
            let keys = self.global_attrs(g);
            if keys.iter().any(|k| k.as_str() == "thread_local") {
                self.thread_local.push((g, name, ty));
                continue;
            }
            if name.as_str() == "alloc" || !concurrent_writes.contains(&g) {
                continue;
            }
            let map_ty = self.rounds_of(&ty);
            let map = self.local(&format!("seq${}", name.as_str()), map_ty.clone());
            let init = self.local(&format!("seq${}$init", name.as_str()), map_ty);
            let havoc = self.local(&format!("seq${}$havoc", name.as_str()), ty);
            self.shared.insert(g, Shared { map, init, havoc });
            self.shared_order.push(g);
        }
        Ok(())
    }

    // -----------------------------------------------------------------------------------------
    // The translation

    fn fresh(&mut self) -> usize {
        self.counter += 1;
        self.counter
    }

    fn current(&mut self) -> &mut Piece {
        self.pieces.last_mut().expect("a piece")
    }

    fn emit(&mut self, c: Cmd) {
        self.current().cmds.push(c);
    }

    /// Ends the current piece in a branch to `arms` (label, token, commands), all of which go on
    /// in one new piece.
    fn branch(&mut self, arms: Vec<(String, Option<Span>, Vec<Cmd>)>) {
        let from = self.pieces.len() - 1;
        let first = self.pieces.len();
        let join = first + arms.len();
        let n = self.fresh();
        for (label, tok, cmds) in arms {
            self.pieces.push(Piece { label, tok, cmds, succs: vec![join], transfer: None });
        }
        let tok = self.pieces[from].tok;
        self.pieces[from].succs = (first..join).collect();
        // The rest of the original block, named after it (a counterexample shows its label).
        let label = format!("{}{CONTINUED}{n}", self.block_label);
        self.pieces.push(Piece { label, tok, cmds: Vec::new(), succs: Vec::new(), transfer: None });
    }

    /// A context switch: to any round from the current one on, and with `stop` (Corral's
    /// points where a thread may stop for good: `yield`, the start of an atomic block) to round
    /// K, outside an atomic block: the thread stops.
    fn switch(&mut self, stop: bool) {
        if self.alone || self.atomic_here {
            return;
        }
        let n = self.fresh();
        let mut arms = Vec::new();
        for r in 0..=self.rounds {
            // A thread that has stopped passes every switch still stopped; only at a stopping
            // point may a running one stop.
            let can = if r == self.rounds && !stop {
                self.stopped()
            } else {
                self.bin(
                    BinaryOp::And,
                    self.bin(BinaryOp::Le, self.var(K), self.int(r)),
                    self.bin(BinaryOp::Imp, self.var(ATOMIC), self.bin(BinaryOp::Eq, self.var(K), self.int(r))),
                )
            };
            let can = if self.incremental && r > 0 && r < self.rounds {
                self.bin(BinaryOp::And, can, self.bin(BinaryOp::Lt, self.int(r), self.var(BOUND)))
            } else {
                can
            };
            let label = if r == self.rounds { format!("{STOP}{n}") } else { format!("{ROUND}{n}${r}") };
            let label = format!("{label}{AT}{}", self.block_label);
            arms.push((label, None, vec![self.assume(can), self.set(K, self.int(r))]));
        }
        self.branch(arms);
    }

    /// An assumption the thread may stop at instead of blocking.
    fn blocking_assume(&mut self, e: Expr, tok: Span) {
        let go_on = self.bin(BinaryOp::Or, self.stopped(), e.clone());
        // In an atomic block the thread blocks (its stopping arm needs `!seq$atomic`).
        if self.atomic_here {
            self.emit(Cmd { kind: CmdKind::Assume { attrs: Box::new([]), expr: go_on }, span: tok });
            return;
        }
        let n = self.fresh();
        let stop_cond = self.bin(
            BinaryOp::And,
            self.bin(BinaryOp::Lt, self.var(K), self.int(self.rounds)),
            self.bin(BinaryOp::And, self.not(self.var(ATOMIC)), self.not(e)),
        );
        let stop = vec![self.assume(stop_cond), self.set(K, self.int(self.rounds))];
        let go = vec![self.assume(go_on)];
        let at = &self.block_label;
        self.branch(vec![(format!("{STOP}{n}{AT}{at}"), Some(tok), stop), (format!("seq$go${n}"), None, go)]);
    }

    fn assertion(&mut self, e: Expr, tok: Span) {
        // The failure block's first command is read back by [`failed_assertion`].
        let n = self.fresh();
        let running = self.bin(BinaryOp::Lt, self.var(K), self.int(self.rounds));
        let fails = self.bin(BinaryOp::And, running, self.not(e.clone()));
        // The thread stops, atomic or not: whatever it would do next could only block the
        // execution the failure is in.
        let fail = vec![self.assume(fails), self.set(ERR, self.bool(true)), self.set(K, self.int(self.rounds))];
        let holds = vec![self.assume(self.bin(BinaryOp::Or, self.stopped(), e))];
        let at = &self.block_label;
        self.branch(vec![(format!("{FAIL}{n}{AT}{at}"), Some(tok), fail), (format!("seq$ok${n}"), None, holds)]);
    }

    fn transform(&mut self, blocks: &[AstBlock]) -> Result<Vec<AstBlock>, PassError> {
        // Predecessor counts and the if/else pairs whose assumptions never block together.
        let mut preds: Vec<Vec<usize>> = vec![Vec::new(); blocks.len()];
        for (i, b) in blocks.iter().enumerate() {
            for &s in &b.succs {
                preds[s].push(i);
            }
        }
        let guard = |i: usize| -> bool {
            let [p] = preds[i][..] else { return false };
            let siblings = &blocks[p].succs;
            if siblings.len() != 2 {
                return false;
            }
            let other = if siblings[0] == i { siblings[1] } else { siblings[0] };
            let (Some(a), Some(b)) = (first_assume(&blocks[i]), first_assume(&blocks[other])) else { return false };
            negates(a, b) || negates(b, a)
        };

        // The new blocks: an initial block, then each old block's pieces; `starts[i]` is the
        // first piece of old block `i`.
        self.pieces.push(Piece {
            label: "seq$init".into(),
            tok: blocks.first().and_then(|b| b.tok),
            cmds: Vec::new(),
            succs: Vec::new(),
            transfer: None,
        });
        self.init();
        let init_piece = 0;
        let owner = thread_owners(blocks);
        let alone = alone(blocks);
        let mut starts = vec![0usize; blocks.len()];
        let mut ends: Vec<(usize, &AstBlock)> = Vec::new();
        // Dead ends inside a thread (the cuts of the bounds, a block after `assume false`):
        // the thread stops there and its spawner goes on after the thread's join.
        let mut dead_ends: Vec<(usize, usize)> = Vec::new();
        for (i, b) in blocks.iter().enumerate() {
            starts[i] = self.pieces.len();
            self.block_label = b.label.clone();
            self.pieces.push(Piece {
                label: b.label.clone(),
                tok: b.tok,
                cmds: Vec::new(),
                succs: Vec::new(),
                transfer: b.transfer,
            });
            let guarded = guard(i);
            self.alone = alone[i] && owner[i].is_none();
            self.atomic_here = false;
            for (j, c) in b.cmds.iter().enumerate() {
                self.cmd(c, guarded && j == 0)?;
            }
            if b.succs.is_empty() {
                match owner[i] {
                    Some((_, join)) => {
                        let stop = self.set(K, self.int(self.rounds));
                        self.emit(stop);
                        dead_ends.push((self.pieces.len() - 1, join));
                    }
                    None => self.finish(),
                }
            }
            let last = self.pieces.len() - 1;
            self.pieces[last].transfer = b.transfer;
            ends.push((last, b));
        }
        self.pieces[init_piece].succs = if blocks.is_empty() { Vec::new() } else { vec![starts[0]] };
        for (last, b) in ends {
            self.pieces[last].succs = b.succs.iter().map(|&s| starts[s]).collect();
        }
        for (piece, join) in dead_ends {
            self.pieces[piece].succs = vec![starts[join]];
        }
        Ok(std::mem::take(&mut self.pieces)
            .into_iter()
            .map(|p| AstBlock { label: p.label, tok: p.tok, cmds: p.cmds, succs: p.succs, transfer: p.transfer })
            .collect())
    }

    /// The main thread's start: round 0, no failure, a thread id; round 0 of each shared
    /// global is its initial value, the other rounds guessed.
    fn init(&mut self) {
        let int = self.int_ty();
        let boolean = self.bool_ty();
        let tid = self.tid_ty();
        for (name, ty) in [
            (K, int),
            (ERR, boolean.clone()),
            (ATOMIC, boolean),
            (TID, tid.clone()),
            (TID_COUNT, tid.clone()),
            (CHILD, tid),
        ] {
            self.local(name, ty);
        }
        let mut cmds = vec![
            self.set(K, self.int(0)),
            self.set(ERR, self.bool(false)),
            self.set(ATOMIC, self.bool(false)),
            self.havoc(&[Symbol::intern(TID_COUNT)]),
            self.assume(self.tid_gt(self.var(TID_COUNT), self.tid_zero())),
            self.set(TID, self.var(TID_COUNT)),
            self.set(CHILD, self.tid_zero()),
        ];
        for g in self.shared_order.clone() {
            let s = &self.shared[&g];
            let (map, init) = (s.map, s.init);
            let name = self.typed.symbols().var(g).name.name;
            cmds.push(self.havoc(&[map]));
            let first = self.select(self.sym(map), self.int(0));
            cmds.push(self.assume(self.bin(BinaryOp::Eq, first, self.sym(name))));
            cmds.push(self.set_sym(init, self.sym(map)));
        }
        self.current().cmds.extend(cmds);
    }

    /// The end of the entry point: the rounds joined, then the one assertion.
    fn finish(&mut self) {
        for g in self.shared_order.clone() {
            let s = &self.shared[&g];
            let (map, init) = (s.map, s.init);
            for r in 0..self.rounds.saturating_sub(1) {
                let last = self.select(self.sym(map), self.int(r));
                let guess = self.select(self.sym(init), self.int(r + 1));
                let c = self.assume(self.bin(BinaryOp::Eq, last, guess));
                self.emit(c);
            }
        }
        let attr = Attribute { key: Symbol::intern(FINAL), params: Box::new([]), span: self.at };
        let expr = self.not(self.var(ERR));
        self.emit(Cmd { kind: CmdKind::Assert { attrs: Box::new([attr]), expr }, span: self.at });
    }

    /// Whether `c` reads or writes shared state.
    fn touches_shared(&self, c: &Cmd) -> bool {
        // A concretized field's access (field abstraction's replay): no switch of its own.
        if let CmdKind::Assign { attrs, .. } = &c.kind
            && has_attr(attrs, super::field_abstraction::NO_SWITCH)
        {
            return false;
        }
        let mut f = SharedRefs(self, false);
        crate::walk::cmd(&mut f, c);
        if f.1 {
            return true;
        }
        let is_shared = |n: &Ident| self.global(n).is_some_and(|g| self.shared.contains_key(&g));
        match &c.kind {
            CmdKind::Assign { lhss, .. } => lhss.iter().any(|l| is_shared(root(l))),
            CmdKind::Havoc { vars } => vars.iter().any(is_shared),
            CmdKind::Call(call) => call.outs.iter().any(is_shared),
            _ => false,
        }
    }

    /// An expression with shared globals read in the current round (not under `old`, where
    /// the global is its initial value: round 0's start).
    fn rewrite(&mut self, e: &Expr) -> Expr {
        struct R<'s, 't>(&'s Seq<'t>);
        impl rewrite::Rewriter for R<'_, '_> {
            fn expr(&mut self, e: &Expr) -> Option<Expr> {
                match &e.kind {
                    ExprKind::Old(_) => Some(e.clone()),
                    ExprKind::Var(n) => {
                        let g = self.0.global(n)?;
                        let s = self.0.shared.get(&g)?;
                        let map =
                            Expr { kind: ExprKind::Var(Ident::at(s.map, n.span)), span: e.span, id: NodeId::NONE };
                        let k = Expr {
                            kind: ExprKind::Var(Ident::at(Symbol::intern(K), n.span)),
                            span: e.span,
                            id: NodeId::NONE,
                        };
                        Some(Expr {
                            kind: ExprKind::Select { map: Box::new(map), indexes: Box::new([k]) },
                            span: e.span,
                            id: NodeId::NONE,
                        })
                    }
                    _ => None,
                }
            }
        }
        rewrite::expr(&mut R(self), e)
    }

    fn rewrite_lhs(&mut self, l: &AssignLhs) -> AssignLhs {
        match l {
            AssignLhs::Var(n) => match self.global(n).and_then(|g| self.shared.get(&g)) {
                Some(s) => AssignLhs::Select {
                    base: Box::new(AssignLhs::Var(Ident::at(s.map, n.span))),
                    indexes: Box::new([self.var(K)]),
                    span: n.span,
                },
                None => l.clone(),
            },
            AssignLhs::Select { base, indexes, span } => AssignLhs::Select {
                base: Box::new(self.rewrite_lhs(base)),
                indexes: indexes.iter().map(|i| self.rewrite(i)).collect(),
                span: *span,
            },
            AssignLhs::Field { base, field, span } => {
                AssignLhs::Field { base: Box::new(self.rewrite_lhs(base)), field: *field, span: *span }
            }
        }
    }

    fn cmd(&mut self, c: &Cmd, guard: bool) -> Result<(), PassError> {
        if let Some(prefix) = marker(c, SPAWN) {
            // The marker stays: a counterexample's renderer tells threads by it.
            self.emit(c.clone());
            self.alone = false;
            self.atomic_here = false;
            self.spawn(&prefix);
            return Ok(());
        }
        if let Some(prefix) = marker(c, JOIN) {
            self.atomic_here = false;
            self.join(&prefix);
            return Ok(());
        }
        match &c.kind {
            CmdKind::Assume { attrs, .. } if has_attr(attrs, "yield") => {
                self.switch(true);
                Ok(())
            }
            CmdKind::Call(call) => self.call(c, call),
            CmdKind::Assert { expr, attrs } => {
                if !self.cooperative && self.touches_shared(c) {
                    self.switch(false);
                }
                let e = self.rewrite(expr);
                // An inlined callee's `ensures` has a token of its own, nowhere in the
                // sources: its failure is reported at the `ensures` (the marker's span).
                let ensures = attrs.iter().find(|a| a.key == crate::passes::INLINED_ENSURES);
                self.assertion(e, ensures.map_or(c.span, |a| a.span));
                Ok(())
            }
            CmdKind::Assume { attrs, expr } => {
                if matches!(expr.kind, ExprKind::BoolLit(true)) {
                    self.emit(c.clone());
                    return Ok(());
                }
                let cut = matches!(expr.kind, ExprKind::BoolLit(false));
                if !self.cooperative && self.touches_shared(c) {
                    self.switch(false);
                }
                let e = self.rewrite(expr);
                if guard {
                    self.emit(Cmd { kind: CmdKind::Assume { attrs: attrs.clone(), expr: e }, span: c.span });
                } else if (cut || !self.cooperative) && !self.alone {
                    self.blocking_assume(e, c.span);
                } else {
                    // Under `/cooperative` a thread blocks at an assumption. The entry point
                    // alone blocks too: stopping it there ends the execution as blocking does,
                    // with no failure (one before would have stopped it already).
                    let go_on = self.bin(BinaryOp::Or, self.stopped(), e);
                    self.emit(Cmd { kind: CmdKind::Assume { attrs: attrs.clone(), expr: go_on }, span: c.span });
                }
                Ok(())
            }
            CmdKind::Assign { lhss, attrs, rhss } => {
                if !self.cooperative && self.touches_shared(c) {
                    self.switch(false);
                }
                let rhss: Box<[Expr]> = rhss.iter().map(|r| self.rewrite(r)).collect();
                let lhss: Box<[AssignLhs]> = lhss.iter().map(|l| self.rewrite_lhs(l)).collect();
                self.emit(Cmd { kind: CmdKind::Assign { lhss, attrs: attrs.clone(), rhss }, span: c.span });
                Ok(())
            }
            CmdKind::Havoc { vars } => {
                if !self.cooperative && self.touches_shared(c) {
                    self.switch(false);
                }
                let mut kept = Vec::new();
                let mut after = Vec::new();
                for n in vars.iter() {
                    match self.global(n).and_then(|g| self.shared.get(&g)) {
                        Some(s) => {
                            kept.push(Ident::at(s.havoc, n.span));
                            let lhs = AssignLhs::Select {
                                base: Box::new(AssignLhs::Var(Ident::at(s.map, n.span))),
                                indexes: Box::new([self.var(K)]),
                                span: n.span,
                            };
                            after.push(self.assign(lhs, self.sym(s.havoc)));
                        }
                        None => kept.push(*n),
                    }
                }
                self.emit(Cmd { kind: CmdKind::Havoc { vars: kept.into() }, span: c.span });
                for a in after {
                    self.emit(a);
                }
                Ok(())
            }
            _ => {
                if self.touches_shared(c) {
                    return Err(PassError::Unsupported {
                        span: Some(c.span),
                        what: "this command in a concurrent program".into(),
                    });
                }
                self.emit(c.clone());
                Ok(())
            }
        }
    }

    fn call(&mut self, c: &Cmd, call: &CallCmd) -> Result<(), PassError> {
        let name = call.callee.name.as_str();
        let int_out = |s: &Self| {
            call.outs.iter().all(|o| match s.typed.referent(o) {
                Some(Ref::Var(v)) => match s.typed.symbols().var(v).ty {
                    crate::typeck::types::Type::Int => !s.tid_bv,
                    crate::typeck::types::Type::Bv(32) => s.tid_bv,
                    _ => false,
                },
                _ => false,
            })
        };
        match name {
            "corral_atomic_begin" => {
                if !self.cooperative {
                    self.switch(true);
                }
                self.emit(self.set(ATOMIC, self.bool(true)));
                self.atomic_here = true;
                return Ok(());
            }
            "corral_atomic_end" => {
                self.emit(self.set(ATOMIC, self.bool(false)));
                self.atomic_here = false;
                return Ok(());
            }
            "corral_assert_not_reachable" => {
                self.assertion(self.bool(false), c.span);
                return Ok(());
            }
            "corral_getThreadID" | "corral_getChildThreadID" if call.outs.len() == 1 => {
                if !int_out(self) {
                    return Err(PassError::Unsupported {
                        span: Some(c.span),
                        what: "thread ids of a type other than int and bv32 (or of both)".into(),
                    });
                }
                let from = if name == "corral_getThreadID" { TID } else { CHILD };
                let lhs = self.rewrite_lhs(&AssignLhs::Var(call.outs[0]));
                if !self.cooperative && self.touches_shared(c) {
                    self.switch(false);
                }
                self.emit(self.assign(lhs, self.var(from)));
                return Ok(());
            }
            _ => {}
        }
        // A procedure without a body: its contract stands for it. It may not touch shared state
        // beyond its arguments and results.
        if let Some(Ref::Procedure(p)) = self.typed.referent(&call.callee) {
            let info = self.typed.symbols().procedure(p);
            let contract_shared = info.modifies.iter().any(|g| self.shared.contains_key(g)) || {
                let decl = &self.typed.program.decls[info.decl.0 as usize];
                let mut f = SharedRefs(self, false);
                crate::walk::decl(&mut f, decl);
                f.1
            };
            if contract_shared {
                return Err(PassError::Unsupported {
                    span: Some(c.span),
                    what: "a call of a procedure without a body whose contract reads or writes shared globals, in a concurrent program".into(),
                });
            }
        }
        if !self.cooperative && self.touches_shared(c) {
            self.switch(false);
        }
        let args: Box<[Expr]> = call.args.iter().map(|a| self.rewrite(a)).collect();
        // Shared results go through temporaries.
        let mut outs = Vec::new();
        let mut after = Vec::new();
        for o in call.outs.iter() {
            match self.global(o).and_then(|g| self.shared.get(&g).map(|s| (g, s.havoc))) {
                Some((_, tmp)) => {
                    outs.push(Ident::at(tmp, o.span));
                    let lhs = self.rewrite_lhs(&AssignLhs::Var(*o));
                    after.push(self.assign(lhs, self.sym(tmp)));
                }
                None => outs.push(*o),
            }
        }
        let new = CallCmd { args, outs: outs.into(), ..call.clone() };
        self.emit(Cmd { kind: CmdKind::Call(Box::new(new)), span: c.span });
        for a in after {
            self.emit(a);
        }
        Ok(())
    }

    fn spawn(&mut self, prefix: &str) {
        let int = self.int_ty();
        let boolean = self.bool_ty();
        let k = self.local(&format!("seq${prefix}k"), int);
        let tid = self.local(&format!("seq${prefix}tid"), self.tid_ty());
        let count = self.local(&format!("seq${prefix}count"), self.tid_ty());
        let atomic = self.local(&format!("seq${prefix}atomic"), boolean);
        let mut cmds = vec![
            self.set_sym(k, self.var(K)),
            self.set_sym(tid, self.var(TID)),
            self.set_sym(atomic, self.var(ATOMIC)),
            self.set(ATOMIC, self.bool(false)),
            self.set_sym(count, self.var(TID_COUNT)),
            self.havoc(&[Symbol::intern(TID_COUNT)]),
            self.assume(self.tid_gt(self.var(TID_COUNT), self.sym(count))),
            self.set(TID, self.var(TID_COUNT)),
        ];
        for (_, name, ty) in self.thread_local.clone() {
            let saved = self.local(&format!("seq${prefix}{}", name.as_str()), ty);
            cmds.push(self.set_sym(saved, self.sym(name)));
            cmds.push(self.havoc(&[name]));
        }
        self.current().cmds.extend(cmds);
    }

    fn join(&mut self, prefix: &str) {
        let k = Symbol::intern(&format!("seq${prefix}k"));
        let tid = Symbol::intern(&format!("seq${prefix}tid"));
        let atomic = Symbol::intern(&format!("seq${prefix}atomic"));
        let mut cmds = vec![
            self.set(CHILD, self.var(TID)),
            self.set(TID, self.sym(tid)),
            self.set(K, self.sym(k)),
            self.set(ATOMIC, self.sym(atomic)),
        ];
        for (_, name, _) in self.thread_local.clone() {
            let saved = Symbol::intern(&format!("seq${prefix}{}", name.as_str()));
            cmds.push(self.set_sym(name, self.sym(saved)));
        }
        self.current().cmds.extend(cmds);
    }
}

/// For each block, the innermost thread it belongs to: the thread's spawn block and its join
/// block (`None` for the entry point's own blocks). A thread's blocks are those its spawn
/// block reaches before its join block; threads are visited outermost first (in a
/// topological order of the acyclic graph), so an inner thread's blocks end up its own.
fn thread_owners(blocks: &[AstBlock]) -> Vec<Option<(usize, usize)>> {
    let mut owner = vec![None; blocks.len()];
    let mut joins: FxHashMap<String, usize> = FxHashMap::default();
    let mut spawns: Vec<(usize, String)> = Vec::new();
    for (i, b) in blocks.iter().enumerate() {
        for c in &b.cmds {
            if let Some(p) = marker(c, SPAWN) {
                spawns.push((i, p));
            }
            if let Some(p) = marker(c, JOIN) {
                joins.insert(p, i);
            }
        }
    }
    if spawns.is_empty() {
        return owner;
    }
    let mut position = vec![usize::MAX; blocks.len()];
    for (next, b) in topological(blocks).into_iter().enumerate() {
        position[b] = next;
    }
    spawns.sort_by_key(|(i, _)| (position[*i], *i));
    for (spawn, prefix) in spawns {
        let Some(&join) = joins.get(&prefix) else { continue };
        let mut seen = vec![false; blocks.len()];
        let mut stack = vec![spawn];
        while let Some(b) = stack.pop() {
            if std::mem::replace(&mut seen[b], true) {
                continue;
            }
            owner[b] = Some((spawn, join));
            if b != join {
                stack.extend(blocks[b].succs.iter().copied());
            }
        }
    }
    owner
}

/// The blocks in Kahn's order; blocks on a cycle (none after unrolling) are left out.
fn topological(blocks: &[AstBlock]) -> Vec<usize> {
    let mut indegree = vec![0usize; blocks.len()];
    for b in blocks {
        for &s in &b.succs {
            indegree[s] += 1;
        }
    }
    let mut order = Vec::with_capacity(blocks.len());
    let mut ready: Vec<usize> = (0..blocks.len()).filter(|&b| indegree[b] == 0).collect();
    while let Some(b) = ready.pop() {
        order.push(b);
        for &s in &blocks[b].succs {
            indegree[s] -= 1;
            if indegree[s] == 0 {
                ready.push(s);
            }
        }
    }
    order
}

/// For each block, whether the entry point runs it alone: no path to its start spawns a
/// thread. Before its first spawn the entry point's switches are of no use: no other thread
/// exists yet, and every thread spawned later starts from the round the entry point is in at
/// the spawn, so a switch made earlier can be made at the spawn instead (the rounds skipped
/// are written by no one, and the next round's guess must equal what the entry point left).
fn alone(blocks: &[AstBlock]) -> Vec<bool> {
    let mut spawned = vec![false; blocks.len()];
    let mut reached = vec![false; blocks.len()];
    for b in topological(blocks) {
        let out = spawned[b] || blocks[b].cmds.iter().any(|c| marker(c, SPAWN).is_some());
        for &s in &blocks[b].succs {
            spawned[s] |= out;
        }
        reached[b] = true;
    }
    // A block on a cycle is never counted as alone.
    spawned.iter().zip(&reached).map(|(s, r)| !s && *r).collect()
}

/// The function comparing `bv32` thread ids.
const BV32_GT: &str = "seq$bv32_gt";

/// Whether Corral's thread-id procedures return `bv32` (then every thread id is one).
fn tid_is_bv32(typed: &TypedProgram) -> bool {
    typed.program.decls.iter().any(|d| match d {
        Decl::Procedure(p) if matches!(p.name.name.as_str(), "corral_getThreadID" | "corral_getChildThreadID") => {
            p.outs.iter().any(|g| matches!(&g.ty.kind, TypeKind::Named { name, .. } if name.name.as_str() == "bv32"))
        }
        _ => false,
    })
}

/// `function {:bvbuiltin "bvsgt"} seq$bv32_gt(bv32, bv32) : bool;`
fn bv32_greater(at: Span) -> Decl {
    let bv32 = Type::new(TypeKind::Named { name: Ident::at(Symbol::intern("bv32"), at), args: Box::new([]) }, at);
    let param = |ty: Type| crate::ast::FnParam { attrs: Box::new([]), name: None, ty, span: at };
    let builtin = Attribute {
        key: Symbol::intern("bvbuiltin"),
        params: Box::new([AttrParam::Str("bvsgt".into(), at)]),
        span: at,
    };
    Decl::Function(Box::new(crate::ast::FunctionDecl {
        revealed: false,
        attrs: Box::new([builtin]),
        name: Ident::at(Symbol::intern(BV32_GT), at),
        type_params: Box::new([]),
        params: Box::new([param(bv32.clone()), param(bv32)]),
        result: param(Type::new(TypeKind::Bool, at)),
        returns_form: false,
        body: None,
        uses: None,
        span: at,
    }))
}

/// Finds occurrences of shared globals.
struct SharedRefs<'s, 't>(&'s Seq<'t>, bool);
impl crate::walk::Visitor for SharedRefs<'_, '_> {
    fn expr(&mut self, e: &Expr) {
        if let ExprKind::Var(n) = &e.kind
            && self.0.global(n).is_some_and(|g| self.0.shared.contains_key(&g))
        {
            self.1 = true;
        }
    }
}

/// The variable an assignment target assigns.
fn root(l: &AssignLhs) -> &Ident {
    match l {
        AssignLhs::Var(n) => n,
        AssignLhs::Select { base, .. } | AssignLhs::Field { base, .. } => root(base),
    }
}

fn first_assume(b: &AstBlock) -> Option<&Expr> {
    match &b.cmds.first()?.kind {
        CmdKind::Assume { expr, .. } => Some(expr),
        _ => None,
    }
}

/// Whether `a` is `!b` (as the lowering of an `if` writes its else branch's guard).
fn negates(a: &Expr, b: &Expr) -> bool {
    match &a.kind {
        ExprKind::Unary { op: UnaryOp::Not, arg } => same(arg, b),
        _ => false,
    }
}

/// Structural equality, ignoring node ids and spans.
fn same(a: &Expr, b: &Expr) -> bool {
    let pa = crate::printer::print_expr(a);
    let pb = crate::printer::print_expr(b);
    pa == pb
}
