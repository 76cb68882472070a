//! Stratified inlining in one solver session (Lal, Qadeer, Lahiri, "A Solver for Reachability
//! Modulo Theories", CAV 2012): which call sites a bounded check of the entry point must
//! inline to find a bug, or to know there is none within the bound.
//!
//! Expects a type-checked program whose loops are already bounded in every implementation
//! ([`crate::passes::every_loop_bounded`]) and the entry point's implementation. Guarantees
//! [`Search::Bug`] only for a model (`sat`, or Z3's `unknown` for incomplete quantifier
//! reasoning, which Boogie reports as errors) whose path reaches no open call site (a path
//! through inlined code to a failing assertion), [`Search::NoBug`] only after the solver said
//! `unsat` with every open site over-approximated; each with the call sites it inlined, by
//! path ([`crate::passes::inline::Inline::sites`]'s names), so that the driver can check and
//! report that program the way eager bounded checking does. Anything else (a timeout, an
//! `unknown`, a construct the templates cannot express) is [`Search::GaveUp`]: never a verdict.
//!
//! How. Every implementation becomes a *template* once: its passive form (see
//! [`super::passify`], with [`super::passify::TemplateLinks`]) written as one SMT-LIB
//! `define-fun` over all of its constants, so that an *instance* is a set of fresh constants
//! and one application. The template encodes executions forwards, which is what linking
//! instances needs (the weakest precondition that modular VCs use reads backwards):
//! - a Boolean per block, `R_b`, true only if some predecessor `p` is `R_p` and passes (all its
//!   assumptions and assertions hold); the first block's is the instance's `active` flag;
//! - `err` only if some block's prefix up to an assertion holds and the assertion does not,
//!   or up to an open call site whose callee fails; `ret` only if a block without successors
//!   passes, and then the out-parameters and globals take that block's final values (`exit`);
//! - an open call site has a `reach` flag (its block's prefix holds), its own `ok` and `err`
//!   (the callee returns, the callee fails), and constants for its arguments, the globals
//!   before and after the call, and its outs. Left free, that over-approximates the call (any
//!   outs, any change to what the callee may modify, may fail); inlining it adds an instance
//!   of the callee whose entry, exit, `ret` and `err` are equal to those constants, and whose
//!   `active` is the site's `reach`.
//!
//! Every flag (`R_b`, a block's passing, a prefix, `reach`, `err`, `ret`) only implies what
//! it stands for: a model's path must satisfy everything on it, and a failing execution sets
//! the flags along it, so the question "is there a failing path" has the same answer as with
//! equalities. The converse directions would make z3 reason about the program's quantified
//! assumptions in both polarities too (a SMACK program of Corral's regressions: 4.6 s in
//! `check-sat` with equalities, 2.7 s with implications).
//!
//! The query asserts the root's `err`. Each round asks one question of the same session: is it
//! satisfiable with every open site free (the over-approximation)? `unsat`: no bug within the
//! bound. A model that reaches no open site satisfies the under-approximation too (every open
//! site blocked): a bug. Otherwise the open sites the model's path reaches are inlined (or
//! blocked for good where the callee is already on the site's stack `bound` times, Corral's
//! recursion bound), and the next round adds only the new instances. Past twice the call depth
//! reached, every open site is inlined each round (breadth first): a program without a bug
//! must be inlined whole. Templates of everything the entry point reaches are made first, and
//! a callee that can fail nowhere (it checks nothing, nor does anything it reaches) never fails
//! at an open site.
//!
//! Hand-written rather than taken from a crate: no Rust crate implements stratified
//! inlining; it depends on rboogie's own passive form.

use std::fmt::Write as _;

use rustc_hash::{FxHashMap, FxHashSet};

use super::cfg::{self, Specs};
use super::encode::{Encoder, find_bool_attribute};
use super::passify::{self, ImplContext, PCmd, TemplateLinks};
use super::{AssumeAttrs, Check, CheckKind, Cmd, NoVc, Unsupported};
use crate::ast::Spec;
use crate::smt::{Answer, Limits, Session, UnknownReason};
use crate::typeck::{ImplementationId, ProcedureId, TypedProgram, VarId, VarKind};

/// The largest template (SMT-LIB text) the search sends.
const MAX_TEMPLATE: usize = 256 << 10;

