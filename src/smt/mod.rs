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
//!
//! Backends: [`SolverChoice::Process`] (`pipe.rs`: any solver over pipes), [`SolverChoice::Z3InProcess`]
//! (`z3.rs`: libz3 through `z3-sys`), and [`canned`] (scripted answers, for tests). All three
//! are one [`Session`] implementation over a transport (`protocol.rs`), which holds the rules
//! Boogie follows for answers; [`sexpr`] reads responses; [`log`] is the `/proverLog` file.
//!
//! ## For the VC generator
//! [`configure`] turns the command line (`--solver`, `/proverOpt:`) into a [`SolverChoice`]
//! and [`SessionOptions`], once per run; [`start`] opens a session (one per implementation,
//! or one per thread, [`Session::reset`] between implementations as Boogie resets its solver
//! before each VC); then [`Session::send`] declarations and the VC, [`Session::check_sat`] with
//! the implementation's [`Limits`], and after [`Answer::Sat`] (or an
//! [`UnknownReason::Incomplete`] unknown, which Boogie also reports as errors)
//! [`Session::get_value`]. When [`Session::dead`] says so, drop the session and start a new one
//! for the next implementation: the fault was reported for this one.
//!
//! Houdini's unsat cores (`/useUnsatCoreForContractInfer`) are SMT-LIB's assumptions:
//! [`Session::check_sat_assuming`], then after `unsat` [`Session::unsat_assumptions`], in a
//! session opened with [`SessionOptions::unsat_assumptions`]. SMT-LIB's command for them is
//! `get-unsat-assumptions` (after `:produce-unsat-assumptions`), which cvc5 needs: its
//! `get-unsat-core` names only `:named` assertions and answers `()` whatever the proof used.
//! z3 4.8.12 understands it over a pipe only: in-process it refuses every `:produce-unsat-*`
//! option (its command interpreter counts as started as soon as it exists). So z3 sessions,
//! over a pipe as in-process, set z3's own `:unsat_core` parameter and ask `get-unsat-core`,
//! which in z3 lists the assumptions the proof used.
//!
//! Each [`Session::send`] takes whole commands (in-process Z3 runs each call as a script of
//! its own). For `/proverLog:FILE`, make one [`LogFiles`] per run from the file name, and
//! pass each session `LogFiles::open(implementation name)`: it names the files as Boogie does
//! (`@PROC@`, `.N` suffixes); comments sent (`; ...`) go to the log too. Sessions are `Send`:
//! `/vcsCores:N` runs one per thread. [`solver_time`] is the time all sessions so far spent
//! waiting for their solvers (starting them included), for figures of rboogie's own overhead.

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
    /// The solver answered `(error ...)`: it could not read the query rboogie wrote. Never a
    /// verdict: an internal error of rboogie's (the text is the solver's message).
    Rejected(String),
}

