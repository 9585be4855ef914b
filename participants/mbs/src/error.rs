//! The MBS participant's own failures, typed: a solver step, a checkpoint, an external module,
//! the flap's model. Each keeps the error it comes from as its source (and says it in its
//! message, as users read it); the adapter hooks hand them on as
//! [`AdapterError::Participant`](tidelink_adapter_core::AdapterError::Participant).
//! Configuration mistakes stay [`AdapterError::Config`](tidelink_adapter_core::AdapterError::Config)
//! and unsupported choices [`AdapterError::Unsupported`](tidelink_adapter_core::AdapterError::Unsupported).

use thiserror::Error;
use tidelink_adapter_core::AdapterError;
use tidelink_mbs_solver::{ExternalLawError, MbsError};

/// What failed while the participant was built, stepped or checkpointed.
#[derive(Debug, Error)]
pub enum Error {
    /// The integrator could not take a step (Newton diverged, a singular matrix).
    #[error("the {integrator} step of {dt} s at t = {time} failed: {source}")]
    Step {
        /// The integrator's name.
        integrator: String,
        /// The step (s).
        dt: f64,
        /// Its start (s).
        time: f64,
        /// The solver's error.
        #[source]
        source: Box<MbsError>,
    },
    /// A window was repeated before any checkpoint was saved (a driver bug).
    #[error("asked to restore a checkpoint that was never written")]
    NoCheckpoint,
    /// The saved state no longer fits the system.
    #[error(transparent)]
    Restore(Box<MbsError>),
    /// An external module failed; its message names the module, the op and what was sent.
    #[error("{op} of `{name}`: {source}")]
    Module {
        /// What was being done, e.g. `committing the external module`.
        op: &'static str,
        /// The link or body force it drives.
        name: String,
        /// The module's error.
        #[source]
        source: ExternalLawError,
    },
    /// An external module's lock was poisoned by a failure in another thread.
    #[error("`{name}`: its module failed earlier")]
    ModuleFailedEarlier {
        /// The link or body force it drives.
        name: String,
    },
    /// A coupling body's handle is not in the body set (bodies removed after coupling).
    #[error("no body `{name}`")]
    NoBody {
        /// The coupling body.
        name: String,
    },
    /// The flap's model could not be built from its settings.
    #[error("building the flap: {0}")]
    Flap(#[source] Box<MbsError>),
}

impl From<Error> for AdapterError {
    fn from(e: Error) -> Self {
        AdapterError::participant(e)
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use std::error::Error as _;

    /// A failed step reaches the driver as a participant error whose text is the one users
    /// read, with the solver's error kept as its source and printed once in the chain.
    #[test]
    fn a_failed_step_keeps_the_solvers_error_as_its_source() {
        let e = AdapterError::from(Error::Step {
            integrator: "HHT".into(),
            dt: 0.01,
            time: 1.5,
            source: Box::new(MbsError::Diverged(2)),
        });
        let text = "the HHT step of 0.01 s at t = 1.5 failed: body 2 left the finite range during the step \
                    (its state is NaN or infinite)";
        assert!(matches!(e, AdapterError::Participant(_)));
        assert_eq!(e.to_string(), text);
        let source = e.source().expect("the solver's error");
        assert_eq!(source.to_string(), MbsError::Diverged(2).to_string());
        assert_eq!(tidelink_adapter_core::participant::chain(&e), text);
    }
}
