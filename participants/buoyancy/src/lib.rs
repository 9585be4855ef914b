//! `tidelink-buoyancy`: a stand-in fluid participant that computes the buoyancy and the
//! quadratic drag on a sphere from the position and velocity it receives. It removes the
//! fluid solver from a coupled set-up without changing anything on the solid side.
//!
//! `model` is the physics (no I/O, no coupling); `model_yaml`, `adapter` and `participant`
//! are the glue that turns it into a coupled participant.

pub mod adapter;
pub mod model;
pub mod model_yaml;
pub mod participant;

pub use participant::{run, run_with_progress};
