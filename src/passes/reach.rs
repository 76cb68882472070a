//! HAVOC's reachability predicates kept exact across heap writes (seed 002, §4): the
//! instrumentation of a program that uses the library `/lib:havoc` (`prelude/havoc.bpl`).
//!
//! Expects a type-checked program. Does nothing unless the program has the library's `Mem`,
//! `BS`, `Reach` and `Block` and its `ReachState`, and reads `Reach[n, ..]` or `Block[n, ..]`
//! for some integer literal n (the offsets of interest). Guarantees, for each such n:
//! - before every `Mem[x] := y`: `assert Reach[n, y, x − n] ==> BS[y]` (the write keeps the
//!   heap well founded for n (`Blocks(BS, y)`: y is in BS or an integer); its
//!   `{:rboogie_error}` says which list the write would make cyclic), then the paper's most
//!   precise updates of R_n and B_n: under `/reachAxioms:ground` (the default) as
//!   `call reach$update(n, x − n, y)`, whose postcondition `ReachStep` the ground
//!   instantiation spells out on the VC's terms (`crate::vcgen::reach_ground`), and the
//!   library's quantified theory (`{:reach_theory}` axioms) is dropped; under
//!   `/reachAxioms:quantified` as one parallel assignment of two lambdas (each lambda changes
//!   only its offset's slice), with the quantified theory;
//! - `ReachState(n, Mem, BS, Reach, Block)` assumed where the state may have changed: at the
//!   start of every implementation, after every heap write, call and havoc of the heap or of
//!   the predicates, and as a free invariant of every loop. Its consequences are the theory of
//!   Fig. 7 (the library's axioms);
//! - a write to `BS` changes what the predicates mean: they are havocked after it, and the
//!   theory assumed of the new values (sound, and as precise as the theory allows);
//! - every procedure that may modify `Mem` or `BS` may modify `Reach` and `Block` too;
//! - HAVOC's `modifies C` / `frees D` (Fig. 5), written `{:modifies_set C}` /
//!   `{:frees_set D}` on a procedure, become Fig. 5's postconditions ([`contract_sets`]).
//!
//! A write to `Mem` other than `Mem[x] := y` alone (a parallel assignment with it, or a
//! nested map) is refused: its update of the predicates would have to be spelled out.

use rustc_hash::FxHashSet;

use super::{Pass, PassCx, PassError};
use crate::ast::{
    AssignLhs, AttrParam, Attribute, BigBlock, BinaryOp, BlockTail, CallCmd, Cmd, CmdKind, Decl, ElseBranch, Expr,
    ExprKind, Ident, IfCmd, LoopSpec, NodeId, Program, QuantKind, Quantifier, Span, Spec, StmtList, Symbol, Type,
    TypeKind, UnaryOp, VarGroup,
};
use crate::typeck::TypedProgram;

/// The pass: on whenever the program has the library's reachability state.
pub struct Reach {
    /// `/reachAxioms:ground` (the default): updates as calls of `reach$update` and no
    /// quantified theory (its ground instances come from `crate::vcgen::reach_ground`);
    /// `false`: updates as lambdas and the library's quantified axioms.
    pub ground: bool,
}

const MEM: &str = "Mem";
const BS: &str = "BS";
const REACH: &str = "Reach";
const BLOCK: &str = "Block";
const STATE: &str = "ReachState";
/// The library's procedure whose postcondition is one update (`ReachStep`).
const UPDATE: &str = "reach$update";
/// The attribute of the library's quantified theory, dropped under `/reachAxioms:ground`.
const THEORY: &str = "reach_theory";

impl Pass for Reach {
    fn name(&self) -> &'static str {
        "reach"
    }

    fn run(&self, typed: &TypedProgram, _cx: &mut PassCx) -> Result<Option<Program>, PassError> {
        let program = &typed.program;
        let has_state = program.decls.iter().any(|d| matches!(d, Decl::Function(f) if f.name.name.as_str() == STATE));
        if !has_state {
            return Ok(None);
        }
        let globals: FxHashSet<&str> = program
            .decls
            .iter()
            .filter_map(|d| match d {
                Decl::Var(v) => Some(v.groups.iter().flat_map(|g| g.names.iter().map(|n| n.name.as_str()))),
                _ => None,
            })
            .flatten()
            .collect();
        if ![MEM, BS, REACH, BLOCK].iter().all(|g| globals.contains(g)) {
            return Ok(None);
        }
        let offsets = offsets(program);
        if offsets.is_empty() {
            return Ok(None);
        }
        let mut out = program.clone();
        if self.ground {
            out.decls.retain(|d| !matches!(d, Decl::Axiom(a) if a.attrs.iter().any(|x| x.key.as_str() == THEORY)));
        }
        let ground = self.ground;
        for d in &mut out.decls {
            match d {
                Decl::Procedure(p) => {
                    contract_sets(typed, p, &offsets)?;
                    add_modifies(&mut p.specs, p.span);
                    if let Some(body) = &mut p.body {
                        let at = body.span;
                        body.stmts = instrument_body(&body.stmts, &offsets, ground, at)?;
                    }
                }
                Decl::Implementation(i) => {
                    let at = i.body.span;
                    i.body.stmts = instrument_body(&i.body.stmts, &offsets, ground, at)?;
                }
                _ => {}
            }
        }
        Ok(Some(out))
    }
}

