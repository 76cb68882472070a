//! Float literals: which ones Boogie accepts, and the value Boogie gives them.
//!
//! A literal is either `[-]0x<hex>.<hex>e<dec>f<sig>e<exp>`, the hex significand scaled by
//! 16^<dec>, or a special value `0NaN`, `0nan`, `0+oo`, `0-oo` followed by `<sig>e<exp>`. The
//! format has precision `<sig>` (significand bits, implicit leading bit included) and `<exp>`
//! exponent bits, so `f24e8` is IEEE single precision. Boogie 3.5's parser
//! (`BigFloat.TryParseExact`) accepts a literal when:
//!
//! * both sizes fit an `i32` (Boogie reads them with `int.TryParse`) and exceed 1; for a
//!   special value that is all;
//! * the value is zero, of either sign;
//! * the value is normal, its leading one at 2^e with 1 - bias <= e <= bias where
//!   bias = 2^(exp-1) - 1, and its bits from the leading one to the lowest one fit in `<sig>`
//!   bits, so that nothing is rounded away;
//! * the value is below the normal range and rounds (to nearest, ties to even) onto a nonzero
//!   subnormal. Boogie does not insist on exactness here: `0x0.00000ce-32f24e8`, one and a
//!   half times the smallest subnormal, is accepted as twice it. Only a value that flushes to
//!   zero or rounds up to the smallest normal is rejected.
//!
//! A value above the normal range is rejected rather than read as infinity: the special values
//! are the only way to write infinities and NaN. The sign plays no part, rounding being
//! symmetric.
//!
//! The hex digits are binary already, so the significand is never converted: its leading and
//! trailing zero bits give its width and the position of its leading one. The exponent needs
//! more: the decimal exponent may have any number of digits and `<exp>` may be up to
//! 2^31 - 1, so neither the exponent nor the bias need fit a machine integer. [`BigInt`] is
//! just enough arbitrary-precision arithmetic for that (sums and comparisons); the crate has no
//! bignum dependency and nothing else needs one. The bias is built only when it is no wider
//! than the exponent: a wider one puts the value well inside the normal range, so
//! `0x1.0e0f24e2147483647` costs no 2^31-bit number.
//!
//! [`value`] gives an accepted literal's IEEE fields as Boogie's `BigFloat` holds them: the
//! sign, the biased exponent and the stored significand (the implicit bit dropped; a subnormal
//! rounded to nearest, ties to even, as the parser rounds it). Those fields are as wide as the
//! format, so they come as decimal numerals.

use std::cmp::Ordering;

/// Whether Boogie accepts a float literal token (the rule is in the module header).
pub fn is_well_formed(text: &str) -> bool {
    // As in Boogie, the last `f` starts a hex literal's format; a special value has no `f`, and
    // its sizes follow its first four characters.
    match text.rfind('f') {
        Some(f) => match (Format::parse(&text[f + 1..]), HexLiteral::parse(&text[..f])) {
            (Some(format), Some(literal)) => literal.fits(format),
            _ => false,
        },
        None => text.split_at_checked(4).is_some_and(|(value, sizes)| {
            matches!(value.to_ascii_lowercase().as_str(), "0nan" | "0+oo" | "0-oo") && Format::parse(sizes).is_some()
        }),
    }
}

/// An accepted literal's value (see the module header); `None` for a literal Boogie rejects.
/// The work grows with the format's widths: the significand field alone has `<sig>` - 1 bits.
pub fn value(text: &str) -> Option<FloatValue> {
    if !is_well_formed(text) {
        return None;
    }
    match text.rfind('f') {
        Some(f) => {
            let format = Format::parse(&text[f + 1..])?;
            HexLiteral::parse(&text[..f])?.fields(format)
        }
        None => {
            let (value, _) = text.split_at_checked(4)?;
            Some(match value.to_ascii_lowercase().as_str() {
                "0nan" => FloatValue::NaN,
                "0+oo" => FloatValue::Infinity { negative: false },
                _ => FloatValue::Infinity { negative: true },
            })
        }
    }
}

