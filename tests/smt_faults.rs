//! The solver backends: faults (fake solvers in tests/fake_solvers/ that hang, die, babble),
//! Boogie's classification of answers (canned scripts), and the same small scripts through
//! in-process Z3, `z3` over a pipe and `cvc5` over a pipe, which must answer alike; the prover
//! log of each replays stand-alone in its solver.
//!
//! Every wait is bounded: a test that hangs is a failing test, so each fault test also checks
//! that its answer came within the time limit and the watchdog's grace.

use rboogie::smt::canned::{self, Reply};
use rboogie::smt::{self, Answer, Dialect, Limits, ProverLog, Session, SessionOptions, SolverChoice, UnknownReason};
use std::time::{Duration, Instant};

const ONE_SECOND: Limits = Limits { time_limit_s: 1, resource_limit: 0 };
const NO_LIMIT: Limits = Limits { time_limit_s: 0, resource_limit: 0 };

fn quick() -> SessionOptions {
    SessionOptions {
        watchdog_grace: Duration::from_millis(500),
        unbounded_wait: Duration::from_secs(2),
        ..SessionOptions::default()
    }
}

fn fake(name: &str) -> SolverChoice {
    SolverChoice::Process {
        path: format!("{}/tests/fake_solvers/{name}", env!("CARGO_MANIFEST_DIR")),
        args: Vec::new(),
        dialect: Dialect::Generic,
    }
}

fn start(choice: &SolverChoice) -> Box<dyn Session> {
    smt::start(choice, &quick(), None).expect("the solver starts")
}

/// Runs `f` and checks it took less than `bound`.
fn within<T>(bound: Duration, f: impl FnOnce() -> T) -> T {
    let started = Instant::now();
    let result = f();
    assert!(started.elapsed() < bound, "took {:?}, more than {bound:?}", started.elapsed());
    result
}

const DECLS: &str = "(declare-fun x () Int)\n(assert (> x 3))\n";

// ---------------------------------------------------------------------------------------------
// Fake solvers

#[test]
fn a_solver_that_hangs_times_out_at_the_limit() {
    let mut s = start(&fake("hang.sh"));
    s.send(DECLS);
    let answer = within(Duration::from_secs(4), || s.check_sat(&ONE_SECOND));
    assert_eq!(answer, Answer::Timeout);
    assert!(s.dead().is_some());
    // Dead: later calls fail at once.
    assert!(matches!(within(Duration::from_millis(100), || s.check_sat(&ONE_SECOND)), Answer::Failed(_)));
    assert!(within(Duration::from_millis(100), || s.get_value(&["x"])).is_err());
}

#[test]
fn a_solver_that_hangs_with_no_time_limit_is_given_up_on() {
    let mut s = start(&fake("hang.sh"));
    let answer = within(Duration::from_secs(4), || s.check_sat(&NO_LIMIT));
    assert_eq!(answer, Answer::Timeout);
}

#[test]
fn a_solver_that_exits_fails_the_query_at_once() {
    let mut s = start(&fake("exit.sh"));
    s.send(DECLS);
    let Answer::Failed(why) = within(Duration::from_secs(1), || s.check_sat(&ONE_SECOND)) else {
        panic!("not a failure")
    };
    assert!(why.contains("exit status: 3") && why.contains("fake solver: giving up"), "{why}");
    assert!(s.dead().is_some());
}

#[test]
fn a_solver_that_prints_garbage_fails_the_query() {
    let mut s = start(&fake("garbage.sh"));
    s.send(DECLS);
    let Answer::Failed(why) = within(Duration::from_secs(1), || s.check_sat(&ONE_SECOND)) else {
        panic!("not a failure")
    };
    assert!(why.starts_with("unexpected solver output: Segmentation"), "{why}");
}

#[test]
fn a_solver_error_fails_the_query() {
    let mut s = start(&fake("error.sh"));
    let answer = within(Duration::from_secs(1), || s.check_sat(&ONE_SECOND));
    assert_eq!(answer, Answer::Rejected("line 7 column 2: out of cheese".into()));
}

#[test]
fn a_solver_silent_after_sat_fails_get_value_within_the_limit() {
    let mut s = start(&fake("sat_then_silent.sh"));
    assert_eq!(s.check_sat(&ONE_SECOND), Answer::Sat);
    let values = within(Duration::from_secs(3), || s.get_value(&["x"]));
    assert!(values.is_err());
    assert!(s.dead().is_some());
}

#[test]
fn a_solver_that_dies_mid_session_fails_that_query_only() {
    let mut s = start(&fake("dies_mid_query.sh"));
    assert_eq!(s.check_sat(&ONE_SECOND), Answer::Unsat);
    let Answer::Failed(why) = within(Duration::from_secs(1), || s.check_sat(&ONE_SECOND)) else {
        panic!("not a failure")
    };
    assert!(why.contains("closed its output"), "{why}");
}

#[test]
fn a_solver_that_babbles_is_stopped() {
    let mut s = start(&fake("babble.sh"));
    let answer = within(Duration::from_secs(4), || s.check_sat(&ONE_SECOND));
    assert!(matches!(answer, Answer::Timeout | Answer::Failed(_)), "{answer:?}");
}

#[test]
fn a_solver_time_out_keeps_the_session() {
    let mut s = start(&fake("unknown_timeout.sh"));
    assert_eq!(s.check_sat(&ONE_SECOND), Answer::Timeout);
    assert_eq!(s.dead(), None);
    assert_eq!(s.check_sat(&ONE_SECOND), Answer::Timeout);
}

