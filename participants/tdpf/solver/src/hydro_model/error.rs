//! Typed errors of the load model, so the participant can say which input was wrong.

use crate::excitation::ExcitationError;
use crate::radiation::RadiationError;
use crate::waves::WaveError;
use thiserror::Error;

/// Why a [`super::HydroModel`] could not be built or evaluated.
#[derive(Debug, Clone, PartialEq, Error)]
pub enum HydroError {
    /// `HydroOptions::bodies` is zero.
    #[error("the model needs at least one body")]
    NoBodies,
    /// The model asks for more bodies than the file has.
    #[error("the model has {ours} bodies but the hydrodynamic file only {in_file}")]
    TooFewBodies {
        /// Bodies the model asks for.
        ours: usize,
        /// Bodies in the file.
        in_file: usize,
    },
    /// An evaluation with a different number of states than bodies.
    #[error("{got} body states given, the model has {expected} bodies")]
    StateCount {
        /// States given.
        got: usize,
        /// Bodies of the model.
        expected: usize,
    },
    /// An evaluation off the radiation history's clock (tdpf-loads.md §7): never re-stamped silently.
    #[error(
        "loads requested for states at t = {t} s, but the radiation history is stepped at dt = {dt} s and its next \
         sample is t = {expected} s: evaluate once per step, at k·dt, in order"
    )]
    StateTime {
        /// The time asked for (s).
        t: f64,
        /// The history's next sample time (s).
        expected: f64,
        /// The history's step (s).
        dt: f64,
    },
    /// A body state with NaN or infinity, which would poison the radiation history.
    #[error("body {body}: state contains a non-finite value")]
    NonFiniteState {
        /// The body index.
        body: usize,
    },
    /// The radiation model could not be built or stepped.
    #[error("radiation")]
    Radiation(#[from] RadiationError),
    /// A body's excitation model could not be built.
    #[error("excitation of body {body}")]
    Excitation {
        /// The body index.
        body: usize,
        /// Why.
        source: ExcitationError,
    },
    /// The wave specification is invalid.
    #[error("waves")]
    Wave(#[from] WaveError),
}

#[cfg(test)]
mod tests {
    use super::*;

    /// The whole chain, as the participants print it (each cause after a colon).
    fn chain(e: &dyn std::error::Error) -> String {
        let mut text = e.to_string();
        let mut cause = e.source();
        while let Some(c) = cause {
            text += &format!(": {c}");
            cause = c.source();
        }
        text
    }

    #[test]
    fn a_wrapped_cause_is_said_once() {
        let e = HydroError::from(RadiationError::MissingIrf(0));
        assert_eq!(chain(&e), "radiation: body 0 has no radiation IRF");
        let e = HydroError::Excitation { body: 1, source: ExcitationError::NoIrf };
        assert_eq!(chain(&e).matches(&ExcitationError::NoIrf.to_string()).count(), 1, "{}", chain(&e));
    }
}
