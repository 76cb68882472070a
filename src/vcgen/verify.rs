//! Verifying a program: every implementation through the stages, in program order, against
//! solver sessions (Boogie's `VerificationConditionGenerator.VerifyImplementation` and the
//! prover's `CheckSat` loop).
//!
//! Sessions come from the caller's [`SessionOpener`]. VCs are generated one implementation
//! after another; a session checks them one after another too, reset before each (as Boogie
//! resets its solver before each VC) and sent the program's declarations and axioms, then the
//! implementation's incarnations and VC. Under `/vcsCores:N` N threads check VCs at once, each
//! with its own session, and results are still reported in program order: since no check sees
//! what another left in its solver, the output is the same for every N. A session that
//! failed (its fault was reported for the implementation it was checking) is replaced for the
//! next one. After `sat` the failing path is read from the model and the failing assertion
//! blocked, until `unsat` or `/errorLimit` counterexamples (Boogie's loop). Only `unsat` ever
//! makes an implementation verified; as in Boogie, `unknown` for an incomplete theory counts
//! as a counterexample.

use rustc_hash::{FxHashMap, FxHashSet};
use std::fmt::Write;
use std::sync::{Arc, Mutex, PoisonError, mpsc};

use super::cfg::{self, Specs};
use super::encode::{Encoder, find_bool_attribute, int_attr, string_attr};
use super::passify::{self, ImplContext};
use super::split;
use super::trace::{self, Counterexample};
use super::wlp::{self, check_key};
use super::{AssumeAttrs, Check, CheckKind, Cmd, NoVc, Unsupported};
use crate::ast::{Attribute, Body, Decl, Expr, ExprKind, NodeId, Span, Spec, VarGroup};
use crate::memory;
use crate::smt::{Answer, Limits, Session, UnknownReason};
use crate::typeck::{ImplementationId, Ref, TypedProgram, VarId, VarKind};

#[derive(Clone, Debug, Default)]
pub struct VerifyOptions {
    pub error_limit: u32,
    pub time_limit: u32,
    pub resource_limit: u32,
    pub procs: Vec<String>,
    pub no_procs: Vec<String>,
    /// `/removeEmptyBlocks` (on unless `:0`).
    pub remove_empty_blocks: bool,
    /// `/coalesceBlocks` (on unless `:0`): Boogie's `BlockCoalescer` before the VC.
    pub coalesce_blocks: bool,
    /// `/alwaysAssumeFreeLoopInvariants` ([`cfg::cut_loops`]).
    pub assume_free_invariants: bool,
    /// `/prune:1`: each implementation gets only the axioms it reaches ([`super::prune`]).
    pub prune: bool,
    /// A new session for every implementation (`/proverLog` with `@PROC@`: one log each).
    pub session_per_implementation: bool,
    /// `/vcsSplitOnEveryAssert`: one VC per assertion ([`super::division`]).
    pub split_on_every_assert: bool,
    /// `/vcsCores`: how many implementations are checked at once, each by a solver session
    /// of its own (0 is 1).
    pub cores: u32,
    /// `/enhancedErrorMessages:1`: errors show the augmented execution trace.
    pub augmented_traces: bool,
    /// `/printSplit`: each split's passive program, as Boogie prints it, goes with the
    /// implementation's result ([`ImplResult::splits`]).
    pub print_split: bool,
    /// `/printModel:1` or `/mv`: each counterexample gets its model
    /// ([`trace::Counterexample::model`]).
    pub models: bool,
    /// Each error carries the values of the variables its check reads
    /// ([`trace::Counterexample::values`]): the rich and JSON formats show them.
    pub values: bool,
    /// `--shard I/N`: only this shard's implementations are checked and reported
    /// ([`crate::shard`]).
    pub shard: crate::shard::Shard,
    /// Assumptions (SMT-LIB terms) each VC is first checked under, in order, in its session:
    /// the first that lets it fail gives the counterexamples ([`Counterexample::stage`]); when
    /// all hold (or one is not decided), the VC is checked as it is. Context-bounded checking
    /// bounds the rounds this way, to find the smallest bound that shows a bug.
    pub stages: Vec<String>,
    /// HAVOC's reachability theory is instantiated on each VC's ground terms
    /// ([`super::reach_ground`]).
    pub reach_ground: bool,
    /// Maps of several arguments as arrays of several indexes, as Boogie gives them to Z3
    /// ([`super::encode::Encoder::multi_index_arrays`]); nested arrays otherwise.
    pub multi_index_arrays: bool,
    /// Boogie's map operators (`{:builtin "MapAdd"}`, ...) as Z3's `(_ map f)`, as Boogie gives
    /// them; otherwise as functions defined by axioms, which any solver reads
    /// ([`super::encode::Encoder::portable_map_operators`]).
    pub z3_map_operators: bool,
    /// Assignments become top-level definitions ([`super::passify::Passive::definitions`]).
    /// Context-bounded checking sets it: its sequentialized programs copy every shared map
    /// at every access.
    pub hoist_definitions: bool,
    /// `/smoke`: each implementation that verifies is searched for unreachable code
    /// ([`super::smoke`]).
    pub smoke: bool,
    /// `/smokeTimeout`: seconds for each of its checks (0: no limit).
    pub smoke_timeout: u32,
    /// `/trackVerificationCoverage`: each implementation reports the labels its proof used
    /// ([`ImplResult::covered`], [`super::coverage`]).
    pub track_coverage: bool,
    /// `/warnVacuousProofs`: ids are generated for what has none, and each implementation
    /// reports its goals ([`ImplResult::goals`]).
    pub warn_vacuous: bool,
}

#[derive(Debug)]
pub enum ImplOutcome {
    Verified,
    Errors(Vec<Counterexample>),
    TimedOut,
    OutOfResource,
    OutOfMemory,
    /// The solver could not decide, or gave no usable path.
    Inconclusive,
    SolverException(String),
    /// The solver could not read the query rboogie wrote for the implementation: an internal
    /// error, never a verdict, unless the program has `{:builtin}` functions (`builtins`),
    /// whose operators go to the solver as written and may be the cause. `query` is where the
    /// query was saved for a bug report.
    Rejected {
        message: String,
        query: Option<std::path::PathBuf>,
        builtins: bool,
    },
    /// rboogie cannot encode the implementation.
    Unsupported(Unsupported),
}

pub struct ImplResult {
    pub name: String,
    /// Its place among the selected implementations in program order (whatever the shard).
    pub order: usize,
    pub span: Span,
    pub outcome: ImplOutcome,
    /// `{:msg_if_verifies "..."}`: printed when the implementation verifies.
    pub message_if_verified: Option<String>,
    /// Its time limit in seconds (`/timeLimit`, or its `{:timeLimit N}`), for the message of a
    /// time out.
    pub time_limit: u32,
    /// Under `/printSplit`, each split's name (`Name-N/...`) and passive program, as Boogie
    /// prints them before checking it.
    pub splits: Vec<(String, String)>,
    /// Under `/smoke`, each piece of unreachable code found, as Boogie prints it
    /// (`found unreachable code:` and the path to it).
    pub unreachable: Vec<String>,
    /// Under `/trackVerificationCoverage`, the labels of what its proofs used
    /// ([`super::coverage`]), in no order.
    pub covered: Vec<String>,
    /// Under `/warnVacuousProofs`, its goals (assertions and `ensures`), in Boogie's order.
    pub goals: Vec<super::coverage::Goal>,
    /// The assertions of the VCs checked, each split's counted (Boogie's proof obligations).
    pub proof_obligations: usize,
    /// Under `/trace`, the resources z3 spent on its checks (`(get-info :rlimit)`; 0 for
    /// other solvers, as Boogie reports).
    pub resource_count: u64,
}

/// `P*` patterns of `/proc` (`*` matches any run of characters).
fn matches_pattern(pattern: &str, name: &str) -> bool {
    match pattern.split_once('*') {
        None => pattern == name,
        Some((head, rest)) => {
            let Some(tail) = name.strip_prefix(head) else { return false };
            (0..=tail.len()).any(|i| tail.is_char_boundary(i) && matches_pattern(rest, &tail[i..]))
        }
    }
}

