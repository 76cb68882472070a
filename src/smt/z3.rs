//! Z3 in-process (the default backend): the machine's libz3 through `z3-sys`, spoken to in
//! SMT-LIB text.
//!
//! `Z3_eval_smtlib2_string` runs commands in a context's own SMT-LIB command interpreter (the
//! one `z3 -in` uses), which persists across calls, so the session is the same conversation as
//! over a pipe and the log replays in `z3`. Only functions that Z3 4.8.12 (Debian's libz3)
//! exports are called: `Z3_global_param_set`, `Z3_global_param_get`, `Z3_mk_config`,
//! `Z3_mk_context`, `Z3_set_error_handler`, `Z3_eval_smtlib2_string`, `Z3_get_error_code`,
//! `Z3_get_error_msg`, `Z3_interrupt`, `Z3_del_config`, `Z3_del_context`,
//! `Z3_get_estimated_alloc_size`.
//!
//! A call runs the commands to the end before it returns, so the output of each call is split
//! into responses at once and queued for [`Transport::next_response`]. The deadline is kept by
//! the `:timeout` option the session sets and, as a watchdog, by a thread (one per transport,
//! armed with each call's deadline) that calls `Z3_interrupt` when the deadline passes; an
//! interrupted context is not used again (Z3 keeps it cancelled), so the session dies with
//! [`Fault::Timeout`]. Z3's API errors are reported as `(error ...)` responses, never by Z3's
//! default handler, which exits the process. [`Transport::reset`] replaces the context by a
//! new one: the next implementation starts from nothing, whatever the previous ones left in
//! Z3's tables, which is what makes `/vcsCores:N` print what `/vcsCores:1` prints.
//!
//! ## Prewarmed contexts
//! Making a context and its command interpreter takes 10 to 20 ms, more than a small check
//! (about half of it faulting in the 17 MiB of tables a 4.8.12 context clears, which is why
//! the threads that make contexts and run calls back their C heap with huge pages:
//! [`crate::alloc::huge_pages_for_c_heap`]).
//! A run of sequential checks (the field-abstraction refinement loop, and implementations
//! checked one after another under `/vcsCores:1`) calls [`prewarm_contexts`]: from then on
//! one thread of its own makes the next context while the caller prepares its next check
//! (from the start, then each time a session ends), a new session takes it, and an ended
//! session's context is deleted there too (deleting one takes 1 to 3 ms). Each session still
//! starts from a context nothing else has used (a `(reset)` context would not do: in 4.8.12
//! it keeps the old session's definitions in its models, and what it answers depends on the
//! checks made in it before).
//!
//! Each session's calls run one after another on one thread of its own ([`Worker`]), made
//! at its first call: a thread per call cost a millisecond per `get-value`.
//!
//! ## Calls Z3 does not end when interrupted
//! Z3 4.8.12 checks for an interrupt only between steps, and some steps (nonlinear arithmetic,
//! large simplifications) run for minutes without one. So the calls run on a thread other than
//! the caller's (the session's [`Worker`]), and the caller waits for each until the deadline
//! plus [`GRACE`]; then it gives the call up: the session ends with [`Fault::Timeout`], the context and its thread are left to finish
//! on their own (never deleted under them), and the time limit holds. A call given up on keeps
//! a core busy and may hold locks inside libz3 that stall new contexts, so from then on the
//! binary's sessions run Z3 in a process of their own ([`serve`], started as
//! `rboogie --rboogie-z3-server`), which can be killed at the deadline; a library that did
//! not register its executable ([`use_server`]) keeps using contexts in-process.
//!
//! ## The memory limit
//! `/maxMemoryMB` ([`crate::memory`]) is held twice: Z3's own `memory_high_watermark` (set
//! when a context is made; Z3 then answers `unknown`, reason `memout`, from its search), which
//! 4.8.12 keeps in bytes in 32 bits, so only for limits under 4 GB; and the watchdog, which
//! reads what Z3 has allocated (`Z3_get_estimated_alloc_size`, all contexts of the process)
//! every [`MEMORY_POLL`] while a call runs and interrupts the call past the limit (the session
//! then ends out of memory). Z3's `memory_max_size` is not used: past it, Z3's SMT-LIB
//! interpreter ends the whole process. `Z3_get_estimated_alloc_size` is declared here: 4.8.12
//! exports it, `z3-sys` does not declare it.
//!
//! ## Limits and Z3's process-wide parameters
//! `(set-option :timeout ...)`, `:rlimit`, `:unsat_core` and Corral's mode's
//! `:smt.array.extensional` and `:smt.mbqi.max_iterations` (like every option that is not
//! SMT-LIB's own) set Z3's *global* parameters, and a context copies all of those into its
//! own settings whenever it runs a `set-option`, and when its command interpreter is made.
//! So one session's limits would reach every session that sets an option after it, a
//! session opened later through its very preamble; libz3 4.8.12 has no per-context
//! parameter its SMT-LIB interpreter reads instead. Each transport therefore keeps its own
//! values of these per-session parameters ([`SESSION_PARAMS`]) and runs every call that may
//! set an option or print a value, and the making of every context, under one process-wide
//! lock ([`GLOBAL_PARAMS`]): it makes the globals Z3's defaults plus what its own session set
//! (these values and every other option its texts set), and reads back, after the call, what
//! its text set. A context's settings are then only ever what its own session asked for,
//! which the check-sat reads from the context's copy. Houdini's `:unsat_core` (the one way to
//! unsat cores in-process, see [`super`]'s header) is such a parameter too: it stays in the
//! sessions that ask for cores.
//!
//! The other options (`smt.mbqi`, `/proverOpt:O:...`) come from the session's preamble. Some
//! of them act only when they are in the globals as the interpreter is made
//! (`smt.qi.eager_threshold`), so each context is made under the Z3 defaults plus its
//! session's preamble options ([`Context::new`]), as the `z3` binary makes its solver after
//! the preamble: every session of a process then starts alike. Calls that set no option and
//! print no value (the VC, `check-sat`) run outside the lock, in parallel. That is sound only
//! for the incremental solver's checks: z3 answers a first `check-sat` with no scope open by
//! a tactic it makes at that moment from the globals of that moment, so rboogie's queries all
//! open a scope before their first check (Boogie's do too).

