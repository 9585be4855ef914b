//! Errors of the radiation models: bad inputs are reported, never panicked on.

use thiserror::Error;

/// Why a radiation kernel or model could not be built or stepped.
#[derive(Debug, Clone, PartialEq, Error)]
pub enum RadiationError {
    #[error("time step dt must be positive and finite, got {0}")]
    NonPositiveStep(f64),
    #[error("truncation time must be positive and finite, got {0}")]
    NonPositiveTruncation(f64),
    #[error("truncation time {truncation} s is shorter than half a step (dt = {dt} s): no lag would remain")]
    TruncationBelowStep { truncation: f64, dt: f64 },
    #[error("truncation time {truncation} s exceeds the IRF span {span} s")]
    TruncationBeyondIrf { truncation: f64, span: f64 },
    #[error("{lags} lags would not fit in memory (truncation time over dt far too large)")]
    TooManyLags { lags: f64 },
    #[error("the IRF needs at least two time samples, got {0}")]
    IrfTooShort(usize),
    #[error("the IRF time grid must start at t = 0, starts at {0}")]
    IrfStart(f64),
    #[error("the IRF time grid must be strictly increasing and finite (sample {0})")]
    IrfGrid(usize),
    #[error("IRF has {times} time samples but {matrices} matrices")]
    IrfSampleCount { times: usize, matrices: usize },
    #[error("{what}: matrix is {rows}×{cols}, expected {expected_rows}×{expected_cols}")]
    Shape { what: String, rows: usize, cols: usize, expected_rows: usize, expected_cols: usize },
    #[error("{0} contains a non-finite value")]
    NonFinite(String),
    #[error("no bodies given")]
    NoBodies,
    #[error("body {0} has no radiation IRF")]
    MissingIrf(usize),
    #[error("body {0} has no radiation state-space realisation")]
    MissingStateSpace(usize),
    #[error("body {body}: IRF time grid differs from body 0's")]
    IrfGridMismatch { body: usize },
    #[error("state-space realisation has {rows} rows of entries, expected {expected}")]
    StateSpaceRows { rows: usize, expected: usize },
    #[error("state-space row {row} has {cols} entries, expected {expected}")]
    StateSpaceCols { row: usize, cols: usize, expected: usize },
    #[error("the matrix exponential of entry ({row}, {col}) is not finite (unstable or badly scaled realisation)")]
    Discretisation { row: usize, col: usize },
    #[error("velocity vector has {got} components, expected {expected}")]
    VelocityLength { got: usize, expected: usize },
    #[error("force buffer has {got} components, expected {expected}")]
    ForceLength { got: usize, expected: usize },
    #[error("no velocity has been pushed yet: the force has no time")]
    NoVelocity,
}
