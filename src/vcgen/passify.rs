//! Passification: the acyclic block program to a passive one, whose commands are only
//! assumptions and assertions over SMT-LIB terms.
//!
//! Expects the output of [`super::cfg`] (acyclic, entry first, join predecessors with a single
//! successor). Guarantees the same blocks with passive commands, and the declarations of every
//! incarnation. Boogie's `Convert2PassiveCmd`:
//! - each variable has a current incarnation (`|x@N|`, a fresh constant); an assignment makes a
//!   new one and assumes it equal to the right-hand side (except that a literal or a variable
//!   assigned to a variable becomes its current value, no incarnation and no assumption, so
//!   that blocks of such copies are empty for [`remove_empty_blocks`], as in Boogie), a havoc
//!   makes one unconstrained (then assumes the variable's where clause);
//! - at a join, a variable live there whose incarnations differ among the predecessors gets a
//!   new incarnation, assumed equal to each predecessor's at the end of that predecessor
//!   (Boogie's `LiveVariableAnalysis` decides which variables are live);
//! - `old(g)` is `g`'s incarnation at the implementation's entry;
//! - a call is desugared as Boogie's `CallCmd.Desugar`: the callee's checked preconditions
//!   asserted for the actual arguments, its out-parameters and `modifies` havocked, its
//!   postconditions (free ones too) assumed with `old` meaning the state before the call.
//!
//! Then Boogie's `RemoveEmptyBlocks` peephole ([`remove_empty_blocks`]), which decides which
//! blocks execution traces can show.

use std::rc::Rc;

use rustc_hash::{FxBuildHasher, FxHashMap, FxHashSet};

use super::encode::{Encoder, Env};
use super::{Block, Check, CheckKind, Cmd, Unsupported, predecessors};
use crate::ast::{AssignLhs, AttrParam, CallCmd, Decl, Expr, ExprKind, Span, Spec};
use crate::typeck::{ProcedureId, Ref, TypedProgram, VarId, VarKind};

/// A passive command.
#[derive(Clone, Debug)]
pub enum PCmd {
    Assume(String),
    /// The condition, the check, and `{:verified_under}`'s term: what is checked is then
    /// `under || condition`, what is assumed after it the condition.
    Assert(String, Check, Option<String>),
    /// `{:start_checking_here}` (see [`selective_checking`]); no effect on the VC.
    StartChecking,
    /// `hide`, `reveal`, `push`, `pop`: no effect on the VC (see [`super::ScopeCmd`]).
    Scope(super::ScopeCmd),
    /// The `{:print ...}` attributes of a command, each ended by a line break; no effect on
    /// the VC, but it is a command, as Boogie's `assume true` that carries them is, so a block
    /// that has one is not empty.
    Print(Vec<PrintItem>),
}

/// A part of a `{:print ...}` attribute.
#[derive(Clone, Debug, PartialEq)]
pub enum PrintItem {
    /// Written as it is: a string, an expression other than a variable (as printed), `\n`.
    Text(String),
    /// A variable's value in the counterexample: the term of its incarnation at the command.
    Value(String),
}

#[derive(Clone, Debug)]
pub struct PassiveBlock {
    pub label: String,
    pub tok: Option<Span>,
    pub cmds: Vec<PCmd>,
    pub succs: Vec<usize>,
    pub ret: Option<Span>,
    pub from_return: bool,
    pub goto_attrs: bool,
    pub jump: super::Jump,
}

/// What passification needs to know about the implementation.
pub struct ImplContext<'a> {
    pub typed: &'a TypedProgram,
    /// Every variable the implementation can change or read: globals, formals, locals.
    pub vars: Vec<VarId>,
    /// The procedure's formals as the implementation's (specifications mention the former).
    pub proc_to_impl: FxHashMap<VarId, VarId>,
    /// Where clauses by the variable declared (a procedure formal for a formal).
    pub wheres: &'a FxHashMap<VarId, &'a Expr>,
    pub impl_to_proc: FxHashMap<VarId, VarId>,
    /// Each procedure's `modifies` (declared, or inferred under `/inferModifies`).
    pub modifies: &'a [Vec<VarId>],
    /// `{:assumption}` variables: a havoc can only make them stronger.
    pub assumptions: &'a FxHashSet<VarId>,
}

pub struct Passive {
    pub blocks: Vec<PassiveBlock>,
    /// `(name, sort)` of every incarnation and call temporary.
    pub decls: Vec<(String, String)>,
}

/// A variable's current incarnation, by variable: a persistent map, so that a block starts
/// from its predecessor's map in O(1) and shares it (issue 14: no per-block copies).
type Incarnations = imbl::GenericHashMap<VarId, Rc<str>, FxBuildHasher, imbl::shared_ptr::RcK>;

struct State<'m> {
    cur: &'m Incarnations,
    old: &'m Incarnations,
    proc_to_impl: &'m FxHashMap<VarId, VarId>,
}

impl Env for State<'_> {
    fn var(&self, v: VarId, old: bool) -> Option<String> {
        let v = self.proc_to_impl.get(&v).copied().unwrap_or(v);
        if old && let Some(t) = self.old.get(&v) {
            return Some(t.to_string());
        }
        self.cur.get(&v).map(|t| t.to_string())
    }
}

/// The variables an expression reads (not constants, not bound variables).
pub fn free_vars(typed: &TypedProgram, e: &Expr, out: &mut Vec<VarId>) {
    if let ExprKind::Var(name) = &e.kind
        && let Some(Ref::Var(v)) = typed.referent(name)
        && !matches!(typed.symbols().var(v).kind, VarKind::Const { .. } | VarKind::Bound)
    {
        out.push(v);
    }
    if let ExprKind::Code(c) = &e.kind {
        super::codeexpr::for_each_expr(c, &mut |c| free_vars(typed, c, out));
    }
    e.for_each_child(&mut |c| free_vars(typed, c, out));
}

