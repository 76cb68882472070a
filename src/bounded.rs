//! Whole-program bounded checking from an entry point: Corral's mode (`/main:P`, `/bounded`).
//!
//! Expects a type-checked program. Gives the driver what it needs to check the program as Corral
//! checks it, with the passes it already has:
//! - the entry procedure: `/main:P`, else the procedure marked `{:entrypoint}`, else Corral's
//!   error (`Main procedure not specified`);
//! - the pipeline's settings: every call to a procedure with an implementation is inlined,
//!   recursion cut at the recursion bound with `assume false` (a call site is cut when its
//!   callee is already on the inlining stack `bound` times, as Corral counts it), and every
//!   loop unrolled to the same bound. Corral extracts loops into tail-recursive procedures and
//!   bounds them with the recursion bound: bound N lets the body run N times, the last time
//!   without returning to the head, so N − 1 iterations can complete, and an inner loop counts
//!   afresh in each iteration of the loop around it. Unrolling each loop on its own N times
//!   with `assume false` past the last copy gives the same paths, so the eager mode unrolls
//!   ([`crate::passes::loop_unroll`]'s per-loop unroller);
//! - only the entry point is verified; assertions of callees are checked in its context,
//!   callees' `requires` asserted at each call, non-free `ensures` of inlined implementations
//!   asserted at their returns, and procedures without a body keep their contract (havoc the
//!   modified globals and the outputs, assume the `ensures`), as Corral's instrumentation does;
//! - Corral's verdict lines and a trace of the failing path with its call stack ([`render`]).
//!
//! Inlining is stratified by default, as in Corral: [`crate::vcgen::stratified`] searches, in
//! one solver session, for the call sites a verdict needs; the driver then inlines those
//! ([`crate::passes::inline::Inline::sites`], the others blocked) and checks and reports that
//! program as the eager mode (`/eagerInline`) checks the fully inlined one.
//!
//! A program with `async` calls (Corral's `async call P()`, c2s's `call {:async} P()`) is
//! concurrent: its threads are inlined where they are spawned and the entry point is
//! sequentialized with `/k:N` rounds per thread ([`crate::passes::sequentialize`]).
//!
//! Under `/contractInfer` inlining is eager: Houdini ([`crate::houdini`]) computes its
//! assignment on the program the check verifies, and the check runs with the existential
//! constants fixed to it (the driver's `verify_bounded_with_houdini`).

use rustc_hash::{FxHashMap, FxHashSet};

use crate::ast::{Cmd, CmdKind, Decl, Program, Span, Symbol};
use crate::source::SourceMap;
use crate::typeck::{Ref, TypedProgram};
use crate::verdict::{ErrorReport, Outcome, Verdict};

/// The first `async` call in the program, if any.
pub fn first_async_call(program: &Program) -> Option<Span> {
    struct Find(Option<Span>);
    impl crate::walk::Visitor for Find {
        fn cmd(&mut self, c: &Cmd) {
            if self.0.is_none()
                && let CmdKind::Call(call) = &c.kind
                && crate::passes::inline::is_async(call)
            {
                self.0 = Some(c.span);
            }
        }
    }
    let mut find = Find(None);
    for d in &program.decls {
        crate::walk::decl(&mut find, d);
    }
    find.0
}

/// The entry procedure's name, or Corral's message (`Error, Invalid input: ...`) when there
/// is none.
pub fn entry(typed: &TypedProgram, main: Option<&str>) -> Result<Symbol, &'static str> {
    let symbols = typed.symbols();
    let name = match main {
        Some(m) => Symbol::intern(m),
        None => {
            let marked = typed.program.decls.iter().find_map(|d| match d {
                Decl::Procedure(p) if p.attrs.iter().any(|a| a.key.as_str() == "entrypoint") => Some(p.name.name),
                Decl::Implementation(i) if i.attrs.iter().any(|a| a.key.as_str() == "entrypoint") => Some(i.name.name),
                _ => None,
            });
            marked.ok_or("Main procedure not specified")?
        }
    };
    let has_body = symbols.implementations.iter().any(|i| i.name.name == name && i.procedure.is_some())
        || typed
            .program
            .decls
            .iter()
            .any(|d| matches!(d, Decl::Procedure(p) if p.name.name == name && p.body.is_some()));
    if has_body { Ok(name) } else { Err("Implementation of main procedure not found") }
}

