//! Boogie's `/print` moves tokens.
//!
//! Boogie prints a program through a `TokenTextWriter` that, for every declaration, command,
//! expression and type it prints, overwrites the node's token with the place in the printed
//! text (`TokenTextWriter.SetToken`): the file is `<console>` when printing to stdout, else the
//! print file's name; the line is the printed line (1 is the writer's first line); the column
//! is the writer's 0-based column, which Boogie then treats as a 1-based one. Every later
//! message about such a node (a type error found after the print, a verification error, a
//! trace) names the printed place.
//!
//! How: while a [`Recording`] is alive, the printer puts a mark (private-use characters around
//! the span's file and start) in its text where Boogie calls `SetToken`, naming the span
//! rboogie reports for that node; [`writer`] marks where one of Boogie's writers starts (its
//! lines count from 1). [`resolve`] takes the marks out of the text and gives each marked span
//! its printed [`Position`], which the [`crate::source::SourceMap`] reports from then on
//! (`move_tokens`). A span marked twice by one writer keeps its first place (an operator's
//! expression and its left operand start at the same byte; the operator is printed first); a
//! later writer overrides an earlier one, as in Boogie. Blocks have places of their own: a
//! block Boogie makes of a label-less statement list has its first command's token.

use std::cell::Cell;
use std::collections::HashMap;

use crate::ast::Span;
use crate::source::Position;

const MARK: char = '\u{E000}';
const BLOCK: char = '\u{E001}';
const WRITER: char = '\u{E002}';
const END: char = '\u{E003}';
const SCOPE: char = '\u{E004}';

thread_local! {
    static RECORDING: Cell<bool> = const { Cell::new(false) };
}

/// While alive, the printer marks the nodes whose tokens Boogie's printer moves.
pub struct Recording {
    previous: bool,
}

impl Recording {
    pub fn start() -> Recording {
        Recording { previous: RECORDING.with(|r| r.replace(true)) }
    }
}

impl Drop for Recording {
    fn drop(&mut self) {
        let previous = self.previous;
        RECORDING.with(|r| r.set(previous));
    }
}

fn recording() -> bool {
    RECORDING.with(Cell::get)
}

/// Puts a mark for `span` into `out` when a [`Recording`] is alive.
pub fn mark(out: &mut String, span: Span) {
    push_mark(out, MARK, span);
}

/// Puts a mark for the block whose token is `span`.
pub fn mark_block(out: &mut String, span: Span) {
    push_mark(out, BLOCK, span);
}

fn push_mark(out: &mut String, kind: char, span: Span) {
    if recording() {
        out.push(kind);
        out.push_str(&format!("{} {} {}", span.file.0, span.start, span.end));
        out.push(END);
    }
}

/// The mark for `span` as a string (empty when nothing is recorded).
pub fn mark_text(span: Span) -> String {
    let mut out = String::new();
    mark(&mut out, span);
    out
}

/// Marks the start of one of Boogie's writers, which names its tokens' file `file`.
pub fn writer(out: &mut String, file: &str) {
    writer_of(out, file, "");
}

/// Marks the start of a writer that prints implementation `name` after inlining: the nodes
/// it prints are the implementation's own copies, so its places hold for that implementation's
/// messages only (other copies of the same code keep theirs).
pub fn implementation_writer(out: &mut String, file: &str, name: &str) {
    writer_of(out, file, name);
}

fn writer_of(out: &mut String, file: &str, scope: &str) {
    if recording() {
        out.push(WRITER);
        out.push_str(file);
        out.push(SCOPE);
        out.push_str(scope);
        out.push(END);
    }
}

/// Where a print went: the spans its marks named (file, start, and for a block's span its end),
/// each with its printed place.
pub type Moves = HashMap<(u32, u32, Option<u32>), Position>;

/// The places a text's writers gave: for every program (`""`) or for one implementation.
pub type ScopedMoves = HashMap<String, Moves>;

/// The text without its marks, and the printed places of the marked spans.
pub fn resolve(text: &str) -> (String, ScopedMoves) {
    let mut moves = ScopedMoves::new();
    if !text.contains([MARK, BLOCK, WRITER]) {
        return (text.to_string(), moves);
    }
    let mut clean = String::with_capacity(text.len());
    let mut this_writer = Moves::new();
    let mut scope = String::new();
    let (mut file, mut line, mut col) = (String::new(), 1i64, 0u32);
    let mut chars = text.chars();
    while let Some(c) = chars.next() {
        match c {
            MARK | BLOCK => {
                let inside: String = chars.by_ref().take_while(|&c| c != END).collect();
                let mut numbers = inside.split(' ').map(|n| n.parse::<u32>().ok());
                if let (Some(Some(f)), Some(Some(start)), Some(Some(end))) =
                    (numbers.next(), numbers.next(), numbers.next())
                {
                    let at = Position { file: file.clone(), line, col };
                    this_writer.entry((f, start, (c == BLOCK).then_some(end))).or_insert(at);
                }
            }
            WRITER => {
                moves.entry(std::mem::take(&mut scope)).or_default().extend(this_writer.drain());
                let inside: String = chars.by_ref().take_while(|&c| c != END).collect();
                let (name, named_scope) = inside.split_once(SCOPE).unwrap_or((&inside, ""));
                (file, scope) = (name.to_string(), named_scope.to_string());
                line = 1;
                col = 0;
            }
            '\n' => {
                clean.push(c);
                line += 1;
                col = 0;
            }
            _ => {
                clean.push(c);
                // .NET counts UTF-16 code units.
                col += c.len_utf16() as u32;
            }
        }
    }
    moves.entry(scope).or_default().extend(this_writer);
    (clean, moves)
}

/// The name Boogie's writer gives the tokens of a print to `target` (`-` is stdout).
pub fn print_file_name(target: &str) -> &str {
    if target == "-" { "<console>" } else { target }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::ast::FileId;

    fn span(start: u32) -> Span {
        Span { file: FileId(0), start, end: start + 1 }
    }

    #[test]
    fn marks_give_printed_places_and_writers_restart_lines() {
        let _recording = Recording::start();
        let mut text = String::new();
        writer(&mut text, "<console>");
        text.push_str("\n  ");
        mark(&mut text, span(7));
        mark(&mut text, span(9));
        text.push_str("assert x;\n");
        mark(&mut text, span(9)); // a second mark of a span in one writer does not move it
        mark_block(&mut text, span(7));
        text.push_str("  x:\n");
        implementation_writer(&mut text, "<console>", "P");
        text.push_str("    ");
        mark(&mut text, span(7));
        text.push_str("assert x;\n");
        let (clean, moves) = resolve(&text);
        assert_eq!(clean, "\n  assert x;\n  x:\n    assert x;\n");
        let at = |line, col| Position { file: "<console>".to_string(), line, col };
        let program = &moves[""];
        assert_eq!(program[&(0, 7, None)], at(2, 2));
        assert_eq!(program[&(0, 9, None)], at(2, 2));
        assert_eq!(program[&(0, 7, Some(8))], at(3, 0));
        assert_eq!(moves["P"][&(0, 7, None)], at(1, 4));
    }

    #[test]
    fn nothing_is_marked_without_a_recording() {
        let mut text = String::new();
        mark(&mut text, span(3));
        writer(&mut text, "f");
        assert!(text.is_empty());
    }
}
