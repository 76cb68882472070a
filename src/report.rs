//! Rendering diagnostics and the driver's status lines, in one of three formats.
//!
//! - [`Format::Boogie`]: Boogie's own text, byte for byte, since rboogie's stdout must be
//!   Boogie's. Parse errors are `FILE(LINE,COL): error: MSG` with a 1-based column (Coco's
//!   `Errors.errMsgFormat` in Boogie's `Parser.cs`); resolution and type-checking errors are
//!   `FILE(LINE,COL): Error: MSG` with the token's column minus one (`CheckingContext.Error` in
//!   `ResolutionContext.cs`), warnings likewise with `warning`/`Warning`. [`BoogieStyle`]
//!   holds that choice and [`BoogieStyle::for_phase`] makes it from the phase.
//! - [`Format::Rich`]: codespan-reporting with the source snippet, coloured on a terminal.
//!   Positions there are physical (line and column in the file as stored), not `#line`-mapped.
//! - [`Format::Json`]: one JSON object per line, nothing else on stdout. Each has a `kind`:
//!   `diagnostic` (file, line, column, severity, phase, message and the byte range
//!   `start`..`end`), `summary` (the `N parse errors detected in F` line), `error` (a message
//!   of the driver's own, such as a missing input file), `output` (a printed program, `/help`),
//!   `trace` (a `/trace` line), `verdict` (one implementation's [`Verdict`]) and `finished`
//!   (the closing counts, the shard, the number of implementations and the run's
//!   fingerprint). Each event that Boogie's format prints something for carries those exact
//!   bytes as `text`, so that Boogie's output can be rebuilt from the events
//!   (`crate::shard::merge`). Line and column are `#line`-mapped, both 1-based. README.md has
//!   the schema.
//!
//! Nothing here panics on a diagnostic whose span lies outside the [`SourceMap`]: it is
//! printed without a source position.

use crate::ast::{FileId, Span};
use crate::diagnostics::{Diagnostic, Phase, Severity};
use crate::shard::Shard;
use crate::source::{Position, SourceFile, SourceMap};
use crate::verdict::{ErrorReport, Outcome, Verdict};
use codespan_reporting::diagnostic as cs;
use codespan_reporting::files::Error as FilesError;
use codespan_reporting::term;
use std::io::{self, Write};
use std::ops::Range;

#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Format {
    Boogie,
    Rich,
    Json,
}

// ---------------------------------------------------------------------------------------------
// Boogie's text

/// How Boogie words a diagnostic of one phase.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct BoogieStyle {
    pub error_keyword: &'static str,
    pub warning_keyword: &'static str,
    /// Print the column counted from 0 (Boogie prints `tok.col - 1` after parsing).
    pub zero_based_columns: bool,
}

impl BoogieStyle {
    pub fn for_phase(phase: Phase) -> BoogieStyle {
        match phase {
            Phase::Parse => {
                BoogieStyle { error_keyword: "error", warning_keyword: "warning", zero_based_columns: false }
            }
            Phase::Resolve | Phase::Typecheck => {
                BoogieStyle { error_keyword: "Error", warning_keyword: "Warning", zero_based_columns: true }
            }
        }
    }
}

/// `FILE(LINE,COL): error: MSG` in the style of the diagnostic's phase.
pub fn boogie_line(sources: &SourceMap, diagnostic: &Diagnostic) -> String {
    boogie_line_with(sources, diagnostic, BoogieStyle::for_phase(diagnostic.phase))
}

/// `FILE(LINE,COL): KEYWORD: MSG` in the given style.
pub fn boogie_line_with(sources: &SourceMap, diagnostic: &Diagnostic, style: BoogieStyle) -> String {
    let keyword = match diagnostic.severity {
        Severity::Error => style.error_keyword,
        Severity::Warning => style.warning_keyword,
    };
    let (file, line, col) = match position(sources, diagnostic.span) {
        Some((file, line, col)) => {
            let col = if diagnostic.column_zero {
                0
            } else if style.zero_based_columns {
                i64::from(col) - 1
            } else {
                i64::from(col)
            };
            (file, line, col)
        }
        // Boogie's `Token.NoToken`: line 0, column 0, printed one less in the zero-based style.
        None => (String::new(), 0, if style.zero_based_columns { -1 } else { 0 }),
    };
    format!("{file}({line},{col}): {keyword}: {}", diagnostic.message)
}

