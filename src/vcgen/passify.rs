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
use super::shown::{self, Info};
use super::{AssumeAttrs, Block, Check, CheckKind, Cmd, Unsupported, predecessors};
use crate::ast::{AssignLhs, AttrParam, CallCmd, Decl, Expr, ExprKind, Span, Spec};
use crate::typeck::{ProcedureId, Ref, TypedProgram, VarId, VarKind};

/// A passive command.
/// Each carries how Boogie prints it ([`Info`]) when the passive program is printed.
#[derive(Clone, Debug)]
pub enum PCmd {
    Assume(String, Info),
    /// The condition, the check, and `{:verified_under}`'s term: what is checked is then
    /// `under || condition`, what is assumed after it the condition.
    Assert(String, Check, Option<String>, Info),
    /// `{:start_checking_here}` (see [`selective_checking`]); no effect on the VC.
    StartChecking,
    /// `hide`, `reveal`, `push`, `pop`: no effect on the VC (see [`super::ScopeCmd`]).
    Scope(super::ScopeCmd),
    /// A `{:captureState}` point, where models are asked for; no effect on the VC.
    Capture(std::sync::Arc<CapturePoint>),
    /// A call left open for stratified inlining ([`TemplateLinks`]): the terms an instance of
    /// the callee is linked to. What it does to the path is the callee instance's business.
    Site(Box<SiteLink>),
    /// The `{:print ...}` attributes of a command, each ended by a line break; no effect on
    /// the VC, but it is a command, as Boogie's `assume true` that carries them is, so a block
    /// that has one is not empty.
    Print(Vec<PrintItem>),
}

impl PCmd {
    /// Boogie's `AssertTurnedIntoAssume`: an assertion becomes the assumption of its condition
    /// (of `true` where its subsumption is off), printed without attributes; any other
    /// command stays.
    pub fn assumed(&self) -> PCmd {
        match self {
            PCmd::Assert(t, check, _, shown) => {
                let (t, text) = if check.subsume {
                    (t.clone(), shown.as_ref().map(|s| s.expr.clone()))
                } else {
                    ("true".into(), Some("true".into()))
                };
                PCmd::Assume(t, shown.as_ref().and(text).and_then(|text| shown::shown(String::new(), text)))
            }
            other => other.clone(),
        }
    }
}

/// A call site of a stratified-inlining template ([`PCmd::Site`]): the callee, the call, and
/// the terms of its arguments, of the linked globals before the call, of the fresh values of
/// its outs and of the linked globals after it (those the callee may modify are fresh).
#[derive(Clone, Debug)]
pub struct SiteLink {
    pub callee: ProcedureId,
    pub call: Span,
    pub args: Vec<String>,
    pub globals_before: Vec<String>,
    pub outs: Vec<String>,
    pub globals_after: Vec<String>,
}

/// Passification for a stratified-inlining template (`crate::vcgen::stratified`): calls of
/// `sites` become [`PCmd::Site`]s, `globals` are linked at every site, and the terms of
/// `entry` at the start and of `exit` at the end of every returning block are recorded
/// ([`Passive::links`]); the `exit` variables are live at the end.
pub struct TemplateLinks<'a> {
    pub sites: &'a FxHashSet<ProcedureId>,
    pub globals: Vec<VarId>,
    pub entry: Vec<VarId>,
    pub exit: Vec<VarId>,
}

/// What [`TemplateLinks`] asked passification to record.
#[derive(Clone, Debug, Default)]
pub struct PassiveLinks {
    pub entry: Vec<String>,
    /// For each block without successors: its index and the terms of the `exit` variables
    /// at its end.
    pub exits: Vec<(usize, Vec<String>)>,
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
    /// A goto whose targets were all removed (Boogie's `goto ;`, printed so): for the VC, a
    /// return.
    pub goto_nowhere: bool,
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
    /// When the passive program is printed ([`shown`]): the program's type table.
    pub show: Option<&'a crate::emit::TypeTable>,
    /// Models are asked for (`/printModel`, `/mv`): `{:captureState}` points are recorded.
    pub capture_states: bool,
    /// Errors show the values of the implementation's inputs and of the variables their
    /// check reads ([`shown::CmdInfo::values`]).
    pub values: bool,
    /// The implementation's in-parameters.
    pub inputs: Vec<VarId>,
    /// Passification for a stratified-inlining template, else `None`.
    pub template: Option<TemplateLinks<'a>>,
    /// Assignments define their incarnations at the top level ([`Passive::definitions`])
    /// instead of being assumed in their blocks.
    pub hoist_definitions: bool,
}

pub struct Passive {
    pub blocks: Vec<PassiveBlock>,
    /// Every incarnation and call temporary.
    pub decls: Vec<Incarnation>,
    /// What [`ImplContext::template`] asked for.
    pub links: PassiveLinks,
    /// Under [`ImplContext::hoist_definitions`], `(= x@N e)` for each incarnation an
    /// assignment defines: to be asserted beside the VC, not under its block's path.
    ///
    /// Sound and complete: `x@N` is fresh and assigned once, by this command, and is read
    /// only where the command has run (the passive program is in SSA form; the incarnations
    /// of joins are defined on several edges and stay in their blocks). Any model of the VC's
    /// negation therefore gives one of the VC's negation with the definitions, by setting
    /// `x@N` to `e`'s value, in the order of the definitions. What it changes is the solver's
    /// search: an assumption under its block is a literal the solver may make false, and a
    /// false equality of two arrays costs z3 an extensionality witness. A sequentialized
    /// program with a few hundred map fields has thousands of them; its counterexample took z3
    /// minutes to hours, with the definitions outside the paths it takes seconds.
    pub definitions: Vec<String>,
    /// Under `/trackVerificationCoverage`, the booleans that stand for the labels of the
    /// tracked commands ([`super::coverage`]), each with its label.
    pub tracks: Vec<(String, String)>,
}

/// A constant passification declares: its SMT-LIB name and sort, and the name Boogie gives it
/// (`x` for a variable's value at the entry, `x@N` for its N-th incarnation), which a model
/// shows.
#[derive(Clone, Debug)]
pub struct Incarnation {
    pub smt: String,
    pub sort: String,
    pub boogie: String,
}

/// A `{:captureState "name"}` point (Boogie's `ModelViewInfo.Mapping`): the values of the
/// variables changed since the entry, each with the identity of its value, so that a model's
/// state can show only what changed since the state before.
#[derive(Debug)]
pub struct CapturePoint {
    pub name: String,
    pub values: Vec<(VarId, u32, ModelValue)>,
}

/// How a model finds a variable's value: a constant's (by its Boogie name) or a literal's.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum ModelValue {
    Constant(Box<str>),
    Literal(Box<str>),
}

/// A variable's value during passification: its SMT-LIB term, and its Boogie text when the
/// passive program is printed (else empty).
///
/// A value's identity (its `Rc`) matters, as in Boogie, whose incarnation maps hold expression
/// objects: a join makes a new incarnation for a variable whose predecessors hold different
/// values, different meaning different objects, even when they are the same literal (`x := 0`
/// on both branches).
#[derive(Debug)]
pub struct Value {
    pub smt: Box<str>,
    pub shown: Box<str>,
    /// Where a model finds it.
    pub model: ModelValue,
    /// Its identity, as a number that outlives passification (for [`CapturePoint`]s).
    pub id: u32,
}

