//! Errors of the added-mass description: what is refused when the coefficients are given,
//! and when `M + A∞` would make the equations of motion unsolvable.

use thiserror::Error;

/// Why a set of added-mass coefficients is refused (bodies named as in
/// [`super::AddedMass::label`]: the given name, or the hydrodynamic index and handle).
#[derive(Debug, Error, Clone, PartialEq)]
pub enum AddedMassError {
    /// One row block per hydrodynamic body is needed.
    #[error("added mass: {bodies} hydrodynamic bodies but {blocks} coefficient blocks (one 6 x 6N block per body)")]
    BlockCount { bodies: usize, blocks: usize },
    /// A row block is not 6 x 6N.
    #[error("added mass of {body}: the block is {rows} x {cols}, expected {expected_rows} x {expected_cols} (6 x 6N, N = {n} hydrodynamic bodies)")]
    BlockShape { body: String, rows: usize, cols: usize, expected_rows: usize, expected_cols: usize, n: usize },
    /// A coefficient is NaN or infinite.
    #[error("added mass of {body}: coefficient ({row}, {col}) is not finite ({value})")]
    NotFinite { body: String, row: usize, col: usize, value: f64 },
    /// The same body listed twice would get two row blocks.
    #[error("added mass: {body} is listed twice (hydrodynamic indices {first} and {second})")]
    Duplicate { body: String, first: usize, second: usize },
    /// A handle that does not belong to the body set the coefficients are used with.
    #[error("added mass: {body} is not a body of this system")]
    UnknownBody { body: String },
    /// An update for a body that has no added mass.
    #[error("added mass: body with handle {handle} is not one of the hydrodynamic bodies")]
    NotHydrodynamic { handle: usize },
    /// A list (names, reference points) that does not have one entry per hydrodynamic body.
    #[error("added mass: {what} has {got} entries, expected one per hydrodynamic body ({expected})")]
    ListLength { what: &'static str, got: usize, expected: usize },
    /// A setting out of range.
    #[error("added mass: {0}")]
    InvalidSetting(String),
    /// `A∞` is not symmetric within the tolerance (a transposed block, a wrong coupling block).
    #[error("added mass is not symmetric: coefficient ({row}, {col}) of {body_row} vs ({col}, {row}) of {body_col}: {a} vs {b} (relative tolerance {tolerance}); check the coupling blocks and their order")]
    Asymmetric { body_row: String, body_col: String, row: usize, col: usize, a: f64, b: f64, tolerance: f64 },
    /// `M + A∞` over the hydrodynamic bodies is not positive definite: the accelerations
    /// would be undefined or the motion would diverge.
    #[error("M + A∞ of the hydrodynamic bodies is not positive definite: smallest eigenvalue {smallest:e} (largest {largest:e}), mostly on {}; check the sign convention of the coefficients, the density (rho) scaling, the frame (INERTIAL or BODY), the reference point and the units", bodies.join(", "))]
    NotPositiveDefinite { smallest: f64, largest: f64, bodies: Vec<String> },
}
