//! Z3 in-process (the default backend): the machine's libz3 through `z3-sys`, spoken to in
//! SMT-LIB text.
//!
//! `Z3_eval_smtlib2_string` runs commands in a context's own SMT-LIB command interpreter (the
//! one `z3 -in` uses), which persists across calls, so the session is the same conversation as
//! over a pipe and the log replays in `z3`. Only functions that Z3 4.8.12 (Debian's libz3)
//! exports are called: `Z3_global_param_set`, `Z3_global_param_get`, `Z3_mk_config`,
//! `Z3_mk_context`, `Z3_set_error_handler`, `Z3_eval_smtlib2_string`, `Z3_get_error_code`,
//! `Z3_get_error_msg`, `Z3_interrupt`, `Z3_del_config`, `Z3_del_context`.
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
//! ## Limits and Z3's process-wide parameters
//! `(set-option :timeout ...)` and `:rlimit` (like every option that is not SMT-LIB's own)
//! set Z3's *global* parameters, and a context copies all of those into its own settings
//! whenever it runs a `set-option`, and when its command interpreter is made (at its first
//! call). So one session's limits would reach every session that sets an option after it,
//! a session opened later through its very preamble; libz3 4.8.12 has no per-context
//! parameter its SMT-LIB interpreter reads instead. Each transport therefore keeps its own
//! values of these per-session parameters ([`SESSION_PARAMS`]) and runs every call that may
//! set an option, or make the interpreter, under one process-wide lock ([`GLOBAL_PARAMS`]):
//! it puts its own values into the globals first and reads back, after the call, what its
//! text set. Making a context reads the globals too, so it is made under the lock as well,
//! with the session's values. A context's limits are then only ever what its own session asked for, which the
//! check-sat reads from the context's copy. The other global options (`smt.mbqi`, ...) come
//! from the command line, the same for every session of a run. Calls that set no option (the
//! VC, `check-sat`) run outside the lock, in parallel.

use super::protocol::{Fault, Transport};
use std::collections::VecDeque;
use std::ffi::{CStr, CString};
use std::sync::{Arc, Condvar, Mutex, MutexGuard, PoisonError};
use std::thread::JoinHandle;
use std::time::Instant;
use z3_sys::{ErrorCode, Z3_context};

/// Held while a call may read or write Z3's global parameters (see the module header).
static GLOBAL_PARAMS: Mutex<()> = Mutex::new(());

/// The global parameters each session has a value of its own for, with Z3's defaults.
const SESSION_PARAMS: [(&CStr, &CStr); 2] = [(c"timeout", c"4294967295"), (c"rlimit", c"0")];