use super::pipe::PipeTransport;
use super::protocol::{Fault, Transport};
use std::collections::VecDeque;
use std::ffi::{CStr, CString};
use std::io::{Read, Write};
use std::path::PathBuf;
use std::sync::atomic::{AtomicBool, Ordering};
use std::sync::{Arc, Condvar, Mutex, MutexGuard, OnceLock, PoisonError, mpsc};
use std::thread::JoinHandle;
use std::time::{Duration, Instant};
use z3_sys::{ErrorCode, Z3_context};

unsafe extern "C" {
    /// The bytes Z3's memory manager has allocated, over all contexts.
    fn Z3_get_estimated_alloc_size() -> u64;
}

/// What Z3 has allocated in this process.
fn z3_allocated() -> u64 {
    // SAFETY: reads a counter; no arguments, callable from any thread.
    unsafe { Z3_get_estimated_alloc_size() }
}

/// How often the watchdog reads what Z3 has allocated while a call runs.
const MEMORY_POLL: Duration = Duration::from_millis(100);

/// How long past its deadline (when Z3 was interrupted) a call is waited for before it is
/// given up on.
const GRACE: Duration = Duration::from_millis(500);

/// The stack of the thread a call runs on: Z3 recurses over terms, and VCs nest deeply.
const CALL_STACK: usize = 256 << 20;

/// Set once a call was given up on (see the module header).
static ABANDONED: AtomicBool = AtomicBool::new(false);

/// The thread that makes contexts ahead of need and deletes retired ones, once
/// [`prewarm_contexts`] started it (see "Prewarmed contexts" in the module header).
static WARMER: OnceLock<Option<Warmer>> = OnceLock::new();

/// How long a session waits for the context being made ahead before it makes its own.
const WARM_WAIT: Duration = Duration::from_secs(5);

struct Warmer {
    jobs: Mutex<mpsc::Sender<WarmJob>>,
    /// Shared with the thread, which fills the slot and signals each context it made.
    slot: Arc<(Mutex<Slot>, Condvar)>,
}

#[derive(Default)]
struct Slot {
    /// Contexts being made.
    pending: usize,
    /// The contexts made for the next sessions, with the options they were made under
    /// (`None`: making one failed).
    ready: VecDeque<Option<(Context, Arc<Options>)>>,
}

/// How many contexts are made ahead. One: with two, the second competes with the front end
/// for the machine's other core (the refinement loop on a 200-field driver: 88 ms against
/// 76 ms, median of 15).
const WARM_AHEAD: usize = 1;

enum WarmJob {
    /// A context made under these options.
    Make(Arc<Options>),
    Delete(Context),
}

/// From now on contexts, with their command interpreters, are made ahead of need on a thread
/// of their own: the first at once, each next one when a session ends (while the caller
/// prepares its next check), and the next session (or [`Transport::reset`]) takes it; the
/// ended session's context is deleted there too. For runs of sequential checks (the
/// field-abstraction refinement loop, implementations checked one after another), where
/// making and deleting a context costs as much as a short check, on a machine with a core to
/// spare. A context is made when a session ends rather than when one starts because making it
/// holds [`GLOBAL_PARAMS`], which the starting session's options need too. One thread does
/// it all, so that the memory a deleted context gives back is what the next one is made from.
pub fn prewarm_contexts(preamble: &str) {
    if abandoned_a_call() {
        return;
    }
    // A run that stopped prewarming (see [`stop_prewarming`]) is over: this one prewarms again.
    STOPPED.store(false, Ordering::Relaxed);
    let warmer = WARMER.get_or_init(|| {
        // The sessions run one after another: libz3's allocations from every thread (the
        // contexts made and deleted here, each session's calls) share one heap of the C
        // library's, so each reuses what the last one freed, where an arena per thread paged
        // fresh memory in (the refinement loop on a 200-field driver: 47 ms to 45 ms).
        // A context's two largest tables (8.5 MB each, made and zeroed by `Z3_mk_context`)
        // are past the C library's default threshold for allocating by `mmap`, so each
        // context paged them in afresh and gave them back when deleted: about 4,200 page
        // faults, 8 ms of a context's 10 to 15. Kept in the heap instead (and the heap's top
        // not trimmed below 64 MB), the next context is made from the memory the last one
        // gave back: `Z3_mk_context` then takes 1 ms instead of 9.
        #[cfg(all(target_os = "linux", target_env = "gnu"))]
        // SAFETY: only sets the allocator's parameters for arenas made and blocks allocated
        // from now on.
        unsafe {
            libc::mallopt(libc::M_ARENA_MAX, 1);
            libc::mallopt(libc::M_MMAP_THRESHOLD, 32 << 20);
            libc::mallopt(libc::M_TRIM_THRESHOLD, 64 << 20);
        }
        let (jobs, queue) = mpsc::channel::<WarmJob>();
        let slot = Arc::new((Mutex::new(Slot::default()), Condvar::new()));
        let shared = slot.clone();
        let spawned = std::thread::Builder::new().name("z3-contexts".into()).spawn(move || {
            let (slot, made) = &*shared;
            while let Ok(job) = queue.recv() {
                match job {
                    WarmJob::Make(options) => {
                        // After `stop_prewarming`, a context asked for is not made.
                        let context = (!STOPPED.load(Ordering::Relaxed))
                            .then(|| make_ready_context(&options).map(|context| (context, options)));
                        let mut slot = slot.lock().unwrap_or_else(PoisonError::into_inner);
                        slot.ready.extend(context);
                        slot.pending -= 1;
                        made.notify_all();
                    }
                    // SAFETY: a retired context: no call runs in it, no watchdog holds it.
                    WarmJob::Delete(context) => unsafe { context.delete() },
                }
            }
        });
        spawned.ok()?;
        Some(Warmer { jobs: Mutex::new(jobs), slot })
    });
    if let Some(warmer) = warmer {
        warmer.ask_ahead(&warmer.jobs.lock().unwrap_or_else(PoisonError::into_inner), &Arc::new(options_of(preamble)));
    }
}

