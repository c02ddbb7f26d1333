//! Decimal text to `f64`, read as `str::parse::<f64>` reads it (the same grammar, the same
//! correctly rounded value), without core's parser: its Eisel–Lemire step links a table of 650
//! 128-bit powers of five, 10 KB that gzip cannot shrink. Numbers of at most 19 significant digits
//! whose value is an exact product or quotient of two exact floats take that one operation
//! (Clinger's fast path, as core does); every other number takes core's own fallback, the
//! "simple decimal conversion" (Nigel Tao, after Ken Thompson), which is exact for every input of
//! up to 768 significant digits and needs no table. The tests compare both with core's parser.
//!
//! Layer 0 of ARCHITECTURE.md's Layers: imports only nothing.

/// Significant digits kept, as core keeps them: enough to round every `f64` exactly; a longer
/// number keeps that many and marks itself `truncated`.
const MAX_DIGITS: usize = 768;
/// Room for the digits a left shift adds in front (2^60 has 19 digits).
const ROOM: usize = 19;
/// The longest shift of one pass, which keeps `digit << shift` and `10 * (n & mask)` in a `u64`.
const MAX_SHIFT: usize = 60;
/// Bits of an `f64`'s significand after the leading one.
const MANTISSA_BITS: u32 = 52;
/// The exponent of the smallest normal `f64` (2^-1022).
const MIN_EXPONENT: i32 = -1022;
/// The biased exponent of infinity.
const INFINITE_POWER: i32 = 0x7ff;
/// Exact powers of ten as floats, for the fast path.
const POWERS_OF_TEN: [f64; 23] = [
    1e0, 1e1, 1e2, 1e3, 1e4, 1e5, 1e6, 1e7, 1e8, 1e9, 1e10, 1e11, 1e12, 1e13, 1e14, 1e15, 1e16, 1e17, 1e18, 1e19, 1e20,
    1e21, 1e22,
];

/// `text` as `str::parse::<f64>` reads it: an optional sign, then `inf`, `infinity` or `nan` in
/// any case, or digits with an optional `.` (at least one digit) and an optional exponent
/// (`e` or `E`, an optional sign, at least one digit); nothing before or after. `None` where
/// `parse` would be an error.
pub(crate) fn parse_f64(text: &str) -> Option<f64> {
    let bytes = text.as_bytes();
    let negative = bytes.first() == Some(&b'-');
    let rest = match bytes.first() {
        Some(b'-' | b'+') => bytes.get(1..).unwrap_or_default(),
        _ => bytes,
    };
    if rest.is_empty() {
        return None;
    }
    let magnitude = match Number::read(rest) {
        Some(number) => number.value(),
        None => special(rest)?,
    };
    Some(if negative { -magnitude } else { magnitude })
}

/// `inf`, `infinity` and `nan` in any ASCII case.
fn special(text: &[u8]) -> Option<f64> {
    if text.eq_ignore_ascii_case(b"inf") || text.eq_ignore_ascii_case(b"infinity") {
        Some(f64::INFINITY)
    } else if text.eq_ignore_ascii_case(b"nan") {
        Some(f64::NAN)
    } else {
        None
    }
}

/// A number's text checked against the grammar: its digits (the `.` among them) and exponent.
struct Number<'a> {
    /// The digits before the exponent, the `.` included.
    digits: &'a [u8],
    /// The exponent as written, held within ±0x10000 (beyond it, every value is 0 or infinite).
    exponent: i64,
}

impl<'a> Number<'a> {
    /// The number, if all of `text` is one.
    fn read(text: &'a [u8]) -> Option<Self> {
        let mut at = 0;
        let mut count = 0;
        let mut point = false;
        while let Some(&byte) = text.get(at) {
            match byte {
                b'0'..=b'9' => count += 1,
                b'.' if !point => point = true,
                _ => break,
            }
            at += 1;
        }
        if count == 0 {
            return None;
        }
        let digits = text.get(..at)?;
        let exponent = match text.get(at) {
            None => 0,
            Some(b'e' | b'E') => exponent(text.get(at + 1..)?)?,
            Some(_) => return None,
        };
        Some(Number { digits, exponent })
    }

    /// The value, correctly rounded.
    fn value(&self) -> f64 {
        self.fast().unwrap_or_else(|| Decimal::of(self).convert())
    }