fn callee(typed: &TypedProgram, call: &CallCmd) -> Result<ProcedureId, Unsupported> {
    match typed.referent(&call.callee) {
        Some(Ref::Procedure(p)) => Ok(p),
        _ => Err(Unsupported::new(Some(call.span), "an unresolved call")),
    }
}

/// The specification clauses of a procedure.
pub fn procedure_specs(typed: &TypedProgram, p: ProcedureId) -> &[Spec] {
    match &typed.program.decls[typed.symbols().procedure(p).decl.0 as usize] {
        Decl::Procedure(pd) => &pd.specs,
        _ => &[],
    }
}

struct Passifier<'a, 'c, 'e> {
    cx: &'c ImplContext<'a>,
    enc: &'e mut Encoder<'a>,
    decls: Vec<(String, String)>,
    counters: FxHashMap<String, u32>,
    sorts: FxHashMap<VarId, String>,
    old: Incarnations,
    /// Each loop measure's values at its loop head ([`Cmd::MeasureSnapshot`]).
    snapshots: FxHashMap<usize, Vec<String>>,
}

impl<'a> Passifier<'a, '_, '_> {
    fn typed(&self) -> &'a TypedProgram {
        self.cx.typed
    }

    fn fresh_named(&mut self, base: &str, sort: String) -> String {
        let n = self.counters.entry(base.to_string()).or_insert(0);
        let name = super::encode::quote(&format!("{base}@{n}"));
        *n += 1;
        self.decls.push((name.clone(), sort));
        name
    }

    fn fresh(&mut self, v: VarId) -> Result<String, Unsupported> {
        let sort = match self.sorts.get(&v) {
            Some(s) => s.clone(),
            None => {
                let s = self.enc.sort(&self.typed().symbols().var(v).ty)?;
                self.sorts.insert(v, s.clone());
                s
            }
        };
        let base = self.typed().symbols().var(v).name.name.to_string();
        Ok(self.fresh_named(&base, sort))
    }

    fn term(&mut self, e: &Expr, cur: &Incarnations) -> Result<String, Unsupported> {
        self.term_in(e, cur, true)
    }

    /// `e` in Boogie's positive context (assumed) or not (checked).
    fn term_in(&mut self, e: &Expr, cur: &Incarnations, positive: bool) -> Result<String, Unsupported> {
        let state = State { cur, old: &self.old, proc_to_impl: &self.cx.proc_to_impl };
        self.enc.expr_in(e, &state, positive)
    }

    /// The term an assertion checks and, where it differs (a code expression in it), the
    /// term it assumes after the check: Boogie translates the two in opposite contexts.
    fn checked_terms(
        &mut self,
        encode: &mut dyn FnMut(&mut Self, bool) -> Result<String, Unsupported>,
    ) -> Result<(String, Option<String>), Unsupported> {
        let before = self.enc.code_exprs_encoded();
        let checked = encode(self, false)?;
        if self.enc.code_exprs_encoded() == before {
            return Ok((checked, None));
        }
        Ok((checked, Some(encode(self, true)?)))
    }

    /// Havocs `vars` and assumes their where clauses.
    fn havoc(
        &mut self,
        vars: &[VarId],
        cur: &mut Incarnations,
        out: &mut Vec<PCmd>,
    ) -> Result<(), Unsupported> {
        let assumptions: Vec<(VarId, String)> = vars
            .iter()
            .filter(|v| self.cx.assumptions.contains(v))
            .filter_map(|v| Some((*v, cur.get(v)?.to_string())))
            .collect();
        for &v in vars {
            let t = self.fresh(v)?;
            cur.insert(v, t.into());
        }
        for &v in vars {
            let declared = self.cx.impl_to_proc.get(&v).copied().unwrap_or(v);
            if let Some(w) = self.cx.wheres.get(&declared) {
                let t = self.term(w, cur)?;
                out.push(PCmd::Assume(t));
            }
        }
        // Boogie's rule for assumption variables: `assume v_post ==> v_pre`.
        for (v, pre) in assumptions {
            out.push(PCmd::Assume(format!("(=> {} {pre})", cur[&v])));
        }
        Ok(())
    }

    /// Asserts `t`, under `{:verified_under}` when given; `assumed` is the term assumed after
    /// the check when it differs from `t` (see [`Passifier::checked_terms`]).
    fn assert(
        &mut self,
        (t, assumed): (String, Option<String>),
        mut check: Check,
        under: Option<&Expr>,
        cur: &Incarnations,
        out: &mut Vec<PCmd>,
    ) -> Result<(), Unsupported> {
        let subsume = check.subsume;
        if assumed.is_some() {
            check.subsume = false;
        }
        match under {
            // Verified already (Boogie's `isFullyVerified`): only the assumption is left.
            Some(Expr { kind: crate::ast::ExprKind::BoolLit(true), .. }) => {
                if subsume {
                    out.push(PCmd::Assume(assumed.unwrap_or(t)));
                }
                return Ok(());
            }
            Some(u) => {
                let u = self.term(u, cur)?;
                out.push(PCmd::Assert(t, check, Some(u)));
            }
            None => out.push(PCmd::Assert(t, check, None)),
        }
        if subsume && let Some(a) = assumed {
            out.push(PCmd::Assume(a));
        }
        Ok(())
    }

    fn cmd(
        &mut self,
        cmd: &Cmd<'a>,
        cur: &mut Incarnations,
        out: &mut Vec<PCmd>,
    ) -> Result<(), Unsupported> {
        match cmd {
            Cmd::Assert { expr, check, under } => {
                let terms = self.checked_terms(&mut |this, positive| this.term_in(expr, cur, positive))?;
                self.assert(terms, check.clone(), *under, cur, out)?;
            }
            Cmd::StartChecking => out.push(PCmd::StartChecking),
            Cmd::Scope(c) => out.push(PCmd::Scope(c.clone())),
            Cmd::Print(attrs) => {
                let mut items = Vec::new();
                for a in attrs.iter().filter(|a| a.key == "print") {
                    for p in &a.params {
                        items.push(match p {
                            AttrParam::Str(s, _) => PrintItem::Text(s.clone()),
                            // A variable the encoding cannot name is shown as written.
                            AttrParam::Expr(e) if matches!(e.kind, ExprKind::Var(_)) => self
                                .term(e, cur)
                                .map_or_else(|_| PrintItem::Text(crate::printer::print_expr(e)), PrintItem::Value),
                            AttrParam::Expr(e) => PrintItem::Text(crate::printer::print_expr(e)),
                        });
                    }
                    items.push(PrintItem::Text("\n".into()));
                }
                out.push(PCmd::Print(items));
            }
            Cmd::Assume { expr, negated } => {
                let t = self.term(expr, cur)?;
                out.push(PCmd::Assume(if *negated { format!("(not {t})") } else { t }));
            }
            Cmd::AssumeFalse => out.push(PCmd::Assume("false".into())),
            Cmd::AssumeVar(v) => {
                let t = cur.get(v).ok_or_else(|| Unsupported::new(None, "a variable out of scope"))?;
                out.push(PCmd::Assume(t.to_string()));
            }
            Cmd::Havoc(vars) => self.havoc(vars, cur, out)?,
            Cmd::Assign { lhss, rhss, span } => {
                if lhss.len() != rhss.len() {
                    return Err(Unsupported::new(Some(*span), "an assignment of unequal lengths"));
                }
                let mut updates = Vec::new();
                for (lhs, rhs) in lhss.iter().zip(rhss.iter()) {
                    let value = self.term(rhs, cur)?;
                    // Boogie makes no incarnation for a literal or a variable assigned to a
                    // variable: the variable stands for that value until assigned again.
                    let copied = matches!(lhs, AssignLhs::Var(_))
                        && matches!(
                            rhs.kind,
                            ExprKind::BoolLit(_)
                                | ExprKind::IntLit(_)
                                | ExprKind::DecLit(_)
                                | ExprKind::FloatLit(_)
                                | ExprKind::BvLit { .. }
                                | ExprKind::RoundingMode(_)
                                | ExprKind::Var(_)
                        );
                    let (v, value) = self.lhs_update(lhs, value, cur)?;
                    updates.push((v, value, copied));
                }
                for (v, value, copied) in updates {
                    if copied {
                        cur.insert(v, value.into());
                        continue;
                    }
                    let t = self.fresh(v)?;
                    out.push(PCmd::Assume(format!("(= {t} {value})")));
                    cur.insert(v, t.into());
                }
            }
            Cmd::Call(call) => self.call(call, cur, out)?,
            Cmd::Measure { span, .. } => {
                return Err(Unsupported::new(Some(*span), "measure commands outside loop heads (after a pass)"));
            }
            Cmd::NonNegative { expr, check } => {
                let t = format!("(>= {} 0)", self.term(expr, cur)?);
                match check {
                    Some(check) => self.assert((t, None), check.clone(), None, cur, out)?,
                    None => out.push(PCmd::Assume(t)),
                }
            }
            Cmd::MeasureSnapshot { id, exprs } => {
                let terms = exprs.iter().map(|e| self.term(e, cur)).collect::<Result<Vec<_>, _>>()?;
                self.snapshots.insert(*id, terms);
            }
            Cmd::MeasureDecreased { id, exprs, check } => {
                let now = exprs.iter().map(|e| self.term(e, cur)).collect::<Result<Vec<_>, _>>()?;
                let Some(before) = self.snapshots.get(id) else {
                    return Err(Unsupported::new(Some(check.tok), "a loop measure not evaluated at its loop head"));
                };
                let t = super::measure::less_than(self.typed(), exprs, &now, before);
                self.assert((t, None), check.clone(), None, cur, out)?;
            }
            Cmd::MeasureCall { call, caller, check } => {
                let typed = self.typed();
                let p = callee(typed, call)?;
                let mut subst: FxHashMap<VarId, String> = FxHashMap::default();
                for (formal, arg) in typed.symbols().procedure(p).ins.iter().zip(&call.args) {
                    let t = self.term(arg, cur)?;
                    subst.insert(*formal, t);
                }
                let callee_exprs = super::measure::procedure_measure(typed, p);
                let caller_exprs = super::measure::procedure_measure(typed, *caller);
                let mut now = Vec::new();
                for e in &callee_exprs {
                    let state = State { cur, old: &self.old, proc_to_impl: &FxHashMap::default() };
                    now.push(self.enc.expr_with(e, &state, &subst, false, true)?);
                }
                let mut before = Vec::new();
                for e in &caller_exprs {
                    let state = State { cur, old: &self.old, proc_to_impl: &self.cx.proc_to_impl };
                    before.push(self.enc.expr_with(e, &state, &FxHashMap::default(), true, true)?);
                }
                let t = super::measure::less_than(typed, &callee_exprs, &now, &before);
                self.assert((t, None), check.clone(), None, cur, out)?;
            }
        }
        Ok(())
    }

    /// The variable a left-hand side assigns, and its new value when the selected part gets
    /// `value` (`m[i][j] := v` is `m := m[i := m[i][j := v]]`).
    fn lhs_update(
        &mut self,
        lhs: &AssignLhs,
        value: String,
        cur: &Incarnations,
    ) -> Result<(VarId, String), Unsupported> {
        match lhs {
            AssignLhs::Var(name) => Ok((super::cfg::var_of(self.typed(), name)?, value)),
            AssignLhs::Select { base, indexes, span } => {
                let current = self.lhs_value(base, cur)?;
                let idx = indexes.iter().map(|i| self.term(i, cur)).collect::<Result<Vec<_>, _>>()?;
                let _ = span;
                let updated = super::encode::store(&current, &idx, value);
                self.lhs_update(base, updated, cur)
            }
            AssignLhs::Field { span, .. } => Err(Unsupported::new(Some(*span), "datatype field updates")),
        }
    }

    fn lhs_value(&mut self, lhs: &AssignLhs, cur: &Incarnations) -> Result<String, Unsupported> {
        match lhs {
            AssignLhs::Var(name) => {
                let v = super::cfg::var_of(self.typed(), name)?;
                cur.get(&v).map(|t| t.to_string()).ok_or_else(|| Unsupported::new(Some(name.span), "an unknown variable"))
            }
            AssignLhs::Select { base, indexes, .. } => {
                let mut t = self.lhs_value(base, cur)?;
                for i in indexes {
                    t = format!("(select {t} {})", self.term(i, cur)?);
                }
                Ok(t)
            }
            AssignLhs::Field { span, .. } => Err(Unsupported::new(Some(*span), "datatype field updates")),
        }
    }

    fn call(
        &mut self,
        call: &'a CallCmd,
        cur: &mut Incarnations,
        out: &mut Vec<PCmd>,
    ) -> Result<(), Unsupported> {
        let typed = self.typed();
        let p = callee(typed, call)?;
        let info = typed.symbols().procedure(p);
        if !info.type_params.is_empty() {
            return Err(Unsupported::new(Some(call.span), "calls of polymorphic procedures"));
        }
        let pdecl = match &typed.program.decls[info.decl.0 as usize] {
            Decl::Procedure(pd) => pd,
            _ => return Err(Unsupported::new(Some(call.span), "this call")),
        };
        // Calls of `{:inline}` procedures that remain after `crate::passes::inline` are
        // ordinary calls (depth 0 under `/inline:spec`, `/inline:none`, no implementation).
        if call.args.len() != info.ins.len() || call.outs.len() != info.outs.len() {
            return Err(Unsupported::new(Some(call.span), "a call with the wrong number of arguments"));
        }
        let mut subst: FxHashMap<VarId, String> = FxHashMap::default();
        for (formal, arg) in info.ins.iter().zip(&call.args) {
            let t = self.term(arg, cur)?;
            subst.insert(*formal, t);
        }
        // Preconditions.
        for spec in &pdecl.specs {
            if let Spec::Requires { free, attrs, expr, span } = spec {
                let mut encode = |this: &mut Self, positive| {
                    let state = State { cur, old: &this.old, proc_to_impl: &FxHashMap::default() };
                    this.enc.expr_with(expr, &state, &subst, false, positive)
                };
                if *free || call.is_free {
                    // A free requires holds at the call only under `{:always_assume}`; its
                    // place in the list matters (Boogie's `CallCmd.Desugar`).
                    if call.is_free || (*free && super::encode::find_bool_attribute(attrs, "always_assume")) {
                        out.push(PCmd::Assume(encode(self, true)?));
                    }
                } else {
                    let check = Check {
                        kind: CheckKind::Requires { requires: *span },
                        tok: call.span,
                        msg: super::cfg::msg_attr(attrs),
                        subsume: true,
                        isolate: None,
                    };
                    // The call's attributes go to the assertion (`{:verified_under}` too).
                    let terms = self.checked_terms(&mut encode)?;
                    self.assert(terms, check, super::cfg::verified_under(&call.attrs), cur, out)?;
                }
            }
        }
        // Boogie adds `requires e >= 0` for each `int` measure `e`, after the others.
        for e in super::measure::procedure_measure(typed, p) {
            if !super::measure::is_int(typed, e) {
                continue;
            }
            let state = State { cur, old: &self.old, proc_to_impl: &FxHashMap::default() };
            let t = format!("(>= {} 0)", self.enc.expr_with(e, &state, &subst, false, true)?);
            if call.is_free {
                out.push(PCmd::Assume(t));
            } else {
                let check = Check {
                    kind: CheckKind::MeasureRequires { requires: e.span },
                    tok: call.span,
                    msg: None,
                    subsume: true,
                    isolate: None,
                };
                self.assert((t, None), check, super::cfg::verified_under(&call.attrs), cur, out)?;
            }
        }
        // Havoc the outs (fresh temporaries) and the modified globals.
        let pre = cur.clone();
        for formal in &info.outs {
            let sort = self.enc.sort(&typed.symbols().var(*formal).ty)?;
            let t = self.fresh_named(&format!("call{}", typed.symbols().var(*formal).name.name), sort);
            subst.insert(*formal, t);
        }
        let modifies: Vec<VarId> = {
            let mut seen = FxHashSet::default();
            self.cx.modifies[p.0 as usize].iter().copied().filter(|v| seen.insert(*v)).collect()
        };
        for &g in &modifies {
            let t = self.fresh(g)?;
            cur.insert(g, t.into());
        }
        // Where clauses of the outs and the modified globals.
        for formal in &info.outs {
            if let Some(w) = self.cx.wheres.get(formal) {
                let state = State { cur, old: &pre, proc_to_impl: &FxHashMap::default() };
                let t = self.enc.expr_with(w, &state, &subst, false, true)?;
                out.push(PCmd::Assume(t));
            }
        }
        for &g in &modifies {
            if let Some(w) = self.cx.wheres.get(&g) {
                let t = self.term(w, cur)?;
                out.push(PCmd::Assume(t));
            }
        }
        // Postconditions, `old` being the state before the call.
        for spec in &pdecl.specs {
            if let Spec::Ensures { expr, .. } = spec {
                let state = State { cur, old: &pre, proc_to_impl: &FxHashMap::default() };
                let t = self.enc.expr_with(expr, &state, &subst, false, true)?;
                out.push(PCmd::Assume(t));
            }
        }
        // The actual outs take the temporaries' values.
        for (formal, actual) in info.outs.iter().zip(&call.outs) {
            let v = super::cfg::var_of(typed, actual)?;
            cur.insert(v, subst[formal].as_str().into());
        }
        Ok(())
    }
}

