//! `tidelink-bemio`: reads BEMIO-layout HDF5 hydrodynamic files (WEC-Sim's format) into
//! [`HydroData`], with BEMIO's normalisation undone so that every array is in SI units.
//!
//! The data model lives in `tidelink-hydro-data` (numerics only), so solver libraries can use
//! it without linking HDF5; this crate is the only one that opens the files. Bodies are kept in
//! file order: the i-th body is `/body{i+1}`, which is how coupling bodies are matched
//! ([`check_body_names`]).

#![warn(missing_docs)]

mod body;
mod error;
mod h5;
mod names;
mod read;

pub use error::{BemioError, Shape};
pub use names::check_body_names;
pub use read::read;
pub use tidelink_hydro_data::{
    BodyHydro, Excitation, ExcitationIrf, HydroData, RadiationIrf, StateSpace, StateSpaceEntry, WaterDepth,
};
