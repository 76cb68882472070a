//! The SMT-LIB operators behind `{:builtin "..."}` and `{:bvbuiltin "..."}` functions.
//!
//! Boogie copies a builtin string into the query as the function's head, so a string the
//! solver does not read (Simplify's `"zero_extend 31"`, a misspelt operator, one argument too
//! many) makes the solver reject the whole query and the implementation's errors go unreported.
//! Here the string is parsed once, when the program is type-checked, into an [`Builtin`]: an
//! operator from [`OPERATORS`] (plain, or indexed as `(_ name i j)`), with the leading
//! arguments the string fixes (`"fp.add RNE"`, `"(_ to_fp 8 24) RNE"`). An unknown operator, a
//! wrong number of indexes or a function with the wrong number of arguments is an error at the
//! declaration. The encoder prints [`Builtin::head`], so every builtin reaches the solver in
//! SMT-LIB 2.6 form: Simplify's spaced indexes become `(_ zero_extend 31)`, and z3's old string
//! names (`str.to.int`, `str.in.re`, ...) their standard names, which z3 4.8.12 and cvc5 both
//! read.
//!
//! Written by hand: the table is SMT-LIB's theories (Core, Ints, Reals, Reals_Ints, ArraysEx,
//! FixedSizeBitVectors, FloatingPoint, Strings) plus z3's sequence and map operators, which no
//! crate lists with arities.

/// How many arguments an operator takes: `min..=max` (`max` is `u8::MAX` for a chainable or
/// left-associative operator).
#[derive(Clone, Copy, Debug)]
pub struct Arity {
    pub min: u8,
    pub max: u8,
}

const fn exactly(n: u8) -> Arity {
    Arity { min: n, max: n }
}
const fn at_least(n: u8) -> Arity {
    Arity { min: n, max: u8::MAX }
}