/// The integer literals n of the program's `Reach[n, ..]` and `Block[n, ..]`, in order.
fn offsets(program: &Program) -> Vec<i64> {
    struct Find(Vec<i64>);
    impl crate::walk::Visitor for Find {
        fn expr(&mut self, e: &Expr) {
            if let ExprKind::Select { map, indexes } = &e.kind
                && let ExprKind::Var(m) = &map.kind
                && matches!(m.name.as_str(), REACH | BLOCK)
                && let Some(Expr { kind: ExprKind::IntLit(n), .. }) = indexes.first()
                && let Ok(n) = n.as_str().parse::<i64>()
                && !self.0.contains(&n)
            {
                self.0.push(n);
            }
        }
    }
    let mut f = Find(Vec::new());
    for d in &program.decls {
        crate::walk::decl(&mut f, d);
    }
    f.0
}

/// HAVOC's `modifies C` and `frees D` (Fig. 5), written `{:modifies_set C}` and
/// `{:frees_set D}` on a procedure with C, D sets of pointers (`[ptr]bool`, over the state the
/// procedure starts in): the procedure may modify `Mem` and `Alloc`, and gets Fig. 5's
/// postconditions. The contents of every allocated location outside C stay (checked); each
/// offset's `Reach` and `Block` stay at every allocated pointer whose list meets no `y + n`
/// of C (assumed at calls, as HAVOC does: the semantics of the predicates guarantees them);
/// the allocation state of every allocated object stays unless a pointer to its start is in D,
/// which then stays allocated or is freed (checked).
fn contract_sets(typed: &TypedProgram, p: &mut crate::ast::ProcedureDecl, offsets: &[i64]) -> Result<(), PassError> {
    let mut modifies = None;
    let mut frees = None;
    for a in p.attrs.iter() {
        let slot = match a.key.as_str() {
            "modifies_set" => &mut modifies,
            "frees_set" => &mut frees,
            _ => continue,
        };
        let [AttrParam::Expr(e)] = &a.params[..] else {
            return Err(PassError::Unsupported {
                span: Some(a.span),
                what: format!("{{:{}}} without one set of pointers", a.key.as_str()),
            });
        };
        let is_set = matches!(typed.type_of(e.id).expanded(), crate::typeck::types::Type::Map(m)
            if m.args.len() == 1 && m.type_params.is_empty() && matches!(m.result, crate::typeck::types::Type::Bool)
                && matches!(m.args[0].expanded(), crate::typeck::types::Type::Ctor(..)));
        if !is_set {
            return Err(PassError::Unsupported {
                span: Some(a.span),
                what: format!("{{:{}}} whose argument is not a set of pointers ([ptr]bool)", a.key.as_str()),
            });
        }
        *slot = Some(e.clone());
    }
    if modifies.is_none() && frees.is_none() {
        return Ok(());
    }
    let b = Build { at: p.span, offsets, ground: true };
    let mut specs = p.specs.to_vec();
    let mut extra_modifies = Vec::new();
    let x = "reach$x";
    let unallocated = |b: &Build, ptr: Expr| {
        b.bin(BinaryOp::Eq, b.old_select("Alloc", vec![b.call("Obj", vec![ptr])]), b.var("UNALLOCATED"))
    };
    let member = |b: &Build, set: &Expr, ptr: Expr| {
        b.old(b.e(ExprKind::Select { map: Box::new(set.clone()), indexes: Box::new([ptr]) }))
    };
    if let Some(c) = &modifies {
        extra_modifies.push(MEM);
        // forall x :: old(Alloc)[Obj(x)] == UNALLOCATED || old(C[x]) || old(Mem)[x] == Mem[x]
        let same = b.bin(BinaryOp::Eq, b.old_select(MEM, vec![b.var(x)]), b.select(MEM, vec![b.var(x)]));
        let body = b.bin(BinaryOp::Or, b.bin(BinaryOp::Or, unallocated(&b, b.var(x)), member(&b, c, b.var(x))), same);
        specs.push(Spec::Ensures {
            free: false,
            attrs: Box::new([]),
            expr: b.quant(QuantKind::Forall, &[(x, b.ptr())], body),
            span: p.span,
        });
        for &n in offsets {
            // exists y :: old(Reach)[n, x, y] && old(C[y + n])
            let y = "reach$y";
            let touched = b.quant(
                QuantKind::Exists,
                &[(y, b.ptr())],
                b.bin(
                    BinaryOp::And,
                    b.old_select(REACH, vec![b.int(n), b.var(x), b.var(y)]),
                    member(&b, c, b.call("INCR", vec![b.var(y), b.int(n)])),
                ),
            );
            // ... || (forall z :: old(Reach)[n, x, z] == Reach[n, x, z])
            let z = "reach$z";
            let reach_same = b.quant(
                QuantKind::Forall,
                &[(z, b.ptr())],
                b.bin(
                    BinaryOp::Eq,
                    b.old_select(REACH, vec![b.int(n), b.var(x), b.var(z)]),
                    b.select(REACH, vec![b.int(n), b.var(x), b.var(z)]),
                ),
            );
            let block_same = b.bin(
                BinaryOp::Eq,
                b.old_select(BLOCK, vec![b.int(n), b.var(x)]),
                b.select(BLOCK, vec![b.int(n), b.var(x)]),
            );
            for same in [reach_same, block_same] {
                let body = b.bin(BinaryOp::Or, b.bin(BinaryOp::Or, unallocated(&b, b.var(x)), touched.clone()), same);
                specs.push(Spec::Ensures {
                    free: true,
                    attrs: Box::new([]),
                    expr: b.quant(QuantKind::Forall, &[(x, b.ptr())], body),
                    span: p.span,
                });
            }
        }
    }
    if let Some(d) = &frees {
        extra_modifies.push("Alloc");
        // forall o :: old(Alloc)[o] == UNALLOCATED || (old(D[Ptr(o, 0)]) && Alloc[o] != UNALLOCATED) || Alloc[o] == old(Alloc)[o]
        let o = "reach$o";
        let ref_ty = b.ty(TypeKind::Named { name: Ident::at(Symbol::intern("ref"), b.at), args: Box::new([]) });
        let old_alloc = b.old_select("Alloc", vec![b.var(o)]);
        let alloc = b.select("Alloc", vec![b.var(o)]);
        let start = b.call("Ptr", vec![b.var(o), b.int(0)]);
        let body = b.bin(
            BinaryOp::Or,
            b.bin(
                BinaryOp::Or,
                b.bin(BinaryOp::Eq, old_alloc.clone(), b.var("UNALLOCATED")),
                b.bin(BinaryOp::And, member(&b, d, start), b.bin(BinaryOp::Neq, alloc.clone(), b.var("UNALLOCATED"))),
            ),
            b.bin(BinaryOp::Eq, alloc, old_alloc),
        );
        specs.push(Spec::Ensures {
            free: false,
            attrs: Box::new([]),
            expr: b.quant(QuantKind::Forall, &[(o, ref_ty)], body),
            span: p.span,
        });
    }
    let declared: Vec<&str> = specs
        .iter()
        .filter_map(|s| match s {
            Spec::Modifies { vars, .. } => Some(vars.iter().map(|v| v.name.as_str()).collect::<Vec<_>>()),
            _ => None,
        })
        .flatten()
        .collect();
    let missing: Box<[Ident]> =
        extra_modifies.iter().filter(|g| !declared.contains(g)).map(|g| Ident::at(Symbol::intern(g), p.span)).collect();
    if !missing.is_empty() {
        specs.push(Spec::Modifies { vars: missing, span: p.span });
    }
    p.specs = specs.into();
    Ok(())
}

