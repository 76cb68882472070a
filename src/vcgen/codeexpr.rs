//! Code expressions, `|{ var x: T; A: cmds goto B; B: return e; }|`, as Boogie's VC of their
//! blocks (`CodeExprConversionClosure`).
//!
//! Expects a code expression whose blocks form a DAG, whose commands are assertions,
//! assumptions, havocs and assignments of its own locals (anything else is [`Unsupported`]).
//! Guarantees Boogie's term: the blocks passified (an incarnation per assignment, join copies
//! where paths meet), then one `let`-bound boolean per block, bottom-up, as in the
//! implementation's VC but without `ControlFlow` (an assertion in a code expression is never
//! reported on its own: the command holding the code expression fails). `return e` is the
//! block's postcondition; an assertion is `C && N` (its expression in the opposite context),
//! an assumption `A ==> N`. The locals' incarnations are universally quantified, each boolean
//! one behind Boogie's `tickleBool` antecedent (a trigger for it). In a positive context
//! (an assumption, the right of `==>`, under an even number of `!`) Boogie negates each
//! `return e` and the whole term: the code expression then says that some path returns a true
//! value (and passes its assertions' negations, a Boogie quirk kept as it is).

use rustc_hash::FxHashMap;

use super::Unsupported;
use super::encode::{Ctx, Encoder, Env, quote};
use crate::ast::{AssignLhs, CmdKind, CodeExpr, Expr, Ident, SpecTransfer};
use crate::typeck::{Ref, TypedProgram, VarId};

/// Calls `f` on every expression the code expression's commands and returns hold.
pub fn for_each_expr<'e>(c: &'e CodeExpr, f: &mut dyn FnMut(&'e Expr)) {
    fn lhs<'e>(l: &'e AssignLhs, f: &mut dyn FnMut(&'e Expr)) {
        match l {
            AssignLhs::Var(_) => {}
            AssignLhs::Select { base, indexes, .. } => {
                lhs(base, f);
                indexes.iter().for_each(&mut *f);
            }
            AssignLhs::Field { base, .. } => lhs(base, f),
        }
    }
    for b in c.blocks.iter() {
        for cmd in b.cmds.iter() {
            match &cmd.kind {
                CmdKind::Assert { expr, .. } | CmdKind::Assume { expr, .. } => f(expr),
                CmdKind::Assign { lhss, rhss, .. } => {
                    lhss.iter().for_each(|l| lhs(l, f));
                    rhss.iter().for_each(&mut *f);
                }
                CmdKind::Unpack { rhs, .. } => f(rhs),
                CmdKind::Call(call) => call.args.iter().for_each(&mut *f),
                CmdKind::ParCall { calls } => calls.iter().flat_map(|c| c.args.iter()).for_each(&mut *f),
                CmdKind::Measure { exprs, .. } => exprs.iter().for_each(&mut *f),
                CmdKind::Havoc { .. } | CmdKind::HideReveal { .. } | CmdKind::ChangeScope { .. } => {}
            }
        }
        if let SpecTransfer::Return { value, .. } = &b.transfer {
            f(value);
        }
    }
}

/// A passive command of a code expression's block.
enum Passive {
    Assume(String),
    /// The checked term, and the term assumed after the check (`None`: no subsumption).
    Assert(String, Option<String>),
}