/// One operator a builtin string may name.
#[derive(Debug)]
pub struct Operator {
    /// The name as written in a builtin string.
    pub name: &'static str,
    /// The number of indexes (`(_ extract 7 0)` has 2).
    pub indexes: u8,
    pub arity: Arity,
    /// The SMT-LIB 2.6 name it is sent as, when the string uses an older spelling.
    pub standard: Option<&'static str>,
    /// Only z3 reads it (cvc5 rejects it).
    pub z3_only: bool,
    /// A Boogie signature that fits (the property test declares a function with it): the
    /// builtin string, the argument types and the result type.
    pub sample: (&'static str, &'static str, &'static str),
}

macro_rules! ops {
    ($( $name:literal $idx:literal $arity:expr, $std:expr, $z3:literal, ($s:literal, $a:literal, $r:literal); )*) => {
        &[$( Operator { name: $name, indexes: $idx, arity: $arity, standard: $std, z3_only: $z3, sample: ($s, $a, $r) }, )*]
    };
}

/// Every operator a builtin string may name.
pub static OPERATORS: &[Operator] = ops! {
    // Core
    "not" 0 exactly(1), None, false, ("not", "bool", "bool");
    "and" 0 at_least(2), None, false, ("and", "bool, bool", "bool");
    "or" 0 at_least(2), None, false, ("or", "bool, bool", "bool");
    "xor" 0 at_least(2), None, false, ("xor", "bool, bool", "bool");
    "=>" 0 at_least(2), None, false, ("=>", "bool, bool", "bool");
    "=" 0 at_least(2), None, false, ("=", "int, int", "bool");
    "distinct" 0 at_least(2), None, false, ("distinct", "int, int", "bool");
    "ite" 0 exactly(3), None, false, ("ite", "bool, int, int", "int");
    // Ints and Reals
    "+" 0 at_least(2), None, false, ("+", "int, int", "int");
    "-" 0 at_least(1), None, false, ("-", "int, int", "int");
    "*" 0 at_least(2), None, false, ("*", "int, int", "int");
    "/" 0 at_least(2), None, false, ("/", "real, real", "real");
    "div" 0 at_least(2), None, false, ("div", "int, int", "int");
    "mod" 0 exactly(2), None, false, ("mod", "int, int", "int");
    "rem" 0 exactly(2), None, true, ("rem", "int, int", "int");
    "abs" 0 exactly(1), None, false, ("abs", "int", "int");
    "<" 0 at_least(2), None, false, ("<", "int, int", "bool");
    "<=" 0 at_least(2), None, false, ("<=", "int, int", "bool");
    ">" 0 at_least(2), None, false, (">", "int, int", "bool");
    ">=" 0 at_least(2), None, false, (">=", "int, int", "bool");
    "to_real" 0 exactly(1), None, false, ("to_real", "int", "real");
    "to_int" 0 exactly(1), None, false, ("to_int", "real", "int");
    "is_int" 0 exactly(1), None, false, ("is_int", "real", "bool");
    // ArraysEx
    "select" 0 exactly(2), None, false, ("select", "[int]bool, int", "bool");
    "store" 0 exactly(3), None, false, ("store", "[int]bool, int, bool", "[int]bool");
    // FixedSizeBitVectors, and z3's conversions to and from Int
    "concat" 0 exactly(2), None, false, ("concat", "bv8, bv8", "bv16");
    "extract" 2 exactly(1), None, false, ("extract 7 4", "bv8", "bv4");
    "repeat" 1 exactly(1), None, false, ("repeat 2", "bv8", "bv16");
    "zero_extend" 1 exactly(1), None, false, ("zero_extend 8", "bv8", "bv16");
    "sign_extend" 1 exactly(1), None, false, ("sign_extend 8", "bv8", "bv16");
    "rotate_left" 1 exactly(1), None, false, ("rotate_left 3", "bv8", "bv8");
    "rotate_right" 1 exactly(1), None, false, ("rotate_right 3", "bv8", "bv8");
    "bvnot" 0 exactly(1), None, false, ("bvnot", "bv8", "bv8");
    "bvneg" 0 exactly(1), None, false, ("bvneg", "bv8", "bv8");
    "bvand" 0 at_least(2), None, false, ("bvand", "bv8, bv8", "bv8");
    "bvor" 0 at_least(2), None, false, ("bvor", "bv8, bv8", "bv8");
    "bvxor" 0 at_least(2), None, false, ("bvxor", "bv8, bv8", "bv8");
    "bvadd" 0 at_least(2), None, false, ("bvadd", "bv8, bv8", "bv8");
    "bvmul" 0 at_least(2), None, false, ("bvmul", "bv8, bv8", "bv8");
    "bvnand" 0 exactly(2), None, false, ("bvnand", "bv8, bv8", "bv8");
    "bvnor" 0 exactly(2), None, false, ("bvnor", "bv8, bv8", "bv8");
    "bvxnor" 0 exactly(2), None, false, ("bvxnor", "bv8, bv8", "bv8");
    "bvcomp" 0 exactly(2), None, false, ("bvcomp", "bv8, bv8", "bv1");
    "bvsub" 0 exactly(2), None, false, ("bvsub", "bv8, bv8", "bv8");
    "bvudiv" 0 exactly(2), None, false, ("bvudiv", "bv8, bv8", "bv8");
    "bvurem" 0 exactly(2), None, false, ("bvurem", "bv8, bv8", "bv8");
    "bvsdiv" 0 exactly(2), None, false, ("bvsdiv", "bv8, bv8", "bv8");
    "bvsrem" 0 exactly(2), None, false, ("bvsrem", "bv8, bv8", "bv8");
    "bvsmod" 0 exactly(2), None, false, ("bvsmod", "bv8, bv8", "bv8");
    "bvshl" 0 exactly(2), None, false, ("bvshl", "bv8, bv8", "bv8");
    "bvlshr" 0 exactly(2), None, false, ("bvlshr", "bv8, bv8", "bv8");
    "bvashr" 0 exactly(2), None, false, ("bvashr", "bv8, bv8", "bv8");
    "bvult" 0 exactly(2), None, false, ("bvult", "bv8, bv8", "bool");
    "bvule" 0 exactly(2), None, false, ("bvule", "bv8, bv8", "bool");
    "bvugt" 0 exactly(2), None, false, ("bvugt", "bv8, bv8", "bool");
    "bvuge" 0 exactly(2), None, false, ("bvuge", "bv8, bv8", "bool");
    "bvslt" 0 exactly(2), None, false, ("bvslt", "bv8, bv8", "bool");
    "bvsle" 0 exactly(2), None, false, ("bvsle", "bv8, bv8", "bool");
    "bvsgt" 0 exactly(2), None, false, ("bvsgt", "bv8, bv8", "bool");
    "bvsge" 0 exactly(2), None, false, ("bvsge", "bv8, bv8", "bool");
    "bv2nat" 0 exactly(1), None, false, ("bv2nat", "bv8", "int");
    "bv2int" 0 exactly(1), Some("bv2nat"), false, ("bv2int", "bv8", "int");
    "int2bv" 1 exactly(1), None, false, ("int2bv 8", "int", "bv8");
    "bvumul_noovfl" 0 exactly(2), None, true, ("bvumul_noovfl", "bv8, bv8", "bool");
    "bvsmul_noovfl" 0 exactly(2), None, true, ("bvsmul_noovfl", "bv8, bv8", "bool");
    "bvsmul_noudfl" 0 exactly(2), None, true, ("bvsmul_noudfl", "bv8, bv8", "bool");
    "ext_rotate_left" 0 exactly(2), None, true, ("ext_rotate_left", "bv8, bv8", "bv8");
    "ext_rotate_right" 0 exactly(2), None, true, ("ext_rotate_right", "bv8, bv8", "bv8");
    // FloatingPoint
    "fp" 0 exactly(3), None, false, ("fp", "bv1, bv8, bv23", "float24e8");
    "fp.abs" 0 exactly(1), None, false, ("fp.abs", "float24e8", "float24e8");
    "fp.neg" 0 exactly(1), None, false, ("fp.neg", "float24e8", "float24e8");
    "fp.add" 0 exactly(3), None, false, ("fp.add RNE", "float24e8, float24e8", "float24e8");
    "fp.sub" 0 exactly(3), None, false, ("fp.sub", "rmode, float24e8, float24e8", "float24e8");
    "fp.mul" 0 exactly(3), None, false, ("fp.mul RTZ", "float24e8, float24e8", "float24e8");
    "fp.div" 0 exactly(3), None, false, ("fp.div RTP", "float24e8, float24e8", "float24e8");
    "fp.fma" 0 exactly(4), None, false, ("fp.fma RTN", "float24e8, float24e8, float24e8", "float24e8");
    "fp.sqrt" 0 exactly(2), None, false, ("fp.sqrt RNA", "float24e8", "float24e8");
    "fp.rem" 0 exactly(2), None, false, ("fp.rem", "float24e8, float24e8", "float24e8");
    "fp.roundToIntegral" 0 exactly(2), None, false, ("fp.roundToIntegral roundTowardZero", "float24e8", "float24e8");
    "fp.min" 0 exactly(2), None, false, ("fp.min", "float24e8, float24e8", "float24e8");
    "fp.max" 0 exactly(2), None, false, ("fp.max", "float24e8, float24e8", "float24e8");
    "fp.leq" 0 at_least(2), None, false, ("fp.leq", "float24e8, float24e8", "bool");
    "fp.lt" 0 at_least(2), None, false, ("fp.lt", "float24e8, float24e8", "bool");
    "fp.geq" 0 at_least(2), None, false, ("fp.geq", "float24e8, float24e8", "bool");
    "fp.gt" 0 at_least(2), None, false, ("fp.gt", "float24e8, float24e8", "bool");
    "fp.eq" 0 at_least(2), None, false, ("fp.eq", "float24e8, float24e8", "bool");
    "fp.isNormal" 0 exactly(1), None, false, ("fp.isNormal", "float24e8", "bool");
    "fp.isSubnormal" 0 exactly(1), None, false, ("fp.isSubnormal", "float24e8", "bool");
    "fp.isZero" 0 exactly(1), None, false, ("fp.isZero", "float24e8", "bool");
    "fp.isInfinite" 0 exactly(1), None, false, ("fp.isInfinite", "float24e8", "bool");
    "fp.isNaN" 0 exactly(1), None, false, ("fp.isNaN", "float24e8", "bool");
    "fp.isNegative" 0 exactly(1), None, false, ("fp.isNegative", "float24e8", "bool");
    "fp.isPositive" 0 exactly(1), None, false, ("fp.isPositive", "float24e8", "bool");
    "fp.to_real" 0 exactly(1), None, false, ("fp.to_real", "float24e8", "real");
    "fp.to_ubv" 1 exactly(2), None, false, ("(_ fp.to_ubv 8) RTZ", "float24e8", "bv8");
    "fp.to_sbv" 1 exactly(2), None, false, ("(_ fp.to_sbv 8) RTZ", "float24e8", "bv8");
    "fp.to_ieee_bv" 0 exactly(1), None, true, ("fp.to_ieee_bv", "float24e8", "bv32");
    // `to_fp` from a bit-vector of the whole width (1 argument), or from a float, a real or a
    // signed bit-vector with a rounding mode (2).
    "to_fp" 2 Arity { min: 1, max: 2 }, None, false, ("(_ to_fp 11 53) RNE", "float24e8", "float53e11");
    "to_fp_unsigned" 2 exactly(2), None, false, ("(_ to_fp_unsigned 8 24) RNE", "bv8", "float24e8");
    // Strings, with z3's older spellings
    "str.++" 0 at_least(2), None, false, ("str.++", "string, string", "string");
    "str.len" 0 exactly(1), None, false, ("str.len", "string", "int");
    "str.<" 0 at_least(2), None, false, ("str.<", "string, string", "bool");
    "str.<=" 0 at_least(2), None, false, ("str.<=", "string, string", "bool");
    "str.at" 0 exactly(2), None, false, ("str.at", "string, int", "string");
    "str.substr" 0 exactly(3), None, false, ("str.substr", "string, int, int", "string");
    "str.prefixof" 0 exactly(2), None, false, ("str.prefixof", "string, string", "bool");
    "str.suffixof" 0 exactly(2), None, false, ("str.suffixof", "string, string", "bool");
    "str.contains" 0 exactly(2), None, false, ("str.contains", "string, string", "bool");
    // z3 also reads `(str.indexof s t)`, from position 0: sent with the 0 (cvc5 wants it).
    "str.indexof" 0 Arity { min: 2, max: 3 }, None, false, ("str.indexof", "string, string, int", "int");
    "str.replace" 0 exactly(3), None, false, ("str.replace", "string, string, string", "string");
    "str.replace_all" 0 exactly(3), None, false, ("str.replace_all", "string, string, string", "string");
    "str.replace_re" 0 exactly(3), None, false, ("str.replace_re", "string, regex, string", "string");
    "str.replace_re_all" 0 exactly(3), None, false, ("str.replace_re_all", "string, regex, string", "string");
    "str.is_digit" 0 exactly(1), None, false, ("str.is_digit", "string", "bool");
    "str.to_code" 0 exactly(1), None, false, ("str.to_code", "string", "int");
    "str.from_code" 0 exactly(1), None, false, ("str.from_code", "int", "string");
    "str.to_int" 0 exactly(1), None, false, ("str.to_int", "string", "int");
    "str.to.int" 0 exactly(1), Some("str.to_int"), false, ("str.to.int", "string", "int");
    "str.from_int" 0 exactly(1), None, false, ("str.from_int", "int", "string");
    "int.to.str" 0 exactly(1), Some("str.from_int"), false, ("int.to.str", "int", "string");
    "str.to_re" 0 exactly(1), None, false, ("str.to_re", "string", "regex");
    "str.to.re" 0 exactly(1), Some("str.to_re"), false, ("str.to.re", "string", "regex");
    "str.in_re" 0 exactly(2), None, false, ("str.in_re", "string, regex", "bool");
    "str.in.re" 0 exactly(2), Some("str.in_re"), false, ("str.in.re", "string, regex", "bool");
    "re.none" 0 exactly(0), None, false, ("re.none", "", "regex");
    "re.nostr" 0 exactly(0), Some("re.none"), false, ("re.nostr", "", "regex");
    "re.all" 0 exactly(0), None, false, ("re.all", "", "regex");
    "re.allchar" 0 exactly(0), None, false, ("re.allchar", "", "regex");
    "re.++" 0 at_least(2), None, false, ("re.++", "regex, regex", "regex");
    "re.union" 0 at_least(2), None, false, ("re.union", "regex, regex", "regex");
    "re.inter" 0 at_least(2), None, false, ("re.inter", "regex, regex", "regex");
    "re.diff" 0 exactly(2), None, false, ("re.diff", "regex, regex", "regex");
    "re.*" 0 exactly(1), None, false, ("re.*", "regex", "regex");
    "re.+" 0 exactly(1), None, false, ("re.+", "regex", "regex");
    "re.opt" 0 exactly(1), None, false, ("re.opt", "regex", "regex");
    "re.comp" 0 exactly(1), None, false, ("re.comp", "regex", "regex");
    "re.range" 0 exactly(2), None, false, ("re.range", "string, string", "regex");
    "re.^" 1 exactly(1), None, false, ("(_ re.^ 2)", "regex", "regex");
    // `(_ re.loop lo hi)`, or z3's `(re.loop r lo hi)` with the bounds as arguments.
    "re.loop" 0 exactly(3), None, true, ("re.loop", "regex, int, int", "regex");
    // z3's sequences (cvc5 reads the same names)
    "seq.empty" 0 exactly(0), None, false, ("seq.empty", "", "Seq int");
    "seq.unit" 0 exactly(1), None, false, ("seq.unit", "int", "Seq int");
    "seq.++" 0 at_least(2), None, false, ("seq.++", "Seq int, Seq int", "Seq int");
    "seq.len" 0 exactly(1), None, false, ("seq.len", "Seq int", "int");
    "seq.nth" 0 exactly(2), None, false, ("seq.nth", "Seq int, int", "int");
    "seq.extract" 0 exactly(3), None, false, ("seq.extract", "Seq int, int, int", "Seq int");
    "seq.at" 0 exactly(2), None, false, ("seq.at", "Seq int, int", "Seq int");
    "seq.contains" 0 exactly(2), None, false, ("seq.contains", "Seq int, Seq int", "bool");
    "seq.prefixof" 0 exactly(2), None, false, ("seq.prefixof", "Seq int, Seq int", "bool");
    "seq.suffixof" 0 exactly(2), None, false, ("seq.suffixof", "Seq int, Seq int", "bool");
    "seq.indexof" 0 exactly(3), None, false, ("seq.indexof", "Seq int, Seq int, int", "int");
    "seq.replace" 0 exactly(3), None, false, ("seq.replace", "Seq int, Seq int, Seq int", "Seq int");
    // Boogie's map operators (z3's array combinators; see the encoder's `map_builtin`)
    "MapConst" 0 exactly(1), None, true, ("MapConst", "bool", "[int]bool");
    "MapAdd" 0 exactly(2), None, true, ("MapAdd", "[int]int, [int]int", "[int]int");
    "MapSub" 0 exactly(2), None, true, ("MapSub", "[int]int, [int]int", "[int]int");
    "MapMul" 0 exactly(2), None, true, ("MapMul", "[int]int, [int]int", "[int]int");
    "MapDiv" 0 exactly(2), None, true, ("MapDiv", "[int]int, [int]int", "[int]int");
    "MapMod" 0 exactly(2), None, true, ("MapMod", "[int]int, [int]int", "[int]int");
    "MapGt" 0 exactly(2), None, true, ("MapGt", "[int]int, [int]int", "[int]bool");
    "MapGe" 0 exactly(2), None, true, ("MapGe", "[int]int, [int]int", "[int]bool");
    "MapLt" 0 exactly(2), None, true, ("MapLt", "[int]int, [int]int", "[int]bool");
    "MapLe" 0 exactly(2), None, true, ("MapLe", "[int]int, [int]int", "[int]bool");
    "MapEq" 0 exactly(2), None, true, ("MapEq", "[int]int, [int]int", "[int]bool");
    "MapIff" 0 exactly(2), None, true, ("MapIff", "[int]bool, [int]bool", "[int]bool");
    "MapOr" 0 exactly(2), None, true, ("MapOr", "[int]bool, [int]bool", "[int]bool");
    "MapAnd" 0 exactly(2), None, true, ("MapAnd", "[int]bool, [int]bool", "[int]bool");
    "MapNot" 0 exactly(1), None, true, ("MapNot", "[int]bool", "[int]bool");
    "MapImp" 0 exactly(2), None, true, ("MapImp", "[int]bool, [int]bool", "[int]bool");
    "MapIte" 0 exactly(3), None, true, ("MapIte", "[int]bool, [int]int, [int]int", "[int]int");
};

/// The rounding modes a builtin string may fix as a leading argument.
pub const ROUNDING_MODES: &[&str] = &[
    "RNE",
    "RNA",
    "RTP",
    "RTN",
    "RTZ",
    "roundNearestTiesToEven",
    "roundNearestTiesToAway",
    "roundTowardPositive",
    "roundTowardNegative",
    "roundTowardZero",
];

/// A parsed builtin string.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Builtin {
    /// The operator's name as SMT-LIB 2.6 spells it.
    pub name: &'static str,
    pub indexes: Vec<u64>,
    /// Arguments the string fixes, before the function's own (rounding modes).
    pub leading: Vec<&'static str>,
}

