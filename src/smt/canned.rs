//! Scripted answers, for tests that need a solver's behaviour without a solver.
//!
//! The script is the sequence of responses a solver would print, one per request the session
//! makes (`check-sat`, then `get-info :reason-unknown` after `unknown`, `get-value`, ...), or a
//! fault in its place. The session around it is the same [`SmtSession`] the real backends use,
//! so a script exercises the same classification; the log shows what was sent.

use super::log::ProverLog;
use super::protocol::{Fault, SmtSession, Transport};
use super::{Dialect, Session, SessionOptions};
use std::collections::VecDeque;
use std::time::Instant;

/// One step of a script.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Reply {
    /// What the solver prints, e.g. `sat`, `((x 1))`, `(:reason-unknown "timeout")`.
    Text(String),
    /// No answer by the deadline.
    Timeout,
    /// The solver died; the text says how.
    Died(String),
}

impl From<&str> for Reply {
    fn from(text: &str) -> Reply {
        Reply::Text(text.to_string())
    }
}

struct CannedTransport {
    script: VecDeque<Reply>,
}

impl Transport for CannedTransport {
    fn send(&mut self, _text: &str, _deadline: Instant) -> Result<(), Fault> {
        Ok(())
    }

    fn next_response(&mut self, _deadline: Instant) -> Result<String, Fault> {
        match self.script.pop_front() {
            Some(Reply::Text(text)) => Ok(text),
            Some(Reply::Timeout) => Err(Fault::Timeout),
            Some(Reply::Died(why)) => Err(Fault::Failed(why)),
            None => Err(Fault::Failed("the canned script has no more answers".into())),
        }
    }
}

/// A session that answers from `script`, speaking `dialect` (which decides the limit options
/// it sends and whether it reads z3's resource count).
pub fn start(
    script: impl IntoIterator<Item = Reply>,
    dialect: Dialect,
    options: &SessionOptions,
    log: Option<ProverLog>,
) -> Box<dyn Session> {
    let transport = CannedTransport { script: script.into_iter().collect() };
    Box::new(SmtSession::new(transport, dialect, options.clone(), log))
}
