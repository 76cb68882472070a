// Builtin strings no solver reads are refused when the program is type-checked, each at
// its string: an unknown operator, a missing index, too many or too few arguments, a word
// that is neither an index nor a rounding mode, an unclosed indexed identifier.
function {:bvbuiltin "zero_extend"} Z(bv1) : bv32;
function {:bvbuiltin "bvfoo"} F(bv32, bv32) : bv32;
function {:bvbuiltin "bvnot"} N(bv32, bv32) : bv32;
function {:bvbuiltin "bvadd"} A(bv32) : bv32;
function {:builtin "fp.add XYZ"} G(float24e8, float24e8) : float24e8;
function {:builtin "(_ extract 7"} E(bv32) : bv8;
function {:builtin "extract 7 0 1"} E2(bv32) : bv8;
function {:builtin ""} Empty(int) : int;