/// `N parse errors detected in FILE` (and the same for the other phases).
pub fn summary_line(phase: Phase, errors: usize, file: &str) -> String {
    format!("{errors} {} detected in {file}", phase.summary_noun())
}

/// The outcome counts of a run, as Boogie's closing line reports them.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct Counts {
    pub verified: usize,
    pub errors: usize,
    pub inconclusive: usize,
    pub timeouts: usize,
    pub out_of_memory: usize,
    pub out_of_resource: usize,
    pub solver_exceptions: usize,
}

impl Counts {
    pub fn add(&mut self, other: &Counts) {
        self.verified += other.verified;
        self.errors += other.errors;
        self.inconclusive += other.inconclusive;
        self.timeouts += other.timeouts;
        self.out_of_memory += other.out_of_memory;
        self.out_of_resource += other.out_of_resource;
        self.solver_exceptions += other.solver_exceptions;
    }
}

/// `Boogie program verifier finished with 0 verified, 0 errors` (without the blank line Boogie
/// prints before it; `ConsolePrinter.WriteTrailer`); without `verified_shown`
/// (`/printVerifiedProceduresCount:0`), `... finished with 0 errors`.
pub fn trailer_line(counts: &Counts, verified_shown: bool) -> String {
    let plural = |n: usize| if n == 1 { "" } else { "s" };
    let verified = if verified_shown { format!("{} verified, ", counts.verified) } else { String::new() };
    let mut line =
        format!("Boogie program verifier finished with {verified}{} error{}", counts.errors, plural(counts.errors));
    if counts.inconclusive != 0 {
        line += &format!(", {} inconclusive{}", counts.inconclusive, plural(counts.inconclusive));
    }
    if counts.timeouts != 0 {
        line += &format!(", {} time out{}", counts.timeouts, plural(counts.timeouts));
    }
    if counts.out_of_memory != 0 {
        line += &format!(", {} out of memory", counts.out_of_memory);
    }
    if counts.out_of_resource != 0 {
        line += &format!(", {} out of resource", counts.out_of_resource);
    }
    if counts.solver_exceptions != 0 {
        line += &format!(", {} solver exceptions", counts.solver_exceptions);
    }
    line
}

/// `FILE(LINE,COL)`, as Boogie prints a verification message's place.
fn place(p: &Position) -> String {
    format!("{}({},{})", p.file, p.line, p.col)
}

/// What Boogie prints for one implementation (`/trace` lines aside): under `/printSplit:-`
/// its splits, then its errors or its message.
pub fn verdict_text(verdict: &Verdict) -> String {
    verdict.splits.clone() + &report_text(verdict)
}

/// An implementation's errors or message, as Boogie prints them.
fn report_text(verdict: &Verdict) -> String {
    let mut text = String::new();
    if let Some(note) = &verdict.note {
        match &note.at {
            Some(at) => text += &format!("{}: {}\n", place(at), note.message),
            None => text += &format!("{}\n", note.message),
        }
    }
    for e in &verdict.errors {
        error_text(&mut text, e);
    }
    text
}

/// Beyond Boogie, in the rich format: under the errors, the values the counterexample gives the
/// variables each failing check reads.
fn values_text(verdict: &Verdict) -> String {
    let mut text = String::new();
    for e in verdict.errors.iter().filter(|e| !e.values.is_empty()) {
        text += &format!("Values at {}:\n", place(&e.at));
        for (name, value) in &e.values {
            text += &format!("    {name} = {value}\n");
        }
    }
    text
}

/// One error as Boogie prints it (`Counterexample.Print` under `/errorTrace:N`).
fn error_text(text: &mut String, e: &ErrorReport) {
    if e.custom {
        text.push_str(&e.message);
        text.push('\n');
    } else {
        *text += &format!("{}: Error: {}\n", place(&e.at), e.message);
        if let Some(r) = &e.related {
            *text += &format!("{}: Related location: {}\n", place(&r.at), r.message);
        }
    }
    if let Some(trace) = &e.trace {
        text.push_str("Execution trace:\n");
        for step in trace {
            *text += &format!("    {}: {}\n", place(&step.at), step.label);
        }
        if !e.augmented.is_empty() {
            text.push_str("Augmented execution trace:\n");
            text.push_str(&e.augmented);
        }
        if e.model_in_trace
            && let Some(model) = &e.model
        {
            text.push_str(model);
        }
    }
    // `/mv:-`: Boogie's `ModelWriter`, after the error's other text.
    if e.model_after_error
        && let Some(model) = &e.model
    {
        text.push_str(model);
    }
}