impl Warmer {
    /// Asks for contexts to be made under `options` until [`WARM_AHEAD`] are ready or on the
    /// way; `jobs` is [`Warmer::jobs`], locked.
    fn ask_ahead(&self, jobs: &mpsc::Sender<WarmJob>, options: &Arc<Options>) {
        let mut slot = self.slot.0.lock().unwrap_or_else(PoisonError::into_inner);
        while slot.pending + slot.ready.len() < WARM_AHEAD && jobs.send(WarmJob::Make(options.clone())).is_ok() {
            slot.pending += 1;
        }
    }
}

/// A context with its command interpreter made under `options`, with Z3's defaults of
/// [`SESSION_PARAMS`].
fn make_ready_context(options: &Options) -> Option<Context> {
    let params: Vec<CString> = SESSION_PARAMS.iter().map(|(_, default)| (*default).to_owned()).collect();
    Context::new(&params, options).ok()
}

/// Set by [`stop_prewarming`].
static STOPPED: AtomicBool = AtomicBool::new(false);

/// No more contexts are made ahead (those asked for and not begun are not made): the checks
/// are over, and one more context would only take memory and the other core from the rest of
/// the run. Sessions opened later make their own.
pub fn stop_prewarming() {
    STOPPED.store(true, Ordering::Relaxed);
}

fn warmer() -> Option<&'static Warmer> {
    WARMER.get().and_then(Option::as_ref).filter(|_| !abandoned_a_call())
}

/// The context made ahead of need, when prewarming: the one ready, or the one being made
/// (waiting for it: that is sooner than making another); `None` when none is on the way, or
/// when it was made under other options than `options` (it is deleted then).
fn take_prewarmed(options: &Options) -> Option<Context> {
    let warmer = warmer()?;
    let (slot, made) = &*warmer.slot;
    let deadline = Instant::now() + WARM_WAIT;
    let mut slot = slot.lock().unwrap_or_else(PoisonError::into_inner);
    while slot.ready.is_empty() {
        let left = deadline.saturating_duration_since(Instant::now());
        if slot.pending == 0 || left.is_zero() {
            return None;
        }
        slot = made.wait_timeout(slot, left).unwrap_or_else(PoisonError::into_inner).0;
    }
    let (context, made_under) = slot.ready.pop_front().flatten()?;
    drop(slot);
    if *made_under == *options {
        return Some(context);
    }
    let jobs = warmer.jobs.lock().unwrap_or_else(PoisonError::into_inner);
    if let Err(mpsc::SendError(WarmJob::Delete(context))) = jobs.send(WarmJob::Delete(context)) {
        // SAFETY: a context made ahead and never used or watched.
        unsafe { context.delete() };
    }
    None
}

/// Deletes a context no call runs in and no watchdog holds: on the prewarming thread when
/// there is one, which then makes the next session's context if none is ready or on the way.
///
/// SAFETY: as [`Context::delete`].
/// The next one is made under `options`.
unsafe fn retire(context: Context, options: &Arc<Options>) {
    if let Some(warmer) = warmer() {
        let jobs = warmer.jobs.lock().unwrap_or_else(PoisonError::into_inner);
        // Deleted first: the next context is made from the memory this one gives back (made
        // alongside it, the second context paged in fresh memory: 12 ms against 5).
        if jobs.send(WarmJob::Delete(context)).is_ok() {
            warmer.ask_ahead(&jobs, options);
            return;
        }
    }
    // SAFETY: the caller's.
    unsafe { context.delete() }
}

/// The executable that serves Z3 in a process of its own, when one was registered.
static SERVER: OnceLock<PathBuf> = OnceLock::new();

/// The argument that makes the `rboogie` binary a Z3 server ([`serve`]).
pub const SERVER_FLAG: &str = "--rboogie-z3-server";

/// Registers `exe` (the running `rboogie` binary) as the Z3 server to fall back on.
pub fn use_server(exe: PathBuf) {
    let _ = SERVER.set(exe);
}

/// Whether a call was given up on in this process.
pub fn abandoned_a_call() -> bool {
    ABANDONED.load(Ordering::Relaxed)
}