#[test]
fn a_missing_solver_cannot_start() {
    let err = smt::start(&fake("no-such-solver"), &quick(), None).err().expect("no session");
    assert!(err.starts_with("cannot start solver"), "{err}");
}

#[test]
fn after_a_fault_a_new_session_verifies() {
    let mut s = start(&fake("hang.sh"));
    assert_eq!(s.check_sat(&ONE_SECOND), Answer::Timeout);
    drop(s);
    let mut s = start(&SolverChoice::Z3InProcess);
    s.send("(declare-fun x () Int)\n(assert (and (> x 3) (< x 3)))\n");
    assert_eq!(s.check_sat(&ONE_SECOND), Answer::Unsat);
}

/// A session that will ask for unsat assumptions.
fn with_cores() -> SessionOptions {
    SessionOptions { unsat_assumptions: true, ..quick() }
}

#[test]
fn a_solver_that_hangs_times_out_under_assumptions() {
    let mut s = smt::start(&fake("hang.sh"), &with_cores(), None).unwrap();
    let answer = within(Duration::from_secs(4), || s.check_sat_assuming(&ONE_SECOND, &["b"]));
    assert_eq!(answer, Answer::Timeout);
    assert!(s.dead().is_some());
    assert!(within(Duration::from_millis(100), || s.unsat_assumptions()).is_err());
}

#[test]
fn a_solver_silent_after_unsat_fails_unsat_assumptions_within_the_limit() {
    let mut s = smt::start(&fake("hang_after_first.sh"), &with_cores(), None).unwrap();
    assert_eq!(s.check_sat_assuming(&ONE_SECOND, &["b", "(not c)"]), Answer::Unsat);
    let core = within(Duration::from_secs(3), || s.unsat_assumptions());
    assert_eq!(core, Err("no answer within the time limit".to_string()));
    assert!(s.dead().is_some());
    assert!(matches!(within(Duration::from_millis(100), || s.check_sat(&ONE_SECOND)), Answer::Failed(_)));
}

#[test]
fn a_solver_that_exits_fails_check_sat_assuming_at_once() {
    let mut s = smt::start(&fake("exit.sh"), &with_cores(), None).unwrap();
    let answer = within(Duration::from_secs(1), || s.check_sat_assuming(&ONE_SECOND, &["b"]));
    assert!(matches!(answer, Answer::Failed(ref why) if why.contains("exit status: 3")), "{answer:?}");
}

// ---------------------------------------------------------------------------------------------
// Canned scripts: Boogie's classification of answers

fn canned_answer(dialect: Dialect, limits: &Limits, script: &[&str]) -> Answer {
    let mut s = canned::start(script.iter().map(|&r| Reply::from(r)), dialect, &quick(), None);
    s.check_sat(limits)
}

#[test]
fn unknown_is_classified_as_boogie_does() {
    use UnknownReason::*;
    let cases: &[(&str, Limits, Answer)] = &[
        ("\"(incomplete quantifiers)\"", ONE_SECOND, Answer::Unknown(Incomplete("(incomplete quantifiers)".into()))),
        ("incomplete", ONE_SECOND, Answer::Unknown(Incomplete("incomplete".into()))),
        ("\"\"", ONE_SECOND, Answer::Unknown(Incomplete("".into()))),
        ("\"timeout\"", ONE_SECOND, Answer::Timeout),
        ("timeout", ONE_SECOND, Answer::Timeout),
        ("canceled", ONE_SECOND, Answer::Timeout),
        ("canceled", NO_LIMIT, Answer::Unknown(OutOfResource)),
        ("\"max. resource limit exceeded\"", NO_LIMIT, Answer::Unknown(OutOfResource)),
        ("\"(resource limits reached)\"", NO_LIMIT, Answer::Unknown(OutOfResource)),
        ("memout", NO_LIMIT, Answer::Unknown(OutOfMemory)),
        ("unknown", NO_LIMIT, Answer::Unknown(Undetermined("unknown".into()))),
        ("\"(theory foo)\"", NO_LIMIT, Answer::Unknown(Undetermined("(theory foo)".into()))),
    ];
    for (reason, limits, expected) in cases {
        let reply = format!("(:reason-unknown {reason})");
        assert_eq!(&canned_answer(Dialect::Generic, limits, &["unknown", &reply]), expected, "{reason}");
    }
    // An error in place of the reason: Boogie keeps the outcome Invalid.
    assert_eq!(
        canned_answer(Dialect::Generic, &NO_LIMIT, &["unknown", "(error \"no reason\")"]),
        Answer::Unknown(Incomplete("".into()))
    );
}

