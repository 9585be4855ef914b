//! Typed errors of the load model, so the participant can say which input was wrong.

use crate::excitation::ExcitationError;
use crate::radiation::RadiationError;
use crate::waves::WaveError;
use thiserror::Error;

/// Why a [`super::HydroModel`] could not be built or evaluated.
#[derive(Debug, Clone, PartialEq, Error)]
pub enum HydroError {
    #[error("the model needs at least one body")]
    NoBodies,
    #[error("the model has {ours} bodies but the hydrodynamic file only {in_file}")]
    TooFewBodies { ours: usize, in_file: usize },
    #[error("{got} body states given, the model has {expected} bodies")]
    StateCount { got: usize, expected: usize },
    #[error(
        "loads requested for states at t = {t} s, but the radiation history is stepped at dt = {dt} s and its next \
         sample is t = {expected} s: evaluate once per step, at k·dt, in order"
    )]
    StateTime { t: f64, expected: f64, dt: f64 },
    #[error("body {body}: state contains a non-finite value")]
    NonFiniteState { body: usize },
    #[error("radiation: {0}")]
    Radiation(#[from] RadiationError),
    #[error("excitation of body {body}: {source}")]
    Excitation { body: usize, source: ExcitationError },
    #[error("waves: {0}")]
    Wave(#[from] WaveError),
}