/// Whether the bounds cut anything reachable from `entry`: a recursive call (a cycle among
/// the procedures with bodies that `entry` reaches), a loop in one of them, or, under
/// `/stackDepthBound:N` (`stack_depth`), a chain of more than N nested calls of procedures
/// with bodies. When nothing is cut, "no bugs" is a proof; otherwise it holds up to the
/// bounds (Corral's "Reached recursion bound of N", which Corral prints for both bounds).
pub fn bound_cuts(typed: &TypedProgram, entry: Symbol, stack_depth: Option<u32>) -> bool {
    // The calls of each procedure with a body, by name.
    let mut calls: FxHashMap<Symbol, Vec<Symbol>> = FxHashMap::default();
    let mut loops: FxHashSet<Symbol> = FxHashSet::default();
    for d in &typed.program.decls {
        let (name, body) = match d {
            Decl::Implementation(i) => (i.name.name, &i.body),
            Decl::Procedure(p) => match &p.body {
                Some(b) => (p.name.name, b),
                None => continue,
            },
            _ => continue,
        };
        struct Calls<'t> {
            typed: &'t TypedProgram,
            out: Vec<Symbol>,
        }
        impl crate::walk::Visitor for Calls<'_> {
            fn cmd(&mut self, c: &Cmd) {
                let calls = match &c.kind {
                    CmdKind::Call(call) => std::slice::from_ref(&**call),
                    CmdKind::ParCall { calls } => &calls[..],
                    _ => return,
                };
                for call in calls {
                    if let Some(Ref::Procedure(_)) = self.typed.referent(&call.callee) {
                        self.out.push(call.callee.name);
                    }
                }
            }
        }
        let mut v = Calls { typed, out: Vec::new() };
        crate::walk::decl(&mut v, d);
        calls.entry(name).or_default().extend(v.out);
        if has_loop(typed, body) {
            loops.insert(name);
        }
    }
    // Depth-first from the entry: a back edge is recursion.
    #[derive(Clone, Copy, PartialEq)]
    enum Mark {
        Open,
        Done,
    }
    fn visit(
        p: Symbol,
        calls: &FxHashMap<Symbol, Vec<Symbol>>,
        loops: &FxHashSet<Symbol>,
        marks: &mut FxHashMap<Symbol, Mark>,
    ) -> bool {
        match marks.get(&p) {
            Some(Mark::Open) => return true,
            Some(Mark::Done) => return false,
            None => {}
        }
        let Some(callees) = calls.get(&p) else { return false };
        if loops.contains(&p) {
            return true;
        }
        marks.insert(p, Mark::Open);
        let cut = callees.iter().any(|&q| visit(q, calls, loops, marks));
        marks.insert(p, Mark::Done);
        cut
    }
    if visit(entry, &calls, &loops, &mut FxHashMap::default()) {
        return true;
    }
    // No recursion: the deepest chain of calls is finite.
    fn deepest(p: Symbol, calls: &FxHashMap<Symbol, Vec<Symbol>>, memo: &mut FxHashMap<Symbol, u32>) -> u32 {
        if let Some(&d) = memo.get(&p) {
            return d;
        }
        let d = calls.get(&p).map_or(0, |callees| {
            callees.iter().filter(|q| calls.contains_key(q)).map(|&q| 1 + deepest(q, calls, memo)).max().unwrap_or(0)
        });
        memo.insert(p, d);
        d
    }
    stack_depth.is_some_and(|n| deepest(entry, &calls, &mut FxHashMap::default()) > n)
}