/// Boogie's word for an outcome after `Verifying P ...` under `/trace`.
fn progress_word(verdict: &Verdict) -> &'static str {
    match verdict.outcome {
        Outcome::Verified => "verified",
        Outcome::Errors if verdict.counts.errors == 1 => "error",
        Outcome::Errors => "errors",
        Outcome::TimedOut => "timed out",
        Outcome::OutOfResource => "out of resource",
        Outcome::OutOfMemory => "out of memory",
        Outcome::SolverException | Outcome::InternalError => "solver exception",
        Outcome::Inconclusive | Outcome::Unsupported => "inconclusive",
    }
}

// ---------------------------------------------------------------------------------------------
// JSON

fn severity_name(severity: Severity) -> &'static str {
    match severity {
        Severity::Error => "error",
        Severity::Warning => "warning",
    }
}

fn phase_name(phase: Phase) -> &'static str {
    match phase {
        Phase::Parse => "parse",
        Phase::Resolve => "resolve",
        Phase::Typecheck => "typecheck",
    }
}

/// One diagnostic as a JSON object (one line, no newline).
pub fn json_line(sources: &SourceMap, diagnostic: &Diagnostic) -> String {
    let (file, line, column) = position(sources, diagnostic.span).unwrap_or_default();
    serde_json::json!({
        "kind": "diagnostic",
        "file": file,
        "line": line,
        "column": column,
        "severity": severity_name(diagnostic.severity),
        "phase": phase_name(diagnostic.phase),
        "message": diagnostic.message,
        "start": diagnostic.span.start,
        "end": diagnostic.span.end,
        "text": format!("{}\n", boogie_line(sources, diagnostic)),
    })
    .to_string()
}

/// `{"file", "line", "column"}` and the given fields.
fn located(at: &Position, fields: serde_json::Value) -> serde_json::Value {
    let mut object = serde_json::json!({ "file": at.file, "line": at.line, "column": at.col });
    if let (Some(o), serde_json::Value::Object(more)) = (object.as_object_mut(), fields) {
        o.extend(more);
    }
    object
}

/// A verdict event (one line, no newline).
pub fn verdict_json(verdict: &Verdict) -> String {
    let note = verdict.note.as_ref().map(|n| match &n.at {
        Some(at) => located(at, serde_json::json!({ "message": n.message })),
        None => serde_json::json!({ "message": n.message }),
    });
    let errors: Vec<serde_json::Value> = verdict
        .errors
        .iter()
        .map(|e| {
            let related = e.related.as_ref().map(|r| located(&r.at, serde_json::json!({ "message": r.message })));
            // The values of the variables the failing check reads, at the error and at the
            // trace's last step (where the check is).
            let values: Vec<serde_json::Value> =
                e.values.iter().map(|(name, value)| serde_json::json!({ "name": name, "value": value })).collect();
            let steps = e.trace.as_deref().unwrap_or_default();
            let trace: Vec<serde_json::Value> = steps
                .iter()
                .enumerate()
                .map(|(k, step)| {
                    let mut fields = serde_json::json!({ "label": step.label });
                    if k + 1 == steps.len() && !values.is_empty() {
                        fields["values"] = serde_json::Value::Array(values.clone());
                    }
                    located(&step.at, fields)
                })
                .collect();
            located(
                &e.at,
                serde_json::json!({ "message": e.message, "related": related, "trace": trace, "values": values }),
            )
        })
        .collect();
    located(
        &verdict.at,
        serde_json::json!({
            "kind": "verdict",
            "name": verdict.name,
            "order": verdict.order,
            "outcome": verdict.outcome.name(),
            "message": note,
            "errors": errors,
            "proof_dependencies": verdict.coverage.as_ref().map(|c| &c.used),
            "proved_vacuously": verdict.coverage.as_ref().map(|c| c.vacuous.iter().map(|p| located(p, serde_json::json!({}))).collect::<Vec<_>>()),
            "text": verdict_text(verdict),
        }),
    )
    .to_string()
}