/// The value of a float literal, in the fields of its IEEE format.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum FloatValue {
    NaN,
    Infinity {
        negative: bool,
    },
    /// Zero, a subnormal (`biased_exponent` "0") or a normal number; the two numbers in decimal.
    Finite {
        negative: bool,
        biased_exponent: String,
        significand: String,
    },
}

/// A floating-point format: `<sig>e<exp>`.
#[derive(Clone, Copy, Debug)]
struct Format {
    /// Significand bits, the implicit leading one included.
    precision: u32,
    exponent_bits: u32,
}

impl Format {
    fn parse(text: &str) -> Option<Format> {
        let (precision, exponent_bits) = text.rsplit_once('e')?;
        let precision = u32::try_from(precision.parse::<i32>().ok()?).ok()?;
        let exponent_bits = u32::try_from(exponent_bits.parse::<i32>().ok()?).ok()?;
        (precision > 1 && exponent_bits > 1).then_some(Format { precision, exponent_bits })
    }
}

/// `[-]0x<int>.<frac>e<dec>`, whose magnitude is the hex number `<int><frac>` times
/// 2^(4 * (dec - |frac|)).
#[derive(Debug)]
struct HexLiteral<'a> {
    /// Written with a leading `-`.
    negative: bool,
    /// The digits of `<int>` then `<frac>`, one value 0..=15 each.
    nibbles: Vec<u32>,
    fraction_digits: usize,
    exponent_negative: bool,
    exponent_digits: &'a str,
}

impl<'a> HexLiteral<'a> {
    fn parse(text: &'a str) -> Option<Self> {
        let unsigned = text.strip_prefix('-').unwrap_or(text);
        // The exponent is decimal, so the last `e` is its marker even when hex digits hold an `e`.
        let (mantissa, exponent) = unsigned.strip_prefix("0x")?.rsplit_once('e')?;
        let (integer, fraction) = mantissa.split_once('.')?;
        let (exponent_negative, exponent_digits) = match exponent.strip_prefix('-') {
            Some(digits) => (true, digits),
            None => (false, exponent),
        };
        let nibbles = integer.chars().chain(fraction.chars()).map(|c| c.to_digit(16)).collect::<Option<Vec<_>>>()?;
        let well_formed = !integer.is_empty()
            && !fraction.is_empty()
            && !exponent_digits.is_empty()
            && exponent_digits.bytes().all(|b| b.is_ascii_digit());
        well_formed.then_some(HexLiteral {
            negative: text.starts_with('-'),
            nibbles,
            fraction_digits: fraction.len(),
            exponent_negative,
            exponent_digits,
        })
    }

    /// `e` where the leading one of `bits`, this literal's significand, weighs 2^e.
    fn leading_weight(&self, bits: &Significand) -> BigInt {
        BigInt::from_decimal(self.exponent_negative, self.exponent_digits)
            .times(4)
            .plus(&BigInt::from_i128(i128::from(bits.leading) - 4 * self.fraction_digits as i128))
    }