/// The server's side: reads SMT-LIB commands on stdin and runs each in one in-process
/// context as it is complete, writing what Z3 prints to stdout (the conversation `z3 -in`
/// has). Ends at the end of input or `(exit)`; the client kills it at its deadlines. The
/// context is made at the first command that is not an option (`set-option`, `set-info`),
/// under the options before it, as a session's own are ([`Context::new`]); those run then.
pub fn serve() -> i32 {
    let mut calls: Option<Calls> = None;
    let mut leading: Vec<CString> = Vec::new();
    let far = Instant::now() + Duration::from_secs(100 * 365 * 24 * 3600);
    let (mut stdin, mut stdout) = (std::io::stdin().lock(), std::io::stdout().lock());
    let mut buffer: Vec<u8> = Vec::new();
    let mut scanner = super::sexpr::Scanner::default();
    let mut chunk = vec![0u8; 1 << 16];
    loop {
        while let Some((range, next)) = scanner.next(&buffer) {
            let command = &buffer[range];
            if command.starts_with(b"(exit") {
                return 0;
            }
            let Ok(text) = CString::new(command) else { return 1 };
            buffer.drain(..next);
            scanner = super::sexpr::Scanner::default();
            let option = text.to_bytes().starts_with(b"(set-option") || text.to_bytes().starts_with(b"(set-info");
            if calls.is_none() && option {
                leading.push(text);
                continue;
            }
            let calls = match &mut calls {
                Some(calls) => calls,
                None => {
                    let mut options = Options::new();
                    for command in &leading {
                        note_options(&mut options, command.to_bytes());
                    }
                    match Calls::new(Arc::new(options)) {
                        Ok(made) => calls.insert(made),
                        Err(e) => {
                            eprintln!("rboogie z3 server: {e}");
                            return 1;
                        }
                    }
                }
            };
            for text in std::mem::take(&mut leading).iter().chain([&text]) {
                let output = calls.eval(text, far);
                let output: String =
                    output.lines().filter(|l| !l.starts_with("WARNING")).flat_map(|l| [l, "\n"]).collect();
                if stdout.write_all(output.as_bytes()).and_then(|()| stdout.flush()).is_err() {
                    return 1;
                }
            }
        }
        match stdin.read(&mut chunk) {
            Ok(0) | Err(_) => return 0,
            Ok(n) => buffer.extend_from_slice(&chunk[..n]),
        }
    }
}

/// Held while a call may read or write Z3's global parameters (see the module header). Each
/// holder first puts into the globals its own session's settings and nothing of another's
/// ([`put_session_globals`]).
static GLOBAL_PARAMS: Mutex<()> = Mutex::new(());

/// The global parameters each session has a value of its own for, with Z3's defaults: the
/// limits, unsat cores, and the options Corral's mode sets where Boogie's does not (arrays
/// without extensionality, one MBQI round: see [`super::SessionOptions`]), which would
/// otherwise reach the Boogie-mode sessions of the same process.
const SESSION_PARAMS: [(&CStr, &CStr); 5] = [
    (c"timeout", c"4294967295"),
    (c"rlimit", c"0"),
    (c"unsat_core", c"false"),
    (c"smt.array.extensional", c"true"),
    (c"smt.mbqi.max_iterations", c"1000"),
];

fn global_params() -> MutexGuard<'static, ()> {
    GLOBAL_PARAMS.lock().unwrap_or_else(PoisonError::into_inner)
}

/// Options as Z3's global parameters take them: names and values, each name once (its last
/// value), [`SESSION_PARAMS`] left out (each session keeps its own).
type Options = Vec<(CString, CString)>;

/// The options an SMT-LIB text sets with `set-option`.
fn options_of(text: &str) -> Options {
    let mut options = Options::new();
    note_options(&mut options, text.as_bytes());
    options
}

/// Adds the options `text` sets to `options`.
fn note_options(options: &mut Options, text: &[u8]) {
    for (name, value) in set_options(text) {
        if SESSION_PARAMS.iter().any(|(session, _)| session.to_bytes() == name) {
            continue;
        }
        let (Ok(name), Ok(value)) = (CString::new(name), CString::new(value)) else { continue };
        match options.iter_mut().find(|(n, _)| *n == name) {
            Some((_, v)) => *v = value,
            None => options.push((name, value)),
        }
    }
}

/// The `(set-option :NAME VALUE)` commands of an SMT-LIB text, as the names and values Z3's
/// global parameters take: a string's value without its quotes.
fn set_options(text: &[u8]) -> Vec<(Vec<u8>, Vec<u8>)> {
    const HEAD: &[u8] = b"(set-option";
    let mut found = Vec::new();
    let mut at = 0;
    while let Some(offset) = text[at..].windows(HEAD.len()).position(|w| w == HEAD) {
        at += offset + HEAD.len();
        let skip_space = |mut i: usize| {
            while text.get(i).is_some_and(u8::is_ascii_whitespace) {
                i += 1;
            }
            i
        };
        let ends_atom = |b: &u8| b.is_ascii_whitespace() || *b == b')' || *b == b'(';
        let mut i = skip_space(at);
        if text.get(i) != Some(&b':') {
            continue;
        }
        let name_start = i + 1;
        i = name_start;
        while text.get(i).is_some_and(|b| !ends_atom(b)) {
            i += 1;
        }
        let name = text[name_start..i].to_vec();
        i = skip_space(i);
        let value = if text.get(i) == Some(&b'"') {
            // SMT-LIB strings double a quote to escape it.
            let mut value = Vec::new();
            i += 1;
            loop {
                match text.get(i) {
                    None => break,
                    Some(b'"') if text.get(i + 1) == Some(&b'"') => {
                        value.push(b'"');
                        i += 2;
                    }
                    Some(b'"') => {
                        i += 1;
                        break;
                    }
                    Some(&b) => {
                        value.push(b);
                        i += 1;
                    }
                }
            }
            value
        } else {
            let start = i;
            while text.get(i).is_some_and(|b| !ends_atom(b)) {
                i += 1;
            }
            text[start..i].to_vec()
        };
        at = i;
        if !name.is_empty() && !value.is_empty() {
            found.push((name, value));
        }
    }
    found
}