// ---------------------------------------------------------------------------------------------
// Rich

/// The source map as codespan-reporting sees it: physical lines, the file's display name.
struct CodespanFiles<'a>(&'a SourceMap);

impl<'a> CodespanFiles<'a> {
    fn get(&self, id: FileId) -> Result<&'a SourceFile, FilesError> {
        file(self.0, id).ok_or(FilesError::FileMissing)
    }
}

impl<'a> codespan_reporting::files::Files<'a> for CodespanFiles<'a> {
    type FileId = FileId;
    type Name = &'a str;
    type Source = &'a str;

    fn name(&'a self, id: FileId) -> Result<&'a str, FilesError> {
        Ok(&self.get(id)?.name)
    }

    fn source(&'a self, id: FileId) -> Result<&'a str, FilesError> {
        Ok(&self.get(id)?.text)
    }

    fn line_index(&'a self, id: FileId, byte_index: usize) -> Result<usize, FilesError> {
        let f = self.get(id)?;
        Ok(f.line_index(byte_index.min(f.text.len()) as u32))
    }

    fn line_range(&'a self, id: FileId, line_index: usize) -> Result<Range<usize>, FilesError> {
        let f = self.get(id)?;
        let last = f.line_index(f.text.len() as u32);
        if line_index > last {
            return Err(FilesError::LineTooLarge { given: line_index, max: last });
        }
        let start = f.line_start(line_index) as usize;
        let end = if line_index == last { f.text.len() } else { f.line_start(line_index + 1) as usize };
        Ok(start..end)
    }
}

/// One diagnostic in codespan-reporting's rich format (with ANSI colours when `color`).
pub fn write_rich(out: &mut dyn Write, sources: &SourceMap, diagnostic: &Diagnostic, color: bool) -> io::Result<()> {
    let mut rendered = match diagnostic.severity {
        Severity::Error => cs::Diagnostic::error(),
        Severity::Warning => cs::Diagnostic::warning(),
    }
    .with_message(diagnostic.message.clone());
    if let Some(f) = file(sources, diagnostic.span.file) {
        rendered = rendered.with_labels(vec![cs::Label::primary(diagnostic.span.file, byte_range(f, diagnostic.span))]);
    }
    let config = term::Config::default();
    let files = CodespanFiles(sources);
    let result = if color {
        let styles = term::Styles::default();
        let mut writer = term::StylesWriter::new(term::termcolor::Ansi::new(&mut *out), &styles);
        term::emit_to_write_style(&mut writer, &config, &files, &rendered)
    } else {
        term::emit_to_io_write(out, &config, &files, &rendered)
    };
    result.map_err(|e| match e {
        FilesError::Io(e) => e,
        e => io::Error::other(e.to_string()),
    })
}

// ---------------------------------------------------------------------------------------------
// Positions, safely

fn file(sources: &SourceMap, id: FileId) -> Option<&SourceFile> {
    sources.files().find(|(i, _)| *i == id).map(|(_, f)| f)
}

/// The largest char boundary at or before `offset`, within the text.
fn floor_boundary(text: &str, offset: u32) -> u32 {
    let mut i = (offset as usize).min(text.len());
    while !text.is_char_boundary(i) {
        i -= 1;
    }
    i as u32
}

fn byte_range(f: &SourceFile, span: Span) -> Range<usize> {
    let start = floor_boundary(&f.text, span.start) as usize;
    let end = floor_boundary(&f.text, span.end) as usize;
    start..end.max(start)
}

/// Boogie's (file, line, column) of a span's start: `#line`-mapped, 1-based column.
fn position(sources: &SourceMap, span: Span) -> Option<(String, i64, u32)> {
    if let Some(p) = sources.moved_position(span) {
        return Some((p.file, p.line, p.col));
    }
    let f = file(sources, span.file)?;
    let p = f.position(floor_boundary(&f.text, span.start));
    Some((p.file, p.line, p.col))
}

// ---------------------------------------------------------------------------------------------
// The driver's printer

/// What Boogie prints around an implementation's verdict under `/trace` or `/tracePOs`.
#[derive(Clone, Copy, Debug, Default)]
pub struct Progress<'a> {
    /// Under `/trace`, the time since the previous report (Boogie's `TimeIndication`);
    /// `None` under `/tracePOs` alone, which prints only the proof obligations.
    pub seconds: Option<f64>,
    /// Boogie's `[TRACE] Using prover: P`, which it prints when it starts its first solver:
    /// after the run's first `Verifying` line.
    pub prover: Option<&'a str>,
}

