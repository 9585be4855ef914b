//! preCICE attribute value syntax (docs/design/coupling-semantics.md §9.2): lenient booleans, doubles with an optional
//! single fraction, whole-string integers and `;`-separated vectors.

/// preCICE booleans: case-insensitive `1`, `yes`, `true`, `on` are true; anything else is
/// silently false (so `initialize="ture"` means false, as in preCICE).
pub(crate) fn parse_bool(s: &str) -> bool {
    matches!(s.trim().to_ascii_lowercase().as_str(), "1" | "yes" | "true" | "on")
}

/// A finite double; `"a/b"` (one slash) is accepted as a fraction.
pub(crate) fn parse_double(s: &str) -> Option<f64> {
    let s = s.trim();
    let v = match s.split_once('/') {
        Some((num, den)) => {
            let num: f64 = num.trim().parse().ok()?;
            let den: f64 = den.trim().parse().ok()?;
            if den == 0.0 {
                return None;
            }
            num / den
        }
        None => s.parse().ok()?,
    };
    v.is_finite().then_some(v)
}

/// A whole-string integer.
pub(crate) fn parse_int(s: &str) -> Option<i64> {
    s.trim().parse().ok()
}

/// Components separated by `;`, e.g. watch-point coordinates `"0.0;1.0"`.
pub(crate) fn parse_vector(s: &str) -> Option<Vec<f64>> {
    s.split(';').map(parse_double).collect()
}

/// `x` for a message, short whatever its magnitude: plain decimals between 1e-4 and 1e16
/// (`0.001`, `250`), otherwise the shortest exponent form that reads back as `x` (`1e-300`,
/// `2.5e20`), so a limit of 1e-300 is not written as 300 digits.
pub fn compact_number(x: f64) -> String {
    let a = x.abs();
    if a == 0.0 || !a.is_finite() || (1e-4..1e16).contains(&a) {
        format!("{x}")
    } else {
        format!("{x:e}")
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn numbers_in_messages_are_compact_and_exact() {
        assert_eq!(compact_number(1e-300), "1e-300");
        assert_eq!(compact_number(-2.5e-7), "-2.5e-7");
        assert_eq!(compact_number(3e20), "3e20");
        assert_eq!(compact_number(0.001), "0.001");
        assert_eq!(compact_number(250.0), "250");
        assert_eq!(compact_number(0.0), "0");
        for x in [1e-300, 1.2345678901234567e-9, 4.9e-324, 1.7976931348623157e308, 0.1] {
            assert_eq!(compact_number(x).parse::<f64>().unwrap(), x, "reads back exactly");
        }
    }

    #[test]
    fn bools_are_lenient_and_silently_false() {
        for t in ["1", "yes", "YES", "True", "on", "On", " true "] {
            assert!(parse_bool(t), "{t}");
        }
        for f in ["0", "no", "false", "off", "ture", "maybe", "", "2"] {
            assert!(!parse_bool(f), "{f}");
        }
    }

    #[test]
    fn doubles_allow_one_fraction() {
        assert_eq!(parse_double("1/4"), Some(0.25));
        assert_eq!(parse_double("2.5e-2"), Some(0.025));
        assert_eq!(parse_double(" 3 "), Some(3.0));
        assert_eq!(parse_double("1/0"), None);
        assert_eq!(parse_double("1/2/3"), None);
        assert_eq!(parse_double("0.1x"), None);
        assert_eq!(parse_double("nan"), None);
        assert_eq!(parse_double(""), None);
    }

    #[test]
    fn ints_and_vectors() {
        assert_eq!(parse_int("42"), Some(42));
        assert_eq!(parse_int("4.2"), None);
        assert_eq!(parse_vector("0.0;1"), Some(vec![0.0, 1.0]));
        assert_eq!(parse_vector("0.0;;1"), None);
    }
}