/// Uses and definitions of a command, for liveness.
fn uses_defs(cx: &ImplContext, cmd: &Cmd, uses: &mut Vec<VarId>, defs: &mut Vec<VarId>) -> Result<(), Unsupported> {
    let typed = cx.typed;
    match cmd {
        Cmd::Assert { expr, under, .. } => {
            free_vars(typed, expr, uses);
            if let Some(u) = under {
                free_vars(typed, u, uses);
            }
        }
        Cmd::Assume { expr, .. } | Cmd::NonNegative { expr, .. } => free_vars(typed, expr, uses),
        Cmd::Measure { exprs, .. } | Cmd::MeasureSnapshot { exprs, .. } | Cmd::MeasureDecreased { exprs, .. } => {
            exprs.iter().for_each(|e| free_vars(typed, e, uses))
        }
        Cmd::MeasureCall { call, caller, .. } => {
            for a in &call.args {
                free_vars(typed, a, uses);
            }
            for e in super::measure::procedure_measure(typed, *caller) {
                free_vars(typed, e, uses);
            }
            global_uses(typed, &super::measure::procedure_measure(typed, callee(typed, call)?), uses);
        }
        Cmd::AssumeVar(v) => uses.push(*v),
        Cmd::AssumeFalse | Cmd::StartChecking | Cmd::Scope(_) => {}
        // The values a trace shows are read at the command.
        Cmd::Print(attrs) => {
            for a in attrs.iter().filter(|a| a.key == "print") {
                for p in &a.params {
                    if let AttrParam::Expr(e) = p {
                        free_vars(typed, e, uses);
                    }
                }
            }
        }
        Cmd::Havoc(vars) => {
            defs.extend(vars.iter().copied());
            for v in vars {
                let declared = cx.impl_to_proc.get(v).copied().unwrap_or(*v);
                if let Some(w) = cx.wheres.get(&declared) {
                    free_vars(typed, w, uses);
                }
            }
        }
        Cmd::Assign { lhss, rhss, .. } => {
            for r in rhss.iter() {
                free_vars(typed, r, uses);
            }
            for lhs in lhss.iter() {
                let mut l = lhs;
                while let AssignLhs::Select { base, indexes, .. } = l {
                    for i in indexes {
                        free_vars(typed, i, uses);
                    }
                    l = base;
                }
                if let AssignLhs::Var(name) = l {
                    let v = super::cfg::var_of(typed, name)?;
                    if !std::ptr::eq(l, lhs) {
                        uses.push(v);
                    }
                    defs.push(v);
                }
            }
        }
        Cmd::Call(call) => {
            for a in &call.args {
                free_vars(typed, a, uses);
            }
            let p = callee(typed, call)?;
            for spec in procedure_specs(typed, p) {
                if let Spec::Requires { expr, .. } | Spec::Ensures { expr, .. } = spec {
                    global_uses(typed, std::slice::from_ref(&expr), uses);
                }
            }
            // The measures' `requires e >= 0`.
            global_uses(typed, &super::measure::procedure_measure(typed, p), uses);
            let mut assigned = Vec::new();
            super::cfg::assigned_vars(typed, cx.modifies, cmd, &mut assigned)?;
            defs.extend(assigned);
        }
    }
    Ok(())
}