/// Writes everything the driver reports, in one format.
#[derive(Clone, Copy, Debug)]
pub struct Reporter {
    pub format: Format,
    pub color: bool,
    /// `/silent` (Boogie's `Verbosity.Silent`): in Boogie's and the rich format, no
    /// verification errors or outcome messages ([`Reporter::verdict`]) and none of the lines
    /// Boogie writes through its printer ([`Reporter::printer_line`]); the closing line goes
    /// as under `/quiet`, which `/silent` implies. Parse, resolution and type errors, which
    /// Boogie writes to the console directly, stay. JSON keeps its events: a program reading
    /// it asked for every one.
    pub silent: bool,
}

impl Reporter {
    pub fn new(format: Format, color: bool) -> Reporter {
        Reporter { format, color, silent: false }
    }

    /// Whether Boogie's printer stays quiet (`/silent`, in Boogie's and the rich format).
    fn hushed(&self) -> bool {
        self.silent && self.format != Format::Json
    }

    pub fn diagnostic(&self, out: &mut dyn Write, sources: &SourceMap, diagnostic: &Diagnostic) -> io::Result<()> {
        match self.format {
            Format::Boogie => writeln!(out, "{}", boogie_line(sources, diagnostic)),
            Format::Rich => write_rich(out, sources, diagnostic, self.color),
            Format::Json => writeln!(out, "{}", json_line(sources, diagnostic)),
        }
    }

    pub fn diagnostics(&self, out: &mut dyn Write, sources: &SourceMap, diagnostics: &[Diagnostic]) -> io::Result<()> {
        diagnostics.iter().try_for_each(|d| self.diagnostic(out, sources, d))
    }

    /// `N parse errors detected in FILE` after a phase failed.
    pub fn phase_summary(&self, out: &mut dyn Write, phase: Phase, errors: usize, file: &str) -> io::Result<()> {
        let line = summary_line(phase, errors, file);
        match self.format {
            Format::Boogie | Format::Rich => writeln!(out, "{line}"),
            Format::Json => writeln!(
                out,
                "{}",
                serde_json::json!({
                    "kind": "summary", "phase": phase_name(phase), "errors": errors, "file": file,
                    "text": format!("{line}\n"),
                })
            ),
        }
    }

    /// One implementation's verdict; with `progress` (`/trace`, `/tracePOs`) Boogie's
    /// `Verifying P ...` line before it and its `[T s, solver resource count: R, N proof
    /// obligations]  outcome` line (`[N proof obligations]  outcome` under `/tracePOs`).
    /// One write, so that `/processTimeLimit` never cuts a report in the middle.
    pub fn verdict(&self, out: &mut dyn Write, verdict: &Verdict, progress: Option<Progress>) -> io::Result<()> {
        let verifying = progress.as_ref().map(|p| {
            let prover = p.prover.map(|name| format!("[TRACE] Using prover: {name}\n")).unwrap_or_default();
            format!("\nVerifying {} ...\n{prover}", verdict.name)
        });
        let finished = progress.as_ref().map(|p| {
            let n = verdict.proof_obligations;
            let obligations = format!("{n} proof obligation{}", if n == 1 { "" } else { "s" });
            let word = progress_word(verdict);
            match p.seconds {
                Some(seconds) => format!(
                    "  [{seconds:.3} s, solver resource count: {}, {obligations}]  {word}\n",
                    verdict.resource_count
                ),
                None => format!("  [{obligations}]  {word}\n"),
            }
        });
        let text = match self.format {
            // Boogie prints the splits between the two progress lines.
            Format::Boogie | Format::Rich => {
                let mut text = verifying.unwrap_or_default();
                text += &verdict.splits;
                text += &finished.unwrap_or_default();
                if !self.hushed() {
                    text += &report_text(verdict);
                    if self.format == Format::Rich {
                        text += &values_text(verdict);
                    }
                }
                text
            }
            Format::Json => {
                let mut text: String =
                    [verifying, finished].into_iter().flatten().map(|t| trace_json(&t) + "\n").collect();
                text += &verdict_json(verdict);
                text.push('\n');
                text
            }
        };
        out.write_all(text.as_bytes())
    }

