//! Errors of the radiation models: bad inputs are reported, never panicked on.

use thiserror::Error;

/// Why a radiation kernel or model could not be built or stepped.
#[derive(Debug, Clone, PartialEq, Error)]
pub enum RadiationError {
    /// A saved state does not have the shape of the model it is restored into.
    #[error("a radiation state of {got} values cannot be restored into a model that carries {expected}")]
    ForeignState {
        /// Values this model carries.
        expected: usize,
        /// Values of the state given.
        got: usize,
    },
    /// The step `dt` (s) is zero, negative or not finite.
    #[error("time step dt must be positive and finite, got {0}")]
    NonPositiveStep(f64),
    /// The truncation time (s) is zero, negative or not finite.
    #[error("truncation time must be positive and finite, got {0}")]
    NonPositiveTruncation(f64),
    /// The truncation rounds to zero lags: the memory would be empty.
    #[error("truncation time {truncation} s is shorter than half a step (dt = {dt} s): no lag would remain")]
    TruncationBelowStep {
        /// Truncation time (s).
        truncation: f64,
        /// Step (s).
        dt: f64,
    },
    /// The truncation asks for more memory than the file's IRF holds.
    #[error("truncation time {truncation} s exceeds the IRF span {span} s")]
    TruncationBeyondIrf {
        /// Truncation time (s).
        truncation: f64,
        /// Last time of the IRF grid (s).
        span: f64,
    },
    /// `truncation / dt` is too large for a ring buffer.
    #[error("{lags} lags would not fit in memory (truncation time over dt far too large)")]
    TooManyLags {
        /// `truncation / dt`, rounded.
        lags: f64,
    },
    /// The state-space identification of an IRF entry did not reach its fit target at any order
    /// tried (a stable realisation with a real logarithm): the convolution has to be used.
    #[error(
        "the state-space fit of IRF entry ({row}, {col}) reached a quality of {quality:.5} (order {order}) below the \
         target {target}"
    )]
    FitTarget {
        /// Row of the entry.
        row: usize,
        /// Column of the entry.
        col: usize,
        /// Best quality reached (NaN: no stable order at all).
        quality: f64,
        /// The target.
        target: f64,
        /// Order of the best fit (0: none).
        order: usize,
    },
    /// Fewer than two IRF samples: nothing to interpolate between.
    #[error("the IRF needs at least two time samples, got {0}")]
    IrfTooShort(usize),
    /// The IRF grid does not start at `t = 0` (a causal IRF does).
    #[error("the IRF time grid must start at t = 0, starts at {0}")]
    IrfStart(f64),
    /// The IRF grid decreases, repeats or is not finite at this sample.
    #[error("the IRF time grid must be strictly increasing and finite (sample {0})")]
    IrfGrid(usize),
    /// The IRF has a different number of matrices than of times.
    #[error("IRF has {times} time samples but {matrices} matrices")]
    IrfSampleCount {
        /// Samples of the time grid.
        times: usize,
        /// Matrices given.
        matrices: usize,
    },
    /// A matrix (IRF sample, state-space entry) has the wrong shape.
    #[error("{what}: matrix is {rows}×{cols}, expected {expected_rows}×{expected_cols}")]
    Shape {
        /// Which matrix, for the message.
        what: String,
        /// Rows found.
        rows: usize,
        /// Columns found.
        cols: usize,
        /// Rows expected.
        expected_rows: usize,
        /// Columns expected.
        expected_cols: usize,
    },
    /// An IRF sample or state-space entry holds NaN or infinity.
    #[error("{0} contains a non-finite value")]
    NonFinite(String),
    /// The model was built for zero bodies.
    #[error("no bodies given")]
    NoBodies,
    /// The convolution needs every body's IRF; this body's file group has none.
    #[error("body {0} has no radiation IRF")]
    MissingIrf(usize),
    /// The state space needs every body's realisation; this body has none.
    #[error("body {0} has no radiation state-space realisation")]
    MissingStateSpace(usize),
    /// Bodies' IRFs must share one time grid to be stacked into the 6N × 6N kernel.
    #[error("body {body}: IRF time grid differs from body 0's")]
    IrfGridMismatch {
        /// The first body (index) whose grid differs from body 0's.
        body: usize,
    },
    /// A state-space set without one row of entries per DOF.
    #[error("state-space realisation has {rows} rows of entries, expected {expected}")]
    StateSpaceRows {
        /// Rows of entries found.
        rows: usize,
        /// Rows expected (6 in one body's set).
        expected: usize,
    },
    /// A state-space row without one entry per column DOF.
    #[error("state-space row {row} has {cols} entries, expected {expected}")]
    StateSpaceCols {
        /// The row.
        row: usize,
        /// Entries found in it.
        cols: usize,
        /// Entries expected: one per column DOF.
        expected: usize,
    },
    /// The exact discretisation overflowed: the realisation is unstable or badly scaled for `dt`.
    #[error("the matrix exponential of entry ({row}, {col}) is not finite (unstable or badly scaled realisation)")]
    Discretisation {
        /// Row DOF of the entry.
        row: usize,
        /// Column DOF of the entry.
        col: usize,
    },
    /// A pushed velocity vector is not `6N` long.
    #[error("velocity vector has {got} components, expected {expected}")]
    VelocityLength {
        /// Components given.
        got: usize,
        /// The model's `6N`.
        expected: usize,
    },
    /// The force output buffer is not `6N` long.
    #[error("force buffer has {got} components, expected {expected}")]
    ForceLength {
        /// Components given.
        got: usize,
        /// The model's `6N`.
        expected: usize,
    },
    /// The force was asked before the first push, so it belongs to no time.
    #[error("no velocity has been pushed yet: the force has no time")]
    NoVelocity,
}