    /// Whether `format` holds this value, by Boogie's rule.
    fn fits(&self, format: Format) -> bool {
        let Some(bits) = Significand::of(&self.nibbles) else {
            return true; // zero
        };
        let precision = u64::from(format.precision);
        // The leading one has weight 2^e.
        let e = self.leading_weight(&bits);
        let bias_bits = format.exponent_bits - 1;
        if u64::from(bias_bits) > e.bit_length() {
            // |e| < 2^(bias_bits - 1) <= bias, so 1 - bias <= e <= bias: normal.
            return bits.width <= precision;
        }
        let bias = BigInt::power_of_two(bias_bits).plus(&BigInt::from_i128(-1));
        if e > bias {
            return false; // would be infinity
        }
        let biased = e.plus(&bias);
        if biased > BigInt::from_i128(0) {
            return bits.width <= precision;
        }
        // Subnormal range, whose grid is multiples of the smallest subnormal 2^(2 - bias - precision).
        // The leading one sits `height` places above that (-1: at half of it); `height` is at most
        // precision - 2 here, so one too large for an i128 is far below.
        let height = biased.plus(&BigInt::from_i128(i128::from(format.precision) - 2)).to_i128().unwrap_or(i128::MIN);
        let width = i128::from(bits.width);
        if height >= width - 1 {
            true // the lowest one is on the grid: exact
        } else if height < -1 {
            false // below half the smallest subnormal: flushes to zero
        } else if height == -1 {
            width > 1 // above half rounds up to the smallest subnormal; exactly half ties to zero
        } else {
            // Rounds onto a nonzero grid point, which is the smallest normal only when the leading
            // one is in the top subnormal place and it and the precision - 1 bits below are all ones.
            !(biased == BigInt::from_i128(0) && bits.leading_ones >= precision)
        }
    }
}

impl HexLiteral<'_> {
    /// The IEEE fields of a literal that [`HexLiteral::fits`] `format`.
    fn fields(&self, format: Format) -> Option<FloatValue> {
        let negative = self.negative;
        let Some(bits) = Significand::of(&self.nibbles) else {
            let zero = "0".to_string();
            return Some(FloatValue::Finite { negative, biased_exponent: zero.clone(), significand: zero });
        };
        let digits = BigInt::from_nibbles(&self.nibbles);
        let e = self.leading_weight(&bits);
        let bias = BigInt::power_of_two(format.exponent_bits - 1).plus(&BigInt::from_i128(-1));
        let biased = e.plus(&bias);
        let top = u64::from(format.precision) - 1; // where the implicit bit sits
        let (biased, significand) = if biased > BigInt::from_i128(0) {
            // Normal: the leading one moves to the implicit bit and is dropped; `fits` made the
            // shift exact.
            let aligned = if bits.leading <= top {
                digits.shifted_left(top - bits.leading)
            } else {
                digits.shifted_right_rounded(bits.leading - top)
            };
            (biased, aligned.plus(&BigInt::power_of_two(u32::try_from(top).ok()?).negated()))
        } else {
            // Subnormal: bit 0 of the digits weighs 2^(e - leading), the smallest subnormal
            // 2^(2 - bias - precision), so the digits move by biased + precision - 2 - leading.
            let shift = biased.to_i128()? + i128::from(format.precision) - 2 - i128::from(bits.leading);
            let stored = if shift >= 0 {
                digits.shifted_left(u64::try_from(shift).ok()?)
            } else {
                digits.shifted_right_rounded(u64::try_from(-shift).ok()?)
            };
            (BigInt::from_i128(0), stored)
        };
        Some(FloatValue::Finite {
            negative,
            biased_exponent: biased.to_decimal(),
            significand: significand.to_decimal(),
        })
    }
}

/// The nonzero bits of a hex significand, counted from bit 0 of its last digit.
#[derive(Debug, PartialEq, Eq)]
struct Significand {
    /// Position of the leading one.
    leading: u64,
    /// Bits from the leading one to the lowest one, both included.
    width: u64,
    /// Consecutive ones from the leading one down.
    leading_ones: u64,
}

impl Significand {
    /// `None` when every digit is zero.
    fn of(nibbles: &[u32]) -> Option<Significand> {
        let first = nibbles.iter().position(|&n| n != 0)?;
        let last = nibbles.iter().rposition(|&n| n != 0)?;
        let top_zeros = nibbles[first].leading_zeros() - 28;
        let leading = 4 * (nibbles.len() - first) as u64 - u64::from(top_zeros) - 1;
        let lowest = 4 * (nibbles.len() - 1 - last) as u64 + u64::from(nibbles[last].trailing_zeros());
        let leading_ones = nibbles[first..]
            .iter()
            .flat_map(|&n| (0..4).rev().map(move |i| (n >> i) & 1))
            .skip(top_zeros as usize)
            .take_while(|&bit| bit == 1)
            .count() as u64;
        Some(Significand { leading, width: leading - lowest + 1, leading_ones })
    }
}