/// Whether a body's control-flow graph has a cycle (a `while`, or gotos that loop).
fn has_loop(typed: &TypedProgram, body: &crate::ast::Body) -> bool {
    let Ok(blocks) = crate::passes::blocks::blocks_of(typed, body, false) else {
        // A body the verifier cannot lower is reported by it; assume the worst here.
        return true;
    };
    let mut graph = petgraph::graph::DiGraph::<(), ()>::new();
    let nodes: Vec<_> = blocks.iter().map(|_| graph.add_node(())).collect();
    for (i, b) in blocks.iter().enumerate() {
        for &s in &b.succs {
            graph.add_edge(nodes[i], nodes[s], ());
        }
    }
    petgraph::algo::is_cyclic_directed(&graph)
}

/// Which inlined call each inlined copy stands for, read off the entry point's body after the
/// passes: the copy `inline$P$n$` (its blocks' label prefix), and the copy (or the entry
/// point, `None`) whose block jumps to its `Entry`.
#[derive(Debug, Default)]
pub struct CallTree {
    parent: FxHashMap<String, Option<String>>,
    /// Where each copy's call is: the inliner gives the call's position to the assignments
    /// of the arguments and the asserted `requires` in the copy's `Entry` block.
    call_at: FxHashMap<String, Span>,
    /// The copies that are threads (inlined at an `async` call: [`crate::passes::inline::SPAWN`]).
    threads: FxHashSet<String>,
    /// Each copy's `Entry` block: where it is (the callee's name), for a trace that passes
    /// the block merged into the one before it (see [`render_threads`]).
    entry_at: FxHashMap<String, Span>,
}

impl CallTree {
    pub fn of(typed: &TypedProgram, entry: Symbol) -> CallTree {
        let mut tree = CallTree::default();
        for d in &typed.program.decls {
            let body = match d {
                Decl::Implementation(i) if i.name.name == entry => &i.body,
                Decl::Procedure(p) if p.name.name == entry => match &p.body {
                    Some(b) => b,
                    None => continue,
                },
                _ => continue,
            };
            for block in body.stmts.blocks.iter() {
                if let Some(l) = &block.label
                    && let Some(copy) = copy_of(l.name.as_str())
                    && split_inlined(l.name.as_str()).1 == "Entry"
                {
                    let spawns = block.cmds.iter().any(|c| {
                        matches!(&c.kind, CmdKind::Assume { attrs, .. }
                            if attrs.iter().any(|a| a.key.as_str() == crate::passes::inline::SPAWN))
                    });
                    if spawns {
                        tree.threads.insert(copy.to_string());
                    }
                    tree.entry_at.insert(copy.to_string(), block.span);
                    let at = block.cmds.iter().find_map(|c| match &c.kind {
                        CmdKind::Assign { lhss, .. } => match lhss.first() {
                            Some(crate::ast::AssignLhs::Var(v)) => Some(v.span),
                            _ => None,
                        },
                        CmdKind::Assert { .. } => Some(c.span),
                        _ => None,
                    });
                    if let Some(at) = at {
                        tree.call_at.insert(copy.to_string(), at);
                    }
                }
                let Some(crate::ast::BlockTail::Goto { targets, .. }) = &block.tail else { continue };
                let from = block.label.as_ref().and_then(|l| copy_of(l.name.as_str()));
                for t in targets.iter() {
                    let target = t.name.as_str();
                    if let Some(copy) = copy_of(target)
                        && split_inlined(target).1 == "Entry"
                    {
                        tree.parent.insert(copy.to_string(), from.map(str::to_string));
                    }
                }
            }
        }
        tree
    }

