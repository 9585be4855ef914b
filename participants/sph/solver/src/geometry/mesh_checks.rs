//! What a body's surface file must be for its inside to be known: faces, finite vertices, and
//! a closed (watertight) surface. Said plainly when the file is read, rather than later as a
//! body without markers.

use std::collections::HashMap;
use tidelink_mesh::SurfaceMesh;

/// Why `mesh` cannot be a body's closed surface, if it cannot.
pub(crate) fn problem(mesh: &SurfaceMesh) -> Option<String> {
    // Named by its coordinates, not its index: the mesh reader may renumber the file's vertices.
    if let Some(v) = mesh.vertices.iter().find(|v| !v.iter().all(|c| c.is_finite())) {
        return Some(format!("a vertex is [{}, {}, {}], not a finite point; fix or remove it", v[0], v[1], v[2]));
    }
    if mesh.triangles.is_empty() {
        return Some(format!(
            "the file has {} vertices but no faces; a body mesh needs the triangles of a closed surface (`f` lines \
             of an .obj, facets of an .stl)",
            mesh.vertices.len()
        ));
    }
    // Corners are compared by position, as files repeat vertices (an .stl always, an .obj at seams).
    let key = |i: usize| mesh.vertices[i].map(f64::to_bits);
    let mut edges: HashMap<([u64; 3], [u64; 3]), usize> = HashMap::new();
    for t in &mesh.triangles {
        for (a, b) in [(t[0], t[1]), (t[1], t[2]), (t[2], t[0])] {
            let (ka, kb) = (key(a), key(b));
            let e = if ka <= kb { (ka, kb) } else { (kb, ka) };
            *edges.entry(e).or_insert(0) += 1;
        }
    }
    let open: Vec<_> = edges.iter().filter(|(_, n)| **n % 2 == 1).map(|(e, _)| *e).collect();
    let first = open.iter().min()?;
    let p = |k: [u64; 3]| k.map(f64::from_bits);
    let (a, b) = (p(first.0), p(first.1));
    Some(format!(
        "the surface is not closed: {} edges border an odd number of triangles (one from [{}, {}, {}] to [{}, {}, \
         {}]); a body mesh must be watertight for its inside to be known",
        open.len(),
        a[0],
        a[1],
        a[2],
        b[0],
        b[1],
        b[2]
    ))
}

#[cfg(test)]
mod tests {
    use super::*;

    /// A tetrahedron, closed.
    fn tetra() -> SurfaceMesh {
        SurfaceMesh {
            vertices: vec![[0.0, 0.0, 0.0], [1.0, 0.0, 0.0], [0.0, 1.0, 0.0], [0.0, 0.0, 1.0]],
            triangles: vec![[0, 2, 1], [0, 1, 3], [1, 2, 3], [0, 3, 2]],
        }
    }

    #[test]
    fn a_closed_surface_passes_and_each_fault_is_named() {
        assert_eq!(problem(&tetra()), None);
        let mut open = tetra();
        open.triangles.pop();
        let e = problem(&open).unwrap();
        assert!(e.starts_with("the surface is not closed: 3 edges"), "{e}");
        let mut nan = tetra();
        nan.vertices[2][1] = f64::NAN;
        assert_eq!(problem(&nan).unwrap(), "a vertex is [0, NaN, 0], not a finite point; fix or remove it");
        let faceless = SurfaceMesh { vertices: tetra().vertices, triangles: Vec::new() };
        assert!(problem(&faceless).unwrap().starts_with("the file has 4 vertices but no faces"));
    }
}