impl Builtin {
    /// The function head as the query writes it: `bvadd`, `(_ zero_extend 31)`,
    /// `((_ to_fp 8 24) RNE` is not a head: the leading arguments go with [`Builtin::apply`].
    pub fn head(&self) -> String {
        if self.indexes.is_empty() {
            self.name.to_string()
        } else {
            let indexes: Vec<String> = self.indexes.iter().map(u64::to_string).collect();
            format!("(_ {} {})", self.name, indexes.join(" "))
        }
    }

    /// The application of the operator to `args` (the function's arguments, encoded), its
    /// leading arguments first; a nullary operator with no leading arguments is its head.
    pub fn apply(&self, head: &str, args: &[String]) -> String {
        if self.leading.is_empty() && args.is_empty() {
            return head.to_string();
        }
        match (self.name, args) {
            ("str.indexof", [s, t]) => return format!("({head} {s} {t} 0)"),
            // z3's `(re.loop r lo hi)` with numerals is SMT-LIB's `((_ re.loop lo hi) r)`,
            // which cvc5 reads too.
            ("re.loop", [r, lo, hi]) if is_numeral(lo) && is_numeral(hi) => {
                return format!("((_ re.loop {lo} {hi}) {r})");
            }
            _ => {}
        }
        let mut out = format!("({head}");
        for a in self.leading.iter().copied().chain(args.iter().map(String::as_str)) {
            out.push(' ');
            out.push_str(a);
        }
        out.push(')');
        out
    }

