//! `tidelink-buoyancy`: stand-in fluid participants. They remove the fluid solver from a
//! coupled set-up without changing anything on the solid side.
//!
//! - `tidelink-buoyancy`: buoyancy and quadratic drag on a sphere from the position and
//!   velocity it receives (sphere_drop). `model` is the physics (no I/O, no coupling);
//!   `model_yaml`, `adapter` and `participant` are the glue.
//! - `tidelink-stream` ([`stream`]): drag of a uniform stream on the points of a plate (the flap).
//!
//! Both are a [`stand_in::StandIn`]: loads that are a function of the motion last read, so a
//! checkpoint is that motion; [`error`] is what either can report.

#![warn(missing_docs)]

pub mod adapter;
pub mod capabilities;
pub mod error;
pub mod model_yaml;
pub mod participant;
pub mod stand_in;
pub mod stream;

pub use error::Error;

pub use participant::run_with_progress;
