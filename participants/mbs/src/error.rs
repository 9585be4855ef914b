//! Errors of the rigid-body solver library (typed, so the adapter can word them for users).

use thiserror::Error;

/// What the solver refuses: bad mass properties, unknown handles, a state that blew up.
#[derive(Debug, Error, Clone, PartialEq)]
pub enum MbsError {
    /// A free body needs a positive, finite mass.
    #[error("the mass must be positive and finite, got {0}")]
    InvalidMass(f64),
    /// The inertia tensor must be symmetric positive definite (all principal moments > 0).
    #[error("the inertia tensor is not positive definite (principal moments {0:?}); check moments and products")]
    InvalidInertia([f64; 3]),
    /// A value that must be finite is not (NaN or infinite input).
    #[error("{0} is not finite")]
    NotFinite(&'static str),
    /// A handle that does not belong to this body set.
    #[error("no body with handle {0}")]
    UnknownHandle(usize),
    /// A saved state of another body set (different number of bodies).
    #[error("the saved state holds {saved} bodies, the body set {actual}")]
    StateMismatch { saved: usize, actual: usize },
    /// The integration produced NaN or infinity (a load or a step size out of range).
    #[error("body {0} left the finite range during the step (its state is NaN or infinite)")]
    Diverged(usize),
}