    /// Clinger's fast path: at most 19 significant digits, a mantissa of at most 2^53 and an
    /// exponent of at most 22 either way make the value one exactly rounded operation.
    fn fast(&self) -> Option<f64> {
        let mut mantissa: u64 = 0;
        let mut significant = 0;
        let mut after_point = 0i64;
        let mut point = false;
        for &byte in self.digits {
            if byte == b'.' {
                point = true;
                continue;
            }
            after_point += i64::from(point);
            if mantissa == 0 && byte == b'0' {
                continue;
            }
            significant += 1;
            if significant > 19 {
                return None;
            }
            mantissa = mantissa * 10 + u64::from(byte - b'0');
        }
        let exponent = self.exponent - after_point;
        if mantissa == 0 {
            return Some(0.0);
        }
        if mantissa > 1 << 53 || !(-22..=22).contains(&exponent) {
            return None;
        }
        let power = *POWERS_OF_TEN.get(usize::try_from(exponent.unsigned_abs()).ok()?)?;
        let value = mantissa as f64; // exact: at most 2^53
        Some(if exponent < 0 { value / power } else { value * power })
    }
}

/// The exponent's text after `e`: an optional sign and at least one digit, saturating as core does.
fn exponent(text: &[u8]) -> Option<i64> {
    let (negative, digits) = match text.first() {
        Some(b'-') => (true, text.get(1..)?),
        Some(b'+') => (false, text.get(1..)?),
        _ => (false, text),
    };
    if digits.is_empty() || !digits.iter().all(u8::is_ascii_digit) {
        return None;
    }
    let mut value: i64 = 0;
    for &digit in digits {
        if value < 0x10000 {
            value = 10 * value + i64::from(digit - b'0');
        }
    }
    Some(if negative { -value } else { value })
}

/// A decimal of up to [`MAX_DIGITS`] digits `0.d₀d₁…` × 10^`point`, shifted by powers of two
/// until it is a binary float's significand.
struct Decimal {
    /// The digits (values 0–9), without leading or trailing zeros.
    digits: [u8; MAX_DIGITS + ROOM],
    /// How many of `digits` are the number.
    count: usize,
    /// The decimal exponent of the point: the value is 0.digits × 10^point.
    point: i32,
    /// Nonzero digits were dropped after the last kept one.
    truncated: bool,
}

impl Decimal {
    /// Beyond this point either way the value is 0 or infinite.
    const POINT_RANGE: i32 = 2047;

    /// The number's digits, leading zeros skipped, trailing zeros dropped.
    fn of(number: &Number) -> Decimal {
        let mut decimal = Decimal { digits: [0; MAX_DIGITS + ROOM], count: 0, point: 0, truncated: false };
        let mut significant = 0usize;
        let mut point = 0i64;
        let mut after_point = false;
        for &byte in number.digits {
            if byte == b'.' {
                after_point = true;
                continue;
            }
            if significant == 0 && byte == b'0' {
                point -= i64::from(after_point);
                continue;
            }
            if let Some(slot) = decimal.digits.get_mut(significant).filter(|_| significant < MAX_DIGITS) {
                *slot = byte - b'0';
            } else if byte != b'0' {
                decimal.truncated = true;
            }
            significant += 1;
            point += i64::from(!after_point);
        }
        decimal.count = significant.min(MAX_DIGITS);
        decimal.trim();
        let point = (point + number.exponent).clamp(-0x20000, 0x20000);
        decimal.point = i32::try_from(point).unwrap_or_default();
        decimal
    }

    fn digit(&self, at: usize) -> u8 {
        self.digits.get(at).copied().unwrap_or(0)
    }

    /// Drops trailing zeros.
    fn trim(&mut self) {
        while self.count > 0 && self.digit(self.count - 1) == 0 {
            self.count -= 1;
        }
    }

    /// The correctly rounded `f64` (core's `parse_long_mantissa`).
    fn convert(&mut self) -> f64 {
        if self.count == 0 || self.point < -324 {
            return 0.0;
        }
        if self.point >= 310 {
            return f64::INFINITY;
        }
        let Some(mut exponent) = self.normalize() else { return self.overflowed() };
        // Now 0.5 <= value < 1: the value is 1.x × 2^(exponent - 1).
        exponent -= 1;
        while exponent < MIN_EXPONENT {
            let shift = usize::try_from(MIN_EXPONENT - exponent).unwrap_or(MAX_SHIFT).min(MAX_SHIFT);
            self.right_shift(shift);
            exponent += shift as i32;
        }
        if exponent - MIN_EXPONENT + 1 >= INFINITE_POWER {
            return f64::INFINITY;
        }
        self.left_shift(MANTISSA_BITS as usize + 1);
        let mut mantissa = self.round();
        if mantissa >= 1 << (MANTISSA_BITS + 1) {
            self.right_shift(1);
            exponent += 1;
            mantissa = self.round();
            if exponent - MIN_EXPONENT + 1 >= INFINITE_POWER {
                return f64::INFINITY;
            }
        }
        let mut power = exponent - MIN_EXPONENT + 1;
        if mantissa < 1 << MANTISSA_BITS {
            power -= 1;
        }
        let bits = (mantissa & ((1 << MANTISSA_BITS) - 1)) | (u64::from(power.unsigned_abs()) << MANTISSA_BITS);
        f64::from_bits(bits)
    }

