//! `tidelink-mbs`: the multibody (solid) participant.
//!
//! The physics is the solver library `tidelink-mbs-solver`; this crate makes it a coupled
//! participant. [`io`] reads Chrono's model and solver YAML files into solver structs and writes
//! the outputs (CSV, HDF5, PNG); [`added_mass`] is where the added mass comes from (a BEMIO file or
//! inline blocks) and how per-window increments are exchanged; [`adapter`] is the coupling
//! adapter (meshes, data exchange, checkpoints, output, pacing); [`participant`] turns the files
//! into a ready adapter; [`flap`] builds the flap case's solid in code; [`linearize`] is the
//! `tidelink-mbs linearize` subcommand (a state-space model of the model). A user's force module (a
//! power take-off law in Python or MATLAB) runs in its own process through `tidelink-pto`.

#![warn(missing_docs)]

pub mod adapter;
pub mod added_mass;
pub mod capabilities;
pub mod coupling_body;
pub mod error;
pub mod flap;
pub mod io;
pub mod linearize;
pub mod participant;

pub use error::Error;
pub use participant::{run, run_with_progress, RunReport};