/// An integer of any size, with only the arithmetic the exponent needs.
#[derive(Clone, Debug, PartialEq, Eq)]
struct BigInt {
    negative: bool,
    /// Little-endian base-2^32 digits without high zeros: zero is empty, and never negative.
    magnitude: Vec<u32>,
}

impl BigInt {
    fn new(negative: bool, mut magnitude: Vec<u32>) -> BigInt {
        while magnitude.last() == Some(&0) {
            magnitude.pop();
        }
        BigInt { negative: negative && !magnitude.is_empty(), magnitude }
    }

    fn from_i128(value: i128) -> BigInt {
        let abs = value.unsigned_abs();
        BigInt::new(value < 0, (0..4).map(|i| (abs >> (32 * i)) as u32).collect())
    }

    fn from_decimal(negative: bool, digits: &str) -> BigInt {
        let mut magnitude = Vec::new();
        for digit in digits.bytes() {
            multiply_add(&mut magnitude, 10, u32::from(digit - b'0'));
        }
        BigInt::new(negative, magnitude)
    }

    fn power_of_two(exponent: u32) -> BigInt {
        let mut magnitude = vec![0; (exponent / 32) as usize];
        magnitude.push(1 << (exponent % 32));
        BigInt::new(false, magnitude)
    }

    fn times(mut self, factor: u32) -> BigInt {
        multiply_add(&mut self.magnitude, factor, 0);
        BigInt::new(self.negative, self.magnitude)
    }

    fn plus(&self, other: &BigInt) -> BigInt {
        if self.negative == other.negative {
            return BigInt::new(self.negative, add_magnitudes(&self.magnitude, &other.magnitude));
        }
        match compare_magnitudes(&self.magnitude, &other.magnitude) {
            Ordering::Less => BigInt::new(other.negative, subtract_magnitudes(&other.magnitude, &self.magnitude)),
            _ => BigInt::new(self.negative, subtract_magnitudes(&self.magnitude, &other.magnitude)),
        }
    }

    /// The hex digits (most significant first) as a nonnegative number.
    fn from_nibbles(nibbles: &[u32]) -> BigInt {
        let mut magnitude = Vec::new();
        for &n in nibbles {
            multiply_add(&mut magnitude, 16, n);
        }
        BigInt::new(false, magnitude)
    }

    fn negated(&self) -> BigInt {
        BigInt::new(!self.negative, self.magnitude.clone())
    }

    /// `self * 2^n`.
    fn shifted_left(&self, n: u64) -> BigInt {
        let mut magnitude = vec![0; (n / 32) as usize];
        let bits = (n % 32) as u32;
        let mut carry = 0u32;
        for &digit in &self.magnitude {
            magnitude.push((digit << bits) | carry);
            carry = if bits == 0 { 0 } else { digit >> (32 - bits) };
        }
        magnitude.push(carry);
        BigInt::new(self.negative, magnitude)
    }

    /// `self / 2^n` for a nonnegative `self`, rounded to nearest, ties to even.
    fn shifted_right_rounded(&self, n: u64) -> BigInt {
        let bit = |i: u64| -> bool {
            usize::try_from(i / 32).ok().and_then(|d| self.magnitude.get(d)).is_some_and(|d| (d >> (i % 32)) & 1 == 1)
        };
        let words = usize::try_from(n / 32).unwrap_or(usize::MAX);
        let bits = (n % 32) as u32;
        let mut magnitude: Vec<u32> = self.magnitude.iter().skip(words).copied().collect();
        if bits > 0 {
            for i in 0..magnitude.len() {
                let high = magnitude.get(i + 1).copied().unwrap_or(0);
                magnitude[i] = (magnitude[i] >> bits) | (high << (32 - bits));
            }
        }
        let quotient = BigInt::new(false, magnitude);
        // The first bit shifted out decides, unless it is a tie (no other one below it).
        let half = n > 0 && bit(n - 1);
        let below_half = (0..n.saturating_sub(1).min(32 * self.magnitude.len() as u64)).any(bit);
        let odd = bit(n);
        if half && (below_half || odd) { quotient.plus(&BigInt::from_i128(1)) } else { quotient }
    }

