//! `tidelink-tdpf`: the time-domain potential-flow (fluid) participant.
//!
//! The physics is the solver library `tidelink-tdpf-solver` (hydrostatics, radiation, waves,
//! excitation, the combined `HydroModel`); the coefficients come from a BEMIO file read by
//! `tidelink-bemio`. This crate is the participant glue on top: [`model_yaml`] (the TDPF model
//! file: Chrono's keys and Tidelink's extensions), [`adapter`] (the preCICE-style adapter: poses
//! and velocities in, forces and torques out, the whole window per call, zero added-mass
//! increments), [`radiation_cache`] (the per-user cache of identified radiation realisations, so
//! the identification runs once per IRF, not at every start), [`error`] (what can go wrong,
//! typed, with the reader's and the model's errors as sources) and [`participant`] (files to a
//! running participant; the `tidelink-tdpf` binary).

#![warn(missing_docs)]

pub mod adapter;
pub mod capabilities;
pub mod error;
pub mod model_yaml;
pub mod participant;
pub mod radiation_cache;
pub mod wave_csv;

pub use error::Error;
pub use participant::run_with_progress;
