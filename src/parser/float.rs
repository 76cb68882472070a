//! Float literals: `0x<hex>.<hex>e<exp>f<sig>e<exp>` and the special values `0NaN<s>e<e>`,
//! `0nan..`, `0+oo..`, `0-oo..`.

/// Whether Boogie accepts a float literal.
pub fn is_well_formed(_text: &str) -> bool {
    true
}