#[derive(Clone, Debug, PartialEq, Eq)]
pub enum UnknownReason {
    /// Resource limit (`/rlimit`) exhausted.
    OutOfResource,
    OutOfMemory,
    /// Incomplete theory or quantifiers, or no reason given (the text is the solver's reason).
    /// Boogie counts this outcome as *Invalid*: it reports errors from the model, so
    /// [`Session::get_value`] may be asked as after `sat`.
    Incomplete(String),
    /// Any other reason (`unknown`, a reason Boogie does not know): Boogie's *Undetermined*,
    /// reported as inconclusive.
    Undetermined(String),
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
    /// Begins a query under `limits`: what is sent from now on and the next check must all be
    /// done by one deadline, the time limit plus the watchdog's grace from now (the solver's
    /// own time limit still counts from its `check-sat`, as in Boogie). A solver that has not
    /// taken the text by then (z3 reading a huge VC) is stopped, the session dies, and the
    /// check answers [`Answer::Timeout`]. Without it, sends wait as long as the last check's
    /// limits allow, and a check as long as its own.
    fn begin_query(&mut self, _limits: &Limits) {}
    /// `(check-sat)` under `limits`.
    fn check_sat(&mut self, limits: &Limits) -> Answer;
    /// `(check-sat-assuming (l1 l2 ...))` under `limits`: [`Session::check_sat`] with the
    /// literals (Boolean constants, or their negations) assumed for this check only. No
    /// literals is a plain `(check-sat)` (cvc5 refuses `(check-sat-assuming ())`).
    fn check_sat_assuming(&mut self, limits: &Limits, literals: &[&str]) -> Answer;
    /// After `unsat`, the literals of the last [`Session::check_sat_assuming`] the proof
    /// needed (a subset, not always the least), as the solver prints them:
    /// `(get-unsat-assumptions)`, z3's `(get-unsat-core)`. Only in a session opened with
    /// [`SessionOptions::unsat_assumptions`]. An `(error ...)` answer is `Err` and the session
    /// goes on; a fault kills it.
    fn unsat_assumptions(&mut self) -> Result<Vec<String>, String>;
    /// `(get-value (t1 t2 ...))` after `sat`: each term's value as SMT-LIB text, in order.
    /// An `(error ...)` answer to it is `Err` and the session goes on; a fault kills it.
    fn get_value(&mut self, terms: &[&str]) -> Result<Vec<String>, String>;
    /// `(get-model)` after `sat`: the solver's answer as it gave it (z3 4.8.12, with Boogie's
    /// `model.v2`, answers a string in its old model format). Solvers that give none: `Err`.
    fn get_model(&mut self) -> Result<String, String> {
        Err("this solver gives no model".into())
    }
    /// Forgets everything sent since the start (SMT-LIB's `(reset)`; in-process Z3 gets a new
    /// context) and sends the preamble again, so that what the next check answers does not
    /// depend on what was checked before. A fault kills the session.
    fn reset(&mut self);
    /// Why the session can no longer be used (its first fault), if it cannot. A dead session
    /// answers every later call at once with [`Answer::Failed`] or `Err`.
    fn dead(&self) -> Option<&str> {
        None
    }
    /// Whether the solver reads Z3's `(_ map f)` ([`SolverChoice::reads_z3_map_operators`]).
    fn reads_z3_map_operators(&self) -> bool {
        true
    }
    /// The resources the solver spent on this session's checks so far, where it says
    /// ([`SessionOptions::count_resources`], z3 only); 0 otherwise.
    fn resource_count(&self) -> u64 {
        0
    }
}

/// Which solver a run uses (`--solver`, Boogie's `/proverOpt:SOLVER=` and `PROVER_PATH=`).
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum SolverChoice {
    /// Z3 linked in-process (the default: nothing to install).
    Z3InProcess,
    /// A solver binary over a pipe: its path and its arguments (`C:arg` adds some).
    Process { path: String, args: Vec<String>, dialect: Dialect },
    /// Boogie's no-op solver (`/proverOpt:SOLVER=noop`): it reads nothing and answers every
    /// query `unknown`, so every implementation with something to prove is inconclusive.
    Noop,
}

impl SolverChoice {
    /// Whether the solver reads arrays of several indexes (`(Array A B R)`): Z3 does, and
    /// Boogie gives it maps of several arguments so; SMT-LIB 2.6 and cvc5 have arrays of one.
    pub fn reads_multi_index_arrays(&self) -> bool {
        self.is_z3()
    }

    /// Whether the solver reads Z3's `(_ map f)`, which Boogie writes for its map operators
    /// (`{:builtin "MapAdd"}`, ...).
    pub fn reads_z3_map_operators(&self) -> bool {
        self.is_z3()
    }

    fn is_z3(&self) -> bool {
        matches!(self, SolverChoice::Z3InProcess | SolverChoice::Process { dialect: Dialect::Z3, .. })
    }
}

/// What a solver process understands beyond SMT-LIB 2.6 (option names differ).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Dialect {
    Z3,
    Cvc5,
    Generic,
}

pub mod builtins;
pub mod canned;
pub mod log;
pub mod names;
mod pipe;
mod protocol;
pub mod sexpr;
mod z3;