/// The body of implementation `id`.
pub fn body_of(typed: &TypedProgram, id: ImplementationId) -> Option<&Body> {
    match &typed.program.decls[typed.symbols().implementations[id.0 as usize].decl.0 as usize] {
        Decl::Implementation(d) => Some(&d.body),
        Decl::Procedure(p) => p.body.as_ref(),
        _ => None,
    }
}

fn impl_attrs(typed: &TypedProgram, id: ImplementationId) -> &[crate::ast::Attribute] {
    match &typed.program.decls[typed.symbols().implementations[id.0 as usize].decl.0 as usize] {
        Decl::Implementation(d) => &d.attrs,
        Decl::Procedure(p) => &p.attrs,
        _ => &[],
    }
}

/// What declarations say about variables: where clauses, by the variable declared, and the
/// `{:assumption}` variables.
pub(crate) struct VariableFacts<'p> {
    pub(crate) wheres: FxHashMap<VarId, &'p Expr>,
    pub(crate) assumptions: FxHashSet<VarId>,
}

pub(crate) fn variable_facts(typed: &TypedProgram) -> VariableFacts<'_> {
    fn add<'p>(typed: &TypedProgram, attrs: &[Attribute], groups: &'p [VarGroup], facts: &mut VariableFacts<'p>) {
        for g in groups {
            let assumption = find_bool_attribute(attrs, "assumption") || find_bool_attribute(&g.attrs, "assumption");
            for n in &g.names {
                if let Some(Ref::Var(v)) = typed.referent(n) {
                    if let Some(w) = &g.where_clause {
                        facts.wheres.insert(v, w);
                    }
                    if assumption {
                        facts.assumptions.insert(v);
                    }
                }
            }
        }
    }
    let mut facts = VariableFacts { wheres: FxHashMap::default(), assumptions: FxHashSet::default() };
    for d in &typed.program.decls {
        match d {
            Decl::Var(v) => add(typed, &v.attrs, &v.groups, &mut facts),
            Decl::Procedure(p) => {
                add(typed, &[], &p.ins, &mut facts);
                add(typed, &[], &p.outs, &mut facts);
                if let Some(b) = &p.body {
                    b.locals.iter().for_each(|l| add(typed, &l.attrs, &l.groups, &mut facts));
                }
            }
            Decl::Implementation(i) => i.body.locals.iter().for_each(|l| add(typed, &l.attrs, &l.groups, &mut facts)),
            _ => {}
        }
    }
    facts
}

/// Each procedure's `modifies`, as declared (under `/inferModifies` the `modifies` pass has
/// added what the procedure's implementations change).
pub(crate) fn modifies_sets(typed: &TypedProgram) -> Vec<Vec<VarId>> {
    typed.symbols().procedures.iter().map(|p| p.modifies.clone()).collect()
}

/// What every program's prelude starts with: Boogie's `tickleBool` (a function the solver may
/// use as a trigger on Boolean values, which Boogie declares for z3, and which a model shows)
/// and its function for reading the failing path back from a model.
pub(crate) const CONTROL_FLOW: &str = "(declare-fun tickleBool (Bool) Bool)\n(assert (and (tickleBool true) (tickleBool false)))\n(declare-fun ControlFlow (Int Int) Int)\n";

/// Opens a solver session for the named implementation (the name is for `/proverLog`'s
/// `@PROC@`). The session has sent its preamble of solver options and nothing else. Under
/// `/vcsCores:N` it is called from N threads at once.
pub type SessionOpener<'s> = dyn Fn(&str) -> Result<Box<dyn Session>, String> + Sync + 's;

/// The stack of a thread that checks VCs: it reads models and paths, and recurses over no
/// expression, but a generous reservation costs nothing until used.
const CHECKER_STACK: usize = 64 << 20;

/// An implementation's VC as SMT-LIB text, and what reading its counterexamples needs.
struct EncodedVc {
    /// Incarnations and the VC, after `(push 1)`.
    text: String,
    blocks: Vec<passify::PassiveBlock>,
    vc: wlp::Vc,
    /// Under `/printModel` and `/mv`, what a model needs ([`super::model`]).
    model: Option<Arc<ModelNames>>,
    /// Under `/trackVerificationCoverage`, the VC's literals and their labels
    /// ([`passify::Passive::tracks`]).
    tracks: Vec<(String, String)>,
}

/// The names a model of an implementation's VC shows: the VC's constants by their Boogie
/// names, and the implementation's variables (Boogie's `ModelViewInfo.AllVariables`) with
/// the Boogie names of their values at the entry.
struct ModelNames {
    rename: FxHashMap<String, String>,
    variables: Vec<(String, String)>,
    names: FxHashMap<VarId, String>,
}

/// One implementation's check, owned, so that another thread can run it.
pub(crate) struct Query {
    /// Its place in the order of reports.
    index: usize,
    name: String,
    /// The program's declarations and axioms, with every sort met up to this implementation:
    /// what a session is sent first for it.
    prelude: Arc<str>,
    /// One VC per split (Boogie's implementation division, [`super::division`]); most
    /// implementations have one.
    vcs: Vec<EncodedVc>,
    /// Under `/smoke`, the VCs of its check points ([`super::smoke`]), each with what is
    /// printed when it verifies (the point is unreachable).
    smoke: Vec<(EncodedVc, String)>,
    /// `/timeLimit` and `/rlimit`, or the implementation's `{:timeLimit N}` and `{:rlimit N}`.
    limits: Limits,
    /// Under `/trackVerificationCoverage`, the literals of the tracked axioms and their labels.
    axiom_tracks: Arc<[(String, String)]>,
    /// Whether the program declares `{:builtin}`/`{:bvbuiltin}` functions.
    builtins: bool,
}

/// What is reported for an implementation, besides its outcome.
pub(crate) struct Heading {
    name: String,
    order: usize,
    span: Span,
    message_if_verified: Option<String>,
    time_limit: u32,
    splits: Vec<(String, String)>,
    goals: Vec<super::coverage::Goal>,
}

impl Heading {
    /// The implementation's name.
    pub(crate) fn name(&self) -> &str {
        &self.name
    }

    /// The result to report: this heading with `outcome`.
    pub(crate) fn result(&self, outcome: ImplOutcome) -> ImplResult {
        ImplResult {
            name: self.name.clone(),
            order: self.order,
            span: self.span,
            outcome,
            message_if_verified: self.message_if_verified.clone(),
            time_limit: self.time_limit,
            splits: self.splits.clone(),
            unreachable: Vec::new(),
            covered: Vec::new(),
            goals: self.goals.clone(),
            proof_obligations: 0,
            resource_count: 0,
        }
    }
}

impl Query {
    /// The implementation's name.
    pub(crate) fn name(&self) -> &str {
        &self.name
    }

    /// The symbols its VCs mention.
    pub(crate) fn symbols(&self) -> FxHashSet<&str> {
        self.vcs.iter().flat_map(|vc| symbols_in(&vc.text)).collect()
    }

    /// How many VCs (splits) the implementation has; most have one.
    pub(crate) fn parts(&self) -> usize {
        self.vcs.len()
    }

    /// The proof obligations of VC `part`.
    pub(crate) fn checks(&self, part: usize) -> &[Check] {
        &self.vcs[part].vc.checks
    }

    /// Begins a query under the implementation's limits ([`Session::begin_query`]): the
    /// text sent next is bounded by them too.
    pub(crate) fn begin(&self, session: &mut dyn Session) {
        session.begin_query(&self.limits);
    }

    /// Sends a fresh session the program's declarations and axioms.
    pub(crate) fn send_prelude(&self, session: &mut dyn Session) {
        session.send(&self.prelude);
    }

    /// Sends VC `part` (its incarnations and the assertion of its negation, in a scope of its
    /// own that stays open: every later [`Query::check_under`] checks it).
    pub(crate) fn send_vc(&self, session: &mut dyn Session, part: usize) {
        session.send(&self.vcs[part].text);
    }

    /// Boogie's check of the VC sent last (`part`) under `assumptions` (SMT-LIB commands,
    /// asserted in a scope that is popped afterwards, with the blocking assertions of the
    /// counterexamples found): up to `/errorLimit` counterexamples, or the solver's verdict.
    /// The session is left as [`Query::send_vc`] left it.
    pub(crate) fn check_under(
        &self,
        session: &mut dyn Session,
        options: &VerifyOptions,
        part: usize,
        assumptions: &str,
    ) -> ImplOutcome {
        session.begin_query(&self.limits);
        session.send(&format!("(push 1)\n{assumptions}"));
        check_vc(session, options, self, &self.vcs[part], false, &mut FxHashSet::default())
    }
}

