//! The SMT-LIB conversation, once for every backend: limits as solver options, `check-sat`
//! (or `check-sat-assuming`, answered alike), `unknown` classified as Boogie classifies it,
//! `get-value`, the unsat assumptions, the log, and a session that dies on the first fault.
//!
//! A backend is a [`Transport`]: it carries text to a solver and responses back, each wait
//! bounded by a deadline. [`SmtSession`] does the rest, so the pipe, in-process and canned
//! backends answer alike. The rules follow Boogie's `SMTLibProcessTheoremProver.ParseOutcome`
//! and `ParseReasonUnknown` and `SMTLibInteractiveTheoremProver.CheckSatAndGetResponse`:
//! - `unknown` is followed by `(get-info :reason-unknown)`: `incomplete`, `(incomplete ...)` or
//!   no reason is Boogie's *Invalid* (an error is reported from the model), `timeout` a time
//!   out, `canceled` a time out when a time limit is set and out of resource otherwise,
//!   `memout` out of memory, the resource-limit texts out of resource, anything else
//!   undetermined (Boogie's inconclusive);
//! - an `(error ...)` answer to `check-sat` that speaks of resource limits is out of resource;
//! - with z3 and `/rlimit`, the resources a query used are read back (`(get-info :rlimit)`);
//!   more than the limit is out of resource whatever z3 said ("Sometimes Z3 doesn't tell us
//!   that it ran out of resources"). z3's count is cumulative, so the session compares the
//!   difference since its previous query, where Boogie compares the count itself.
//!
//! A reset (Boogie's `(reset)` before each VC) sends `(reset)`, or makes the backend start
//! afresh, then the preamble again; the solver's limits are set anew at the next query. The
//! time spent waiting in the transport is added to [`super::solver_time`].
//!
//! A session is dead after the first fault (no answer by the deadline, the solver gone, an
//! `(error ...)` answer, garbage): the backend has killed or interrupted its solver, and
//! every later call fails at once with the first fault's text. It is also dead after an
//! out-of-memory answer, as Boogie then restarts its solver.

use super::log::ProverLog;
use super::sexpr::{self, SExpr};
use super::{Answer, Dialect, Limits, Session, SessionOptions, UnknownReason};
use std::time::{Duration, Instant};

/// Why a wait ended without a response.
#[derive(Clone, Debug, PartialEq, Eq)]
pub(crate) enum Fault {
    /// The deadline passed; the backend has stopped its solver.
    Timeout,
    /// The solver is gone or unusable; the text says why.
    Failed(String),
    /// The solver answered `(error ...)` to rboogie's own text: a bug in rboogie's encoding,
    /// not a verdict. The text is the solver's message.
    Rejected(String),
    /// The solver passed the memory limit (`/maxMemoryMB`, see [`crate::memory`]); the
    /// backend has stopped it.
    OutOfMemory,
}

/// What a session that died of [`Fault::OutOfMemory`] says.
const OUT_OF_MEMORY: &str = "the solver ran out of memory";

/// Carries SMT-LIB text to a solver and its responses back.
pub(crate) trait Transport: Send {
    /// Sends whole commands. A backend that runs commands as it receives them (in-process
    /// Z3) stops them at `deadline`; a pipe returns at once.
    fn send(&mut self, text: &str, deadline: Instant) -> Result<(), Fault>;
    /// The next response the solver printed (one S-expression or atom, as text), waiting no
    /// later than `deadline`.
    fn next_response(&mut self, deadline: Instant) -> Result<String, Fault>;
    /// Puts the solver back in its state at start: SMT-LIB's `(reset)`.
    fn reset(&mut self, deadline: Instant) -> Result<(), Fault> {
        self.send("(reset)\n", deadline)
    }
}