fn global_params() -> MutexGuard<'static, ()> {
    GLOBAL_PARAMS.lock().unwrap_or_else(PoisonError::into_inner)
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
    /// A context made with `params` as Z3's global values of [`SESSION_PARAMS`]: making one
    /// reads the global parameters too.
    fn new(params: &[CString]) -> Result<Context, String> {
        let _params = global_params();
        // SAFETY: plain constructor calls; the config is deleted once the context is made;
        // Z3's global parameters are set under the lock.
        unsafe {
            for ((name, _), value) in SESSION_PARAMS.iter().zip(params) {
                z3_sys::Z3_global_param_set(name.as_ptr(), value.as_ptr());
            }
            // Z3 4.8.12 prints warnings on the process's stderr; Boogie shows none by default
            // (`/proverWarnings:0`).
            z3_sys::Z3_global_param_set(c"warning".as_ptr(), c"false".as_ptr());
            let config = z3_sys::Z3_mk_config().ok_or("Z3_mk_config failed")?;
            let context = z3_sys::Z3_mk_context(config);
            z3_sys::Z3_del_config(config);
            let context = context.ok_or("Z3_mk_context failed")?;
            z3_sys::Z3_set_error_handler(context, None);
            Ok(Context(context))
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
    shutdown: bool,
}

struct Watchdog {
    alarm: Arc<(Mutex<Alarm>, Condvar)>,
    thread: Option<JoinHandle<()>>,
}

impl Watchdog {
    fn start(context: Context) -> Result<Watchdog, String> {
        let alarm = Alarm { context, deadline: None, fired: false, shutdown: false };
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
                            match wake.wait_timeout(alarm, deadline.saturating_duration_since(Instant::now())) {
                                Ok((a, _)) => a,
                                Err(_) => return,
                            }
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

    /// Disarms the alarm; whether it fired.
    fn disarm(&self) -> bool {
        let (lock, _) = &*self.alarm;
        match lock.lock() {
            Ok(mut alarm) => {
                alarm.deadline = None;
                std::mem::take(&mut alarm.fired)
            }
            Err(_) => true,
        }
    }

    /// Watches `context` from now on (the alarm is disarmed between calls).
    fn watch(&self, context: Context) {
        let (lock, _) = &*self.alarm;
        let mut alarm = lock.lock().unwrap_or_else(PoisonError::into_inner);
        alarm.context = context;
        alarm.deadline = None;
        alarm.fired = false;
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

pub(crate) struct Z3Transport {
    context: Context,
    /// Joined in `Drop` before the context is deleted.
    watchdog: Option<Watchdog>,
    responses: VecDeque<String>,
    /// Set when the watchdog interrupted a call: the context is cancelled for good.
    interrupted: bool,
    /// This session's values of [`SESSION_PARAMS`], in that order.
    params: Vec<CString>,
    /// The context's command interpreter is made by its first call.
    fresh: bool,
}

impl Z3Transport {
    pub(crate) fn new() -> Result<Z3Transport, String> {
        let params: Vec<CString> = SESSION_PARAMS.iter().map(|(_, default)| (*default).to_owned()).collect();
        let context = Context::new(&params)?;
        let watchdog = match Watchdog::start(context) {
            Ok(w) => w,
            Err(e) => {
                // SAFETY: never used, never watched.
                unsafe { context.delete() };
                return Err(e);
            }
        };
        Ok(Z3Transport {
            context,
            watchdog: Some(watchdog),
            responses: VecDeque::new(),
            interrupted: false,
            params,
            fresh: true,
        })
    }

    /// Runs `text` in the context, interrupting it at `deadline`; returns what it printed.
    fn eval(&mut self, text: &CStr, deadline: Instant) -> String {
        let context = self.context;
        let sets_options = self.fresh || text.to_bytes().windows(10).any(|w| w == b"set-option");
        let params = sets_options.then(global_params);
        if params.is_some() {
            for ((name, _), value) in SESSION_PARAMS.iter().zip(&self.params) {
                // SAFETY: NUL-terminated strings, under the lock.
                unsafe { z3_sys::Z3_global_param_set(name.as_ptr(), value.as_ptr()) };
            }
        }
        self.fresh = false;
        if let Some(watchdog) = &self.watchdog {
            watchdog.arm(deadline);
        }
        // SAFETY: a valid context and a NUL-terminated string; the result is copied before the
        // next call into the context.
        let output = unsafe {
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
        };
        if self.watchdog.as_ref().is_some_and(Watchdog::disarm) {
            self.interrupted = true;
        }
        if params.is_some() {
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

impl Transport for Z3Transport {
    fn send(&mut self, text: &str, deadline: Instant) -> Result<(), Fault> {
        if self.interrupted {
            return Err(Fault::Timeout);
        }
        let Ok(text) = CString::new(text) else {
            return Err(Fault::Failed("a NUL byte in SMT-LIB text".into()));
        };
        let output = self.eval(&text, deadline);
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
        if self.interrupted { Err(Fault::Timeout) } else { Ok(()) }
    }

    fn next_response(&mut self, _deadline: Instant) -> Result<String, Fault> {
        if self.interrupted {
            return Err(Fault::Timeout);
        }
        self.responses.pop_front().ok_or_else(|| Fault::Failed("Z3 gave no answer".into()))
    }

    /// A new context: nothing of the old one's declarations, assertions and tables remains
    /// (a `(reset)` would keep the context's term tables, whose numbering then depends on what
    /// was checked before). The session's limits carry over, as options do over `(reset)`.
    fn reset(&mut self, _deadline: Instant) -> Result<(), Fault> {
        let context = Context::new(&self.params).map_err(Fault::Failed)?;
        if let Some(watchdog) = &self.watchdog {
            watchdog.watch(context);
        }
        let old = std::mem::replace(&mut self.context, context);
        // SAFETY: the watchdog now watches the new context; no call runs in the old one.
        unsafe { old.delete() };
        self.responses.clear();
        self.interrupted = false;
        self.fresh = true;
        Ok(())
    }
}

impl Drop for Z3Transport {
    fn drop(&mut self) {
        // The watchdog thread is joined first: nothing can interrupt a deleted context.
        self.watchdog = None;
        // SAFETY: no call into the context runs, and no thread holds it any more.
        unsafe { self.context.delete() };
    }
}