    /// The copies from the outermost call down to `copy`.
    fn chain(&self, copy: Option<&str>) -> Vec<String> {
        let mut chain = Vec::new();
        let mut at = copy.map(str::to_string);
        while let Some(c) = at {
            // A copy the tree does not know (it should know them all) ends the chain.
            let Some(parent) = self.parent.get(&c) else { break };
            chain.push(c.clone());
            if chain.len() > self.parent.len() {
                break;
            }
            at = parent.clone();
        }
        chain.reverse();
        chain
    }
}

/// Corral's result for the entry point's verdict, as Corral prints it (`values`: with the
/// failing check's values). `None` when the solver gave no verdict (a timeout, an unknown):
/// the verdict's own message says so, and no bounded verdict is claimed.
pub fn render(
    verdict: &Verdict,
    calls: &CallTree,
    sources: &SourceMap,
    bound: u32,
    cuts: bool,
    values: bool,
    rounds: Option<u32>,
) -> Option<String> {
    let mut out = String::new();
    match verdict.outcome {
        Outcome::Errors => {
            out.push_str("Program has a potential bug: True bug\n");
            for e in &verdict.errors {
                if calls.threads.is_empty() {
                    render_error(&mut out, e, calls, sources, values);
                } else {
                    render_threads(&mut out, e, calls, sources);
                }
                if let Some((k, smallest)) = rounds.and_then(|n| context_bound(e, n)) {
                    out.push_str(&match (k, smallest) {
                        (1, _) => "Context bound: the bug shows with /k:1\n".to_string(),
                        (k, true) => format!("Context bound: the bug needs /k:{k} (none with /k:{})\n", k - 1),
                        (k, false) => format!("Context bound: the bug shows with /k:{k} (smaller bounds undecided)\n"),
                    });
                }
            }
        }
        Outcome::Verified => {
            out.push_str("Program has no bugs\n");
            if cuts {
                out.push_str(&format!("Reached recursion bound of {bound}\n"));
            }
        }
        _ => return None,
    }
    Some(out)
}

/// The bounded verdict as one JSON event (after the entry point's `verdict` event): `bug`,
/// `no_bugs` (with `complete` false when the bound cut something) or `unknown`.
pub fn json(verdict: &Verdict, bound: u32, cuts: bool, rounds: Option<u32>) -> String {
    let result = match verdict.outcome {
        Outcome::Errors => "bug",
        Outcome::Verified => "no_bugs",
        _ => "unknown",
    };
    let mut event = serde_json::json!({
        "kind": "bounded",
        "entry": verdict.name,
        "result": result,
        "recursion_bound": bound,
        "complete": verdict.outcome == Outcome::Verified && !cuts,
    });
    if let Some(n) = rounds {
        event["context_bound"] = n.into();
        if let Some((k, smallest)) = verdict.errors.first().and_then(|e| context_bound(e, n)) {
            event["bug_context_bound"] = k.into();
            event["bug_context_bound_smallest"] = smallest.into();
        }
    }
    format!("{event}\n")
}

/// The context bound an error of a run with `/k:n` shows with, and whether no smaller one
/// shows it: stage i of the run's query allows i + 1 rounds (see the driver), the query
/// itself `n`.
fn context_bound(e: &ErrorReport, n: u32) -> Option<(u32, bool)> {
    // No stages: `/k:1`, or `/incrementalK:0`.
    let Some(stage) = e.stage else { return Some((n, n == 1)) };
    let k = u32::try_from(stage.index + 1).unwrap_or(n).min(n);
    Some((k, stage.first || k == 1))
}

