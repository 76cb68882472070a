//! The `/proverLog` file: every byte a session sends, in order, nothing else.
//!
//! The log is written as the text goes out (not at the end), so that the log of a run that
//! hangs or crashes still shows what the solver was given. Answers are not logged: the file is
//! an SMT-LIB script that runs stand-alone in the solver it was written for (a z3 session's
//! log in `z3`, a cvc5 session's in `cvc5`; each session's preamble sets what its solver
//! needs, such as cvc5's `:incremental`), and whose answers also come out of the other solver
//! (a z3 log in `cvc5 --incremental`, which answers `unsupported` to z3's options; a cvc5 log in
//! `z3`, which reports errors for cvc5's). A write error stops logging, never the run.

use std::collections::HashMap;
use std::io::{BufWriter, Write};
use std::sync::atomic::{AtomicBool, Ordering};
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
        ProverLog::file(path, false)
    }

    /// `path`, created, and truncated or (`append`) appended to.
    fn file(path: &str, append: bool) -> Result<ProverLog, String> {
        Ok(ProverLog::new(Box::new(BufWriter::new(open_file(path, append)?))))
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

/// The log files of a run, from the `/proverLog` template (Boogie's `Helpers.GetLogFilename`
/// and `CheckerPool`): with `@PROC@` in it, one file per implementation, the name made safe
/// for a shell (letters, digits and `.` kept, anything else `_`) and a name met again in the
/// run suffixed `.1`, `.2`, ...; without, one file for the whole run. There a session that
/// opens the file while another still writes it (`/vcsCores`) gets `FILE.1`, ..., as Boogie's
/// further solver processes do, and a session that follows another in a file starts with
/// `(reset)`, so the file stays one script. Under `/proverLogAppend` each file is opened to be
/// appended to, as Boogie opens its logs then, so that the runs one after another leave their
/// scripts one after another in it.
pub struct LogFiles {
    template: String,
    append: bool,
    state: Mutex<LogFilesState>,
}

#[derive(Default)]
struct LogFilesState {
    used_names: HashMap<String, u32>,
    /// Without `@PROC@`: the files so far, each free or written by a live session.
    shared: Vec<Arc<SharedFile>>,
}

struct SharedFile {
    file: Mutex<BufWriter<std::fs::File>>,
    in_use: AtomicBool,
}

impl LogFiles {
    /// The files of `template`, truncated when first opened, or appended to (`append`).
    pub fn new(template: &str, append: bool) -> LogFiles {
        LogFiles { template: template.to_string(), append, state: Mutex::new(LogFilesState::default()) }
    }

    /// Whether each implementation gets its own file.
    pub fn per_implementation(&self) -> bool {
        self.template.contains("@PROC@")
    }

    /// The log for a session that checks `implementation` (with `@PROC@`) or for the next
    /// session of the run (without).
    pub fn open(&self, implementation: &str) -> Result<ProverLog, String> {
        let mut state = self.state.lock().map_err(|_| "prover log state poisoned".to_string())?;
        if self.per_implementation() {
            let path = substitute_proc(&self.template, implementation);
            let index = state.used_names.entry(path.clone()).and_modify(|i| *i += 1).or_insert(0);
            let path = if *index > 0 { format!("{path}.{index}") } else { path };
            return ProverLog::file(&path, self.append);
        }
        for shared in &state.shared {
            if shared.in_use.compare_exchange(false, true, Ordering::SeqCst, Ordering::SeqCst).is_ok() {
                let mut log = ProverLog::new(Box::new(SharedWriter(shared.clone())));
                log.write("(reset)\n");
                return Ok(log);
            }
        }
        let index = state.shared.len();
        let path = if index > 0 { format!("{}.{index}", self.template) } else { self.template.clone() };
        let file = open_file(&path, self.append)?;
        let shared = Arc::new(SharedFile { file: Mutex::new(BufWriter::new(file)), in_use: AtomicBool::new(true) });
        state.shared.push(shared.clone());
        Ok(ProverLog::new(Box::new(SharedWriter(shared))))
    }
}

/// `path` created, and truncated or (`append`) appended to.
fn open_file(path: &str, append: bool) -> Result<std::fs::File, String> {
    let mut options = std::fs::OpenOptions::new();
    options.create(true);
    if append {
        options.append(true);
    } else {
        options.write(true).truncate(true);
    }
    options.open(path).map_err(|e| format!("cannot open prover log {path}: {e}"))
}

/// Boogie's `SubstituteAtPROC`.
pub fn substitute_proc(template: &str, implementation: &str) -> String {
    let mut name: String =
        implementation.chars().map(|c| if c.is_alphanumeric() || c == '.' { c } else { '_' }).collect();
    // Boogie shortens the name (only) to keep the file name under 180 characters.
    let rest = template.chars().count().saturating_sub(6);
    if rest + name.chars().count() >= 180 {
        static SEQUENCE: std::sync::atomic::AtomicU32 = std::sync::atomic::AtomicU32::new(0);
        let keep = 180usize.saturating_sub(rest);
        name = format!("{}-n{}", name.chars().take(keep).collect::<String>(), SEQUENCE.fetch_add(1, Ordering::SeqCst));
    }
    template.replace("@PROC@", &name)
}

/// A session's handle on a shared log file; dropping it frees the file for the next session.
struct SharedWriter(Arc<SharedFile>);

impl Write for SharedWriter {
    fn write(&mut self, bytes: &[u8]) -> std::io::Result<usize> {
        self.0.file.lock().map_err(|_| std::io::Error::other("poisoned"))?.write(bytes)
    }

    fn flush(&mut self) -> std::io::Result<()> {
        self.0.file.lock().map_err(|_| std::io::Error::other("poisoned"))?.flush()
    }
}

impl Drop for SharedWriter {
    fn drop(&mut self) {
        let _ = self.flush();
        self.0.in_use.store(false, Ordering::SeqCst);
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn file_names_as_boogie_makes_them() {
        assert_eq!(substitute_proc("log-@PROC@.smt2", "Foo$bar^baz.1"), "log-Foo_bar_baz.1.smt2");
        let dir = std::env::temp_dir().join(format!("rboogie-logfiles-{}", std::process::id()));
        std::fs::create_dir_all(&dir).unwrap();
        let template = format!("{}/@PROC@.smt2", dir.display());
        let files = LogFiles::new(&template, false);
        drop(files.open("P").unwrap());
        drop(files.open("P").unwrap());
        assert!(dir.join("P.smt2").is_file() && dir.join("P.smt2.1").is_file());

        let one = format!("{}/one.smt2", dir.display());
        let files = LogFiles::new(&one, false);
        let mut a = files.open("P").unwrap();
        let mut b = files.open("Q").unwrap();
        a.write("(check-sat)\n");
        b.write("(check-sat)\n");
        drop(a);
        let mut c = files.open("R").unwrap();
        c.write("(exit)\n");
        drop((b, c));
        assert_eq!(std::fs::read_to_string(&one).unwrap(), "(check-sat)\n(reset)\n(exit)\n");
        assert_eq!(std::fs::read_to_string(format!("{one}.1")).unwrap(), "(check-sat)\n");
        let _ = std::fs::remove_dir_all(&dir);
    }

    /// `/proverLogAppend`: a second run's log follows the first run's in the same file, with
    /// `@PROC@` and without; without the option a run starts the file afresh.
    #[test]
    fn appended_logs_follow_the_earlier_runs() {
        let dir = std::env::temp_dir().join(format!("rboogie-logappend-{}", std::process::id()));
        std::fs::create_dir_all(&dir).unwrap();
        for template in [format!("{}/run.smt2", dir.display()), format!("{}/run-@PROC@.smt2", dir.display())] {
            let path = substitute_proc(&template, "P");
            for (run, append) in [("(first)\n", false), ("(second)\n", true), ("(third)\n", true)] {
                let mut log = LogFiles::new(&template, append).open("P").unwrap();
                log.write(run);
            }
            assert_eq!(std::fs::read_to_string(&path).unwrap(), "(first)\n(second)\n(third)\n", "{template}");
            LogFiles::new(&template, false).open("P").unwrap().write("(afresh)\n");
            assert_eq!(std::fs::read_to_string(&path).unwrap(), "(afresh)\n", "{template}");
        }
        let _ = std::fs::remove_dir_all(&dir);
    }
}