    /// Boogie's closing line, after a blank line (none under `/quiet`). In JSON the `finished`
    /// event, always: it says the run is complete, and what `rboogie merge` needs.
    pub fn trailer(&self, out: &mut dyn Write, closing: &Closing) -> io::Result<()> {
        let text = if closing.quiet {
            String::new()
        } else {
            format!("\n{}\n", trailer_line(&closing.counts, closing.verified_shown))
        };
        match self.format {
            Format::Boogie | Format::Rich => out.write_all(text.as_bytes()),
            Format::Json => {
                let c = &closing.counts;
                writeln!(
                    out,
                    "{}",
                    serde_json::json!({
                        "kind": "finished",
                        "verified": c.verified,
                        "errors": c.errors,
                        "inconclusive": c.inconclusive,
                        "timeouts": c.timeouts,
                        "out_of_memory": c.out_of_memory,
                        "out_of_resource": c.out_of_resource,
                        "solver_exceptions": c.solver_exceptions,
                        "verified_shown": closing.verified_shown,
                        "implementations": closing.implementations,
                        "shard": { "index": closing.shard.index, "count": closing.shard.count },
                        "program": closing.program,
                        "text": text,
                    })
                )
            }
        }
    }

    /// Field abstraction's summary (STORM's Table 5.4: #F, #AF, #IT, time): `field abstraction:
    /// 200 fields, 3 tracked (f0, f1, done), 4 iterations, 2.31 s` (in JSON: a
    /// `field_abstraction` object with the same figures).
    pub fn field_abstraction(
        &self,
        out: &mut dyn Write,
        fields: usize,
        tracked: &[String],
        iterations: usize,
        seconds: f64,
    ) -> io::Result<()> {
        match self.format {
            Format::Boogie | Format::Rich => writeln!(
                out,
                "field abstraction: {fields} fields, {} tracked ({}), {iterations} iterations, {seconds:.2} s",
                tracked.len(),
                tracked.join(", ")
            ),
            Format::Json => writeln!(
                out,
                "{}",
                serde_json::json!({
                    "kind": "field_abstraction",
                    "fields": fields,
                    "tracked": tracked,
                    "iterations": iterations,
                    "seconds": (seconds * 100.0).round() / 100.0,
                })
            ),
        }
    }

    /// A line the driver prints as Boogie does, such as `*** Error: No input files were
    /// specified.` (in JSON: an `error` object with the same text).
    pub fn tool_message(&self, out: &mut dyn Write, message: &str) -> io::Result<()> {
        match self.format {
            Format::Boogie | Format::Rich => writeln!(out, "{message}"),
            Format::Json => writeln!(
                out,
                "{}",
                serde_json::json!({ "kind": "error", "message": message, "text": format!("{message}\n") })
            ),
        }
    }

    /// A message Boogie writes through its printer (`ErrorWriteLine`, `AdvisoryWriteLine`):
    /// `Error opening file ...`, `*** Error: No input files were specified.`, a solver that
    /// cannot be started; as [`Reporter::tool_message`], and nothing under `/silent`.
    pub fn printer_line(&self, out: &mut dyn Write, message: &str) -> io::Result<()> {
        if self.hushed() {
            return Ok(());
        }
        self.tool_message(out, message)
    }

    /// Text Boogie prints that is no message: a printed program, the `/env:2` echo, `/help`
    /// (in JSON: an `output` object with the same text).
    pub fn output(&self, out: &mut dyn Write, text: &str) -> io::Result<()> {
        if text.is_empty() {
            return Ok(());
        }
        match self.format {
            Format::Boogie | Format::Rich => out.write_all(text.as_bytes()),
            Format::Json => writeln!(out, "{}", serde_json::json!({ "kind": "output", "text": text })),
        }
    }

    /// A `/trace` progress line, newline included (in JSON: a `trace` object with the same
    /// text).
    pub fn trace(&self, out: &mut dyn Write, text: &str) -> io::Result<()> {
        match self.format {
            Format::Boogie | Format::Rich => out.write_all(text.as_bytes()),
            Format::Json => writeln!(out, "{}", trace_json(text)),
        }
    }
}