    /// The number in decimal.
    fn to_decimal(&self) -> String {
        let mut magnitude = self.magnitude.clone();
        let mut chunks = Vec::new(); // base 10^9, least significant first
        while !magnitude.is_empty() {
            let mut remainder = 0u64;
            for digit in magnitude.iter_mut().rev() {
                let x = (remainder << 32) | u64::from(*digit);
                *digit = (x / 1_000_000_000) as u32;
                remainder = x % 1_000_000_000;
            }
            while magnitude.last() == Some(&0) {
                magnitude.pop();
            }
            chunks.push(remainder);
        }
        let mut out = String::from(if self.negative { "-" } else { "" });
        match chunks.split_last() {
            None => out.push('0'),
            Some((top, rest)) => {
                out += &top.to_string();
                for chunk in rest.iter().rev() {
                    out += &format!("{chunk:09}");
                }
            }
        }
        out
    }

    /// Bits in the magnitude: `|self| < 2^bit_length`.
    fn bit_length(&self) -> u64 {
        self.magnitude.last().map_or(0, |top| 32 * self.magnitude.len() as u64 - u64::from(top.leading_zeros()))
    }

    fn to_i128(&self) -> Option<i128> {
        if self.magnitude.len() > 4 {
            return None;
        }
        let abs = self.magnitude.iter().rev().fold(0u128, |acc, &digit| (acc << 32) | u128::from(digit));
        if self.negative { 0i128.checked_sub_unsigned(abs) } else { i128::try_from(abs).ok() }
    }
}

impl Ord for BigInt {
    fn cmp(&self, other: &BigInt) -> Ordering {
        match (self.negative, other.negative) {
            (false, true) => Ordering::Greater,
            (true, false) => Ordering::Less,
            (false, false) => compare_magnitudes(&self.magnitude, &other.magnitude),
            (true, true) => compare_magnitudes(&other.magnitude, &self.magnitude),
        }
    }
}

impl PartialOrd for BigInt {
    fn partial_cmp(&self, other: &BigInt) -> Option<Ordering> {
        Some(self.cmp(other))
    }
}

fn compare_magnitudes(a: &[u32], b: &[u32]) -> Ordering {
    a.len().cmp(&b.len()).then_with(|| a.iter().rev().cmp(b.iter().rev()))
}

fn add_magnitudes(a: &[u32], b: &[u32]) -> Vec<u32> {
    let (long, short) = if a.len() >= b.len() { (a, b) } else { (b, a) };
    let mut sum = Vec::with_capacity(long.len() + 1);
    let mut carry = 0u64;
    for (i, &digit) in long.iter().enumerate() {
        let s = u64::from(digit) + u64::from(short.get(i).copied().unwrap_or(0)) + carry;
        sum.push(s as u32);
        carry = s >> 32;
    }
    sum.push(carry as u32);
    sum
}

/// `larger - smaller`, where `larger` is at least `smaller`.
fn subtract_magnitudes(larger: &[u32], smaller: &[u32]) -> Vec<u32> {
    let mut borrow = false;
    larger
        .iter()
        .enumerate()
        .map(|(i, &digit)| {
            let (d, b1) = digit.overflowing_sub(smaller.get(i).copied().unwrap_or(0));
            let (d, b2) = d.overflowing_sub(u32::from(borrow));
            borrow = b1 || b2;
            d
        })
        .collect()
}

