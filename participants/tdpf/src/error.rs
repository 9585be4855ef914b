//! What can go wrong in the TDPF participant: its files (each error names the file and line),
//! the hydrodynamic file's bodies, the load model's set-up and evaluation. The BEMIO reader's and
//! the load model's errors are kept as sources, so the binary prints every cause.

use std::path::PathBuf;
use tidelink_adapter_core::diagnostics::{Diagnostics, Location};
use tidelink_adapter_core::AdapterError;
use tidelink_bemio::BemioError;
use tidelink_tdpf_solver::hydro_model::HydroError;

/// Errors of the TDPF participant.
#[derive(Debug, thiserror::Error)]
pub enum Error {
    /// File-and-line findings in the participant, model or hydrodynamic file.
    #[error(transparent)]
    Files(#[from] Diagnostics),
    /// The participant file's interfaces do not fit the participant.
    #[error(transparent)]
    Interface(AdapterError),
    /// A scheme whose window is not fixed (`method="first-participant"`).
    #[error(
        "{loc}: <coupling-scheme:{tag}> uses time-window-size method=\"first-participant\"; the TDPF participant steps \
         its radiation memory at a fixed window: give <time-window-size value=\"...\"/>"
    )]
    WindowNotFixed {
        /// The scheme's line.
        loc: Location,
        /// Its tag, e.g. `serial-explicit`.
        tag: String,
    },
    /// Two schemes with different windows.
    #[error(
        "{loc}: window {window} s differs from {other} s of another scheme; the TDPF participant needs one window"
    )]
    Windows {
        /// The second scheme's line.
        loc: Location,
        /// Its window (s).
        window: f64,
        /// The first scheme's window (s).
        other: f64,
    },
    /// The participant is in no coupling scheme.
    #[error("{}: participant `{name}` takes part in no coupling scheme", config.display())]
    NoScheme {
        /// The preCICE XML.
        config: PathBuf,
        /// The participant.
        name: String,
    },
    /// The participant file names no model file.
    #[error("{}: the TDPF participant needs a `model` file (with `model: {{h5_file, waves}}`)", .0.display())]
    NoModel(PathBuf),
    /// `precice_adapter_config.bodies` is empty.
    #[error("{0}: precice_adapter_config.bodies is empty; list the hydrodynamic bodies in file order")]
    NoBodies(Location),
    /// The participant file's bodies do not match the hydrodynamic file's.
    #[error("{loc}: the bodies of precice_adapter_config (i-th body = /body{{i+1}})")]
    BodyNames {
        /// The bodies' list.
        loc: Location,
        /// The mismatch.
        #[source]
        source: Box<BemioError>,
    },
    /// The load model cannot be built from the hydrodynamic file.
    #[error("{loc}: the hydrodynamic model of {} cannot be built", file.display())]
    Model {
        /// Where the model file names the hydrodynamic file (`h5_file`).
        loc: Location,
        /// The hydrodynamic file.
        file: PathBuf,
        /// Why.
        #[source]
        source: HydroError,
    },
    /// A body without its initial reference point.
    #[error("{loc}: body `{body}` needs a `location` (its initial reference point: the coupling vertex)")]
    NoLocation {
        /// The body's entry.
        loc: Location,
        /// Its name.
        body: String,
    },
    /// Not as many coupling bodies as the model has.
    #[error("{coupling} coupling bodies but a hydrodynamic model of {model}")]
    BodyCount {
        /// Coupling bodies.
        coupling: usize,
        /// Bodies of the model.
        model: usize,
    },
    /// The model's step is not the coupling window.
    #[error("model step {model} s differs from the window {window} s")]
    ModelStep {
        /// The model's step (s).
        model: f64,
        /// The window (s).
        window: f64,
    },
    /// The load model failed during the run.
    #[error("participant `{participant}`")]
    Solver {
        /// The participant.
        participant: String,
        /// The load model's error.
        #[source]
        source: HydroError,
    },
    /// `advance` came before the window's states were read (a driver error).
    #[error("participant `{participant}`: advance without reading states")]
    NotRead {
        /// The participant.
        participant: String,
    },
    /// A checkpoint was restored before one was written (a driver error).
    #[error("participant `{participant}`: a checkpoint was restored before one was written")]
    NoCheckpoint {
        /// The participant.
        participant: String,
    },
}

tidelink_adapter_core::participant_error_conversions!(Error);
