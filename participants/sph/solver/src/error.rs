//! The errors of the SPH solver.

use thiserror::Error;

/// Everything that can go wrong when a scene is built or a simulation advances.
#[derive(Debug, Error)]
pub enum SphError {
    /// A parameter is out of its valid range; the message says which and why.
    #[error("invalid parameter `{name}`: {reason}")]
    InvalidParameter {
        /// The parameter's field name.
        name: &'static str,
        /// What is wrong with its value.
        reason: String,
    },
    /// A body's geometry cannot be turned into markers.
    #[error("body `{body}`: {reason}")]
    Geometry {
        /// The body's name.
        body: String,
        /// What is wrong.
        reason: String,
    },
    /// A mesh file could not be read (its message names the file and what to fix).
    #[error(transparent)]
    MeshFile(#[from] tidelink_mesh::MeshError),
    /// A mesh file was read but cannot be a body (no triangles).
    #[error("mesh file {path}: {reason}")]
    Mesh {
        /// The file.
        path: String,
        /// Why it could not be read.
        reason: String,
    },
    /// No body has this index.
    #[error("no body with index {0}")]
    UnknownBody(usize),
    /// The step asked for is above the stability limit of the current state.
    #[error("time step {dt:e} s is above the stability limit {limit:e} s")]
    TimeStepTooLarge {
        /// The step asked for.
        dt: f64,
        /// The limit (CFL and force conditions).
        limit: f64,
    },
    /// The particles spread over more cells than the neighbour grid may have; set a domain.
    #[error("particles span {cells} grid cells (limit {limit}); set `Parameters::domain` to drop escaping particles")]
    DomainTooLarge {
        /// Cells the bounding box of all particles needs.
        cells: usize,
        /// The limit.
        limit: usize,
    },
    /// The solution blew up (a non-finite value or a density far from rest).
    #[error("unstable at t = {time} s: {reason}")]
    Unstable {
        /// Simulated time of the failed step.
        time: f64,
        /// What was found.
        reason: String,
    },
    /// A saved state does not belong to this simulation.
    #[error("state does not match this simulation: {0}")]
    StateMismatch(String),
    /// The scene has no fluid particle.
    #[error("the scene has no fluid particle")]
    NoFluid,
}

/// Shorthand for results of this crate.
pub type Result<T> = std::result::Result<T, SphError>;
