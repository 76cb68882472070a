//! One diagnostic type for every phase.
//!
//! A phase collects its [`Diagnostic`]s and returns them; the driver renders them in one of
//! three formats (see `crate::report`) and decides whether to stop.

use crate::ast::Span;

#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum Severity {
    Error,
    Warning,
}

/// The phase that found a problem; it selects Boogie's wording of the summary line
/// (`N parse errors detected in F`, `N name resolution errors ...`, `N type checking errors ...`).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum Phase {
    Parse,
    Resolve,
    Typecheck,
}

impl Phase {
    pub fn summary_noun(self) -> &'static str {
        match self {
            Phase::Parse => "parse errors",
            Phase::Resolve => "name resolution errors",
            Phase::Typecheck => "type checking errors",
        }
    }
}

#[derive(Clone, Debug, PartialEq)]
pub struct Diagnostic {
    pub severity: Severity,
    pub phase: Phase,
    pub span: Span,
    pub message: String,
    /// Boogie reports this error at column 0 of its line (pragma errors do).
    pub column_zero: bool,
}

impl Diagnostic {
    pub fn error(phase: Phase, span: Span, message: impl Into<String>) -> Diagnostic {
        Diagnostic { severity: Severity::Error, phase, span, message: message.into(), column_zero: false }
    }
    pub fn warning(phase: Phase, span: Span, message: impl Into<String>) -> Diagnostic {
        Diagnostic { severity: Severity::Warning, phase, span, message: message.into(), column_zero: false }
    }
    /// Marks the diagnostic as reported at column 0 of its line.
    pub fn at_line_start(mut self) -> Diagnostic {
        self.column_zero = true;
        self
    }
}