    /// The operator's table entry.
    pub fn operator(&self) -> &'static Operator {
        find(self.name).expect("a parsed builtin names a known operator")
    }
}

fn is_numeral(term: &str) -> bool {
    !term.is_empty() && term.bytes().all(|b| b.is_ascii_digit())
}

/// Finds an operator by any of its spellings.
pub fn find(name: &str) -> Option<&'static Operator> {
    OPERATORS.iter().find(|o| o.name == name)
}

/// Parses `text`, the string of a `{:builtin}` or `{:bvbuiltin}` attribute on a function of
/// `arguments` arguments. The error is the message for the declaration.
pub fn parse(text: &str, arguments: usize) -> Result<Builtin, String> {
    let text = text.trim();
    let (name, mut indexes, rest): (&str, Vec<u64>, &str) = if let Some(inner) = text.strip_prefix("(_") {
        let Some((inside, rest)) = inner.split_once(')') else {
            return Err(format!("malformed indexed operator in builtin \"{text}\""));
        };
        let mut words = inside.split_whitespace();
        let Some(name) = words.next() else {
            return Err(format!("malformed indexed operator in builtin \"{text}\""));
        };
        let mut indexes = Vec::new();
        for w in words {
            indexes.push(w.parse().map_err(|_| format!("index \"{w}\" of builtin \"{text}\" is not a numeral"))?);
        }
        (name, indexes, rest)
    } else {
        let (name, rest) = text.split_once(char::is_whitespace).unwrap_or((text, ""));
        (name, Vec::new(), rest)
    };
    let Some(op) = find(name) else {
        return Err(if name.is_empty() {
            "empty builtin string".to_string()
        } else {
            format!("unknown SMT-LIB operator \"{name}\" in builtin \"{text}\"")
        });
    };
    let mut leading = Vec::new();
    for w in rest.split_whitespace() {
        if let Some(mode) = ROUNDING_MODES.iter().find(|m| **m == w) {
            leading.push(*mode);
        } else if let Ok(i) = w.parse::<u64>()
            && leading.is_empty()
            && text.starts_with(name)
        {
            // Simplify's spaced indexes: "zero_extend 31".
            indexes.push(i);
        } else {
            return Err(format!(
                "unexpected \"{w}\" in builtin \"{text}\": only indexes and rounding modes may follow the operator"
            ));
        }
    }
    if indexes.len() != op.indexes as usize {
        return Err(format!(
            "the SMT-LIB operator \"{name}\" takes {} index{}, builtin \"{text}\" gives {}",
            op.indexes,
            if op.indexes == 1 { "" } else { "es" },
            indexes.len()
        ));
    }
    let total = arguments + leading.len();
    if total < op.arity.min as usize || total > op.arity.max as usize {
        let expected = if op.arity.max == u8::MAX {
            format!("at least {}", op.arity.min)
        } else if op.arity.min == op.arity.max {
            op.arity.min.to_string()
        } else {
            format!("{} to {}", op.arity.min, op.arity.max)
        };
        return Err(format!(
            "the SMT-LIB operator \"{name}\" takes {expected} argument{}, builtin \"{text}\" gets {total}",
            if expected == "1" { "" } else { "s" },
        ));
    }
    Ok(Builtin { name: op.standard.unwrap_or(op.name), indexes, leading })
}

