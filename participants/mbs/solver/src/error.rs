//! Errors of the rigid-body solver library (typed, so the adapter can word them for users).

use crate::added_mass::AddedMassError;
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
    StateMismatch {
        /// Bodies in the saved state.
        saved: usize,
        /// Bodies in the set it was restored into.
        actual: usize,
    },
    /// The integration produced NaN or infinity (a load or a step size out of range).
    #[error("body {0} left the finite range during the step (its state is NaN or infinite)")]
    Diverged(usize),
    /// A joint or force element that cannot be built as given.
    #[error("`{name}` {why}")]
    InvalidElement {
        /// The element's name in the model.
        name: String,
        /// What is wrong, worded to follow the name.
        why: String,
    },
    /// HHT's α outside its stable range.
    #[error("HHT alpha must lie in [-1/3, 0], got {0}")]
    InvalidAlpha(f64),
    /// An integrator setting out of range.
    #[error("{0}")]
    InvalidSetting(String),
    /// A feature the chosen integrator does not have.
    #[error("{0}")]
    Unsupported(&'static str),
    /// The Newton step was NaN or infinite (a singular matrix: redundant or degenerate joints,
    /// a zero mass direction, or loads out of range).
    #[error("the Newton step at t = {time} s is not finite (singular Newton matrix); elements involved: {}", elements.join(", "))]
    NonFiniteNewtonStep {
        /// The time at the start of the step (s).
        time: f64,
        /// The joints and force elements (the free bodies when there are none), as suspects.
        elements: Vec<String>,
    },
    /// Newton did not meet its tolerances within the allowed iterations.
    #[error("Newton did not converge at t = {time} s after {iterations} iterations (constraint residual {residual:e}); reduce the time step or raise max_iterations")]
    NotConverged {
        /// The time at the start of the step (s).
        time: f64,
        /// Iterations taken.
        iterations: usize,
        /// The largest constraint residual `|Φ|∞` at the last iteration.
        residual: f64,
    },
    /// The `analytical` Jacobian policy was asked for and these elements give no analytical
    /// Jacobian (or none at the current state).
    #[error("the Jacobian policy `analytical` needs an analytical Jacobian of every force element; {} give none (use policy `hybrid` or `auto` to difference them)", .0.join(", "))]
    NoAnalyticalJacobian(Vec<String>),
    /// The linear solver named in the solver file cannot solve this system (not a chain for
    /// `block_tridiagonal`, no convergence for `block_gauss_seidel`).
    #[error(transparent)]
    LinearSolver(#[from] crate::solver::linear::LinearError),
    /// Added-mass coefficients refused (shape, handle, symmetry, positive definiteness).
    #[error(transparent)]
    AddedMass(#[from] AddedMassError),
    /// An integrator without a mass matrix in its step cannot take `A∞` (it is no force).
    #[error("the {0} integrator cannot take infinite-frequency added mass, which must enter the mass matrix of an implicit step; use HHT or Euler_implicit_linearized")]
    AddedMassUnsupported(&'static str),
    /// An element's external model failed (its message names the model, the operation and
    /// what was sent).
    #[error("`{name}`: {message}")]
    External {
        /// The element's name in the model.
        name: String,
        /// What went wrong.
        message: String,
    },
}