/// One failing check: Corral's error line, then the trace as Corral's console trace: one line
/// per block, indented by the call stack, `CALL P` and `RETURN from P` at the inlined calls.
fn render_error(out: &mut String, e: &ErrorReport, calls: &CallTree, sources: &SourceMap, values: bool) {
    let place = |p: &crate::source::Position| format!("{}({},{})", p.file, p.line, p.col);
    // An inlined postcondition fails on a return with no position (Boogie's): Corral names
    // the postcondition.
    let at = match &e.related {
        Some(related) if e.at.line == 0 => place(&related.at),
        _ => place(&e.at),
    };
    out.push_str(&format!("{at}: error PF5001: This assertion can fail\n\n"));
    let Some(trace) = &e.trace else { return };
    out.push_str("Execution trace:\n");
    let line = |depth: usize, place: &str, label: &str, extra: &str| {
        let extra = if extra.is_empty() { String::new() } else { format!("  ({extra})") };
        format!("(1,0)  {}{place}: {label}{extra}\n", " ".repeat(depth + 1))
    };
    // The copies entered, outermost first, with the caller's place when each was entered.
    let mut stack: Vec<(String, String, String)> = Vec::new();
    let mut label = String::new();
    let mut last = String::new();
    for step in trace {
        let (callee, base) = split_inlined(&step.label);
        let chain = calls.chain(callee.and(copy_of(&step.label)));
        let common = stack.iter().zip(&chain).take_while(|(a, b)| a.0 == **b).count();
        while stack.len() > common {
            let (copy, caller, caller_label) = stack.pop().expect("longer than common");
            let name = split_inlined(&copy).0.unwrap_or_default();
            out.push_str(&line(stack.len(), &caller, &caller_label, &format!("RETURN from {name} ")));
            last = caller;
            label = caller_label;
        }
        for copy in &chain[common..] {
            let name = split_inlined(copy).0.unwrap_or_default();
            let call = calls
                .call_at
                .get(copy)
                .and_then(|&span| sources.try_position(span))
                .map_or_else(|| last.clone(), |p| place(&p));
            out.push_str(&line(stack.len(), &call, &label, &format!("CALL {name}")));
            stack.push((copy.clone(), call, label.clone()));
        }
        if step.at.line > 0 && base != "Entry" && base != "Return" {
            label = base.to_string();
            last = place(&step.at);
            out.push_str(&line(stack.len(), &last, &label, ""));
        }
    }
    out.push_str(&line(stack.len(), &at, &label, &format!("ASSERTION FAILS: {}", e.message)));
    if values && !e.values.is_empty() {
        out.push_str(&format!("Values at {at}:\n"));
        for (name, value) in &e.values {
            out.push_str(&format!("    {name} = {value}\n"));
        }
    }
    out.push('\n');
}