impl Encoder<'_> {
    /// The term of code expression `c` in `ctx` (see the module header).
    pub(super) fn code_expr(&mut self, c: &CodeExpr, env: &dyn Env, ctx: &mut Ctx) -> Result<String, Unsupported> {
        self.code_exprs += 1;
        let number = self.code_exprs;
        let typed = self.typed;
        let blocks = &c.blocks;
        let Some(first) = blocks.first() else {
            return Ok("true".into());
        };
        // The graph, and an order in which every block comes after its predecessors.
        let index: FxHashMap<_, usize> = blocks.iter().enumerate().map(|(i, b)| (b.label.name, i)).collect();
        let mut succs = vec![Vec::new(); blocks.len()];
        for (i, b) in blocks.iter().enumerate() {
            if let SpecTransfer::Goto { targets, span, .. } = &b.transfer {
                for t in targets.iter() {
                    let Some(&s) = index.get(&t.name) else { return refuse(*span, "an unknown label") };
                    succs[i].push(s);
                }
            }
        }
        let order = super::passify::topological_order(&succs);
        let mut position = vec![0; blocks.len()];
        for (k, &b) in order.iter().enumerate() {
            position[b] = k;
        }
        if succs.iter().enumerate().any(|(b, ss)| ss.iter().any(|&s| position[s] <= position[b])) {
            return refuse(first.span, "loops in code expressions");
        }
        // The locals, each starting as a bound variable of its own.
        let mut bound: Vec<(String, String)> = Vec::new();
        let mut sorts: FxHashMap<VarId, String> = FxHashMap::default();
        let mut initial: FxHashMap<VarId, String> = FxHashMap::default();
        let mut counters: FxHashMap<VarId, u32> = FxHashMap::default();
        for g in c.locals.iter().flat_map(|l| l.groups.iter()) {
            if let Some(w) = &g.where_clause {
                return refuse(w.span, "where clauses in code expressions");
            }
            for n in g.names.iter() {
                let Some(Ref::Var(v)) = typed.referent(n) else { return refuse(n.span, "an unresolved local") };
                sorts.insert(v, self.sort(&typed.symbols().var(v).ty)?);
            }
        }
        let mut fresh = |v: VarId, bound: &mut Vec<(String, String)>| {
            let k = counters.entry(v).or_insert(0);
            let name = quote(&format!("{}@{k}!ce{number}", typed.symbols().var(v).name.name));
            *k += 1;
            bound.push((name.clone(), sorts[&v].clone()));
            name
        };
        let mut locals: Vec<VarId> = sorts.keys().copied().collect();
        locals.sort();
        for &v in &locals {
            initial.insert(v, fresh(v, &mut bound));
        }
        // Passification, block by block in topological order.
        let mut preds = vec![Vec::new(); blocks.len()];
        for (b, ss) in succs.iter().enumerate() {
            for &s in ss {
                preds[s].push(b);
            }
        }
        let mut cmds: Vec<Vec<Passive>> = (0..blocks.len()).map(|_| Vec::new()).collect();
        let mut exits: Vec<FxHashMap<VarId, String>> = vec![FxHashMap::default(); blocks.len()];
        let mut returns: Vec<Option<String>> = vec![None; blocks.len()];
        let saved: Vec<(VarId, Option<String>)> = locals.iter().map(|v| (*v, ctx.bound.get(v).cloned())).collect();
        let result = (|| {
            for &b in &order {
                let mut cur = match preds[b].as_slice() {
                    [] => initial.clone(),
                    [p] => exits[*p].clone(),
                    ps => {
                        // A join: a fresh incarnation for each local the paths disagree on.
                        let mut cur = exits[ps[0]].clone();
                        for &v in &locals {
                            if ps.iter().any(|p| exits[*p][&v] != cur[&v]) {
                                let t = fresh(v, &mut bound);
                                for &p in ps {
                                    cmds[p].push(Passive::Assume(format!("(= {t} {})", exits[p][&v])));
                                }
                                cur.insert(v, t);
                            }
                        }
                        cur
                    }
                };
                let block = &blocks[b];
                for cmd in block.cmds.iter() {
                    for &v in &locals {
                        ctx.bound.insert(v, cur[&v].clone());
                    }
                    match &cmd.kind {
                        CmdKind::Assert { attrs, expr } => {
                            let checked = self.ex_flipped(true, expr, env, ctx)?;
                            let assumed =
                                if super::cfg::subsumption(attrs) { Some(self.ex(expr, env, ctx)?) } else { None };
                            cmds[b].push(Passive::Assert(checked, assumed));
                        }
                        CmdKind::Assume { expr, .. } => {
                            let t = self.ex(expr, env, ctx)?;
                            cmds[b].push(Passive::Assume(t));
                        }
                        CmdKind::Havoc { vars } => {
                            for n in vars.iter() {
                                let v = local(typed, n, &sorts)?;
                                cur.insert(v, fresh(v, &mut bound));
                            }
                        }
                        CmdKind::Assign { lhss, rhss, .. } => {
                            if lhss.len() != rhss.len() {
                                return refuse(cmd.span, "an assignment of unequal lengths");
                            }
                            let mut updates = Vec::new();
                            for (lhs, rhs) in lhss.iter().zip(rhss.iter()) {
                                let value = self.ex(rhs, env, ctx)?;
                                updates.push(self.assigned(lhs, value, env, ctx, &sorts)?);
                            }
                            for (v, value) in updates {
                                let t = fresh(v, &mut bound);
                                cmds[b].push(Passive::Assume(format!("(= {t} {value})")));
                                cur.insert(v, t);
                            }
                        }
                        CmdKind::Call(_) | CmdKind::ParCall { .. } => {
                            return refuse(cmd.span, "calls in code expressions");
                        }
                        _ => return refuse(cmd.span, "this command in a code expression"),
                    }
                }
                if let SpecTransfer::Return { value, .. } = &block.transfer {
                    for &v in &locals {
                        ctx.bound.insert(v, cur[&v].clone());
                    }
                    let t = self.ex(value, env, ctx)?;
                    returns[b] = Some(if ctx.positive { format!("(not {t})") } else { t });
                }
                exits[b] = cur;
            }
            Ok(())
        })();
        for (v, old) in saved {
            match old {
                Some(t) => ctx.bound.insert(v, t),
                None => ctx.bound.remove(&v),
            };
        }
        result?;
        // The VC: one let-bound boolean per block, the last block first.
        let names: Vec<String> =
            blocks.iter().map(|b| quote(&format!("{}_correct!ce{number}", b.label.name))).collect();
        let mut bindings = Vec::new();
        for &b in order.iter().rev() {
            let mut n = match (&returns[b], succs[b].as_slice()) {
                (Some(r), _) => r.clone(),
                (None, []) => "true".to_string(),
                (None, [s]) => names[*s].clone(),
                (None, ss) => format!("(and {})", ss.iter().map(|s| names[*s].as_str()).collect::<Vec<_>>().join(" ")),
            };
            for c in cmds[b].iter().rev() {
                n = match c {
                    Passive::Assume(a) => format!("(=> {a} {n})"),
                    Passive::Assert(checked, Some(assumed)) => format!("(and {checked} (=> {assumed} {n}))"),
                    Passive::Assert(checked, None) => format!("(and {checked} {n})"),
                };
            }
            bindings.push((names[b].clone(), n));
        }
        let mut vc = names[0].clone();
        for (name, def) in bindings.into_iter().rev() {
            vc = format!("(let (({name} {def})) {vc})");
        }
        if !bound.is_empty() {
            for (name, sort) in &bound {
                // `tickleBool` is in every program's prelude ([`super::verify`]).
                if sort == "Bool" {
                    vc = format!("(=> (tickleBool {name}) {vc})");
                }
            }
            let binders: Vec<String> = bound.iter().map(|(n, s)| format!("({n} {s})")).collect();
            vc = format!("(forall ({}) {vc})", binders.join(" "));
        }
        Ok(if ctx.positive { format!("(not {vc})") } else { vc })
    }

    /// The local an assignment's left-hand side updates, and its new value.
    fn assigned(
        &mut self,
        lhs: &AssignLhs,
        value: String,
        env: &dyn Env,
        ctx: &mut Ctx,
        sorts: &FxHashMap<VarId, String>,
    ) -> Result<(VarId, String), Unsupported> {
        match lhs {
            AssignLhs::Var(name) => Ok((local(self.typed, name, sorts)?, value)),
            AssignLhs::Select { base, indexes, .. } => {
                let current = self.lhs_term(base, env, ctx)?;
                let idx = indexes.iter().map(|i| self.ex(i, env, ctx)).collect::<Result<Vec<_>, _>>()?;
                let updated = self.store(&current, &idx, value);
                self.assigned(base, updated, env, ctx, sorts)
            }
            AssignLhs::Field { span, .. } => Err(Unsupported::new(Some(*span), "datatype field updates")),
        }
    }

    /// The current value of a left-hand side.
    fn lhs_term(&mut self, lhs: &AssignLhs, env: &dyn Env, ctx: &mut Ctx) -> Result<String, Unsupported> {
        match lhs {
            AssignLhs::Var(name) => match typed_local(self.typed, name).and_then(|v| ctx.bound.get(&v)) {
                Some(t) => Ok(t.clone()),
                None => Err(Unsupported::new(Some(name.span), "assignments to variables outside a code expression")),
            },
            AssignLhs::Select { base, indexes, .. } => {
                let m = self.lhs_term(base, env, ctx)?;
                let idx = indexes.iter().map(|i| self.ex(i, env, ctx)).collect::<Result<Vec<_>, _>>()?;
                Ok(self.select(m, &idx))
            }
            AssignLhs::Field { span, .. } => Err(Unsupported::new(Some(*span), "datatype field updates")),
        }
    }
}

fn typed_local(typed: &TypedProgram, name: &Ident) -> Option<VarId> {
    match typed.referent(name) {
        Some(Ref::Var(v)) => Some(v),
        _ => None,
    }
}

/// The code expression's local `name` (assigning anything else is not supported).
fn local(typed: &TypedProgram, name: &Ident, sorts: &FxHashMap<VarId, String>) -> Result<VarId, Unsupported> {
    match typed_local(typed, name) {
        Some(v) if sorts.contains_key(&v) => Ok(v),
        _ => Err(Unsupported::new(Some(name.span), "assignments to variables outside a code expression")),
    }
}

fn refuse<T>(span: crate::ast::Span, what: &str) -> Result<T, Unsupported> {
    Err(Unsupported::new(Some(span), what))
}
