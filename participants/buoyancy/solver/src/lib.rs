//! `tidelink-buoyancy-solver`: the physics of the stand-in fluids, numerics only.
//!
//! [`sphere`]: buoyancy of the submerged cap and quadratic drag of a sphere in still water
//! (sphere_drop). [`plate`]: pressure drag of a uniform stream on the points of a plate (the flap).

#![warn(missing_docs)]

pub mod plate;
pub mod sphere;

pub use plate::PlateInStream;
pub use sphere::{ModelError, SphereInWater};