/// What the search found.
#[derive(Debug, PartialEq, Eq)]
pub enum Search {
    /// A counterexample through inlined code only, with these sites inlined.
    Bug(FxHashSet<String>),
    /// No counterexample with the open sites over-approximated, with these sites inlined.
    NoBug(FxHashSet<String>),
    /// No verdict: why.
    GaveUp(String),
}

/// Figures of one search, for `/trace` and the benchmark.
#[derive(Clone, Copy, Debug, Default)]
pub struct Figures {
    pub rounds: u32,
    pub instances: u32,
    pub queries: u32,
    /// Bytes of SMT-LIB sent to the session.
    pub sent: usize,
    /// Seconds spent sending (the solver reads and asserts) and in `check-sat`.
    pub sending: f64,
    pub checking: f64,
}

/// One open call site of a template: its parameters' indexes.
struct TSite {
    callee: ProcedureId,
    /// The site's name in a path: `/Q@file:offset`, as [`crate::passes::inline`] names it.
    piece: String,
    reach: usize,
    ok: usize,
    err: usize,
    args: Vec<usize>,
    before: Vec<usize>,
    outs: Vec<usize>,
    after: Vec<usize>,
}

/// An implementation as a `define-fun` over all of its constants.
struct Template {
    name: String,
    /// Parameters: SMT-LIB name (without `|`s) and sort.
    params: Vec<(String, String)>,
    active: usize,
    ret: usize,
    err: usize,
    /// In-parameters, then the linked globals.
    entry: Vec<usize>,
    /// Out-parameters, then the linked globals.
    exit: Vec<usize>,
    sites: Vec<TSite>,
    /// Whether its own code checks anything (an assertion, a callee's precondition, its own
    /// postconditions when inlined).
    checks: bool,
}

/// A procedure's template's parameters while it is built.
struct Params {
    list: Vec<(String, String)>,
    conjuncts: Vec<String>,
}

impl Params {
    fn add(&mut self, name: String, sort: &str) -> usize {
        self.list.push((name, sort.to_string()));
        self.list.len() - 1
    }

    /// A parameter equal to `term`.
    fn bind(&mut self, name: String, sort: &str, term: &str) -> usize {
        let i = self.add(name, sort);
        self.conjuncts.push(format!("(= |{}| {term})", self.list[i].0));
        i
    }

    /// A Boolean parameter that implies `term` (only this direction: see the module header).
    fn implying(&mut self, name: String, term: &str) -> usize {
        let i = self.add(name, "Bool");
        self.conjuncts.push(format!("(=> |{}| {term})", self.list[i].0));
        i
    }

    fn name(&self, i: usize) -> String {
        format!("|{}|", self.list[i].0)
    }
}

fn and(terms: &[String]) -> String {
    match terms {
        [] => "true".into(),
        [t] => t.clone(),
        _ => format!("(and {})", terms.join(" ")),
    }
}

fn or(terms: &[String]) -> String {
    match terms {
        [] => "false".into(),
        [t] => t.clone(),
        _ => format!("(or {})", terms.join(" ")),
    }
}

/// A template's key: the implementation, and whether it is the root's (whose preconditions
/// are assumed rather than checked).
type Key = (ImplementationId, bool);

struct Instance {
    template: Key,
    procedure: ProcedureId,
    parent: Option<usize>,
    path: String,
    /// Calls from the root to it.
    depth: u32,
}

/// The search's state: templates made so far, instances, open sites.
struct Engine<'a> {
    typed: &'a TypedProgram,
    enc: Encoder<'a>,
    facts: &'a super::verify::VariableFacts<'a>,
    modifies: &'a [Vec<VarId>],
    globals: Vec<VarId>,
    /// Procedures whose calls are sites: those with an implementation.
    sites: &'a FxHashSet<ProcedureId>,
    impl_of: FxHashMap<ProcedureId, ImplementationId>,
    templates: FxHashMap<Key, Template>,
    instances: Vec<Instance>,
    figures: Figures,
    /// What [`Engine::send`] queued for the next query.
    pending: String,
    /// Implementations that can fail nowhere ([`Engine::prepare`]).
    cannot_fail: FxHashSet<ImplementationId>,
}