impl Value {
    fn new(smt: impl Into<Box<str>>, shown: impl Into<Box<str>>, model: ModelValue) -> Rc<Value> {
        static NEXT: std::sync::atomic::AtomicU32 = std::sync::atomic::AtomicU32::new(0);
        let id = NEXT.fetch_add(1, std::sync::atomic::Ordering::Relaxed);
        Rc::new(Value { smt: smt.into(), shown: shown.into(), model, id })
    }
}

/// A variable's current value, by variable: a persistent map, so that a block starts from its
/// predecessor's map in O(1) and shares it (issue 14: no per-block copies).
type Incarnations = imbl::GenericHashMap<VarId, Rc<Value>, FxBuildHasher, imbl::shared_ptr::RcK>;

struct State<'m> {
    cur: &'m Incarnations,
    old: &'m Incarnations,
    proc_to_impl: &'m FxHashMap<VarId, VarId>,
}

impl Env for State<'_> {
    fn var(&self, v: VarId, old: bool) -> Option<String> {
        let v = self.proc_to_impl.get(&v).copied().unwrap_or(v);
        if old && let Some(t) = self.old.get(&v) {
            return Some(t.smt.to_string());
        }
        self.cur.get(&v).map(|t| t.smt.to_string())
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
    decls: Vec<Incarnation>,
    /// SMT-LIB names in use, by the name they are made from: `x@0`, `x@1`, ...
    counters: FxHashMap<String, u32>,
    /// Boogie's incarnation numbers, per variable (`CreateIncarnation`): printed names.
    shown_counters: FxHashMap<VarId, u32>,
    /// The Boogie names given so far ([`Passifier::unique_boogie_name`]), and for each name
    /// given twice the next `@@k` to try.
    boogie_names: FxHashSet<String>,
    boogie_repeats: FxHashMap<String, u32>,
    sorts: FxHashMap<VarId, String>,
    old: Incarnations,
    /// Each variable's value at the entry (Boogie: not in the incarnation map).
    initial: Incarnations,
    /// Each loop measure's values at its loop head ([`Cmd::MeasureSnapshot`]).
    snapshots: FxHashMap<usize, Vec<String>>,
    /// [`Passive::definitions`].
    definitions: Vec<String>,
    /// The label of a [`Cmd::Track`] for the command after it.
    pending_track: Option<std::sync::Arc<str>>,
    /// The tracked call's id, while its call is passified.
    call_id: Option<std::sync::Arc<str>>,
    /// A tracked assignment makes an incarnation even of a literal or a variable, and keeps
    /// its equation in its block (Boogie's `assignHasId`), so that the equation can be named.
    forcing: bool,
    /// [`Passive::tracks`], and the SMT name of each label.
    tracks: Vec<(String, String)>,
    track_names: FxHashMap<String, String>,
}

impl<'a> Passifier<'a, '_, '_> {
    /// The boolean that stands for `label` in the VC (`/trackVerificationCoverage`).
    fn track_literal(&mut self, label: &str) -> String {
        if let Some(name) = self.track_names.get(label) {
            return name.clone();
        }
        // `%` is in no Boogie identifier: no variable's name can be one of these.
        let name = format!("cover%{}", self.tracks.len());
        self.tracks.push((name.clone(), label.to_string()));
        self.track_names.insert(label.to_string(), name.clone());
        name
    }

    /// The commands `out[start..]` tracked under `label`: an assumption `e` becomes
    /// `l ==> e`, an assertion `l && e` (Boogie's `NamedAssumeOp` and `NamedAssertOp`).
    fn track(&mut self, label: &str, out: &mut [PCmd]) {
        let l = self.track_literal(label);
        for c in out.iter_mut() {
            match c {
                PCmd::Assume(t, _) => *t = format!("(=> {l} {t})"),
                PCmd::Assert(t, ..) => *t = format!("(and {l} {t})"),
                _ => {}
            }
        }
    }