#[cfg(test)]
mod tests {
    use super::*;

    fn sent(text: &str, args: usize) -> String {
        let b = parse(text, args).unwrap();
        let actuals: Vec<String> = (0..args).map(|i| format!("x{i}")).collect();
        b.apply(&b.head(), &actuals)
    }

    #[test]
    fn simplify_indexes_become_indexed_identifiers() {
        assert_eq!(sent("zero_extend 31", 1), "((_ zero_extend 31) x0)");
        assert_eq!(sent("sign_extend 24", 1), "((_ sign_extend 24) x0)");
        assert_eq!(sent("(_ sign_extend 24)", 1), "((_ sign_extend 24) x0)");
        assert_eq!(sent("extract 7 0", 1), "((_ extract 7 0) x0)");
    }

    #[test]
    fn rounding_modes_lead_the_arguments() {
        assert_eq!(sent("(_ to_fp 8 24) RNE", 1), "((_ to_fp 8 24) RNE x0)");
        assert_eq!(sent("fp.add RNA", 2), "(fp.add RNA x0 x1)");
        assert_eq!(sent("fp.add", 3), "(fp.add x0 x1 x2)");
    }

    #[test]
    fn old_names_are_sent_as_standard_ones() {
        assert_eq!(sent("str.to.int", 1), "(str.to_int x0)");
        assert_eq!(sent("re.nostr", 0), "re.none");
        assert_eq!(sent("bv2int", 1), "(bv2nat x0)");
    }