/// A failure of a sequentialized concurrent program ([`crate::passes::sequentialize`]): the
/// assertion that failed (the `seq$fail$N` block the trace passes through), then Corral's
/// concurrent trace: `(tid,k)` per step, thread 1 the entry point's and the others numbered
/// as they are spawned, `k` the round each step runs in, the steps grouped by round; a
/// thread's steps after it stopped are not shown.
fn render_threads(out: &mut String, e: &ErrorReport, calls: &CallTree, sources: &SourceMap) {
    use crate::passes::sequentialize::{AT, CONTINUED, FAIL, ROUND, STOP};
    let place = |p: &crate::source::Position| format!("{}({},{})", p.file, p.line, p.col);
    let Some(trace) = &e.trace else {
        out.push_str(&format!("{}: error PF5001: This assertion can fail\n\n", place(&e.at)));
        return;
    };
    let failing = trace.iter().find(|s| s.label.starts_with(FAIL));
    let at = failing.map_or_else(|| place(&e.at), |s| place(&s.at));
    out.push_str(&format!("{at}: error PF5001: This assertion can fail\n\n"));
    out.push_str("Execution trace:\n");
    out.push_str("Format: (tid,k)  filename(line,col): blockName   (extra info)\n");
    struct Thread {
        tid: u32,
        round: u32,
        stopped: bool,
        /// The copy the thread runs in (`None`: the entry point's thread).
        copy: Option<String>,
        /// The calls it is in, outermost first, as the trace has shown them.
        calls: Vec<String>,
    }
    let mut threads = vec![Thread { tid: 1, round: 0, stopped: false, copy: None, calls: Vec::new() }];
    let mut next_tid = 1;
    // (round, line), in trace order.
    let mut events: Vec<(u32, String)> = Vec::new();
    let line = |t: &Thread, depth: usize, place: &str, label: &str, extra: &str| {
        let extra = if extra.is_empty() { String::new() } else { format!("({extra})") };
        (t.round, format!("({},{})  {}{place}: {label}  {extra}", t.tid, t.round, " ".repeat(depth + 1)))
    };
    let mut last_place = String::new();
    // The failing step: its place among the events, and its round.
    let mut failed: Option<(usize, u32)> = None;
    for step in trace {
        let label = step.label.as_str();
        // A block the sequentialization added names the block it was added in.
        let (own, label) = match label.find(AT) {
            Some(i) => (&label[..i], &label[i + AT.len()..]),
            None if label.starts_with("seq$") => continue,
            None => ("", label),
        };
        // The rest of a block split by the sequentialization has its original label.
        let label = label.find(CONTINUED).map_or(label, |i| &label[..i]);
        let (callee, base) = split_inlined(label);
        let chain = calls.chain(callee.and(copy_of(label)));
        // The threads the step runs in: the entry point's, then each thread copy on its chain.
        let running: Vec<&String> = chain.iter().filter(|c| calls.threads.contains(*c)).collect();
        let common = threads[1..].iter().zip(&running).take_while(|(t, c)| t.copy.as_ref() == Some(**c)).count();
        while threads.len() > common + 1 {
            let t = threads.pop().expect("a thread");
            if !t.stopped {
                events.push(line(&t, 0, &last_place, "", "Done"));
            }
        }
        for c in &running[common..] {
            let parent = threads.last().expect("the main thread");
            // A thread of STORM's harness is named after the procedure it runs.
            let name = split_inlined(c).0.unwrap_or_default();
            let name = name.strip_prefix(crate::harness::THREAD).unwrap_or(name);
            if !parent.stopped {
                events.push(line(parent, 0, &place(&step.at), label, &format!("FORK {name}")));
            }
            next_tid += 1;
            let (round, stopped) = (parent.round, parent.stopped);
            threads.push(Thread { tid: next_tid, round, stopped, copy: Some((*c).clone()), calls: Vec::new() });
        }
        // Calls within the thread: the copies on the chain after its own.
        let first_call = chain.iter().rposition(|c| calls.threads.contains(c)).map_or(0, |i| i + 1);
        let calls_in = chain.len() - first_call;
        let top = threads.last_mut().expect("the main thread");
        if !top.stopped {
            // The calls the step is in. One whose `Entry` the trace has not shown (the solver's
            // trace names a block merged into the one before it by its first label only) is
            // shown entered here, as its `Entry` would have been.
            let inner = &chain[first_call..];
            let shown = top.calls.iter().zip(inner).take_while(|(a, b)| a == b).count();
            top.calls.truncate(shown);
            for (depth, copy) in inner.iter().enumerate().skip(shown) {
                top.calls.push(copy.clone());
                let entered = base == "Entry" && copy_of(label) == Some(copy.as_str());
                if entered {
                    continue;
                }
                let Some(at) = calls.entry_at.get(copy).and_then(|&span| sources.try_position(span)) else {
                    continue;
                };
                let name = split_inlined(copy).0.unwrap_or_default();
                let entry = format!("{copy}Entry");
                events.push(line(top, depth + 1, &place(&at), &entry, &format!("CALL {name}")));
            }
        }
        if let Some(rest) = own.strip_prefix(ROUND) {
            let top = threads.last_mut().expect("the main thread");
            if let Some(r) = rest.rsplit('$').next().and_then(|r| r.parse().ok()) {
                top.round = r;
            }
            continue;
        }
        if own.starts_with(STOP) {
            threads.last_mut().expect("the main thread").stopped = true;
            continue;
        }
        if own.starts_with(FAIL) {
            let t = threads.last().expect("the main thread");
            if failed.is_none() {
                failed = Some((events.len(), t.round));
                events.push(line(t, calls_in, &place(&step.at), label, "ASSERTION FAILS"));
            }
            continue;
        }
        let top = threads.last().expect("the main thread");
        if !top.stopped && step.at.line > 0 {
            let p = place(&step.at);
            let extra = match (base, callee) {
                ("Entry", Some(name)) if calls_in > 0 => format!("CALL {name}"),
                ("Return", Some(name)) if calls_in > 0 => format!("RETURN from {name} "),
                _ => String::new(),
            };
            // A block split by switches shows once per round it runs in.
            let shown = line(top, calls_in, &p, label, &extra);
            if events.last() != Some(&shown) {
                events.push(shown);
            }
            last_place = p;
        }
    }
    // The steps in the order they happen: round by round, each round's threads in the order
    // they run. The sequential program runs later threads after the failure, but their
    // earlier rounds came before it: those steps are shown, the others are not.
    if let Some((at, round)) = failed {
        let mut i = 0;
        events.retain(|(r, _)| {
            i += 1;
            i - 1 <= at || *r < round
        });
    }
    events.sort_by_key(|(r, _)| *r);
    for (_, text) in &events {
        out.push_str(text);
        out.push('\n');
    }
    out.push('\n');
}