/// `magnitude = magnitude * factor + addend`.
fn multiply_add(magnitude: &mut Vec<u32>, factor: u32, addend: u32) {
    let mut carry = u64::from(addend);
    for digit in magnitude.iter_mut() {
        let x = u64::from(*digit) * u64::from(factor) + carry;
        *digit = x as u32;
        carry = x >> 32;
    }
    if carry != 0 {
        magnitude.push(carry as u32);
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn accepted(literals: &[&str]) {
        for literal in literals {
            assert!(is_well_formed(literal), "{literal} should be accepted");
        }
    }

    fn rejected(literals: &[&str]) {
        for literal in literals {
            assert!(!is_well_formed(literal), "{literal} should be rejected");
        }
    }

    #[test]
    fn normal_values_that_fit_are_accepted() {
        accepted(&[
            "0x1.8e0f24e8",
            "0x1.0e0f24e8",
            "0x0.ffffffe0f24e8",               // 24 significant bits
            "0x1.fffffffffffffe0f53e11",       // 53 significant bits
            "0x0.0000000000001000000e10f24e8", // zeros around the one bit do not count
            "0x0.8e32f24e8",                   // 2^127, the largest power of two
            "0x0.ffffffe32f24e8",              // the largest single
            "0x0.4e-31f24e8",                  // 2^-126, the smallest normal single
            "0x1.fee0f24e8",                   // hex digits e and f before the markers
            "0x1.0e0f0024e008",                // leading zeros in the sizes
            "0x0.0e0f2e2",                     // zero in the smallest format
        ]);
    }

    #[test]
    fn values_needing_rounding_are_rejected() {
        rejected(&[
            "0x1.ffffffe0f24e8", // 25 significant bits
            "0x1.000001e0f24e8",
            "0x3.fffffffffffffe0f53e11", // 54 significant bits
            "0x1.000000000000000001e5f53e11",
            "0x3.2e1f2e8",
        ]);
    }

    #[test]
    fn subnormals_that_round_to_a_subnormal_are_accepted() {
        accepted(&[
            "0x0.000008e-32f24e8",          // 2^-149, the smallest subnormal single
            "0x0.0000000000004e-256f53e11", // 2^-1074, the smallest subnormal double
            "0x3.fffff8e-32f24e8",          // the largest subnormal single
            "0x0.00000ce-32f24e8",          // 1.5 times the smallest: rounds to twice it
            "0x0.00000ae-32f24e8",          // 1.25 times the smallest: rounds to it
            "0x0.000005e-32f24e8",          // just above half the smallest: rounds up to it
            "0x3.fffff9e-32f24e8",          // just above the largest: rounds down to it
        ]);
    }

    #[test]
    fn subnormals_that_flush_to_zero_or_reach_the_smallest_normal_are_rejected() {
        rejected(&[
            "0x0.000004e-32f24e8", // half the smallest subnormal: ties to zero
            "0x0.0000000000002e-256f53e11",
            "0x0.000003e-32f24e8", // below half
            "0x1.0e-1000f24e8",
            "0x3.fffffce-32f24e8", // halfway above the largest: ties up to 2^-126
            "0x3.ffffffe-32f24e8",
        ]);
    }

    #[test]
    fn exponents_beyond_the_format_are_rejected() {
        rejected(&[
            "0x1.0e32f24e8", // 2^128
            "-0x1.0e32f24e8",
            "0x5.0e32f24e8",
            "0x1.0e256f53e11",
            "0x1.0e99999999999999999999999999999999999999999f24e8",
            "0x1.0e-99999999999999999999999999999999999999999f24e8",
        ]);
    }

    #[test]
    fn wide_exponents_are_exact() {
        accepted(&[
            "0x1.0e536870911f24e32",
            "0x1.0e-536870911f24e32",
            "0x1.0e137438953471f24e40",
            "0x1.0e1000000000000000000000000000000000000000f24e200",
            "0x1.0e0f24e2147483647",
            // 0x8.0 * 16^(2^197 - 1) = 2^(2^199 - 1): with 200 exponent bits, bias = 2^199 - 1.
            "0x8.0e200867255532373784442745261542645325315275374222849104412671f24e200",
            // 0x0.000008 * 16^(-2^197) = 2^(2 - bias - 24), the smallest subnormal.
            "0x0.000008e-200867255532373784442745261542645325315275374222849104412672f24e200",
        ]);
        rejected(&[
            "0x10.0e200867255532373784442745261542645325315275374222849104412671f24e200",
            "0x1.0e200867255532373784442745261542645325315275374222849104412672f24e200",
            "0x0.000004e-200867255532373784442745261542645325315275374222849104412672f24e200",
        ]);
    }

    #[test]
    fn sizes_must_exceed_one_and_fit_an_i32() {
        accepted(&["0x1.0e0f2e2", "0x1.0e0f2147483647e8", "0NaN2147483647e2147483647"]);
        rejected(&[
            "0x0.0e0f2e1",
            "0x0.0e0f1e2",
            "0x1.0e0f0e0",
            "0x1.0e0f2147483648e8",
            "0x1.0e0f24e2147483648",
            "0x1.0e0f99999999999999999999e8",
        ]);
    }

    #[test]
    fn special_values_need_only_valid_sizes() {
        accepted(&["0NaN24e8", "0nan53e11", "0+oo24e8", "0-oo53e11", "0NaN2e2"]);
        rejected(&["0NaN1e8", "0nan24e1", "0+oo0e0", "0-oo2147483648e8", "0NaN24e99999999999"]);
    }

    #[test]
    fn the_sign_does_not_matter() {
        accepted(&["-0x1.8e0f24e8", "-0x0.0e0f53e11", "-0x0.000008e-32f24e8"]);
        rejected(&["-0x1.ffffffe0f24e8", "-0x3.fffffffffffffe0f53e11", "-0x5.0e256f53e11"]);
    }

    fn finite(negative: bool, biased_exponent: &str, significand: &str) -> Option<FloatValue> {
        Some(FloatValue::Finite { negative, biased_exponent: biased_exponent.into(), significand: significand.into() })
    }

    #[test]
    fn normal_values_have_their_ieee_fields() {
        assert_eq!(value("0x1.0e0f24e8"), finite(false, "127", "0"));
        assert_eq!(value("0x1.8e0f24e8"), finite(false, "127", "4194304"));
        assert_eq!(value("-0x2.0e0f24e8"), finite(true, "128", "0"));
        assert_eq!(value("0x0.4e-31f24e8"), finite(false, "1", "0")); // 2^-126
        assert_eq!(value("0x0.ffffffe32f24e8"), finite(false, "254", "8388607"));
        assert_eq!(value("0x1.fffffffffffffe0f53e11"), finite(false, "1023", "4503599627370495"));
        assert_eq!(value("0x3.2e1f53e11"), finite(false, "1028", "2533274790395904")); // 50 = 1.5625 * 2^5
        // 2^(4 * 536870911) with bias 2^31 - 1.
        assert_eq!(value("0x1.0e536870911f24e32"), finite(false, "4294967291", "0"));
    }

    #[test]
    fn zeros_keep_their_sign() {
        assert_eq!(value("0x0.0e0f24e8"), finite(false, "0", "0"));
        assert_eq!(value("-0x0.0e0f53e11"), finite(true, "0", "0"));
    }

    #[test]
    fn subnormals_are_rounded_to_nearest_even() {
        assert_eq!(value("0x0.000008e-32f24e8"), finite(false, "0", "1"));
        assert_eq!(value("0x0.00000ce-32f24e8"), finite(false, "0", "2")); // 1.5: tie to even
        assert_eq!(value("0x0.000014e-32f24e8"), finite(false, "0", "2")); // 2.5: tie to even
        assert_eq!(value("0x0.00000ae-32f24e8"), finite(false, "0", "1"));
        assert_eq!(value("0x0.000005e-32f24e8"), finite(false, "0", "1"));
        assert_eq!(value("0x3.fffff8e-32f24e8"), finite(false, "0", "8388607"));
        assert_eq!(value("0x3.fffff9e-32f24e8"), finite(false, "0", "8388607"));
        assert_eq!(value("-0x0.0000000000004e-256f53e11"), finite(true, "0", "1"));
    }

    #[test]
    fn special_values_and_rejected_literals() {
        assert_eq!(value("0NaN24e8"), Some(FloatValue::NaN));
        assert_eq!(value("0nan53e11"), Some(FloatValue::NaN));
        assert_eq!(value("0+oo24e8"), Some(FloatValue::Infinity { negative: false }));
        assert_eq!(value("0-oo24e8"), Some(FloatValue::Infinity { negative: true }));
        assert_eq!(value("0x1.0e32f24e8"), None);
        assert_eq!(value("0x1.ffffffe0f24e8"), None);
    }

    #[test]
    fn big_integers_shift_and_print() {
        let big = |v: i128| BigInt::from_i128(v);
        assert_eq!(big(0).to_decimal(), "0");
        assert_eq!(big(-1234567890123456789).to_decimal(), "-1234567890123456789");
        assert_eq!(BigInt::power_of_two(100).to_decimal(), "1267650600228229401496703205376");
        assert_eq!(big(3).shifted_left(33), big(3 << 33));
        assert_eq!(big(3 << 40).shifted_right_rounded(40), big(3));
        assert_eq!(big(5).shifted_right_rounded(1), big(2)); // 2.5
        assert_eq!(big(7).shifted_right_rounded(1), big(4)); // 3.5
        assert_eq!(big(0b1011).shifted_right_rounded(2), big(3)); // 2.75
        assert_eq!(big(1 << 70 | 1 << 5).shifted_right_rounded(70), big(1));
        assert_eq!(BigInt::from_nibbles(&[1, 0, 15]), big(0x10f));
    }

    #[test]
    fn significand_counts_bits_from_the_leading_to_the_lowest_one() {
        let of = |digits: &str| Significand::of(&digits.chars().map(|c| c.to_digit(16).unwrap()).collect::<Vec<_>>());
        assert_eq!(of("000"), None);
        assert_eq!(of("1"), Some(Significand { leading: 0, width: 1, leading_ones: 1 }));
        assert_eq!(of("03fc0"), Some(Significand { leading: 13, width: 8, leading_ones: 8 }));
        assert_eq!(of("3f9"), Some(Significand { leading: 9, width: 10, leading_ones: 7 }));
    }

    #[test]
    fn big_integers_add_and_compare() {
        let big = |v: i128| BigInt::from_i128(v);
        assert_eq!(BigInt::from_decimal(false, "00340282366920938463463374607431768211455"), {
            BigInt::new(false, vec![u32::MAX; 4])
        });
        assert_eq!(BigInt::from_decimal(true, "000"), big(0));
        assert_eq!(BigInt::power_of_two(64).plus(&big(-1)).to_i128(), Some(u64::MAX.into()));
        assert_eq!(big(5).plus(&big(-7)), big(-2));
        assert_eq!(big(-5).plus(&big(7)), big(2));
        assert_eq!(big(-5).plus(&big(5)), big(0));
        assert_eq!(big(i128::MIN).to_i128(), Some(i128::MIN));
        assert_eq!(big(i128::MAX).plus(&big(1)).to_i128(), None);
        assert_eq!(big(i128::MIN).plus(&big(-1)).times(4).bit_length(), 130);
        assert!(big(-3) < big(-2) && big(-2) < big(0) && big(0) < big(1));
        assert!(BigInt::power_of_two(127) > big(i128::MAX) && BigInt::power_of_two(126) < big(i128::MAX));
    }
}