    #[test]
    fn z3_only_forms_are_sent_as_both_solvers_read_them() {
        assert_eq!(sent("str.indexof", 2), "(str.indexof x0 x1 0)");
        assert_eq!(sent("str.indexof", 3), "(str.indexof x0 x1 x2)");
        let b = parse("re.loop", 3).unwrap();
        let args = ["r".to_string(), "0".to_string(), "5".to_string()];
        assert_eq!(b.apply(&b.head(), &args), "((_ re.loop 0 5) r)");
        let args = ["r".to_string(), "n".to_string(), "5".to_string()];
        assert_eq!(b.apply(&b.head(), &args), "(re.loop r n 5)");
    }

    #[test]
    fn bad_strings_are_refused() {
        assert!(parse("bvfoo", 2).unwrap_err().contains("unknown SMT-LIB operator \"bvfoo\""));
        assert!(parse("zero_extend", 1).unwrap_err().contains("takes 1 index"));
        assert!(parse("bvadd", 1).unwrap_err().contains("takes at least 2 arguments"));
        assert!(parse("bvnot", 2).unwrap_err().contains("takes 1 argument,"));
        assert!(parse("fp.add XYZ", 2).unwrap_err().contains("unexpected \"XYZ\""));
        assert!(parse("(_ extract 7", 1).unwrap_err().contains("malformed"));
        assert!(parse("", 1).unwrap_err().contains("empty"));
    }

    #[test]
    fn every_sample_parses() {
        for op in OPERATORS {
            let (text, args, _) = op.sample;
            let n = if args.is_empty() { 0 } else { args.split(',').count() };
            let b = parse(text, n).unwrap_or_else(|e| panic!("{}: {e}", op.name));
            assert_eq!(b.operator().name, op.standard.map(|s| find(s).unwrap().name).unwrap_or(op.name));
        }
    }
}
