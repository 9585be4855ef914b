//! `tidelink-sph-solver`: a weakly compressible SPH fluid (2D and 3D) with walls and rigid
//! bodies made of Adami-type boundary markers, returning the fluid's force and torque on each
//! body. Numerics only: no I/O beyond reading body meshes, no coupling.
//!
//! Formulation (docs/sph.md has the reasoning and the validation):
//! Tait equation of state; Wendland C2 or cubic-spline kernel; artificial (or laminar)
//! viscosity; δ-SPH density diffusion with a hydrostatic correction; symplectic
//! predictor–corrector with CFL and force limits on the step; optional XSPH shifting.
//!
//! Use: describe a [`Scene`] (parameters, fluid boxes, [`BodySpec`]s), [`Scene::build`] it, then
//! per coupling window [`Simulation::set_body_motion`], [`Simulation::start_load_window`],
//! [`Simulation::step`] with `dt ≤` [`Simulation::stable_time_step`], and read
//! [`Simulation::body_loads`] (the window average). [`Simulation::save_state`] and
//! [`Simulation::restore_state`] serve implicit coupling; [`Simulation::marker_snapshot`] gives
//! the walls' and bodies' markers for output.
//!
//! Modules: [`kernel`], [`eos`], [`parameters`], [`geometry`], [`bodies`] (public);
//! particles (SoA sets), neighbours (cell grid), dynamics (pair terms), boundary (Adami),
//! integrator, pipeline (one step), scene, state (crate-internal or re-exported).

#![warn(missing_docs)]

pub mod bodies;
mod boundary;
mod dynamics;
pub mod eos;
mod error;
pub mod geometry;
mod integrator;
pub mod kernel;
mod neighbours;
pub mod parameters;
mod particles;
mod pipeline;
mod scene;
mod snapshot;
mod state;

pub use bodies::{BodyId, BodyLoads, BodySpec, MarkerSource, Motion};
pub use error::{Result, SphError};
pub use geometry::{Shape, TriMesh};
pub use kernel::KernelKind;
pub use parameters::{BoundaryOptions, DensityDiffusion, Dimension, Parameters, Viscosity};
pub use pipeline::Simulation;
pub use scene::Scene;
pub use snapshot::MarkerSnapshot;
pub use state::SphState;
