//! Wavefront `.obj` through tobj.

use crate::{MeshError, SurfaceMesh};
use std::path::Path;

fn load(path: &Path, options: &tobj::LoadOptions) -> Result<Vec<tobj::Model>, MeshError> {
    match std::fs::metadata(path) {
        Ok(m) if m.len() == 0 => return Err(MeshError::EmptyFile { path: path.to_path_buf(), ext: "obj" }),
        Ok(_) => {}
        Err(source) => return Err(MeshError::Io { path: path.to_path_buf(), source }),
    }
    let (models, _materials) = tobj::load_obj(path, options)
        .map_err(|e| MeshError::Obj { path: path.to_path_buf(), message: e.to_string() })?;
    Ok(models)
}

fn point(c: &[f64]) -> [f64; 3] {
    [c[0], c[1], c[2]]
}

/// Every object's faces, triangulated, over one index per vertex (objects appended in order).
/// A file without faces gives its bare vertices and no triangles, so that callers can say so.
pub(crate) fn surface(path: &Path) -> Result<SurfaceMesh, MeshError> {
    let options = tobj::LoadOptions { single_index: true, triangulate: true, ..Default::default() };
    let mut mesh = SurfaceMesh::default();
    for m in load(path, &options)? {
        let base = mesh.vertices.len();
        mesh.vertices.extend(m.mesh.positions.chunks_exact(3).map(point));
        let corner = |i: u32| base + i as usize;
        mesh.triangles.extend(m.mesh.indices.chunks_exact(3).map(|t| [corner(t[0]), corner(t[1]), corner(t[2])]));
    }
    if mesh.triangles.is_empty() {
        mesh.vertices = bare_vertices(path)?;
    }
    Ok(mesh)
}

/// The vertices of every object, in file order, faces ignored.
pub(crate) fn vertices(path: &Path) -> Result<Vec<[f64; 3]>, MeshError> {
    let options = tobj::LoadOptions { single_index: false, triangulate: false, ..Default::default() };
    let found: Vec<[f64; 3]> =
        load(path, &options)?.iter().flat_map(|m| m.mesh.positions.chunks_exact(3).map(point)).collect();
    if found.is_empty() {
        // tobj makes an object only of faces: a file of vertices alone is read here.
        return bare_vertices(path);
    }
    Ok(found)
}

/// The `v x y z` lines of a file that has no faces (which tobj returns nothing for).
fn bare_vertices(path: &Path) -> Result<Vec<[f64; 3]>, MeshError> {
    let text = std::fs::read_to_string(path).map_err(|source| MeshError::Io { path: path.to_path_buf(), source })?;
    let mut out = Vec::new();
    for (n, line) in text.lines().enumerate() {
        let mut words = line.split_whitespace();
        if words.next() != Some("v") {
            continue;
        }
        let xyz: Vec<f64> = words.take(3).filter_map(|w| w.parse().ok()).collect();
        if xyz.len() != 3 {
            let message = format!("line {}: a vertex needs three numbers: `{}`", n + 1, line.trim());
            return Err(MeshError::Obj { path: path.to_path_buf(), message });
        }
        out.push([xyz[0], xyz[1], xyz[2]]);
    }
    Ok(out)
}

/// The faces of every object, triangulated, as indices into what [`vertices`] returns.
pub(crate) fn faces(path: &Path) -> Result<Vec<[usize; 3]>, MeshError> {
    let options = tobj::LoadOptions { single_index: false, triangulate: true, ..Default::default() };
    let mut faces = Vec::new();
    let mut base = 0;
    for m in load(path, &options)? {
        let corner = |i: u32| base + i as usize;
        faces.extend(m.mesh.indices.chunks_exact(3).map(|t| [corner(t[0]), corner(t[1]), corner(t[2])]));
        base += m.mesh.positions.len() / 3;
    }
    Ok(faces)
}
