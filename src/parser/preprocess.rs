//! Boogie's textual preprocessing: `#if`/`#elsif`/`#else`/`#endif` and `#` pragmas.
//!
//! Boogie runs two steps before parsing. `ParserHelper.Fill` keeps or drops whole lines by
//! `#if COND` (a define, possibly negated with `!`; the lines are trimmed first), replacing
//! every dropped or directive line with an empty one; a misplaced `#elsif`/`#else`/`#endif`
//! or a missing `#endif` turns into a `#MalformedInput: ...` line (and, when misplaced, drops
//! the rest of the file). Then the scanner treats every line with `#` in column 1 as a pragma:
//! `#line N [file]` renumbers the following lines, anything else is an error.
//!
//! Here both steps blank the affected bytes with spaces instead of removing them, so the
//! preprocessed text has the same byte offsets as the file and every span points into the
//! original source. `#line` pragmas become [`LineDirective`]s of the source map.

use crate::ast::{FileId, Span};
use crate::diagnostics::{Diagnostic, Phase};
use crate::source::LineDirective;

pub struct Preprocessed<'a> {
    /// The text to lex: the file itself when it has no `#` line (the common case).
    pub text: std::borrow::Cow<'a, str>,
    pub directives: Vec<LineDirective>,
    pub errors: Vec<Diagnostic>,
}

#[derive(Clone, Copy)]
struct IfState {
    seen_else: bool,
    may_include_another: bool,
}

fn condition_holds(arg: &str, defines: &[String]) -> bool {
    let mut sense = true;
    let mut arg = arg;
    while let Some(rest) = arg.strip_prefix('!') {
        sense = !sense;
        arg = rest.trim_start();
    }
    defines.iter().any(|d| d == arg) == sense
}

/// Replaces `text[range]` by spaces, keeping line breaks.
fn blank(bytes: &mut [u8], start: usize, end: usize) {
    for b in &mut bytes[start..end] {
        if *b != b'\n' && *b != b'\r' {
            *b = b' ';
        }
    }
}

/// Splits `text` into lines: `(start, end_without_newline, next_line_start)`.
fn lines(text: &str) -> Vec<(usize, usize, usize)> {
    let bytes = text.as_bytes();
    let mut out = Vec::new();
    let mut start = 0;
    while start < bytes.len() {
        let nl = memchr::memchr(b'\n', &bytes[start..]).map(|i| start + i);
        let next = nl.map_or(bytes.len(), |i| i + 1);
        let mut end = nl.unwrap_or(bytes.len());
        if end > start && bytes[end - 1] == b'\r' {
            end -= 1;
        }
        out.push((start, end, next));
        start = next;
    }
    out
}

/// Whether some line is a directive for step 1 (its first non-blank characters are `#if`,
/// `#elsif`, `#else` or `#endif`) or a pragma for step 2 (`#` in column 1). Only then is the
/// text copied and blanked; other `#` characters, as in the identifiers and indented terms
/// of Dafny's output (`#_System._tuple#2._#Make2(...)`), leave the file as it is.
fn has_directive_lines(text: &str) -> bool {
    let bytes = text.as_bytes();
    memchr::memchr_iter(b'#', bytes).any(|i| {
        // Walking back from the `#` stops at the first character that is not a blank, which
        // is the one just before it in identifiers: linear in the text.
        i == 0
            || bytes[i - 1] == b'\n'
            || (text[..i].chars().rev().take_while(|&c| c != '\n').all(char::is_whitespace)
                && ["#if", "#elsif", "#else", "#endif"].iter().any(|d| text[i..].starts_with(d)))
    })
}

