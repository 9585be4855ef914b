//! What can go wrong in the SPH participant: its files (each error names the file and line), the
//! solver's set-up and steps, and its output. The solver's and the VTK writer's errors are kept
//! as sources, so the binary prints every cause.

use std::path::PathBuf;
use tidelink_adapter_core::diagnostics::{Diagnostics, Location};
use tidelink_adapter_core::AdapterError;
use tidelink_sph_solver::SphError;
use tidelink_vtk::VtkError;

/// Errors of the SPH participant.
#[derive(Debug, thiserror::Error)]
pub enum Error {
    /// File-and-line findings in the participant or model file.
    #[error(transparent)]
    Files(#[from] Diagnostics),
    /// The participant file's interface does not fit the participant (see `interface`).
    #[error(transparent)]
    Interface(AdapterError),
    /// The participant file names no model file.
    #[error(
        "{}: the SPH participant needs a `model` file (with `sph:` numerics, `fluid:` boxes and the `bodies:` geometry)",
        .0.display()
    )]
    NoModel(PathBuf),
    /// `precice_adapter_config.bodies` is empty.
    #[error(
        "{0}: precice_adapter_config.bodies is empty; list the solid's bodies (name and location), in the order of \
         the solid's list"
    )]
    NoBodies(Location),
    /// An `output.format` the participant does not write.
    #[error(
        "{}: output.format `{format}` is not written by the SPH participant; use CSV (loads CSV, binary .vtu frames), \
         ASCII (text .vtu frames) or NONE",
        file.display()
    )]
    OutputFormat {
        /// The participant file.
        file: PathBuf,
        /// The format asked for.
        format: String,
    },
    /// An `output.fps` that is not a positive number.
    #[error(
        "{}: output.fps must be positive (ParaView frames per second of coupled time), got {fps}",
        file.display()
    )]
    Fps {
        /// The participant file.
        file: PathBuf,
        /// The value given.
        fps: f64,
    },
    /// The built scene has no stable step at its initial state.
    #[error("{}: SPH solver at t = 0 s", file.display())]
    Start {
        /// The participant file.
        file: PathBuf,
        /// The solver's error.
        #[source]
        source: SphError,
    },
    /// The solver failed at coupled time `time`.
    #[error("SPH solver at t = {time} s")]
    Solver {
        /// The coupled time (s).
        time: f64,
        /// The solver's error.
        #[source]
        source: SphError,
    },
    /// The solver could not give the markers for a frame.
    #[error(transparent)]
    Markers(SphError),
    /// A ParaView frame could not be written.
    #[error("writing a ParaView frame")]
    Frame(#[source] VtkError),
    /// A checkpoint was restored before one was written (a driver error).
    #[error("a checkpoint was restored before one was written")]
    NoCheckpoint,
}

tidelink_adapter_core::participant_error_conversions!(Error);

/// The solver's error at coupled time `time`.
pub(crate) fn solver(time: f64) -> impl Fn(SphError) -> Error {
    move |source| Error::Solver { time, source }
}