/// Makes Z3's globals what one session set and nothing else: Z3's defaults, rboogie's own
/// ([`process_globals`]), the session's values of [`SESSION_PARAMS`] and the `options` its
/// texts set; the caller holds [`GLOBAL_PARAMS`]. A context copies every global into its own
/// settings when it runs a `set-option`, so another session's option left in the globals would
/// become this one's (measured: a session that set `smt.mbqi false` turned model-based
/// instantiation off in another session at its next `set-option` of anything else).
fn put_session_globals(values: &[CString], options: &Options) {
    // SAFETY: no arguments, under the lock.
    unsafe { z3_sys::Z3_global_param_reset_all() };
    process_globals();
    let session = SESSION_PARAMS.iter().map(|(name, _)| *name).zip(values.iter().map(CString::as_c_str));
    let set = options.iter().map(|(name, value)| (name.as_c_str(), value.as_c_str()));
    for (name, value) in session.chain(set) {
        // SAFETY: NUL-terminated strings, under the lock. A name that is no global parameter
        // (`produce-models`, which the interpreter keeps itself) is refused with a warning,
        // and warnings are off.
        unsafe { z3_sys::Z3_global_param_set(name.as_ptr(), value.as_ptr()) };
    }
}

/// The global parameters rboogie sets for every context; the caller holds [`GLOBAL_PARAMS`]:
/// no warnings (Z3 4.8.12 prints them on the process's stderr; Boogie shows none by default,
/// `/proverWarnings:0`) and the memory limit (see "The memory limit" above).
fn process_globals() {
    // SAFETY: NUL-terminated strings, under the lock.
    unsafe {
        z3_sys::Z3_global_param_set(c"warning".as_ptr(), c"false".as_ptr());
        if let Some(limit) = crate::memory::limit_bytes().filter(|&l| l <= u64::from(u32::MAX))
            && let Ok(value) = CString::new(limit.to_string())
        {
            z3_sys::Z3_global_param_set(c"memory_high_watermark".as_ptr(), value.as_ptr());
        }
    }
}

/// A context pointer the watchdog thread may interrupt through.
#[derive(Clone, Copy)]
struct Context(Z3_context);

// SAFETY: Z3 contexts may be moved between threads; `Z3_interrupt` is the one call made from
// another thread while a call runs, which is what Z3 provides it for. Every other call is made
// by the owning transport, one at a time.
unsafe impl Send for Context {}
unsafe impl Sync for Context {}

impl Context {
    /// A context, its command interpreter made, with `params` as its values of
    /// [`SESSION_PARAMS`], `options` (its session's preamble's) for the others it sets, and
    /// Z3's defaults for the rest but rboogie's own ([`process_globals`]).
    ///
    /// Why: an interpreter takes the global parameters at its making, and in 4.8.12 some of
    /// them (`smt.qi.eager_threshold`) only act when taken so, not when a `set-option` sets
    /// them afterwards. The `z3` binary makes its solver after the preamble's options, so
    /// they all act there, and they must act here too (a chain of 25 instantiations that
    /// `smt.qi.eager_threshold=100` proves). Before, the first context of a process was made
    /// under the defaults and every later one under what the sessions before it had left in
    /// the globals, so an implementation's answer depended on whether another one was checked
    /// first. A model is printed as the globals say at that moment (`pp.bv_literals`), so the
    /// calls that print one run under the lock too, with their own session's settings in the
    /// globals (see [`Calls::eval`]). A check-sat of the incremental solver (once a scope is
    /// open, or an assertion followed a check) reads what its context took when it was made
    /// and what its own `set-option`s said, not the globals of its moment (measured): it runs
    /// outside the lock. A first `check-sat` with no scope open is answered by a tactic that
    /// z3 makes then, from the globals of that moment (measured: `smt.mbqi.max_iterations`),
    /// so every query rboogie sends opens a scope first.
    fn new(params: &[CString], options: &Options) -> Result<Context, String> {
        crate::alloc::huge_pages_for_c_heap();
        let _lock = global_params();
        put_session_globals(params, options);
        // SAFETY: plain constructor calls; the config is deleted once the context is made;
        // Z3's global parameters are set under the lock; the context is new, so the call
        // that makes its interpreter is the only call into it.
        unsafe {
            let config = z3_sys::Z3_mk_config().ok_or("Z3_mk_config failed")?;
            let context = z3_sys::Z3_mk_context(config);
            z3_sys::Z3_del_config(config);
            let context = context.ok_or("Z3_mk_context failed")?;
            z3_sys::Z3_set_error_handler(context, None);
            let context = Context(context);
            eval_in(context, c"");
            Ok(context)
        }
    }

    fn interrupt(self) {
        // SAFETY: the transport swaps or deletes a context only with the watchdog disarmed
        // (under its lock) or joined.
        unsafe { z3_sys::Z3_interrupt(self.0) };
    }

    /// SAFETY: no call into the context runs or will run, and the watchdog no longer holds it.
    unsafe fn delete(self) {
        unsafe { z3_sys::Z3_del_context(self.0) };
    }
}

/// What the watchdog thread and the calling thread share.
struct Alarm {
    /// The context the running call uses.
    context: Context,
    /// The running call's deadline; `None` between calls.
    deadline: Option<Instant>,
    /// The watchdog interrupted the running call.
    fired: bool,
    /// ... because the process passed the memory limit.
    memout: bool,
    shutdown: bool,
}

struct Watchdog {
    alarm: Arc<(Mutex<Alarm>, Condvar)>,
    thread: Option<JoinHandle<()>>,
}