/// The globals `exprs` read.
fn global_uses(typed: &TypedProgram, exprs: &[&Expr], uses: &mut Vec<VarId>) {
    for e in exprs {
        let mut vs = Vec::new();
        free_vars(typed, e, &mut vs);
        uses.extend(vs.into_iter().filter(|v| typed.symbols().var(*v).kind == VarKind::Global));
    }
}

/// Blocks in topological order (the graph is acyclic, entry first).
pub fn topological_order(succs: &[Vec<usize>]) -> Vec<usize> {
    let n = succs.len();
    let mut post = Vec::with_capacity(n);
    let mut state = vec![false; n];
    for root in 0..n {
        if state[root] {
            continue;
        }
        state[root] = true;
        let mut stack = vec![(root, 0usize)];
        while let Some(&mut (b, ref mut i)) = stack.last_mut() {
            if *i < succs[b].len() {
                let s = succs[b][*i];
                *i += 1;
                if !state[s] {
                    state[s] = true;
                    stack.push((s, 0));
                }
            } else {
                post.push(b);
                stack.pop();
            }
        }
    }
    post.reverse();
    post
}

/// Immediate dominators of an acyclic graph, by block (`usize::MAX` for blocks without
/// predecessors); `order` is topological.
fn dominators(order: &[usize], preds: &[Vec<usize>]) -> Vec<usize> {
    let n = preds.len();
    let mut idom = vec![usize::MAX; n];
    let mut depth = vec![0u32; n];
    for &b in order {
        // Every predecessor comes earlier in a topological order: the nearest common
        // dominator of them all, walking up by depth.
        let mut d = usize::MAX;
        for &p in &preds[b] {
            if d == usize::MAX {
                d = p;
                continue;
            }
            let mut x = p;
            while x != d {
                if depth[x] >= depth[d] {
                    x = idom[x];
                } else {
                    d = idom[d];
                }
                if x == usize::MAX || d == usize::MAX {
                    break;
                }
            }
            if x == usize::MAX || d == usize::MAX {
                d = usize::MAX;
                break;
            }
        }
        idom[b] = d;
        depth[b] = if d == usize::MAX { 0 } else { depth[d] + 1 };
    }
    idom
}

