//! Floating point in SMT-LIB, as Boogie's `SMTLibLineariser` writes it.
//!
//! * `float<s>e<e>` is `(_ FloatingPoint e s)`, `rmode` is `RoundingMode`.
//! * A literal is the term `BigFloat.ToSMTLibString` gives: `(fp sign exponent significand)` as
//!   three `(_ bvN w)` literals for every finite value, zeros included, and `(_ NaN e s)`,
//!   `(_ +oo e s)`, `(_ -oo e s)` for the special values. A rounding-mode literal is its short
//!   name (`RNE`, ... also for `roundNearestTiesToEven`, ...).
//! * `+ - * /` on floats round to nearest, ties to even (`fp.add RNE`, ...); `< <= > >=` are
//!   `fp.lt`, `fp.leq`, `fp.gt`, `fp.geq`. `==` and `!=` stay SMT-LIB's `=` and its negation,
//!   not `fp.eq`: Boogie's `VCExprBinaryFloatOp` sends `==` to `VisitEqOp`, so `NaN == NaN`
//!   holds and `0.0 == -0.0` does not. Unary minus on floats never gets here: Boogie's type
//!   checker rejects it.
//! * `{:builtin}` functions (`"fp.add"`, `"(_ to_fp 11 53) RNE"`, `"fp.mul RNA"`, ...) are
//!   applied as Boogie applies them, the string as the head of the application
//!   ([`crate::smt::builtins::Builtin::apply`]).

use super::Unsupported;
use crate::ast::BinaryOp;
use crate::parser::float::{FloatValue, value};

/// The widest formats encoded: SMT-LIB numerals for the fields of a literal grow with the
/// widths, and solvers bit-blast floats, so wider formats are refused rather than attempted.
const MAX_EXPONENT_BITS: u32 = 1 << 10;
const MAX_SIGNIFICAND_BITS: u32 = 1 << 16;

/// The sort of `float<significand>e<exponent>`.
pub fn sort(significand: u32, exponent: u32) -> Result<String, Unsupported> {
    check_format(significand, exponent)?;
    Ok(format!("(_ FloatingPoint {exponent} {significand})"))
}

fn check_format(significand: u32, exponent: u32) -> Result<(), Unsupported> {
    if significand > MAX_SIGNIFICAND_BITS || exponent > MAX_EXPONENT_BITS {
        return Err(Unsupported::new(None, "floating-point formats this wide"));
    }
    Ok(())
}

/// A float literal of format `float<significand>e<exponent>` (its type) as an SMT-LIB term.
pub fn literal(text: &str, significand: u32, exponent: u32) -> Result<String, Unsupported> {
    check_format(significand, exponent)?;
    let bad = || Unsupported::new(None, "a malformed float literal");
    Ok(match value(text).ok_or_else(bad)? {
        FloatValue::NaN => format!("(_ NaN {exponent} {significand})"),
        FloatValue::Infinity { negative } => {
            format!("(_ {}oo {exponent} {significand})", if negative { '-' } else { '+' })
        }
        FloatValue::Finite { negative, biased_exponent, significand: stored } => format!(
            "(fp (_ bv{} 1) (_ bv{biased_exponent} {exponent}) (_ bv{stored} {}))",
            u8::from(negative),
            significand - 1
        ),
    })
}

/// The SMT-LIB operator of a binary operator on two floats (`!=` is the caller's negated `=`).
pub fn binary_operator(op: BinaryOp) -> Option<&'static str> {
    Some(match op {
        BinaryOp::Add => "fp.add RNE",
        BinaryOp::Sub => "fp.sub RNE",
        BinaryOp::Mul => "fp.mul RNE",
        BinaryOp::RealDiv => "fp.div RNE",
        BinaryOp::Lt => "fp.lt",
        BinaryOp::Le => "fp.leq",
        BinaryOp::Gt => "fp.gt",
        BinaryOp::Ge => "fp.geq",
        BinaryOp::Eq => "=",
        _ => return None,
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn literals_are_bit_vector_triples_or_special_values() {
        let single = |text: &str| literal(text, 24, 8).unwrap();
        assert_eq!(single("0x1.0e0f24e8"), "(fp (_ bv0 1) (_ bv127 8) (_ bv0 23))");
        assert_eq!(single("-0x1.8e0f24e8"), "(fp (_ bv1 1) (_ bv127 8) (_ bv4194304 23))");
        assert_eq!(single("-0x0.0e0f24e8"), "(fp (_ bv1 1) (_ bv0 8) (_ bv0 23))");
        assert_eq!(single("0x0.000008e-32f24e8"), "(fp (_ bv0 1) (_ bv0 8) (_ bv1 23))");
        assert_eq!(single("0NaN24e8"), "(_ NaN 8 24)");
        assert_eq!(single("0+oo24e8"), "(_ +oo 8 24)");
        assert_eq!(single("0-oo24e8"), "(_ -oo 8 24)");
        assert_eq!(
            literal("0x1.0e0f24e8000", 24, 8000).map_err(|u| u.what),
            Err("floating-point formats this wide".into())
        );
    }

    #[test]
    fn sorts_name_the_exponent_first() {
        assert_eq!(sort(53, 11).unwrap(), "(_ FloatingPoint 11 53)");
        assert!(sort(1 << 20, 11).is_err());
    }
}