#[test]
fn answers_and_errors_are_classified_as_boogie_does() {
    let limits = NO_LIMIT;
    assert_eq!(canned_answer(Dialect::Generic, &limits, &["success", "unsupported", "sat"]), Answer::Sat);
    assert_eq!(canned_answer(Dialect::Generic, &limits, &["unsat"]), Answer::Unsat);
    assert_eq!(
        canned_answer(Dialect::Generic, &limits, &["(error \"max. resource limit exceeded\")"]),
        Answer::Unknown(UnknownReason::OutOfResource)
    );
    // An error is the solver refusing what rboogie wrote: an internal error, never a verdict.
    assert!(matches!(canned_answer(Dialect::Generic, &limits, &["(error \"boom\")"]), Answer::Rejected(_)));
    assert!(matches!(canned_answer(Dialect::Generic, &limits, &["satisfiable"]), Answer::Failed(_)));
    assert!(matches!(canned_answer(Dialect::Generic, &limits, &[]), Answer::Failed(_)));
    // z3 with /rlimit: the limit used up is out of resource, whatever z3 said (z3 stops a
    // query when its count reaches the limit).
    let rlimit = Limits { time_limit_s: 0, resource_limit: 1000 };
    assert_eq!(
        canned_answer(Dialect::Z3, &rlimit, &["sat", "(:rlimit 1000)"]),
        Answer::Unknown(UnknownReason::OutOfResource)
    );
    assert_eq!(canned_answer(Dialect::Z3, &rlimit, &["sat", "(:rlimit 999)"]), Answer::Sat);
    assert_eq!(canned_answer(Dialect::Z3, &rlimit, &["unsat"]), Answer::Unsat);
}

#[test]
fn canned_get_value_and_the_log() {
    let (log, text) = ProverLog::memory();
    let script = ["sat", "((x 4)\n ((+ x 1) 5))", "(error \"model is not available\")", "unsat"];
    let mut s = canned::start(script.map(Reply::from), Dialect::Z3, &quick(), Some(log));
    s.send(DECLS);
    assert_eq!(s.check_sat(&ONE_SECOND), Answer::Sat);
    assert_eq!(s.get_value(&["x", "(+ x 1)"]), Ok(vec!["4".to_string(), "5".to_string()]));
    assert_eq!(s.get_value(&["x"]), Err("model is not available".to_string()));
    assert_eq!(s.dead(), None);
    assert_eq!(s.check_sat(&ONE_SECOND), Answer::Unsat);
    let text = String::from_utf8(text.lock().unwrap().clone()).unwrap();
    let after_preamble = text.split("; done setting options\n").nth(1).unwrap();
    assert_eq!(
        after_preamble,
        "(declare-fun x () Int)\n(assert (> x 3))\n(set-option :timeout 1000)\n(check-sat)\n\
         (get-value (x (+ x 1)))\n(get-value (x))\n(check-sat)\n"
    );
    assert!(text.starts_with("(set-option :print-success false)\n(set-info :smt-lib-version 2.6)\n"));
    assert!(text.contains("(set-option :smt.mbqi false)\n"));
}

/// `check-sat-assuming` is answered as `check-sat` is; the unsat assumptions are asked for in
/// each dialect's words and read as the solver prints them; an error answers that request
/// only, and anything else kills the session.
#[test]
fn canned_check_sat_assuming_and_unsat_assumptions() {
    let dialects = [
        (Dialect::Z3, "(set-option :unsat_core true)\n", "(get-unsat-core)\n"),
        (Dialect::Cvc5, "(set-option :produce-unsat-assumptions true)\n", "(get-unsat-assumptions)\n"),
        (Dialect::Generic, "(set-option :produce-unsat-assumptions true)\n", "(get-unsat-assumptions)\n"),
    ];
    for (dialect, option, request) in dialects {
        let (log, text) = ProverLog::memory();
        let script = ["unsat", "(a\n |b c|)", "unsat", "(error \"no core\")", "sat", "unsat", "unsat", "unsat"];
        let mut s = canned::start(script.map(Reply::from), dialect, &with_cores(), Some(log));
        assert_eq!(s.check_sat_assuming(&NO_LIMIT, &["a", "|b c|", "(not d)"]), Answer::Unsat);
        assert_eq!(s.unsat_assumptions(), Ok(vec!["a".to_string(), "|b c|".to_string()]));
        assert_eq!(s.check_sat_assuming(&NO_LIMIT, &["a"]), Answer::Unsat);
        assert_eq!(s.unsat_assumptions(), Err("no core".to_string()));
        assert_eq!(s.dead(), None);
        assert_eq!(s.check_sat_assuming(&NO_LIMIT, &["a"]), Answer::Sat);
        // Nothing to assume: a plain check-sat (cvc5 refuses an empty list).
        assert_eq!(s.check_sat_assuming(&NO_LIMIT, &[]), Answer::Unsat);
        // `unsat` is no list of literals.
        assert_eq!(s.check_sat_assuming(&NO_LIMIT, &["a"]), Answer::Unsat);
        assert!(s.unsat_assumptions().unwrap_err().starts_with("unexpected"));
        assert!(s.dead().is_some());
        let text = String::from_utf8(text.lock().unwrap().clone()).unwrap();
        let (preamble, rest) = text.split_once("; done setting options\n").unwrap();
        assert_eq!(preamble.matches(option).count(), 1, "{dialect:?}: {preamble}");
        assert_eq!(
            rest,
            format!(
                "(check-sat-assuming (a |b c| (not d)))\n{request}(check-sat-assuming (a))\n{request}\
                 (check-sat-assuming (a))\n(check-sat)\n(check-sat-assuming (a))\n{request}"
            ),
            "{dialect:?}"
        );
    }
}

/// Sessions that do not ask for cores send what they sent before cores existed.
#[test]
fn only_sessions_that_ask_for_cores_enable_them() {
    for dialect in [Dialect::Z3, Dialect::Cvc5, Dialect::Generic] {
        let (log, text) = ProverLog::memory();
        drop(canned::start([], dialect, &quick(), Some(log)));
        let text = String::from_utf8(text.lock().unwrap().clone()).unwrap();
        assert!(!text.contains("unsat"), "{dialect:?}: {text}");
    }
}