/// Reports results in program order, whatever order they are found in.
struct InOrder<'r> {
    on_result: &'r mut dyn FnMut(ImplResult),
    headings: Vec<Option<Heading>>,
    outcomes: Vec<Option<Checked>>,
    /// The first result not reported yet.
    next: usize,
}

impl InOrder<'_> {
    fn expect(&mut self, heading: Heading) -> usize {
        self.headings.push(Some(heading));
        self.outcomes.push(None);
        self.headings.len() - 1
    }

    fn complete(&mut self, index: usize, checked: Checked) {
        self.outcomes[index] = Some(checked);
        while let Some(Some(Checked { outcome, unreachable, covered, proof_obligations, resource_count })) =
            self.outcomes.get_mut(self.next).map(Option::take)
        {
            let Heading { name, order, span, message_if_verified, time_limit, splits, goals } =
                self.headings[self.next].take().expect("reported once");
            let result = ImplResult {
                name,
                order,
                span,
                outcome,
                message_if_verified,
                time_limit,
                splits,
                unreachable,
                covered,
                goals,
                proof_obligations,
                resource_count,
            };
            (self.on_result)(result);
            self.next += 1;
        }
    }
}

/// A thread's solver session, reused from one implementation to the next with a reset
/// between them (Boogie's `(reset)` before each VC), so that what an implementation's check
/// answers does not depend on which implementations the same session checked before: the
/// output is the same for every `/vcsCores`. A session that failed (its fault was reported for
/// the implementation it was checking) is replaced for the next one.
struct Checker<'o> {
    open: &'o SessionOpener<'o>,
    options: &'o VerifyOptions,
    session: Option<Box<dyn Session>>,
}

/// An implementation's outcome, the unreachable code `/smoke` found in it, and the labels its
/// proofs used (`/trackVerificationCoverage`).
struct Checked {
    outcome: ImplOutcome,
    unreachable: Vec<String>,
    covered: Vec<String>,
    proof_obligations: usize,
    resource_count: u64,
}

impl Checked {
    fn of(outcome: ImplOutcome) -> Checked {
        Checked { outcome, unreachable: Vec::new(), covered: Vec::new(), proof_obligations: 0, resource_count: 0 }
    }
}

impl Checker<'_> {
    fn check(&mut self, query: &Query) -> Checked {
        if let Some(s) = &mut self.session {
            if self.options.session_per_implementation {
                self.session = None;
            } else {
                s.reset();
                if s.dead().is_some() {
                    self.session = None;
                }
            }
        }
        let session = match &mut self.session {
            Some(s) => s,
            None => match (self.open)(&query.name) {
                Ok(s) => self.session.insert(s),
                Err(why) => return Checked::of(ImplOutcome::SolverException(why)),
            },
        };
        // The prelude counts towards the first VC's time limit, as the text of each VC does
        // towards its own: a solver slow to read them must not outlast the limit.
        session.begin_query(&query.limits);
        session.send(&query.prelude);
        let resources_before = session.resource_count();
        let mut outcomes = Vec::new();
        let mut covered = FxHashSet::default();
        for (i, vc) in query.vcs.iter().enumerate() {
            if i > 0 {
                session.begin_query(&query.limits);
            }
            session.send(&vc.text);
            outcomes.push(check_vc(session.as_mut(), self.options, query, vc, true, &mut covered));
        }
        let outcome = combine(outcomes);
        let mut unreachable = Vec::new();
        if matches!(outcome, ImplOutcome::Verified) {
            // Boogie's smoke test: a point whose `assert false` verifies is unreachable; any
            // other answer (a path to it, or none within the limit) reports nothing.
            for (vc, printed) in &query.smoke {
                if session.dead().is_some() {
                    break;
                }
                // Only the answer counts (no counterexample is read), within `/smokeTimeout`.
                let limits = Limits { time_limit_s: self.options.smoke_timeout, ..query.limits };
                session.begin_query(&limits);
                session.send(&vc.text);
                if check_tracked(session.as_mut(), self.options, query, vc, &limits) == Answer::Unsat {
                    unreachable.push(printed.clone());
                }
                session.send("(pop 1)\n");
            }
        }
        Checked {
            outcome,
            unreachable,
            covered: covered.into_iter().collect(),
            proof_obligations: query.vcs.iter().map(|vc| vc.vc.assertions).sum(),
            resource_count: session.resource_count().saturating_sub(resources_before),
        }
    }
}

/// Verifies every implementation the options select (those of `--shard I/N` only), reporting
/// each result, in program order, as soon as it and all before it are known. Returns how many
/// implementations the options select in all shards; `Err` when the program itself cannot be
/// encoded (nothing was verified).
///
/// VCs are generated here, one implementation after another; with `/vcsCores:N` (N > 1),
/// N threads with a session each check them meanwhile, taking the next VC when they are done
/// (at most N wait to be taken).
pub fn verify_program(
    typed: &TypedProgram,
    sources: &crate::source::SourceMap,
    options: &VerifyOptions,
    open: &SessionOpener,
    on_result: &mut dyn FnMut(ImplResult),
) -> Result<usize, Unsupported> {
    let impls = selected_implementations(typed, options);
    // `--shard I/N`: every implementation is still staged, so that each VC is the same text as
    // in the unsharded run (see `crate::shard`), but only the shard's are checked and reported.
    let sizes: Vec<u64> = impls.iter().map(|&id| body_of(typed, id).map_or(1, crate::shard::body_size)).collect();
    let ours: Vec<bool> =
        crate::shard::assign(&sizes, options.shard.count).into_iter().map(|s| s == options.shard.index).collect();
    let selected_count = impls.len();

    let mut reports = InOrder { on_result, headings: Vec::new(), outcomes: Vec::new(), next: 0 };
    let mut here = Checker { open, options, session: None };
    let cores = options.cores.max(1) as usize;
    if cores == 1 {
        stage_program(typed, sources, options, &impls, &mut |staged| {
            if !ours[staged.heading.order] {
                return;
            }
            let index = reports.expect(staged.heading);
            let checked = staged.query.map_or_else(|query| here.check(&query), Checked::of);
            reports.complete(index, checked);
        })?;
        return Ok(selected_count);
    }
    std::thread::scope(|scope| {
        let (queries, waiting) = mpsc::sync_channel::<Query>(cores);
        // Owned by the checkers only: should they all stop, sending fails instead of blocking.
        let waiting = Arc::new(Mutex::new(waiting));
        let (outcomes, found) = mpsc::channel::<(usize, Checked)>();
        let mut checkers = 0;
        for n in 0..cores {
            let (waiting, outcomes) = (waiting.clone(), outcomes.clone());
            let checker = std::thread::Builder::new().name(format!("vcs-core-{n}")).stack_size(CHECKER_STACK);
            let spawned = checker.spawn_scoped(scope, move || {
                let mut checker = Checker { open, options, session: None };
                loop {
                    let next = waiting.lock().unwrap_or_else(PoisonError::into_inner).recv();
                    let Ok(query) = next else { return };
                    if outcomes.send((query.index, checker.check(&query))).is_err() {
                        return;
                    }
                }
            });
            if spawned.is_err() {
                break;
            }
            checkers += 1;
        }
        drop((waiting, outcomes));
        // Without a thread of its own (none could be started), a VC is checked here.
        let queries = (checkers > 0).then_some(queries);
        let staging = stage_program(typed, sources, options, &impls, &mut |staged| {
            if !ours[staged.heading.order] {
                return;
            }
            let index = reports.expect(staged.heading);
            match staged.query {
                Ok(outcome) => reports.complete(index, Checked::of(outcome)),
                Err(query) => {
                    let query = Query { index, ..query };
                    match &queries {
                        Some(q) => {
                            if let Err(mpsc::SendError(query)) = q.send(query) {
                                // Every checker has stopped (it panicked): the panic is raised
                                // when the scope ends.
                                let outcome = here.check(&query);
                                reports.complete(index, outcome);
                            }
                        }
                        None => {
                            let outcome = here.check(&query);
                            reports.complete(index, outcome);
                        }
                    }
                }
            }
            while let Ok((index, outcome)) = found.try_recv() {
                reports.complete(index, outcome);
            }
        });
        drop(queries);
        for (index, outcome) in found {
            reports.complete(index, outcome);
        }
        staging
    })?;
    Ok(selected_count)
}

