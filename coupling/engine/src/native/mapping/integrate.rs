//! Integrals of vertex data over a mesh's elements with the trapezoidal rule (linear
//! interpolation inside each element): a surface integral over edges (2D) or triangles (3D), a
//! volume integral over triangles (2D) or tetrahedra (3D). Each is a weighted sum of the vertex
//! values whose weights — each element's measure shared equally among its vertices — are
//! computed once per mesh; the scaled-consistent mappings and `<watch-integral>` use them.

use super::geometry::{self, P3};
use crate::native::mesh::MeshState;

/// Which integral: over the surface elements or over the cells.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Measure {
    /// Edges in 2D, triangles in 3D.
    Surface,
    /// Triangles in 2D, tetrahedra in 3D.
    Volume,
}

impl Measure {
    /// The elements integrated over, for messages ("edges", "triangles", "tetrahedra").
    pub fn elements(self, dim: usize) -> &'static str {
        match (self, dim) {
            (Measure::Surface, 2) => "edges",
            (Measure::Volume, 3) => "tetrahedra",
            _ => "triangles",
        }
    }

    /// True when `mesh` has the elements this integral needs.
    pub fn has_elements(self, mesh: &MeshState) -> bool {
        let c = &mesh.connectivity;
        match (self, mesh.dim) {
            (Measure::Surface, 2) => !c.edges.is_empty(),
            (Measure::Volume, 3) => !c.tetrahedra.is_empty(),
            _ => !c.triangles.is_empty(),
        }
    }
}

/// The weight of every vertex of `mesh` in the integral `measure` (zero for vertices of no
/// element). The element ids must be vertices of the mesh (as `MeshIndex::new` checks).
pub fn vertex_weights(mesh: &MeshState, measure: Measure) -> Vec<f64> {
    let p: Vec<P3> = (0..mesh.vertex_count()).map(|i| geometry::point(mesh.vertex(i))).collect();
    let mut w = vec![0.0; p.len()];
    let mut share = |ids: &[usize], size: f64| {
        for &v in ids {
            w[v] += size / ids.len() as f64;
        }
    };
    let c = &mesh.connectivity;
    match (measure, mesh.dim) {
        (Measure::Surface, 2) => c.edges.iter().for_each(|e| share(e, geometry::edge_length(&p[e[0]], &p[e[1]]))),
        (Measure::Volume, 3) => c
            .tetrahedra
            .iter()
            .for_each(|t| share(t, geometry::tetrahedron_volume(&p[t[0]], &p[t[1]], &p[t[2]], &p[t[3]]))),
        _ => c.triangles.iter().for_each(|t| share(t, geometry::triangle_area(&p[t[0]], &p[t[1]], &p[t[2]]))),
    }
    w
}

/// The integral of each of the `components` of `values` with the vertex `weights`.
pub fn integrate(weights: &[f64], values: &[f64], components: usize) -> Vec<f64> {
    let mut total = vec![0.0; components];
    for (v, &w) in weights.iter().enumerate() {
        for (k, t) in total.iter_mut().enumerate() {
            *t += w * values[v * components + k];
        }
    }
    total
}

#[cfg(test)]
mod tests {
    use super::super::test_meshes::*;
    use super::*;

    #[test]
    fn linear_fields_integrate_exactly() {
        // Trapezoidal integration is exact for fields linear on each element. Over the unit
        // square z = 0: ∫ (1 + 2x + 3y) = 1 + 1 + 1.5 = 3.5; round-off of ~50 terms < 1e-14.
        let s = grid_surface(4, 3, |x, y| [x, y, 0.0]);
        let w = vertex_weights(&s, Measure::Surface);
        let i = integrate(&w, &field(&s, |p| 1.0 + 2.0 * p[0] + 3.0 * p[1]), 1);
        assert!((i[0] - 3.5).abs() < 1e-14, "{i:?}");
        // The unit cube: ∫ (x + y z) = 1/2 + 1/4 is not linear in y z, but ∫ (2 - x + z) = 2 is.
        let cube = cube_tetrahedra(2);
        let w = vertex_weights(&cube, Measure::Volume);
        assert!((w.iter().sum::<f64>() - 1.0).abs() < 1e-14);
        let i = integrate(&w, &field(&cube, |p| 2.0 - p[0] + p[2]), 1);
        assert!((i[0] - 2.0).abs() < 1e-14, "{i:?}");
        // A 2D polyline's length.
        let l = polyline(&[[0.0, 0.0], [3.0, 4.0], [3.0, 5.0]]);
        assert_eq!(vertex_weights(&l, Measure::Surface), vec![2.5, 3.0, 0.5]);
        assert_eq!(Measure::Surface.elements(2), "edges");
        assert_eq!(Measure::Volume.elements(3), "tetrahedra");
    }
}
