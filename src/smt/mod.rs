//! Solvers: SMT-LIB text in, answers out.
//!
//! SMT-LIB 2.6 text is the one interface to every solver (../shared/STYLE.md, habit 7): the
//! VC generator writes commands as text, a [`Session`] sends them — to a solver process over a
//! pipe, to Z3 in-process, or to a canned script in tests — and the same bytes go to the
//! `/proverLog` file, which then runs stand-alone in any solver.
//!
//! A session is interactive, as Boogie's is: declarations and assertions, then `check-sat`,
//! then, after `sat`, `get-value` queries that walk the counterexample (Boogie's
//! `ControlFlow` queries), `push`/`pop` between implementations. Every call that waits for the
//! solver is bounded: a [`Limits`] deadline enforced by the solver's own option and by a
//! watchdog that kills (or interrupts) a solver that does not answer. A dead, silent or
//! babbling solver is an [`Answer`] for that query, never a hang or a panic.

/// What a `check-sat` came to, in the terms Boogie reports outcomes in.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Answer {
    /// `unsat`: the VC is valid. The only answer that may become "verified".
    Unsat,
    /// `sat`: a counterexample exists; `get_value` may now be asked.
    Sat,
    /// `unknown`, with the solver's `:reason-unknown` classified as Boogie does.
    Unknown(UnknownReason),
    /// No answer within the time limit (the solver said `timeout`, or the watchdog fired).
    Timeout,
    /// The solver crashed, exited, or printed something that is not an answer: Boogie's
    /// solver-exception outcome. The text says what happened, for rboogie's own notes.
    Failed(String),
}

#[derive(Clone, Debug, PartialEq, Eq)]
pub enum UnknownReason {
    /// Resource limit (`/rlimit`) exhausted.
    OutOfResource,
    OutOfMemory,
    /// Incomplete theory, quantifiers, or no reason given: Boogie's "inconclusive".
    Incomplete(String),
}

/// Bounds for one query.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct Limits {
    /// `/timeLimit` in seconds; 0 is none (the watchdog still applies a generous bound so a
    /// solver that stops answering cannot hang the run).
    pub time_limit_s: u32,
    /// `/rlimit`; 0 is none.
    pub resource_limit: u32,
}

/// An interactive solver session.
pub trait Session: Send {
    /// Sends commands that produce no answer (`declare-*`, `define-*`, `assert`, `push`,
    /// `pop`, `set-option`, ...). Errors the solver reports for them surface at the next
    /// [`Session::check_sat`] as [`Answer::Failed`].
    fn send(&mut self, commands: &str);
    /// `(check-sat)` under `limits`.
    fn check_sat(&mut self, limits: &Limits) -> Answer;
    /// `(get-value (t1 t2 ...))` after `sat`: each term's value as SMT-LIB text, in order.
    fn get_value(&mut self, terms: &[&str]) -> Result<Vec<String>, String>;
}

/// Which solver a run uses (`--solver`, Boogie's `/proverOpt:SOLVER=` and `PROVER_PATH=`).
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum SolverChoice {
    /// Z3 linked in-process (the default: nothing to install).
    Z3InProcess,
    /// A solver binary over a pipe: its path and its arguments (`C:arg` adds some).
    Process { path: String, args: Vec<String>, dialect: Dialect },
}

/// What a solver process understands beyond SMT-LIB 2.6 (option names differ).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Dialect {
    Z3,
    Cvc5,
    Generic,
}