/// What a block does to liveness relative to its immediate post-dominator `p`:
/// `live_in(b) = (live_in(p) - kill) ∪ gen`. `kill`: variables assigned before any use on
/// every path from `b` to `p`; `gen`: variables used before any assignment on some path.
#[derive(Clone, Default)]
struct LiveDelta {
    kill: FxHashSet<VarId>,
    gen_: FxHashSet<VarId>,
}

impl LiveDelta {
    /// `self` (relative to `q`) followed by `q`'s own delta (relative to `q`'s post-dominator):
    /// the delta relative to that post-dominator.
    fn then(mut self, outer: &LiveDelta) -> LiveDelta {
        for v in &outer.gen_ {
            if !self.kill.contains(v) {
                self.gen_.insert(*v);
            }
        }
        self.kill.extend(outer.kill.iter().copied());
        self
    }
}

/// For each join (two or more predecessors), the variables among its `candidates` that are
/// live at its entry: the joins' copies are made for those only (Boogie's live-variable
/// analysis, which it runs on whole sets per block).
///
/// Linear in the program for structured code, where Boogie's (and a plain backward analysis
/// with a set per block) is quadratic when many variables stay live across many branches:
/// each block keeps only its [`LiveDelta`] relative to its immediate post-dominator, found
/// from its successors' deltas up the post-dominator tree, and the live sets are then
/// materialised one at a time by a walk down the post-dominator tree that applies each
/// block's delta on entry and undoes it on exit.
fn join_liveness(
    cx: &ImplContext,
    blocks: &[Block],
    order: &[usize],
    succs: &[Vec<usize>],
    preds: &[Vec<usize>],
    candidates: &[Vec<VarId>],
) -> Result<Vec<Vec<VarId>>, super::NoVc> {
    let n = blocks.len();
    // Post-dominators, with a virtual exit `n` after every block without successors.
    let exit = n;
    let mut forward: Vec<Vec<usize>> = succs.iter().map(|s| if s.is_empty() { vec![exit] } else { s.clone() }).collect();
    forward.push(Vec::new());
    let mut backward_order = Vec::with_capacity(n + 1);
    backward_order.push(exit);
    backward_order.extend(order.iter().rev().copied());
    let ipdom = dominators(&backward_order, &forward);

    let mut deltas: Vec<LiveDelta> = vec![LiveDelta::default(); n + 1];
    let (mut uses, mut defs) = (Vec::new(), Vec::new());
    for &b in order.iter().rev() {
        crate::memory::check()?;
        let p = ipdom[b];
        // The successors' deltas relative to `p`, intersected (kill) and united (gen).
        let mut merged: Option<LiveDelta> = None;
        for &s in &forward[b] {
            let mut d = LiveDelta::default();
            let mut q = s;
            while q != p && q != usize::MAX {
                d = d.then(&deltas[q]);
                q = ipdom[q];
            }
            merged = Some(match merged {
                None => d,
                Some(mut m) => {
                    m.kill.retain(|v| d.kill.contains(v));
                    m.gen_.extend(d.gen_);
                    m
                }
            });
        }
        let mut d = merged.unwrap_or_default();
        for c in blocks[b].cmds.iter().rev() {
            uses.clear();
            defs.clear();
            uses_defs(cx, c, &mut uses, &mut defs)?;
            for v in &defs {
                d.gen_.remove(v);
                d.kill.insert(*v);
            }
            for u in &uses {
                let u = cx.proc_to_impl.get(u).copied().unwrap_or(*u);
                d.kill.remove(&u);
                d.gen_.insert(u);
            }
        }
        deltas[b] = d;
    }

    // Down the post-dominator tree from the exit, one live set, changed and restored.
    let mut children: Vec<Vec<usize>> = vec![Vec::new(); n + 1];
    for &b in order {
        if ipdom[b] != usize::MAX {
            children[ipdom[b]].push(b);
        }
    }
    let mut join_live: Vec<Vec<VarId>> = vec![Vec::new(); n];
    let mut live: FxHashSet<VarId> = FxHashSet::default();
    // What entering each block on the stack changed: (variable, whether it was added).
    let mut undo: Vec<(VarId, bool)> = Vec::new();
    // (block, where its changes start in `undo`, its next child)
    let mut stack: Vec<(usize, usize, usize)> = vec![(exit, 0, 0)];
    while let Some(top) = stack.last_mut() {
        let (b, mark, next) = *top;
        if let Some(&c) = children[b].get(next) {
            top.2 += 1;
            let mark = undo.len();
            for v in &deltas[c].kill {
                if live.remove(v) {
                    undo.push((*v, false));
                }
            }
            for v in &deltas[c].gen_ {
                if live.insert(*v) {
                    undo.push((*v, true));
                }
            }
            if preds[c].len() >= 2 {
                join_live[c] = candidates[c].iter().copied().filter(|v| live.contains(v)).collect();
            }
            stack.push((c, mark, 0));
            continue;
        }
        for (v, added) in undo.drain(mark..).rev() {
            if added {
                live.remove(&v);
            } else {
                live.insert(v);
            }
        }
        stack.pop();
    }
    Ok(join_live)
}

