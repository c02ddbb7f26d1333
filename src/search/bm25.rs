//! Okapi BM25, the scoring function of the search: its two constants and two small formulas.

/// Term-frequency saturation: how quickly repeats of a term stop adding to the score.
pub const K1: f64 = 1.2;

/// Length normalisation: 0 ignores document length, 1 divides fully by the relative length.
/// The textbook value; the search uses [`crate::search::SearchConfig::length_norm`].
pub const B: f64 = 0.75;

/// Inverse document frequency of a term found in `doc_freq` of `doc_count` documents:
/// `idf = ln(1 + (N − n + 0.5) / (n + 0.5))` (the Lucene/tantivy form, never negative).
/// A term in no document has the highest IDF a catalog of that size can give.
pub fn idf(doc_count: usize, doc_freq: usize) -> f64 {
    let n = doc_freq.min(doc_count) as f64;
    let total = doc_count as f64;
    ln(1.0 + (total - n + 0.5) / (n + 0.5))
}

/// [`idf`] in base 2 and roughly: `log2` taken as linear between powers of two (within 0.09 of
/// it), a few operations instead of a series, for weighing terms against each other.
pub fn rough_idf(doc_count: usize, doc_freq: usize) -> f64 {
    let n = doc_freq.min(doc_count) as f64;
    let (m, e) = mantissa_exponent(1.0 + (doc_count as f64 - n + 0.5) / (n + 0.5));
    f64::from(e) + m - 1.0
}

/// Natural logarithm of a positive finite `x` (0 for anything else), in plain arithmetic: `core`
/// has no `f64::ln`, and this way native and WebAssembly builds score bit for bit alike.
/// `x = m·2^e` with `m` in [1, 2), and `ln m = 2·atanh((m − 1)/(m + 1))` by its series.
fn ln(x: f64) -> f64 {
    if !(x.is_finite() && x > 0.0) {
        return 0.0;
    }
    let (m, e) = mantissa_exponent(x);
    let s = (m - 1.0) / (m + 1.0); // in [0, 1/3)
    let s2 = s * s;
    let mut power = s;
    let mut series = 0.0;
    for k in 0..24 {
        series += power / f64::from(2 * k + 1);
        power *= s2;
    }
    f64::from(e) * core::f64::consts::LN_2 + 2.0 * series
}

/// `(m, e)` with `x = m·2^e` and `m` in [1, 2), for a positive finite `x`.
fn mantissa_exponent(x: f64) -> (f64, i32) {
    let mut x = x;
    let mut e = 0;
    if x < f64::MIN_POSITIVE {
        x *= 18_014_398_509_481_984.0; // 2^54
        e -= 54;
    }
    let bits = x.to_bits();
    let biased = ((bits >> 52) & 0x7ff) as i32;
    let m = f64::from_bits((bits & !(0x7ff << 52)) | (1023 << 52));
    (m, e + biased - 1023)
}

/// One field's share of a term's frequency in BM25F: `weight · tf / (1 − B + B·len/avg_len)`,
/// where the field holds the term `tf` times and has `len` terms against `avg_len` on average.
/// Normalising per field lets a short name that matches beat a long one that matches as much.
pub fn field_tf(tf: f64, weight: f64, len: f64, avg_len: f64) -> f64 {
    field_tf_with(tf, weight, len, avg_len, B)
}

/// [`field_tf`] with length normalisation `b` instead of [`B`].
pub fn field_tf_with(tf: f64, weight: f64, len: f64, avg_len: f64, b: f64) -> f64 {
    weight * tf / length_norm(len, avg_len, b)
}

/// The divisor of [`field_tf_with`] for a field of `len` terms: `1 − b + b·len/avg_len`
/// (the same for every term of the field, so a build computes it once a field).
pub fn length_norm(len: f64, avg_len: f64, b: f64) -> f64 {
    let relative_len = if avg_len > 0.0 { len / avg_len } else { 1.0 };
    1.0 - b + b * relative_len
}

/// The BM25 contribution of one term whose length-normalised frequency is `tf`:
/// `idf · tf·(K1 + 1) / (tf + K1)`.
pub fn term_score(idf: f64, tf: f64) -> f64 {
    if tf <= 0.0 {
        return 0.0;
    }
    idf * tf * (K1 + 1.0) / (tf + K1)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn ln_agrees_with_std() {
        for x in [1.0, 1.5, 2.0, 2.5, 3.0, 10.0, 1234.5, 1e-3, 1e300, 5e-324, 0.999_999, 7.389_056] {
            let (ours, std) = (ln(x), std::primitive::f64::ln(x));
            assert!((ours - std).abs() <= 1e-13 * std.abs().max(1.0), "ln({x}) = {ours}, std {std}");
        }
        assert_eq!(ln(0.0), 0.0);
        assert_eq!(ln(-1.0), 0.0);
        assert_eq!(ln(f64::NAN), 0.0);
        assert_eq!(ln(f64::INFINITY), 0.0);
    }

    #[test]
    fn idf_falls_as_terms_get_common_and_stays_positive() {
        assert!(idf(100, 1) > idf(100, 10));
        assert!(idf(100, 10) > idf(100, 100));
        assert!(idf(100, 100) > 0.0);
        assert!(idf(100, 0) > idf(100, 1));
        assert!((idf(3, 1) - (1.0f64 + 2.5 / 1.5).ln()).abs() < 1e-12);
    }

    #[test]
    fn rough_idf_follows_idf() {
        for (n, d) in [(100, 1), (100, 10), (100, 50), (100, 100), (3397, 3), (3397, 2000)] {
            let exact = idf(n, d) / core::f64::consts::LN_2;
            assert!((rough_idf(n, d) - exact).abs() < 0.09, "{n} {d}: {} vs {exact}", rough_idf(n, d));
        }
        assert!(rough_idf(100, 1) > rough_idf(100, 10));
        assert!(rough_idf(0, 0) > 0.0);
    }

    #[test]
    fn term_score_saturates_and_short_fields_weigh_more() {
        let one = term_score(1.0, 1.0);
        let two = term_score(1.0, 2.0);
        assert!(two > one && two < 2.0 * one);
        assert_eq!(term_score(1.0, 0.0), 0.0);
        assert!(field_tf(1.0, 1.0, 5.0, 10.0) > field_tf(1.0, 1.0, 20.0, 10.0));
        assert!(field_tf(1.0, 2.0, 10.0, 10.0) > field_tf(1.0, 1.0, 10.0, 10.0));
        assert!(field_tf(1.0, 1.0, 0.0, 0.0).is_finite());
    }
}
