//! The `rboogie` executable: parse the command line, run, exit with Boogie's code.

use std::io::{self, IsTerminal, Write};
use std::process::ExitCode;
use std::sync::{Mutex, PoisonError};
use std::time::Duration;

/// mimalloc (see `rboogie::alloc` for why, and how it is called).
#[global_allocator]
static ALLOCATOR: rboogie::alloc::Allocator = rboogie::alloc::Allocator;

/// The stack the whole pipeline runs on. Its passes recurse over expressions and statements,
/// and machine-generated programs nest deeply; the main thread's default stack would make a
/// deep (but valid) program crash.
const STACK_SIZE: usize = 1 << 30;

fn main() -> ExitCode {
    rboogie::alloc::tune_c_allocator();
    // This binary is also the Z3 server that in-process calls fall back on once one outlived
    // its time limit (`rboogie::smt::serve_z3`).
    if std::env::args_os().nth(1).is_some_and(|a| a == rboogie::smt::Z3_SERVER_FLAG) {
        return exit_code(rboogie::smt::serve_z3());
    }
    if let Ok(exe) = std::env::current_exe() {
        rboogie::smt::use_z3_server(exe);
    }
    let worker = std::thread::Builder::new().stack_size(STACK_SIZE).spawn(|| -> i32 { end(run_on_big_stack()) });
    // The worker ends the process itself; this is reached when it could not be made or
    // panicked.
    let code = match worker.map(|handle| handle.join()) {
        Ok(Ok(code)) => code,
        _ => 1,
    };
    end(code)
}

/// Ends the process with `code` once standard output is flushed, without the C library's exit
/// handlers and from the thread that calls it. The handlers would finalize libz3 (its global
/// tables, while a context may still be being made ahead on another thread) and have mimalloc
/// give its free memory back page by page, only for the system to take all of it back a
/// moment later: 0 to 2.5 ms of a run that checked something (a 45 ms field-abstraction run:
/// 1.3 ms on average). Ending the worker thread first would return its allocation caches to
/// the C library's heap, whose lock libz3 holds for milliseconds at a time while another
/// thread deletes a context: up to 4.5 ms between the last line printed and the exit.
fn end(code: i32) -> ! {
    let _ = io::stdout().flush();
    // SAFETY: ends the process; nothing runs after it.
    unsafe { libc::_exit(u8::try_from(code).map_or(1, i32::from)) }
}

fn run_on_big_stack() -> i32 {
    // Lossy, so that no argument can make rboogie panic; Boogie's arguments are text anyway.
    let args = std::env::args_os().skip(1).map(|a| a.to_string_lossy().into_owned());
    let mut options = match rboogie::cli::parse_args(args) {
        Ok(options) => options,
        Err(e) => {
            eprint!("{e}");
            return e.exit_code();
        }
    };
    options.adapt_to_terminal(io::stdout().is_terminal());
    // The process's exit frees the program; freeing it before costs time for nothing.
    options.free_at_exit = false;
    if options.process_time_limit > 0 {
        end_at(Duration::from_secs(u64::from(options.process_time_limit)));
    }
    let mut out = SharedStdout;
    let mut code = rboogie::cli::run(&options, &mut out, &mut io::stderr());
    if out.flush().is_err() {
        code = 1;
    }
    code
}

/// Standard output, behind a lock that [`end_at`] takes to end the run between two writes:
/// each implementation's report is one write, so none is cut in the middle. Line-buffered, as
/// Boogie's console is: each report and `/trace` line is out as soon as it is written, so a run
/// that is watched shows its progress, and one killed from outside (`timeout`, a CI job's
/// limit) loses nothing it had reported (fully buffered, the reports of the implementations
/// checked so far stayed in the buffer and died with the process). A write of many lines is
/// still one system call.
static STDOUT: Mutex<Option<io::LineWriter<io::Stdout>>> = Mutex::new(None);

struct SharedStdout;

impl SharedStdout {
    fn with<T>(f: impl FnOnce(&mut io::LineWriter<io::Stdout>) -> io::Result<T>) -> io::Result<T> {
        let mut guard = STDOUT.lock().unwrap_or_else(PoisonError::into_inner);
        f(guard.get_or_insert_with(|| io::LineWriter::new(io::stdout())))
    }
}

impl Write for SharedStdout {
    fn write(&mut self, buf: &[u8]) -> io::Result<usize> {
        Self::with(|out| out.write(buf))
    }

    fn write_all(&mut self, buf: &[u8]) -> io::Result<()> {
        Self::with(|out| out.write_all(buf))
    }

    fn flush(&mut self) -> io::Result<()> {
        Self::with(|out| out.flush())
    }
}

/// `/processTimeLimit:N`: Boogie cancels the whole run after N seconds; what was reported
/// stays, the implementations not reported yet are not (and no summary line is printed), and
/// the exit code is 1. The solvers go with the process: a solver process dies with its parent
/// (`PR_SET_PDEATHSIG`), the in-process one with the process.
fn end_at(limit: Duration) {
    let spawned = std::thread::Builder::new().name("process-time-limit".into()).spawn(move || {
        std::thread::sleep(limit);
        let mut guard = STDOUT.lock().unwrap_or_else(PoisonError::into_inner);
        if let Some(out) = guard.as_mut() {
            let _ = out.flush();
        }
        eprintln!(
            "rboogie: the process time limit of {} s was reached; implementations not reported above were not checked",
            limit.as_secs()
        );
        std::process::exit(1);
    });
    if spawned.is_err() {
        eprintln!("rboogie: warning: /processTimeLimit is not kept (no thread for it)");
    }
}

fn exit_code(code: i32) -> ExitCode {
    ExitCode::from(u8::try_from(code).unwrap_or(1))
}
