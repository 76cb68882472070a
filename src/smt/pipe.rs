//! Any SMT-LIB solver as a process over pipes (`--solver z3|cvc5|COMMAND`).
//!
//! A small driver of its own rather than easy-smt's: easy-smt writes on the caller's thread and
//! reads the answer with a blocking read, so a solver that stops reading (its input pipe full)
//! or stops answering would hang rboogie, and there is no place to put a deadline. Here three
//! threads do the blocking, and the caller only ever waits on a channel with a deadline:
//! - a writer thread takes text from a channel and writes it to the solver's stdin, so
//!   [`Transport::send`] never blocks, whatever the solver does;
//! - a reader thread forwards stdout in chunks as they arrive, and says when it closes;
//! - a stderr thread keeps the last few hundred bytes, for the message when the solver dies.
//!
//! [`Transport::next_response`] assembles the chunks into responses
//! ([`super::sexpr::next_response`]) and waits on the reader's channel no later than the
//! deadline; when the deadline passes it kills the solver (the watchdog: the solver's own time
//! limit should have answered `unknown` first). While it waits it also reads the solver's
//! resident memory every [`MEMORY_POLL`]: past the memory limit ([`crate::memory`]) the solver
//! is killed and the query is out of memory. The process is killed and reaped when the
//! transport is dropped. Only that process: a wrapper script around a solver should `exec` it,
//! or its child outlives the kill.

use super::protocol::{Fault, Transport, abbreviate};
use super::sexpr::Scanner;
use std::io::{BufRead, BufReader, Read, Write};
use std::process::{Child, Command, Stdio};
use std::sync::mpsc::{self, Receiver, RecvTimeoutError, Sender};
use std::sync::{Arc, Mutex};
use std::time::Instant;

/// Makes the solver die with rboogie: a solver outlived an rboogie killed by a signal (a test
/// harness's time limit), computing for nobody. Linux delivers the signal when the thread that
/// started the solver ends; each session is started and dropped on the thread that uses it.
#[cfg(target_os = "linux")]
fn die_with_parent(command: &mut Command) {
    use std::os::unix::process::CommandExt;
    // SAFETY: the closure runs in the child between fork and exec and calls only
    // async-signal-safe functions (prctl, getppid, _exit).
    let parent = std::process::id() as libc::pid_t;
    unsafe {
        command.pre_exec(move || {
            if libc::prctl(libc::PR_SET_PDEATHSIG, libc::SIGKILL) != 0 {
                return Err(std::io::Error::last_os_error());
            }
            // rboogie may have died before the request took effect.
            if libc::getppid() != parent {
                libc::_exit(1);
            }
            Ok(())
        });
    }
}

#[cfg(not(target_os = "linux"))]
fn die_with_parent(_command: &mut Command) {}

/// How often the solver's resident memory is read while rboogie waits for it.
const MEMORY_POLL: std::time::Duration = std::time::Duration::from_millis(100);

/// Responses longer than this are garbage: the solver is babbling.
const MAX_RESPONSE: usize = 256 << 20;

/// What the reader thread forwards.
enum Output {
    Bytes(Vec<u8>),
    /// stdout closed (or could not be read); the text says why.
    Closed(String),
}

pub(crate) struct PipeTransport {
    child: Child,
    /// Text for the writer thread; `None` once the solver's stdin is closed.
    input: Option<Sender<Vec<u8>>>,
    output: Receiver<Output>,
    /// Bytes read but not yet returned as responses.
    buffer: Vec<u8>,
    /// Where the scan of `buffer` for the next response stands.
    scanner: Scanner,
    closed: Option<String>,
    stderr_tail: Arc<Mutex<Vec<u8>>>,
    /// The thread collecting `stderr_tail`: finished once the solver's stderr is closed.
    stderr_reader: Option<std::thread::JoinHandle<()>>,
    name: String,
}

