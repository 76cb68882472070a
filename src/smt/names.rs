//! The one function that names a Boogie identifier in SMT-LIB: [`quote`].
//!
//! Quoting does not make a symbol new: `|store|` is the symbol `store`, and z3 4.8.12 even
//! reads `|match|`, `|let|` and `|as|` as the keywords, while cvc5 refuses to declare any
//! name its logic `ALL` already has (`abs`, `sqrt`, `set.union`, `seq.len`, ...). z3 instead
//! overloads such a name with the theory's, so an application may mean either: `(|!| x)`
//! declared by the user came back `unsat` where it is satisfiable. So every identifier that
//! reaches a solver goes through [`quote`], which gives a reserved name Boogie's `q@` prefix.
//! No Boogie identifier contains `@`, so prefixed names cannot meet the user's: the naming is
//! injective. Reserved are SMT-LIB's keywords and command names, every symbol of the theories
//! z3 and cvc5 read (found by declaring each candidate as a constant, a function and a sort
//! in both solvers), and whole name spaces by prefix (`fp.`, `str.`, `seq.`, `bv`, ...): a
//! name wrongly counted reserved only reads less well in a log, one missed breaks a query.
//!
//! Written by hand: the list is the two solvers' vocabulary, which no crate provides.

/// An SMT-LIB quoted symbol for `name`, prefixed with `q@` when a solver reserves it.
pub fn quote(name: &str) -> String {
    let name = if is_reserved(name) { format!("q@{name}") } else { name.to_string() };
    // `|` and `\` cannot stand in a quoted symbol; no Boogie identifier has either.
    format!("|{}|", name.replace(['|', '\\'], "_"))
}

/// Whether a solver may read `name` as something other than a fresh symbol.
pub fn is_reserved(name: &str) -> bool {
    name.is_empty()
        || name.starts_with(|c: char| c.is_ascii_digit())
        || RESERVED_PREFIXES.iter().any(|p| name.starts_with(p))
        || RESERVED.binary_search(&name).is_ok()
}

/// Theory name spaces: every name in them is taken as reserved (cvc5 also reserves `.` and
/// `@` as first characters).
pub const RESERVED_PREFIXES: &[&str] = &[
    "fp.",
    "str.",
    "re.",
    "seq.",
    "set.",
    "bag.",
    "rel.",
    "char.",
    "int.",
    "real.",
    "tuple.",
    "table.",
    "sep.",
    "nullable.",
    "ff.",
    "bv",
    ".",
    "@",
];

/// Keywords, commands and theory symbols outside [`RESERVED_PREFIXES`], sorted (byte order).
pub const RESERVED: &[&str] = &[
    "Array",
    "BINARY",
    "BitVec",
    "Bool",
    "Char",
    "ControlFlow",
    "DECIMAL",
    "Float128",
    "Float16",
    "Float32",
    "Float64",
    "FloatingPoint",
    "HEXADECIMAL",
    "Int",
    "NUMERAL",
    "NaN",
    "Pattern",
    "RNA",
    "RNE",
    "RTN",
    "RTP",
    "RTZ",
    "Real",
    "RegLan",
    "Relation",
    "RoundingMode",
    "STRING",
    "Seq",
    "Set",
    "Sort",
    "String",
    "Table",
    "Tuple",
    "Type",
    "UOrdering2",
    "UOrdering3",
    "^",
    "_",
    "_char",
    "abs",
    "acos",
    "acosh",
    "and",
    "arccos",
    "arccot",
    "arccsc",
    "arcsec",
    "arcsin",
    "arctan",
    "as",
    "asFloat",
    "asin",
    "asinh",
    "assert",
    "atan",
    "atanh",
    "bag",
    "bit0",
    "bit1",
    "bool",
    "card",
    "char",
    "complement",
    "concat",
    "const",
    "cos",
    "cosh",
    "cot",
    "csc",
    "default",
    "difference",
    "display",
    "distinct",
    "div",
    "divisible",
    "e",
    "echo",
    "equals",
    "equiv",
    "euler",
    "eval",
    "exists",
    "exit",
    "exp",
    "ext_rotate_left",
    "ext_rotate_right",
    "extract",
    "false",
    "flet",
    "forall",
    "fp",
    "fusedMA",
    "help",
    "if",
    "if_then_else",
    "iff",
    "implies",
    "int2bv",
    "intersect",
    "intersection",
    "is",
    "isNZero",
    "isPZero",
    "isSignMinus",
    "isZero",
    "is_int",
    "ite",
    "label",
    "lambda",
    "lblneg",
    "lblpos",
    "let",
    "map",
    "match",
    "max",
    "maximize",
    "min",
    "minimize",
    "minusInfinity",
    "mkbv",
    "mod",
    "model",
    "named",
    "not",
    "or",
    "par",
    "pattern",
    "pi",
    "plusInfinity",
    "pop",
    "power",
    "pto",
    "push",
    "qid",
    "query",
    "real_pow",
    "rem",
    "remainder",
    "repeat",
    "reset",
    "rmode",
    "rotate_left",
    "rotate_right",
    "roundNearestTiesToAway",
    "roundNearestTiesToEven",
    "roundToIntegral",
    "roundTowardNegative",
    "roundTowardPositive",
    "roundTowardZero",
    "rule",
    "sec",
    "select",
    "sep",
    "set",
    "sign_extend",
    "simplify",
    "sin",
    "sinh",
    "skolemid",
    "sqrt",
    "squareRoot",
    "store",
    "subset",
    "tan",
    "tanh",
    "to_char",
    "to_fp",
    "to_fp_unsigned",
    "to_int",
    "to_real",
    "true",
    "tuple",
    "union",
    "unit",
    "wand",
    "weight",
    "xor",
    "zero_extend",
];

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_list_is_sorted() {
        assert!(RESERVED.windows(2).all(|w| w[0] < w[1]), "RESERVED must be sorted for binary_search");
    }

    #[test]
    fn reserved_names_are_prefixed() {
        assert_eq!(quote("store"), "|q@store|");
        assert_eq!(quote("match"), "|q@match|");
        assert_eq!(quote("_"), "|q@_|");
        assert_eq!(quote("seq.len"), "|q@seq.len|");
        assert_eq!(quote("bvadd32"), "|q@bvadd32|");
        assert_eq!(quote(".x"), "|q@.x|");
        assert_eq!(quote("x"), "|x|");
        assert_eq!(quote("a|b\\c"), "|a_b_c|");
    }
}