/// The preamble a session sends, in `dialect`, with `options`.
fn preamble_of(dialect: Dialect, options: &SessionOptions) -> String {
    let (log, text) = ProverLog::memory();
    drop(canned::start([], dialect, options, Some(log)));
    String::from_utf8(text.lock().unwrap().clone()).unwrap()
}

/// Corral's arrays without extensionality and the search's single MBQI round reach z3 only,
/// only in the sessions that ask for them, and give way to the user's own values.
#[test]
fn weak_arrays_and_one_mbqi_round_are_z3_options_of_the_sessions_that_ask() {
    let asked = SessionOptions { weak_arrays: true, one_mbqi_round: true, ..quick() };
    let z3 = preamble_of(Dialect::Z3, &asked);
    assert!(z3.contains("(set-option :smt.array.extensional false)\n"), "{z3}");
    assert!(z3.contains("(set-option :smt.mbqi.max_iterations 1)\n"), "{z3}");
    for dialect in [Dialect::Cvc5, Dialect::Generic] {
        let text = preamble_of(dialect, &asked);
        assert!(!text.contains("extensional") && !text.contains("max_iterations"), "{dialect:?}: {text}");
    }
    let plain = preamble_of(Dialect::Z3, &quick());
    assert!(!plain.contains("extensional") && !plain.contains("max_iterations"), "{plain}");
    // MBQI turned on by the user: its rounds are not cut.
    let mbqi = SessionOptions { smt_options: vec![("smt.mbqi".into(), "true".into())], ..asked.clone() };
    let text = preamble_of(Dialect::Z3, &mbqi);
    assert!(!text.contains("max_iterations") && text.contains("(set-option :smt.mbqi true)"), "{text}");
    // The user's own value is the one sent.
    let own = SessionOptions { smt_options: vec![("smt.array.extensional".into(), "true".into())], ..asked };
    let text = preamble_of(Dialect::Z3, &own);
    assert_eq!(text.matches("smt.array.extensional").count(), 1, "{text}");
    assert!(text.contains("(set-option :smt.array.extensional true)"), "{text}");
}

#[test]
fn canned_faults_kill_the_session() {
    let _serial = serial();
    let mut s = canned::start([Reply::Timeout], Dialect::Generic, &quick(), None);
    assert_eq!(s.check_sat(&ONE_SECOND), Answer::Timeout);
    assert_eq!(s.dead(), Some("no answer within the time limit"));
    let mut s = canned::start([Reply::Died("gone".into())], Dialect::Generic, &quick(), None);
    assert_eq!(s.check_sat(&ONE_SECOND), Answer::Failed("gone".into()));
}

// ---------------------------------------------------------------------------------------------
// Real solvers: in-process Z3, z3 and cvc5 over pipes

fn on_path(binary: &str) -> bool {
    std::env::var_os("PATH").is_some_and(|p| std::env::split_paths(&p).any(|d| d.join(binary).is_file()))
}

/// The backends to compare, with the binary each replays its log in. A missing binary is
/// skipped with a note (the project's test command installs both).
/// The tests that run every backend, and time solvers against the clock, run one at a time:
/// two hard queries at once on a loaded machine could miss a deadline.
fn serial() -> std::sync::MutexGuard<'static, ()> {
    static SERIAL: std::sync::Mutex<()> = std::sync::Mutex::new(());
    SERIAL.lock().unwrap_or_else(std::sync::PoisonError::into_inner)
}

fn backends() -> Vec<(&'static str, SolverChoice)> {
    let mut all = vec![("in-process", SolverChoice::Z3InProcess)];
    for (name, choice) in [("z3", SolverChoice::z3_process()), ("cvc5", SolverChoice::cvc5_process())] {
        if on_path(name) {
            all.push((name, choice));
        } else {
            eprintln!("note: {name} is not installed; its backend is not tested");
        }
    }
    all
}

/// Runs the same conversation on a session; returns what it observed, one line per answer.
fn conversation(s: &mut dyn Session) -> Vec<String> {
    let mut seen = Vec::new();
    s.send("(declare-fun x () Int)\n(declare-fun y () Int)\n(declare-fun b () Bool)\n(declare-fun f (Int) Int)\n");
    s.send("(push 1)\n(assert (= x 4))\n(assert (= y (- x 7)))\n(assert (= b (> y x)))\n");
    seen.push(format!("{:?}", s.check_sat(&ONE_SECOND)));
    seen.push(format!("{:?}", s.get_value(&["x", "y", "(+ x y)", "b"])));
    s.send("(pop 1)\n(push 1)\n(assert (and (> x 3) (< x 4)))\n");
    seen.push(format!("{:?}", s.check_sat(&ONE_SECOND)));
    s.send("(pop 1)\n(push 1)\n(assert (forall ((z Int)) (! (> (f z) z) :pattern ((f z)))))\n(assert (< (f x) x))\n");
    seen.push(format!("{:?}", s.check_sat(&ONE_SECOND)));
    s.send("(pop 1)\n(push 1)\n(assert (= (f 3) 7))\n");
    seen.push(format!("{:?}", s.check_sat(&NO_LIMIT)));
    seen.push(format!("{:?}", s.get_value(&["(f 3)"])));
    s.send("(pop 1)\n");
    seen.push(format!("{:?}", s.dead()));
    seen
}