impl Watchdog {
    fn start(context: Context) -> Result<Watchdog, String> {
        let alarm = Alarm { context, deadline: None, fired: false, memout: false, shutdown: false };
        let alarm = Arc::new((Mutex::new(alarm), Condvar::new()));
        let shared = alarm.clone();
        let thread = std::thread::Builder::new()
            .name("z3-watchdog".into())
            .spawn(move || {
                let (lock, wake) = &*shared;
                let Ok(mut alarm) = lock.lock() else { return };
                while !alarm.shutdown {
                    alarm = match alarm.deadline {
                        None => match wake.wait(alarm) {
                            Ok(a) => a,
                            Err(_) => return,
                        },
                        Some(deadline) if Instant::now() >= deadline => {
                            // Under the lock, so the caller knows, once it holds the lock,
                            // whether its call was interrupted.
                            alarm.context.interrupt();
                            alarm.fired = true;
                            alarm.deadline = None;
                            alarm
                        }
                        Some(deadline) => {
                            let limit = crate::memory::limit_bytes();
                            let mut wait = deadline.saturating_duration_since(Instant::now());
                            if limit.is_some() {
                                wait = wait.min(MEMORY_POLL);
                            }
                            let mut alarm = match wake.wait_timeout(alarm, wait) {
                                Ok((a, _)) => a,
                                Err(_) => return,
                            };
                            if let Some(limit) = limit
                                && alarm.deadline.is_some()
                                && z3_allocated() > limit
                            {
                                alarm.context.interrupt();
                                alarm.fired = true;
                                alarm.memout = true;
                                alarm.deadline = None;
                            }
                            alarm
                        }
                    }
                }
            })
            .map_err(|e| format!("cannot start the Z3 watchdog: {e}"))?;
        Ok(Watchdog { alarm, thread: Some(thread) })
    }

    fn arm(&self, deadline: Instant) {
        let (lock, wake) = &*self.alarm;
        if let Ok(mut alarm) = lock.lock() {
            alarm.deadline = Some(deadline);
            wake.notify_one();
        }
    }

    /// Disarms the alarm; whether it fired, and whether for the memory limit.
    fn disarm(&self) -> (bool, bool) {
        let (lock, _) = &*self.alarm;
        match lock.lock() {
            Ok(mut alarm) => {
                alarm.deadline = None;
                (std::mem::take(&mut alarm.fired), std::mem::take(&mut alarm.memout))
            }
            Err(_) => (true, false),
        }
    }

    /// Watches `context` from now on (the alarm is disarmed between calls).
    fn watch(&self, context: Context) {
        let (lock, _) = &*self.alarm;
        let mut alarm = lock.lock().unwrap_or_else(PoisonError::into_inner);
        alarm.context = context;
        alarm.deadline = None;
        alarm.fired = false;
        alarm.memout = false;
    }
}

impl Drop for Watchdog {
    fn drop(&mut self) {
        let (lock, wake) = &*self.alarm;
        if let Ok(mut alarm) = lock.lock() {
            alarm.shutdown = true;
            wake.notify_one();
        }
        if let Some(thread) = self.thread.take() {
            let _ = thread.join();
        }
    }
}

/// A call for the [`Worker`]: the context, the text, where the output goes.
struct Job {
    context: Context,
    text: CString,
    reply: mpsc::Sender<String>,
}

/// The thread a session's calls run on, one after another (with the deep stack Z3 needs). A
/// worker whose call was given up on is dropped: it ends once that call returns.
struct Worker {
    jobs: mpsc::Sender<Job>,
}

impl Worker {
    fn start() -> Option<Worker> {
        let (jobs, queue) = mpsc::channel::<Job>();
        std::thread::Builder::new()
            .name("z3-call".into())
            .stack_size(CALL_STACK)
            .spawn(move || {
                // The check's memory too (see the function).
                crate::alloc::huge_pages_for_c_heap();
                while let Ok(job) = queue.recv() {
                    // SAFETY: the context is used by this call alone: the transport makes no
                    // other call into it before this one's result arrives, and never again
                    // (nor deletes it) if it gives this call up.
                    let _ = job.reply.send(unsafe { eval_in(job.context, &job.text) });
                }
            })
            .ok()?;
        Some(Worker { jobs })
    }
}

/// Z3 in this process: a context, its watchdog, and its session's parameters.
struct Calls {
    context: Context,
    /// The thread the calls run on, made at the first call.
    worker: Option<Worker>,
    /// Joined in `Drop` before the context is deleted.
    watchdog: Option<Watchdog>,
    /// This session's values of [`SESSION_PARAMS`], in that order.
    params: Vec<CString>,
    /// The options its contexts are made under (its preamble's).
    options: Arc<Options>,
    /// The options its texts set so far (its preamble's and any later), which the globals
    /// hold while a call of this session holds [`GLOBAL_PARAMS`].
    set: Options,
    /// Set when the watchdog interrupted a call: the context is cancelled for good.
    interrupted: bool,
    /// ... because the process passed the memory limit.
    memout: bool,
    /// Set when a call was given up on: its thread still uses the context.
    abandoned: bool,
}

enum Backend {
    InProcess(Calls),
    /// The fallback once a call was given up on: `rboogie --rboogie-z3-server`.
    Server(PipeTransport),
}

pub(crate) struct Z3Transport {
    backend: Backend,
    responses: VecDeque<String>,
}

/// Starts the Z3 server process, when one is registered.
fn server() -> Option<Result<PipeTransport, String>> {
    let exe = SERVER.get()?;
    Some(PipeTransport::spawn(&exe.to_string_lossy(), &[SERVER_FLAG.to_string()]))
}

