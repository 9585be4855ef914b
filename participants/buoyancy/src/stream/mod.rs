//! The stream stand-in: pressure drag of a uniform stream on the points of a plate (for
//! the flap case), in place of a CFD solver such as OpenFOAM. `model` is the physics;
//! `model_yaml`, `adapter` and `participant` make it a coupled participant.

pub mod adapter;
pub mod capabilities;
pub mod model_yaml;
pub mod participant;

pub use tidelink_buoyancy_solver::PlateInStream;