/// The fallback for Z3 calls that outlive their limit (see `z3`'s module header).
pub use z3::{
    SERVER_FLAG as Z3_SERVER_FLAG, serve as serve_z3, stop_prewarming as stop_prewarming_z3,
    use_server as use_z3_server,
};

pub use log::{LogFiles, ProverLog, substitute_proc};

use std::sync::atomic::{AtomicU64, Ordering};
use std::time::{Duration, Instant};

/// Nanoseconds every session of the process spent in its solver (see [`solver_time`]).
static SOLVER_NANOS: AtomicU64 = AtomicU64::new(0);

/// The time all sessions of the process spent so far in their solvers: in-process Z3's calls,
/// a solver process's start and the waits for its answers. Threads add up (`/vcsCores`).
pub fn solver_time() -> Duration {
    Duration::from_nanos(SOLVER_NANOS.load(Ordering::Relaxed))
}

fn count_solver_time(since: Instant) {
    SOLVER_NANOS.fetch_add(since.elapsed().as_nanos() as u64, Ordering::Relaxed);
}

/// How a session talks to its solver, whichever solver it is.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct SessionOptions {
    /// `/proverOpt:O:name=value`, in order: each is sent as `(set-option :name value)` at the
    /// start, after the solver's defaults (Boogie's weak options, which one of these with the
    /// same name replaces).
    pub smt_options: Vec<(String, String)>,
    /// `/proverOpt:LOGIC=`: sent as `(set-logic ...)`; cvc5 gets `ALL` when it is not given.
    pub logic: Option<String>,
    /// The session will ask which assumptions a proof needed
    /// ([`Session::unsat_assumptions`]): the option that enables it is sent with the others,
    /// before any assertion (z3 and cvc5 refuse it later). Only Houdini's sessions under
    /// `/useUnsatCoreForContractInfer` and the sessions of `/trackVerificationCoverage` set
    /// it, so that every other session's text (and `/proverLog`) is what it was without it.
    pub unsat_assumptions: bool,
    /// With [`SessionOptions::unsat_assumptions`], cvc5 is asked for minimal cores
    /// (`:minimal-unsat-cores`): its cores otherwise hold every assumption it was given, and a
    /// proof's dependencies (`/trackVerificationCoverage`) would be all the program's. z3's
    /// cores are close to minimal as they are (Boogie's expected lists are z3's).
    pub minimal_cores: bool,
    /// z3 is asked after every check how many resources it spent (`(get-info :rlimit)`, as
    /// Boogie asks), for `/trace`'s `solver resource count`. Off otherwise, so that other
    /// runs' sessions (and `/proverLog`) do not carry the extra request.
    pub count_resources: bool,
    /// z3's arrays without extensionality (Corral's mode, see
    /// [`crate::cli::Bounded::extensional_arrays`]): `smt.array.extensional` is set false, unless the
    /// user gave it. Other solvers are not told.
    pub weak_arrays: bool,
    /// z3 gets one round of model-based quantifier instantiation (`smt.mbqi.max_iterations=1`)
    /// unless the user turned MBQI on (`smt.mbqi=true`). Boogie's options turn MBQI off, but
    /// z3 4.8.12 still runs its rounds on some queries (seen on the stratified search's
    /// first query of a SMACK program with float-int conversion axioms: every round costlier
    /// than the one before, no answer in minutes; with one round, `unknown` in 40 ms, as the
    /// eager query answers at once). Set in Corral's mode only (every session of the run, like
    /// [`SessionOptions::weak_arrays`]): a Boogie-mode session keeps Boogie's options exactly.
    /// In-process, both are kept per session, as the limits are (see `z3.rs`).
    pub one_mbqi_round: bool,
    /// How long after a time limit the watchdog waits for the solver's own `unknown` before it
    /// kills (or interrupts) the solver.
    pub watchdog_grace: Duration,
    /// The bound on a wait when there is no time limit: a solver that stops answering (alive
    /// but silent) is given up on after this long. A solver that dies is noticed at once.
    pub unbounded_wait: Duration,
}

