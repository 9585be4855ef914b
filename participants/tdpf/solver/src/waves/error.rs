//! Typed errors for wave definitions, so callers can report which input was wrong.

use thiserror::Error;

/// Why a wave, spectrum, ramp or dispersion computation could not be set up.
#[derive(Debug, Clone, PartialEq, Error)]
pub enum WaveError {
    /// A height, period, frequency or depth that must be positive is not.
    #[error("{name} must be finite and positive, got {value}")]
    NotPositive {
        /// The input's name, for the message.
        name: &'static str,
        /// The value given.
        value: f64,
    },
    /// An input that may be zero (a ramp duration, a component amplitude) is negative or not finite.
    #[error("{name} must be finite and not negative, got {value}")]
    Negative {
        /// The input's name, for the message.
        name: &'static str,
        /// The value given.
        value: f64,
    },
    /// An input of any sign (a phase, a heading) is NaN or infinite.
    #[error("{name} must be finite, got {value}")]
    NotFinite {
        /// The input's name, for the message.
        name: &'static str,
        /// The value given.
        value: f64,
    },
    /// JONSWAP's γ below 1 would make the peak smaller than Pierson–Moskowitz's.
    #[error("JONSWAP peak enhancement factor gamma must be finite and >= 1, got {0}")]
    Gamma(f64),
    /// A frequency band that is empty, inverted or has no component.
    #[error(
        "frequency band [{min}, {max}] rad/s with {count} components is invalid (need 0 <= min < max, count >= 1)"
    )]
    Band {
        /// Lower bound (rad/s).
        min: f64,
        /// Upper bound (rad/s).
        max: f64,
        /// Components asked for.
        count: usize,
    },
    /// An imported elevation record with a bad sample (0-based index) or too few samples.
    #[error("elevation record, sample {index}: {reason}")]
    Series {
        /// The first offending sample (0-based).
        index: usize,
        /// What is wrong with it.
        reason: &'static str,
    },
    /// Newton on the finite-depth dispersion relation did not converge.
    #[error("dispersion relation did not converge for omega = {omega} rad/s, depth = {depth} m")]
    NoConvergence {
        /// Wave frequency (rad/s).
        omega: f64,
        /// Water depth (m).
        depth: f64,
    },
}

impl WaveError {
    /// The name of the one input this error is about ("wave period", "Tp", "gamma"), if it is
    /// about one: lets a file reader point at that input's line rather than the wave's.
    pub fn input(&self) -> Option<&'static str> {
        match self {
            WaveError::NotPositive { name, .. }
            | WaveError::Negative { name, .. }
            | WaveError::NotFinite { name, .. } => Some(name),
            WaveError::Gamma(_) => Some("gamma"),
            _ => None,
        }
    }
}

/// `value` if finite and > 0.
pub(crate) fn positive(name: &'static str, value: f64) -> Result<f64, WaveError> {
    if value.is_finite() && value > 0.0 {
        Ok(value)
    } else {
        Err(WaveError::NotPositive { name, value })
    }
}

/// `value` if finite and >= 0.
pub(crate) fn non_negative(name: &'static str, value: f64) -> Result<f64, WaveError> {
    if value.is_finite() && value >= 0.0 {
        Ok(value)
    } else {
        Err(WaveError::Negative { name, value })
    }
}

/// `value` if finite.
pub(crate) fn finite(name: &'static str, value: f64) -> Result<f64, WaveError> {
    if value.is_finite() {
        Ok(value)
    } else {
        Err(WaveError::NotFinite { name, value })
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn an_error_about_one_input_names_it() {
        assert_eq!(positive("wave period", -1.0).unwrap_err().input(), Some("wave period"));
        assert_eq!(WaveError::Gamma(0.5).input(), Some("gamma"));
        assert_eq!(WaveError::Band { min: 1.0, max: 0.0, count: 1 }.input(), None);
    }
}
