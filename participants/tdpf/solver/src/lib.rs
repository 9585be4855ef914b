//! `tidelink-tdpf-solver`: linear time-domain potential-flow loads on N floating bodies.
//!
//! Physics only, numerics only: it takes hydrodynamic coefficients as a
//! [`tidelink_hydro_data::HydroData`] (however they were read) and knows nothing of files or
//! coupling. [`hydrostatics`] is the linear restoring force, [`waves`] the wave definitions and
//! spectra, [`radiation`] the radiation memory (convolution or state space), [`excitation`] the
//! wave excitation; [`hydro_model`] combines them into the total load, stepped at a fixed step with
//! the state time explicit in its API. [`frequency_domain`] is the linear steady state in regular
//! waves of the same coefficients, the reference a time-domain run converges to.

#![warn(missing_docs)]

pub mod excitation;
pub mod frequency_domain;
pub mod hydro_model;
pub mod hydrostatics;
pub mod radiation;
#[cfg(any(test, feature = "testing"))]
pub mod testing;
pub mod waves;