/// `modifies Reach, Block;` for a procedure that may modify `Mem` or `BS`.
fn add_modifies(specs: &mut Box<[Spec]>, at: Span) {
    let modified: Vec<&str> = specs
        .iter()
        .filter_map(|s| match s {
            Spec::Modifies { vars, .. } => Some(vars.iter().map(|v| v.name.as_str())),
            _ => None,
        })
        .flatten()
        .collect();
    if !modified.iter().any(|v| *v == MEM || *v == BS) {
        return;
    }
    let missing: Box<[Ident]> =
        [REACH, BLOCK].iter().filter(|g| !modified.contains(g)).map(|g| Ident::at(Symbol::intern(g), at)).collect();
    if !missing.is_empty() {
        let mut all = specs.to_vec();
        all.push(Spec::Modifies { vars: missing, span: at });
        *specs = all.into();
    }
}

fn instrument_body(list: &StmtList, offsets: &[i64], ground: bool, at: Span) -> Result<StmtList, PassError> {
    let b = Build { at, offsets, ground };
    let mut out = b.list(list)?;
    // The state at the start is one of the discipline's.
    let mut blocks = out.blocks.to_vec();
    let first = blocks.first_mut().expect("a statement list has a big block");
    first.cmds = b.states().into_iter().chain(first.cmds.iter().cloned()).collect();
    out.blocks = blocks.into();
    Ok(out)
}