impl Z3Transport {
    /// A session that starts with `preamble` (its options act from the context's making).
    pub(crate) fn new(preamble: &str) -> Result<Z3Transport, String> {
        if abandoned_a_call()
            && let Some(server) = server()
        {
            return Ok(Z3Transport { backend: Backend::Server(server?), responses: VecDeque::new() });
        }
        let options = Arc::new(options_of(preamble));
        Ok(Z3Transport { backend: Backend::InProcess(Calls::new(options)?), responses: VecDeque::new() })
    }
}

impl Calls {
    fn new(options: Arc<Options>) -> Result<Calls, String> {
        let params: Vec<CString> = SESSION_PARAMS.iter().map(|(_, default)| (*default).to_owned()).collect();
        let context = match take_prewarmed(&options) {
            Some(context) => context,
            None => Context::new(&params, &options)?,
        };
        let watchdog = match Watchdog::start(context) {
            Ok(w) => w,
            Err(e) => {
                // SAFETY: never used, never watched.
                unsafe { context.delete() };
                return Err(e);
            }
        };
        Ok(Calls {
            context,
            worker: None,
            watchdog: Some(watchdog),
            params,
            set: options.to_vec(),
            options,
            interrupted: false,
            memout: false,
            abandoned: false,
        })
    }

    /// What ended the context's calls: the deadline or the memory limit.
    fn fault(&self) -> Fault {
        if self.memout { Fault::OutOfMemory } else { Fault::Timeout }
    }

    /// Runs `text` in the context, interrupting it at `deadline` and giving it up [`GRACE`]
    /// later; returns what it printed.
    fn eval(&mut self, text: &CStr, deadline: Instant) -> String {
        let context = self.context;
        let bytes = text.to_bytes();
        // A VC is megabytes: searched by memchr's vectorised search, not byte by byte.
        let has = |what: &[u8]| memchr::memmem::find(bytes, what).is_some();
        // Calls that set options, and those that print values, which the globals format.
        let reads_globals = has(b"set-option") || has(b"(get-") || has(b"(eval");
        let lock = reads_globals.then(global_params);
        if lock.is_some() {
            put_session_globals(&self.params, &self.set);
        }
        if let Some(watchdog) = &self.watchdog {
            watchdog.arm(deadline);
        }
        let (sender, receiver) = mpsc::channel();
        let owned = text.to_owned();
        if self.worker.is_none() {
            self.worker = Worker::start();
        }
        let sent = match &self.worker {
            Some(worker) => worker.jobs.send(Job { context, text: owned, reply: sender }).is_ok(),
            None => false,
        };
        let output = if sent {
            loop {
                // Waits are cut into hours: a deadline "never" is far in the future.
                let wait = (deadline + GRACE).saturating_duration_since(Instant::now()).min(Duration::from_secs(3600));
                match receiver.recv_timeout(wait) {
                    Ok(output) => break output,
                    Err(mpsc::RecvTimeoutError::Timeout) if Instant::now() < deadline + GRACE => {}
                    Err(_) => {
                        self.abandoned = true;
                        // The worker finishes the call on its own and then ends.
                        self.worker = None;
                        ABANDONED.store(true, Ordering::Relaxed);
                        break String::new();
                    }
                }
            }
        } else {
            // No thread for the call: run it here.
            // SAFETY: the context is used by this call alone.
            unsafe { eval_in(context, text) }
        };
        let (fired, memout) = self.watchdog.as_ref().map_or((false, false), Watchdog::disarm);
        if fired || self.abandoned {
            self.interrupted = true;
        }
        self.memout |= memout;
        if lock.is_some() && !self.abandoned {
            note_options(&mut self.set, bytes);
            for ((name, _), value) in SESSION_PARAMS.iter().zip(&mut self.params) {
                let mut current: z3_sys::Z3_string = std::ptr::null();
                // SAFETY: under the lock; Z3 returns a string it owns, copied at once.
                unsafe {
                    if z3_sys::Z3_global_param_get(name.as_ptr(), &mut current) && !current.is_null() {
                        *value = CStr::from_ptr(current).to_owned();
                    }
                }
            }
        }
        output
    }
}

/// One `Z3_eval_smtlib2_string` call and what it printed, Z3's API errors as `(error ...)`.
///
/// SAFETY: `context` is valid and no other call into it runs.
unsafe fn eval_in(context: Context, text: &CStr) -> String {
    // SAFETY: a valid context and a NUL-terminated string; the result is copied before the
    // next call into the context.
    unsafe {
        let result = z3_sys::Z3_eval_smtlib2_string(context.0, text.as_ptr());
        let mut output =
            if result.is_null() { String::new() } else { CStr::from_ptr(result).to_string_lossy().into_owned() };
        let code = z3_sys::Z3_get_error_code(context.0);
        if code != ErrorCode::Ok && !output.contains("(error") {
            let message = z3_sys::Z3_get_error_msg(context.0, code);
            let message = if message.is_null() {
                format!("{code:?}")
            } else {
                CStr::from_ptr(message).to_string_lossy().into_owned()
            };
            output += &format!("\n(error \"{}\")\n", message.replace('"', "\"\""));
        }
        output
    }
}

