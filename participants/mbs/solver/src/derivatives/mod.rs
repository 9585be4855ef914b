//! Derivatives of the solver's step and linear models of a system (docs/derivatives.md):
//!
//! - [`step::StepDerivative`]: how one backward-Euler step's end state (positions, rotations,
//!   velocities of bodies and of points on them, or plain state entries) changes with the loads
//!   held over the step (forces at points, torques). Forward and adjoint seeds from one
//!   assembly and one factorisation of the step's consistent Newton matrix; both modes are
//!   exact transposes of each other. Each value owns its workspace, so several models (FMU
//!   instances, threads) are differentiated side by side.
//! - [`linearize::linearize`]: the continuous-time state-space model `(A, B, C, D)` around a
//!   state, one state per degree of freedom the joints leave ([`partition`]).

pub mod channels;
pub mod consistent;
pub mod error;
pub mod factor;
pub mod linearize;
pub mod partition;
pub mod rotation;
pub mod step;
#[cfg(test)]
mod tests;
pub mod transition;
pub mod verify;

pub use channels::{Input, Output};
pub use error::DerivativeError;
pub use linearize::{linearize, ExtraStiffness, LinearModel};
pub use step::StepDerivative;
pub use transition::{chain, StepTransition};