    /// What a normalization past the point's range gives: 0 when the digits are gone, else infinity.
    fn overflowed(&self) -> f64 {
        if self.count == 0 || self.point < 0 {
            0.0
        } else {
            f64::INFINITY
        }
    }

    /// Shifts the value into 0.5..1, returning the power of two it was divided by; `None` when
    /// the point leaves its range.
    fn normalize(&mut self) -> Option<i32> {
        let mut exponent = 0i32;
        while self.point > 0 {
            let shift = shift_for(self.point);
            self.right_shift(shift);
            if self.point < -Self::POINT_RANGE {
                self.count = 0;
                return None;
            }
            exponent += shift as i32;
        }
        while self.point <= 0 {
            if self.count == 0 {
                return None;
            }
            let shift = if self.point == 0 {
                match self.digit(0) {
                    5.. => break,
                    0 | 1 => 2,
                    _ => 1,
                }
            } else {
                shift_for(-self.point)
            };
            self.left_shift(shift);
            if self.point > Self::POINT_RANGE {
                return None;
            }
            exponent -= shift as i32;
        }
        Some(exponent)
    }

    /// Multiplies the value by 2^shift (at most [`MAX_SHIFT`]).
    fn left_shift(&mut self, shift: usize) {
        if self.count == 0 {
            return;
        }
        let mut carry = 0u64;
        for at in (0..self.count).rev() {
            let n = (u64::from(self.digit(at)) << shift) + carry;
            carry = n / 10;
            if let Some(slot) = self.digits.get_mut(at + ROOM) {
                *slot = (n % 10) as u8;
            }
        }
        let mut first = ROOM;
        while carry > 0 && first > 0 {
            first -= 1;
            if let Some(slot) = self.digits.get_mut(first) {
                *slot = (carry % 10) as u8;
            }
            carry /= 10;
        }
        let added = ROOM - first;
        self.digits.copy_within(first..ROOM + self.count, 0);
        self.count += added;
        if self.count > MAX_DIGITS {
            let dropped = self.digits.get(MAX_DIGITS..self.count).unwrap_or_default();
            self.truncated |= dropped.iter().any(|&d| d != 0);
            self.count = MAX_DIGITS;
        }
        self.point += added as i32;
        self.trim();
    }

    /// Divides the value by 2^shift (at most [`MAX_SHIFT`]).
    fn right_shift(&mut self, shift: usize) {
        let mut read = 0usize;
        let mut n = 0u64;
        while n >> shift == 0 {
            if read < self.count {
                n = 10 * n + u64::from(self.digit(read));
                read += 1;
            } else if n == 0 {
                return;
            } else {
                while n >> shift == 0 {
                    n *= 10;
                    read += 1;
                }
                break;
            }
        }
        self.point -= read as i32 - 1;
        if self.point < -Self::POINT_RANGE {
            self.count = 0;
            self.point = 0;
            self.truncated = false;
            return;
        }
        let mask = (1u64 << shift) - 1;
        let mut write = 0usize;
        while read < self.count {
            let digit = (n >> shift) as u8;
            n = 10 * (n & mask) + u64::from(self.digit(read));
            read += 1;
            if let Some(slot) = self.digits.get_mut(write) {
                *slot = digit;
            }
            write += 1;
        }
        while n > 0 {
            let digit = (n >> shift) as u8;
            n = 10 * (n & mask);
            if write < MAX_DIGITS {
                if let Some(slot) = self.digits.get_mut(write) {
                    *slot = digit;
                }
                write += 1;
            } else if digit > 0 {
                self.truncated = true;
            }
        }
        self.count = write;
        self.trim();
    }