/// The implementations the options select (see [`selected`]), in program order.
pub(crate) fn selected_implementations(typed: &TypedProgram, options: &VerifyOptions) -> Vec<ImplementationId> {
    let symbols = typed.symbols();
    let mut impls: Vec<ImplementationId> = (0..symbols.implementations.len() as u32).map(ImplementationId).collect();
    impls.sort_by_key(|i| symbols.implementations[i.0 as usize].decl);
    impls.retain(|&id| selected(typed, options, id));
    impls
}

/// One implementation staged: what is reported for it, and its outcome when it has nothing
/// to prove or cannot be encoded, else the query that finds it.
pub(crate) struct Staged {
    pub(crate) id: ImplementationId,
    pub(crate) heading: Heading,
    pub(crate) query: Result<ImplOutcome, Query>,
}

/// Stages `impls` (in this order, their `order` their place in it) up to their VCs, handing
/// each to `each` as soon as it is staged. `Err` when the program itself cannot be encoded
/// (before any implementation is staged).
pub(crate) fn stage_program(
    typed: &TypedProgram,
    sources: &crate::source::SourceMap,
    options: &VerifyOptions,
    impls: &[ImplementationId],
    each: &mut dyn FnMut(Staged),
) -> Result<(), Unsupported> {
    for d in &typed.program.decls {
        match d {
            Decl::YieldInvariant(x) => return Err(Unsupported::new(Some(x.span), "Civl")),
            Decl::Action(x) => return Err(Unsupported::new(Some(x.span), "Civl")),
            Decl::YieldProcedure(x) => return Err(Unsupported::new(Some(x.span), "Civl")),
            _ => {}
        }
    }
    let mut enc = Encoder::new(typed);
    // The ground instantiation of HAVOC's theory speaks of slices `R[n]` of its maps of several
    // arguments: a program that uses the library keeps them nested.
    enc.multi_index_arrays(
        options.multi_index_arrays && !(options.reach_ground && super::reach_ground::declares_library(typed)),
    );
    enc.portable_map_operators(!options.z3_map_operators);
    let dependencies = options.prune.then(|| super::prune::Dependencies::new(typed));
    if options.prune {
        enc.keep_axioms_apart();
    }
    if options.track_coverage {
        enc.track_axioms();
    }
    let mut prelude = CONTROL_FLOW.to_string() + &enc.prelude()?;
    let axiom_tracks: Arc<[(String, String)]> = enc.axiom_tracks().into();
    let mut annotator = super::coverage::Annotator::default();
    let mut shared_prelude: Arc<str> = Arc::from(prelude.as_str());
    let facts = variable_facts(typed);
    let modifies = modifies_sets(typed);
    let calls = super::measure::CallGraph::new(typed, false);
    let symbols = typed.symbols();
    let types = options.print_split.then(|| crate::emit::type_table(typed));
    // What `/smoke` prints an unreachable point with; made once for the program.
    let smoke_types = options.smoke.then(|| crate::emit::type_table(typed));
    for (order, &id) in impls.iter().enumerate() {
        let info = &symbols.implementations[id.0 as usize];
        let name = info.name.name.to_string();
        let message_if_verified = string_attr(impl_attrs(typed, id), "msg_if_verifies").map(str::to_string);
        let limits = implementation_limits(options, impl_attrs(typed, id));
        let time_limit = limits.time_limit_s;
        let mut printing = types.as_ref().map(|types| Printing { types, splits: Vec::new() });
        let mut smoke = Vec::new();
        let mut goals = Vec::new();
        let encoded = encode_implementation(
            typed,
            sources,
            options,
            &mut enc,
            &facts,
            &modifies,
            &calls,
            dependencies.as_ref(),
            &mut prelude,
            id,
            printing.as_mut(),
            &mut smoke,
            smoke_types.as_ref(),
            options.track_coverage.then_some((&mut annotator, &mut goals)),
        );
        let splits = printing.map(|p| p.splits).unwrap_or_default();
        let heading =
            Heading { name: name.clone(), order, span: info.name.span, message_if_verified, time_limit, splits, goals };
        let query = match encoded {
            Err(NoVc::Unsupported(u)) => Ok(ImplOutcome::Unsupported(u)),
            Err(NoVc::OutOfMemory) => Ok(ImplOutcome::OutOfMemory),
            Ok(None) => Ok(ImplOutcome::Verified),
            Ok(Some(vcs)) => {
                // The prelude only grows: a new length is new declarations.
                if prelude.len() != shared_prelude.len() {
                    shared_prelude = Arc::from(prelude.as_str());
                }
                Err(Query {
                    index: usize::MAX,
                    name,
                    prelude: shared_prelude.clone(),
                    vcs,
                    smoke,
                    limits,
                    axiom_tracks: axiom_tracks.clone(),
                    builtins: !typed.typing.builtins.is_empty(),
                })
            }
        };
        each(Staged { id, heading, query });
    }
    Ok(())
}

/// Whether the options and attributes select implementation `id` for verification: `/proc`,
/// `/noProc`, `{:verify false}` on it or its procedure.
fn selected(typed: &TypedProgram, options: &VerifyOptions, id: ImplementationId) -> bool {
    let symbols = typed.symbols();
    let info = &symbols.implementations[id.0 as usize];
    let name = info.name.name.to_string();
    if !options.procs.is_empty() && !options.procs.iter().any(|p| matches_pattern(p, &name)) {
        return false;
    }
    if options.no_procs.iter().any(|p| matches_pattern(p, &name)) {
        return false;
    }
    let Some(proc_id) = info.procedure else { return false };
    let verify_false = |attrs: &[crate::ast::Attribute]| {
        attrs.iter().any(|a| {
            a.key == "verify"
                && matches!(
                    &a.params[..],
                    [crate::ast::AttrParam::Expr(Expr { kind: crate::ast::ExprKind::BoolLit(false), .. })]
                )
        })
    };
    let proc_decl = match &typed.program.decls[symbols.procedure(proc_id).decl.0 as usize] {
        Decl::Procedure(p) => p,
        _ => return false,
    };
    !verify_false(impl_attrs(typed, id)) && !verify_false(&proc_decl.attrs)
}

/// What `/printSplit` needs, and the splits printed.
struct Printing<'p> {
    types: &'p crate::emit::TypeTable,
    splits: Vec<(String, String)>,
}

