//! Reading what a solver prints: one complete response at a time, then as a tree.
//!
//! Written by hand rather than with easy-smt's parser: the pipe backend has to know where a
//! response ends while the bytes are still arriving (a `get-value` answer or an `(error "...")`
//! spans lines, a babbling solver may never close a parenthesis), and it has to do so on a
//! buffer it can abandon at a deadline. easy-smt reads from the process itself, with no bound
//! on the wait. [`next_response`] scans a byte buffer for the first complete response;
//! [`parse`] turns one into an [`SExpr`]. Neither panics on any input.

/// A response as a tree. Atoms keep their text as printed (`"a ""b"""` with its quotes,
/// `|x y|` with its bars), so a value prints back as the solver wrote it.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum SExpr {
    Atom(String),
    List(Vec<SExpr>),
}

impl SExpr {
    /// An atom's text without string quotes or symbol bars; `None` for a list.
    pub fn unquoted(&self) -> Option<String> {
        match self {
            SExpr::Atom(a) if a.len() >= 2 && a.starts_with('"') && a.ends_with('"') => {
                Some(a[1..a.len() - 1].replace("\"\"", "\""))
            }
            SExpr::Atom(a) if a.len() >= 2 && a.starts_with('|') && a.ends_with('|') => {
                Some(a[1..a.len() - 1].to_string())
            }
            SExpr::Atom(a) => Some(a.clone()),
            SExpr::List(_) => None,
        }
    }

    pub fn is_atom(&self, text: &str) -> bool {
        matches!(self, SExpr::Atom(a) if a == text)
    }

    /// `(head ...)`'s arguments when the head is the atom `head`.
    pub fn call(&self, head: &str) -> Option<&[SExpr]> {
        match self {
            SExpr::List(items) if items.first().is_some_and(|h| h.is_atom(head)) => Some(&items[1..]),
            _ => None,
        }
    }
}

impl std::fmt::Display for SExpr {
    /// On one line, one space between items.
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        match self {
            SExpr::Atom(a) => f.write_str(a),
            SExpr::List(items) => {
                f.write_str("(")?;
                for (i, item) in items.iter().enumerate() {
                    if i > 0 {
                        f.write_str(" ")?;
                    }
                    write!(f, "{item}")?;
                }
                f.write_str(")")
            }
        }
    }
}

/// Finds the first complete response in `buffer`: returns its byte range, and the offset
/// after which scanning continues. `None` when the buffer holds only white space, comments or
/// an unfinished response (wait for more bytes). An atom is complete only once a delimiter
/// follows it (solvers end every response with a newline); a stray `)` is a response of its
/// own, which the caller then rejects as garbage.
pub fn next_response(buffer: &[u8]) -> Option<(std::ops::Range<usize>, usize)> {
    Scanner::default().next(buffer)
}

/// [`next_response`] that resumes where it stopped when more bytes arrive, so that a solver
/// printing an endless response costs linear time. Reset it (`Scanner::default()`) once a
/// response has been taken off the buffer.
#[derive(Clone, Debug, Default)]
pub struct Scanner {
    /// Bytes before this are scanned.
    pos: usize,
    /// Where the response being scanned starts.
    start: Option<usize>,
    depth: usize,
    /// Inside a string (`"`) or a quoted symbol (`|`).
    quote: Option<u8>,
    comment: bool,
}

impl Scanner {
    pub fn next(&mut self, buffer: &[u8]) -> Option<(std::ops::Range<usize>, usize)> {
        while self.pos < buffer.len() {
            let i = self.pos;
            let b = buffer[i];
            self.pos += 1;
            if self.comment {
                self.comment = b != b'\n';
                continue;
            }
            if let Some(q) = self.quote {
                // `""` inside a string is an escaped quote, which two toggles handle.
                if b == q {
                    self.quote = None;
                }
                continue;
            }
            let Some(start) = self.start else {
                match b {
                    b';' => self.comment = true,
                    b')' => return Some((i..i + 1, i + 1)),
                    b if b.is_ascii_whitespace() => {}
                    _ => {
                        self.start = Some(i);
                        self.pos = i;
                    }
                }
                continue;
            };
            match b {
                b'(' => self.depth += 1,
                b')' if self.depth == 0 => return Some((start..i, i)),
                b')' => {
                    self.depth -= 1;
                    if self.depth == 0 {
                        return Some((start..i + 1, i + 1));
                    }
                }
                b'"' | b'|' => self.quote = Some(b),
                b';' if self.depth > 0 => self.comment = true,
                b if self.depth == 0 && (b.is_ascii_whitespace() || b == b';') => return Some((start..i, i)),
                _ => {}
            }
        }
        None
    }
}

/// Deeper nesting than this is no answer rboogie asks for; refusing it keeps the recursive
/// printing and dropping of trees within the stack.
const MAX_DEPTH: usize = 10_000;

