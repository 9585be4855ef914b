//! The added mass of the coupled bodies, on the participant side: where the coefficients come
//! from ([`source`]: the preCICE XML's request, a BEMIO file or inline blocks, frames and
//! reference points) and how a fluid's per-window increments are read ([`exchange`]). The
//! coefficients themselves and their place in the mass matrix are `tidelink_mbs_solver::added_mass`.

pub mod exchange;
pub mod source;

use thiserror::Error;
use tidelink_adapter_core::diagnostics::Location;
use tidelink_adapter_core::AdapterError;
use tidelink_bemio::BemioError;
use tidelink_mbs_solver::added_mass::AddedMassError;
use tidelink_mbs_solver::MbsError;

/// Why the added mass could not be set up or updated; the message names the entry of the
/// participant file (or the window) and keeps the reader's or the solver's reason.
#[derive(Debug, Error)]
pub enum SetupError {
    /// The BEMIO file of `added_mass.h5_filename` cannot be read or does not fit the bodies.
    #[error("{loc}: added_mass.h5_filename `{filename}`: {source}")]
    File {
        /// The entry.
        loc: Location,
        /// The file as given.
        filename: String,
        /// The reader's error.
        #[source]
        source: BemioError,
    },
    /// The coefficients of an entry are refused (shape, symmetry, reference points).
    #[error("{loc}: {source}")]
    Coefficients {
        /// The entry (or its file's line).
        loc: Location,
        /// The coefficients' error.
        #[source]
        source: AddedMassError,
    },
    /// Zero coefficients on the coupling bodies (the baseline of a dynamic exchange) are refused.
    #[error("{0}")]
    Zero(#[source] AddedMassError),
    /// The added mass is refused by the system (`M + A` not positive definite, bodies unknown).
    #[error("{0}")]
    Refused(#[source] MbsError),
    /// The increments received for a window make the added mass unusable.
    #[error(
        "the added mass received for the window starting at t = {time} (baseline + increments of {senders}) is \
         refused: {source}"
    )]
    Increments {
        /// The window's start (s).
        time: f64,
        /// The data read, `` `data` on `mesh` `` each.
        senders: String,
        /// The solver's error.
        #[source]
        source: MbsError,
    },
}

impl From<SetupError> for AdapterError {
    fn from(e: SetupError) -> Self {
        AdapterError::participant(e)
    }
}