/// Stages one implementation up to its VC as SMT-LIB text (Boogie's `VerifyImplementation`
/// before the prover is called). `None` when there is nothing to prove. Under `/printSplit`
/// each split's passive program goes to `printing`.
#[allow(clippy::too_many_arguments)]
fn encode_implementation<'a>(
    typed: &'a TypedProgram,
    sources: &crate::source::SourceMap,
    options: &VerifyOptions,
    enc: &mut Encoder<'a>,
    facts: &'a VariableFacts<'a>,
    modifies: &'a [Vec<VarId>],
    calls: &super::measure::CallGraph,
    dependencies: Option<&super::prune::Dependencies>,
    prelude: &mut String,
    id: ImplementationId,
    mut printing: Option<&mut Printing<'a>>,
    smoke: &mut Vec<(EncodedVc, String)>,
    smoke_types: Option<&crate::emit::TypeTable>,
    mut coverage: Option<(&mut super::coverage::Annotator, &mut Vec<super::coverage::Goal>)>,
) -> Result<Option<Vec<EncodedVc>>, NoVc> {
    let wheres = &facts.wheres;
    let symbols = typed.symbols();
    let info = &symbols.implementations[id.0 as usize];
    let proc_id = info.procedure.ok_or_else(|| Unsupported::new(Some(info.name.span), "a missing procedure"))?;
    let proc = symbols.procedure(proc_id);
    if !info.type_params.is_empty() || !proc.type_params.is_empty() {
        return Err(Unsupported::new(Some(info.name.span), "polymorphic implementations").into());
    }
    let body = body_of(typed, id).ok_or_else(|| Unsupported::new(Some(info.name.span), "a missing body"))?;

    let mut proc_to_impl = FxHashMap::default();
    let mut impl_to_proc = FxHashMap::default();
    for (p, i) in proc.ins.iter().zip(&info.ins).chain(proc.outs.iter().zip(&info.outs)) {
        proc_to_impl.insert(*p, *i);
        impl_to_proc.insert(*i, *p);
    }
    let globals: Vec<VarId> =
        (0..symbols.vars.len() as u32).map(VarId).filter(|v| symbols.var(*v).kind == VarKind::Global).collect();
    let mut vars = globals.clone();
    vars.extend(info.ins.iter().chain(&info.outs).chain(&info.locals).copied());

    // Entry: where clauses of globals, formals and locals, then every precondition.
    let mut entry = Vec::new();
    let plain = |expr| Cmd::Assume { expr, negated: false, attrs: AssumeAttrs::None };
    for g in &globals {
        if let Some(w) = wheres.get(g) {
            entry.push(plain(w));
        }
    }
    for p in proc.ins.iter().chain(&proc.outs) {
        if let Some(w) = wheres.get(p) {
            entry.push(plain(w));
        }
    }
    for l in &info.locals {
        if let Some(w) = wheres.get(l) {
            entry.push(Cmd::Assume { expr: w, negated: false, attrs: AssumeAttrs::Where(*l) });
        } else if facts.assumptions.contains(l) {
            entry.push(Cmd::AssumeVar(*l));
        }
    }
    let specs = passify::procedure_specs(typed, proc_id);
    let mut exit = Vec::new();
    // Where each contract clause went (`/trackVerificationCoverage` labels them): in `entry`
    // or `exit`, at which place, with its attributes and span, and whether it is a goal.
    let mut clauses: Vec<(bool, usize, &[Attribute], Span, bool)> = Vec::new();
    for s in specs {
        match s {
            Spec::Requires { expr, attrs, span, .. } => {
                clauses.push((true, entry.len(), attrs, *span, false));
                entry.push(Cmd::Assume { expr, negated: false, attrs: AssumeAttrs::Written(attrs, *span) })
            }
            // Boogie's `AssertEnsuresCmd` carries no attributes.
            Spec::Ensures { free: false, attrs, expr, span } => {
                clauses.push((false, exit.len(), attrs, *span, true));
                exit.push(Cmd::Assert {
                    expr,
                    check: Check {
                        kind: CheckKind::Ensures,
                        tok: *span,
                        msg: super::cfg::msg_attr(attrs),
                        describe: super::cfg::describe_attr(attrs),
                        subsume: true,
                        isolate: None,
                        clause: None,
                    },
                    under: None,
                    attrs: &[],
                })
            }
            Spec::Ensures { free: true, attrs, expr, .. } if find_bool_attribute(attrs, "always_assume") => {
                exit.push(plain(expr))
            }
            _ => {}
        }
    }
    // The measure's `requires e >= 0`, after the others (Boogie's `MeasureChecker`).
    for expr in super::measure::procedure_measure(typed, proc_id) {
        if super::measure::is_int(typed, expr) {
            entry.push(Cmd::NonNegative { expr, check: None });
        }
    }

    memory::check()?;
    let mut blocks = cfg::lower(typed, &body.stmts)?;
    super::measure::transform(typed, calls, proc_id, &mut blocks)?;
    if let Some((annotator, goals)) = coverage.as_mut() {
        // Boogie's annotator visits the body, then the procedure's clauses.
        let generate = options.warn_vacuous;
        super::coverage::annotate(&mut blocks, annotator, sources, generate, goals);
        let mut marks = Vec::new();
        for &(at_entry, at, attrs, span, goal) in &clauses {
            let kind = if goal { "ensures" } else { "requires" };
            if let Some(id) = annotator.id(super::coverage::id_attr(attrs), kind, span, sources, generate) {
                if goal && generate {
                    goals.push(super::coverage::Goal { id: id.clone(), span });
                }
                marks.push((at_entry, at, id));
            }
        }
        // From the last, so that the places stay right.
        for (at_entry, at, id) in marks.into_iter().rev() {
            let list = if at_entry { &mut entry } else { &mut exit };
            list.insert(at, Cmd::Track(id.into()));
        }
    }
    memory::check()?;
    // Infeasible edges go first: a loop head that asserts `false` is then no loop, and coalesces
    // into its one predecessor as in Boogie. A body inlining or unrolling left as blocks was
    // coalesced before those passes, and Boogie does not coalesce it again.
    let blocks = cfg::prune_unreachable(blocks);
    let blocks = if !options.coalesce_blocks || cfg::in_block_form(impl_attrs(typed, id)) {
        blocks
    } else {
        cfg::coalesce(blocks)
    };
    let mut blocks = cfg::cut_loops(typed, modifies, blocks, options.assume_free_invariants)?;
    // `/smoke` starts from the DAG before the specifications are added, as Boogie's does.
    let dag = options.smoke.then(|| (blocks.clone(), entry.clone(), exit.clone()));
    cfg::add_exit_and_specs(&mut blocks, Specs { entry, exit }, body.stmts.end);
    cfg::add_blocks_between(&mut blocks);
    memory::check()?;

    let show = printing.as_ref().map(|p| p.types);
    let model_variables: Vec<(VarId, String)> =
        vars.iter().map(|&v| (v, symbols.var(v).name.name.to_string())).collect();
    let cx = ImplContext {
        typed,
        vars,
        proc_to_impl,
        wheres,
        impl_to_proc,
        modifies,
        assumptions: &facts.assumptions,
        show,
        capture_states: options.models,
        values: options.values,
        inputs: info.ins.clone(),
        template: None,
        hoist_definitions: options.hoist_definitions
            && !(options.reach_ground && super::reach_ground::declares_library(typed)),
    };
    let mut passive = passify::run(&cx, enc, &blocks)?;
    if options.remove_empty_blocks {
        passify::remove_empty_blocks(&mut passive.blocks);
    }
    let proc_attrs = match &typed.program.decls[proc.decl.0 as usize] {
        Decl::Procedure(p) => &p.attrs[..],
        _ => &[],
    };
    if find_bool_attribute(impl_attrs(typed, id), "selective_checking")
        || find_bool_attribute(proc_attrs, "selective_checking")
    {
        passify::selective_checking(&mut passive.blocks);
    }
    // Boogie's `/vcsSplitOnEveryAssert`, or the implementation's `{:vcs_split_on_every_assert}`
    // (`false` turns the option off for it).
    let every_assert = match bool_attr(impl_attrs(typed, id), "vcs_split_on_every_assert") {
        Some(on) => on,
        None => options.split_on_every_assert,
    };
    let parts = super::division::divide(passive.blocks, &super::division::Divide { sources, every_assert });
    if let Some(p) = printing.as_mut() {
        // Boogie numbers the splits when there are several (`SplitIndex`), else -1.
        let (attrs, signature) = implementation_header(typed, id, p.types);
        let name = crate::emit::sanitize(&info.name.name).into_owned();
        for (k, part) in parts.iter().enumerate() {
            let index = if parts.len() > 1 { k as i64 } else { -1 };
            let full = format!("{name}-{index}{}", part.name);
            let text = super::shown::split_text(&attrs, &full, &signature, &part.blocks);
            p.splits.push((format!("{}-{index}{}", info.name.name, part.name), text));
        }
    }
    let roots = dependencies.map(|_| {
        // Under `/prune`, the axioms each VC reaches, in program order.
        let mut roots = super::prune::Roots::new(typed);
        roots.body(body);
        roots.specs(specs);
        for v in globals.iter().chain(&proc.ins).chain(&proc.outs) {
            if let Some(w) = wheres.get(v) {
                roots.expr(w);
            }
        }
        roots.finish()
    });
    // The hoisted definitions go with every part: their text and the constants they name, once.
    let definitions: String = passive.definitions.iter().map(|d| format!("(assert {d})\n")).collect();
    let defined = symbols_in(&definitions);
    let mut vcs = Vec::new();
    for super::division::Part { blocks, .. } in parts {
        let vc = wlp::run(&blocks)?;
        let pooled = super::instantiate::annotated(&vc.commands);
        let vc = super::instantiate::run(vc, enc.pool_sorts(), enc.lambda_definitions());
        // HAVOC's reachability theory on the VC's ground terms: a quantified goal's variables
        // are made constants first (pool instantiation has already done so where it ran).
        let vc = if options.reach_ground && super::reach_ground::applies(&vc) {
            super::reach_ground::run(if pooled { vc } else { super::instantiate::skolemize(vc) })
        } else {
            vc
        };
        memory::check()?;
        if vc.checks.is_empty() {
            continue;
        }
        let mut text = String::from("(push 1)\n");
        if let (Some(dependencies), Some(roots)) = (dependencies, &roots) {
            let live = dependencies.live_axioms(roots.clone(), &super::prune::RevealedState::of(&blocks));
            for (key, command) in enc.prunable_axioms() {
                if live.contains(key) {
                    text += command;
                }
            }
        }
        // Only the constants the VC mentions, as Boogie declares them (a model lists every
        // constant declared), and those whose values an error shows: the `{:print}` arguments
        // of `/enhancedErrorMessages:1` (Boogie translates them with the VC) and the inputs and
        // checked variables of the rich and JSON formats. Asking for the value of a constant
        // never declared is an error that ended the session: an implementation with an input
        // its VC does not mention was reported as a solver exception.
        let mut used = symbols_in(&vc.commands);
        if options.values || options.augmented_traces {
            for cmd in blocks.iter().flat_map(|b| &b.cmds) {
                match cmd {
                    passify::PCmd::Assert(_, _, _, Some(info)) => {
                        used.extend(info.values.iter().flat_map(|(_, term)| symbols_in(term)));
                    }
                    passify::PCmd::Print(items) => used.extend(items.iter().flat_map(|item| match item {
                        passify::PrintItem::Value(term) => symbols_in(term),
                        passify::PrintItem::Text(_) => FxHashSet::default(),
                    })),
                    _ => {}
                }
            }
        }
        let declared = declared(&passive.decls, &used, &defined);
        for (literal, _) in &passive.tracks {
            let _ = writeln!(text, "(declare-fun {literal} () Bool)");
        }
        write_vc(&mut text, &declared, &definitions, &vc.commands);
        memory::check()?;
        let model = options.models.then(|| {
            let rename = declared.iter().map(|d| (d.smt.trim_matches('|').to_string(), d.boogie.clone())).collect();
            Arc::new(ModelNames {
                rename,
                variables: model_variables.iter().map(|(_, n)| (n.clone(), n.clone())).collect(),
                names: model_variables.iter().cloned().collect(),
            })
        });
        vcs.push(EncodedVc { text, blocks, vc, model, tracks: passive.tracks.clone() });
    }
    if let (Some((dag, entry, exit)), Some(types)) = (dag, smoke_types) {
        for point in super::smoke::points(typed, &dag, &FALSITY) {
            let printed = smoke_text(typed, types, id, body, &point.blocks);
            let mut blocks = point.blocks;
            cfg::add_exit_and_specs(&mut blocks, Specs { entry: entry.clone(), exit: exit.clone() }, body.stmts.end);
            cfg::add_blocks_between(&mut blocks);
            let mut passive = passify::run(&cx, enc, &blocks)?;
            if options.remove_empty_blocks {
                passify::remove_empty_blocks(&mut passive.blocks);
            }
            let vc = wlp::run(&passive.blocks)?;
            let vc = super::instantiate::run(vc, enc.pool_sorts(), enc.lambda_definitions());
            memory::check()?;
            if vc.checks.is_empty() {
                continue;
            }
            let definitions: String = passive.definitions.iter().map(|d| format!("(assert {d})\n")).collect();
            let declared = declared(&passive.decls, &symbols_in(&vc.commands), &symbols_in(&definitions));
            let mut text = String::from("(push 1)\n");
            for (literal, _) in &passive.tracks {
                let _ = writeln!(text, "(declare-fun {literal} () Bool)");
            }
            write_vc(&mut text, &declared, &definitions, &vc.commands);
            smoke.push((EncodedVc { text, blocks: passive.blocks, vc, model: None, tracks: passive.tracks }, printed));
        }
    }
    if vcs.is_empty() && smoke.is_empty() {
        return Ok(None);
    }
    // Sorts first met in this implementation are declared in the prelude of this and every
    // later implementation.
    prelude.push_str(&enc.take_new_decls());
    Ok(Some(vcs))
}