#[test]
fn backends_answer_alike() {
    let _serial = serial();
    let expected = ["Sat", r#"Ok(["4", "(- 3)", "1", "false"])"#, "Unsat", "Unsat", "Sat", r#"Ok(["7"])"#, "None"];
    for (name, choice) in backends() {
        let mut s = start(&choice);
        assert_eq!(conversation(s.as_mut()), expected, "{name}");
    }
}

/// `/vcsCores:N`: sessions in parallel threads (in-process Z3 shares some global parameters).
/// One at a time with the other tests that run every backend: beside their hard queries, on two
/// cores, its one-second checks sometimes timed out.
#[test]
fn sessions_in_parallel_threads_answer_alike() {
    let _serial = serial();
    let threads: Vec<_> = (0..4)
        .map(|i| {
            std::thread::spawn(move || {
                let choice = if i % 2 == 0 { SolverChoice::Z3InProcess } else { SolverChoice::z3_process() };
                let mut s = start(&choice);
                (0..5)
                    .map(|_| {
                        s.send("(push 1)\n");
                        let seen = conversation(s.as_mut());
                        s.send("(pop 1)\n");
                        seen
                    })
                    .collect::<Vec<_>>()
            })
        })
        .collect();
    let results: Vec<_> = threads.into_iter().map(|t| t.join().unwrap()).collect();
    for r in &results {
        assert!(r.iter().all(|c| c == &results[0][0]), "{r:?}");
    }
}

#[test]
fn backends_forget_everything_at_a_reset() {
    let _serial = serial();
    for (name, choice) in backends() {
        let mut s = start(&choice);
        s.send("(declare-fun x () Int)\n(assert (> x 3))\n(push 1)\n(assert (< x 3))\n");
        assert_eq!(s.check_sat(&ONE_SECOND), Answer::Unsat, "{name}");
        s.reset();
        // Declared again without an error, and nothing asserted any more.
        s.send("(declare-fun x () Int)\n(assert (< x 3))\n");
        assert_eq!(s.check_sat(&ONE_SECOND), Answer::Sat, "{name}");
        assert_eq!(s.get_value(&["(< x 3)"]), Ok(vec!["true".to_string()]), "{name}");
        s.reset();
        assert_eq!(s.check_sat(&NO_LIMIT), Answer::Sat, "{name}");
        assert_eq!(s.dead(), None, "{name}");
    }
}

/// Pigeonhole: `n + 1` pigeons in `n` holes, unsat.
fn pigeonhole(n: usize) -> String {
    let mut text = String::new();
    for i in 0..=n {
        for j in 0..n {
            text += &format!("(declare-fun p{i}_{j} () Bool)\n");
        }
        text += &format!("(assert (or {}))\n", (0..n).map(|j| format!("p{i}_{j}")).collect::<Vec<_>>().join(" "));
    }
    for j in 0..n {
        for i in 0..=n {
            for k in i + 1..=n {
                text += &format!("(assert (or (not p{i}_{j}) (not p{k}_{j})))\n");
            }
        }
    }
    text
}

/// In-process Z3 keeps `:timeout` and `:rlimit` in process-wide parameters, which a context
/// copies whenever it sets an option: a session's limits must still reach no other session,
/// neither one opened later (its preamble sets options) nor one that sets options again.
#[test]
fn in_process_limits_stay_in_their_session() {
    let tight = Limits { time_limit_s: 0, resource_limit: 1000 };
    let mut a = start(&SolverChoice::Z3InProcess);
    a.send(&pigeonhole(6));
    assert_eq!(a.check_sat(&tight), Answer::Unknown(UnknownReason::OutOfResource));
    let mut b = start(&SolverChoice::Z3InProcess);
    b.send(&pigeonhole(6));
    assert_eq!(b.check_sat(&NO_LIMIT), Answer::Unsat);
    // b's options (no resource limit) do not reach a either.
    a.reset();
    a.send(&pigeonhole(6));
    assert_eq!(a.check_sat(&tight), Answer::Unknown(UnknownReason::OutOfResource));
    // In parallel threads, each with its own limit.
    let threads: Vec<_> = (0..4)
        .map(|i| {
            std::thread::spawn(move || {
                let mut s = start(&SolverChoice::Z3InProcess);
                let (limits, expected) = if i % 2 == 0 {
                    (tight, Answer::Unknown(UnknownReason::OutOfResource))
                } else {
                    (NO_LIMIT, Answer::Unsat)
                };
                (0..5).all(|_| {
                    s.reset();
                    s.send(&pigeonhole(6));
                    s.check_sat(&limits) == expected
                })
            })
        })
        .collect();
    for t in threads {
        assert!(t.join().unwrap());
    }
}

#[test]
fn backends_report_incomplete_quantifier_reasoning() {
    let _serial = serial();
    for (name, choice) in backends() {
        let mut s = start(&choice);
        s.send("(declare-fun f (Int) Int)\n(assert (forall ((z Int)) (! (> (f z) (f (+ z 1))) :pattern ((f z)))))\n");
        s.send("(assert (= (f 0) 0))\n");
        let answer = s.check_sat(&ONE_SECOND);
        assert!(
            matches!(answer, Answer::Unknown(UnknownReason::Incomplete(_)) | Answer::Timeout),
            "{name}: {answer:?}"
        );
        assert_eq!(s.dead(), None, "{name}");
    }
}

#[test]
fn backends_pass_over_warnings() {
    let _serial = serial();
    for (name, choice) in backends() {
        let mut s = start(&choice);
        s.send("(declare-fun f (Int) Int)\n(declare-fun y () Int)\n");
        // z3 warns that the pattern has no bound variable.
        s.send("(assert (forall ((x Int)) (! (> (f x) 0) :pattern ((f y)))))\n");
        let answer = s.check_sat(&ONE_SECOND);
        // cvc5 does not claim sat with a quantifier around.
        let expected =
            if name == "cvc5" { Answer::Unknown(UnknownReason::Incomplete("incomplete".into())) } else { Answer::Sat };
        assert_eq!(answer, expected, "{name}");
    }
}

#[test]
fn backends_report_errors_as_rejections() {
    let _serial = serial();
    for (name, choice) in backends() {
        let mut s = start(&choice);
        s.send("(declare-fun x () Int)\n(assert (> x undeclared))\n");
        let answer = within(Duration::from_secs(2), || s.check_sat(&ONE_SECOND));
        assert!(matches!(&answer, Answer::Rejected(why) if why.contains("undeclared")), "{name}: {answer:?}");
        assert!(s.dead().is_some(), "{name}");
    }
}

/// A query each solver needs far more than a second for: the pigeonhole principle for z3, a
/// quantifier instantiation loop for cvc5.
fn hard_query(name: &str) -> String {
    if name == "cvc5" {
        return "(declare-fun f (Int) Int)\n(assert (forall ((z Int)) (! (> (f z) (f (+ z 1))) :pattern ((f z)))))\n\
                (assert (= (f 0) 0))\n"
            .into();
    }
    pigeonhole(11)
}

#[test]
fn backends_time_out_at_the_limit_and_go_on() {
    let _serial = serial();
    for (name, choice) in backends() {
        let mut s = start(&choice);
        s.send("(push 1)\n");
        s.send(&hard_query(name));
        let answer = within(Duration::from_secs(4), || s.check_sat(&ONE_SECOND));
        assert_eq!(answer, Answer::Timeout, "{name}");
        // The solver's own limit answered, so the session goes on.
        assert_eq!(s.dead(), None, "{name}");
        s.send("(pop 1)\n(declare-fun x () Int)\n(assert (> x 3))\n");
        assert_eq!(s.check_sat(&ONE_SECOND), Answer::Sat, "{name}");
    }
}

/// The session believes the solver's own limit is a second; the solver was told a minute, so
/// only the watchdog (a kill over a pipe, `Z3_interrupt` in-process) can stop the query.
#[test]
fn the_watchdog_stops_a_solver_whose_own_limit_does_not() {
    let _serial = serial();
    for (name, choice) in backends() {
        let mut s = start(&choice);
        s.send("(declare-fun x () Int)\n(push 1)\n");
        assert_eq!(s.check_sat(&ONE_SECOND), Answer::Sat, "{name}");
        let option = if name == "cvc5" { "tlimit-per" } else { "timeout" };
        s.send(&format!("(pop 1)\n(set-option :{option} 60000)\n"));
        s.send(&hard_query(name));
        let answer = within(Duration::from_secs(4), || s.check_sat(&ONE_SECOND));
        assert_eq!(answer, Answer::Timeout, "{name}");
        assert_eq!(s.dead(), Some("no answer within the time limit"), "{name}");
        assert!(matches!(within(Duration::from_millis(100), || s.check_sat(&ONE_SECOND)), Answer::Failed(_)));
    }
}

/// A query's text counts towards its time limit ([`Session::begin_query`]): a solver busy
/// with what it was sent (here a `check-sat` inside the text, standing for a VC it is slow to
/// read) is stopped when the limit and the grace have passed since the query began, not that
/// long after its own `check-sat`, and the query times out.
#[test]
fn text_the_solver_is_slow_to_take_counts_towards_the_time_limit() {
    let _serial = serial();
    for (name, choice) in backends() {
        let mut s = start(&choice);
        let began = Instant::now();
        s.begin_query(&ONE_SECOND);
        s.send(&format!("{}(check-sat)\n", hard_query(name)));
        if name != "in-process" {
            // A pipe takes text at once: the time goes by before the check instead.
            std::thread::sleep(Duration::from_secs(1));
        }
        let answer = s.check_sat(&ONE_SECOND);
        // One second, the half-second grace, and the in-process backend's own grace.
        assert!(began.elapsed() < Duration::from_millis(2300), "{name}: took {:?}", began.elapsed());
        assert_eq!(answer, Answer::Timeout, "{name}");
        assert!(s.dead().is_some(), "{name}");
    }
}

#[test]
fn z3_backends_report_out_of_resource() {
    let _serial = serial();
    for (name, choice) in backends().into_iter().filter(|(name, _)| *name != "cvc5") {
        let mut s = start(&choice);
        s.send(&hard_query(name));
        let limits = Limits { time_limit_s: 10, resource_limit: 10_000 };
        let answer = within(Duration::from_secs(5), || s.check_sat(&limits));
        assert_eq!(answer, Answer::Unknown(UnknownReason::OutOfResource), "{name}");
    }
}

/// A fresh scratch directory for this test process's logs.
fn scratch(label: &str) -> std::path::PathBuf {
    let dir = std::env::temp_dir().join(format!("rboogie-smt-{label}-{}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    dir
}

/// A session of `choice` that logs to `DIR/NAME.smt2`, and that path.
fn logged(
    choice: &SolverChoice,
    options: &SessionOptions,
    dir: &std::path::Path,
    name: &str,
) -> (Box<dyn Session>, std::path::PathBuf) {
    let path = dir.join(format!("{name}.smt2"));
    let log = ProverLog::create(path.to_str().unwrap()).unwrap();
    (smt::start(choice, options, Some(log)).unwrap(), path)
}

/// What `solver` prints for the log at `path`, run stand-alone (cvc5 with `--incremental`).
fn replay(solver: &str, path: &std::path::Path) -> String {
    let mut command = std::process::Command::new(solver);
    if solver == "cvc5" {
        command.arg("--incremental");
    }
    let output = command.arg(path).output().unwrap();
    String::from_utf8_lossy(&output.stdout).into_owned()
}

/// Each backend names the assumptions a proof needed (here the least: z3 and cvc5 find it), and
/// its log replays in its solver without an error.
#[test]
fn backends_name_the_assumptions_a_proof_needed() {
    let _serial = serial();
    let dir = scratch("cores");
    for (name, choice) in backends() {
        let (mut s, path) = logged(&choice, &with_cores(), &dir, name);
        s.send("(declare-fun |b 1| () Bool)\n(declare-fun b2 () Bool)\n(declare-fun b3 () Bool)\n");
        s.send("(declare-fun x () Int)\n(assert (=> |b 1| (> x 0)))\n(push 1)\n(assert (=> b2 (< x 0)))\n");
        assert_eq!(s.check_sat_assuming(&ONE_SECOND, &["|b 1|", "b2", "b3"]), Answer::Unsat, "{name}");
        let mut core = s.unsat_assumptions().unwrap_or_else(|e| panic!("{name}: {e}"));
        core.sort();
        assert_eq!(core, ["b2", "|b 1|"], "{name}");
        // The assumptions hold for this check only.
        assert_eq!(s.check_sat_assuming(&ONE_SECOND, &["|b 1|", "(not b2)"]), Answer::Sat, "{name}");
        assert_eq!(s.get_value(&["(> x 0)"]), Ok(vec!["true".to_string()]), "{name}");
        assert_eq!(s.check_sat_assuming(&NO_LIMIT, &[]), Answer::Sat, "{name}");
        s.send("(pop 1)\n");
        assert_eq!(s.dead(), None, "{name}");
        drop(s);
        let replay_in = if name == "cvc5" { "cvc5" } else { "z3" };
        if on_path(replay_in) {
            let stdout = replay(replay_in, &path);
            assert!(!stdout.contains("(error"), "{name} in {replay_in}: {stdout}");
            assert!(stdout.starts_with("unsat\n(|b 1| b2)\nsat\n"), "{name} in {replay_in}: {stdout}");
        }
    }
    let _ = std::fs::remove_dir_all(&dir);
}

/// In-process Z3 enables cores through a process-wide parameter: it must reach no session
/// that did not ask for cores, before or after.
#[test]
fn in_process_cores_stay_in_their_session() {
    let query = "(declare-fun b () Bool)\n(declare-fun x () Int)\n(assert (=> b (and (> x 0) (< x 0))))\n";
    let mut with = smt::start(&SolverChoice::Z3InProcess, &with_cores(), None).unwrap();
    with.send(query);
    assert_eq!(with.check_sat_assuming(&ONE_SECOND, &["b"]), Answer::Unsat);
    assert_eq!(with.unsat_assumptions(), Ok(vec!["b".to_string()]));
    let mut without = start(&SolverChoice::Z3InProcess);
    without.send(query);
    assert_eq!(without.check_sat_assuming(&ONE_SECOND, &["b"]), Answer::Unsat);
    let refused = without.unsat_assumptions().unwrap_err();
    assert!(refused.contains("unsat core construction is not enabled"), "{refused}");
    assert_eq!(without.dead(), None);
    // `without` set options since: `with` still has its cores, also after a reset.
    assert_eq!(with.check_sat_assuming(&ONE_SECOND, &["b"]), Answer::Unsat);
    assert_eq!(with.unsat_assumptions(), Ok(vec!["b".to_string()]));
    with.reset();
    with.send(query);
    assert_eq!(with.check_sat_assuming(&ONE_SECOND, &["b"]), Answer::Unsat);
    assert_eq!(with.unsat_assumptions(), Ok(vec!["b".to_string()]));
}

/// An option one in-process session sets is not another's, though Z3's parameters are the
/// process's: a value is printed as the globals say when it is printed, and a context takes
/// every global at each `set-option` it runs. Here `pp.decimal` of one session must not reach
/// the other's values, nor an option the other sets afterwards.
#[test]
fn in_process_options_stay_in_their_session() {
    let decimal = SessionOptions { smt_options: vec![("pp.decimal".into(), "true".into())], ..quick() };
    let query = "(declare-fun x () Real)\n(push 1)\n(assert (= (* 3.0 x) 1.0))\n";
    let mut a = smt::start(&SolverChoice::Z3InProcess, &decimal, None).unwrap();
    let mut b = start(&SolverChoice::Z3InProcess);
    for s in [&mut a, &mut b] {
        s.send(query);
        assert_eq!(s.check_sat(&ONE_SECOND), Answer::Sat);
    }
    assert_eq!(b.get_value(&["x"]), Ok(vec!["(/ 1.0 3.0)".to_string()]));
    assert!(a.get_value(&["x"]).unwrap()[0].starts_with("0.3333"));
    b.send("(set-option :pp.bv_literals false)\n");
    assert_eq!(b.get_value(&["x"]), Ok(vec!["(/ 1.0 3.0)".to_string()]));
    b.reset();
    b.send(query);
    assert_eq!(b.check_sat(&ONE_SECOND), Answer::Sat);
    assert_eq!(b.get_value(&["x"]), Ok(vec!["(/ 1.0 3.0)".to_string()]));
    assert!(a.get_value(&["x"]).unwrap()[0].starts_with("0.3333"));
}

#[test]
fn prover_logs_replay_stand_alone() {
    let _serial = serial();
    let dir = scratch("log");
    for (name, choice) in backends() {
        let (mut s, path) = logged(&choice, &quick(), &dir, name);
        let seen = conversation(s.as_mut());
        drop(s);
        // Each log runs in its own solver without an error, and its answers come out in the
        // other solver too (a z3 log in `cvc5 --incremental`, which skips z3's options).
        for replay_in in ["z3", "cvc5"].into_iter().filter(|b| on_path(b)) {
            let stdout = replay(replay_in, &path);
            let answers: Vec<&str> = stdout.lines().filter(|l| ["sat", "unsat", "unknown"].contains(l)).collect();
            assert_eq!(answers, ["sat", "unsat", "unsat", "sat"], "{name} in {replay_in}: {stdout}");
            let own = replay_in == if name == "cvc5" { "cvc5" } else { "z3" };
            assert!(!own || !stdout.contains("(error"), "{name} in {replay_in}: {stdout}");
        }
        assert_eq!(seen[0], "Sat");
    }
    let _ = std::fs::remove_dir_all(&dir);
}

#[test]
fn configure_reads_boogie_prover_options() {
    let options = |args: &[&str]| rboogie::cli::Options {
        prover_options: args.iter().map(|a| a.to_string()).collect(),
        ..Default::default()
    };
    let (choice, session) = smt::configure(&options(&["O:smt.qi.eager_threshold=100", "LOGIC=ALL"])).unwrap();
    assert_eq!(choice, SolverChoice::Z3InProcess);
    assert_eq!(session.smt_options, [("smt.qi.eager_threshold".to_string(), "100".to_string())]);
    assert_eq!(session.logic.as_deref(), Some("ALL"));
    let (choice, _) = smt::configure(&options(&["SOLVER=cvc5", "C:--seed=3"])).unwrap();
    let SolverChoice::Process { path, args, dialect } = choice else { panic!() };
    assert_eq!((path.as_str(), dialect, args.last().map(String::as_str)), ("cvc5", Dialect::Cvc5, Some("--seed=3")));
    let (choice, _) = smt::configure(&options(&["PROVER_PATH=/opt/z3/bin/z3"])).unwrap();
    assert_eq!(
        choice,
        SolverChoice::Process {
            path: "/opt/z3/bin/z3".into(),
            args: vec!["-smt2".into(), "-in".into()],
            dialect: Dialect::Z3
        }
    );
    assert_eq!(smt::configure(&options(&["BOGUS=1"])).unwrap_err(), "Unrecognised prover option: BOGUS=1");
    assert!(smt::configure(&options(&["O:novalue"])).is_err());
    let mut o = options(&["SOLVER=cvc5"]);
    o.solver = Some("my-solver --flag".into());
    let (choice, _) = smt::configure(&o).unwrap();
    assert_eq!(
        choice,
        SolverChoice::Process { path: "my-solver".into(), args: vec!["--flag".into()], dialect: Dialect::Generic }
    );
}

/// Whatever a solver prints, the session answers without panicking.
#[test]
fn no_solver_output_makes_a_session_panic() {
    let pieces = [
        "(",
        ")",
        "\"",
        "|",
        ";",
        "\n",
        " ",
        "sat",
        "unsat",
        "unknown",
        "error",
        ":reason-unknown",
        ":rlimit",
        "x",
        "1",
        "-",
        "\"\"",
        "((x 1))",
        "(error \"",
        "é",
        "\u{0}",
    ];
    let mut rng = fastrand::Rng::with_seed(7);
    for _ in 0..3000 {
        let replies: Vec<Reply> = (0..rng.usize(1..4))
            .map(|_| Reply::Text((0..rng.usize(0..12)).map(|_| pieces[rng.usize(..pieces.len())]).collect()))
            .collect();
        let dialect = [Dialect::Z3, Dialect::Cvc5, Dialect::Generic][rng.usize(..3)];
        let mut s = canned::start(replies.clone(), dialect, &quick(), None);
        let _ = s.check_sat(&Limits { time_limit_s: 1, resource_limit: rng.u32(0..2) * 100 });
        let _ = s.get_value(&["x", "(f x)"]);
        for text in replies.iter().filter_map(|r| if let Reply::Text(t) = r { Some(t) } else { None }) {
            let mut rest = text.as_bytes();
            while let Some((range, next)) = smt::sexpr::next_response(rest) {
                let _ = smt::sexpr::parse(&String::from_utf8_lossy(&rest[range]));
                assert!(next > 0 && next <= rest.len());
                rest = &rest[next..];
            }
        }
    }
}
