//! Why a mesh file could not be read; every variant names the file and says what to fix.

use std::path::PathBuf;

/// Why a mesh file could not be read.
#[derive(Debug, thiserror::Error)]
pub enum MeshError {
    /// The file could not be opened or read (missing, no permission).
    #[error("{path}: cannot read the mesh file: {source}")]
    Io {
        /// The mesh file.
        path: PathBuf,
        /// The operating system's error.
        #[source]
        source: std::io::Error,
    },
    /// The extension is neither `.obj` nor `.stl`.
    #[error("{path}: expected a .obj or .stl file")]
    UnsupportedExtension {
        /// The file.
        path: PathBuf,
    },
    /// The file has no bytes at all (an export that failed, a file truncated to nothing).
    #[error("{path}: the file is empty; export the surface again as a .{ext} file with its vertices")]
    EmptyFile {
        /// The mesh file.
        path: PathBuf,
        /// `obj` or `stl`.
        ext: &'static str,
    },
    /// tobj could not read the OBJ file.
    #[error("{path}: cannot read the Wavefront OBJ file: {message}")]
    Obj {
        /// The OBJ file.
        path: PathBuf,
        /// tobj's message.
        message: String,
    },
    /// The file is neither ASCII STL (`solid …`) nor binary STL (84-byte header and count, 50 bytes
    /// per triangle).
    #[error("{path}: not an STL file: {why}; export the surface as ASCII or binary STL")]
    NotStl {
        /// The file.
        path: PathBuf,
        /// What did not fit.
        why: String,
    },
    /// stl_io could not parse the STL file (ASCII or binary).
    #[error("{path}: cannot read the STL file: {source}")]
    Stl {
        /// The STL file.
        path: PathBuf,
        /// stl_io's error.
        #[source]
        source: std::io::Error,
    },
    /// The path is a directory, device, FIFO or socket, not a file.
    #[error("{path}: not a regular file (a directory, device or pipe); name the mesh file itself")]
    NotRegular {
        /// The path.
        path: PathBuf,
    },
    /// The file is larger than [`crate::MAX_FILE_BYTES`].
    #[error(
        "{path}: the file has {size} bytes, above the limit of {limit} bytes for a mesh (about 20 million STL \
         triangles); is it the right file? Decimate the surface if it is"
    )]
    TooLarge {
        /// The file.
        path: PathBuf,
        /// Its size (bytes).
        size: u64,
        /// The limit (bytes).
        limit: u64,
    },
}