/// The incarnations a VC declares: those its text (`used`, with what its errors show) or its
/// definitions (`defined`) mention.
fn declared<'p>(
    decls: &'p [passify::Incarnation],
    used: &FxHashSet<&str>,
    defined: &FxHashSet<&str>,
) -> Vec<&'p passify::Incarnation> {
    decls
        .iter()
        .filter(|d| {
            let name = d.smt.trim_matches('|');
            used.contains(name) || defined.contains(name)
        })
        .collect()
}

/// A VC's declarations, then its hoisted definitions and its commands, after `text`.
fn write_vc(text: &mut String, declared: &[&passify::Incarnation], definitions: &str, commands: &str) {
    for d in declared {
        let _ = writeln!(text, "(declare-fun {} () {})", d.smt, d.sort);
    }
    *text += definitions;
    *text += commands;
}

/// The smoke assertion's `false` (`/smoke`).
static FALSITY: Expr = Expr {
    kind: ExprKind::BoolLit(false),
    span: Span { file: crate::ast::FileId(u32::MAX), start: 0, end: 0 },
    id: NodeId::NONE,
};

/// What `/smoke` prints for an unreachable point (Boogie's `OnUnreachableCode`): the
/// implementation with the blocks of `point` (from the entry to the point), its
/// `assert false` last, as Boogie's `EmitImpl` prints it.
fn smoke_text(
    typed: &TypedProgram,
    types: &crate::emit::TypeTable,
    id: ImplementationId,
    body: &Body,
    point: &[super::Block],
) -> String {
    use crate::ast::{Cmd as AstCmd, CmdKind, Decl as AstDecl, Program};
    let mut blocks = crate::passes::blocks::ast_blocks(typed, body, point);
    if let Some(last) = blocks.last_mut() {
        let falsity = Expr { span: body.span, ..FALSITY.clone() };
        last.cmds.push(AstCmd { kind: CmdKind::Assert { attrs: Box::new([]), expr: falsity }, span: body.span });
    }
    let decl = &typed.program.decls[typed.symbols().implementations[id.0 as usize].decl.0 as usize];
    // A procedure written with its body is printed as its implementation, as Boogie holds it.
    let split = crate::passes::inline::split_procedure(crate::passes::blocks::without_block_form(decl));
    let Some(AstDecl::Implementation(mut imp)) = split.into_iter().find(|d| matches!(d, AstDecl::Implementation(_)))
    else {
        return String::new();
    };
    imp.body.stmts = crate::passes::blocks::stmt_list(blocks, &imp.body);
    let printed = crate::printer::print_program(
        &Program { decls: vec![AstDecl::Implementation(imp)] },
        &crate::passes::inline::emit_impl_options(types.clone()),
    );
    format!("found unreachable code:\n{printed}")
}

/// The symbols a VC's text mentions: quoted (`|x@1|`, without the bars) and plain ones.
fn symbols_in(text: &str) -> FxHashSet<&str> {
    let mut out = FxHashSet::default();
    let bytes = text.as_bytes();
    let mut i = 0;
    while i < bytes.len() {
        match bytes[i] {
            b'|' => {
                let start = i + 1;
                let end = text[start..].find('|').map_or(bytes.len(), |k| start + k);
                out.insert(&text[start..end]);
                i = end + 1;
            }
            b'(' | b')' | b' ' | b'\n' | b'\t' => i += 1,
            _ => {
                let start = i;
                while i < bytes.len() && !matches!(bytes[i], b'(' | b')' | b' ' | b'\n' | b'\t' | b'|') {
                    i += 1;
                }
                out.insert(&text[start..i]);
            }
        }
    }
    out
}

/// The attributes and signature Boogie prints around the name of implementation `id`.
fn implementation_header(
    typed: &TypedProgram,
    id: ImplementationId,
    types: &crate::emit::TypeTable,
) -> (String, String) {
    match &typed.program.decls[typed.symbols().implementations[id.0 as usize].decl.0 as usize] {
        Decl::Implementation(d) => {
            crate::printer::implementation_parts(&d.attrs, &d.type_params, &d.ins, &d.outs, types)
        }
        Decl::Procedure(p) => crate::printer::implementation_parts(&p.attrs, &p.type_params, &p.ins, &p.outs, types),
        _ => (String::new(), "()".to_string()),
    }
}

