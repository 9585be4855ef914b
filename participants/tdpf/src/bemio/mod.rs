//! Hydrodynamic coefficients of a BEMIO-layout HDF5 file (WEC-Sim's format), with the
//! normalisation undone: every array here is in SI units, ready for a time-domain model.
//!
//! [`HydroData`] is the whole file; [`BodyHydro`] one `/body{i}` group. Bodies are kept in
//! file order: the i-th body is `/body{i+1}`, which is how coupling bodies are matched.

mod error;
mod reader;
mod types;

pub use error::{BemioError, Shape};
pub use reader::{check_body_names, read};
pub use types::{
    BodyHydro, Excitation, ExcitationIrf, HydroData, RadiationIrf, StateSpace, StateSpaceEntry, WaterDepth,
};