/// A [`Session`] over any [`Transport`].
pub(crate) struct SmtSession<T: Transport> {
    transport: T,
    dialect: Dialect,
    options: SessionOptions,
    log: Option<ProverLog>,
    /// The first fault's text, once there has been one.
    dead: Option<String>,
    /// That fault was the memory limit: the query it happened in is out of memory.
    dead_of_memory: bool,
    /// That fault was the deadline of a query's text ([`Session::begin_query`]): the solver
    /// did not take the text in time, and the query timed out.
    dead_sending: bool,
    /// The deadline of the query begun ([`Session::begin_query`]) and not checked yet: what
    /// is sent for it and its check are all done by then.
    query_deadline: Option<Instant>,
    /// The limits in force in the solver (as last set by [`Session::check_sat`]).
    limits: Limits,
    /// After a reset, which some solvers apply to options too, the solver's limits are not
    /// known: the next query sets them all.
    limits_unknown: bool,
    /// z3's cumulative resource count after the previous query; `None` when not known (after
    /// a reset).
    resources_used: Option<u64>,
    /// The resources the checks measured spent, over the session's life.
    resources_spent: u64,
}

impl<T: Transport> SmtSession<T> {
    /// A session that has sent its preamble (options, logic) to the solver.
    pub(crate) fn new(transport: T, dialect: Dialect, options: SessionOptions, log: Option<ProverLog>) -> Self {
        let mut session = SmtSession {
            transport,
            dialect,
            options,
            log,
            dead: None,
            dead_of_memory: false,
            dead_sending: false,
            query_deadline: None,
            limits: Limits::default(),
            limits_unknown: false,
            resources_used: Some(0),
            resources_spent: 0,
        };
        let preamble = super::preamble(dialect, &session.options);
        session.send(&preamble);
        session
    }

    /// How long to wait for an answer under `limits`.
    fn bound(&self, limits: &Limits) -> Duration {
        if limits.time_limit_s > 0 {
            Duration::from_secs(limits.time_limit_s.into()) + self.options.watchdog_grace
        } else {
            self.options.unbounded_wait
        }
    }

    fn die(&mut self, why: String) -> String {
        if self.dead.is_none() {
            self.dead = Some(why.clone());
        }
        why
    }

    /// Ends the session for `fault`; its text.
    fn fault(&mut self, fault: Fault) -> String {
        match fault {
            Fault::Timeout => self.die("no answer within the time limit".to_string()),
            Fault::Failed(why) | Fault::Rejected(why) => self.die(why),
            Fault::OutOfMemory => {
                self.dead_of_memory |= self.dead.is_none();
                self.die(OUT_OF_MEMORY.to_string())
            }
        }
    }

    fn log(&mut self, text: &str) {
        if let Some(log) = &mut self.log {
            log.write(text);
            if !text.ends_with('\n') {
                log.write("\n");
            }
            log.flush();
        }
    }

    fn emit(&mut self, text: &str, deadline: Instant) -> Result<(), Fault> {
        self.log(text);
        let started = Instant::now();
        let sent = self.transport.send(text, deadline);
        super::count_solver_time(started);
        sent
    }

    /// Sends `command` and returns its response, skipping what solvers print for commands that
    /// answer nothing (`success`, cvc5's `unsupported` for an option it does not know).
    fn request(&mut self, command: &str, deadline: Instant) -> Result<String, Fault> {
        self.emit(command, deadline)?;
        let started = Instant::now();
        let response = loop {
            match self.transport.next_response(deadline) {
                Ok(r) if r == "success" || r == "unsupported" => continue,
                other => break other,
            }
        };
        super::count_solver_time(started);
        response
    }

    /// Tells the solver about `limits` when they differ from those in force. Boogie sets
    /// z3's options before every VC; cvc5 gets its per-query time limit (Boogie leaves cvc5
    /// to its own process timer); other solvers only the watchdog.
    fn set_limits(&mut self, limits: &Limits) -> Result<(), Fault> {
        let mut text = String::new();
        let time_ms = u64::from(limits.time_limit_s) * 1000;
        let changed_time = self.limits_unknown || limits.time_limit_s != self.limits.time_limit_s;
        let changed_resources = self.limits_unknown || limits.resource_limit != self.limits.resource_limit;
        match self.dialect {
            Dialect::Z3 => {
                if changed_time {
                    text += &format!("(set-option :timeout {time_ms})\n");
                }
                if changed_resources {
                    text += &format!("(set-option :rlimit {})\n", limits.resource_limit);
                }
            }
            Dialect::Cvc5 => {
                if changed_time {
                    text += &format!("(set-option :tlimit-per {time_ms})\n");
                }
            }
            Dialect::Generic => {}
        }
        self.limits = *limits;
        self.limits_unknown = false;
        if text.is_empty() {
            return Ok(());
        }
        let deadline = Instant::now() + self.bound(limits);
        self.emit(&text, deadline)
    }

