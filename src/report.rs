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
//! - [`Format::Json`]: one JSON object per line. Each has a `kind`: `diagnostic` (file, line,
//!   column, severity, phase, message and the byte range `start`..`end`), `summary` (the `N
//!   parse errors detected in F` line), `finished` (the closing counts) or `error` (a message
//!   of the driver's own, such as a missing input file). Line and column are `#line`-mapped,
//!   both 1-based.
//!
//! Nothing here panics on a diagnostic whose span lies outside the [`SourceMap`]: it is
//! printed without a source position.

use crate::ast::{FileId, Span};
use crate::diagnostics::{Diagnostic, Phase, Severity};
use crate::source::{SourceFile, SourceMap};
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

/// `Boogie program verifier finished with 0 verified, 0 errors` (without the blank line Boogie
/// prints before it; `ConsolePrinter.WriteTrailer`).
pub fn trailer_line(counts: &Counts) -> String {
    let plural = |n: usize| if n == 1 { "" } else { "s" };
    let mut line = format!(
        "Boogie program verifier finished with {} verified, {} error{}",
        counts.verified,
        counts.errors,
        plural(counts.errors)
    );
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
    })
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

/// Writes everything the driver reports, in one format.
#[derive(Clone, Copy, Debug)]
pub struct Reporter {
    pub format: Format,
    pub color: bool,
}

impl Reporter {
    pub fn new(format: Format, color: bool) -> Reporter {
        Reporter { format, color }
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
        match self.format {
            Format::Boogie | Format::Rich => writeln!(out, "{}", summary_line(phase, errors, file)),
            Format::Json => writeln!(
                out,
                "{}",
                serde_json::json!({ "kind": "summary", "phase": phase_name(phase), "errors": errors, "file": file })
            ),
        }
    }

    /// Boogie's closing line, after a blank line.
    pub fn trailer(&self, out: &mut dyn Write, counts: &Counts) -> io::Result<()> {
        match self.format {
            Format::Boogie | Format::Rich => write!(out, "\n{}\n", trailer_line(counts)),
            Format::Json => writeln!(
                out,
                "{}",
                serde_json::json!({
                    "kind": "finished",
                    "verified": counts.verified,
                    "errors": counts.errors,
                    "inconclusive": counts.inconclusive,
                    "timeouts": counts.timeouts,
                    "out_of_memory": counts.out_of_memory,
                    "out_of_resource": counts.out_of_resource,
                    "solver_exceptions": counts.solver_exceptions,
                })
            ),
        }
    }

    /// A line the driver prints as Boogie does, such as `*** Error: No input files were
    /// specified.` (in JSON: an `error` object with the same text).
    pub fn tool_message(&self, out: &mut dyn Write, message: &str) -> io::Result<()> {
        match self.format {
            Format::Boogie | Format::Rich => writeln!(out, "{message}"),
            Format::Json => writeln!(out, "{}", serde_json::json!({ "kind": "error", "message": message })),
        }
    }
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
        assert_eq!(trailer_line(&Counts::default()), "Boogie program verifier finished with 0 verified, 0 errors");
        let c = Counts { verified: 2, errors: 1, timeouts: 1, ..Counts::default() };
        assert_eq!(trailer_line(&c), "Boogie program verifier finished with 2 verified, 1 error, 1 time out");
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
