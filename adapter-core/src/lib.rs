//! Tidelink's shared adapter core: the coupling API and its native engine, the
//! preCICE XML model, participant YAML files, the `Adapter` trait and the driver loop.

#![warn(missing_docs)]

// `tidelink_adapter_core::…` paths work inside the crate too: testing.rs uses them, as the engine
// tests include that file by path.
extern crate self as tidelink_adapter_core;

pub mod adapter;
pub mod body_interface;
pub mod cli;
pub mod config;
pub mod coupling;
pub mod diagnostics;
pub mod driver;
pub mod launcher;
pub mod mesh;
pub mod participant;
pub mod progress;
pub mod records;
#[cfg(test)]
mod scripted_coupling_tests;
pub mod spec;
#[cfg(any(test, feature = "testing"))]
pub mod testing;
pub mod time;

pub use adapter::{Adapter, AdapterError, AdapterResult};
pub use coupling::{Coupling, CouplingData, CouplingError, VertexId};
pub use participant::{Built, Participant};