impl PipeTransport {
    /// Starts `path args...`.
    pub(crate) fn spawn(path: &str, args: &[String]) -> Result<PipeTransport, String> {
        let mut command = Command::new(path);
        command.args(args).stdin(Stdio::piped()).stdout(Stdio::piped()).stderr(Stdio::piped());
        die_with_parent(&mut command);
        let mut child = command.spawn().map_err(|e| format!("cannot start solver {path}: {e}"))?;
        let (Some(mut stdin), Some(stdout), Some(stderr)) =
            (child.stdin.take(), child.stdout.take(), child.stderr.take())
        else {
            let _ = child.kill();
            let _ = child.wait();
            return Err(format!("cannot start solver {path}: no pipes"));
        };

        let (input, input_rx) = mpsc::channel::<Vec<u8>>();
        let spawned = std::thread::Builder::new().name("solver-stdin".into()).spawn(move || {
            for text in input_rx {
                if stdin.write_all(&text).and_then(|()| stdin.flush()).is_err() {
                    break;
                }
            }
        });

        let (output_tx, output) = mpsc::channel();
        let reader = std::thread::Builder::new().name("solver-stdout".into()).spawn(move || {
            let mut stdout = BufReader::with_capacity(1 << 16, stdout);
            loop {
                match stdout.fill_buf() {
                    Ok([]) => {
                        let _ = output_tx.send(Output::Closed("the solver closed its output".into()));
                        return;
                    }
                    Ok(bytes) => {
                        let chunk = bytes.to_vec();
                        stdout.consume(chunk.len());
                        if output_tx.send(Output::Bytes(chunk)).is_err() {
                            return;
                        }
                    }
                    Err(e) if e.kind() == std::io::ErrorKind::Interrupted => {}
                    Err(e) => {
                        let _ = output_tx.send(Output::Closed(format!("cannot read the solver's output: {e}")));
                        return;
                    }
                }
            }
        });

        let stderr_tail = Arc::new(Mutex::new(Vec::new()));
        let tail = stderr_tail.clone();
        let errors = std::thread::Builder::new().name("solver-stderr".into()).spawn(move || {
            let mut stderr = stderr;
            let mut chunk = [0u8; 4096];
            while let Ok(n @ 1..) = stderr.read(&mut chunk) {
                if let Ok(mut tail) = tail.lock() {
                    tail.extend_from_slice(&chunk[..n]);
                    let excess = tail.len().saturating_sub(2048);
                    tail.drain(..excess);
                }
            }
        });

        let (Ok(_), Ok(_), Ok(errors)) = (spawned, reader, errors) else {
            let _ = child.kill();
            let _ = child.wait();
            return Err("cannot start the threads that talk to the solver".into());
        };
        Ok(PipeTransport {
            child,
            input: Some(input),
            output,
            buffer: Vec::new(),
            scanner: Scanner::default(),
            closed: None,
            stderr_tail,
            stderr_reader: Some(errors),
            name: path.to_string(),
        })
    }

    /// Why the solver is gone: what it said on stderr and how it exited.
    fn gone(&mut self, why: &str) -> Fault {
        // The solver has closed its output, so it has exited or is about to.
        let deadline = Instant::now() + std::time::Duration::from_millis(200);
        let mut status = None;
        while Instant::now() < deadline {
            match self.child.try_wait() {
                Ok(Some(s)) => {
                    status = Some(s);
                    break;
                }
                Ok(None) => std::thread::sleep(std::time::Duration::from_millis(5)),
                Err(_) => break,
            }
        }
        // What it said last on stderr may still be on its way to the reader thread.
        while Instant::now() < deadline && self.stderr_reader.as_ref().is_some_and(|r| !r.is_finished()) {
            std::thread::sleep(std::time::Duration::from_millis(2));
        }
        let mut text = format!("{} ({}", why, self.name);
        match status {
            Some(s) => text += &format!(", {s})"),
            None => text += ")",
        }
        let tail = self.stderr_tail.lock().map(|t| String::from_utf8_lossy(&t).trim().to_string()).unwrap_or_default();
        if !tail.is_empty() {
            text += &format!(": {}", abbreviate(&tail));
        }
        Fault::Failed(text)
    }

