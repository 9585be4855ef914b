//! `tidelink-mbs`: the multibody (solid) participant.
//!
//! The solver library — [`body`], [`added_mass`], [`body_set`], [`joint`] and [`constraint`], force
//! elements ([`force_element`], [`tsda`], [`rsda`]), [`assembly`] with [`colouring`], the
//! integrators ([`integrator`], [`hht`], [`euler_implicit`], [`newton`]), [`state`],
//! [`system`], [`shape`], [`error`] — is physics only, with no I/O and no knowledge of coupling. The rest is participant glue:
//! Chrono's model and solver YAML files ([`model_yaml`], [`solver_yaml`]), the coupling
//! adapter ([`adapter`]), CSV output ([`output`]) and the entry point ([`participant`]).

pub mod added_mass;
pub mod assembly;
pub mod body;
pub mod body_set;
pub mod colouring;
pub mod constraint;
pub mod error;
pub mod euler_implicit;
pub mod force_element;
pub mod hht;
pub mod integrator;
pub mod joint;
pub mod newton;
pub mod rsda;
pub mod shape;
pub mod state;
pub mod system;
pub mod tsda;

pub mod adapter;
pub mod added_mass_exchange;
pub mod added_mass_source;
pub mod flap;
pub mod hdf5_output;
pub mod model_yaml;
pub mod output;
pub mod participant;
pub mod plot;
mod shape_yaml;
pub mod solver_yaml;

pub use added_mass::{AddedMass, AddedMassError, Frame, ReferencePoint};
pub use body::{RigidBody, RigidBodyBuilder};
pub use body_set::{BodyHandle, BodySet};
pub use error::MbsError;
pub use euler_implicit::LinearizedImplicitEuler;
pub use force_element::{ForceElement, ForceElementSet, Wrench};
pub use hht::Hht;
pub use integrator::{Integrator, SemiImplicitEuler};
pub use joint::{Joint, JointKind, JointSet};
pub use participant::{run, run_with_progress, RunReport};
pub use rsda::Rsda;
pub use shape::{BodyShape, ShapeKind};
pub use state::{BodySetState, BodyState, IntegratorHistory};
pub use system::MultibodySystem;
pub use tsda::Tsda;