    /// `command` (`check-sat` or `check-sat-assuming`) under `limits`, by the query's
    /// deadline when one was begun.
    fn check(&mut self, limits: &Limits, command: &str) -> Result<Answer, Fault> {
        let own = Instant::now() + self.bound(limits);
        let deadline = self.query_deadline.take().map_or(own, |query| query.min(own));
        self.set_limits(limits)?;
        let limited = self.dialect == Dialect::Z3 && limits.resource_limit > 0;
        let counted = self.dialect == Dialect::Z3 && self.options.count_resources;
        if (limited || counted) && self.resources_used.is_none() {
            // The count to measure this query's use from.
            self.resources(deadline)?;
        }
        let response = self.request(command, deadline)?;
        let answer = match response.as_str() {
            "sat" => Answer::Sat,
            "unsat" => Answer::Unsat,
            "unknown" => self.reason_unknown(limits, deadline)?,
            _ => match sexpr::parse(&response).as_ref().and_then(|e| e.call("error")) {
                Some([message]) => {
                    let message = message.unquoted().unwrap_or_default();
                    if is_resource_error(&message) {
                        Answer::Unknown(UnknownReason::OutOfResource)
                    } else if message.contains("out of memory") {
                        // z3's `memory_max_size` (it exits after saying so).
                        return Err(Fault::OutOfMemory);
                    } else {
                        return Err(Fault::Rejected(message));
                    }
                }
                _ => return Err(Fault::Failed(format!("unexpected solver output: {}", abbreviate(&response)))),
            },
        };
        if limited && answer != Answer::Unsat {
            let used = self.resources(deadline)?;
            self.resources_spent += used;
            // Z3 stops a query when its count reaches the limit, and does not always say why.
            if used >= u64::from(limits.resource_limit) {
                return Ok(Answer::Unknown(UnknownReason::OutOfResource));
            }
        } else if counted {
            // Only for `/trace`'s figure: a solver that cannot say leaves it out, and the
            // verdict stands.
            match self.resources(deadline) {
                Ok(used) => self.resources_spent += used,
                Err(Fault::Failed(_)) => self.resources_used = None,
                Err(fault) => return Err(fault),
            }
        }
        Ok(answer)
    }

    /// What the last `unknown` means (Boogie's `ParseReasonUnknown`).
    fn reason_unknown(&mut self, limits: &Limits, deadline: Instant) -> Result<Answer, Fault> {
        let response = self.request("(get-info :reason-unknown)\n", deadline)?;
        let parsed = sexpr::parse(&response);
        if let Some(e) = &parsed
            && let Some([_]) = e.call("error")
        {
            // Boogie takes an error here as no response: the outcome stays Invalid.
            return Ok(Answer::Unknown(UnknownReason::Incomplete(String::new())));
        }
        let Some([reason]) = parsed.as_ref().and_then(|e| e.call(":reason-unknown")) else {
            return Err(Fault::Failed(format!("unexpected solver output: {}", abbreviate(&response))));
        };
        let reason = reason.unquoted().unwrap_or_else(|| reason.to_string());
        Ok(classify_unknown(&reason, limits))
    }

    /// The resources z3 used since the previous query.
    fn resources(&mut self, deadline: Instant) -> Result<u64, Fault> {
        let response = self.request("(get-info :rlimit)\n", deadline)?;
        let count = sexpr::parse(&response)
            .as_ref()
            .and_then(|e| e.call(":rlimit"))
            .and_then(|args| args.first())
            .and_then(|n| n.unquoted())
            .and_then(|n| n.parse::<u64>().ok());
        let Some(count) = count else {
            return Err(Fault::Failed(format!("unexpected solver output: {}", abbreviate(&response))));
        };
        let used = count.saturating_sub(self.resources_used.unwrap_or(0));
        self.resources_used = Some(count);
        Ok(used)
    }

