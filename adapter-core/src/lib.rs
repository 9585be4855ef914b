//! Tidelink's adapter layer: the `Adapter` trait and the one driver loop, participant YAML
//! files (Chrono's keys) and their checks against the XML, `--check`, and the one entry point
//! of every participant program. The only crate of the coupling stack that knows YAML and clap.
//!
//! The preCICE XML model ([`config`], [`diagnostics`]) and the coupling API with its engines
//! ([`coupling`], [`time`]) are crates of their own below this one, re-exported here under the
//! names adapters use; the mesh files are read by `tidelink-mesh`.

#![warn(missing_docs)]

// `tidelink_adapter_core::…` paths work inside the crate too: testing.rs uses them, as the engine
// tests include that file by path.
extern crate self as tidelink_adapter_core;

pub mod adapter;
/// The coupling API and its backends (the crate `tidelink-coupling`).
pub use tidelink_coupling as coupling;
/// Kahan-compensated coupled time, the one clock of the driver and the engine.
pub use tidelink_coupling::time;
/// The preCICE XML model and its validation (the crate `tidelink-precice-config`).
pub use tidelink_precice_config as config;
/// File-and-line findings shared by the XML and YAML readers.
pub use tidelink_precice_config::diagnostics;
pub mod body_interface;
pub mod capabilities;
pub mod cli;
pub mod driver;
pub mod launcher;
pub mod mesh;
pub mod participant;
mod participant_error;
pub mod progress;
pub mod records;
#[cfg(test)]
mod scripted_coupling_tests;
pub mod signals;
pub mod spec;
#[cfg(any(test, feature = "testing"))]
pub mod testing;

pub use adapter::{Adapter, AdapterError, AdapterResult};
pub use capabilities::Capabilities;
pub use coupling::{Coupling, CouplingData, CouplingError, VertexId};
pub use participant::{Built, Participant};
