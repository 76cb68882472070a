//! Source files and positions.
//!
//! Every span in rboogie is a byte range in one file of the [`SourceMap`]. Lines and columns
//! are computed here, only when a message is printed, in Boogie's conventions: the line is
//! 1-based and honours `#line N [file]` pragmas, the column counts characters from 1.

use crate::ast::{FileId, Span};

/// A `#line N [name]` pragma: from byte `offset` on, the line there is numbered `line` (and
/// the file is called `name`, when given).
#[derive(Clone, Debug)]
pub struct LineDirective {
    pub offset: u32,
    pub line: i64,
    pub name: Option<String>,
}

#[derive(Clone, Debug)]
pub struct SourceFile {
    /// The path as given (used to read the file).
    pub path: String,
    /// The name printed in messages (the base name under `/useBaseNameForFileName`).
    pub name: String,
    pub text: String,
    line_starts: Vec<u32>,
    pub directives: Vec<LineDirective>,
}

/// A position in Boogie's terms.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Position {
    pub file: String,
    /// 1-based, after `#line` pragmas (which may number lines from 0 or below).
    pub line: i64,
    /// 1-based, in characters.
    pub col: u32,
}

#[derive(Clone, Debug, Default)]
pub struct SourceMap {
    files: Vec<SourceFile>,
    /// Under `/print`, the printed places of the nodes Boogie's printer moved, by (file, start)
    /// of their spans ([`crate::moved`]).
    moved: crate::moved::Moves,
    /// The places `/printInlined` gave the nodes of one implementation, by its name.
    moved_in: crate::moved::ScopedMoves,
}

impl SourceMap {
    pub fn new() -> SourceMap {
        SourceMap::default()
    }

    pub fn add(&mut self, path: impl Into<String>, name: impl Into<String>, text: String) -> FileId {
        let line_starts =
            std::iter::once(0).chain(memchr::memchr_iter(b'\n', text.as_bytes()).map(|i| i as u32 + 1)).collect();
        self.files.push(SourceFile { path: path.into(), name: name.into(), text, line_starts, directives: Vec::new() });
        FileId(self.files.len() as u32 - 1)
    }

    pub fn file(&self, id: FileId) -> &SourceFile {
        &self.files[id.0 as usize]
    }

    pub fn file_mut(&mut self, id: FileId) -> &mut SourceFile {
        &mut self.files[id.0 as usize]
    }

    pub fn files(&self) -> impl Iterator<Item = (FileId, &SourceFile)> {
        self.files.iter().enumerate().map(|(i, f)| (FileId(i as u32), f))
    }

    /// Boogie's position of the start of `span`: where `/print` printed it, if it did.
    pub fn position(&self, span: Span) -> Position {
        self.moved_position(span).unwrap_or_else(|| self.file(span.file).position(span.start))
    }

    /// [`SourceMap::position`], `None` for a span in no file of the map (Boogie's "no token",
    /// which it prints as `(0,-1)`).
    pub fn try_position(&self, span: Span) -> Option<Position> {
        if let Some(p) = self.moved_position(span) {
            return Some(p);
        }
        self.files.get(span.file.0 as usize).map(|f| f.position(span.start))
    }

    /// Where a `/print` put the node of `span`, if one did.
    pub fn moved_position(&self, span: Span) -> Option<Position> {
        if self.moved.is_empty() {
            return None;
        }
        self.moved.get(&(span.file.0, span.start, None)).cloned()
    }

    /// Boogie's position of a block whose token is `span`'s start: where a print of blocks put
    /// it (keyed by its whole span: see [`crate::moved`]), else where it is in its file.
    pub fn block_position(&self, span: Span) -> Position {
        let moved =
            (!self.moved.is_empty()).then(|| self.moved.get(&(span.file.0, span.start, Some(span.end)))).flatten();
        // A block Boogie did not print as a block keeps its token, even where that token is
        // its first command's (the command's token was replaced, not changed).
        moved.cloned().unwrap_or_else(|| self.file(span.file).position(span.start))
    }

    /// From now on, the spans of `moves` are reported at their printed places (those of an
    /// implementation's scope only in that implementation's messages: [`Self::for_implementation`]).
    pub fn move_tokens(&mut self, moves: crate::moved::ScopedMoves) {
        for (scope, moves) in moves {
            if scope.is_empty() {
                self.moved.extend(moves);
            } else {
                self.moved_in.entry(scope).or_default().extend(moves);
            }
        }
    }

    /// The map to report implementation `name`'s messages with: its own moved places over the
    /// program's. (A copy only under `/printInlined`, for an implementation it printed.)
    pub fn for_implementation(&self, name: &str) -> std::borrow::Cow<'_, SourceMap> {
        match self.moved_in.get(name) {
            None => std::borrow::Cow::Borrowed(self),
            Some(moves) => {
                let mut scoped = self.clone();
                scoped.moved.extend(moves.iter().map(|(k, v)| (*k, v.clone())));
                std::borrow::Cow::Owned(scoped)
            }
        }
    }
}

impl SourceFile {
    /// 0-based physical line index of a byte offset.
    pub fn line_index(&self, offset: u32) -> usize {
        match self.line_starts.binary_search(&offset) {
            Ok(i) => i,
            Err(i) => i - 1,
        }
    }

    pub fn line_start(&self, index: usize) -> u32 {
        self.line_starts[index]
    }

    /// Boogie's (file, line, column) of a byte offset.
    pub fn position(&self, offset: u32) -> Position {
        let offset = offset.min(self.text.len() as u32);
        let index = self.line_index(offset);
        let start = self.line_starts[index] as usize;
        let col = self.text[start..offset as usize].chars().count() as u32 + 1;
        let mut line = index as i64 + 1;
        let mut name = &self.name;
        // The last directive at or before this offset renumbers the lines after it.
        let k = self.directives.partition_point(|d| d.offset <= offset);
        if k > 0 {
            let d = &self.directives[k - 1];
            let dline = self.line_index(d.offset) as i64 + 1;
            line = d.line + (line - dline);
            // A file name in a directive stays in force until another directive names one.
            if let Some(n) = self.directives[..k].iter().rev().find_map(|d| d.name.as_ref()) {
                name = n;
            }
        }
        Position { file: name.clone(), line, col }
    }
}