impl Default for SessionOptions {
    fn default() -> SessionOptions {
        SessionOptions {
            smt_options: Vec::new(),
            logic: None,
            unsat_assumptions: false,
            minimal_cores: false,
            count_resources: false,
            weak_arrays: false,
            one_mbqi_round: false,
            watchdog_grace: Duration::from_secs(2),
            unbounded_wait: Duration::from_secs(3600),
        }
    }
}

impl SolverChoice {
    /// The `z3` binary over a pipe, as Boogie runs it.
    pub fn z3_process() -> SolverChoice {
        SolverChoice::Process { path: "z3".into(), args: default_args(Dialect::Z3), dialect: Dialect::Z3 }
    }

    /// The `cvc5` binary over a pipe, as Boogie runs it.
    pub fn cvc5_process() -> SolverChoice {
        SolverChoice::Process { path: "cvc5".into(), args: default_args(Dialect::Cvc5), dialect: Dialect::Cvc5 }
    }

    /// `--solver` values: `z3`, `cvc5`, `in-process`, or a command line (`PATH ARGS...`, split
    /// at white space). A command is z3 or cvc5 when its file name says so; with no arguments
    /// it gets that solver's usual ones.
    pub fn from_name(name: &str) -> Result<SolverChoice, String> {
        match name {
            "z3" => return Ok(SolverChoice::z3_process()),
            "cvc5" => return Ok(SolverChoice::cvc5_process()),
            "in-process" => return Ok(SolverChoice::Z3InProcess),
            _ => {}
        }
        let mut words = name.split_whitespace().map(str::to_string);
        let path = words.next().ok_or("--solver needs a solver name or command")?;
        let args: Vec<String> = words.collect();
        let dialect = dialect_of(&path);
        let args = if args.is_empty() { default_args(dialect) } else { args };
        Ok(SolverChoice::Process { path, args, dialect })
    }
}

/// z3 or cvc5 by the file name of a solver binary.
fn dialect_of(path: &str) -> Dialect {
    let file = path.rsplit('/').next().unwrap_or(path).to_ascii_lowercase();
    if file.contains("cvc5") {
        Dialect::Cvc5
    } else if file.contains("z3") {
        Dialect::Z3
    } else {
        Dialect::Generic
    }
}

/// The arguments Boogie starts each solver with (`SMTLibSolverOptions.PostParse`), and for
/// cvc5 `--fp-exp`: without it cvc5 refuses floats other than `float24e8` and `float53e11`,
/// which Boogie programs may declare (`float11e5`, ...).
fn default_args(dialect: Dialect) -> Vec<String> {
    let args: &[&str] = match dialect {
        Dialect::Z3 => &["-smt2", "-in"],
        Dialect::Cvc5 => &[
            "--lang=smt",
            "--no-strict-parsing",
            "--no-condense-function-values",
            "--incremental",
            "--produce-models",
            "--fp-exp",
        ],
        Dialect::Generic => &[],
    };
    args.iter().map(|a| a.to_string()).collect()
}