/// Passifies `blocks` (see the module header).
///
/// Linear in time and memory for programs whose live variables per block are bounded
/// (issue 14): a block's incarnation map is its predecessor's, shared ([`Incarnations`]), and
/// changed only where the block assigns; a join merges only the variables that may differ
/// among its predecessors, which are found from the dominator tree (`changed`, below) rather
/// than by comparing whole maps; liveness is kept as deltas on the post-dominator tree
/// ([`join_liveness`]), and for a join only its live candidates.
pub fn run<'a>(cx: &ImplContext<'a>, enc: &mut Encoder<'a>, blocks: &[Block<'a>]) -> Result<Passive, super::NoVc> {
    let n = blocks.len();
    let succs: Vec<Vec<usize>> = blocks.iter().map(|b| b.succs.clone()).collect();
    let order = topological_order(&succs);
    let preds = predecessors(blocks);
    let idom = dominators(&order, &preds);

    // What each block assigns (its definitions), once.
    let mut defs: Vec<Vec<VarId>> = Vec::with_capacity(n);
    for b in blocks {
        let mut d = Vec::new();
        let mut uses = Vec::new();
        for c in &b.cmds {
            uses_defs(cx, c, &mut uses, &mut d)?;
            uses.clear();
        }
        d.sort_unstable();
        d.dedup();
        defs.push(d);
    }
    // `changed[b]`: the variables whose incarnation at the end of `b` may differ from the
    // one at the end of its immediate dominator; `candidates[b]`, for a join, those that may
    // differ among its predecessors (what changed on the way from the join's immediate
    // dominator to each predecessor: the `changed` sets up the dominator tree).
    let mut changed: Vec<Vec<VarId>> = vec![Vec::new(); n];
    let mut candidates: Vec<Vec<VarId>> = vec![Vec::new(); n];
    for &b in &order {
        if preds[b].len() >= 2 {
            let d = idom[b];
            let mut set: FxHashSet<VarId> = FxHashSet::default();
            for &p in &preds[b] {
                let mut x = p;
                while x != d && x != usize::MAX {
                    set.extend(changed[x].iter().copied());
                    x = idom[x];
                }
            }
            let mut c: Vec<VarId> = set.into_iter().collect();
            c.sort_unstable();
            let mut all = c.clone();
            all.extend(defs[b].iter().copied());
            all.sort_unstable();
            all.dedup();
            changed[b] = all;
            candidates[b] = c;
        } else {
            changed[b] = std::mem::take(&mut defs[b]);
        }
    }
    drop(changed);
    drop(defs);

    let join_live = join_liveness(cx, blocks, &order, &succs, &preds, &candidates)?;
    drop(candidates);

    let mut p = Passifier {
        cx,
        enc,
        decls: Vec::new(),
        counters: FxHashMap::default(),
        sorts: FxHashMap::default(),
        old: Incarnations::with_hasher(FxBuildHasher),
        snapshots: FxHashMap::default(),
    };
    let mut initial = Incarnations::with_hasher(FxBuildHasher);
    for &v in &cx.vars {
        let t: Rc<str> = p.fresh(v)?.into();
        initial.insert(v, t.clone());
        if cx.typed.symbols().var(v).kind == VarKind::Global {
            p.old.insert(v, t);
        }
    }
    // A block's map lives until its last successor has read it.
    let mut out_maps: Vec<Option<Incarnations>> = vec![None; n];
    let mut unread: Vec<usize> = succs.iter().map(Vec::len).collect();
    let mut passive: Vec<Vec<PCmd>> = vec![Vec::new(); n];
    for &b in &order {
        crate::memory::check()?;
        let mut cur = match preds[b].as_slice() {
            [] => initial.clone(),
            [single] => out_maps[*single].clone().unwrap_or_else(|| initial.clone()),
            many => {
                let mut merged = out_maps[many[0]].clone().unwrap_or_else(|| initial.clone());
                for &v in &join_live[b] {
                    let first = out_maps[many[0]].as_ref().and_then(|m| m.get(&v)).cloned();
                    let differ = many.iter().any(|&q| out_maps[q].as_ref().and_then(|m| m.get(&v)).cloned() != first);
                    if differ {
                        let t: Rc<str> = p.fresh(v)?.into();
                        for &q in many {
                            if let Some(old) = out_maps[q].as_ref().and_then(|m| m.get(&v)) {
                                passive[q].push(PCmd::Assume(format!("(= {t} {old})")));
                            }
                        }
                        merged.insert(v, t);
                    }
                }
                merged
            }
        };
        for &q in &preds[b] {
            unread[q] = unread[q].saturating_sub(1);
            if unread[q] == 0 {
                out_maps[q] = None;
            }
        }
        let mut cmds = Vec::new();
        for c in &blocks[b].cmds {
            p.cmd(c, &mut cur, &mut cmds)?;
        }
        passive[b] = cmds;
        if unread[b] > 0 {
            out_maps[b] = Some(cur);
        }
    }
    // Join copies went to predecessors after they were passified: append in order.
    let blocks = blocks
        .iter()
        .zip(passive)
        .map(|(b, cmds)| PassiveBlock {
            label: b.label.clone(),
            tok: b.tok,
            cmds,
            succs: b.succs.clone(),
            ret: b.ret,
            from_return: b.from_return,
            goto_attrs: b.goto_attrs,
            jump: b.jump,
        })
        .collect();
    Ok(Passive { blocks, decls: p.decls })
}

