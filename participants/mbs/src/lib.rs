//! `tidelink-mbs`: the multibody (solid) participant.
//!
//! The solver library — [`body`], [`body_set`], [`integrator`], [`state`], [`error`] — is
//! physics only: free and fixed rigid bodies, gravity, load accumulators and time
//! integration, with no I/O and no knowledge of coupling. The rest is participant glue:
//! Chrono's model and solver YAML files ([`model_yaml`], [`solver_yaml`]), the coupling
//! adapter ([`adapter`]), CSV output ([`output`]) and the entry point ([`participant`]).

pub mod body;
pub mod body_set;
pub mod error;
pub mod integrator;
pub mod state;

pub mod adapter;
pub mod model_yaml;
pub mod output;
pub mod participant;
pub mod solver_yaml;

pub use body::{RigidBody, RigidBodyBuilder};
pub use body_set::{BodyHandle, BodySet};
pub use error::MbsError;
pub use integrator::{Integrator, SemiImplicitEuler};
pub use participant::{run, run_with_progress, RunReport};
pub use state::{BodySetState, BodyState};
