//! What differentiating a step or linearising a model refuses, worded for users.

use crate::error::MbsError;
use thiserror::Error;

/// Why a derivative or a linear model could not be computed.
#[derive(Debug, Error, Clone, PartialEq)]
pub enum DerivativeError {
    /// The step itself failed (not converged, not finite, a bad element).
    #[error("the step to differentiate failed: {0}")]
    Step(#[from] MbsError),
    /// An input or output names a body handle the system does not have.
    #[error("{what} names body {index}, but the system has {bodies} bodies")]
    UnknownBody {
        /// Which channel (`input 2`, `output 0`).
        what: String,
        /// The handle's index.
        index: usize,
        /// How many bodies there are.
        bodies: usize,
    },
    /// A state selection beyond the state vector.
    #[error("output {what} selects state {index}, but the state has {len} entries (2 × 6 per free body)")]
    StateOutOfRange {
        /// Which channel.
        what: String,
        /// The index asked for.
        index: usize,
        /// The state's length.
        len: usize,
    },
    /// The step length must be positive and finite.
    #[error("the step length must be positive and finite, got {0}")]
    InvalidStep(f64),
    /// The (consistent) Newton matrix of the step, or the reduced mass matrix, is singular.
    #[error("the {0} is singular: check the joints (redundant or conflicting) and the masses")]
    Singular(&'static str),
    /// A seed of the wrong length.
    #[error("a {mode} seed has {got} rows, the derivative has {expected} {what}")]
    SeedShape {
        /// `forward` or `adjoint`.
        mode: &'static str,
        /// Rows given.
        got: usize,
        /// Rows expected.
        expected: usize,
        /// `inputs` or `outputs`.
        what: &'static str,
    },
    /// An extra stiffness block that is not 6 × 6 or not finite.
    #[error("the extra stiffness of body {0} must be a finite 6 × 6 matrix")]
    InvalidStiffness(usize),
}
