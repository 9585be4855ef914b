//! `tidelink-tdpf`: the time-domain potential-flow (fluid) participant.
//!
//! The solver library is physics only: hydrodynamic coefficients read from a BEMIO-layout
//! HDF5 file ([`bemio`]), linear hydrostatics ([`hydrostatics`]), wave definitions and spectra
//! ([`waves`]), the radiation memory ([`radiation`]) and the wave excitation ([`excitation`]);
//! [`hydro_model`] combines them into the total load on N bodies, stepped at the coupling window,
//! with the state time explicit in its API.
//!
//! The participant glue sits on top: [`model_yaml`] (the TDPF model file: Chrono's keys and
//! Tidelink's extensions), [`adapter`] (the preCICE-style adapter: poses and velocities in, forces
//! and torques out, the whole window per call, zero added-mass increments) and [`participant`]
//! (files to a running participant; the `tidelink-tdpf` binary).

pub mod adapter;
pub mod bemio;
pub mod excitation;
pub mod hydro_model;
pub mod hydrostatics;
pub mod model_yaml;
pub mod participant;
pub mod radiation;
pub mod waves;

pub use participant::{run, run_with_progress};
