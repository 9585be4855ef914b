//! What can go wrong building, writing or reading a VTK file.

use std::path::PathBuf;

/// Errors of this crate: inconsistent data (caught before anything is written) and I/O.
#[derive(Debug, thiserror::Error)]
pub enum VtkError {
    /// A data array whose length does not match the points or cells it belongs to.
    #[error("array `{name}` has {got} values, expected {expected} ({what})")]
    Length {
        /// The array's name.
        name: String,
        /// Values given.
        got: usize,
        /// Values expected.
        expected: usize,
        /// What the expected count is made of.
        what: String,
    },
    /// A cell referring to a point that does not exist.
    #[error("cell {cell} refers to point {point}, but the grid has {points} points")]
    PointIndex {
        /// Index of the cell.
        cell: usize,
        /// The offending point index.
        point: usize,
        /// Number of points of the grid.
        points: usize,
    },
    /// Connectivity that cannot be split into cells of the given type.
    #[error("{len} point indices cannot be cells of type {cell_type:?}: {why}")]
    Connectivity {
        /// The cell type asked for.
        cell_type: crate::CellType,
        /// Number of indices given.
        len: usize,
        /// Why not.
        why: String,
    },
    /// Two arrays of the same name in the same section.
    #[error("two {section} arrays are named `{name}`; ParaView would show only one")]
    DuplicateName {
        /// `point data` or `cell data`.
        section: &'static str,
        /// The repeated name.
        name: String,
    },
    /// Writing or reading a file failed.
    #[error("{path}: {source}")]
    Io {
        /// The file.
        path: PathBuf,
        /// The cause.
        source: std::io::Error,
    },
    /// A file that is not a VTU file of the kind this crate writes.
    #[error("{path}: not a VTU file this crate can read: {why}")]
    Parse {
        /// The file (empty when read from a string).
        path: PathBuf,
        /// What was wrong.
        why: String,
    },
}
