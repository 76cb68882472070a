//! The BoogiePL lexer (logos).
//!
//! Tokens follow Boogie's scanner: identifiers may contain `'~#$^_.?` and backquote and may be
//! escaped with a leading backslash (`\if` is the identifier `if`); a keyword is an identifier
//! whose exact text is reserved; literals are `digits`, bit vectors `5bv32`, decimals `1e5`,
//! `1.5`, `1.5e-3`, floats `0x1.8e1f24e8`, `0NaN24e8`, `0+oo24e8`, and strings with `\"`.
//! Comments are `//` to end of line and nested `/* */`. The longest match wins, as in
//! Boogie's DFA scanner (so `0-oo24e8` is one float token, `x-0x1.0e0f24e8` two tokens).
//!
//! A character no token starts with becomes [`Tok::Invalid`]: Boogie's scanner hands such a
//! character to the parser too, and the parser's error message then names what it expected.

use logos::Logos;

/// Skips a nested `/* ... */` comment whose opening `/*` was just matched. An unterminated
/// comment runs to the end of the input, as in Boogie.
fn nested_comment(lex: &mut logos::Lexer<'_, Tok>) -> logos::Skip {
    let rest = lex.remainder().as_bytes();
    let mut depth = 1usize;
    let mut i = 0;
    while i < rest.len() {
        match (rest[i], rest.get(i + 1)) {
            (b'/', Some(b'*')) => {
                depth += 1;
                i += 2;
            }
            (b'*', Some(b'/')) => {
                depth -= 1;
                i += 2;
                if depth == 0 {
                    break;
                }
            }
            _ => i += 1,
        }
    }
    lex.bump(i);
    logos::Skip
}

/// A token's kind. Its text is the input over its span: the grammar's actions read
/// identifiers and literals from there, so a token is a byte and a token with its span (the
/// value the parser moves around with every token, [`Spanned`]) is 12 bytes.
#[derive(Logos, Clone, Copy, Debug, PartialEq, Eq)]
#[logos(skip r"[ \t\r\n\f]+")]
#[logos(skip(r"//[^\n]*", allow_greedy = true))]
pub enum Tok {
    #[token("/*", nested_comment)]
    BlockComment,

    #[regex(r"\\?[A-Za-z'~#$^_.?`][A-Za-z0-9'~#$^_.?`]*")]
    Ident,
    #[regex(r"[0-9]+")]
    Digits,
    #[regex(r"[0-9]+bv[0-9]+")]
    BvLit,
    #[regex(r"[0-9]+e-?[0-9]+")]
    Decimal,
    #[regex(r"[0-9]+\.[0-9]+(e-?[0-9]+)?")]
    DecFloat,
    #[regex(r"-?0x[0-9a-fA-F]+\.[0-9a-fA-F]+e-?[0-9]+f[0-9]+e[0-9]+")]
    #[regex(r"0(NaN|nan|\+oo|-oo)[0-9]+e[0-9]+")]
    Float,
    #[regex(r#""([^"\r\n]|\\")*""#)]
    Str,

