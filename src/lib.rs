//! rboogie: a Boogie-compatible verification toolchain.
//!
//! The pipeline (see ../shared/STYLE.md): `parser` (logos lexer + lalrpop grammar) builds the
//! spanned [`ast`]; `printer` prints any tree back as Boogie; `verdict` decides what an
//! implementation's verification came to; `report` renders [`diagnostics`] and verdicts as
//! Boogie text, rich text or JSON; `shard` splits a run and merges the parts; `cli` is the
//! command line.

pub mod alloc;
pub mod ast;
pub mod bounded;
pub mod cli;
pub mod diagnostics;
pub mod driver;
pub mod emit;
pub mod harness;
pub mod houdini;
pub mod intern;
pub mod library;
pub mod memory;
pub mod moved;
pub mod parser;
pub mod passes;
pub mod printer;
pub mod refinement;
pub mod report;
pub mod shard;
pub mod smt;
pub mod source;
pub mod typeck;
pub mod vcgen;
pub mod verdict;
pub mod walk;
