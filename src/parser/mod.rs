//! The BoogiePL front end: preprocessing, lexing, parsing.
//!
//! [`parse`] runs the three steps on one file of a [`SourceMap`]: `preprocess` (Boogie's `#if`
//! and `#line` handling, offsets kept), `lexer` (logos), and the lalrpop grammar in
//! `grammar/boogie.lalrpop`, whose actions (`actions`) make Boogie's parse-time checks. Errors
//! come back in Boogie's order with Boogie's words; a syntax error is worded as Boogie's
//! Coco/R parser words it (see `syntax`).

mod actions;
mod coco;
pub mod float;
pub mod lexer;
pub mod preprocess;
mod syntax;

use std::rc::Rc;

use crate::ast::{Expr, FileId, Program, Span};
use crate::diagnostics::{Diagnostic, Phase};
use crate::source::SourceMap;

lalrpop_util::lalrpop_mod!(
    #[allow(clippy::all, unused_parens, unused_imports, dead_code)]
    grammar,
    "/boogie.rs"
);

/// Parses one file of `sources` (with the `#if` defines in force) into a program.
/// On failure returns every parse error, in Boogie's order.
pub fn parse(sources: &mut SourceMap, file: FileId, defines: &[String]) -> Result<Program, Vec<Diagnostic>> {
    // The text leaves the map while it is parsed, so that the `#line` directives found on the
    // way can be stored without copying it.
    let text = std::mem::take(&mut sources.file_mut(file).text);
    let (result, directives) = parse_text(file, &text, defines);
    let source = sources.file_mut(file);
    source.text = text;
    source.directives = directives;
    result
}

fn parse_text(
    file: FileId,
    text: &str,
    defines: &[String],
) -> (Result<Program, Vec<Diagnostic>>, Vec<crate::source::LineDirective>) {
    if let Some(error) = too_large(file, text) {
        return (Err(vec![error]), Vec::new());
    }
    let pre = preprocess::preprocess(file, text, defines);
    let mut recovered: Vec<coco::Recovered> = Vec::new();
    // Each syntax error Coco would recover from by assuming a token means one more parse with
    // that token inserted (see `coco`).
    loop {
        let checkpoints = lexer::Checkpoints::default();
        let tokens = lexer::Tokens::new(&pre.text, Some(Rc::clone(&checkpoints)));
        let tokens = coco::CocoTokens::new(tokens, &recovered);
        let mut ctx = actions::Ctx::new(file, &pre.text, checkpoints);
        ctx.set_recovered(recovered.iter().map(|r| (r.offset, r.message.clone())));
        let result = grammar::ProgramParser::new().parse(&mut ctx, tokens.map(Ok::<_, ()>));
        let mut errors = pre.errors.clone();
        let result = match result {
            Ok(program) => {
                ctx.report_recovered_before(u32::MAX);
                errors.append(&mut ctx.errors);
                if errors.is_empty() { Ok(program) } else { Err(errors) }
            }
            Err(e) => {
                let error = syntax::describe(&pre.text, e);
                let assumed = coco::assumed_token(&error.message);
                if let Some(token) = assumed
                    && !error.at_end
                    && recovered.len() < coco::MAX_RECOVERIES
                {
                    recovered.push(coco::Recovered { offset: error.offset, message: error.message, token });
                    continue;
                }
                ctx.syntax_error(error.offset, error.message);
                errors.append(&mut ctx.errors);
                Err(errors)
            }
        };
        return (result, pre.directives);
    }
}

/// Offsets are `u32` (spans, tokens), with room for one past the end: a longer text is
/// refused. (Boogie's own limit, that of .NET strings, is lower.)
fn too_large(file: FileId, text: &str) -> Option<Diagnostic> {
    (text.len() >= u32::MAX as usize).then(|| {
        let message = format!("the file is {} bytes long; rboogie reads files of less than 4 GiB", text.len());
        Diagnostic::error(Phase::Parse, Span { file, start: 0, end: 0 }, message)
    })
}

/// Parses a single expression (for tests and tools).
pub fn parse_expression(sources: &mut SourceMap, file: FileId) -> Result<Expr, Vec<Diagnostic>> {
    let text = sources.file(file).text.clone();
    if let Some(error) = too_large(file, &text) {
        return Err(vec![error]);
    }
    let checkpoints = lexer::Checkpoints::default();
    let tokens = lexer::Tokens::new(&text, Some(Rc::clone(&checkpoints)));
    let mut ctx = actions::Ctx::new(file, &text, checkpoints);
    match grammar::ExpressionParser::new().parse(&mut ctx, tokens.map(Ok::<_, ()>)) {
        Ok(e) if ctx.errors.is_empty() => Ok(e),
        Ok(_) => Err(ctx.errors),
        Err(e) => {
            let error = syntax::describe(&text, e);
            ctx.syntax_error(error.offset, error.message);
            Err(ctx.errors)
        }
    }
}
