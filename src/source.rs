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

    /// Boogie's position of the start of `span`.
    pub fn position(&self, span: Span) -> Position {
        self.file(span.file).position(span.start)
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