pub fn preprocess<'a>(file: FileId, text: &'a str, defines: &[String]) -> Preprocessed<'a> {
    if !has_directive_lines(text) {
        return Preprocessed { text: std::borrow::Cow::Borrowed(text), directives: Vec::new(), errors: Vec::new() };
    }
    let lines = lines(text);
    let mut bytes = text.as_bytes().to_vec();
    let mut errors = Vec::new();
    // Malformed conditional structure: (line index where Boogie inserts the
    // `#MalformedInput` line, message), reported as an unrecognized pragma on that line.
    let mut malformed: Option<(usize, &str)> = None;

    // Step 1: conditional compilation.
    let mut stack: Vec<IfState> = Vec::new();
    let mut ignore_cutoff: Option<usize> = None;
    let mut cut_at: Option<usize> = None;
    for (index, &(start, end, _)) in lines.iter().enumerate() {
        let line = &text[start..end];
        let t = line.trim();
        if let Some(cond) = t.strip_prefix("#if") {
            let mut state = IfState { seen_else: false, may_include_another: false };
            if ignore_cutoff.is_none() && !condition_holds(cond.trim_start(), defines) {
                ignore_cutoff = Some(stack.len());
                state.may_include_another = true;
            }
            stack.push(state);
            blank(&mut bytes, start, end);
        } else if let Some(cond) = t.strip_prefix("#elsif") {
            let Some(state) = stack.last_mut().filter(|s| !s.seen_else) else {
                malformed = Some((index, "misplaced #elsif"));
                cut_at = Some(start);
                break;
            };
            if ignore_cutoff.is_none() {
                ignore_cutoff = Some(stack.len() - 1);
            } else if state.may_include_another && condition_holds(cond.trim_start(), defines) {
                ignore_cutoff = None;
                state.may_include_another = false;
            }
            blank(&mut bytes, start, end);
        } else if t == "#else" {
            let Some(state) = stack.last_mut().filter(|s| !s.seen_else) else {
                malformed = Some((index, "misplaced #else"));
                cut_at = Some(start);
                break;
            };
            state.seen_else = true;
            if ignore_cutoff.is_none() {
                ignore_cutoff = Some(stack.len() - 1);
            } else if state.may_include_another {
                ignore_cutoff = None;
                state.may_include_another = false;
            }
            blank(&mut bytes, start, end);
        } else if t == "#endif" {
            if stack.pop().is_none() {
                malformed = Some((index, "misplaced #endif"));
                cut_at = Some(start);
                break;
            }
            if ignore_cutoff == Some(stack.len()) {
                ignore_cutoff = None;
            }
            blank(&mut bytes, start, end);
        } else if ignore_cutoff.is_some() {
            blank(&mut bytes, start, end);
        }
    }
    if let Some(cut) = cut_at {
        let len = bytes.len();
        blank(&mut bytes, cut, len);
    } else if !stack.is_empty() {
        malformed = Some((lines.len(), "missing #endif"));
    }

    // Step 2: pragmas, i.e. lines with `#` in column 1 (after step 1's blanking).
    let mut directives = Vec::new();
    let mut pragma_errors: Vec<(usize, Diagnostic)> = Vec::new();
    for (index, &(start, end, next)) in lines.iter().enumerate() {
        if bytes.get(start) != Some(&b'#') {
            continue;
        }
        let hash_line = String::from_utf8_lossy(&bytes[start + 1..end]).trim_end().to_string();
        blank(&mut bytes, start, end);
        let span = Span::new(file, start, start);
        if hash_line.starts_with("line ") || hash_line == "line" {
            let h = hash_line[4..].trim_start();
            let x = h.find(' ').unwrap_or(h.len());
            if let Ok(n) = h[..x].trim().parse::<i64>() {
                let name = h[x..].trim();
                directives.push(LineDirective {
                    offset: next as u32,
                    line: n,
                    name: (!name.is_empty()).then(|| name.to_string()),
                });
                continue;
            }
            let message = format!("Malformed (#line num [filename]) pragma: #{hash_line}");
            pragma_errors.push((index, Diagnostic::error(Phase::Parse, span, message).at_line_start()));
            continue;
        }
        let message = format!("Unrecognized pragma: #{hash_line}");
        pragma_errors.push((index, Diagnostic::error(Phase::Parse, span, message).at_line_start()));
    }
    errors.extend(pragma_errors.into_iter().map(|(_, d)| d));
    if let Some((index, what)) = malformed {
        let offset = lines.get(index).map_or(text.len(), |l| l.0);
        let span = Span::new(file, offset, offset);
        let message = format!("Unrecognized pragma: #MalformedInput: {what}");
        errors.push(Diagnostic::error(Phase::Parse, span, message).at_line_start());
    }

    // Blanking replaced whole lines (or ASCII bytes within them); any multi-byte character
    // was blanked entirely, so the result is still UTF-8.
    let text = String::from_utf8(bytes).unwrap_or_else(|e| String::from_utf8_lossy(e.as_bytes()).into_owned());
    Preprocessed { text: std::borrow::Cow::Owned(text), directives, errors }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn run<'a>(text: &'a str, defines: &[&str]) -> Preprocessed<'a> {
        let defines: Vec<String> = defines.iter().map(|s| s.to_string()).collect();
        preprocess(FileId(0), text, &defines)
    }

    #[test]
    fn conditionals_keep_offsets() {
        let src = "a\n#if X\nb\n#else\nc\n#endif\nd\n";
        let p = run(src, &[]);
        assert_eq!(p.text.len(), src.len());
        assert_eq!(p.text.split_whitespace().collect::<Vec<_>>(), vec!["a", "c", "d"]);
        let p = run(src, &["X"]);
        assert_eq!(p.text.split_whitespace().collect::<Vec<_>>(), vec!["a", "b", "d"]);
        let p = run("#if !X\nb\n#endif\n", &[]);
        assert_eq!(p.text.split_whitespace().collect::<Vec<_>>(), vec!["b"]);
    }

    #[test]
    fn line_pragmas() {
        let p = run("a\n#line 10 foo.c\nb\n#line\n#frob\n", &[]);
        assert_eq!(p.directives.len(), 1);
        assert_eq!(p.directives[0].line, 10);
        assert_eq!(p.directives[0].name.as_deref(), Some("foo.c"));
        let messages: Vec<_> = p.errors.iter().map(|d| d.message.as_str()).collect();
        assert_eq!(messages, vec!["Malformed (#line num [filename]) pragma: #line", "Unrecognized pragma: #frob"]);
    }

    #[test]
    fn missing_endif() {
        let p = run("#if X\na\n", &[]);
        assert_eq!(p.errors[0].message, "Unrecognized pragma: #MalformedInput: missing #endif");
    }

    #[test]
    fn hash_in_terms_leaves_the_text_borrowed() {
        let src = "axiom f(\n  #_System._tuple#2._#Make2(a#0, b#1)) == 0;\n";
        let p = run(src, &[]);
        assert!(matches!(p.text, std::borrow::Cow::Borrowed(_)));
        assert!(p.errors.is_empty());
    }

    #[test]
    fn indented_directives_still_count() {
        let p = run("a\n  #if X\nb\n \t#endif\nc\n", &[]);
        assert_eq!(p.text.split_whitespace().collect::<Vec<_>>(), vec!["a", "c"]);
        let p = run("a\n  #ifX\nb\n  #endif\n", &[]);
        assert_eq!(p.text.split_whitespace().collect::<Vec<_>>(), vec!["a"]);
        let p = run("a\n  #else\n", &[]);
        assert_eq!(p.errors[0].message, "Unrecognized pragma: #MalformedInput: misplaced #else");
    }
}
