//! Typed errors of the BEMIO reader: every message names the file and, where there is one, the dataset.

use std::fmt;
use std::path::PathBuf;

/// A dataset shape as HDF5 reports it in C order, printed like h5py does: `(6, 12)`, `(3,)`, `()`.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Shape(pub Vec<usize>);

impl fmt::Display for Shape {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self.0.as_slice() {
            [] => write!(f, "()"),
            [n] => write!(f, "({n},)"),
            dims => {
                let parts: Vec<String> = dims.iter().map(usize::to_string).collect();
                write!(f, "({})", parts.join(", "))
            }
        }
    }
}

/// Why a hydrodynamic file could not be used; the reader never panics on bad input, it returns one of these.
#[derive(Debug, thiserror::Error)]
pub enum BemioError {
    /// The file does not exist, cannot be read, or is not HDF5.
    #[error("{}: cannot open as an HDF5 file: {reason}", file.display())]
    Open {
        /// The file, as given.
        file: PathBuf,
        /// The operating system's or HDF5's message.
        reason: String,
    },

    /// A required dataset (or group) is absent.
    #[error("{}: missing dataset {path}", file.display())]
    Missing {
        /// The file, as given.
        file: PathBuf,
        /// The HDF5 path of the dataset or group.
        path: String,
    },

    /// A dataset exists but its shape is not the one the layout (and the rest of the file) implies.
    #[error("{}: {path} has shape {found}, expected {expected}", file.display())]
    Shape {
        /// The file, as given.
        file: PathBuf,
        /// The HDF5 path of the dataset or group.
        path: String,
        /// The shape in the file.
        found: Shape,
        /// The shape the layout implies, with what its axes mean.
        expected: String,
    },

    /// HDF5 failed to read a dataset, or it has a type we cannot convert (e.g. a string where numbers belong).
    #[error("{}: cannot read {path}: {reason}", file.display())]
    Read {
        /// The file, as given.
        file: PathBuf,
        /// The HDF5 path of the dataset or group.
        path: String,
        /// HDF5's message or the type found.
        reason: String,
    },

    /// A dataset declares more values than the reader takes (checked before reading).
    #[error(
        "{}: {path} declares shape {found}, {:.1} GB of values, above the reader's limit of 1.07 GB per dataset; \
         the file is damaged, or was written with far too many frequencies or IRF samples: regenerate it with fewer \
         (BEMIO's IRF time step and length)",
        file.display(),
        bytes / 1e9
    )]
    TooLarge {
        /// The file, as given.
        file: PathBuf,
        /// The HDF5 path of the dataset.
        path: String,
        /// The shape it declares.
        found: Shape,
        /// The memory its values would take (bytes).
        bytes: f64,
    },

    /// A dataset was read but its values make no sense (non-positive density, unsorted frequencies, …).
    #[error("{}: {path}: {reason}", file.display())]
    Invalid {
        /// The file, as given.
        file: PathBuf,
        /// The HDF5 path of the dataset or group.
        path: String,
        /// What is wrong with the values.
        reason: String,
    },

    /// The model has more hydrodynamic bodies than the file has `/body{i}` groups.
    #[error("{}: the file has {in_file} bodies but the model needs {ours}", file.display())]
    TooFewBodies {
        /// The file, as given.
        file: PathBuf,
        /// `/body{i}` groups in the file.
        in_file: usize,
        /// Hydrodynamic bodies of the model.
        ours: usize,
    },

    /// In strict mode: the i-th body of the model is not named like `/body{i+1}` of the file.
    #[error("{}: {message}", file.display())]
    NameMismatch {
        /// The file, as given.
        file: PathBuf,
        /// Which index, and the two names.
        message: String,
    },
}