/// The copy prefix `inline$P$n$` of an inlined block's label.
fn copy_of(label: &str) -> Option<&str> {
    let (callee, rest) = split_inlined(label);
    callee?;
    let rest_at = label.rfind(rest)?;
    Some(label[..rest_at].trim_end_matches('#'))
}

/// `inline$P$n$rest` (the inliner's labels, `#k` after them in unrolled copies): `P` and
/// `rest`, or no callee and the label itself.
fn split_inlined(label: &str) -> (Option<&str>, &str) {
    // The unrollers' copies end in `#k` (one per loop around the block) or `#cut`.
    let mut label = label;
    while let Some(i) = label.rfind('#') {
        let tail = &label[i + 1..];
        if tail == "cut" || (!tail.is_empty() && tail.bytes().all(|b| b.is_ascii_digit())) {
            label = &label[..i];
        } else {
            break;
        }
    }
    let Some(after) = label.strip_prefix("inline$") else { return (None, label) };
    // The callee's name ends at the first `$<digits>$` (the prefix may have more `$` signs).
    let bytes = after.as_bytes();
    let mut i = 0;
    while i < bytes.len() {
        if bytes[i] == b'$' {
            let digits = bytes[i + 1..].iter().take_while(|b| b.is_ascii_digit()).count();
            if digits > 0 && bytes.get(i + 1 + digits) == Some(&b'$') {
                let rest = after[i + 2 + digits..].trim_start_matches('$');
                return (Some(&after[..i]), rest);
            }
        }
        i += 1;
    }
    (None, label)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn inlined_labels_name_their_callee() {
        assert_eq!(split_inlined("anon0"), (None, "anon0"));
        assert_eq!(split_inlined("inline$inc$0$anon0"), (Some("inc"), "anon0"));
        assert_eq!(split_inlined("inline$inc$12$Entry"), (Some("inc"), "Entry"));
        assert_eq!(split_inlined("inline$a$b$3$Return"), (Some("a$b"), "Return"));
        assert_eq!(copy_of("inline$f$12$anon2_Else#3"), Some("inline$f$12$"));
        assert_eq!(copy_of("anon2"), None);
        assert_eq!(split_inlined("inline$f$0$Entry#4"), (Some("f"), "Entry"));
        assert_eq!(split_inlined("anon2_LoopBody#13"), (None, "anon2_LoopBody"));
        assert_eq!(split_inlined("inline$g$2$anon4_LoopHead#2#1"), (Some("g"), "anon4_LoopHead"));
        assert_eq!(split_inlined("anon4_LoopHead#cut"), (None, "anon4_LoopHead"));
    }
}
