//! Typed errors of the excitation models: what was asked that the hydrodynamic file cannot give.

use crate::waves::WaveError;
use thiserror::Error;

/// Why an excitation model could not be built.
#[derive(Debug, Clone, PartialEq, Error)]
pub enum ExcitationError {
    /// The model asks for a body the file does not have.
    #[error("body index {index} is out of range: the file has {count} bodies")]
    Body {
        /// The body index asked for (from 0).
        index: usize,
        /// Bodies in the file.
        count: usize,
    },
    /// The wave frequency lies outside the BEM frequencies; extrapolating X would be a guess.
    #[error("wave frequency {omega} rad/s is outside the excitation data [{min}, {max}] rad/s (no extrapolation)")]
    FrequencyOutOfRange {
        /// The frequency asked for (rad/s).
        omega: f64,
        /// Lowest BEM frequency (rad/s).
        min: f64,
        /// Highest BEM frequency (rad/s).
        max: f64,
    },
    /// The wave heading lies outside the BEM headings.
    #[error("wave heading {heading}° is outside the file's headings [{min}, {max}]° (no wrap-around)")]
    HeadingOutOfRange {
        /// The heading asked for (degrees).
        heading: f64,
        /// Lowest heading of the file (degrees).
        min: f64,
        /// Highest heading of the file (degrees).
        max: f64,
    },
    /// The file has no excitation coefficients at all (a radiation-only import, such as one from
    /// WAMIT's `.1`/`.hst` without its `.3`): only still water can be modelled with it.
    #[error(
        "the hydrodynamic file has no excitation coefficients (radiation and hydrostatics only): \
         use `waves: {{type: NO_WAVE}}` (an excitation may still be applied as an external force), or a file with excitation"
    )]
    Missing,
    /// IRF excitation was chosen but the file has no `excitation/impulse_response_fun`.
    #[error("the file has no excitation impulse response function for this body")]
    NoIrf,
    /// Excitation data that is no usable table: unsorted grids, wrong shapes, a short IRF.
    #[error("malformed excitation data: {0}")]
    Malformed(String),
    /// The wave the excitation is built for is invalid.
    #[error(transparent)]
    Wave(#[from] WaveError),
}
