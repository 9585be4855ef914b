//! The interface of an external force model, as the solver calls it.

use std::sync::{Arc, Mutex};
use thiserror::Error;

/// Why an external model failed; the message names the model, the operation and what was sent.
#[derive(Debug, Error, Clone, PartialEq)]
#[error("{0}")]
pub struct ExternalLawError(pub String);

/// A force model outside the solver: positional inputs in, positional outputs out.
///
/// `evaluate` is called once per time level (the caller caches, [`super::TimeCache`]);
/// `commit` when the state it reached is accepted (a coupling window is done), `rollback` when
/// the solver goes back to the last accepted state (a repeated window), `reset` to clear its
/// state without restarting it.
pub trait ExternalLaw: Send + std::fmt::Debug {
    /// Outputs for `inputs` at time `t` (s), the step about to be taken being `dt` (s).
    fn evaluate(&mut self, t: f64, dt: f64, inputs: &[f64]) -> Result<Vec<f64>, ExternalLawError>;
    /// Clears the model's state (its connection, if any, stays).
    fn reset(&mut self) -> Result<(), ExternalLawError>;
    /// The state reached is accepted.
    fn commit(&mut self) -> Result<(), ExternalLawError>;
    /// Back to the last committed state.
    fn rollback(&mut self) -> Result<(), ExternalLawError>;
    /// Gets ready before the first step, the solver's step being `dt` (s): a law in another
    /// process starts it here, so that errors come before the run; by default nothing.
    fn start(&mut self, _dt: f64) -> Result<(), ExternalLawError> {
        Ok(())
    }
    /// Begins [`Self::start`] without waiting for it to finish (a process starts up meanwhile);
    /// `start` or the first use completes it. By default nothing.
    fn launch(&mut self, _dt: f64) -> Result<(), ExternalLawError> {
        Ok(())
    }
    /// Ends the law after the last step (a process is told to stop and reaped); by default
    /// nothing.
    fn shutdown(&mut self) -> Result<(), ExternalLawError> {
        Ok(())
    }
}

/// A law shared between a force element, its clones (checkpoints) and whoever owns the model
/// (to commit, roll back and shut it down).
pub type SharedLaw = Arc<Mutex<dyn ExternalLaw>>;

/// A law from a closure, for tests: `reset`, `commit` and `rollback` do nothing.
#[cfg(test)]
pub(crate) struct FnLaw<F>(pub F);

#[cfg(test)]
impl<F> std::fmt::Debug for FnLaw<F> {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str("FnLaw")
    }
}

#[cfg(test)]
impl<F: FnMut(f64, f64, &[f64]) -> Result<Vec<f64>, ExternalLawError> + Send> ExternalLaw for FnLaw<F> {
    fn evaluate(&mut self, t: f64, dt: f64, inputs: &[f64]) -> Result<Vec<f64>, ExternalLawError> {
        (self.0)(t, dt, inputs)
    }
    fn reset(&mut self) -> Result<(), ExternalLawError> {
        Ok(())
    }
    fn commit(&mut self) -> Result<(), ExternalLawError> {
        Ok(())
    }
    fn rollback(&mut self) -> Result<(), ExternalLawError> {
        Ok(())
    }
}
