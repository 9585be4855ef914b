//! The preCICE XML configuration: model, parser and validation catalogue.

pub mod model;
pub use model::*;