    /// The unsat assumptions (z3's unsat core, see [`super`]'s header), or the solver's error.
    fn assumptions(&mut self) -> Result<Result<Vec<String>, String>, Fault> {
        let command = if self.dialect == Dialect::Z3 { "get-unsat-core" } else { "get-unsat-assumptions" };
        let deadline = Instant::now() + self.bound(&self.limits.clone());
        let response = self.request(&format!("({command})\n"), deadline)?;
        let unexpected = || Fault::Failed(format!("unexpected {command} answer: {}", abbreviate(&response)));
        let Some(parsed) = sexpr::parse(&response) else { return Err(unexpected()) };
        if let Some([message]) = parsed.call("error") {
            return Ok(Err(message.unquoted().unwrap_or_default()));
        }
        match parsed {
            SExpr::List(literals) => Ok(Ok(literals.iter().map(SExpr::to_string).collect())),
            SExpr::Atom(_) => Err(unexpected()),
        }
    }

    fn values(&mut self, terms: &[&str]) -> Result<Result<Vec<String>, String>, Fault> {
        let command = format!("(get-value ({}))\n", terms.join(" "));
        let deadline = Instant::now() + self.bound(&self.limits.clone());
        let response = self.request(&command, deadline)?;
        let Some(parsed) = sexpr::parse(&response) else {
            return Err(Fault::Failed(format!("unexpected solver output: {}", abbreviate(&response))));
        };
        if let Some([message]) = parsed.call("error") {
            // An error here answers this query (no model, say); the session goes on.
            return Ok(Err(message.unquoted().unwrap_or_default()));
        }
        match parsed {
            SExpr::List(pairs) if pairs.len() == terms.len() => {
                let mut values = Vec::with_capacity(pairs.len());
                for pair in pairs {
                    match pair {
                        SExpr::List(mut items) if items.len() == 2 => values.push(items.pop().unwrap().to_string()),
                        _ => {
                            return Err(Fault::Failed(format!(
                                "unexpected get-value answer: {}",
                                abbreviate(&response)
                            )));
                        }
                    }
                }
                Ok(Ok(values))
            }
            _ => Err(Fault::Failed(format!("unexpected get-value answer: {}", abbreviate(&response)))),
        }
    }

    /// [`Session::check_sat`] with `command`, which is `check-sat` or `check-sat-assuming`.
    fn answer(&mut self, limits: &Limits, command: &str) -> Answer {
        if let Some(why) = &self.dead {
            self.query_deadline = None;
            // The solver passed the memory limit while it read this query.
            if self.dead_of_memory {
                return Answer::Unknown(UnknownReason::OutOfMemory);
            }
            // It did not take the query's text by the query's deadline.
            if self.dead_sending {
                return Answer::Timeout;
            }
            return Answer::Failed(why.clone());
        }
        match self.check(limits, command) {
            // Boogie restarts a solver that ran out of memory.
            Ok(Answer::Unknown(UnknownReason::OutOfMemory)) | Err(Fault::OutOfMemory) => {
                self.fault(Fault::OutOfMemory);
                Answer::Unknown(UnknownReason::OutOfMemory)
            }
            Ok(answer) => answer,
            Err(Fault::Timeout) => {
                self.die("no answer within the time limit".to_string());
                Answer::Timeout
            }
            Err(Fault::Failed(why)) => Answer::Failed(self.die(why)),
            // What the solver prints after an error no longer answers what is asked: the
            // session is replaced.
            Err(Fault::Rejected(why)) => Answer::Rejected(self.die(why)),
        }
    }
}

impl<T: Transport> Session for SmtSession<T> {
    fn send(&mut self, commands: &str) {
        if self.dead.is_some() {
            return;
        }
        let deadline = self.query_deadline.unwrap_or_else(|| Instant::now() + self.bound(&self.limits.clone()));
        if let Err(fault) = self.emit(commands, deadline) {
            self.dead_sending |= fault == Fault::Timeout && self.query_deadline.is_some();
            self.fault(fault);
        }
    }

    fn begin_query(&mut self, limits: &Limits) {
        self.query_deadline = Some(Instant::now() + self.bound(limits));
    }

    fn reads_z3_map_operators(&self) -> bool {
        self.dialect == Dialect::Z3
    }

    fn check_sat(&mut self, limits: &Limits) -> Answer {
        self.answer(limits, "(check-sat)\n")
    }