    // Keywords (Boogie's `CheckLiteral` table).
    #[token("yield")]
    Yield,
    #[token("var")]
    Var,
    #[token("where")]
    Where,
    #[token("int")]
    Int,
    #[token("real")]
    Real,
    #[token("bool")]
    Bool,
    #[token("const")]
    Const,
    #[token("unique")]
    Unique,
    #[token("uses")]
    Uses,
    #[token("revealed")]
    Revealed,
    #[token("function")]
    Function,
    #[token("returns")]
    Returns,
    #[token("hideable")]
    Hideable,
    #[token("axiom")]
    Axiom,
    #[token("type")]
    Type,
    #[token("datatype")]
    Datatype,
    #[token("invariant")]
    Invariant,
    #[token("preserves")]
    Preserves,
    #[token("pure")]
    Pure,
    #[token("action")]
    Action,
    #[token("refines")]
    Refines,
    #[token("left")]
    Left,
    #[token("right")]
    Right,
    #[token("both")]
    Both,
    #[token("atomic")]
    Atomic,
    #[token("procedure")]
    Procedure,
    #[token("asserts")]
    Asserts,
    #[token("requires")]
    Requires,
    #[token("ensures")]
    Ensures,
    #[token("measure")]
    Measure,
    #[token("implementation")]
    Implementation,
    #[token("free")]
    Free,
    #[token("modifies")]
    Modifies,
    #[token("goto")]
    Goto,
    #[token("return")]
    Return,
    #[token("if")]
    If,
    #[token("else")]
    Else,
    #[token("while")]
    While,
    #[token("break")]
    Break,
    #[token("reveal")]
    Reveal,
    #[token("hide")]
    Hide,
    #[token("pop")]
    Pop,
    #[token("push")]
    Push,
    #[token("assert")]
    Assert,
    #[token("assume")]
    Assume,
    #[token("havoc")]
    Havoc,
    #[token("async")]
    Async,
    #[token("call")]
    Call,
    #[token("div")]
    Div,
    #[token("mod")]
    Mod,
    #[token("is")]
    Is,
    #[token("false")]
    False,
    #[token("true")]
    True,
    #[token("roundNearestTiesToEven")]
    #[token("RNE")]
    Rne,
    #[token("roundNearestTiesToAway")]
    #[token("RNA")]
    Rna,
    #[token("roundTowardPositive")]
    #[token("RTP")]
    Rtp,
    #[token("roundTowardNegative")]
    #[token("RTN")]
    Rtn,
    #[token("roundTowardZero")]
    #[token("RTZ")]
    Rtz,
    #[token("old")]
    Old,
    #[token("then")]
    Then,
    #[token("forall")]
    #[token("∀")]
    Forall,
    #[token("exists")]
    #[token("∃")]
    Exists,
    #[token("lambda")]
    #[token("λ")]
    Lambda,
    // Boogie 2 syntax kept for old front ends: `const unique c: T extends p complete;`.
    // They are keywords only where the grammar expects them (see `Ident` in the grammar).
    #[token("extends")]
    Extends,
    #[token("complete")]
    Complete,

    // Punctuation and operators.
    #[token(";")]
    Semi,
    #[token(",")]
    Comma,
    #[token(":")]
    Colon,
    #[token("::")]
    #[token("•")]
    ColonColon,
    #[token(":=")]
    Assign,
    #[token("(")]
    LParen,
    #[token(")")]
    RParen,
    #[token("[")]
    LBracket,
    #[token("]")]
    RBracket,
    #[token("{")]
    LBrace,
    #[token("}")]
    RBrace,
    #[token("|{")]
    LCodeBrace,
    #[token("}|")]
    RCodeBrace,
    #[token("|")]
    Bar,
    #[token("<")]
    Lt,
    #[token(">")]
    Gt,
    #[token("<=")]
    #[token("≤")]
    Le,
    #[token(">=")]
    #[token("≥")]
    Ge,
    #[token("==")]
    EqEq,
    #[token("!=")]
    #[token("≠")]
    Neq,
    #[token("=")]
    Eq,
    #[token("<:")]
    Subtype,
    #[token("<==>")]
    #[token("⇔")]
    Iff,
    #[token("==>")]
    #[token("⇒")]
    Implies,
    #[token("<==")]
    #[token("⇐")]
    Explies,
    #[token("&&")]
    #[token("∧")]
    And,
    #[token("||")]
    #[token("∨")]
    Or,
    #[token("!")]
    #[token("¬")]
    Not,
    #[token("+")]
    Plus,
    #[token("++")]
    Concat,
    #[token("-")]
    Minus,
    #[token("*")]
    Star,
    #[token("**")]
    Power,
    #[token("/")]
    Slash,
    #[token("->")]
    Arrow,

