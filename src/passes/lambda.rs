//! Lambda lifting (stub; being written).

use super::PassError;
use crate::ast::Program;
use crate::cli::Options;
use crate::typeck::TypedProgram;

pub fn run(_typed: &TypedProgram, _options: &Options, _log: &mut String) -> Result<Option<Program>, PassError> {
    Ok(None)
}
