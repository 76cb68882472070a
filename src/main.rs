//! The `rboogie` executable: parse the command line, run, exit with Boogie's code.

use std::io::{self, IsTerminal, Write};
use std::process::ExitCode;

/// mimalloc (see `rboogie::alloc` for why, and how it is called).
#[global_allocator]
static ALLOCATOR: rboogie::alloc::Allocator = rboogie::alloc::Allocator;

/// The stack the whole pipeline runs on. Its passes recurse over expressions and statements,
/// and machine-generated programs nest deeply; the main thread's default stack would make a
/// deep (but valid) program crash.
const STACK_SIZE: usize = 1 << 30;

fn main() -> ExitCode {
    let worker = std::thread::Builder::new().stack_size(STACK_SIZE).spawn(run_on_big_stack);
    match worker.map(|handle| handle.join()) {
        Ok(Ok(code)) => code,
        _ => ExitCode::from(1),
    }
}

fn run_on_big_stack() -> ExitCode {
    // Lossy, so that no argument can make rboogie panic; Boogie's arguments are text anyway.
    let args = std::env::args_os().skip(1).map(|a| a.to_string_lossy().into_owned());
    let mut options = match rboogie::cli::parse_args(args) {
        Ok(options) => options,
        Err(e) => {
            eprint!("{e}");
            return exit_code(e.exit_code());
        }
    };
    options.adapt_to_terminal(io::stdout().is_terminal());
    let mut out = io::BufWriter::new(io::stdout().lock());
    let mut code = rboogie::cli::run(&options, &mut out, &mut io::stderr());
    if out.flush().is_err() {
        code = 1;
    }
    exit_code(code)
}

fn exit_code(code: i32) -> ExitCode {
    ExitCode::from(u8::try_from(code).unwrap_or(1))
}