    /// A character that starts no token.
    Invalid,
    /// A string literal that starts an attribute parameter (see `coco::AttributeStrings`);
    /// never produced by the lexer itself.
    AttrStr,
}

/// A token with its byte range. (Offsets are `u32`, as in [`crate::ast::Span`]: the parser
/// refuses larger inputs. The parser moves these with every token, and its stack entries
/// carry two of them.)
pub type Spanned = (u32, Tok, u32);

/// The tokens of a (preprocessed) input, produced on demand: comments are skipped; a
/// character no token starts with becomes a one-character [`Tok::Invalid`]. When
/// `checkpoints` is given, the offset where every [`CHECKPOINT_INTERVAL`]th token's lexing
/// starts is appended to it, so that [`token_ending_by`] can find any token again later.
pub struct Tokens<'a> {
    text: &'a str,
    base: usize,
    lex: logos::Lexer<'a, Tok>,
    /// Tokens produced so far.
    count: usize,
    checkpoints: Option<Checkpoints>,
}

/// Shared between the lexer, which fills it, and the parser's actions, which read it.
pub type Checkpoints = std::rc::Rc<std::cell::RefCell<Vec<u32>>>;

/// Every how many tokens a checkpoint is recorded: finding a token costs lexing at most this
/// many again. (Keeping every token's end instead took 4 bytes a token, more than the input's
/// size, while the parser looks a token up only for an axiom or an error.)
pub const CHECKPOINT_INTERVAL: usize = 64;