fn trace_json(text: &str) -> String {
    serde_json::json!({ "kind": "trace", "text": text }).to_string()
}

/// What the closing line, or the `finished` event, reports.
#[derive(Clone, Debug)]
pub struct Closing {
    pub counts: Counts,
    /// `/quiet`: no closing line in Boogie's format.
    pub quiet: bool,
    /// The closing line counts verified implementations (not under
    /// `/printVerifiedProceduresCount:0`).
    pub verified_shown: bool,
    /// The implementations the options select in the whole program (all shards).
    pub implementations: usize,
    pub shard: Shard,
    /// The run's [`crate::shard::fingerprint`].
    pub program: String,
}

#[cfg(test)]
mod tests {
    use super::*;

    fn map(text: &str) -> (SourceMap, FileId) {
        let mut sources = SourceMap::new();
        let id = sources.add("dir/t.bpl", "t.bpl", text.to_string());
        (sources, id)
    }

    #[test]
    fn boogie_columns_depend_on_the_phase() {
        let (sources, id) = map("type T;\nconst x: U;\n");
        let at = Span::new(id, 17, 18); // `U`, line 2, column 10
        let parse = Diagnostic::error(Phase::Parse, at, "oops");
        let resolve = Diagnostic::error(Phase::Resolve, at, "undeclared type: U");
        let warning = Diagnostic::warning(Phase::Typecheck, at, "hmm");
        assert_eq!(boogie_line(&sources, &parse), "t.bpl(2,10): error: oops");
        assert_eq!(boogie_line(&sources, &resolve), "t.bpl(2,9): Error: undeclared type: U");
        assert_eq!(boogie_line(&sources, &warning), "t.bpl(2,9): Warning: hmm");
        assert_eq!(boogie_line(&sources, &parse.clone().at_line_start()), "t.bpl(2,0): error: oops");
        assert_eq!(summary_line(Phase::Parse, 2, "t.bpl"), "2 parse errors detected in t.bpl");
    }

    #[test]
    fn spans_outside_the_map_do_not_panic() {
        let (sources, id) = map("é");
        let inside_char = Diagnostic::error(Phase::Parse, Span::new(id, 1, 9), "m");
        assert_eq!(boogie_line(&sources, &inside_char), "t.bpl(1,1): error: m");
        let other_file = Diagnostic::error(Phase::Parse, Span::new(FileId(7), 0, 1), "m");
        assert_eq!(boogie_line(&sources, &other_file), "(0,0): error: m");
        let mut buf = Vec::new();
        write_rich(&mut buf, &sources, &inside_char, true).unwrap();
        write_rich(&mut buf, &sources, &other_file, false).unwrap();
        json_line(&sources, &other_file);
    }

    #[test]
    fn trailer_counts() {
        assert_eq!(
            trailer_line(&Counts::default(), true),
            "Boogie program verifier finished with 0 verified, 0 errors"
        );
        let c = Counts { verified: 2, errors: 1, timeouts: 1, ..Counts::default() };
        assert_eq!(trailer_line(&c, true), "Boogie program verifier finished with 2 verified, 1 error, 1 time out");
        assert_eq!(trailer_line(&c, false), "Boogie program verifier finished with 1 error, 1 time out");
    }

    #[test]
    fn json_and_rich() {
        let (sources, id) = map("procedure P();\n  bad\n");
        let d = Diagnostic::error(Phase::Parse, Span::new(id, 17, 20), "EOF expected");
        let v: serde_json::Value = serde_json::from_str(&json_line(&sources, &d)).unwrap();
        assert_eq!(v["file"], "t.bpl");
        assert_eq!((v["line"].as_i64(), v["column"].as_i64()), (Some(2), Some(3)));
        assert_eq!((v["start"].as_u64(), v["end"].as_u64()), (Some(17), Some(20)));
        assert_eq!((v["severity"].as_str(), v["phase"].as_str()), (Some("error"), Some("parse")));
        let mut buf = Vec::new();
        write_rich(&mut buf, &sources, &d, false).unwrap();
        let text = String::from_utf8(buf).unwrap();
        assert!(text.contains("error: EOF expected") && text.contains("t.bpl:2:3") && text.contains("bad"), "{text}");
    }
}