/// Searches for a bug from `entry` within recursion bound `bound` and, when given, stack
/// depth bound `stack_depth` (Corral's `/stackDepthBound:N`: a site with N calls above it on
/// the stack, its own making N + 1, is blocked, as one past the recursion bound is; see the
/// module header). `limits.time_limit_s` bounds the whole search (each query gets what is left
/// of it); `trace` gets one line per round.
pub fn search(
    typed: &TypedProgram,
    entry: ImplementationId,
    bound: u32,
    stack_depth: Option<u32>,
    session: &mut dyn Session,
    limits: &Limits,
    trace: &mut dyn FnMut(&str),
) -> (Search, Figures) {
    let facts = super::verify::variable_facts(typed);
    let modifies = super::verify::modifies_sets(typed);
    let symbols = typed.symbols();
    // Each procedure's (first) implementation; the calls of those without type parameters are
    // the sites.
    let mut impl_of = FxHashMap::default();
    for (i, info) in symbols.implementations.iter().enumerate() {
        if let Some(p) = info.procedure {
            impl_of.entry(p).or_insert(ImplementationId(i as u32));
        }
    }
    let sites: FxHashSet<ProcedureId> =
        impl_of.keys().copied().filter(|p| symbols.procedure(*p).type_params.is_empty()).collect();
    let mut engine = Engine::new(typed, &facts, &modifies, &sites, impl_of);
    engine.enc.portable_map_operators(!session.reads_z3_map_operators());
    let found = engine.run(entry, bound, stack_depth, session, limits, trace);
    let figures = Figures { instances: engine.instances.len() as u32, ..engine.figures };
    (found.unwrap_or_else(Search::GaveUp), figures)
}

fn unsupported(why: NoVc) -> String {
    match why {
        NoVc::Unsupported(u) => u.what,
        NoVc::OutOfMemory => "out of memory".into(),
    }
}