/// Boogie's `CheckBooleanAttribute`: `{:key}` or `{:key true}` is `Some(true)`, `{:key false}`
/// `Some(false)`.
fn bool_attr(attrs: &[Attribute], key: &str) -> Option<bool> {
    attrs.iter().filter(|a| a.key == key).find_map(|a| match &a.params[..] {
        [] => Some(true),
        [crate::ast::AttrParam::Expr(Expr { kind: crate::ast::ExprKind::BoolLit(b), .. })] => Some(*b),
        _ => None,
    })
}

/// Boogie's `GetTimeLimit` and `GetResourceLimit`: an implementation's `{:timeLimit N}` and
/// `{:rlimit N}` (non-negative literals) override the command line's.
fn implementation_limits(options: &VerifyOptions, attrs: &[Attribute]) -> Limits {
    let limit = |key, default| int_attr(attrs, key).and_then(|n| u32::try_from(n).ok()).unwrap_or(default);
    Limits {
        time_limit_s: limit("timeLimit", options.time_limit),
        resource_limit: limit("rlimit", options.resource_limit),
    }
}

/// Boogie's `CheckSat` loop on one implementation's VC, sent to `session` before: after each
/// `sat`, the failing path is read from the model and that assertion blocked, until `unsat`
/// or `/errorLimit` counterexamples.
///
/// `last_chance`: when the solver gives up before any counterexample, Boogie's split worker
/// reports the one assertion of a VC that has only one as failing ([`gave_up`]); Houdini, which
/// calls the prover directly, does not.
fn check_vc(
    session: &mut dyn Session,
    options: &VerifyOptions,
    query: &Query,
    vc: &EncodedVc,
    last_chance: bool,
    covered: &mut FxHashSet<String>,
) -> ImplOutcome {
    let tracking = options.track_coverage && !(vc.tracks.is_empty() && query.axiom_tracks.is_empty());
    let check = |session: &mut dyn Session, limits: &Limits| check_tracked(session, options, query, vc, limits);
    let limits = &query.limits;
    let mut errors: Vec<Counterexample> = Vec::new();
    let mut discovered = 0;
    let mut first: Option<Answer> = None;
    // The stages: each is pushed and checked; one that holds is popped and the next tried.
    // They share the query's time limit with the check of the query itself.
    let started = std::time::Instant::now();
    let remaining = |limits: &Limits| -> Option<Limits> {
        if limits.time_limit_s == 0 {
            return Some(*limits);
        }
        let spent = u32::try_from(started.elapsed().as_secs()).unwrap_or(u32::MAX);
        let left = limits.time_limit_s.checked_sub(spent).filter(|&s| s > 0)?;
        Some(Limits { time_limit_s: left, ..*limits })
    };
    let mut stage = None;
    let mut staged = None;
    let mut held = 0;
    for (i, assumption) in options.stages.iter().enumerate() {
        let Some(left) = remaining(limits) else { break };
        session.send(&format!("(push 1)\n(assert {assumption})\n"));
        match check(session, &left) {
            answer @ (Answer::Sat | Answer::Unknown(UnknownReason::Incomplete(_))) => {
                stage = Some(i);
                staged = Some(answer);
                break;
            }
            Answer::Unsat => {
                held += 1;
                session.send("(pop 1)\n");
            }
            // Not decided under this stage: the query itself answers.
            _ => {
                session.send("(pop 1)\n");
                break;
            }
        }
    }
    let limits = &match remaining(limits) {
        Some(left) => left,
        None if stage.is_none() => {
            session.send("(pop 1)\n");
            return ImplOutcome::TimedOut;
        }
        None => Limits { time_limit_s: 1, ..*limits },
    };
    let outcome = loop {
        discovered += 1;
        // A stage's answer is the first of the loop.
        let answer = match staged.take() {
            Some(answer) => answer,
            None => check(session, limits),
        };
        if first.is_none() {
            first = Some(answer.clone());
        }
        match answer {
            Answer::Unsat => {
                if tracking && let Ok(core) = session.unsat_assumptions() {
                    // A program may have thousands of ids: look the core's literals up by name.
                    let labels: FxHashMap<&str, &String> = vc
                        .tracks
                        .iter()
                        .chain(query.axiom_tracks.iter())
                        .map(|(l, label)| (l.as_str(), label))
                        .collect();
                    covered
                        .extend(core.iter().filter_map(|literal| labels.get(literal.as_str()).map(|l| (*l).clone())));
                }
                break None;
            }
            Answer::Sat | Answer::Unknown(UnknownReason::Incomplete(_)) => {
                // Boogie asks for the model before the path (the solver's answer to
                // `get-model` depends on what was asked of the model before).
                let model = vc.model.as_ref().and_then(|_| session.get_model().ok());
                let path = match calculate_path(session, vc.blocks.len()) {
                    Ok(p) => p,
                    Err(e) => break Some(ImplOutcome::SolverException(e)),
                };
                let Some(mut cex) = trace::counterexample(&vc.blocks, &vc.vc, &path) else {
                    break if errors.is_empty() { Some(ImplOutcome::Inconclusive) } else { None };
                };
                if options.augmented_traces {
                    read_values(session, &mut cex.augmented);
                } else {
                    cex.augmented.clear();
                }
                if let (Some(names), Some(answer)) = (&vc.model, model) {
                    cex.model = model_of(&answer, names, &vc.blocks, &cex);
                }
                if options.values {
                    cex.values = values_at_failure(session, &vc.blocks, &cex);
                }
                if !options.stages.is_empty() {
                    let index = stage.unwrap_or(options.stages.len());
                    cex.stage = Some(trace::Stage { index, first: held == index });
                }
                let (source, target) = (path[path.len() - 2], -path[path.len() - 1]);
                errors.push(cex);
                if options.error_limit != 0 && discovered >= options.error_limit {
                    break None;
                }
                session.send(&format!("(assert (not (= (ControlFlow 0 {source}) (- {target}))))\n"));
            }
            // The watchdog's time out (the solver fell silent and was given up on) says nothing
            // about the VC: no last chance.
            Answer::Timeout if session.dead().is_some() => {
                break if errors.is_empty() { Some(ImplOutcome::TimedOut) } else { None };
            }
            Answer::Timeout => break gave_up(&errors, &vc.blocks, ImplOutcome::TimedOut, last_chance),
            Answer::Unknown(UnknownReason::OutOfResource) => {
                break gave_up(&errors, &vc.blocks, ImplOutcome::OutOfResource, last_chance);
            }
            Answer::Unknown(UnknownReason::OutOfMemory) => {
                break gave_up(&errors, &vc.blocks, ImplOutcome::OutOfMemory, last_chance);
            }
            Answer::Unknown(UnknownReason::Undetermined(_)) => {
                break if errors.is_empty() { Some(ImplOutcome::Inconclusive) } else { None };
            }
            Answer::Failed(why) => break Some(ImplOutcome::SolverException(why)),
            Answer::Rejected(message) => {
                let builtins = query.builtins;
                break Some(ImplOutcome::Rejected { message, query: save_rejected(query, vc), builtins });
            }
        }
    };
    if stage.is_some() {
        session.send("(pop 1)\n");
    }
    session.send("(pop 1)\n");
    if let Some(o) = outcome {
        return o;
    }
    if errors.is_empty() {
        return ImplOutcome::Verified;
    }
    // One error per failing proof obligation (Boogie's `DistinctBy(FailingAssert)`).
    let mut seen = rustc_hash::FxHashSet::default();
    errors.retain(|e| seen.insert(check_key(&e.check)));
    ImplOutcome::Errors(errors)
}

/// `check-sat` of `vc`, under `/trackVerificationCoverage` assuming the literals of its
/// tracked commands and of the tracked axioms (Boogie's named assumptions hold in every check;
/// after `unsat`, the literals of the unsat core are what the proof used).
fn check_tracked(
    session: &mut dyn Session,
    options: &VerifyOptions,
    query: &Query,
    vc: &EncodedVc,
    limits: &Limits,
) -> Answer {
    if !options.track_coverage {
        return session.check_sat(limits);
    }
    let literals: Vec<&str> = vc.tracks.iter().chain(query.axiom_tracks.iter()).map(|(l, _)| l.as_str()).collect();
    session.check_sat_assuming(limits, &literals)
}