impl Transport for Z3Transport {
    fn send(&mut self, text: &str, deadline: Instant) -> Result<(), Fault> {
        let calls = match &mut self.backend {
            Backend::Server(server) => return server.send(text, deadline),
            Backend::InProcess(calls) => calls,
        };
        if calls.interrupted {
            return Err(calls.fault());
        }
        let Ok(text) = CString::new(text) else {
            return Err(Fault::Failed("a NUL byte in SMT-LIB text".into()));
        };
        let output = calls.eval(&text, deadline);
        // Should a warning reach the output, it is not an answer.
        let mut output: Vec<u8> = output
            .lines()
            .filter(|line| !line.starts_with("WARNING"))
            .flat_map(|line| line.bytes().chain([b'\n']))
            .collect();
        output.push(b'\n');
        let mut rest = &output[..];
        while let Some((range, next)) = super::sexpr::next_response(rest) {
            self.responses.push_back(String::from_utf8_lossy(&rest[range]).into_owned());
            rest = &rest[next..];
        }
        if calls.interrupted { Err(calls.fault()) } else { Ok(()) }
    }

    fn next_response(&mut self, deadline: Instant) -> Result<String, Fault> {
        match &mut self.backend {
            Backend::Server(server) => server.next_response(deadline),
            Backend::InProcess(calls) if calls.interrupted => Err(calls.fault()),
            Backend::InProcess(_) => {
                self.responses.pop_front().ok_or_else(|| Fault::Failed("Z3 gave no answer".into()))
            }
        }
    }

    /// A new context: nothing of the old one's declarations, assertions and tables remains
    /// (a `(reset)` would keep the context's term tables, whose numbering then depends on what
    /// was checked before). The session's limits carry over, as options do over `(reset)`.
    /// Once a call was given up on, the server process instead, when there is one.
    fn reset(&mut self, deadline: Instant) -> Result<(), Fault> {
        self.responses.clear();
        let calls = match &mut self.backend {
            Backend::Server(server) => return server.reset(deadline),
            Backend::InProcess(calls) => calls,
        };
        if abandoned_a_call()
            && let Some(server) = server()
        {
            let mut server = server.map_err(Fault::Failed)?;
            // The session's limits carry over.
            let mut options = String::new();
            for ((name, _), value) in SESSION_PARAMS.iter().zip(&calls.params) {
                options += &format!("(set-option :{} {})\n", name.to_string_lossy(), value.to_string_lossy());
            }
            server.send(&options, deadline)?;
            self.backend = Backend::Server(server);
            return Ok(());
        }
        if calls.abandoned {
            // The abandoned call still uses the old context, which dropping `Calls` leaves be.
            let mut fresh = Calls::new(calls.options.clone()).map_err(Fault::Failed)?;
            fresh.params = calls.params.clone();
            fresh.set = calls.set.clone();
            *calls = fresh;
            return Ok(());
        }
        // Options carry over a reset, as in the `z3` binary: the new context is made under all
        // the session set (a context made ahead only knows its preamble's).
        let prewarmed = if calls.set == *calls.options { take_prewarmed(&calls.options) } else { None };
        let context = match prewarmed {
            Some(context) => context,
            None => Context::new(&calls.params, &calls.set).map_err(Fault::Failed)?,
        };
        if let Some(watchdog) = &calls.watchdog {
            watchdog.watch(context);
        }
        let old = std::mem::replace(&mut calls.context, context);
        if std::mem::take(&mut calls.memout) {
            // SAFETY: the watchdog now watches the new context; no call runs in the old one.
            unsafe { old.delete() };
            give_back_freed_memory();
        } else {
            // SAFETY: as above.
            unsafe { retire(old, &calls.options) };
        }
        calls.interrupted = false;
        Ok(())
    }
}

impl Drop for Calls {
    fn drop(&mut self) {
        // The watchdog thread is joined first: nothing can interrupt a deleted context.
        self.watchdog = None;
        if self.abandoned {
            return; // its call may still run in the context
        }
        if self.memout {
            // SAFETY: no call into the context runs, and no thread holds it any more.
            unsafe { self.context.delete() };
            give_back_freed_memory();
        } else {
            // SAFETY: as above.
            unsafe { retire(self.context, &self.options) };
        }
    }
}

/// libz3 allocates with the C library's malloc, which keeps freed memory in the process: after
/// a context that passed the memory limit is deleted, its memory is given back, so that the
/// next session does not start above the limit.
fn give_back_freed_memory() {
    #[cfg(all(target_os = "linux", target_env = "gnu"))]
    // SAFETY: no preconditions.
    unsafe {
        libc::malloc_trim(0);
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn pairs(text: &str) -> Vec<(String, String)> {
        set_options(text.as_bytes())
            .into_iter()
            .map(|(n, v)| (String::from_utf8(n).expect("name"), String::from_utf8(v).expect("value")))
            .collect()
    }

    /// The options a preamble sets, as the globals take them: a string without its quotes
    /// (a doubled quote is one), other values as written; malformed commands are skipped.
    #[test]
    fn set_options_reads_names_and_values() {
        let text = "(set-option :print-success false)\n(set-info :smt-lib-version 2.6)\n\
                    (set-option  :smt.qi.eager_threshold   100)(set-option :smt.mbqi.id \"a \"\"b\"\" )\")\n\
                    (set-option smt.bad 1)(set-option :x)(set-option :y 1.5)";
        assert_eq!(
            pairs(text),
            [
                ("print-success".into(), "false".into()),
                ("smt.qi.eager_threshold".into(), "100".into()),
                ("smt.mbqi.id".into(), "a \"b\" )".into()),
                ("y".into(), "1.5".into()),
            ]
        );
    }

    /// A session's own limits are not among the options contexts are made under, and a name
    /// set twice keeps its last value.
    #[test]
    fn options_of_leave_out_session_params_and_keep_last_values() {
        let options = options_of("(set-option :timeout 10)(set-option :smt.mbqi false)(set-option :smt.mbqi true)");
        assert_eq!(options, [(c"smt.mbqi".to_owned(), c"true".to_owned())]);
    }
}
