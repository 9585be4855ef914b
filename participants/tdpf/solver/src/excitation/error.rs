//! Typed errors of the excitation models: what was asked that the hydrodynamic file cannot give.

use crate::waves::WaveError;
use thiserror::Error;

/// Why an excitation model could not be built.
#[derive(Debug, Clone, PartialEq, Error)]
pub enum ExcitationError {
    #[error("body index {index} is out of range: the file has {count} bodies")]
    Body { index: usize, count: usize },
    #[error("wave frequency {omega} rad/s is outside the excitation data [{min}, {max}] rad/s (no extrapolation)")]
    FrequencyOutOfRange { omega: f64, min: f64, max: f64 },
    #[error("wave heading {heading}° is outside the file's headings [{min}, {max}]° (no wrap-around)")]
    HeadingOutOfRange { heading: f64, min: f64, max: f64 },
    #[error("the file has no excitation impulse response function for this body")]
    NoIrf,
    #[error("malformed excitation data: {0}")]
    Malformed(String),
    #[error(transparent)]
    Wave(#[from] WaveError),
}
