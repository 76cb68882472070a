//! The tracked-field refinement loop (STORM, seed 004, §5.3.2, Fig. 5.1): `/fieldAbstraction`.
//!
//! Starting from the fields the property mentions (or `/trackedFields:f,g`), plus those the
//! abstraction must track ([`field_abstraction::forced`]), plus the field whose values flow
//! into a check unnamed when there is exactly one (see [`run`]), each iteration checks the
//! abstraction `Abstract(P, F)` ([`field_abstraction`]) of the program, quietly:
//! - no counterexample: the answer holds for the program; it is checked once more, printed as
//!   any run prints it, and the loop ends;
//! - a counterexample: its path is replayed on the program pinned to that path
//!   ([`field_abstraction::Pin`]), with the fields the path touches made concrete (read and
//!   written as the program does, with the abstraction's context switches). If the replay is
//!   feasible, the bug is real: bounded mode reports the replay (its trace is the program's,
//!   in source terms); modular mode checks that implementation unabstracted from then on.
//!   If it is infeasible, the fields that make it so are found by deletion: each field the
//!   path touches is made abstract again in turn and kept abstract if the replay stays
//!   infeasible (STORM's greedy inner loop, over the path's fields rather than all fields).
//!   Those fields join F and the loop goes on.
//!
//! Each iteration adds at least one field, so the loop ends. Where a replay cannot decide (a
//! timeout, a path the pinned program does not have), every field is tracked: the program
//! itself is checked. A real path through a loop summary may owe its feasibility to the
//! summary: summaries are then turned off and the loop goes on. Every verdict printed is
//! thus one the solver gave for the program or for an over-approximation of it ("no bugs"),
//! or for a pinned concrete path of it (a bug).
//!
//! At the end one line gives Table 5.4's figures (#F, #AF, #IT, time):
//! `field abstraction: 200 fields, 3 tracked (f0, f1, done), 4 iterations, 2.31 s`.

use std::io::{self, Write};
use std::sync::Arc;

use rustc_hash::FxHashSet;

use crate::ast::Symbol;
use crate::cli::Options;
use crate::driver::{BoundedRun, verify, verify_observed};
use crate::passes::PipelineConfig;
use crate::passes::field_abstraction::{self, Abstraction, PinSpec};
use crate::report::Reporter;
use crate::source::SourceMap;
use crate::typeck::TypedProgram;
use crate::vcgen::ImplOutcome;

/// What a check printed, kept until it is known to be the run's answer.
struct Report {
    text: Vec<u8>,
    code: i32,
}

/// What a check came to.
enum Checked {
    /// No implementation has a counterexample (other outcomes are left to the final run).
    NoCounterexample,
    /// The first counterexample: its implementation and its path's block labels.
    Counterexample { implementation: Symbol, path: Vec<String> },
    /// The passes or the solver could not decide.
    Undecided,
}

struct Loop<'a> {
    options: &'a Options,
    typed: &'a TypedProgram,
    config: PipelineConfig,
    sources: &'a mut SourceMap,
    reporter: &'a Reporter,
    bounded: Option<&'a BoundedRun>,
    /// `/trace` lines not yet printed.
    log: Vec<String>,
    /// Replays made so far.
    replays: usize,
    /// The report of the last feasible replay (a real bug's, in bounded mode).
    feasible_report: Option<Report>,
    /// The program after the passes before the abstraction, which every check shares.
    prefix: Option<Box<TypedProgram>>,
}

