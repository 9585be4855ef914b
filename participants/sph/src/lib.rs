//! `tidelink-sph`: the SPH fluid participant. It builds its own marker proxies of the solid's
//! bodies, moves them as the poses and velocities it reads prescribe, advances the fluid in
//! sub-steps inside each coupling window and writes back each body's window-averaged force and
//! torque (RIGID_BODY_REFS). Physics in `tidelink-sph-solver`; here the glue:
//!
//! - [`model_yaml`]: the fluid model file (numerics, tank, fluid blocks, body geometry);
//! - [`interface`]: which coupling data the participant file names, checked before connecting;
//! - [`adapter`]: the `Adapter` (read motion, sub-step, write loads, checkpoints);
//! - [`error`]: what can go wrong, typed, the solver's and the writer's errors as sources;
//! - [`output`]: ParaView frames (`.vtu` + `.pvd`) and the body loads CSV;
//! - [`participant`]: the files into a ready adapter, behind the shared entry point.

#![warn(missing_docs)]

pub mod adapter;
pub mod capabilities;
pub mod error;
pub mod interface;
pub mod model_checks;
pub mod model_yaml;
pub mod output;
pub mod participant;

pub use error::Error;
pub use participant::run_with_progress;
