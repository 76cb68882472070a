//! Where rboogie's LR parser imitates Boogie's LL(1) Coco/R parser beyond the grammar, in
//! [`CocoTokens`], the adapter between the lexer and the grammar.
//!
//! Attribute strings: Boogie's `AttributeParameter` is a string literal or an expression,
//! and Coco takes the first alternative whenever the parameter starts with a string, so in
//! `{:builtin "fp.add" :rm "RNE"}` the `:` after the string is a syntax error (`"}"
//! expected`), not a coercion. An LR grammar cannot say "an expression not starting with a
//! string" without a copy of the expression grammar, so the adapter marks a string token that
//! starts an attribute parameter as [`Tok::AttrStr`], which the grammar accepts only as a whole
//! parameter.
//!
//! Insertions: Coco recovers from a syntax error by carrying on as if the terminal it
//! expected had been there (`Expect(t)` reports and consumes nothing), and stays silent about
//! further errors until it has consumed two more tokens. rboogie does the same by parsing
//! again with the expected token inserted before the one that did not fit (errors are rare and
//! the inputs with them small, so reparsing is simpler than repairing lalrpop's stack).
//! Where Coco's message is `invalid N` (no alternative of `N` fits) its recovery depends on the
//! production, and rboogie stops, as it does at the end of the input; `invalid Ident` is the
//! exception, as Coco's `Ident` then goes on as if an identifier had been read.

use super::lexer::{Spanned, Tok, Tokens};

/// A syntax error found by an earlier parse, with the token assumed in its place.
pub struct Recovered {
    pub offset: u32,
    pub message: String,
    /// The terminal's name as the grammar spells it (`}`, `(`, `ident`); lexing the name
    /// gives the token.
    pub token: String,
}

/// At most this many tokens are assumed in one file: each costs a parse.
pub const MAX_RECOVERIES: usize = 16;

/// The terminal Coco's `Expect` would have assumed for `message`, if any.
pub fn assumed_token(message: &str) -> Option<String> {
    if message == "ident expected" || message == "invalid Ident" {
        return Some("ident".into());
    }
    let name = message.strip_prefix('"')?.strip_suffix("\" expected")?;
    Some(name.to_string())
}

/// The lexer's tokens as the grammar reads them: with each recovered error's token inserted
/// before the first token at or after its offset (an empty span there), and with the strings
/// that start an attribute parameter marked. (One adapter rather than two: it stands in the
/// way of every token.)
pub struct CocoTokens<'a> {
    tokens: Tokens<'a>,
    recovered: &'a [Recovered],
    /// A token read to compare with the next insertion's offset, not yet yielded.
    held: Option<Spanned>,
    attributes: AttributeStrings,
}

impl<'a> CocoTokens<'a> {
    pub fn new(tokens: Tokens<'a>, recovered: &'a [Recovered]) -> Self {
        CocoTokens { tokens, recovered, held: None, attributes: AttributeStrings::default() }
    }

    #[inline(never)]
    fn next_with_insertions(&mut self) -> Option<Spanned> {
        let token = self.held.take().or_else(|| self.tokens.next());
        if let Some((r, rest)) = self.recovered.split_first()
            && token.is_none_or(|(start, _, _)| r.offset <= start)
        {
            self.held = token;
            self.recovered = rest;
            let (_, tok, _) = Tokens::new(&r.token, None).next()?;
            return Some((r.offset, tok, r.offset));
        }
        token
    }
}

impl<'a> Iterator for CocoTokens<'a> {
    type Item = Spanned;

    fn next(&mut self) -> Option<Spanned> {
        let (start, mut tok, end) = if self.recovered.is_empty() && self.held.is_none() {
            self.tokens.next()?
        } else {
            self.next_with_insertions()?
        };
        let attributes = &mut self.attributes;
        if attributes.state == AttributeState::Other && attributes.open.is_empty() {
            // Outside attributes only `{` matters.
            if matches!(tok, Tok::LBrace) {
                attributes.state = AttributeState::Brace;
            }
        } else {
            attributes.track(&mut tok);
        }
        Some((start, tok, end))
    }
}

/// Finds the string literals that start an attribute parameter (see the module header).
#[derive(Default)]
struct AttributeStrings {
    /// Nesting of `(`, `[`, `{` and `|{` inside the outermost attribute being read.
    depth: u32,
    /// The nesting inside each attribute being read, innermost last.
    open: Vec<u32>,
    /// Where `{ :` has just been read, and then the key: the next token starts a parameter.
    state: AttributeState,
}

#[derive(Clone, Copy, Default, PartialEq)]
enum AttributeState {
    #[default]
    Other,
    Brace,
    Colon,
    ParameterStart,
}

impl AttributeStrings {
    #[inline(never)]
    fn track(&mut self, tok: &mut Tok) {
        let state = std::mem::replace(&mut self.state, AttributeState::Other);
        match *tok {
            Tok::Str if state == AttributeState::ParameterStart => *tok = Tok::AttrStr,
            _ if state == AttributeState::Colon => {
                // The key: parameters follow.
                if self.open.is_empty() {
                    self.depth = 0;
                }
                self.open.push(self.depth);
                self.state = AttributeState::ParameterStart;
            }
            Tok::Colon if state == AttributeState::Brace => self.state = AttributeState::Colon,
            Tok::LBrace | Tok::LParen | Tok::LBracket | Tok::LCodeBrace => {
                self.depth += 1;
                if matches!(tok, Tok::LBrace) {
                    self.state = AttributeState::Brace;
                }
            }
            Tok::RBrace | Tok::RParen | Tok::RBracket | Tok::RCodeBrace => {
                if matches!(tok, Tok::RBrace) && self.open.last() == Some(&self.depth) {
                    self.open.pop();
                }
                self.depth = self.depth.saturating_sub(1);
            }
            Tok::Comma if self.open.last() == Some(&self.depth) => self.state = AttributeState::ParameterStart,
            _ => {}
        }
    }
}
