//! `tidelink-mbs-solver`: a rigid multibody solver, physics only (no I/O, no coupling).
//!
//! Laid out after rapier: [`dynamics`] holds what moves and what connects it (bodies in a set
//! with handles, joints built from constraint rows, force elements), [`solver`] how a step is
//! taken (assembly of the Newton matrix, colouring, Newton, the integrators), [`added_mass`] the
//! infinite-frequency added mass in the mass matrix, [`system`] the model and the
//! [`MultibodySystem`] that one integrator advances, [`geometry`] the shapes attached to bodies,
//! [`state`] bitwise save and restore, [`external`] force laws evaluated outside the solver
//! (a user's power take-off in another process), once per time level; [`derivatives`] the
//! derivatives of a step (forward and adjoint) and linear state-space models; [`fixtures`] small
//! ready-made systems that tests share.

#![warn(missing_docs)]

pub mod added_mass;
pub mod derivatives;
pub mod dynamics;
pub mod error;
pub mod external;
pub mod fixtures;
pub mod geometry;
pub mod solver;
pub mod state;
pub mod system;

pub use added_mass::{AddedMass, AddedMassError, Frame, ReferencePoint};
pub use derivatives::{DerivativeError, Input, LinearModel, Output, StepDerivative};
pub use dynamics::body::{RigidBody, RigidBodyBuilder};
pub use dynamics::body_set::{BodyHandle, BodySet};
pub use dynamics::force_element::{ForceElement, ForceElementSet, StepStart, Wrench};
pub use dynamics::joint::{Joint, JointKind, JointSet};
pub use dynamics::rsda::Rsda;
pub use dynamics::tsda::Tsda;
pub use error::MbsError;
pub use external::{ExternalBodyForce, ExternalLaw, ExternalLawError, ExternalLink, SharedLaw};
pub use geometry::shape::{BodyShape, ShapeKind};
pub use solver::bdf::Bdf;
pub use solver::euler_implicit::LinearizedImplicitEuler;
pub use solver::hht::Hht;
pub use solver::integrator::{Integrator, Mechanism, SemiImplicitEuler};
pub use state::{BodySetState, BodyState, IntegratorHistory, NewtonFactors};
pub use system::model::Model;
pub use system::MultibodySystem;
