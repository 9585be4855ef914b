//! The one reader of surface mesh files: Wavefront `.obj` and `.stl` (ASCII or binary), chosen
//! by extension (any case). The coupling points of a participant file, the SPH solver's closed
//! bodies and the MBS's shapes all read their files here, so a broken file gets the same
//! message, naming the file and what to fix, wherever it is used.

#![warn(missing_docs)]

mod error;
mod obj;
mod stl;

pub use error::MeshError;
use std::path::Path;

/// The kinds of mesh file this crate reads.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum MeshFormat {
    /// Wavefront `.obj`: every object of the file.
    Obj,
    /// `.stl`, ASCII (`solid …`) or binary.
    Stl,
}

impl MeshFormat {
    /// The format of `path` by its extension (case-insensitive); `None` for any other file.
    pub fn of(path: &Path) -> Option<Self> {
        let ext = path.extension()?.to_str()?.to_ascii_lowercase();
        match ext.as_str() {
            "obj" => Some(MeshFormat::Obj),
            "stl" => Some(MeshFormat::Stl),
            _ => None,
        }
    }

    /// The extension, without the dot, for messages.
    pub fn extension(self) -> &'static str {
        match self {
            MeshFormat::Obj => "obj",
            MeshFormat::Stl => "stl",
        }
    }
}

/// A triangulated surface in the file's own frame and units: vertices, and triangles as
/// indices into them (counter-clockwise as stored).
#[derive(Debug, Clone, Default, PartialEq)]
pub struct SurfaceMesh {
    /// Vertex coordinates.
    pub vertices: Vec<[f64; 3]>,
    /// Triangles, three indices into `vertices` each.
    pub triangles: Vec<[usize; 3]>,
}

impl SurfaceMesh {
    /// The three corners of triangle `t`.
    pub fn corners(&self, t: usize) -> [[f64; 3]; 3] {
        self.triangles[t].map(|i| self.vertices[i])
    }
}

/// Reads the surface of `path` (`.obj`: all objects, faces triangulated, vertices of each
/// object as its faces use them; `.stl`: its facets over the distinct corners).
pub fn read_surface(path: &Path) -> Result<SurfaceMesh, MeshError> {
    match format(path)? {
        MeshFormat::Obj => obj::surface(path),
        MeshFormat::Stl => stl::surface(path),
    }
}

/// Reads the vertices of `path` alone, as coupling points: `.obj`: the vertices of every object
/// in file order, faces ignored; `.stl`: the distinct corners of its facets.
pub fn read_vertices(path: &Path) -> Result<Vec<[f64; 3]>, MeshError> {
    match format(path)? {
        MeshFormat::Obj => obj::vertices(path),
        MeshFormat::Stl => Ok(stl::surface(path)?.vertices),
    }
}

/// The triangles over the vertices [`read_vertices`] returns (same indices): the faces of a
/// coupling mesh read from a surface file, for mappings that project onto them.
pub fn read_vertex_faces(path: &Path) -> Result<Vec<[usize; 3]>, MeshError> {
    match format(path)? {
        MeshFormat::Obj => obj::faces(path),
        MeshFormat::Stl => Ok(stl::surface(path)?.triangles),
    }
}

/// The largest mesh file read: 1 GiB, a binary STL of about 20 million triangles, far more
/// than a body or coupling surface needs; beyond it the path is more likely wrong than the mesh
/// that fine, and reading it would take that much memory again in vertices.
pub const MAX_FILE_BYTES: u64 = 1 << 30;

/// The format of `path`, after checking that it is a regular file of at most [`MAX_FILE_BYTES`]
/// (a missing file is left to the reader, whose error says so).
fn format(path: &Path) -> Result<MeshFormat, MeshError> {
    let format = MeshFormat::of(path).ok_or_else(|| MeshError::UnsupportedExtension { path: path.to_path_buf() })?;
    if let Ok(meta) = std::fs::metadata(path) {
        if !meta.is_file() {
            return Err(MeshError::NotRegular { path: path.to_path_buf() });
        }
        if meta.len() > MAX_FILE_BYTES {
            return Err(MeshError::TooLarge { path: path.to_path_buf(), size: meta.len(), limit: MAX_FILE_BYTES });
        }
    }
    Ok(format)
}

#[cfg(test)]
mod tests;