impl<'a> Engine<'a> {
    fn new(
        typed: &'a TypedProgram,
        facts: &'a super::verify::VariableFacts<'a>,
        modifies: &'a [Vec<VarId>],
        sites: &'a FxHashSet<ProcedureId>,
        impl_of: FxHashMap<ProcedureId, ImplementationId>,
    ) -> Engine<'a> {
        let symbols = typed.symbols();
        let globals =
            (0..symbols.vars.len() as u32).map(VarId).filter(|v| symbols.var(*v).kind == VarKind::Global).collect();
        Engine {
            typed,
            enc: Encoder::new(typed),
            facts,
            modifies,
            globals,
            sites,
            impl_of,
            templates: FxHashMap::default(),
            instances: Vec::new(),
            figures: Figures::default(),
            pending: String::new(),
            cannot_fail: FxHashSet::default(),
        }
    }

    /// Queues `text` for the session: one send a query (in-process Z3 runs each send as a
    /// call of its own, on a thread of its own).
    fn send(&mut self, text: &str) {
        self.figures.sent += text.len();
        self.pending.push_str(text);
    }

    /// `check-sat` after what is queued.
    fn check(&mut self, session: &mut dyn Session, limits: &Limits) -> Answer {
        let started = std::time::Instant::now();
        session.begin_query(limits);
        session.send(&std::mem::take(&mut self.pending));
        self.figures.sending += started.elapsed().as_secs_f64();
        let started = std::time::Instant::now();
        let answer = session.check_sat(limits);
        self.figures.checking += started.elapsed().as_secs_f64();
        answer
    }

    fn run(
        &mut self,
        entry: ImplementationId,
        bound: u32,
        stack_depth: Option<u32>,
        session: &mut dyn Session,
        limits: &Limits,
        trace: &mut dyn FnMut(&str),
    ) -> Result<Search, String> {
        let prelude = super::verify::CONTROL_FLOW.to_string() + &self.enc.prelude().map_err(|u| u.what)?;
        self.send(&prelude);
        // Every query is answered by z3's incremental solver, as each of Boogie's (and so
        // Corral's) is: z3 answers a first `check-sat` with no scope open by a tactic it makes
        // at that moment from the process's global parameters, and later ones, once an
        // assertion followed a check, incrementally. Through the tactic, z3 4.8.12 ran
        // quantifier-instantiation rounds on the first query of a program with
        // conversion axioms despite `smt.mbqi false` (no answer in minutes; the incremental
        // solver: 0.03 s), and in-process that tactic read whatever another session of the
        // process had last left in the globals.
        self.send("(push 1)\n");
        let Some(procedure) = self.typed.symbols().implementations[entry.0 as usize].procedure else {
            return Err("the entry point has no procedure".into());
        };
        self.prepare(entry)?;
        let root = self.instantiate(entry, procedure, None, String::new(), true)?;
        let (active, err) = {
            let t = &self.templates[&(entry, true)];
            (inst(&t.params[t.active].0, root), inst(&t.params[t.err].0, root))
        };
        self.send(&format!("(assert {active})\n(assert {err})\n"));
        // Open sites: (instance, site index).
        let mut open: Vec<(usize, usize)> =
            (0..self.templates[&(entry, true)].sites.len()).map(|s| (root, s)).collect();
        if open.is_empty() {
            // Nothing to inline on demand: the entry point's own VC is the whole question.
            return Err("the entry point calls no procedure with a body".into());
        }
        let mut inlined: FxHashSet<String> = FxHashSet::default();
        let started = std::time::Instant::now();
        // What is left of the time limit for the next query (at least a second).
        let left = |limits: &Limits| -> Result<Limits, String> {
            if limits.time_limit_s == 0 {
                return Ok(*limits);
            }
            let spent = started.elapsed().as_secs();
            if spent >= u64::from(limits.time_limit_s) {
                return Err("the time limit ran out".into());
            }
            Ok(Limits { time_limit_s: limits.time_limit_s - spent as u32, ..*limits })
        };
        loop {
            self.figures.rounds += 1;
            trace(&format!(
                "[TRACE] stratified inlining: round {}, {} instances, {} open call sites\n",
                self.figures.rounds,
                self.instances.len(),
                open.len()
            ));
            // Every open site free: an over-approximation of every callee not inlined yet.
            // An `unknown` for incomplete quantifier reasoning is a counterexample to Boogie
            // (and the final check of the program, which gets the same answer, reports it so).
            self.figures.queries += 1;
            let answer = self.check(session, &left(limits)?);
            match answer {
                Answer::Unsat => return Ok(Search::NoBug(inlined)),
                Answer::Sat | Answer::Unknown(UnknownReason::Incomplete(_)) => {}
                other => return Err(format!("the solver answered {other:?}")),
            }
            // A counterexample that reaches no open site is one of the program with the open
            // sites blocked (the under-approximation): a bug. One that does reaches them on its
            // path (a call returns or fails, never both, so the path ends at a failure): they
            // are inlined next.
            // Following paths finds a bug in about as many rounds as the bug is deep. A program
            // without one must be inlined whole, one path a round: past twice the depth reached
            // so far, every open site is inlined each round instead (breadth first), without
            // asking the model (a bug then shows once no site is open).
            let deepest = self.instances.iter().map(|i| i.depth).max().unwrap_or(0);
            let breadth_first = self.figures.rounds > 2 * deepest + 2;
            let chosen: Vec<(usize, usize)> = if breadth_first || open.is_empty() {
                open.clone()
            } else {
                let terms: Vec<String> = open.iter().map(|&(i, s)| self.reach(i, s)).collect();
                let refs: Vec<&str> = terms.iter().map(String::as_str).collect();
                let started = std::time::Instant::now();
                let values = session.get_value(&refs).map_err(|e| format!("reading the model: {e}"))?;
                self.figures.checking += started.elapsed().as_secs_f64();
                open.iter().zip(&values).filter(|(_, v)| v.trim() == "true").map(|(site, _)| *site).collect()
            };
            if chosen.is_empty() {
                return Ok(Search::Bug(inlined));
            }
            let chosen_set: FxHashSet<(usize, usize)> = chosen.iter().copied().collect();
            open.retain(|site| !chosen_set.contains(site));
            for (i, s) in chosen {
                let (callee, piece) = {
                    let t = &self.templates[&self.instances[i].template];
                    (t.sites[s].callee, t.sites[s].piece.clone())
                };
                // Corral's recursion bound: copies of the callee already around this site.
                let mut on_stack = 0;
                let mut at = Some(i);
                while let Some(x) = at {
                    let parent = self.instances[x].parent;
                    if parent.is_some() && self.instances[x].procedure == callee {
                        on_stack += 1;
                    }
                    at = parent;
                }
                // Corral's stack depth bound: the calls above this site, itself included.
                let too_deep = stack_depth.is_some_and(|n| self.instances[i].depth + 1 > n);
                if on_stack >= bound || too_deep {
                    let reach = self.reach(i, s);
                    self.send(&format!("(assert (not {reach}))\n"));
                    continue;
                }
                let Some(&imp) = self.impl_of.get(&callee) else { continue };
                let path = format!("{}{piece}", self.instances[i].path);
                inlined.insert(path.clone());
                let j = self.instantiate(imp, callee, Some(i), path, false)?;
                self.link(i, s, j);
                let sites = self.templates[&(imp, false)].sites.len();
                open.extend((0..sites).map(|k| (j, k)));
            }
        }
    }

    /// Site `s` of instance `i`'s `reach` constant.
    fn reach(&self, i: usize, s: usize) -> String {
        let t = &self.templates[&self.instances[i].template];
        inst(&t.params[t.sites[s].reach].0, i)
    }

    /// A new instance of `imp`'s template: its constants and its application.
    fn instantiate(
        &mut self,
        imp: ImplementationId,
        procedure: ProcedureId,
        parent: Option<usize>,
        path: String,
        root: bool,
    ) -> Result<usize, String> {
        let key = (imp, root);
        self.ensure_template(key)?;
        let i = self.instances.len();
        let depth = parent.map_or(0, |p| self.instances[p].depth + 1);
        self.instances.push(Instance { template: key, procedure, parent, path, depth });
        let t = &self.templates[&key];
        let mut text = String::new();
        for (name, sort) in &t.params {
            let _ = writeln!(text, "(declare-fun {} () {sort})", inst(name, i));
        }
        let _ = write!(text, "(assert ({}", t.name);
        for (name, _) in &t.params {
            let _ = write!(text, " {}", inst(name, i));
        }
        text.push_str("))\n");
        // A callee that can fail nowhere does not fail at an open site either.
        for site in &t.sites {
            let safe = self.impl_of.get(&site.callee).is_some_and(|imp| self.cannot_fail.contains(imp));
            if safe {
                let _ = writeln!(text, "(assert (not {}))", inst(&t.params[site.err].0, i));
            }
        }
        self.send(&text);
        Ok(i)
    }

    /// Builds and sends the template of `key` unless it was.
    fn ensure_template(&mut self, key: Key) -> Result<(), String> {
        if self.templates.contains_key(&key) {
            return Ok(());
        }
        let template = self.template(key.0, key.1).map_err(unsupported)?;
        // Z3 4.8.12 has crashed in-process on a `define-fun` of half a megabyte (a
        // Dafny-generated implementation); such bodies are left to eager inlining.
        if template.1.len() > MAX_TEMPLATE {
            return Err(format!("a template of {} KB", template.1.len() / 1024));
        }
        // Sorts and functions the template's terms needed, then the template.
        let mut text = self.enc.take_new_decls();
        text.push_str(&template.1);
        self.send(&text);
        self.templates.insert(key, template.0);
        Ok(())
    }

    /// The templates of every implementation the entry point's calls reach, and which of them
    /// can fail nowhere: they check nothing, and neither does anything they call (a least
    /// fixpoint: procedures that only call each other and check nothing cannot fail).
    fn prepare(&mut self, entry: ImplementationId) -> Result<(), String> {
        let mut work = vec![(entry, true)];
        while let Some(key) = work.pop() {
            if self.templates.contains_key(&key) {
                continue;
            }
            self.ensure_template(key)?;
            for site in &self.templates[&key].sites {
                if let Some(&imp) = self.impl_of.get(&site.callee) {
                    work.push((imp, false));
                }
            }
        }
        let mut fails: FxHashSet<ImplementationId> =
            self.templates.iter().filter(|(k, t)| !k.1 && t.checks).map(|(k, _)| k.0).collect();
        loop {
            let before = fails.len();
            for (key, t) in &self.templates {
                if key.1 || fails.contains(&key.0) {
                    continue;
                }
                if t.sites.iter().any(|s| self.impl_of.get(&s.callee).is_some_and(|imp| fails.contains(imp))) {
                    fails.insert(key.0);
                }
            }
            if fails.len() == before {
                break;
            }
        }
        self.cannot_fail = self.templates.keys().filter(|k| !k.1 && !fails.contains(&k.0)).map(|k| k.0).collect();
        Ok(())
    }

    /// Instance `j` of the callee made the body of site `s` of instance `i`.
    fn link(&mut self, i: usize, s: usize, j: usize) {
        let caller = &self.templates[&self.instances[i].template];
        let callee = &self.templates[&self.instances[j].template];
        let site = &caller.sites[s];
        let c = |k: usize| inst(&caller.params[k].0, i);
        let d = |k: usize| inst(&callee.params[k].0, j);
        let mut eqs = vec![
            format!("(= {} {})", d(callee.active), c(site.reach)),
            format!("(= {} {})", d(callee.ret), c(site.ok)),
            format!("(= {} {})", d(callee.err), c(site.err)),
        ];
        let ins = site.args.iter().chain(&site.before);
        for (k, from) in callee.entry.iter().zip(ins) {
            eqs.push(format!("(= {} {})", d(*k), c(*from)));
        }
        let outs = site.outs.iter().chain(&site.after);
        for (k, to) in callee.exit.iter().zip(outs) {
            eqs.push(format!("(= {} {})", d(*k), c(*to)));
        }
        let text = format!("(assert {})\n", and(&eqs));
        self.send(&text);
    }

    /// `imp`'s template, and the `define-fun` that declares it. The root's preconditions are
    /// assumed, as a verified implementation's; an inlined callee's are checked at its entry
    /// and its postconditions at its exit, as [`crate::passes::inline`] inlines them.
    fn template(&mut self, imp: ImplementationId, root: bool) -> Result<(Template, String), NoVc> {
        let typed = self.typed;
        let symbols = typed.symbols();
        let info = &symbols.implementations[imp.0 as usize];
        let span = Some(info.name.span);
        let proc_id = info.procedure.ok_or_else(|| Unsupported::new(span, "a missing procedure"))?;
        let proc = symbols.procedure(proc_id);
        if !info.type_params.is_empty() || !proc.type_params.is_empty() {
            return Err(Unsupported::new(span, "polymorphic implementations").into());
        }
        let body = super::verify::body_of(typed, imp).ok_or_else(|| Unsupported::new(span, "a missing body"))?;
        let mut proc_to_impl = FxHashMap::default();
        let mut impl_to_proc = FxHashMap::default();
        for (p, i) in proc.ins.iter().zip(&info.ins).chain(proc.outs.iter().zip(&info.outs)) {
            proc_to_impl.insert(*p, *i);
            impl_to_proc.insert(*i, *p);
        }
        let mut vars = self.globals.clone();
        vars.extend(info.ins.iter().chain(&info.outs).chain(&info.locals).copied());

        let wheres = &self.facts.wheres;
        let plain = |expr| Cmd::Assume { expr, negated: false, attrs: AssumeAttrs::None };
        let mut entry = Vec::new();
        if root {
            for g in &self.globals {
                if let Some(w) = wheres.get(g) {
                    entry.push(plain(w));
                }
            }
            for p in proc.ins.iter().chain(&proc.outs) {
                if let Some(w) = wheres.get(p) {
                    entry.push(plain(w));
                }
            }
        } else {
            // An inlined copy havocs its outs and locals, with their where clauses.
            for p in &proc.outs {
                if let Some(w) = wheres.get(p) {
                    entry.push(plain(w));
                }
            }
        }
        for l in &info.locals {
            if let Some(w) = wheres.get(l) {
                entry.push(Cmd::Assume { expr: w, negated: false, attrs: AssumeAttrs::Where(*l) });
            }
        }
        let check = |kind, tok, attrs: &[crate::ast::Attribute]| Check {
            kind,
            tok,
            msg: cfg::msg_attr(attrs),
            describe: cfg::describe_attr(attrs),
            subsume: true,
            isolate: None,
            clause: None,
        };
        let mut exit = Vec::new();
        for s in passify::procedure_specs(typed, proc_id) {
            match s {
                Spec::Requires { free: false, expr, attrs, span } if !root => entry.push(Cmd::Assert {
                    expr,
                    check: check(CheckKind::Requires { requires: *span }, *span, attrs),
                    under: None,
                    attrs: &[],
                }),
                Spec::Requires { expr, attrs, span, .. } if root => {
                    entry.push(Cmd::Assume { expr, negated: false, attrs: AssumeAttrs::Written(attrs, *span) })
                }
                Spec::Ensures { free: false, attrs, expr, span }
                    if root || !find_bool_attribute(attrs, "InlineAssume") =>
                {
                    exit.push(Cmd::Assert {
                        expr,
                        check: check(CheckKind::Ensures, *span, attrs),
                        under: None,
                        attrs: &[],
                    })
                }
                Spec::Ensures { free: false, expr, .. } => exit.push(plain(expr)),
                Spec::Ensures { free: true, attrs, expr, .. }
                    if root && find_bool_attribute(attrs, "always_assume") =>
                {
                    exit.push(plain(expr))
                }
                _ => {}
            }
        }
        let blocks = cfg::lower(typed, &body.stmts)?;
        let blocks = cfg::prune_unreachable(blocks);
        // Bounded mode unrolls every loop before the search: no loop is left to cut, so
        // `/alwaysAssumeFreeLoopInvariants` has nothing to act on here.
        let mut blocks = cfg::cut_loops(typed, self.modifies, blocks, false)?;
        cfg::add_exit_and_specs(&mut blocks, Specs { entry, exit }, body.stmts.end);
        cfg::add_blocks_between(&mut blocks);

        let links = TemplateLinks {
            sites: self.sites,
            globals: self.globals.clone(),
            entry: info.ins.iter().chain(&self.globals).copied().collect(),
            exit: info.outs.iter().chain(&self.globals).copied().collect(),
        };
        let cx = ImplContext {
            typed,
            vars,
            proc_to_impl,
            wheres,
            impl_to_proc,
            modifies: self.modifies,
            assumptions: &self.facts.assumptions,
            show: None,
            capture_states: false,
            values: false,
            inputs: info.ins.clone(),
            template: Some(links),
            hoist_definitions: false,
        };
        let passive = passify::run(&cx, &mut self.enc, &blocks)?;
        drop(cx);

        let mut p = Params { list: Vec::new(), conjuncts: Vec::new() };
        for d in &passive.decls {
            p.add(d.smt.trim_matches('|').to_string(), &d.sort);
        }
        let tag = format!("si%{}{}", imp.0, if root { "r" } else { "" });
        let sort_of = |enc: &mut Encoder, v: VarId| enc.sort(&symbols.var(v).ty);
        let active = p.add(format!("{tag}%active"), "Bool");
        let ret = p.add(format!("{tag}%ret"), "Bool");
        let err = p.add(format!("{tag}%err"), "Bool");
        let mut entry_params = Vec::new();
        for (k, (v, term)) in info.ins.iter().chain(&self.globals).zip(&passive.links.entry).enumerate() {
            let sort = sort_of(&mut self.enc, *v)?;
            entry_params.push(p.bind(format!("{tag}%in{k}"), &sort, term));
        }
        let exit_vars: Vec<VarId> = info.outs.iter().chain(&self.globals).copied().collect();
        let mut exit_params = Vec::new();
        for (k, v) in exit_vars.iter().enumerate() {
            let sort = sort_of(&mut self.enc, *v)?;
            exit_params.push(p.add(format!("{tag}%out{k}"), &sort));
        }

        let n = passive.blocks.len();
        let reached: Vec<usize> = (0..n).map(|b| p.add(format!("{tag}%R{b}"), "Bool")).collect();
        let passes: Vec<usize> = (0..n).map(|b| p.add(format!("{tag}%X{b}"), "Bool")).collect();
        let preds = {
            let mut preds = vec![Vec::new(); n];
            for (b, block) in passive.blocks.iter().enumerate() {
                for &s in &block.succs {
                    preds[s].push(b);
                }
            }
            preds
        };
        let mut errs = Vec::new();
        let mut rets = Vec::new();
        let mut sites = Vec::new();
        let mut prefixes = 0usize;
        for (b, block) in passive.blocks.iter().enumerate() {
            if b == 0 {
                p.conjuncts.push(format!("(= {} {})", p.name(reached[b]), p.name(active)));
            } else {
                let from: Vec<String> =
                    preds[b].iter().map(|&q| format!("(and {} {})", p.name(reached[q]), p.name(passes[q]))).collect();
                p.conjuncts.push(format!("(=> {} {})", p.name(reached[b]), or(&from)));
            }
            // The prefix so far: a parameter, and what held since it.
            let mut prefix = p.name(reached[b]);
            let mut held: Vec<String> = Vec::new();
            for c in &block.cmds {
                match c {
                    PCmd::Assume(t, _) => held.push(t.clone()),
                    PCmd::Assert(t, check, under, _) => {
                        held.insert(0, prefix);
                        let q = p.implying(format!("{tag}%P{prefixes}"), &and(&held));
                        prefixes += 1;
                        prefix = p.name(q);
                        held.clear();
                        let checked = match under {
                            Some(u) => format!("(or {u} {t})"),
                            None => t.clone(),
                        };
                        errs.push(format!("(and {prefix} (not {checked}))"));
                        if check.subsume {
                            held.push(t.clone());
                        }
                    }
                    PCmd::Site(link) => {
                        held.insert(0, prefix);
                        let k = sites.len();
                        let reach = p.implying(format!("{tag}%reach{k}"), &and(&held));
                        prefix = p.name(reach);
                        held.clear();
                        let ok = p.add(format!("{tag}%ok{k}"), "Bool");
                        let site_err = p.add(format!("{tag}%err{k}"), "Bool");
                        // One execution either returns from the call or fails in it: the
                        // model then shows one path, and the sites on it before the failure.
                        p.conjuncts.push(format!("(not (and {} {}))", p.name(ok), p.name(site_err)));
                        errs.push(format!("(and {prefix} {})", p.name(site_err)));
                        held.push(p.name(ok));
                        let callee = symbols.procedure(link.callee);
                        let mut args = Vec::new();
                        for (a, (formal, term)) in callee.ins.iter().zip(&link.args).enumerate() {
                            let sort = sort_of(&mut self.enc, *formal)?;
                            args.push(p.bind(format!("{tag}%s{k}a{a}"), &sort, term));
                        }
                        let mut outs = Vec::new();
                        for (a, (formal, term)) in callee.outs.iter().zip(&link.outs).enumerate() {
                            let sort = sort_of(&mut self.enc, *formal)?;
                            outs.push(p.bind(format!("{tag}%s{k}o{a}"), &sort, term));
                        }
                        let mut before = Vec::new();
                        let mut after = Vec::new();
                        for (a, g) in self.globals.iter().enumerate() {
                            let sort = sort_of(&mut self.enc, *g)?;
                            before.push(p.bind(format!("{tag}%s{k}b{a}"), &sort, &link.globals_before[a]));
                            after.push(p.bind(format!("{tag}%s{k}f{a}"), &sort, &link.globals_after[a]));
                        }
                        let name = callee.name.name;
                        let piece = format!("/{name}@{}:{}", link.call.file.0, link.call.start);
                        sites.push(TSite {
                            callee: link.callee,
                            piece,
                            reach,
                            ok,
                            err: site_err,
                            args,
                            before,
                            outs,
                            after,
                        });
                    }
                    PCmd::StartChecking | PCmd::Scope(_) | PCmd::Capture(_) | PCmd::Print(_) => {}
                }
            }
            held.insert(0, prefix);
            p.conjuncts.push(format!("(=> {} {})", p.name(passes[b]), and(&held)));
            if block.succs.is_empty() {
                rets.push(p.name(passes[b]));
            }
        }
        for (b, terms) in &passive.links.exits {
            let eqs: Vec<String> =
                exit_params.iter().zip(terms).map(|(k, t)| format!("(= {} {t})", p.name(*k))).collect();
            p.conjuncts.push(format!("(=> {} {})", p.name(passes[*b]), and(&eqs)));
        }
        p.conjuncts.push(format!("(=> {} {})", p.name(err), or(&errs)));
        p.conjuncts.push(format!("(=> {} {})", p.name(ret), or(&rets)));

        let name = format!("|{tag}%template|");
        let mut text = format!("(define-fun {name} (");
        for (param, sort) in &p.list {
            let _ = write!(text, "(|{param}| {sort})");
        }
        let _ = writeln!(text, ") Bool\n{})", and(&p.conjuncts));
        let checks = passive.blocks.iter().any(|b| b.cmds.iter().any(|c| matches!(c, PCmd::Assert(..))));
        let template =
            Template { name, params: p.list, active, ret, err, entry: entry_params, exit: exit_params, sites, checks };
        Ok((template, text))
    }
}

/// Constant `name` (without `|`s) of instance `i`.
fn inst(name: &str, i: usize) -> String {
    format!("|{name}!{i}|")
}

/// The (first) implementation of the procedure named `entry`.
pub fn entry_implementation(typed: &TypedProgram, entry: crate::ast::Symbol) -> Option<ImplementationId> {
    let symbols = typed.symbols();
    let i = symbols.implementations.iter().position(|info| info.name.name == entry)?;
    Some(ImplementationId(i as u32))
}
