//! Participant YAML files (Chrono-compatible keys).

pub mod model;
pub use model::*;