    fn kill(&mut self) {
        self.input = None;
        let _ = self.child.kill();
        let _ = self.child.wait();
    }

    /// A complete response at the front of the buffer, if there is one. A line starting with
    /// `WARNING` (z3's warnings on stdout) is skipped.
    fn take_response(&mut self) -> Option<String> {
        let (range, next) = self.scanner.next(&self.buffer)?;
        let text = String::from_utf8_lossy(&self.buffer[range.clone()]).into_owned();
        if text.starts_with("WARNING") {
            let end = self.buffer[range.start..].iter().position(|&b| b == b'\n')?;
            self.buffer.drain(..range.start + end + 1);
            self.scanner = Scanner::default();
            return self.take_response();
        }
        self.buffer.drain(..next);
        self.scanner = Scanner::default();
        Some(text)
    }
}

impl Transport for PipeTransport {
    /// `(reset)`; but a solver that kept more than half the memory limit from the queries
    /// before (solvers do not give memory back on a reset) is ended instead, so that the
    /// session is replaced by a fresh solver and the next query starts with its whole share.
    fn reset(&mut self, deadline: Instant) -> Result<(), Fault> {
        if let Some(limit) = crate::memory::limit_bytes()
            && crate::memory::resident_bytes(self.child.id()).is_some_and(|rss| rss > limit / 2)
        {
            self.kill();
            return Err(Fault::Failed("the solver kept more than half the memory limit after a query".into()));
        }
        self.send("(reset)\n", deadline)
    }

    fn send(&mut self, text: &str, _deadline: Instant) -> Result<(), Fault> {
        match &self.input {
            Some(input) if input.send(text.as_bytes().to_vec()).is_ok() => Ok(()),
            _ => Err(self.gone("the solver does not take input")),
        }
    }

    fn next_response(&mut self, deadline: Instant) -> Result<String, Fault> {
        loop {
            if let Some(response) = self.take_response() {
                return Ok(response);
            }
            if let Some(why) = self.closed.clone() {
                let rest = String::from_utf8_lossy(&self.buffer).trim().to_string();
                let why = if rest.is_empty() { why } else { format!("{why} after: {}", abbreviate(&rest)) };
                return Err(self.gone(&why));
            }
            if self.buffer.len() > MAX_RESPONSE {
                self.kill();
                return Err(Fault::Failed(format!("the solver printed more than {MAX_RESPONSE} bytes of no answer")));
            }
            // Checked here too: a solver that never stops printing never lets a wait run out.
            let wait = deadline.saturating_duration_since(Instant::now());
            if wait.is_zero() {
                self.kill();
                return Err(Fault::Timeout);
            }
            let limit = crate::memory::limit_bytes();
            let slice = if limit.is_some() { wait.min(MEMORY_POLL) } else { wait };
            match self.output.recv_timeout(slice) {
                Ok(Output::Bytes(bytes)) => self.buffer.extend_from_slice(&bytes),
                Ok(Output::Closed(why)) => {
                    // What is left may be a last atom with no newline after it.
                    self.buffer.push(b'\n');
                    self.closed = Some(why);
                }
                Err(RecvTimeoutError::Timeout) => {
                    if let Some(limit) = limit
                        && crate::memory::resident_bytes(self.child.id()).is_some_and(|rss| rss > limit)
                    {
                        self.kill();
                        return Err(Fault::OutOfMemory);
                    }
                    if slice < wait {
                        continue;
                    }
                    self.kill();
                    return Err(Fault::Timeout);
                }
                Err(RecvTimeoutError::Disconnected) => self.closed = Some("the solver closed its output".into()),
            }
        }
    }
}

impl Drop for PipeTransport {
    fn drop(&mut self) {
        self.kill();
    }
}