    fn check_sat_assuming(&mut self, limits: &Limits, literals: &[&str]) -> Answer {
        if literals.is_empty() {
            return self.check_sat(limits);
        }
        self.answer(limits, &format!("(check-sat-assuming ({}))\n", literals.join(" ")))
    }

    fn unsat_assumptions(&mut self) -> Result<Vec<String>, String> {
        if let Some(why) = &self.dead {
            return Err(why.clone());
        }
        match self.assumptions() {
            Ok(result) => result,
            Err(fault) => Err(self.fault(fault)),
        }
    }

    fn get_value(&mut self, terms: &[&str]) -> Result<Vec<String>, String> {
        if let Some(why) = &self.dead {
            return Err(why.clone());
        }
        if terms.is_empty() {
            return Ok(Vec::new());
        }
        match self.values(terms) {
            Ok(result) => result,
            Err(fault) => Err(self.fault(fault)),
        }
    }

    fn get_model(&mut self) -> Result<String, String> {
        if let Some(why) = &self.dead {
            return Err(why.clone());
        }
        let deadline = Instant::now() + self.bound(&self.limits.clone());
        match self.request("(get-model)\n", deadline) {
            Ok(response) => match sexpr::parse(&response) {
                Some(parsed) if parsed.call("error").is_some() => Err(response),
                _ => Ok(response),
            },
            Err(fault) => Err(self.fault(fault)),
        }
    }

    fn resource_count(&self) -> u64 {
        self.resources_spent
    }

    fn reset(&mut self) {
        self.query_deadline = None;
        if self.dead.is_some() {
            return;
        }
        self.log("(reset)\n");
        let deadline = Instant::now() + self.bound(&self.limits.clone());
        let started = Instant::now();
        let reset = self.transport.reset(deadline);
        super::count_solver_time(started);
        if let Err(fault) = reset {
            self.fault(fault);
            return;
        }
        self.limits_unknown = true;
        self.resources_used = None;
        let mut preamble = super::preamble(self.dialect, &self.options);
        if self.dialect == Dialect::Z3 {
            // z3 keeps `:rlimit` over a reset, and once a query used it up, even `(push 1)` is
            // "canceled" until it is lifted (Boogie's `FullReset` lifts it too).
            preamble += "(set-option :rlimit 0)\n";
        }
        self.send(&preamble);
    }

    fn dead(&self) -> Option<&str> {
        self.dead.as_deref()
    }
}

/// Boogie's `ParseReasonUnknown`, case by case.
pub(crate) fn classify_unknown(reason: &str, limits: &Limits) -> Answer {
    match reason {
        ""
        | "incomplete"
        | "(incomplete quantifiers)"
        | "(incomplete (theory arithmetic))"
        | "smt tactic failed to show goal to be sat/unsat (incomplete (theory arithmetic))" => {
            Answer::Unknown(UnknownReason::Incomplete(reason.to_string()))
        }
        "memout" => Answer::Unknown(UnknownReason::OutOfMemory),
        // z3 at its `memory_high_watermark` (set from `/maxMemoryMB`; Boogie sets none, and
        // would not know this reason): "smt tactic failed to show goal to be sat/unsat memout".
        r if r.ends_with(" memout") => Answer::Unknown(UnknownReason::OutOfMemory),
        "timeout" => Answer::Timeout,
        // Both time outs and resource limits are reported as canceled by z3 4.4.1.
        "canceled" if limits.time_limit_s > 0 => Answer::Timeout,
        "canceled" | "max. resource limit exceeded" | "resource limits reached" | "(resource limits reached)" => {
            Answer::Unknown(UnknownReason::OutOfResource)
        }
        other => Answer::Unknown(UnknownReason::Undetermined(other.to_string())),
    }
}

fn is_resource_error(message: &str) -> bool {
    ["max. resource limit exceeded", "push canceled", "resource limits reached"].iter().any(|m| message.contains(m))
}

/// At most a few hundred bytes of solver output, for a message.
pub(crate) fn abbreviate(text: &str) -> String {
    const MAX: usize = 300;
    if text.len() <= MAX {
        return text.to_string();
    }
    let mut end = MAX;
    while !text.is_char_boundary(end) {
        end -= 1;
    }
    format!("{}...", &text[..end])
}
