//! What can go wrong in the stand-in participants: their files (each error names the file and
//! line) and their interfaces. The points reader's error is kept as a source, so the binary
//! prints every cause.

use std::path::PathBuf;
use tidelink_adapter_core::diagnostics::{Diagnostics, Location};
use tidelink_adapter_core::AdapterError;

/// Errors of `tidelink-buoyancy` and `tidelink-stream`.
#[derive(Debug, thiserror::Error)]
pub enum Error {
    /// File-and-line findings in the participant or model file.
    #[error(transparent)]
    Files(#[from] Diagnostics),
    /// The participant file's interface does not fit the participant.
    #[error(transparent)]
    Interface(#[from] AdapterError),
    /// The participant file names no model file.
    #[error("{}: the {who} participant needs a `model` file (with a `{who}:` section: {keys})", file.display())]
    NoModel {
        /// The participant file.
        file: PathBuf,
        /// The participant's kind and its model file's section, `buoyancy` or `stream`.
        who: &'static str,
        /// The section's keys, as a list.
        keys: &'static str,
    },
    /// The stream participant's file does not list exactly one body.
    #[error("{0}: the stream participant loads one plate: list exactly one body, with its `points`")]
    OnePlate(Location),
    /// The plate has no `points`.
    #[error("{loc}: body `{body}` needs `points` (a list or a file of the plate's points)")]
    NoPoints {
        /// The body's entry.
        loc: Location,
        /// Its name.
        body: String,
    },
    /// The plate's points cannot be read.
    #[error("{loc}: the points of body `{body}`")]
    Points {
        /// The body's entry.
        loc: Location,
        /// Its name.
        body: String,
        /// The reader's error.
        #[source]
        source: Box<dyn std::error::Error + Send + Sync + 'static>,
    },
    /// A checkpoint was restored before one was written (a driver error).
    #[error("a checkpoint was restored before one was written")]
    NoCheckpoint,
}

tidelink_adapter_core::participant_error_conversions!(Error);