/// The solver and session options the command line asks for: `--solver`, then Boogie's
/// `/proverOpt:` values (`SOLVER=z3|cvc5|yices2`, `PROVER_PATH=`, `LOGIC=`, `O:name=value`,
/// `C:arg`; Boogie's other generic prover options are accepted and ignored). `--solver` wins
/// over `SOLVER=` and `PROVER_PATH=`. With neither, z3 runs in-process unless `C:` arguments
/// ask for a process. Errors are in Boogie's words.
pub fn configure(options: &crate::cli::Options) -> Result<(SolverChoice, SessionOptions), String> {
    // `/trackVerificationCoverage` reads the literals of unsat cores.
    let tracking = options.track_verification_coverage;
    let mut session = SessionOptions {
        unsat_assumptions: tracking,
        minimal_cores: tracking,
        count_resources: options.trace,
        weak_arrays: options.bounded.active() && !options.bounded.extensional_arrays,
        one_mbqi_round: options.bounded.active(),
        ..SessionOptions::default()
    };
    let mut solver: Option<Dialect> = None;
    let mut yices = false;
    let mut noop = false;
    let mut path: Option<String> = None;
    let mut extra_args = Vec::new();
    for opt in &options.prover_options {
        let value = |name: &str| -> Option<String> {
            let rest = opt.strip_prefix(name)?;
            if rest.is_empty() {
                Some(String::new())
            } else if rest.starts_with(['=', ':']) {
                Some(rest[1..].to_string())
            } else {
                None
            }
        };
        if let Some(o) = opt.strip_prefix("O:") {
            match o.split_once('=') {
                Some((name, value)) if !name.is_empty() && !value.is_empty() => {
                    session.smt_options.push((name.to_string(), value.to_string()))
                }
                _ => {
                    return Err(format!(
                        "Options to be passed to the prover should have the format: <name>=<value>, got '{o}'"
                    ));
                }
            }
        } else if let Some(arg) = opt.strip_prefix("C:") {
            extra_args.extend(arg.split_whitespace().map(str::to_string));
        } else if let Some(kind) = value("SOLVER") {
            match kind.to_ascii_lowercase().as_str() {
                "z3" => solver = Some(Dialect::Z3),
                "cvc5" => solver = Some(Dialect::Cvc5),
                "yices2" => {
                    solver = Some(Dialect::Generic);
                    yices = true;
                }
                "noop" => noop = true,
                _ => return Err("Invalid SOLVER value; must be 'Z3' or 'CVC5' or 'Yices2' or 'noop'".into()),
            }
        } else if let Some(p) = value("PROVER_PATH") {
            path = Some(p);
        } else if let Some(logic) = value("LOGIC") {
            session.logic = Some(logic);
        } else if [
            "PROVER_NAME",
            "LOG_FILE",
            "APPEND_LOG_FILE",
            "FORCE_LOG_STATUS",
            "MEMORY_LIMIT",
            "VERBOSITY",
            "TIME_LIMIT",
            "BATCH_MODE",
            "USE_WEIGHTS",
            "INSPECTOR",
        ]
        .iter()
        .any(|name| value(name).is_some())
        {
        } else {
            return Err(format!("Unrecognised prover option: {opt}"));
        }
    }
    let mut choice = if let Some(name) = &options.solver {
        SolverChoice::from_name(name)?
    } else if noop {
        SolverChoice::Noop
    } else {
        match (solver, path) {
            (None | Some(Dialect::Z3), None) if extra_args.is_empty() => SolverChoice::Z3InProcess,
            (dialect, path) => {
                let dialect = dialect.unwrap_or(Dialect::Z3);
                let name = match dialect {
                    Dialect::Z3 => "z3",
                    Dialect::Cvc5 => "cvc5",
                    Dialect::Generic => "yices-smt2",
                };
                let mut args = default_args(dialect);
                if yices {
                    args = vec!["--incremental".into()];
                    session.logic.get_or_insert_with(|| "ALL".into());
                }
                SolverChoice::Process { path: path.unwrap_or_else(|| name.into()), args, dialect }
            }
        }
    };
    if let SolverChoice::Process { args, .. } = &mut choice {
        args.extend(extra_args);
    }
    Ok((choice, session))
}

/// Opens a session with `choice`: starts the solver (or a Z3 context) and sends the preamble
/// (Boogie's options for that solver, `options`, the logic). `log`, when given, receives every
/// byte sent, from the preamble on. `Err` when the solver cannot be started.
pub fn start(
    choice: &SolverChoice,
    options: &SessionOptions,
    log: Option<ProverLog>,
) -> Result<Box<dyn Session>, String> {
    let started = Instant::now();
    match choice {
        SolverChoice::Z3InProcess => {
            let transport = z3::Z3Transport::new(&preamble(Dialect::Z3, options));
            count_solver_time(started);
            Ok(Box::new(protocol::SmtSession::new(transport?, Dialect::Z3, options.clone(), log)))
        }
        SolverChoice::Process { path, args, dialect } => {
            let transport = pipe::PipeTransport::spawn(path, args);
            count_solver_time(started);
            Ok(Box::new(protocol::SmtSession::new(transport?, *dialect, options.clone(), log)))
        }
        SolverChoice::Noop => Ok(Box::new(NoopSession)),
    }
}

