//! A minimal [`Session`] over a solver process (`z3 -in`), until the solver layer's own
//! backends land in `crate::smt`. Every wait is bounded: a reader thread feeds lines to a
//! channel read with a deadline, and a solver that misses it is killed.

use std::io::{BufRead, BufReader, Write};
use std::process::{Child, ChildStdin, Command, Stdio};
use std::sync::mpsc::{Receiver, RecvTimeoutError, channel};
use std::time::{Duration, Instant};

use crate::smt::{Answer, Limits, Session, UnknownReason};

pub struct Pipe {
    child: Child,
    stdin: ChildStdin,
    lines: Receiver<String>,
    dead: Option<String>,
    log: Option<std::fs::File>,
}

/// The watchdog's margin over the solver's own time limit, and its bound when there is none.
const MARGIN: Duration = Duration::from_secs(5);
const NO_LIMIT: Duration = Duration::from_secs(600);

impl Pipe {
    /// Starts `program args...`, logging what is sent to `log` when given.
    pub fn start(program: &str, args: &[&str], log: Option<&str>) -> Result<Pipe, String> {
        let mut child = Command::new(program)
            .args(args)
            .stdin(Stdio::piped())
            .stdout(Stdio::piped())
            .stderr(Stdio::null())
            .spawn()
            .map_err(|e| format!("cannot start {program}: {e}"))?;
        let stdin = child.stdin.take().ok_or("no stdin")?;
        let stdout = child.stdout.take().ok_or("no stdout")?;
        let (tx, rx) = channel();
        std::thread::spawn(move || {
            for line in BufReader::new(stdout).lines() {
                let Ok(line) = line else { break };
                if tx.send(line).is_err() {
                    break;
                }
            }
        });
        let log = match log {
            Some(path) => Some(std::fs::File::create(path).map_err(|e| format!("cannot write {path}: {e}"))?),
            None => None,
        };
        Ok(Pipe { child, stdin, lines: rx, dead: None, log })
    }

    pub fn z3(log: Option<&str>) -> Result<Pipe, String> {
        Pipe::start("z3", &["-in", "-smt2"], log)
    }

    fn write(&mut self, text: &str) {
        if let Some(log) = &mut self.log {
            let _ = log.write_all(text.as_bytes());
            if !text.ends_with('\n') {
                let _ = log.write_all(b"\n");
            }
        }
        if self.dead.is_some() {
            return;
        }
        let ok = self.stdin.write_all(text.as_bytes()).is_ok()
            && (text.ends_with('\n') || self.stdin.write_all(b"\n").is_ok())
            && self.stdin.flush().is_ok();
        if !ok {
            self.dead = Some("the solver closed its input".into());
        }
    }

    /// One response: a line, or lines until the parentheses balance.
    fn read(&mut self, within: Duration) -> Result<String, Answer> {
        if let Some(why) = &self.dead {
            return Err(Answer::Failed(why.clone()));
        }
        let deadline = Instant::now() + within;
        let mut text = String::new();
        let mut depth: i64 = 0;
        loop {
            let left = deadline.saturating_duration_since(Instant::now());
            match self.lines.recv_timeout(left) {
                Ok(line) => {
                    for ch in line.chars() {
                        match ch {
                            '(' => depth += 1,
                            ')' => depth -= 1,
                            _ => {}
                        }
                    }
                    if !text.is_empty() {
                        text.push('\n');
                    }
                    text += &line;
                    if depth <= 0 && !text.trim().is_empty() {
                        return Ok(text);
                    }
                }
                Err(RecvTimeoutError::Timeout) => {
                    let _ = self.child.kill();
                    self.dead = Some("the solver did not answer in time and was stopped".into());
                    return Err(Answer::Timeout);
                }
                Err(RecvTimeoutError::Disconnected) => {
                    self.dead = Some("the solver exited".into());
                    return Err(Answer::Failed("the solver exited".into()));
                }
            }
        }
    }
}

impl Drop for Pipe {
    fn drop(&mut self) {
        let _ = self.stdin.write_all(b"(exit)\n");
        let _ = self.stdin.flush();
        let _ = self.child.kill();
        let _ = self.child.wait();
    }
}

impl Session for Pipe {
    fn send(&mut self, commands: &str) {
        self.write(commands);
    }