/// Parses one response (as found by [`next_response`]) into a tree. `None` for text that is
/// not one well-formed S-expression, or is nested deeper than [`MAX_DEPTH`].
pub fn parse(text: &str) -> Option<SExpr> {
    let tokens = tokenize(text)?;
    let mut stack: Vec<Vec<SExpr>> = vec![Vec::new()];
    for token in tokens {
        match token {
            "(" if stack.len() > MAX_DEPTH => return None,
            "(" => stack.push(Vec::new()),
            ")" => {
                let items = stack.pop()?;
                stack.last_mut()?.push(SExpr::List(items));
            }
            atom => stack.last_mut()?.push(SExpr::Atom(atom.to_string())),
        }
    }
    let mut top = stack.pop()?;
    if !stack.is_empty() || top.len() != 1 {
        return None;
    }
    top.pop()
}

fn tokenize(text: &str) -> Option<Vec<&str>> {
    let bytes = text.as_bytes();
    let mut tokens = Vec::new();
    let mut i = 0;
    while i < bytes.len() {
        let c = bytes[i];
        if c.is_ascii_whitespace() {
            i += 1;
        } else if c == b';' {
            while i < bytes.len() && bytes[i] != b'\n' {
                i += 1;
            }
        } else if c == b'(' || c == b')' {
            tokens.push(&text[i..i + 1]);
            i += 1;
        } else {
            let start = i;
            while i < bytes.len() {
                match bytes[i] {
                    b'"' => {
                        // `""` continues the string.
                        i += 1;
                        loop {
                            while i < bytes.len() && bytes[i] != b'"' {
                                i += 1;
                            }
                            if i == bytes.len() {
                                return None;
                            }
                            i += 1;
                            if i < bytes.len() && bytes[i] == b'"' {
                                i += 1;
                                continue;
                            }
                            break;
                        }
                    }
                    b'|' => {
                        i += 1;
                        while i < bytes.len() && bytes[i] != b'|' {
                            i += 1;
                        }
                        if i == bytes.len() {
                            return None;
                        }
                        i += 1;
                    }
                    b'(' | b')' | b';' => break,
                    b if b.is_ascii_whitespace() => break,
                    _ => i += 1,
                }
            }
            tokens.push(&text[start..i]);
        }
    }
    Some(tokens)
}

#[cfg(test)]
mod tests {
    use super::*;

    fn responses(text: &str) -> Vec<&str> {
        let mut out = Vec::new();
        let mut rest = text.as_bytes();
        while let Some((range, next)) = next_response(rest) {
            out.push(std::str::from_utf8(&rest[range]).unwrap());
            rest = &rest[next..];
        }
        out
    }

    #[test]
    fn splits_responses_across_lines_and_strings() {
        assert_eq!(responses("sat\n((x 4)\n ((+ x 1) 5))\nunsat\n"), ["sat", "((x 4)\n ((+ x 1) 5))", "unsat"]);
        assert_eq!(responses("(error \"line 1 (\nmore\")\n"), ["(error \"line 1 (\nmore\")"]);
        assert_eq!(responses("(:reason-unknown |a)b|)\n; comment (\nsat\n"), ["(:reason-unknown |a)b|)", "sat"]);
        // Unfinished: wait for more.
        assert_eq!(responses("sat"), Vec::<&str>::new());
        assert_eq!(responses("((x 4)\n"), Vec::<&str>::new());
        assert_eq!(responses("(error \"abc"), Vec::<&str>::new());
        // Garbage still splits, so that the caller can reject it.
        assert_eq!(responses(")))\n"), [")", ")", ")"]);
        assert_eq!(responses("hello world\n"), ["hello", "world"]);
    }

    #[test]
    fn parses_and_prints() {
        let e = parse("((x 4)\n ((+ x 1) 5) (s \"a \"\"b\"\"\"))").unwrap();
        assert_eq!(e.to_string(), "((x 4) ((+ x 1) 5) (s \"a \"\"b\"\"\"))");
        assert_eq!(
            parse("(:reason-unknown \"(incomplete quantifiers)\")").unwrap().call(":reason-unknown").unwrap()[0]
                .unquoted()
                .unwrap(),
            "(incomplete quantifiers)"
        );
        assert_eq!(parse("(a"), None);
        assert_eq!(parse("a)"), None);
        assert_eq!(parse("a b"), None);
        assert_eq!(parse(""), None);
        assert_eq!(parse("|x y|").unwrap().unquoted().unwrap(), "x y");
        let deep = format!("{}x{}", "(".repeat(100_000), ")".repeat(100_000));
        assert_eq!(parse(&deep), None);
        let fine = format!("{}x{}", "(".repeat(1000), ")".repeat(1000));
        assert_eq!(parse(&fine).unwrap().to_string(), fine);
    }
}
