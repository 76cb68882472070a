//! The `/proverLog` file: every byte a session sends, in order, nothing else.
//!
//! The log is written as the text goes out (not at the end), so that the log of a run that
//! hangs or crashes still shows what the solver was given. Answers are not logged: the file is
//! an SMT-LIB script that runs stand-alone in the solver it was written for (a z3 session's
//! log in `z3`, a cvc5 session's in `cvc5`; each session's preamble sets what its solver
//! needs, such as cvc5's `:incremental`), and whose answers also come out of the other solver
//! (a z3 log in `cvc5 --incremental`, which answers `unsupported` to z3's options; a cvc5 log in
//! `z3`, which reports errors for cvc5's). A write error stops logging, never the run.

use std::io::Write;
use std::sync::{Arc, Mutex};

/// Where a session's text goes besides the solver.
pub struct ProverLog {
    sink: Option<Box<dyn Write + Send>>,
}

impl ProverLog {
    pub fn new(sink: Box<dyn Write + Send>) -> ProverLog {
        ProverLog { sink: Some(sink) }
    }

    /// Creates (truncates) `path`.
    pub fn create(path: &str) -> Result<ProverLog, String> {
        let file = std::fs::File::create(path).map_err(|e| format!("cannot open prover log {path}: {e}"))?;
        Ok(ProverLog::new(Box::new(std::io::BufWriter::new(file))))
    }

    /// A log in memory, for tests: the buffer fills as the session sends.
    pub fn memory() -> (ProverLog, Arc<Mutex<Vec<u8>>>) {
        let buffer = Arc::new(Mutex::new(Vec::new()));
        (ProverLog::new(Box::new(SharedBuffer(buffer.clone()))), buffer)
    }

    pub(crate) fn write(&mut self, text: &str) {
        if let Some(sink) = &mut self.sink
            && sink.write_all(text.as_bytes()).is_err()
        {
            self.sink = None;
        }
    }

    /// Flushed before every wait for the solver, so the file is complete up to the query that
    /// is running.
    pub(crate) fn flush(&mut self) {
        if let Some(sink) = &mut self.sink
            && sink.flush().is_err()
        {
            self.sink = None;
        }
    }
}

impl Drop for ProverLog {
    fn drop(&mut self) {
        self.flush();
    }
}

struct SharedBuffer(Arc<Mutex<Vec<u8>>>);

impl Write for SharedBuffer {
    fn write(&mut self, bytes: &[u8]) -> std::io::Result<usize> {
        self.0.lock().map_err(|_| std::io::Error::other("poisoned"))?.extend_from_slice(bytes);
        Ok(bytes.len())
    }

    fn flush(&mut self) -> std::io::Result<()> {
        Ok(())
    }
}
