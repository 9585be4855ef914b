//! `.stl`, ASCII or binary, through stl_io, after a check of the binary layout (stl_io would
//! otherwise report a short file as "failed to fill whole buffer").

use crate::{MeshError, SurfaceMesh};
use std::path::Path;

/// The facets over their distinct corners.
pub(crate) fn surface(path: &Path) -> Result<SurfaceMesh, MeshError> {
    let bytes = std::fs::read(path).map_err(|source| MeshError::Io { path: path.to_path_buf(), source })?;
    if bytes.is_empty() {
        return Err(MeshError::EmptyFile { path: path.to_path_buf(), ext: "stl" });
    }
    if let Some(why) = not_stl(&bytes) {
        return Err(MeshError::NotStl { path: path.to_path_buf(), why });
    }
    let mut file = std::io::Cursor::new(bytes);
    let mesh = stl_io::read_stl(&mut file).map_err(|source| MeshError::Stl { path: path.to_path_buf(), source })?;
    Ok(SurfaceMesh {
        vertices: mesh.vertices.iter().map(|v| [v[0] as f64, v[1] as f64, v[2] as f64]).collect(),
        triangles: mesh.faces.iter().map(|f| f.vertices).collect(),
    })
}

/// Why `bytes` cannot be an STL file, if they cannot: ASCII STL starts with `solid`; binary STL
/// has an 80-byte header, a triangle count, and 50 bytes per triangle after that.
fn not_stl(bytes: &[u8]) -> Option<String> {
    let start = bytes.iter().position(|b| !b.is_ascii_whitespace()).unwrap_or(bytes.len());
    if bytes[start..].starts_with(b"solid") {
        return None;
    }
    if bytes.len() < 84 {
        return Some(format!("{} bytes, neither ASCII (`solid …`) nor binary (84 bytes at least)", bytes.len()));
    }
    let count = u32::from_le_bytes([bytes[80], bytes[81], bytes[82], bytes[83]]) as u64;
    let expected = 84 + 50 * count;
    if bytes.len() as u64 != expected {
        return Some(format!(
            "it does not start with `solid` (ASCII), and as binary its header counts {count} triangles, which \
             take {expected} bytes, but the file has {}",
            bytes.len()
        ));
    }
    None
}