/// Boogie's `RemoveEmptyBlocks` followed by `PruneUnreachableBlocks`: blocks without commands
/// disappear (their predecessors jump to their successors), except the start block and blocks
/// whose goto has attributes; an empty block with a token passes its name and token on to a
/// token-less single successor; a token-less start block of assumptions takes the name and
/// token of the first empty block it leads to.
/// Boogie's `HandleSelectiveChecking`, for `{:selective_checking}` implementations: only what
/// follows an `assume {:start_checking_here}` is checked. Blocks reachable from a block holding
/// one are checked entirely (the start block itself only if it is reached again); elsewhere
/// the asserts before the marker become assumptions (none where `{:subsumption 0}`).
pub fn selective_checking(blocks: &mut [PassiveBlock]) {
    let starts: Vec<usize> =
        (0..blocks.len()).filter(|&b| blocks[b].cmds.iter().any(|c| matches!(c, PCmd::StartChecking))).collect();
    let mut checked = vec![false; blocks.len()];
    for &start in &starts {
        let was_there = checked[start];
        let mut todo = vec![start];
        while let Some(x) = todo.pop() {
            if !checked[x] {
                checked[x] = true;
                todo.extend(blocks[x].succs.iter().copied());
            }
        }
        if !was_there {
            checked[start] = false;
        }
    }
    for (b, block) in blocks.iter_mut().enumerate() {
        if checked[b] {
            continue;
        }
        let mut checking = false;
        block.cmds.retain_mut(|c| {
            match c {
                PCmd::StartChecking => checking = true,
                PCmd::Assert(t, check, _) if !checking => {
                    if !check.subsume {
                        return false;
                    }
                    *c = PCmd::Assume(std::mem::take(t));
                }
                _ => {}
            }
            true
        });
    }
}

