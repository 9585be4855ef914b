//! Numbers as libprecice's output files print them, so that our files read the same as
//! libprecice's: C++ streams in scientific notation (`std::scientific` with a precision), C++
//! streams in their default notation (six significant digits, `%g`), and the `{fmt}` library's
//! shortest round-trip form (the `.series` files).

/// `x` in scientific notation with `decimals` digits after the point and an exponent of at least
/// two digits (`1.50e+00`), as a C++ stream with `std::scientific` writes it.
pub(crate) fn scientific(x: f64, decimals: usize) -> String {
    if !x.is_finite() {
        return non_finite(x);
    }
    let s = format!("{x:.decimals$e}");
    let (mantissa, exp) = s.split_once('e').expect("{:e} has an exponent");
    format!("{mantissa}e{}", exponent(exp))
}

/// `x` as a C++ stream writes it by default (`%g`, six significant digits, trailing zeros
/// removed): `0.5`, `1e-07`, `123457`, `1.23457e+06`.
pub(crate) fn general(x: f64) -> String {
    const DIGITS: i32 = 6;
    if !x.is_finite() {
        return non_finite(x);
    }
    // The decimal exponent after rounding to six significant digits decides the notation.
    let rounded = format!("{x:.*e}", (DIGITS - 1) as usize);
    let (mantissa, exp) = rounded.split_once('e').expect("{:e} has an exponent");
    let e: i32 = exp.parse().expect("an integer exponent");
    if (-4..DIGITS).contains(&e) {
        let fixed = format!("{x:.*}", (DIGITS - 1 - e) as usize);
        trim_zeros(&fixed).to_string()
    } else {
        format!("{}e{}", trim_zeros(mantissa), exponent(exp))
    }
}

/// `x` as `{fmt}` writes a double with `{}`: the shortest digits that read back as `x`, in
/// fixed notation for decimal exponents from -4 to 15 and as `1e-05`, `1.5e+16` otherwise.
pub(crate) fn shortest(x: f64) -> String {
    if !x.is_finite() {
        return non_finite(x);
    }
    let s = format!("{x:e}");
    let (mantissa, exp) = s.split_once('e').expect("{:e} has an exponent");
    let e: i32 = exp.parse().expect("an integer exponent");
    if (-4..16).contains(&e) {
        format!("{x}")
    } else {
        format!("{mantissa}e{}", exponent(exp))
    }
}

/// A Rust exponent (`-7`, `12`) as C's: a sign and at least two digits (`-07`, `+12`).
fn exponent(exp: &str) -> String {
    let (sign, digits) = match exp.strip_prefix('-') {
        Some(d) => ('-', d),
        None => ('+', exp),
    };
    format!("{sign}{digits:0>2}")
}

/// `1.50000` → `1.5`, `2.00000` → `2`, `100` → `100` (only digits after a point are dropped).
fn trim_zeros(s: &str) -> &str {
    if s.contains('.') {
        s.trim_end_matches('0').trim_end_matches('.')
    } else {
        s
    }
}

/// Infinities and NaN as C's printf writes them.
fn non_finite(x: f64) -> String {
    match x {
        x if x.is_nan() => "nan".into(),
        x if x > 0.0 => "inf".into(),
        _ => "-inf".into(),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    // Expected strings are what printf("%.17e"), printf("%g") and fmt::format("{}") print for
    // these numbers (the C and {fmt} rules, written out by hand).
    #[test]
    fn scientific_is_c_s_e_format() {
        assert_eq!(scientific(1.0, 8), "1.00000000e+00");
        assert_eq!(scientific(-2.5e-7, 8), "-2.50000000e-07");
        assert_eq!(scientific(0.0, 17), "0.00000000000000000e+00");
        assert_eq!(scientific(0.1, 17), "1.00000000000000006e-01");
        assert_eq!(scientific(1.234e123, 8), "1.23400000e+123");
    }

    #[test]
    fn general_is_c_s_g_format_with_six_digits() {
        assert_eq!(general(0.0), "0");
        assert_eq!(general(-0.0), "-0");
        assert_eq!(general(0.5), "0.5");
        assert_eq!(general(2.0), "2");
        assert_eq!(general(-1.25), "-1.25");
        assert_eq!(general(0.1 + 0.2), "0.3");
        assert_eq!(general(123456.0), "123456");
        assert_eq!(general(1234567.0), "1.23457e+06");
        assert_eq!(general(999999.5), "1e+06");
        assert_eq!(general(0.0001), "0.0001");
        assert_eq!(general(0.00001234), "1.234e-05");
        assert_eq!(general(1.0 / 3.0), "0.333333");
        assert_eq!(general(f64::INFINITY), "inf");
    }

    #[test]
    fn shortest_is_fmt_s_default_format() {
        assert_eq!(shortest(0.0), "0");
        assert_eq!(shortest(1.0), "1");
        assert_eq!(shortest(0.1), "0.1");
        assert_eq!(shortest(0.1 + 0.2), "0.30000000000000004");
        assert_eq!(shortest(0.0001), "0.0001");
        assert_eq!(shortest(0.00001), "1e-05");
        assert_eq!(shortest(1e15), "1000000000000000");
        assert_eq!(shortest(1.5e16), "1.5e+16");
    }
}
