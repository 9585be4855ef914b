//! Typed errors for wave definitions, so callers can report which input was wrong.

use thiserror::Error;

/// Why a wave, spectrum, ramp or dispersion computation could not be set up.
#[derive(Debug, Clone, PartialEq, Error)]
pub enum WaveError {
    #[error("{name} must be finite and positive, got {value}")]
    NotPositive { name: &'static str, value: f64 },
    #[error("{name} must be finite and not negative, got {value}")]
    Negative { name: &'static str, value: f64 },
    #[error("{name} must be finite, got {value}")]
    NotFinite { name: &'static str, value: f64 },
    #[error("JONSWAP peak enhancement factor gamma must be finite and >= 1, got {0}")]
    Gamma(f64),
    #[error(
        "frequency band [{min}, {max}] rad/s with {count} components is invalid (need 0 <= min < max, count >= 1)"
    )]
    Band { min: f64, max: f64, count: usize },
    #[error("dispersion relation did not converge for omega = {omega} rad/s, depth = {depth} m")]
    NoConvergence { omega: f64, depth: f64 },
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