impl<'a> Tokens<'a> {
    pub fn new(text: &'a str, checkpoints: Option<Checkpoints>) -> Tokens<'a> {
        Tokens::starting_at(text, 0, checkpoints)
    }

    /// Lexes `text` from `offset`, which must be where a token's lexing starts (0 or the end of a
    /// token).
    fn starting_at(text: &'a str, offset: usize, checkpoints: Option<Checkpoints>) -> Tokens<'a> {
        Tokens { text, base: offset, lex: Tok::lexer(&text[offset..]), count: 0, checkpoints }
    }
}

impl<'a> Iterator for Tokens<'a> {
    type Item = Spanned;

    fn next(&mut self) -> Option<Spanned> {
        if self.count.is_multiple_of(CHECKPOINT_INTERVAL)
            && let Some(checkpoints) = &self.checkpoints
        {
            // (Once: the parser may ask for more after the end.)
            let mut checkpoints = checkpoints.borrow_mut();
            if checkpoints.len() == self.count / CHECKPOINT_INTERVAL {
                checkpoints.push((self.base + self.lex.span().end) as u32);
            }
        }
        let result = self.lex.next()?;
        self.count += 1;
        let span = self.lex.span();
        let (start, end) = (self.base + span.start, self.base + span.end);
        match result {
            Ok(tok) => Some((start as u32, tok, end as u32)),
            Err(()) => {
                // logos reports the longest prefix it could not match; Boogie's scanner
                // rejects one character at a time: emit the first character as invalid and
                // lex again after it.
                let width = self.text[start..].chars().next().map_or(1, char::len_utf8);
                self.base = start + width;
                self.lex = Tok::lexer(&self.text[self.base..]);
                Some((start as u32, Tok::Invalid, (start + width) as u32))
            }
        }
    }
}

/// The last token that ends at or before `offset`: its index in the token sequence and its
/// byte range. `checkpoints` are those recorded by [`Tokens`] over `text` while lexing at
/// least that far; the token is found by lexing again from the nearest checkpoint before it.
pub fn token_ending_by(text: &str, checkpoints: &[u32], offset: usize) -> Option<(usize, usize, usize)> {
    let j = checkpoints.partition_point(|&c| c as usize <= offset).checked_sub(1)?;
    let mut found = None;
    let tokens = Tokens::starting_at(text, checkpoints[j] as usize, None);
    for (i, (start, _, end)) in tokens.enumerate() {
        if end as usize > offset {
            break;
        }
        found = Some((j * CHECKPOINT_INTERVAL + i, start as usize, end as usize));
    }
    found.or_else(|| {
        // No token between the checkpoint and `offset`: the last one is the checkpoint's
        // predecessor (the token that ends at the checkpoint).
        let previous = (j * CHECKPOINT_INTERVAL).checked_sub(1)?;
        let from = checkpoints[j - 1] as usize;
        let (start, _, end) = Tokens::starting_at(text, from, None).nth(CHECKPOINT_INTERVAL - 1)?;
        Some((previous, start as usize, end as usize))
    })
}

/// Lexes the whole (preprocessed) input (see [`Tokens`]).
pub fn tokenize(text: &str) -> Vec<Spanned> {
    Tokens::new(text, None).collect()
}

#[cfg(test)]
mod tests {
    use super::*;

    /// The tokens of `s`, each with its text.
    fn toks(s: &str) -> Vec<(Tok, &str)> {
        tokenize(s).into_iter().map(|(l, t, r)| (t, &s[l as usize..r as usize])).collect()
    }

    #[test]
    fn identifiers_and_keywords() {
        assert_eq!(toks("if \\if x.y#z'"), vec![(Tok::If, "if"), (Tok::Ident, "\\if"), (Tok::Ident, "x.y#z'")]);
        assert_eq!(toks("ifx"), vec![(Tok::Ident, "ifx")]);
    }

    #[test]
    fn literals() {
        assert_eq!(toks("5bv32"), vec![(Tok::BvLit, "5bv32")]);
        assert_eq!(
            toks("1e5 1.5 1.5e-3"),
            vec![(Tok::Decimal, "1e5"), (Tok::DecFloat, "1.5"), (Tok::DecFloat, "1.5e-3")]
        );
        assert_eq!(toks("1ex"), vec![(Tok::Digits, "1"), (Tok::Ident, "ex")]);
        assert_eq!(toks("0x1.8e1f24e8"), vec![(Tok::Float, "0x1.8e1f24e8")]);
        assert_eq!(toks("0NaN24e8 0+oo24e8"), vec![(Tok::Float, "0NaN24e8"), (Tok::Float, "0+oo24e8")]);
        assert_eq!(toks(r#""a\"b""#), vec![(Tok::Str, r#""a\"b""#)]);
    }

    #[test]
    fn comments_nest() {
        assert_eq!(
            toks("a /* x /* y */ z */ b // c\nd"),
            vec![(Tok::Ident, "a"), (Tok::Ident, "b"), (Tok::Ident, "d")]
        );
    }

    #[test]
    fn invalid_characters_are_tokens() {
        assert_eq!(toks("a @ b"), vec![(Tok::Ident, "a"), (Tok::Invalid, "@"), (Tok::Ident, "b")]);
        assert_eq!(toks("é"), vec![(Tok::Invalid, "é")]);
    }

    #[test]
    fn tokens_are_found_again_from_checkpoints() {
        let text = "var x: int; /* a /* nested */ comment */ x := x + 1; // c\n @ é ".repeat(40);
        let checkpoints = Checkpoints::default();
        let tokens: Vec<Spanned> = Tokens::new(&text, Some(std::rc::Rc::clone(&checkpoints))).collect();
        assert!(tokens.len() > 4 * CHECKPOINT_INTERVAL);
        let checkpoints = checkpoints.borrow();
        for offset in 0..=text.len() + 1 {
            let expected = tokens
                .iter()
                .enumerate()
                .rfind(|(_, t)| t.2 as usize <= offset)
                .map(|(i, t)| (i, t.0 as usize, t.2 as usize));
            assert_eq!(token_ending_by(&text, &checkpoints, offset), expected, "at offset {offset}");
        }
    }

    #[test]
    fn unicode_operators() {
        assert_eq!(toks("∀ ⇒ ≤"), vec![(Tok::Forall, "∀"), (Tok::Implies, "⇒"), (Tok::Le, "≤")]);
    }
}
