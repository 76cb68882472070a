//! Z3 in-process (the default backend): the machine's libz3 through `z3-sys`, spoken to in
//! SMT-LIB text.
//!
//! `Z3_eval_smtlib2_string` runs commands in a context's own SMT-LIB command interpreter (the
//! one `z3 -in` uses), which persists across calls, so the session is the same conversation as
//! over a pipe and the log replays in `z3`. Only functions that Z3 4.8.12 (Debian's libz3)
//! exports are called: `Z3_global_param_set`, `Z3_mk_config`, `Z3_mk_context`, `Z3_set_error_handler`,
//! `Z3_eval_smtlib2_string`, `Z3_get_error_code`, `Z3_get_error_msg`, `Z3_interrupt`,
//! `Z3_del_config`, `Z3_del_context`.
//!
//! A call runs the commands to the end before it returns, so the output of each call is split
//! into responses at once and queued for [`Transport::next_response`]. The deadline is kept by
//! the `:timeout` option the session sets and, as a watchdog, by a thread (one per context,
//! armed with each call's deadline) that calls `Z3_interrupt` when the deadline passes; an
//! interrupted context is not used again (Z3 keeps it cancelled), so the session dies with
//! [`Fault::Timeout`]. Z3's API errors are reported
//! as `(error ...)` responses, never by Z3's default handler, which exits the process.
//!
//! Z3 keeps some parameters global to the process (`:timeout`, `smt.mbqi`, ...): sessions in
//! parallel threads all set the same values, from the same command line.

use super::protocol::{Fault, Transport};
use std::collections::VecDeque;
use std::ffi::{CStr, CString};
use std::sync::{Arc, Condvar, Mutex};
use std::thread::JoinHandle;
use std::time::Instant;
use z3_sys::{ErrorCode, Z3_context};

/// A context pointer the watchdog thread may interrupt through.
#[derive(Clone, Copy)]
struct Context(Z3_context);

// SAFETY: Z3 contexts may be moved between threads; `Z3_interrupt` is the one call made from
// another thread while a call runs, which is what Z3 provides it for. Every other call is made
// by the owning transport, one at a time.
unsafe impl Send for Context {}
unsafe impl Sync for Context {}

impl Context {
    fn interrupt(self) {
        // SAFETY: the transport joins the watchdog thread before it deletes the context.
        unsafe { z3_sys::Z3_interrupt(self.0) };
    }
}

/// What the watchdog thread and the calling thread share.
#[derive(Default)]
struct Alarm {
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
        let alarm = Arc::new((Mutex::new(Alarm::default()), Condvar::new()));
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
                            context.interrupt();
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
}

impl Z3Transport {
    pub(crate) fn new() -> Result<Z3Transport, String> {
        // SAFETY: plain constructor calls; the config is deleted once the context is made.
        unsafe {
            // Z3 4.8.12 prints warnings on the process's stderr; Boogie shows none by default
            // (`/proverWarnings:0`).
            z3_sys::Z3_global_param_set(c"warning".as_ptr(), c"false".as_ptr());
            let config = z3_sys::Z3_mk_config().ok_or("Z3_mk_config failed")?;
            let context = z3_sys::Z3_mk_context(config);
            z3_sys::Z3_del_config(config);
            let context = context.ok_or("Z3_mk_context failed")?;
            z3_sys::Z3_set_error_handler(context, None);
            let watchdog = match Watchdog::start(Context(context)) {
                Ok(w) => w,
                Err(e) => {
                    z3_sys::Z3_del_context(context);
                    return Err(e);
                }
            };
            Ok(Z3Transport {
                context: Context(context),
                watchdog: Some(watchdog),
                responses: VecDeque::new(),
                interrupted: false,
            })
        }
    }

    /// Runs `text` in the context, interrupting it at `deadline`; returns what it printed.
    fn eval(&mut self, text: &CStr, deadline: Instant) -> String {
        let context = self.context;
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
}

impl Drop for Z3Transport {
    fn drop(&mut self) {
        // The watchdog thread is joined first: nothing can interrupt a deleted context.
        self.watchdog = None;
        // SAFETY: no call into the context runs, and no thread holds it any more.
        unsafe { z3_sys::Z3_del_context(self.context.0) };
    }
}
