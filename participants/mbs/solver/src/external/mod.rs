//! External laws: force models that live outside the solver (a user's power take-off or
//! controller, in another process or language) and that force elements call.
//!
//! The solver sees an external model only through [`law::ExternalLaw`] (evaluate, reset,
//! commit, rollback; the transport is the participant's business). [`cache::TimeCache`] makes
//! one call per time level: implicit integrators re-evaluate forces many times at one time
//! (Newton iterations, finite-difference Jacobians), and those evaluations get the output of
//! the first, so the model is explicit within a step. [`link::ExternalLink`] puts a law on a
//! TSDA or RSDA (replacing its spring-damper law or added to it), [`state`] names the channels
//! it sends. [`body_force::ExternalBodyForce`] puts a 6-DOF law on a list of bodies.

pub mod body_force;
pub mod cache;
pub mod law;
pub mod link;
pub mod state;

pub use body_force::ExternalBodyForce;
pub use cache::TimeCache;
pub use law::{ExternalLaw, ExternalLawError, SharedLaw};
pub use link::ExternalLink;
pub use state::{LinkKind, LEAN_CHANNELS, RSDA_CHANNELS, TSDA_CHANNELS};
