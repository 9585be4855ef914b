//! Errors of the added-mass description: what is refused when the coefficients are given,
//! and when `M + A∞` would make the equations of motion unsolvable.

use thiserror::Error;

/// Why a set of added-mass coefficients is refused (bodies named as in
/// [`super::AddedMass::label`]: the given name, or the hydrodynamic index and handle).
#[derive(Debug, Error, Clone, PartialEq)]
pub enum AddedMassError {
    /// One row block per hydrodynamic body is needed.
    #[error("added mass: {bodies} hydrodynamic bodies but {blocks} coefficient blocks (one 6 x 6N block per body)")]
    BlockCount {
        /// Hydrodynamic bodies listed.
        bodies: usize,
        /// Row blocks given.
        blocks: usize,
    },
    /// A row block is not 6 x 6N.
    #[error("added mass of {body}: the block is {rows} x {cols}, expected {expected_rows} x {expected_cols} (6 x 6N, N = {n} hydrodynamic bodies)")]
    BlockShape {
        /// The body's label.
        body: String,
        /// Rows of the block given.
        rows: usize,
        /// Columns of the block given.
        cols: usize,
        /// Rows expected (6).
        expected_rows: usize,
        /// Columns expected (6N).
        expected_cols: usize,
        /// Number N of hydrodynamic bodies.
        n: usize,
    },
    /// A coefficient is NaN or infinite.
    #[error("added mass of {body}: coefficient ({row}, {col}) is not finite ({value})")]
    NotFinite {
        /// The body's label.
        body: String,
        /// Row of the coefficient in the body's block.
        row: usize,
        /// Column of the coefficient in the body's block.
        col: usize,
        /// The offending value.
        value: f64,
    },
    /// The same body listed twice would get two row blocks.
    #[error("added mass: {body} is listed twice (hydrodynamic indices {first} and {second})")]
    Duplicate {
        /// The body's label (at its first index).
        body: String,
        /// Its first hydrodynamic index.
        first: usize,
        /// The index where it appears again.
        second: usize,
    },
    /// A handle that does not belong to the body set the coefficients are used with.
    #[error("added mass: {body} is not a body of this system")]
    UnknownBody {
        /// The body's label.
        body: String,
    },
    /// An update for a body that has no added mass.
    #[error("added mass: body with handle {handle} is not one of the hydrodynamic bodies")]
    NotHydrodynamic {
        /// The handle index of the body.
        handle: usize,
    },
    /// A list (names, reference points) that does not have one entry per hydrodynamic body.
    #[error("added mass: {what} has {got} entries, expected one per hydrodynamic body ({expected})")]
    ListLength {
        /// Which list, for the message ("the name list").
        what: &'static str,
        /// Entries given.
        got: usize,
        /// Hydrodynamic bodies N.
        expected: usize,
    },
    /// A setting out of range.
    #[error("added mass: {0}")]
    InvalidSetting(String),
    /// `A∞` is not symmetric within the tolerance (a transposed block, a wrong coupling block).
    #[error("added mass is not symmetric: coefficient ({row}, {col}) of {body_row} vs ({col}, {row}) of {body_col}: {a} vs {b} (relative tolerance {tolerance}); check the coupling blocks and their order")]
    Asymmetric {
        /// Label of the body whose rows include `row`.
        body_row: String,
        /// Label of the body whose rows include `col`.
        body_col: String,
        /// Row of the 6N × 6N coefficient matrix.
        row: usize,
        /// Column of the 6N × 6N coefficient matrix.
        col: usize,
        /// `A[row, col]`.
        a: f64,
        /// `A[col, row]`.
        b: f64,
        /// The relative tolerance that was exceeded.
        tolerance: f64,
    },
    /// `M + A∞` over the hydrodynamic bodies is not positive definite: the accelerations
    /// would be undefined or the motion would diverge.
    #[error("M + A∞ of the hydrodynamic bodies is not positive definite: smallest eigenvalue {smallest:e} (largest {largest:e}), mostly on {}; check the sign convention of the coefficients, the density (rho) scaling, the frame (INERTIAL or BODY), the reference point and the units", bodies.join(", "))]
    NotPositiveDefinite {
        /// Smallest eigenvalue of the symmetrised `M + A∞`.
        smallest: f64,
        /// Largest eigenvalue, for scale.
        largest: f64,
        /// The bodies the smallest eigenvector lives on, with their dominant coordinate.
        bodies: Vec<String>,
    },
}