    fn typed(&self) -> &'a TypedProgram {
        self.cx.typed
    }

    fn showing(&self) -> bool {
        self.cx.show.is_some()
    }

    fn fresh_named(&mut self, base: &str, sort: String, boogie: String) -> String {
        let n = self.counters.entry(base.to_string()).or_insert(0);
        let name = super::encode::quote(&format!("{base}@{n}"));
        *n += 1;
        self.decls.push(Incarnation { smt: name.clone(), sort, boogie });
        name
    }

    /// `name`, or when an incarnation of this implementation has it already (the
    /// temporaries of two calls of one procedure, a local named like a global), `name@@k`
    /// with the first `k` from 0 not taken: Boogie's prover names (`UniqueNamer`), which its
    /// models print.
    fn unique_boogie_name(&mut self, name: String) -> String {
        // Only models and shown values print these names: other runs skip the bookkeeping.
        if !(self.cx.capture_states || self.cx.values || self.showing()) {
            return name;
        }
        if self.boogie_names.insert(name.clone()) {
            return name;
        }
        let k = self.boogie_repeats.entry(name.clone()).or_insert(0);
        loop {
            let candidate = format!("{name}@@{k}");
            *k += 1;
            if self.boogie_names.insert(candidate.clone()) {
                return candidate;
            }
        }
    }

    /// A new incarnation of `v`.
    fn fresh(&mut self, v: VarId) -> Result<Rc<Value>, Unsupported> {
        let sort = match self.sorts.get(&v) {
            Some(s) => s.clone(),
            None => {
                let s = self.enc.sort(&self.typed().symbols().var(v).ty)?;
                self.sorts.insert(v, s.clone());
                s
            }
        };
        let base = self.typed().symbols().var(v).name.name.to_string();
        let n = self.shown_counters.entry(v).or_insert(0);
        let boogie = format!("{base}@{n}");
        *n += 1;
        let boogie = self.unique_boogie_name(boogie);
        let smt = self.fresh_named(&base, sort, boogie.clone());
        let shown = if self.showing() { crate::emit::sanitize(&boogie).into_owned() } else { String::new() };
        Ok(Value::new(smt, shown, ModelValue::Constant(boogie.into())))
    }

    /// A variable's value at the entry: the variable itself.
    fn entry_value(&mut self, v: VarId) -> Result<Rc<Value>, Unsupported> {
        let sort = self.enc.sort(&self.typed().symbols().var(v).ty)?;
        self.sorts.insert(v, sort.clone());
        let base = self.typed().symbols().var(v).name.name.to_string();
        let smt = self.fresh_named(&base, sort, base.clone());
        let shown = if self.showing() { crate::emit::sanitize(&base).into_owned() } else { String::new() };
        Ok(Value::new(smt, shown, ModelValue::Constant(base.into())))
    }

    fn term(&mut self, e: &Expr, cur: &Incarnations) -> Result<String, Unsupported> {
        self.term_in(e, cur, true)
    }

    /// `e` in Boogie's positive context (assumed) or not (checked).
    fn term_in(&mut self, e: &Expr, cur: &Incarnations, positive: bool) -> Result<String, Unsupported> {
        let state = State { cur, old: &self.old, proc_to_impl: &self.cx.proc_to_impl };
        self.enc.expr_in(e, &state, positive)
    }

    /// `e` as Boogie prints it in the passive program, `old` meaning `old_map` (empty unless
    /// the passive program is printed).
    fn text_in(
        &self,
        e: &Expr,
        cur: &Incarnations,
        old_map: &Incarnations,
        proc_to_impl: &FxHashMap<VarId, VarId>,
    ) -> String {
        let Some(types) = self.cx.show else { return String::new() };
        let value = |v: VarId, old: bool| {
            let v = proc_to_impl.get(&v).copied().unwrap_or(v);
            let map = if old { old_map } else { cur };
            map.get(&v).or_else(|| cur.get(&v)).map(|t| t.shown.to_string())
        };
        shown::expr_text(self.typed(), types, e, &value)
    }

    fn text(&self, e: &Expr, cur: &Incarnations) -> String {
        self.text_in(e, cur, &self.old, &self.cx.proc_to_impl)
    }

    /// What a command of attributes `attrs` and expression `e` carries (see [`Info`]).
    fn shown(&self, attrs: &[crate::ast::Attribute], e: &Expr, cur: &Incarnations) -> Info {
        self.info(attrs, || self.text(e, cur))
    }

    /// What a command of attributes `attrs` and printed expression `expr` carries.
    fn info(&self, attrs: &[crate::ast::Attribute], expr: impl FnOnce() -> String) -> Info {
        let focus = super::encode::find_bool_attribute(attrs, "focus");
        let split_here = super::encode::find_bool_attribute(attrs, "split_here");
        if !self.showing() && !focus && !split_here {
            return None;
        }
        let (attrs_text, expr) = if self.showing() { (shown::attrs_text(attrs), expr()) } else { Default::default() };
        Some(std::sync::Arc::new(shown::CmdInfo {
            focus,
            split_here,
            tok: None,
            attrs: attrs_text,
            expr,
            values: Vec::new(),
        }))
    }

    /// The printed form of a command of no attributes and the expression text `expr`.
    fn shown_text(&self, expr: impl FnOnce() -> String) -> Info {
        if !self.showing() {
            return None;
        }
        shown::shown(String::new(), expr())
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
    fn havoc(&mut self, vars: &[VarId], cur: &mut Incarnations, out: &mut Vec<PCmd>) -> Result<(), Unsupported> {
        let assumptions: Vec<(VarId, Rc<Value>)> = vars
            .iter()
            .filter(|v| self.cx.assumptions.contains(v))
            .filter_map(|v| Some((*v, cur.get(v)?.clone())))
            .collect();
        for &v in vars {
            let t = self.fresh(v)?;
            cur.insert(v, t);
        }
        for &v in vars {
            let declared = self.cx.impl_to_proc.get(&v).copied().unwrap_or(v);
            if let Some(w) = self.cx.wheres.get(&declared) {
                let t = self.term(w, cur)?;
                let shown = self.shown(&[], w, cur);
                out.push(PCmd::Assume(t, shown));
            }
        }
        // Boogie's rule for assumption variables: `assume v_post ==> v_pre`.
        for (v, pre) in assumptions {
            let post = &cur[&v];
            let shown = self.shown_text(|| format!("{} ==> {}", post.shown, pre.shown));
            out.push(PCmd::Assume(format!("(=> {} {})", post.smt, pre.smt), shown));
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
        shown: Info,
    ) -> Result<(), Unsupported> {
        let subsume = check.subsume;
        if assumed.is_some() {
            check.subsume = false;
        }
        match under {
            // Verified already (Boogie's `isFullyVerified`): only the assumption is left.
            Some(Expr { kind: crate::ast::ExprKind::BoolLit(true), .. }) => {
                if subsume {
                    let shown = shown.and_then(|s| shown::shown(String::new(), s.expr.clone()));
                    out.push(PCmd::Assume(assumed.unwrap_or(t), shown));
                }
                return Ok(());
            }
            Some(u) => {
                let u = self.term(u, cur)?;
                out.push(PCmd::Assert(t, check, Some(u), shown));
            }
            None => out.push(PCmd::Assert(t, check, None, shown)),
        }
        if subsume && let Some(a) = assumed {
            out.push(PCmd::Assume(a, None));
        }
        Ok(())
    }

    fn cmd(&mut self, cmd: &Cmd<'a>, cur: &mut Incarnations, out: &mut Vec<PCmd>) -> Result<(), Unsupported> {
        if let Cmd::Track(label) = cmd {
            self.pending_track = Some(label.clone());
            return Ok(());
        }
        let Some(label) = self.pending_track.take() else { return self.untracked(cmd, cur, out) };
        if let Cmd::Call(_) = cmd {
            // The call's id names its callee's clauses ([`Passifier::call`]).
            self.call_id = Some(label);
            return self.untracked(cmd, cur, out);
        }
        let start = out.len();
        self.forcing = matches!(cmd, Cmd::Assign { .. });
        let done = self.untracked(cmd, cur, out);
        self.forcing = false;
        done?;
        self.track(&label, &mut out[start..]);
        Ok(())
    }

    fn untracked(&mut self, cmd: &Cmd<'a>, cur: &mut Incarnations, out: &mut Vec<PCmd>) -> Result<(), Unsupported> {
        match cmd {
            Cmd::Assert { expr, check, under, attrs } => {
                let terms = self.checked_terms(&mut |this, positive| this.term_in(expr, cur, positive))?;
                let shown = with_tok(self.shown(attrs, expr, cur), check.tok);
                let shown = with_values(shown, self.values_of(std::slice::from_ref(*expr), cur));
                self.assert(terms, check.clone(), *under, cur, out, shown)?;
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
            Cmd::Assume { expr, negated, attrs } => {
                let t = self.term(expr, cur)?;
                let shown = if !self.showing() {
                    match attrs {
                        AssumeAttrs::Written(a, _) => with_tok(self.info(a, String::new), expr.span),
                        _ => None,
                    }
                } else {
                    match attrs {
                        AssumeAttrs::None => self.shown(&[], expr, cur),
                        AssumeAttrs::Written(a, _) => with_tok(self.shown(a, expr, cur), expr.span),
                        AssumeAttrs::Partition(_) if *negated => {
                            let e = shown::negation(expr);
                            shown::shown("{:partition} ".into(), self.text(&e, cur))
                        }
                        AssumeAttrs::Partition(_) => shown::shown("{:partition} ".into(), self.text(expr, cur)),
                        AssumeAttrs::Where(v) => {
                            let name = crate::emit::sanitize(&self.typed().symbols().var(*v).name.name).into_owned();
                            shown::shown(format!("{{:where {name}}} "), format!("{} && true", self.text(expr, cur)))
                        }
                    }
                };
                let t = match attrs {
                    _ if *negated => format!("(not {t})"),
                    // Boogie assumes a local's where clause `W` as `W && true`: never a
                    // literal `false` that would cut the paths through it.
                    AssumeAttrs::Where(_) => format!("(and {t} true)"),
                    _ => t,
                };
                out.push(PCmd::Assume(t, shown));
                if self.cx.capture_states
                    && let AssumeAttrs::Written(a, _) = attrs
                    && let Some(name) = super::encode::string_attr(a, "captureState")
                {
                    out.push(PCmd::Capture(std::sync::Arc::new(self.capture(name, cur))));
                }
            }
            Cmd::AssumeFalse => {
                let shown = self.shown_text(|| "false".into());
                out.push(PCmd::Assume("false".into(), shown))
            }
            Cmd::AssumeVar(v) => {
                let t = cur.get(v).ok_or_else(|| Unsupported::new(None, "a variable out of scope"))?;
                let shown = self.shown_text(|| t.shown.to_string());
                out.push(PCmd::Assume(t.smt.to_string(), shown));
            }
            Cmd::Havoc(vars) => self.havoc(vars, cur, out)?,
            Cmd::Track(_) => {}
            Cmd::Assign { lhss, rhss, span, .. } => {
                if lhss.len() != rhss.len() {
                    return Err(Unsupported::new(Some(*span), "an assignment of unequal lengths"));
                }
                // Boogie's passive assignment: all right-hand sides read the state before it;
                // one assumption, the conjunction of an equation per new incarnation.
                let mut updates = Vec::new();
                for (lhs, rhs) in lhss.iter().zip(rhss.iter()) {
                    let rhs = without_true_and(rhs);
                    let value = self.term(rhs, cur)?;
                    let text = self.text(rhs, cur);
                    // Boogie makes no incarnation for a literal or a variable assigned to a
                    // variable: the variable stands for that value until assigned again.
                    let copied = !self.forcing
                        && matches!(lhs, AssignLhs::Var(_))
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
                    // A copy of a variable's value shares its identity (Boogie copies the
                    // expression object), unless that is the entry value (Boogie copies the
                    // identifier of the right-hand side, a new object).
                    let shared = match (&rhs.kind, copied) {
                        (ExprKind::Var(name), true) => match self.typed().referent(name) {
                            Some(Ref::Var(v)) => {
                                let v = self.cx.proc_to_impl.get(&v).copied().unwrap_or(v);
                                cur.get(&v).filter(|t| !self.initial.get(&v).is_some_and(|i| Rc::ptr_eq(i, t))).cloned()
                            }
                            _ => None,
                        },
                        _ => None,
                    };
                    // Where a model finds a copied value: the literal, or the copied variable.
                    let model = match &rhs.kind {
                        ExprKind::Var(name) => {
                            let base = match self.typed().referent(name) {
                                Some(Ref::Var(v)) => {
                                    let v = self.cx.proc_to_impl.get(&v).copied().unwrap_or(v);
                                    cur.get(&v).map(|t| t.model.clone())
                                }
                                _ => None,
                            };
                            base.unwrap_or_else(|| ModelValue::Constant(name.name.as_str().into()))
                        }
                        _ => {
                            let mut literal = String::new();
                            crate::emit::expr(&mut literal, rhs);
                            ModelValue::Literal(literal.into())
                        }
                    };
                    let (v, value, text) = self.lhs_update(lhs, value, text, cur)?;
                    updates.push((v, value, text, copied, shared, model));
                }
                let mut smt = Vec::new();
                let mut shown = Vec::new();
                let mut hoisted = false;
                for (v, value, text, copied, shared, model) in updates {
                    if copied {
                        cur.insert(v, shared.unwrap_or_else(|| Value::new(value, text, model)));
                        continue;
                    }
                    let t = self.fresh(v)?;
                    // A value with pool annotations stays in its block, where pool
                    // instantiation ([`super::instantiate`]) reads and removes them.
                    if self.cx.hoist_definitions && !self.forcing && !super::instantiate::annotated(&value) {
                        self.definitions.push(format!("(= {} {value})", t.smt));
                        cur.insert(v, t);
                        hoisted = true;
                        continue;
                    }
                    smt.push(format!("(= {} {value})", t.smt));
                    if self.showing() {
                        shown.push(format!("{} == {}", t.shown, text));
                    }
                    cur.insert(v, t);
                }
                if !smt.is_empty() {
                    let term =
                        if smt.len() == 1 { smt.pop().unwrap_or_default() } else { format!("(and {})", smt.join(" ")) };
                    let shown = self.shown_text(|| shown.join(" && "));
                    out.push(PCmd::Assume(term, shown));
                } else if hoisted {
                    // The command stays, as `assume true`: a block of assignments is not
                    // empty (`/removeEmptyBlocks` keeps it, and a trace shows it).
                    out.push(PCmd::Assume("true".into(), None));
                }
            }
            Cmd::Call(call) => self.call(call, cur, out)?,
            Cmd::Measure { span, .. } => {
                return Err(Unsupported::new(Some(*span), "measure commands outside loop heads (after a pass)"));
            }
            Cmd::NonNegative { expr, check } => {
                let t = format!("(>= {} 0)", self.term(expr, cur)?);
                let shown = self.shown_text(|| format!("{} >= 0", self.text(expr, cur)));
                match check {
                    Some(check) => self.assert((t, None), check.clone(), None, cur, out, shown)?,
                    None => out.push(PCmd::Assume(t, shown)),
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
                let shown = self.shown_text(|| "measure decreases".into());
                self.assert((t, None), check.clone(), None, cur, out, shown)?;
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
                let shown = self.shown_text(|| "measure decreases".into());
                self.assert((t, None), check.clone(), None, cur, out, shown)?;
            }
        }
        Ok(())
    }

    /// The variable a left-hand side assigns, and its new value (term and text) when the
    /// selected part gets `value` (`m[i][j] := v` is `m := m[i := m[i][j := v]]`).
    fn lhs_update(
        &mut self,
        lhs: &AssignLhs,
        value: String,
        text: String,
        cur: &Incarnations,
    ) -> Result<(VarId, String, String), Unsupported> {
        match lhs {
            AssignLhs::Var(name) => Ok((super::cfg::var_of(self.typed(), name)?, value, text)),
            AssignLhs::Select { base, indexes, .. } => {
                let (current, current_text) = self.lhs_value(base, cur)?;
                let idx = indexes.iter().map(|i| self.term(i, cur)).collect::<Result<Vec<_>, _>>()?;
                let updated = self.enc.store(&current, &idx, value);
                let updated_text = if self.showing() {
                    let idx: Vec<String> = indexes.iter().map(|i| self.text(i, cur)).collect();
                    format!("{current_text}[{} := {text}]", idx.join(", "))
                } else {
                    String::new()
                };
                self.lhs_update(base, updated, updated_text, cur)
            }
            AssignLhs::Field { span, .. } => Err(Unsupported::new(Some(*span), "datatype field updates")),
        }
    }

    fn lhs_value(&mut self, lhs: &AssignLhs, cur: &Incarnations) -> Result<(String, String), Unsupported> {
        match lhs {
            AssignLhs::Var(name) => {
                let v = super::cfg::var_of(self.typed(), name)?;
                cur.get(&v)
                    .map(|t| (t.smt.to_string(), t.shown.to_string()))
                    .ok_or_else(|| Unsupported::new(Some(name.span), "an unknown variable"))
            }
            AssignLhs::Select { base, indexes, .. } => {
                let (m, mut text) = self.lhs_value(base, cur)?;
                let idx = indexes.iter().map(|i| self.term(i, cur)).collect::<Result<Vec<_>, _>>()?;
                let t = self.enc.select(m, &idx);
                if self.showing() {
                    let idx: Vec<String> = indexes.iter().map(|i| self.text(i, cur)).collect();
                    text = format!("{text}[{}]", idx.join(", "));
                }
                Ok((t, text))
            }
            AssignLhs::Field { span, .. } => Err(Unsupported::new(Some(*span), "datatype field updates")),
        }
    }

    fn call(&mut self, call: &'a CallCmd, cur: &mut Incarnations, out: &mut Vec<PCmd>) -> Result<(), Unsupported> {
        let call_id = self.call_id.take();
        // The label of a callee clause with an `{:id}` at a call with one.
        let clause_label = |attrs: &[crate::ast::Attribute], make: fn(&str, &str) -> String| {
            let call_id = call_id.as_deref()?;
            super::coverage::id_attr(attrs).map(|id| make(call_id, id))
        };
        if call.is_async {
            return Err(Unsupported::new(Some(call.span), "async calls"));
        }
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
        let cx = self.cx;
        if let Some(links) = &cx.template
            && links.sites.contains(&p)
        {
            return self.site(call, p, links, cur, out);
        }
        let mut subst: FxHashMap<VarId, String> = FxHashMap::default();
        // The printed form: the callee's formals as the arguments' text (in parentheses unless
        // a name or a literal), its outs and modified globals as their new incarnations.
        let mut subst_text: FxHashMap<VarId, String> = FxHashMap::default();
        for (formal, arg) in info.ins.iter().zip(&call.args) {
            let t = self.term(arg, cur)?;
            subst.insert(*formal, t);
            if self.showing() {
                let text = self.text(arg, cur);
                let atomic = text.chars().all(|c| c.is_alphanumeric() || "_.$#'`~^\\?".contains(c));
                subst_text.insert(*formal, if atomic { text } else { format!("({text})") });
            }
        }
        // Preconditions.
        for spec in &pdecl.specs {
            if let Spec::Requires { free, attrs, expr, span } = spec {
                let mut encode = |this: &mut Self, positive| {
                    let state = State { cur, old: &this.old, proc_to_impl: &FxHashMap::default() };
                    this.enc.expr_with(expr, &state, &subst, false, positive)
                };
                let shown_text = |this: &Self| this.callee_text(expr, &subst_text, cur, &this.old);
                if *free || call.is_free {
                    // A free requires holds at the call only under `{:always_assume}`; its
                    // place in the list matters (Boogie's `CallCmd.Desugar`).
                    if call.is_free || (*free && super::encode::find_bool_attribute(attrs, "always_assume")) {
                        let t = encode(self, true)?;
                        let shown = self.shown_text(|| shown_text(self));
                        let start = out.len();
                        out.push(PCmd::Assume(t, shown));
                        if let Some(label) = clause_label(attrs, super::coverage::call_requires_assumed) {
                            self.track(&label, &mut out[start..]);
                        }
                    }
                } else {
                    let check = Check {
                        kind: CheckKind::Requires { requires: *span },
                        tok: call.span,
                        msg: super::cfg::msg_attr(attrs),
                        describe: super::cfg::describe_attr(attrs),
                        subsume: true,
                        isolate: None,
                        clause: None,
                    };
                    // The call's attributes go to the assertion (`{:verified_under}` too).
                    let terms = self.checked_terms(&mut encode)?;
                    let shown = if self.showing() {
                        shown::shown(shown::attrs_text(&call.attrs), shown_text(self))
                    } else {
                        None
                    };
                    let shown = with_values(shown, self.values_of(&call.args, cur));
                    let start = out.len();
                    self.assert(terms, check, super::cfg::verified_under(&call.attrs), cur, out, shown)?;
                    if let Some(label) = clause_label(attrs, super::coverage::call_requires) {
                        self.track(&label, &mut out[start..]);
                    }
                }
            }
        }
        // Boogie adds `requires e >= 0` for each `int` measure `e` of the callee, after the others.
        for e in super::measure::procedure_measure(typed, p) {
            if !super::measure::is_int(typed, e) {
                continue;
            }
            let state = State { cur, old: &self.old, proc_to_impl: &FxHashMap::default() };
            let t = format!("(>= {} 0)", self.enc.expr_with(e, &state, &subst, false, true)?);
            let shown = self.shown_text(|| format!("{} >= 0", self.callee_text(e, &subst_text, cur, &self.old)));
            if call.is_free {
                out.push(PCmd::Assume(t, shown));
            } else {
                let check = Check {
                    kind: CheckKind::MeasureRequires { requires: e.span },
                    tok: call.span,
                    msg: None,
                    describe: None,
                    subsume: true,
                    isolate: None,
                    clause: None,
                };
                self.assert((t, None), check, super::cfg::verified_under(&call.attrs), cur, out, shown)?;
            }
        }
        // Havoc the outs (fresh temporaries) and the modified globals.
        let pre = cur.clone();
        let mut out_values = Vec::new();
        for (i, formal) in info.outs.iter().enumerate() {
            let (t, boogie) = self.call_temporary(p, i)?;
            subst.insert(*formal, t.clone());
            let text = if self.showing() { crate::emit::sanitize(&boogie).into_owned() } else { String::new() };
            subst_text.insert(*formal, text.clone());
            out_values.push(Value::new(t, text, ModelValue::Constant(boogie.into())));
        }
        let modifies: Vec<VarId> = {
            let mut seen = FxHashSet::default();
            self.cx.modifies[p.0 as usize].iter().copied().filter(|v| seen.insert(*v)).collect()
        };
        for &g in &modifies {
            let t = self.fresh(g)?;
            cur.insert(g, t);
        }
        // Where clauses of the outs and the modified globals.
        for formal in &info.outs {
            if let Some(w) = self.cx.wheres.get(formal) {
                let state = State { cur, old: &pre, proc_to_impl: &FxHashMap::default() };
                let t = self.enc.expr_with(w, &state, &subst, false, true)?;
                let shown = self.shown_text(|| self.callee_text(w, &subst_text, cur, &pre));
                out.push(PCmd::Assume(t, shown));
            }
        }
        for &g in &modifies {
            if let Some(w) = self.cx.wheres.get(&g) {
                let t = self.term(w, cur)?;
                let shown = self.shown(&[], w, cur);
                out.push(PCmd::Assume(t, shown));
            }
        }
        // Postconditions, `old` being the state before the call.
        for spec in &pdecl.specs {
            if let Spec::Ensures { expr, attrs, .. } = spec {
                let state = State { cur, old: &pre, proc_to_impl: &FxHashMap::default() };
                let t = self.enc.expr_with(expr, &state, &subst, false, true)?;
                let shown = self.shown_text(|| self.callee_text(expr, &subst_text, cur, &pre));
                let start = out.len();
                out.push(PCmd::Assume(t, shown));
                if let Some(label) = clause_label(attrs, super::coverage::call_ensures) {
                    self.track(&label, &mut out[start..]);
                }
            }
        }
        // The actual outs take the temporaries' values.
        for (value, actual) in out_values.into_iter().zip(&call.outs) {
            let v = super::cfg::var_of(typed, actual)?;
            cur.insert(v, value);
        }
        Ok(())
    }

    /// A fresh temporary for out-parameter `i` of a call of `p`: its term and its Boogie name.
    /// Boogie's call desugaring (`CallCmd.CreateTemporaryVariable`) numbers its temporaries
    /// in one count per call, the in-parameters' first, then one per `modifies` entry, then the
    /// out-parameters': out-parameter `y` is `call<n>formal@y`, and its havoc makes it
    /// `call<n>formal@y@0` (the name models print).
    fn call_temporary(&mut self, p: ProcedureId, i: usize) -> Result<(String, String), Unsupported> {
        let info = self.typed().symbols().procedure(p);
        let var = self.typed().symbols().var(info.outs[i]);
        let sort = self.enc.sort(&var.ty)?;
        let name = var.name.name;
        let n = info.ins.len() + self.cx.modifies[p.0 as usize].len() + i;
        let boogie = self.unique_boogie_name(format!("call{n}formal@{name}@0"));
        Ok((self.fresh_named(&format!("call{name}"), sort, boogie.clone()), boogie))
    }

    /// A call left open for stratified inlining: arguments and linked globals before, fresh
    /// outs and fresh values for what the callee may modify, linked globals after.
    fn site(
        &mut self,
        call: &'a CallCmd,
        p: ProcedureId,
        links: &TemplateLinks,
        cur: &mut Incarnations,
        out: &mut Vec<PCmd>,
    ) -> Result<(), Unsupported> {
        let typed = self.typed();
        let info = typed.symbols().procedure(p);
        let mut args = Vec::with_capacity(call.args.len());
        for a in &call.args {
            args.push(self.term(a, cur)?);
        }
        let current = |cur: &Incarnations, g: &VarId| cur.get(g).map(|v| v.smt.to_string()).unwrap_or_default();
        let globals_before: Vec<String> = links.globals.iter().map(|g| current(cur, g)).collect();
        let mut outs = Vec::with_capacity(info.outs.len());
        let mut out_values = Vec::new();
        for i in 0..info.outs.len() {
            let (t, boogie) = self.call_temporary(p, i)?;
            outs.push(t.clone());
            out_values.push(Value::new(t, String::new(), ModelValue::Constant(boogie.into())));
        }
        let mut seen = FxHashSet::default();
        for &g in self.cx.modifies[p.0 as usize].iter().filter(|v| seen.insert(**v)) {
            let t = self.fresh(g)?;
            cur.insert(g, t);
        }
        for (value, actual) in out_values.into_iter().zip(&call.outs) {
            let v = super::cfg::var_of(typed, actual)?;
            cur.insert(v, value);
        }
        let globals_after = links.globals.iter().map(|g| current(cur, g)).collect();
        out.push(PCmd::Site(Box::new(SiteLink {
            callee: p,
            call: call.span,
            args,
            globals_before,
            outs,
            globals_after,
        })));
        Ok(())
    }

    /// The variables `exprs` read, each with the term of its current value, when errors show
    /// values (else none).
    fn values_of(&self, exprs: &[Expr], cur: &Incarnations) -> Vec<(String, String)> {
        if !self.cx.values {
            return Vec::new();
        }
        let mut vars = self.cx.inputs.clone();
        for e in exprs {
            free_vars(self.typed(), e, &mut vars);
        }
        let mut seen = FxHashSet::default();
        vars.into_iter()
            .map(|v| self.cx.proc_to_impl.get(&v).copied().unwrap_or(v))
            .filter(|v| seen.insert(*v))
            .filter_map(|v| Some((self.typed().symbols().var(v).name.name.to_string(), cur.get(&v)?.smt.to_string())))
            .collect()
    }

    /// A `{:captureState}` point: the variables whose values differ from the entry's.
    fn capture(&self, name: &str, cur: &Incarnations) -> CapturePoint {
        let mut values = Vec::new();
        for &v in &self.cx.vars {
            let (Some(now), Some(entry)) = (cur.get(&v), self.initial.get(&v)) else { continue };
            if !Rc::ptr_eq(now, entry) {
                values.push((v, now.id, now.model.clone()));
            }
        }
        CapturePoint { name: name.to_string(), values }
    }

    /// The printed form of a callee's specification at a call: its formals as `formals`
    /// gives them, globals at their current values (`old_map` under `old`).
    fn callee_text(
        &self,
        e: &Expr,
        formals: &FxHashMap<VarId, String>,
        cur: &Incarnations,
        old_map: &Incarnations,
    ) -> String {
        let Some(types) = self.cx.show else { return String::new() };
        let value = |v: VarId, old: bool| {
            if let Some(t) = formals.get(&v) {
                return Some(t.clone());
            }
            let map = if old { old_map } else { cur };
            map.get(&v).map(|t| t.shown.to_string())
        };
        shown::expr_text(self.typed(), types, e, &value)
    }
}

/// `info` with the command's token (`tok`) when it has one.
fn with_tok(info: Info, tok: Span) -> Info {
    info.map(|i| {
        let i = std::sync::Arc::try_unwrap(i).unwrap_or_else(|i| (*i).clone());
        std::sync::Arc::new(shown::CmdInfo { tok: Some(tok), ..i })
    })
}

/// `info` with `values` ([`shown::CmdInfo::values`]) when there are any.
fn with_values(info: Info, values: Vec<(String, String)>) -> Info {
    if values.is_empty() {
        return info;
    }
    let base = info.map(|i| std::sync::Arc::try_unwrap(i).unwrap_or_else(|i| (*i).clone()));
    Some(std::sync::Arc::new(shown::CmdInfo { values, ..base.unwrap_or_default() }))
}

/// Boogie's simplification of an assigned value (`Convert2PassiveCmd`): `true && e` and
/// `e && false` are assumed as their second operand.
fn without_true_and(e: &Expr) -> &Expr {
    match &e.kind {
        ExprKind::Binary { op: crate::ast::BinaryOp::And, lhs, rhs }
            if matches!(lhs.kind, ExprKind::BoolLit(true)) || matches!(rhs.kind, ExprKind::BoolLit(false)) =>
        {
            rhs
        }
        _ => e,
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
        Cmd::AssumeFalse | Cmd::StartChecking | Cmd::Scope(_) | Cmd::Track(_) => {}
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
            // An open site reads every linked global.
            if let Some(links) = &cx.template
                && links.sites.contains(&p)
            {
                uses.extend(links.globals.iter().copied());
            }
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

/// Boogie's `Graph.TopologicalSort` of a block graph (`Program.GraphFromBlocks`): Kahn's
/// algorithm taking, of the blocks with no unsorted predecessor, the one first added to the
/// graph (the first block, then the blocks in list order, each followed by its targets).
pub fn boogie_topological_order(succs: &[Vec<usize>]) -> Vec<usize> {
    let edges = succs.iter().enumerate().flat_map(|(b, ss)| ss.iter().map(move |&s| (b, s)));
    tarjan_top_sort(succs.len(), edges)
}

/// Boogie's `TarjanTopSort` of a graph of `n` nodes whose first node is 0 and whose `edges`
/// come in the order Boogie adds them (each adds its source, then its target, to the nodes):
/// Kahn's algorithm, taking of the ready nodes the one added first. Boogie searches for that
/// node from the start each time; a heap makes it `O(n log n)`.
pub fn tarjan_top_sort(n: usize, edges: impl Iterator<Item = (usize, usize)>) -> Vec<usize> {
    if n == 0 {
        return Vec::new();
    }
    let mut number = vec![usize::MAX; n];
    let mut nodes = Vec::with_capacity(n);
    let mut add = |b: usize, number: &mut Vec<usize>| {
        if number[b] == usize::MAX {
            number[b] = nodes.len();
            nodes.push(b);
        }
    };
    add(0, &mut number);
    // Without duplicates: Boogie's edges are a set.
    let mut targets: Vec<Vec<usize>> = vec![Vec::new(); n];
    let mut incoming = vec![0usize; n];
    for (from, to) in edges {
        add(from, &mut number);
        add(to, &mut number);
        if !targets[from].contains(&to) {
            targets[from].push(to);
            incoming[to] += 1;
        }
    }
    let mut ready: std::collections::BinaryHeap<std::cmp::Reverse<usize>> =
        nodes.iter().filter(|&&b| incoming[b] == 0).map(|&b| std::cmp::Reverse(number[b])).collect();
    let mut order = Vec::with_capacity(nodes.len());
    while let Some(std::cmp::Reverse(k)) = ready.pop() {
        let b = nodes[k];
        order.push(b);
        for &s in &targets[b] {
            incoming[s] -= 1;
            if incoming[s] == 0 {
                ready.push(std::cmp::Reverse(number[s]));
            }
        }
    }
    order
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
    let mut forward: Vec<Vec<usize>> =
        succs.iter().map(|s| if s.is_empty() { vec![exit] } else { s.clone() }).collect();
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
    if let Some(links) = &cx.template {
        live.extend(links.exit.iter().copied());
    }
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
    // Boogie's order, which decides its incarnations' numbers.
    let order = boogie_topological_order(&succs);
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
        shown_counters: FxHashMap::default(),
        boogie_names: FxHashSet::default(),
        boogie_repeats: FxHashMap::default(),
        sorts: FxHashMap::default(),
        old: Incarnations::with_hasher(FxBuildHasher),
        initial: Incarnations::with_hasher(FxBuildHasher),
        snapshots: FxHashMap::default(),
        definitions: Vec::new(),
        pending_track: None,
        call_id: None,
        forcing: false,
        tracks: Vec::new(),
        track_names: FxHashMap::default(),
    };
    let mut initial = Incarnations::with_hasher(FxBuildHasher);
    for &v in &cx.vars {
        let t = p.entry_value(v)?;
        initial.insert(v, t.clone());
        if cx.typed.symbols().var(v).kind == VarKind::Global {
            p.old.insert(v, t);
        }
    }
    p.initial = initial.clone();
    let mut links = PassiveLinks::default();
    if let Some(t) = &cx.template {
        links.entry = t.entry.iter().map(|v| initial.get(v).map(|x| x.smt.to_string()).unwrap_or_default()).collect();
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
                    let value = |q: usize| out_maps[q].as_ref().and_then(|m| m.get(&v));
                    let first = value(many[0]);
                    let same = |x: Option<&Rc<Value>>| match (x, first) {
                        (Some(x), Some(f)) => Rc::ptr_eq(x, f),
                        (None, None) => true,
                        _ => false,
                    };
                    if !many.iter().all(|&q| same(value(q))) {
                        let t = p.fresh(v)?;
                        for &q in many {
                            if let Some(old) = out_maps[q].as_ref().and_then(|m| m.get(&v)) {
                                let shown = p.shown_text(|| format!("{} == {}", t.shown, old.shown));
                                passive[q].push(PCmd::Assume(format!("(= {} {})", t.smt, old.smt), shown));
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
        // A coverage label never reaches past its block.
        p.pending_track = None;
        for c in &blocks[b].cmds {
            p.cmd(c, &mut cur, &mut cmds)?;
        }
        passive[b] = cmds;
        if let Some(t) = &cx.template
            && succs[b].is_empty()
        {
            let terms = t.exit.iter().map(|v| cur.get(v).map(|x| x.smt.to_string()).unwrap_or_default()).collect();
            links.exits.push((b, terms));
        }
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
            goto_nowhere: false,
        })
        .collect();
    Ok(Passive { blocks, decls: p.decls, links, definitions: p.definitions, tracks: p.tracks })
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
                PCmd::Assert(_, check, ..) if !checking => {
                    if !check.subsume {
                        return false;
                    }
                    *c = c.assumed();
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
            // Boogie's goto loses the target and stays a goto (`goto ;` when none is left).
            blocks[p].goto_nowhere |= blocks[p].succs.is_empty();
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
    prune_unreachable(blocks, &removed);
}

/// Boogie's `PruneUnreachableBlocks` after passification: the blocks reached from the first,
/// in the order a depth-first search with a stack visits them (which is the order Boogie's
/// passive program, and so its splits, list them); a block with a literal `assume false` or
/// `assert false` keeps no successor (`/pruneInfeasibleEdges`). `removed` blocks are gone.
fn prune_unreachable(blocks: &mut Vec<PassiveBlock>, removed: &[bool]) {
    let n = blocks.len();
    let literal_false = |c: &PCmd| matches!(c, PCmd::Assume(t, _) | PCmd::Assert(t, ..) if t == "false");
    let mut seen = vec![false; n];
    let mut order = Vec::with_capacity(n);
    let mut stack = vec![0];
    while let Some(b) = stack.pop() {
        if removed[b] || std::mem::replace(&mut seen[b], true) {
            continue;
        }
        order.push(b);
        let block = &mut blocks[b];
        if !block.succs.is_empty() && block.cmds.iter().any(literal_false) {
            block.succs.clear();
            block.ret = block.ret.or(block.tok);
            continue;
        }
        stack.extend(block.succs.iter().copied());
    }
    let mut map = vec![usize::MAX; n];
    for (k, &b) in order.iter().enumerate() {
        map[b] = k;
    }
    let mut old: Vec<Option<PassiveBlock>> = std::mem::take(blocks).into_iter().map(Some).collect();
    for &b in &order {
        let mut block = old[b].take().expect("each block once");
        block.succs = block.succs.iter().map(|&s| map[s]).filter(|&s| s != usize::MAX).collect();
        blocks.push(block);
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

#[cfg(test)]
mod tests {
    use super::*;
    use crate::vcgen::tests::{passified, typed};

    /// The passive program of `P` in `text`.
    fn passive(text: &str) -> Passive {
        passified(&typed(text), "P").0
    }

    /// The commands of block `label`, as `assume t` and `assert t`.
    fn cmds(p: &Passive, label: &str) -> Vec<String> {
        let labels: Vec<&str> = p.blocks.iter().map(|b| b.label.as_str()).collect();
        let block = p.blocks.iter().find(|b| b.label == label).unwrap_or_else(|| panic!("no {label} in {labels:?}"));
        let cmd = |c: &PCmd| match c {
            PCmd::Assume(t, _) => format!("assume {t}"),
            PCmd::Assert(t, ..) => format!("assert {t}"),
            other => format!("{other:?}"),
        };
        block.cmds.iter().map(cmd).collect()
    }

    /// The declared incarnations, by their Boogie names.
    fn incarnations(p: &Passive) -> Vec<&str> {
        p.decls.iter().map(|d| d.boogie.as_str()).collect()
    }

    #[test]
    fn each_assignment_makes_a_new_incarnation() {
        let p = passive("procedure P(x: int) returns (y: int) { y := x + 1; y := y * 2; assert y > x; }\n");
        assert_eq!(
            cmds(&p, "anon0"),
            ["assume (= |y@1| (+ |x@0| 1))", "assume (= |y@2| (* |y@1| 2))", "assert (> |y@2| |x@0|)"]
        );
        assert_eq!(incarnations(&p), ["x", "y", "y@0", "y@1"]);
    }

    #[test]
    fn a_join_equates_each_branchs_incarnation_with_a_new_one() {
        let p =
            passive("procedure P(x: int) returns (y: int) { y := x + 1; if (x > 0) { y := y + 1; } assert y > x; }\n");
        // The branch that does not assign `y` passes on the incarnation it had.
        assert_eq!(
            cmds(&p, "anon3_Then"),
            ["assume (> |x@0| 0)", "assume (= |y@2| (+ |y@1| 1))", "assume (= |y@3| |y@2|)"]
        );
        assert_eq!(cmds(&p, "anon3_Else"), ["assume (not (> |x@0| 0))", "assume (= |y@3| |y@1|)"]);
        assert_eq!(cmds(&p, "anon2"), ["assert (> |y@3| |x@0|)"]);
    }

    /// Hoisted, an assignment's equation leaves its block for [`Passive::definitions`]; the
    /// equations of a join, which define one incarnation on two edges, stay.
    #[test]
    fn hoisted_assignments_are_definitions_and_joins_stay_in_their_blocks() {
        let text = "procedure P(x: int) returns (y: int) { y := x + 1; if (x > 0) { y := y + 1; } assert y > x; }\n";
        let p = crate::vcgen::tests::passified_with(&crate::vcgen::tests::typed(text), "P", true).0;
        assert_eq!(p.definitions, ["(= |y@1| (+ |x@0| 1))", "(= |y@2| (+ |y@1| 1))"]);
        assert_eq!(cmds(&p, "anon3_Then"), ["assume (> |x@0| 0)", "assume true", "assume (= |y@3| |y@2|)"]);
        assert_eq!(cmds(&p, "anon3_Else"), ["assume (not (> |x@0| 0))", "assume (= |y@3| |y@1|)"]);
        assert_eq!(cmds(&p, "anon2"), ["assert (> |y@3| |x@0|)"]);
    }

    #[test]
    fn a_literal_or_a_variable_assigned_is_a_value_not_an_incarnation() {
        let p = passive("procedure P(x: int) returns (y: int) { y := 0; if (x > 0) { y := x; } assert y >= 0; }\n");
        assert_eq!(cmds(&p, "anon3_Then"), ["assume (> |x@0| 0)", "assume (= |y@1| |x@0|)"]);
        assert_eq!(cmds(&p, "anon3_Else"), ["assume (not (> |x@0| 0))", "assume (= |y@1| 0)"]);
        assert_eq!(incarnations(&p), ["x", "y", "y@0"]);
    }

    #[test]
    fn a_variable_not_live_at_a_join_gets_no_copies() {
        let text = |check: &str| {
            format!(
                "procedure P(x: int) {{ var t: int; if (x > 0) {{ t := x + 1; }} else {{ t := x + 2; }} assert {check}; }}\n"
            )
        };
        let p = passive(&text("x == x"));
        assert_eq!(cmds(&p, "anon4_Then"), ["assume (> |x@0| 0)", "assume (= |t@1| (+ |x@0| 1))"]);
        assert_eq!(cmds(&p, "anon4_Else"), ["assume (not (> |x@0| 0))", "assume (= |t@2| (+ |x@0| 2))"]);
        // Read after the join, it is copied.
        let p = passive(&text("t > x"));
        assert_eq!(cmds(&p, "anon4_Then").last().map(String::as_str), Some("assume (= |t@3| |t@1|)"));
        assert_eq!(cmds(&p, "anon4_Else").last().map(String::as_str), Some("assume (= |t@3| |t@2|)"));
    }

    #[test]
    fn havoc_makes_an_unconstrained_incarnation() {
        let p = passive("procedure P(x: int) returns (y: int) { y := x; havoc y; assert y == x; }\n");
        assert_eq!(cmds(&p, "anon0"), ["assert (= |y@1| |x@0|)"]);
        assert_eq!(incarnations(&p), ["x", "y", "y@0"]);
    }

    #[test]
    fn old_is_the_incarnation_at_entry() {
        let p = passive("var g: int;\nprocedure P() modifies g; { g := g + 1; g := g + 1; assert g == old(g) + 2; }\n");
        assert_eq!(
            cmds(&p, "anon0"),
            ["assume (= |g@1| (+ |g@0| 1))", "assume (= |g@2| (+ |g@1| 1))", "assert (= |g@2| (+ |g@0| 2))"]
        );
    }

    #[test]
    fn a_call_asserts_requires_havocs_what_it_changes_and_assumes_ensures() {
        let p = passive(
            "var g: int;\n\
            procedure Q(a: int) returns (r: int); requires a > 0; modifies g; ensures r == a + g - old(g);\n\
            procedure P() modifies g; { var z: int; call z := Q(1); assert z >= 1; }\n",
        );
        let anon0 = cmds(&p, "anon0");
        assert_eq!(anon0.len(), 3, "{anon0:?}");
        assert_eq!(anon0[0], "assert (> 1 0)");
        // After the call: a fresh `z` and `g`; `old(g)` is `g` before the call.
        assert_eq!(anon0[1], "assume (= |callr@0| (- (+ 1 |g@1|) |g@0|))");
        // `z` takes the call temporary's value, with no incarnation of its own.
        assert_eq!(anon0[2], "assert (>= |callr@0| 1)");
    }
}