impl Loop<'_> {
    /// The program after the passes with `abstraction` (and a pinned path), quietly.
    fn prepare(&mut self, abstraction: &Abstraction, pin: Option<PinSpec>) -> Option<Box<TypedProgram>> {
        let mut config = self.config.clone();
        config.field_abstraction = Some(Arc::new(abstraction.clone()));
        config.pin = pin.map(Arc::new);
        let mut passes = crate::passes::pipeline(&config);
        let split = passes.iter().position(|p| p.name() == "field-abstraction").unwrap_or(0);
        let suffix = passes.split_off(split);
        // Bounded mode checks the entry point alone, every call inlined: the other bodies
        // would only slow down each iteration's passes.
        passes.push(Box::new(crate::passes::entry_only::EntryOnly(self.bounded.map(|b| b.entry))));
        let mut retired = Vec::new();
        let mut sink = Vec::new();
        if self.prefix.is_none() {
            let observe = Default::default();
            let start = Box::new(self.typed.clone());
            match crate::passes::run(start, &passes, &observe, self.sources, self.reporter, &mut sink, &mut retired) {
                Ok(p) => self.prefix = Some(p),
                Err(e) => {
                    self.log.push(format!("the passes failed ({e:?})"));
                    return None;
                }
            }
        }
        let start = Box::new((**self.prefix.as_ref()?).clone());
        let program = crate::passes::run(
            start,
            &suffix,
            &Default::default(),
            self.sources,
            self.reporter,
            &mut sink,
            &mut retired,
        );
        // Freed: the loop makes many programs, and reusing their memory costs less than
        // touching fresh pages for each.
        drop(retired);
        match program {
            Ok(p) => Some(p),
            Err(e) => {
                self.log.push(format!("the passes failed ({e:?})"));
                None
            }
        }
    }

    /// Checks `program` as a run checks it, its report kept aside (the last check is the
    /// run's answer, printed then); counterexamples of `known` (implementations whose bugs were
    /// found real) do not count.
    fn check(&mut self, program: &TypedProgram, known: &FxHashSet<Symbol>) -> (Checked, Report) {
        let mut text = Vec::new();
        let mut first: Option<Checked> = None;
        let mut undecided = false;
        let code =
            verify_observed(self.options, program, self.sources, self.reporter, &mut text, self.bounded, &mut |r| {
                match &r.outcome {
                    ImplOutcome::Errors(_) if known.contains(&Symbol::intern(&r.name)) => {}
                    ImplOutcome::Errors(cexs) => {
                        if first.is_none()
                            && let Some(cex) = cexs.first()
                        {
                            first = Some(Checked::Counterexample {
                                implementation: Symbol::intern(&r.name),
                                path: cex.trace.iter().map(|b| b.label.clone()).collect(),
                            });
                        }
                    }
                    ImplOutcome::Verified => {}
                    _ => undecided = true,
                }
            });
        let code = code.unwrap_or(1);
        let checked = match first {
            Some(c) => c,
            None if undecided || code != 0 => {
                self.log.push("the check gave no verdict".into());
                Checked::Undecided
            }
            None => Checked::NoCounterexample,
        };
        (checked, Report { text, code })
    }

    /// A smallest set of `candidates` that, made concrete with `background`, makes the path
    /// infeasible (given that all of them do): Junker's QuickXplain, which asks O(k log(n/k))
    /// replays for k fields needed out of n, where trying each field in turn (STORM's inner
    /// loop) asks n. A replay that cannot decide counts as feasible (the field is kept).
    fn minimal(
        &mut self,
        base: &Abstraction,
        background: &[Symbol],
        background_changed: bool,
        candidates: &[Symbol],
        implementation: Symbol,
        path: &[String],
    ) -> Vec<Symbol> {
        if background_changed && self.feasible(base, background, implementation, path) == Some(false) {
            return Vec::new();
        }
        if candidates.len() <= 1 {
            return candidates.to_vec();
        }
        let (first, second) = candidates.split_at(candidates.len() / 2);
        let with_first: Vec<Symbol> = background.iter().chain(first).copied().collect();
        let from_second = self.minimal(base, &with_first, true, second, implementation, path);
        let with_second: Vec<Symbol> = background.iter().chain(&from_second).copied().collect();
        let from_first = self.minimal(base, &with_second, !from_second.is_empty(), first, implementation, path);
        from_first.into_iter().chain(from_second).collect()
    }

    /// Whether the path is feasible with the fields `concrete` made concrete: `None` when the
    /// replay cannot decide.
    fn feasible(
        &mut self,
        base: &Abstraction,
        concrete: &[Symbol],
        implementation: Symbol,
        path: &[String],
    ) -> Option<bool> {
        self.replays += 1;
        let abstraction = Abstraction { concrete: concrete.iter().copied().collect(), ..base.clone() };
        let pin = PinSpec { implementation, path: path.to_vec() };
        let program = self.prepare(&abstraction, Some(pin))?;
        let (checked, report) = self.check(&program, &FxHashSet::default());
        drop(program);
        match checked {
            Checked::NoCounterexample => Some(false),
            Checked::Counterexample { .. } => {
                self.feasible_report = Some(report);
                Some(true)
            }
            Checked::Undecided => None,
        }
    }
}