pub fn remove_empty_blocks(blocks: &mut Vec<PassiveBlock>) {
    let n = blocks.len();
    let start = 0;
    let mut postorder = Vec::new();
    let mut keep = FxHashSet::default();
    let mut visited = vec![false; n];
    let mut grey = vec![false; n];
    let mut in_post = vec![false; n];
    let mut rename: Vec<Option<usize>> = vec![None; n];
    let mut stack = vec![start];
    visited[start] = true;
    while let Some(curr) = stack.pop() {
        if grey[curr] {
            postorder.push(curr);
            in_post[curr] = true;
            rename[curr] = None;
            let succs = &blocks[curr].succs;
            if succs.is_empty() {
                if blocks[curr].cmds.is_empty() && blocks[curr].tok.is_some() {
                    rename[curr] = Some(curr);
                }
            } else if blocks[curr].cmds.is_empty() || curr == start {
                if blocks[curr].tok.is_some() {
                    rename[curr] = Some(curr);
                } else {
                    let mut infos: Vec<Option<usize>> = Vec::new();
                    for &s in succs {
                        let i = if keep.contains(&s) { None } else { rename[s] };
                        if !infos.contains(&i) {
                            infos.push(i);
                        }
                    }
                    if infos.len() == 1 {
                        rename[curr] = infos[0];
                    }
                }
            }
        } else {
            grey[curr] = true;
            stack.push(curr);
            if blocks[curr].succs.is_empty() {
                continue;
            }
            if blocks[curr].goto_attrs {
                keep.insert(curr);
            }
            for &s in &blocks[curr].succs {
                if !visited[s] {
                    visited[s] = true;
                    stack.push(s);
                } else if grey[s] && !in_post[s] {
                    keep.insert(s);
                }
            }
        }
    }
    keep.insert(start);
    let mut preds = predecessors_of(blocks);
    let mut removed = vec![false; n];
    for &b in &postorder {
        if keep.contains(&b) || !blocks[b].cmds.is_empty() {
            continue;
        }
        removed[b] = true;
        for &p in &preds[b].clone() {
            blocks[p].succs.retain(|&s| s != b);
        }
        let successors = blocks[b].succs.clone();
        if successors.is_empty() {
            continue;
        }
        if blocks[b].tok.is_some() && successors.len() == 1 && rename[start] != Some(b) {
            let s = successors[0];
            if blocks[s].tok.is_none() {
                blocks[s].tok = blocks[b].tok;
                blocks[s].label = blocks[b].label.clone();
            }
        }
        for &p in &preds[b].clone() {
            for &s in &successors {
                if !blocks[p].succs.contains(&s) {
                    blocks[p].succs.push(s);
                    preds[s].push(p);
                }
            }
        }
        for &s in &successors {
            preds[s].retain(|&p| p != b);
        }
    }
    if blocks[start].tok.is_none()
        && let Some(r) = rename[start]
    {
        blocks[start].tok = blocks[r].tok;
        blocks[start].label = blocks[r].label.clone();
    }
    // Prune what is unreachable now, renumbering.
    let mut seen = vec![false; n];
    let mut stack = vec![start];
    while let Some(b) = stack.pop() {
        if !seen[b] {
            seen[b] = true;
            stack.extend(blocks[b].succs.iter().copied());
        }
    }
    let mut map = vec![usize::MAX; n];
    let mut k = 0;
    for b in 0..n {
        if seen[b] && !removed[b] {
            map[b] = k;
            k += 1;
        }
    }
    let old = std::mem::take(blocks);
    for (b, mut block) in old.into_iter().enumerate() {
        if map[b] != usize::MAX {
            block.succs = block.succs.iter().map(|&s| map[s]).filter(|&s| s != usize::MAX).collect();
            blocks.push(block);
        }
    }
}

/// Predecessor lists of passive blocks, in block order.
pub fn predecessors_of(blocks: &[PassiveBlock]) -> Vec<Vec<usize>> {
    let mut preds = vec![Vec::new(); blocks.len()];
    for (i, b) in blocks.iter().enumerate() {
        for &s in &b.succs {
            preds[s].push(i);
        }
    }
    preds
}