struct Build<'o> {
    at: Span,
    offsets: &'o [i64],
    ground: bool,
}

impl Build<'_> {
    fn e(&self, kind: ExprKind) -> Expr {
        Expr { kind, span: self.at, id: NodeId::NONE }
    }
    fn var(&self, name: &str) -> Expr {
        self.e(ExprKind::Var(Ident::at(Symbol::intern(name), self.at)))
    }
    fn int(&self, n: i64) -> Expr {
        if n < 0 {
            let abs = self.e(ExprKind::IntLit(Symbol::intern(&n.unsigned_abs().to_string())));
            self.e(ExprKind::Unary { op: UnaryOp::Neg, arg: Box::new(abs) })
        } else {
            self.e(ExprKind::IntLit(Symbol::intern(&n.to_string())))
        }
    }
    fn bin(&self, op: BinaryOp, lhs: Expr, rhs: Expr) -> Expr {
        self.e(ExprKind::Binary { op, lhs: Box::new(lhs), rhs: Box::new(rhs) })
    }
    fn not(&self, arg: Expr) -> Expr {
        self.e(ExprKind::Unary { op: UnaryOp::Not, arg: Box::new(arg) })
    }
    fn select(&self, map: &str, indexes: Vec<Expr>) -> Expr {
        self.e(ExprKind::Select { map: Box::new(self.var(map)), indexes: indexes.into() })
    }
    fn call(&self, func: &str, args: Vec<Expr>) -> Expr {
        self.e(ExprKind::Call { func: Symbol::intern(func), args: args.into() })
    }
    fn ite(&self, cond: Expr, then: Expr, els: Expr) -> Expr {
        self.e(ExprKind::IfThenElse { cond: Box::new(cond), then: Box::new(then), els: Box::new(els) })
    }
    fn ty(&self, kind: TypeKind) -> Type {
        Type::new(kind, self.at)
    }
    fn ptr(&self) -> Type {
        self.ty(TypeKind::Named { name: Ident::at(Symbol::intern("ptr"), self.at), args: Box::new([]) })
    }
    fn old(&self, e: Expr) -> Expr {
        self.e(ExprKind::Old(Box::new(e)))
    }
    /// `old(map)[indexes]`
    fn old_select(&self, map: &str, indexes: Vec<Expr>) -> Expr {
        self.e(ExprKind::Select { map: Box::new(self.old(self.var(map))), indexes: indexes.into() })
    }
    fn lambda(&self, vars: &[(&str, Type)], body: Expr) -> Expr {
        self.quant(QuantKind::Lambda, vars, body)
    }
    fn quant(&self, kind: QuantKind, vars: &[(&str, Type)], body: Expr) -> Expr {
        let vars = vars
            .iter()
            .map(|(n, ty)| VarGroup {
                attrs: Box::new([]),
                names: Box::new([Ident::at(Symbol::intern(n), self.at)]),
                ty: ty.clone(),
                where_clause: None,
                span: self.at,
            })
            .collect();
        let q = Quantifier { kind, type_params: Box::new([]), vars, attrs: Box::new([]), triggers: Box::new([]), body };
        self.e(ExprKind::Quant(Box::new(q)))
    }
    fn cmd(&self, kind: CmdKind) -> Cmd {
        Cmd { kind, span: self.at }
    }

    /// `ReachState(n, Mem, BS, Reach, Block)`
    fn state(&self, n: i64) -> Expr {
        self.call(STATE, vec![self.int(n), self.var(MEM), self.var(BS), self.var(REACH), self.var(BLOCK)])
    }
    /// `assume ReachState(n, ...)` for every offset.
    fn states(&self) -> Vec<Cmd> {
        self.offsets.iter().map(|&n| self.cmd(CmdKind::Assume { attrs: Box::new([]), expr: self.state(n) })).collect()
    }

    /// The check and the updates before `Mem[x] := y` (at the write's position).
    fn write(&self, x: &Expr, y: &Expr, at: Span) -> Vec<Cmd> {
        let b = Build { at, offsets: self.offsets, ground: self.ground };
        let mut cmds = Vec::new();
        let (m, u, v) = ("reach$n", "reach$u", "reach$v");
        for &n in self.offsets {
            // x − n (x itself at offset 0: the terms the theory's triggers match stay plain).
            let target = if n == 0 { x.clone() } else { b.call("DECR", vec![x.clone(), b.int(n)]) };
            let r = |a: Expr, c: Expr| b.select(REACH, vec![b.int(n), a, c]);
            let blocking = b.call("Blocks", vec![b.var(BS), y.clone()]);
            // The write keeps the heap well founded: y does not reach x − n unless y blocks.
            let message = format!(
                "this write makes the list at offset {n} cyclic without a blocking pointer (R_{n}[y, x - {n}] and y does not block)"
            );
            let msg = Attribute {
                key: Symbol::intern(crate::vcgen::cfg::DESCRIBE),
                params: Box::new([AttrParam::Str(message, at)]),
                span: at,
            };
            let wf = b.bin(BinaryOp::Imp, r(y.clone(), target.clone()), blocking.clone());
            cmds.push(Cmd { kind: CmdKind::Assert { attrs: Box::new([msg]), expr: wf }, span: at });
            if self.ground {
                // `call reach$update(n, x − n, y)`: ReachStep relates the new predicates to the
                // old ones, and the ground instantiation spells it out on the VC's terms.
                let call = CallCmd {
                    is_async: false,
                    is_free: false,
                    attrs: Box::new([]),
                    outs: Box::new([]),
                    callee: Ident::at(Symbol::intern(UPDATE), at),
                    args: Box::new([b.int(n), target, y.clone()]),
                    span: at,
                };
                cmds.push(Cmd { kind: CmdKind::Call(Box::new(call)), span: at });
                continue;
            }
            // Reach := (λ m, u, v. m == n ? (R[u, x−n] ? (R[u,v] ∧ ¬R[x−n,v]) ∨ v = x−n ∨ (¬BS[y] ∧ R[y,v]) : R[u,v]) : Reach[m,u,v])
            let ru_target = r(b.var(u), target.clone());
            let changed = b.bin(
                BinaryOp::Or,
                b.bin(
                    BinaryOp::Or,
                    b.bin(BinaryOp::And, r(b.var(u), b.var(v)), b.not(r(target.clone(), b.var(v)))),
                    b.bin(BinaryOp::Eq, b.var(v), target.clone()),
                ),
                b.bin(BinaryOp::And, b.not(blocking.clone()), r(y.clone(), b.var(v))),
            );
            let reach_n = b.ite(ru_target.clone(), changed, r(b.var(u), b.var(v)));
            let reach = b.lambda(
                &[(m, b.ty(TypeKind::Int)), (u, b.ptr()), (v, b.ptr())],
                b.ite(
                    b.bin(BinaryOp::Eq, b.var(m), b.int(n)),
                    reach_n,
                    b.select(REACH, vec![b.var(m), b.var(u), b.var(v)]),
                ),
            );
            // Block := (λ m, u. m == n ? (R[u, x−n] ? (BS[y] ? y : B[y]) : B[u]) : Block[m, u])
            let block_n = b.ite(
                ru_target,
                b.ite(blocking, y.clone(), b.select(BLOCK, vec![b.int(n), y.clone()])),
                b.select(BLOCK, vec![b.int(n), b.var(u)]),
            );
            let block = b.lambda(
                &[(m, b.ty(TypeKind::Int)), (u, b.ptr())],
                b.ite(b.bin(BinaryOp::Eq, b.var(m), b.int(n)), block_n, b.select(BLOCK, vec![b.var(m), b.var(u)])),
            );
            let lhss = Box::new([
                AssignLhs::Var(Ident::at(Symbol::intern(REACH), at)),
                AssignLhs::Var(Ident::at(Symbol::intern(BLOCK), at)),
            ]);
            cmds.push(Cmd {
                kind: CmdKind::Assign { lhss, attrs: Box::new([]), rhss: Box::new([reach, block]) },
                span: at,
            });
        }
        cmds
    }

    fn list(&self, list: &StmtList) -> Result<StmtList, PassError> {
        let blocks = list.blocks.iter().map(|b| self.big_block(b)).collect::<Result<Box<[_]>, _>>()?;
        Ok(StmtList { blocks, end: list.end })
    }

    fn big_block(&self, b: &BigBlock) -> Result<BigBlock, PassError> {
        let mut cmds = Vec::new();
        for c in b.cmds.iter() {
            self.command(c, &mut cmds)?;
        }
        let tail = match &b.tail {
            Some(BlockTail::While(w)) => {
                let mut w = (**w).clone();
                let free = self.offsets.iter().map(|&n| LoopSpec::Invariant {
                    free: true,
                    attrs: Box::new([]),
                    expr: self.state(n),
                    span: w.span,
                });
                w.invariants = w.invariants.iter().cloned().chain(free).collect();
                w.body = self.list(&w.body)?;
                Some(BlockTail::While(Box::new(w)))
            }
            Some(BlockTail::If(i)) => Some(BlockTail::If(Box::new(self.if_cmd(i)?))),
            t => t.clone(),
        };
        Ok(BigBlock { label: b.label, cmds: cmds.into(), tail, span: b.span })
    }

    fn if_cmd(&self, i: &IfCmd) -> Result<IfCmd, PassError> {
        let els = match &i.els {
            Some(ElseBranch::If(next)) => Some(ElseBranch::If(Box::new(self.if_cmd(next)?))),
            Some(ElseBranch::Block(list)) => Some(ElseBranch::Block(self.list(list)?)),
            None => None,
        };
        Ok(IfCmd { attrs: i.attrs.clone(), guard: i.guard.clone(), then: self.list(&i.then)?, els, span: i.span })
    }

    fn command(&self, c: &Cmd, out: &mut Vec<Cmd>) -> Result<(), PassError> {
        let names = |vars: &[Ident], of: &[&str]| vars.iter().any(|v| of.contains(&v.name.as_str()));
        match &c.kind {
            CmdKind::Assign { lhss, rhss, .. } => {
                let roots: Vec<&str> = lhss.iter().map(|l| root(l).name.as_str()).collect();
                if roots.contains(&MEM) {
                    let ([AssignLhs::Select { base, indexes, .. }], [y]) = (&lhss[..], &rhss[..]) else {
                        return Err(unsupported(c, "a write to Mem together with other assignments"));
                    };
                    let ([x], AssignLhs::Var(_)) = (&indexes[..], &**base) else {
                        return Err(unsupported(c, "a write to Mem other than Mem[x] := y"));
                    };
                    out.extend(self.write(x, y, c.span));
                    out.push(c.clone());
                    out.extend(self.states());
                } else if roots.iter().any(|r| *r == REACH || *r == BLOCK) {
                    return Err(unsupported(c, "an assignment to Reach or Block (the reach pass keeps them)"));
                } else if roots.contains(&BS) {
                    out.push(c.clone());
                    out.push(self.cmd(CmdKind::Havoc { vars: self.predicates() }));
                    out.extend(self.states());
                } else {
                    out.push(c.clone());
                }
            }
            CmdKind::Havoc { vars } if names(vars, &[BS]) => {
                out.push(c.clone());
                out.push(self.cmd(CmdKind::Havoc { vars: self.predicates() }));
                out.extend(self.states());
            }
            CmdKind::Havoc { vars } if names(vars, &[MEM, REACH, BLOCK]) => {
                out.push(c.clone());
                out.extend(self.states());
            }
            CmdKind::Call(_) | CmdKind::ParCall { .. } => {
                out.push(c.clone());
                out.extend(self.states());
            }
            _ => out.push(c.clone()),
        }
        Ok(())
    }

    fn predicates(&self) -> Box<[Ident]> {
        Box::new([Ident::at(Symbol::intern(REACH), self.at), Ident::at(Symbol::intern(BLOCK), self.at)])
    }
}

fn root(l: &AssignLhs) -> &Ident {
    match l {
        AssignLhs::Var(v) => v,
        AssignLhs::Select { base, .. } | AssignLhs::Field { base, .. } => root(base),
    }
}

fn unsupported(c: &Cmd, what: &str) -> PassError {
    PassError::Unsupported { span: Some(c.span), what: what.into() }
}
