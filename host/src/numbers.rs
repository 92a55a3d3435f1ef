//! Numbers as a person reads them: scores, ratings and counts in tables and
//! messages, to a sensible precision and never `-0`. Machine formats (JSON,
//! CSV, replays) keep full precision and do not go through here.

/// `x` with exactly `decimals` decimals, for a column of numbers. A value
/// that rounds to zero has no minus sign: `-0.04` to one decimal is `0.0`.
pub fn fixed(x: f64, decimals: usize) -> String {
    let text = format!("{x:.decimals$}");
    match text.strip_prefix('-') {
        Some(digits) if digits.bytes().all(|b| b == b'0' || b == b'.') => digits.to_string(),
        _ => text,
    }
}

/// `x` to at most `decimals` decimals, without trailing zeros: `524`,
/// `0.33`, `2169.23`; never `-0`.
pub fn rounded(x: f64, decimals: usize) -> String {
    let text = fixed(x, decimals);
    if text.contains('.') {
        text.trim_end_matches('0').trim_end_matches('.').to_string()
    } else {
        text
    }
}

/// `x` as [`fixed`] with its sign always shown, for a difference: `+12.5`,
/// `-3.0`, `+0.0`.
pub fn signed(x: f64, decimals: usize) -> String {
    let text = fixed(x, decimals);
    if text.starts_with('-') {
        text
    } else {
        format!("+{text}")
    }
}

/// `n` and its noun, singular for one: `1 round`, `3 rounds`.
pub fn count(n: u64, one: &str, many: &str) -> String {
    format!("{n} {}", if n == 1 { one } else { many })
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn fixed_keeps_its_decimals_and_drops_the_sign_of_a_rounded_zero() {
        assert_eq!(fixed(2169.2321484071485, 1), "2169.2");
        assert_eq!(fixed(-0.0, 1), "0.0");
        assert_eq!(fixed(-0.04, 1), "0.0");
        assert_eq!(fixed(-0.4, 0), "0");
        assert_eq!(fixed(-0.06, 1), "-0.1");
        assert_eq!(fixed(-12.0, 0), "-12");
        assert_eq!(fixed(3.0, 2), "3.00");
    }

    #[test]
    fn rounded_drops_trailing_zeros() {
        assert_eq!(rounded(1.0 / 3.0, 2), "0.33");
        assert_eq!(rounded(2169.2321484071485, 2), "2169.23");
        assert_eq!(rounded(524.0, 2), "524");
        assert_eq!(rounded(0.5, 2), "0.5");
        assert_eq!(rounded(-0.0, 2), "0");
        assert_eq!(rounded(-0.001, 2), "0");
        assert_eq!(rounded(100.0, 0), "100");
        assert_eq!(rounded(f64::NAN, 2), "NaN");
    }

    #[test]
    fn signed_shows_the_sign_of_a_difference_but_not_of_a_rounded_zero() {
        assert_eq!(signed(12.46, 1), "+12.5");
        assert_eq!(signed(-3.0, 1), "-3.0");
        assert_eq!(signed(-0.01, 1), "+0.0");
    }

    #[test]
    fn count_says_one_in_the_singular() {
        assert_eq!(count(1, "round", "rounds"), "1 round");
        assert_eq!(count(0, "round", "rounds"), "0 rounds");
        assert_eq!(count(2, "match", "matches"), "2 matches");
    }
}
