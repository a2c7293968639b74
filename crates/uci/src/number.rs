//! Number tokens as GUIs really send them: signed, sometimes negative where the protocol expects a
//! non-negative value (a flagging clock), and occasionally absurdly large.

/// A decimal integer token with an optional sign, its magnitude saturated at `u64::MAX`.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(crate) struct Integer {
    /// The magnitude, saturated at `u64::MAX`.
    pub(crate) magnitude: u64,
    /// Whether a `-` sign preceded a non-zero magnitude.
    pub(crate) negative: bool,
    /// Whether the magnitude did not fit in a `u64`.
    pub(crate) saturated: bool,
}

/// Parses `[+-]digits` of any length in time linear in the text; `None` for anything else (no digits, a
/// fraction, an exponent, letters).
pub(crate) fn parse_integer(text: &str) -> Option<Integer> {
    let (negative, digits) = match text.as_bytes().first() {
        Some(b'-') => (true, &text[1..]),
        Some(b'+') => (false, &text[1..]),
        _ => (false, text),
    };
    if digits.is_empty() || !digits.bytes().all(|b| b.is_ascii_digit()) {
        return None;
    }
    let mut magnitude = 0u64;
    let mut saturated = false;
    for digit in digits.bytes() {
        match magnitude
            .checked_mul(10)
            .and_then(|m| m.checked_add(u64::from(digit - b'0')))
        {
            Some(next) => magnitude = next,
            None => {
                saturated = true;
                magnitude = u64::MAX;
                break;
            }
        }
    }
    Some(Integer {
        magnitude,
        negative: negative && magnitude != 0,
        saturated,
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn signs_digits_and_saturation() {
        let int = |magnitude, negative, saturated| {
            Some(Integer {
                magnitude,
                negative,
                saturated,
            })
        };
        assert_eq!(parse_integer("42"), int(42, false, false));
        assert_eq!(parse_integer("+42"), int(42, false, false));
        assert_eq!(parse_integer("-42"), int(42, true, false));
        assert_eq!(parse_integer("-0"), int(0, false, false));
        assert_eq!(parse_integer("18446744073709551615"), int(u64::MAX, false, false));
        assert_eq!(parse_integer("18446744073709551616"), int(u64::MAX, false, true));
        assert_eq!(parse_integer(&"9".repeat(100_000)), int(u64::MAX, false, true));
    }

    #[test]
    fn non_numbers_are_rejected() {
        for text in ["", "-", "+", "1.5", "1e3", "abc", "12a", "--1", " 1", "٣"] {
            assert_eq!(parse_integer(text), None, "{text:?}");
        }
    }
}
