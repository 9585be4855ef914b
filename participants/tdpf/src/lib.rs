//! `tidelink-tdpf`: the time-domain potential-flow (fluid) participant.
//!
//! The solver library is physics only: hydrodynamic coefficients read from a BEMIO-layout
//! HDF5 file ([`bemio`]), wave definitions and spectra ([`waves`]) and the radiation memory
//! ([`radiation`]). The participant glue (YAML, adapter) sits on top of them.

pub mod bemio;
pub mod excitation;
pub mod hydrostatics;
pub mod radiation;
pub mod waves;