/// Runs the refinement loop and prints the outcome; returns the exit code.
pub(crate) fn run(
    options: &Options,
    typed: &TypedProgram,
    config: PipelineConfig,
    sources: &mut SourceMap,
    reporter: &Reporter,
    out: &mut dyn Write,
    bounded: Option<&BoundedRun>,
) -> io::Result<i32> {
    let started = std::time::Instant::now();
    if let Err(message) = crate::smt::configure(options) {
        reporter.tool_message(out, &format!("*** Error: {message}"))?;
        return Ok(1);
    }
    let all = field_abstraction::fields(typed);
    // Only fields that can reach a check are made concrete in a replay.
    let relevant = field_abstraction::relevant_fields(typed);
    // Those whose values flow into a check: tried first to refute a path.
    let asserted = field_abstraction::asserted_fields(typed);
    let mut tracked: FxHashSet<Symbol> = match &options.tracked_fields {
        Some(names) => {
            let mut set = FxHashSet::default();
            for name in names {
                let field = Symbol::intern(name);
                if !all.contains(&field) {
                    let message =
                        format!("*** Error: /trackedFields: {name} is not a field (a global variable of map type)");
                    reporter.tool_message(out, &message)?;
                    return Ok(1);
                }
                set.insert(field);
            }
            set
        }
        None => field_abstraction::property_fields(typed),
    };
    tracked.extend(field_abstraction::forced(typed, bounded.is_some()));
    // A field whose values flow into a check without the check naming it (`r := Request[d];
    // assert !Completed[r]`) is the likeliest one the first refinement adds: read havocked,
    // it can make the check fail whatever the property's fields hold. When there is exactly
    // one such field it is tracked from the start, which saves that first check and its
    // replay (the whole run, when the property then holds) at the cost of at most one field
    // more than needed. With two or more, the loop starts from the property's fields, as
    // STORM does, and the refinement finds which of them matter. A set given by
    // `/trackedFields` is kept as given.
    // (`asserted` lies within `relevant`: the same closure from fewer seeds.)
    let mut flowing = all.iter().filter(|f| asserted.contains(f) && !tracked.contains(f));
    let start_with = match (options.tracked_fields.is_none(), flowing.next(), flowing.next()) {
        (true, Some(&field), None) => Some(field),
        _ => None,
    };
    tracked.extend(start_with);
    let mut abstraction = Abstraction {
        tracked,
        concrete: FxHashSet::default(),
        summarize: bounded.is_some(),
        only: bounded.map(|b| b.entry),
        concrete_impls: FxHashSet::default(),
    };
    let mut lp = Loop {
        options,
        typed,
        config,
        sources,
        reporter,
        bounded,
        log: Vec::new(),
        replays: 0,
        feasible_report: None,
        prefix: None,
    };
    if let Some(field) = start_with {
        lp.log.push(format!("tracked from the start: {field}, the one field whose values flow into a check unnamed"));
    }
    // The check that answers for the program, when it is the last one made.
    let mut answer: Option<Report> = None;
    let mut iterations = usize::from(all.is_empty());
    // A bug found real on a pinned path (bounded mode): the pinned concrete program to report.
    let mut replay: Option<(Vec<Symbol>, PinSpec)> = None;
    // The next iteration's check, made ahead (see "the implied replay" below).
    let mut ahead: Option<(Box<TypedProgram>, Checked, Report)> = None;
    // Without fields there is nothing to abstract: the final run is the only check.
    while !all.is_empty() {
        if options.trace {
            for line in lp.log.drain(..) {
                reporter.trace(out, &format!("[TRACE] field abstraction: {line}\n"))?;
            }
        }
        lp.log.clear();
        iterations += 1;
        let (program, checked, report) = match ahead.take() {
            Some(made) => made,
            None => {
                let Some(program) = lp.prepare(&abstraction, None) else { break };
                let (checked, report) = lp.check(&program, &abstraction.concrete_impls);
                (program, checked, report)
            }
        };
        let (implementation, path) = match checked {
            // No counterexample, or nothing to learn from: this check is the answer.
            Checked::NoCounterexample | Checked::Undecided => {
                answer = Some(report);
                break;
            }
            Checked::Counterexample { implementation, path } => (implementation, path),
        };
        let (touched, through_summary) = field_abstraction::touched_on_path(&program, implementation, &path);
        drop(program);
        let candidates: Vec<Symbol> = all
            .iter()
            .copied()
            .filter(|f| touched.contains(f) && relevant.contains(f) && !abstraction.tracked.contains(f))
            .collect();
        lp.log.push(format!(
            "iteration {iterations}: a counterexample in {implementation}; fields to replay concretely: {}{}",
            names(&candidates),
            if through_summary { " (the path passes a loop summary)" } else { "" }
        ));
        let mut stuck = false;
        // The fields whose values flow into a check, made concrete alone first: when they
        // refute the path, the fields needed are among them, and the replay with every
        // candidate concrete (which would be infeasible too: more concrete fields, fewer
        // executions) is not needed.
        let first: Vec<Symbol> = candidates.iter().copied().filter(|f| asserted.contains(f)).collect();
        let mut refuted = false;
        let mut first_replayed = false;
        // The implied replay: with one such field (or with one candidate in all), the
        // abstraction that tracks it as well is checked before the path is replayed. That
        // check is the next iteration's should the replay refute the path (the field alone
        // then being the smallest set that does), and when it finds no counterexample the
        // replay is refuted without being made: an execution of the replay (the field read
        // and written concretely, without switches) is one of that abstraction (the field
        // tracked, each access a switch point the schedule may pass). Only when that
        // abstraction has a counterexample too is the path replayed, to decide between the
        // two. The result (tracked fields, verdict, report) is the one the replay first would
        // give. For a lone candidate this bets on a spurious path: one check fewer when the
        // next abstraction has no counterexample (no replay), as many otherwise (its check is
        // the next iteration's), while a real path costs one more (the next abstraction's
        // check, before the replay that finds the path real). Not through a loop summary: the
        // replay would keep a summary that the abstraction drops.
        let implied = match (&first[..], &candidates[..]) {
            ([field], _) if candidates.len() > 1 => Some(*field),
            (_, [field]) => Some(*field),
            _ => None,
        };
        // The replay with the lone candidate concrete, made here: the one below, then.
        let mut lone_replay = None;
        if let Some(field) = implied
            && !through_summary
        {
            let next = Abstraction {
                tracked: abstraction.tracked.iter().copied().chain([field]).collect(),
                ..abstraction.clone()
            };
            if let Some(program) = lp.prepare(&next, None) {
                let (checked, report) = lp.check(&program, &next.concrete_impls);
                match checked {
                    Checked::NoCounterexample => {
                        lp.log.push(format!(
                            "spurious: no counterexample with {field} tracked as well; tracked from now on: {field}"
                        ));
                        abstraction = next;
                        answer = Some(report);
                        iterations += 1;
                        break;
                    }
                    Checked::Counterexample { .. } => {
                        let replayed = lp.feasible(&abstraction, &[field], implementation, &path);
                        if replayed == Some(false) {
                            lp.feasible_report = None;
                            lp.log.push(format!("spurious with {field} concrete; tracked from now on: {field}"));
                            abstraction = next;
                            if is_the_program(&abstraction, &all) {
                                // As below.
                                iterations += 1;
                                break;
                            }
                            ahead = Some((program, checked, report));
                            continue;
                        }
                        if candidates.len() == 1 {
                            // The replay below, made: its report is kept for a real bug.
                            lone_replay = Some(replayed);
                        } else {
                            lp.feasible_report = None;
                        }
                        // Replayed already: not again below.
                        first_replayed = true;
                    }
                    Checked::Undecided => {}
                }
            }
        }
        if !first_replayed && !first.is_empty() && first.len() < candidates.len() {
            if lp.feasible(&abstraction, &first, implementation, &path) == Some(false) {
                let needed = lp.minimal(&abstraction, &[], false, &first, implementation, &path);
                lp.log.push(format!(
                    "spurious with {} concrete; tracked from now on: {}",
                    names(&first),
                    names(&needed)
                ));
                refuted = !needed.is_empty();
                abstraction.tracked.extend(needed);
            }
            lp.feasible_report = None;
        }
        let replayed = match lone_replay {
            Some(replayed) => replayed,
            None if refuted => Some(false),
            None => lp.feasible(&abstraction, &candidates, implementation, &path),
        };
        match replayed {
            Some(false) if refuted => {}
            Some(true) if through_summary && abstraction.summarize => {
                lp.log.push("feasible through a loop summary: summaries off".into());
                abstraction.summarize = false;
            }
            Some(true) => {
                lp.log.push(format!("real: the path is feasible with {} concrete", names(&candidates)));
                if bounded.is_some() {
                    answer = lp.feasible_report.take();
                    replay = Some((candidates, PinSpec { implementation, path }));
                    break;
                }
                abstraction.concrete_impls.insert(implementation);
            }
            Some(false) => {
                let needed = lp.minimal(&abstraction, &[], false, &candidates, implementation, &path);
                lp.log.push(format!("spurious; tracked from now on: {}", names(&needed)));
                // Infeasible whatever the fields: the replay does not have the abstraction's
                // path (a construct the pinning cannot follow).
                stuck = needed.is_empty();
                abstraction.tracked.extend(needed);
            }
            None => stuck = true,
        }
        if stuck {
            // The replay cannot tell: fall back on the program, step by step, so that every
            // iteration still changes something.
            if abstraction.tracked.len() < all.len() || abstraction.summarize {
                lp.log.push("the replay cannot tell: every field tracked".into());
                abstraction.tracked.extend(all.iter().copied());
                abstraction.summarize = false;
            } else if bounded.is_some() {
                // Every field tracked and no summary: the abstraction is the program, and its
                // counterexample the program's.
                answer = Some(report);
                break;
            } else {
                lp.log.push(format!("the replay cannot tell: {implementation} checked unabstracted"));
                abstraction.concrete_impls.insert(implementation);
            }
        }
        if is_the_program(&abstraction, &all) {
            // Every field tracked: the abstraction is the program; its check is the answer.
            iterations += 1;
            break;
        }
    }
    if options.trace {
        for line in lp.log.drain(..) {
            reporter.trace(out, &format!("[TRACE] field abstraction: {line}\n"))?;
        }
        let line = format!("[TRACE] field abstraction: {} replays of counterexamples\n", lp.replays);
        reporter.trace(out, &line)?;
    }
    // The answer, printed as any run prints it: the deciding check's report, or (when the
    // passes are to be shown, or no check decided) a final run.
    if let Some(report) = answer.filter(|_| options.print_after.is_empty()) {
        // No check follows.
        crate::smt::stop_prewarming_z3();
        out.write_all(&report.text)?;
        let tracked: Vec<String> =
            all.iter().filter(|f| abstraction.tracked.contains(f)).map(|f| f.as_str().to_string()).collect();
        reporter.field_abstraction(out, all.len(), &tracked, iterations, started.elapsed().as_secs_f64())?;
        if !options.free_at_exit {
            // The process's exit frees the program the checks share.
            std::mem::forget(lp);
        }
        return Ok(report.code);
    }
    let final_program = match replay {
        Some((concrete, pin)) => {
            let a = Abstraction { concrete: concrete.into_iter().collect(), ..abstraction.clone() };
            prepare_observed(&mut lp, &a, Some(pin), out)
        }
        None => prepare_observed(&mut lp, &abstraction, None, out),
    };
    let code = match final_program {
        Ok(program) => {
            let code = verify(options, &program, lp.sources, reporter, out, bounded)?;
            if !options.free_at_exit {
                std::mem::forget(program);
            }
            code
        }
        Err(failure) => failure.report(lp.sources, reporter, out)?,
    };
    let tracked: Vec<String> =
        all.iter().filter(|f| abstraction.tracked.contains(f)).map(|f| f.as_str().to_string()).collect();
    reporter.field_abstraction(out, all.len(), &tracked, iterations, started.elapsed().as_secs_f64())?;
    Ok(code)
}