/// From now on Z3 contexts for sessions with `options` are made ahead of need
/// ([`z3::prewarm_contexts`]).
pub fn prewarm_z3_contexts(options: &SessionOptions) {
    z3::prewarm_contexts(&preamble(Dialect::Z3, options));
}

/// Boogie's `NoopSolver`: every `(check-sat)` is `unknown` for no reason it can name, which
/// is never a verdict (rboogie reports the implementation inconclusive).
struct NoopSession;

impl Session for NoopSession {
    fn send(&mut self, _commands: &str) {}

    fn check_sat(&mut self, _limits: &Limits) -> Answer {
        Answer::Unknown(UnknownReason::Undetermined("noop".into()))
    }

    fn check_sat_assuming(&mut self, limits: &Limits, _literals: &[&str]) -> Answer {
        self.check_sat(limits)
    }

    fn unsat_assumptions(&mut self) -> Result<Vec<String>, String> {
        Err("unsat assumptions are not available".into())
    }

    fn get_value(&mut self, _terms: &[&str]) -> Result<Vec<String>, String> {
        Err("model is not available".into())
    }

    fn reset(&mut self) {}
}

/// What every session sends first (Boogie's `PrepareCommon`), such that the log runs
/// stand-alone: cvc5's `:incremental` is set here as well as on its command line.
fn preamble(dialect: Dialect, options: &SessionOptions) -> String {
    let mut text = String::from("(set-option :print-success false)\n(set-info :smt-lib-version 2.6)\n");
    if dialect == Dialect::Cvc5 {
        text += "(set-option :incremental true)\n";
        // Without it cvc5 rejects the string operators beyond concatenation, length and
        // regular expressions (`str.substr`, `str.indexof`, ...), which z3 reads as they are.
        text += "(set-option :strings-exp true)\n";
    }
    text += "(set-option :produce-models true)\n";
    if options.unsat_assumptions {
        // See "Houdini's unsat cores" in the module header.
        text += match dialect {
            Dialect::Z3 => "(set-option :unsat_core true)\n",
            _ => "(set-option :produce-unsat-assumptions true)\n",
        };
        if options.minimal_cores && dialect == Dialect::Cvc5 {
            text += "(set-option :minimal-unsat-cores true)\n";
        }
    }
    // Boogie's `Z3.SetDefaultOptions`, each unless the user gave it.
    let defaults: &[(&str, &str)] = match dialect {
        Dialect::Z3 => {
            &[("smt.mbqi", "false"), ("model.compact", "false"), ("model.v2", "true"), ("pp.bv_literals", "false")]
        }
        _ => &[],
    };
    let weak: &[(&str, &str)] =
        if options.weak_arrays && dialect == Dialect::Z3 { &[("smt.array.extensional", "false")] } else { &[] };
    let mbqi_on = options.smt_options.iter().any(|(n, v)| n == "smt.mbqi" && v == "true");
    let rounds: &[(&str, &str)] = if options.one_mbqi_round && dialect == Dialect::Z3 && !mbqi_on {
        &[("smt.mbqi.max_iterations", "1")]
    } else {
        &[]
    };
    for (name, value) in defaults.iter().chain(weak).chain(rounds) {
        if !options.smt_options.iter().any(|(n, _)| n == name) {
            text += &format!("(set-option :{name} {value})\n");
        }
    }
    for (name, value) in &options.smt_options {
        text += &format!("(set-option :{name} {value})\n");
    }
    let logic = options.logic.clone().or_else(|| (dialect == Dialect::Cvc5).then(|| "ALL".to_string()));
    if let Some(logic) = logic.filter(|l| !l.is_empty()) {
        text += &format!("(set-logic {logic})\n");
    }
    text += "; done setting options\n";
    text
}