    /// The integer part, rounded half to even by the digits after it.
    fn round(&self) -> u64 {
        if self.count == 0 || self.point < 0 {
            return 0;
        }
        if self.point > 18 {
            return u64::MAX;
        }
        let point = self.point as usize;
        let mut n = 0u64;
        for at in 0..point {
            n = n * 10 + if at < self.count { u64::from(self.digit(at)) } else { 0 };
        }
        let mut up = false;
        if point < self.count {
            let next = self.digit(point);
            up = next >= 5;
            if next == 5 && point + 1 == self.count {
                up = self.truncated || (point != 0 && self.digit(point - 1) % 2 == 1);
            }
        }
        n + u64::from(up)
    }
}

/// The shift for a point `n` places from 0: floor(n · log2 10), at most [`MAX_SHIFT`] (core's
/// table of the first 19 in closed form).
fn shift_for(n: i32) -> usize {
    let n = usize::try_from(n).unwrap_or(0);
    if n < 19 {
        (n * 1701) >> 9
    } else {
        MAX_SHIFT
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use alloc::format;
    use alloc::string::String;
    use alloc::vec::Vec;

    /// `parse_f64` against core's parser: the same error, the same bits (NaN's sign included).
    fn same(text: &str) {
        let core = text.parse::<f64>().ok();
        let ours = parse_f64(text);
        assert_eq!(ours.map(f64::to_bits), core.map(f64::to_bits), "{text:?}: ours {ours:?}, core {core:?}");
    }

    #[test]
    fn grammar_is_cores() {
        for text in [
            "",
            "+",
            "-",
            ".",
            "+.",
            "-.",
            "e",
            "e5",
            ".e5",
            "1e",
            "1e+",
            "1e-",
            "1E5",
            "1e+5",
            "1e-5",
            "1.",
            ".5",
            "+.5",
            "-.5",
            "1.e5",
            "1..2",
            "1.2.3",
            "--1",
            "+-1",
            "-+1",
            " 1",
            "1 ",
            "1_0",
            "0x10",
            "١",
            "1e5.0",
            "1e5e5",
            "inf",
            "+inf",
            "-inf",
            "INF",
            "Inf",
            "infinity",
            "-Infinity",
            "INFINITY",
            "infin",
            "nan",
            "NaN",
            "-nan",
            "+NAN",
            "nana",
            "in",
            "-",
            "00",
            "007",
            "0.0",
            "-0",
            "-0.0",
            "+0",
            "0e0",
            "0e99999999999",
            "1e99999999999",
            "1e-99999999999",
            "-1e99999999999",
            "00000000000000000000000001",
        ] {
            same(text);
        }
    }

    #[test]
    fn hard_values_are_cores() {
        for text in [
            "0.1",
            "0.2",
            "0.3",
            "1e23",
            "8.988465674311579e307",
            "1.7976931348623157e308",
            "1.7976931348623158e308",
            "1.7976931348623159e308",
            "1.797693134862315807e308",
            "2e308",
            "2.2250738585072014e-308",
            "2.2250738585072011e-308",
            "2.2250738585072012e-308",
            "4.9406564584124654e-324",
            "2.4703282292062327e-324",
            "2.4703282292062328e-324",
            "1e-324",
            "3e-324",
            "1e-400",
            "1e400",
            "9007199254740992",
            "9007199254740993",
            "9007199254740994",
            "9007199254740995",
            "9223372036854775807",
            "18446744073709551615",
            "18446744073709551616",
            "123456789012345678901",
            "0.30000000000000004",
            "2787802916184.9062",
            "1.00000000000000011102230246251565404236316680908203125",
            "1.00000000000000011102230246251565404236316680908203124",
            "1.00000000000000011102230246251565404236316680908203126",
            "7.2057594037927933e16",
            "1e22",
            "1e-22",
            "123456789e-22",
            "4503599627370496.5",
            "4503599627370497.5",
            "0.000000000000000000000000000001e30",
            "100000000000000000000000000000e-30",
            "3.14159",
            "-2.5e-8",
        ] {
            same(text);
        }
    }

    /// The exact decimal expansion of `x` (finite, positive): every binary float has one.
    fn exact_digits(x: f64) -> String {
        format!("{x:.1100}")
    }

    /// (a + b) / 2 of two plain decimal texts with the same number of fraction digits.
    fn midpoint(a: &str, b: &str) -> String {
        let digits = |s: &str| s.bytes().filter(u8::is_ascii_digit).map(|d| u32::from(d - b'0')).collect::<Vec<_>>();
        let point = a.find('.').unwrap_or(a.len());
        let (mut x, mut y) = (digits(a), digits(b));
        let width = x.len().max(y.len());
        while x.len() < width {
            x.insert(0, 0);
        }
        while y.len() < width {
            y.insert(0, 0);
        }
        let mut sum = alloc::vec![0u32; width + 1];
        let mut carry = 0;
        for i in (0..width).rev() {
            let s = x[i] + y[i] + carry;
            sum[i + 1] = s % 10;
            carry = s / 10;
        }
        sum[0] = carry;
        sum.push(0); // one more fraction digit for the half
        let mut out = Vec::new();
        let mut rest = 0;
        for d in sum {
            let n = rest * 10 + d;
            out.push(char::from(b'0' + (n / 2) as u8));
            rest = n % 2;
        }
        let int_len = point + 1 + (width - a.bytes().filter(u8::is_ascii_digit).count());
        let mut text: String = out.iter().take(int_len).collect();
        text.push('.');
        text.extend(out.iter().skip(int_len));
        text
    }

    /// Halfway between two neighbouring floats, and a hair either side, written exactly: the
    /// texts that decide round-half-even.
    #[test]
    fn halfway_points_are_cores() {
        let mut x: u64 = 0x0010_0000_0000_0000 - 3;
        let mut seeds = Vec::new();
        for _ in 0..40 {
            // a walk over every binade: subnormals, normals, near the top
            x = x.wrapping_mul(6364136223846793005).wrapping_add(1442695040888963407);
            seeds.push(x % 0x7fef_ffff_ffff_ffff);
        }
        seeds.extend([
            0,
            1,
            2,
            0x000f_ffff_ffff_ffff,
            0x0010_0000_0000_0000,
            0x3ff0_0000_0000_0000,
            0x7fef_ffff_ffff_fffe,
        ]);
        for bits in seeds {
            let (a, b) = (f64::from_bits(bits), f64::from_bits(bits + 1));
            let half = midpoint(&exact_digits(a), &exact_digits(b));
            let trimmed = half.trim_end_matches('0');
            same(trimmed);
            same(&format!("{trimmed}000000001"));
            let below: String = {
                // the last nonzero digit one lower, then nines
                let mut chars: Vec<char> = trimmed.chars().collect();
                let last = chars.iter().rposition(|c| c.is_ascii_digit() && *c != '0').unwrap();
                chars[last] = char::from(chars[last] as u8 - 1);
                let mut s: String = chars.into_iter().collect();
                s.push_str("9999999");
                s
            };
            same(&below);
        }
    }

    #[test]
    fn random_floats_written_every_way_are_cores() {
        let mut state: u64 = 0x9e37_79b9_7f4a_7c15;
        for _ in 0..20_000 {
            state ^= state << 13;
            state ^= state >> 7;
            state ^= state << 17;
            let x = f64::from_bits(state & 0x7fff_ffff_ffff_ffff);
            if !x.is_finite() {
                continue;
            }
            same(&format!("{x:e}"));
            same(&format!("{x}"));
            same(&format!("{x:.3e}"));
            same(&format!("{:.25e}", x));
            same(&format!("{}", (state >> 11) % 100_000));
            same(&format!("{}.{}e{}", state % 1000, (state >> 20) % 100_000, ((state >> 40) % 700) as i64 - 350));
            same(&format!("{}e-{}", state, (state >> 50) % 30));
        }
    }

    #[test]
    fn long_numbers_are_cores() {
        for digits in [19, 20, 40, 100, 767, 768, 769, 800, 1500] {
            for lead in ["1", "9", "0.", "0.000", "4"] {
                let body: String = (0..digits).map(|i| char::from(b'0' + ((i * 7 + 3) % 10) as u8)).collect();
                for exponent in ["", "e-330", "e-300", "e10", "e300", "e-700"] {
                    same(&format!("{lead}{body}{exponent}"));
                    same(&format!("{lead}{}{exponent}", "0".repeat(digits)));
                    same(&format!("{lead}{}1{exponent}", "0".repeat(digits)));
                    same(&format!("{lead}{}5{exponent}", "9".repeat(digits)));
                }
            }
        }
    }

    // Native only: proptest is a native dev-dependency.
    #[cfg(not(target_arch = "wasm32"))]
    proptest::proptest! {
        #![proptest_config(proptest::prelude::ProptestConfig::with_cases(4000))]
        #[test]
        fn any_text_of_number_characters_is_cores(text in "[-+0-9.eE]{0,30}|[iInNfFaAtTyY+-]{0,9}") {
            same(&text);
        }

        #[test]
        fn any_decimal_is_cores(int in "[0-9]{0,25}", frac in "[0-9]{0,25}", exponent in -400i32..400) {
            same(&format!("{int}.{frac}e{exponent}"));
            same(&format!("{int}{frac}e{exponent}"));
        }
    }
}