/// Every field tracked, no loop summarized, no implementation left unabstracted: the
/// abstraction is the program itself.
fn is_the_program(abstraction: &Abstraction, all: &[Symbol]) -> bool {
    abstraction.tracked.len() == all.len() && !abstraction.summarize && abstraction.concrete_impls.is_empty()
}

fn names(fields: &[Symbol]) -> String {
    if fields.is_empty() {
        return "none".into();
    }
    fields.iter().map(|f| f.as_str()).collect::<Vec<_>>().join(", ")
}

/// The final program, with the passes observed as the options ask (`--print-after`, `/trace`).
fn prepare_observed(
    lp: &mut Loop<'_>,
    abstraction: &Abstraction,
    pin: Option<PinSpec>,
    out: &mut dyn Write,
) -> Result<Box<TypedProgram>, crate::passes::PassError> {
    let mut config = lp.config.clone();
    config.field_abstraction = Some(Arc::new(abstraction.clone()));
    config.pin = pin.map(Arc::new);
    let passes = crate::passes::pipeline(&config);
    let mut retired = Vec::new();
    let result = crate::passes::run(
        Box::new(lp.typed.clone()),
        &passes,
        &lp.options.pass_observation(),
        lp.sources,
        lp.reporter,
        out,
        &mut retired,
    );
    if !lp.options.free_at_exit {
        std::mem::forget(retired);
    }
    result
}