    fn check_sat(&mut self, limits: &Limits) -> Answer {
        if limits.time_limit_s > 0 {
            self.write(&format!("(set-option :timeout {})", u64::from(limits.time_limit_s) * 1000));
        }
        if limits.resource_limit > 0 {
            self.write(&format!("(set-option :rlimit {})", limits.resource_limit));
        }
        self.write("(check-sat)");
        let within = if limits.time_limit_s > 0 {
            Duration::from_secs(u64::from(limits.time_limit_s)) + MARGIN
        } else {
            NO_LIMIT
        };
        let answer = match self.read(within) {
            Ok(a) => a,
            Err(a) => return a,
        };
        match answer.trim() {
            "unsat" => Answer::Unsat,
            "sat" => Answer::Sat,
            "timeout" => Answer::Timeout,
            "unknown" => {
                self.write("(get-info :reason-unknown)");
                let reason = match self.read(MARGIN) {
                    Ok(r) => r,
                    Err(a) => return a,
                };
                if reason.contains("timeout") || reason.contains("canceled") {
                    Answer::Timeout
                } else if reason.contains("memout") {
                    Answer::Unknown(UnknownReason::OutOfMemory)
                } else if reason.contains("resource") || reason.contains("rlimit") {
                    Answer::Unknown(UnknownReason::OutOfResource)
                } else {
                    Answer::Unknown(UnknownReason::Incomplete(reason.trim().to_string()))
                }
            }
            other => Answer::Failed(format!("unexpected solver output: {other}")),
        }
    }

    fn get_value(&mut self, terms: &[&str]) -> Result<Vec<String>, String> {
        self.write(&format!("(get-value ({}))", terms.join(" ")));
        let text = self.read(MARGIN + MARGIN).map_err(|a| format!("{a:?}"))?;
        let sexp = parse_sexp(&text).ok_or_else(|| format!("cannot read the solver's answer: {text}"))?;
        let Sexp::List(pairs) = sexp else { return Err(format!("unexpected answer: {text}")) };
        pairs
            .into_iter()
            .map(|p| match p {
                Sexp::List(mut kv) if kv.len() == 2 => Ok(kv.pop().unwrap().to_string()),
                _ => Err(format!("unexpected answer: {text}")),
            })
            .collect()
    }
}

/// An S-expression, enough for `get-value` answers.
#[derive(Clone, Debug, PartialEq)]
pub enum Sexp {
    Atom(String),
    List(Vec<Sexp>),
}

impl std::fmt::Display for Sexp {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        match self {
            Sexp::Atom(a) => f.write_str(a),
            Sexp::List(items) => {
                f.write_str("(")?;
                for (i, x) in items.iter().enumerate() {
                    if i > 0 {
                        f.write_str(" ")?;
                    }
                    write!(f, "{x}")?;
                }
                f.write_str(")")
            }
        }
    }
}

pub fn parse_sexp(text: &str) -> Option<Sexp> {
    let mut stack: Vec<Vec<Sexp>> = Vec::new();
    let mut result = None;
    let chars: Vec<char> = text.chars().collect();
    let mut i = 0;
    while i < chars.len() {
        let c = chars[i];
        match c {
            '(' => stack.push(Vec::new()),
            ')' => {
                let list = Sexp::List(stack.pop()?);
                match stack.last_mut() {
                    Some(top) => top.push(list),
                    None => result = Some(list),
                }
            }
            c if c.is_whitespace() => {}
            '|' => {
                let start = i;
                i += 1;
                while i < chars.len() && chars[i] != '|' {
                    i += 1;
                }
                let atom: String = chars[start..=i.min(chars.len() - 1)].iter().collect();
                match stack.last_mut() {
                    Some(top) => top.push(Sexp::Atom(atom)),
                    None => result = Some(Sexp::Atom(atom)),
                }
            }
            _ => {
                let start = i;
                while i + 1 < chars.len() && !chars[i + 1].is_whitespace() && chars[i + 1] != '(' && chars[i + 1] != ')'
                {
                    i += 1;
                }
                let atom: String = chars[start..=i].iter().collect();
                match stack.last_mut() {
                    Some(top) => top.push(Sexp::Atom(atom)),
                    None => result = Some(Sexp::Atom(atom)),
                }
            }
        }
        i += 1;
    }
    result
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn reads_get_value_answers() {
        let s = parse_sexp("(((ControlFlow 0 5) (- 3)))").unwrap();
        assert_eq!(s.to_string(), "(((ControlFlow 0 5) (- 3)))");
    }
}