/// An implementation's outcome from its splits' (Boogie's `SplitAndVerifyWorker`): the
/// errors of every split; else the first split's outcome that is not "verified"; "verified"
/// only when every split is. A rejected query (rboogie's bug, unless the program has
/// `{:builtin}` operators) comes before all of these.
pub(crate) fn combine(outcomes: Vec<ImplOutcome>) -> ImplOutcome {
    let mut errors = Vec::new();
    let mut other = None;
    for o in outcomes {
        match o {
            ImplOutcome::Errors(e) => errors.extend(e),
            ImplOutcome::Verified => {}
            o @ ImplOutcome::Rejected { builtins: false, .. } => other = Some(o),
            o => {
                other.get_or_insert(o);
            }
        }
    }
    match other {
        // A query the solver rejected is rboogie's bug: it is reported (exit 70) whatever the
        // other splits found.
        Some(o @ ImplOutcome::Rejected { builtins: false, .. }) => o,
        _ if !errors.is_empty() => ImplOutcome::Errors(errors),
        Some(o) => o,
        None => ImplOutcome::Verified,
    }
}

/// Writes a query the solver rejected to a file in the temporary directory, to run on its
/// own and to attach to a bug report; `None` if it cannot be written.
fn save_rejected(query: &Query, vc: &EncodedVc) -> Option<std::path::PathBuf> {
    let safe: String = query.name.chars().map(|c| if c.is_ascii_alphanumeric() { c } else { '_' }).collect();
    let path = std::env::temp_dir().join(format!("rboogie-rejected-{}-{safe}.smt2", std::process::id()));
    let text = format!("{}{}(check-sat)\n", query.prelude, vc.text);
    std::fs::write(&path, text).ok().map(|()| path)
}

/// The outcome when the solver gave up (`why`): none beyond the errors found so far, if any;
/// else Boogie's last chance (its one assertion reported as failing, see [`split`]), or `why`.
fn gave_up(
    errors: &[Counterexample],
    blocks: &[passify::PassiveBlock],
    why: ImplOutcome,
    last_chance: bool,
) -> Option<ImplOutcome> {
    if !errors.is_empty() {
        return None;
    }
    if !last_chance {
        return Some(why);
    }
    Some(split::last_chance_error(blocks).map_or(why, |c| ImplOutcome::Errors(vec![c])))
}

/// The values, in the solver's model, of the variables the failing check of `cex` reads
/// (each declared with the VC, see [`encode_implementation`]).
fn values_at_failure(
    session: &mut dyn Session,
    blocks: &[passify::PassiveBlock],
    cex: &Counterexample,
) -> Vec<(String, String)> {
    let key = check_key(&cex.check);
    let Some(&last) = cex.blocks.last() else { return Vec::new() };
    let info = blocks[last].cmds.iter().find_map(|c| match c {
        passify::PCmd::Assert(_, check, _, Some(info)) if check_key(check) == key => Some(info.clone()),
        _ => None,
    });
    let Some(info) = info else { return Vec::new() };
    let terms: Vec<&str> = info.values.iter().map(|(_, t)| t.as_str()).collect();
    let Ok(values) = session.get_value(&terms) else { return Vec::new() };
    info.values.iter().zip(values).map(|((name, _), v)| (name.clone(), model_value(v.trim()))).collect()
}

/// The model Boogie shows for counterexample `cex` (see [`super::model`]): the solver's
/// `answer` with the states of the `{:captureState}` points on its path, those of the last
/// block only before the failing assertion.
fn model_of(
    answer: &str,
    names: &ModelNames,
    blocks: &[passify::PassiveBlock],
    cex: &Counterexample,
) -> Option<String> {
    let key = check_key(&cex.check);
    let mut points = Vec::new();
    for (k, &b) in cex.blocks.iter().enumerate() {
        let last = k + 1 == cex.blocks.len();
        for c in &blocks[b].cmds {
            match c {
                passify::PCmd::Capture(point) => points.push(&**point),
                passify::PCmd::Assert(_, check, ..) if last && check_key(check) == key => break,
                _ => {}
            }
        }
    }
    let path = super::model::Path { variables: &names.variables, points, names: &names.names };
    super::model::render(answer, &names.rename, &path)
}

/// The model's values of the variables an augmented trace shows, as Boogie's model prints
/// them (`-5` for z3's `(- 5)`, `5bv8` for `(_ bv5 8)`); a value the solver does not give is
/// left as its term.
fn read_values(session: &mut dyn Session, items: &mut [passify::PrintItem]) {
    let terms: Vec<&str> = items
        .iter()
        .filter_map(|i| if let passify::PrintItem::Value(t) = i { Some(t.as_str()) } else { None })
        .collect();
    if terms.is_empty() {
        return;
    }
    let Ok(values) = session.get_value(&terms) else { return };
    let mut values = values.into_iter();
    for item in items {
        if let passify::PrintItem::Value(_) = item
            && let Some(v) = values.next()
        {
            *item = passify::PrintItem::Text(model_value(v.trim()));
        }
    }
}

/// A value as Boogie's model shows it.
fn model_value(v: &str) -> String {
    let words = |s: &str| s.split_whitespace().map(str::to_string).collect::<Vec<_>>();
    if let Some(inner) = v.strip_prefix('(').and_then(|s| s.strip_suffix(')')) {
        let w = words(inner);
        match w.as_slice() {
            [minus, n] if minus == "-" => return format!("-{}", model_value(n)),
            [under, bv, width] if under == "_" && bv.starts_with("bv") => return format!("{}bv{width}", &bv[2..]),
            _ => {}
        }
    }
    v.to_string()
}

/// Boogie's `CalculatePath`: `ControlFlow(0, 0)`, then `ControlFlow(0, b)` for each block `b`
/// reached, until a negative value (the failing assertion).
fn calculate_path(session: &mut dyn Session, blocks: usize) -> Result<Vec<i64>, String> {
    // The values of every block's `ControlFlow` term in one request when there are few
    // blocks: the model is fixed once the solver answered, so they are the values the walk
    // would ask for one at a time, in one round trip instead of one per block of the path
    // (49 requests took 6 ms in-process on a 60-block VC). Many blocks: one at a time, so
    // that a short path in a large VC asks for little.
    let known: Option<Vec<String>> = if blocks < PATH_IN_ONE_REQUEST {
        let terms: Vec<String> = (0..=blocks).map(|v| format!("(ControlFlow 0 {v})")).collect();
        let terms: Vec<&str> = terms.iter().map(String::as_str).collect();
        Some(session.get_value(&terms)?)
    } else {
        None
    };
    let mut path = Vec::new();
    let mut v = 0i64;
    for _ in 0..=blocks + 1 {
        let value = match known.as_ref().and_then(|values| values.get(usize::try_from(v).ok()?)) {
            Some(value) => value.trim().to_string(),
            None => {
                let values = session.get_value(&[&format!("(ControlFlow 0 {v})")])?;
                values.first().ok_or("no value")?.trim().to_string()
            }
        };
        if let Some(inner) = value.strip_prefix("(-").and_then(|s| s.strip_suffix(')')) {
            let n: i64 = inner.trim().parse().map_err(|_| format!("unexpected value {value}"))?;
            path.push(-n);
            return Ok(path);
        }
        match value.parse::<i64>() {
            // A model that does not follow the VC's control flow (a solver's `unknown`) can
            // send the walk round in circles: no path.
            Ok(n) if n != v && !path.contains(&n) => {
                path.push(n);
                v = n;
            }
            Ok(_) => break,
            Err(_) => break,
        }
    }
    Ok(path)
}

/// VCs with fewer blocks than this have their counterexample's path read in one request.
const PATH_IN_ONE_REQUEST: usize = 2048;

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn proc_patterns() {
        assert!(matches_pattern("F*", "Foo"));
        assert!(matches_pattern("*o", "Foo"));
        assert!(!matches_pattern("G*", "Foo"));
        assert!(matches_pattern("Foo", "Foo"));
    }
}
