//! `mapping:linear-cell-interpolation` (docs/design/coupling-semantics.md §7.3): every origin
//! vertex is interpolated with the barycentric weights of the cell of the searched mesh that
//! encloses it — a triangle in 2D, a tetrahedron in 3D. A vertex outside every cell falls back
//! to the nearest projection (edges in 2D; triangles, then edges in 3D; the nearest vertex).

use super::weights::{Sides, WeightedMapping};
use crate::native::mesh::MeshState;
use crate::Result;

/// The warning libprecice gives when the searched mesh has no cells, naming the fallback its
/// elements allow; `None` when it has cells or there is nothing to map.
pub fn missing_cells_warning(sides: &Sides) -> Option<String> {
    let c = &sides.search.connectivity;
    if sides.origins.vertex_count() == 0 {
        return None;
    }
    let name = sides.search_name;
    let (edges, triangles) = (!c.edges.is_empty(), !c.triangles.is_empty());
    if sides.search.dim == 2 && !triangles {
        Some(format!(
            "2D Mesh \"{name}\" does not contain triangles{} Linear cell interpolation falls back to nearest-{} mapping.",
            if edges { "." } else { " or edges." },
            if edges { "projection" } else { "neighbor" }
        ))
    } else if sides.search.dim == 3 && c.tetrahedra.is_empty() {
        Some(format!(
            "3D Mesh \"{name}\" does not contain tetrahedra{}{} Linear cell interpolation falls back to nearest-{} mapping.",
            if edges { "" } else { ", edges" },
            if triangles { "." } else { " or triangles." },
            if edges || triangles { "projection" } else { "neighbor" }
        ))
    } else {
        None
    }
}

/// Builds the linear-cell-interpolation mapping from `from` to `to` (`names`: their names).
pub fn build(from: &MeshState, to: &MeshState, names: (&str, &str), conservative: bool) -> Result<WeightedMapping> {
    let sides = Sides::new(from, to, names, conservative);
    if let Some(w) = missing_cells_warning(&sides) {
        log::warn!("{w}");
    }
    WeightedMapping::build(
        &sides,
        conservative,
        |_| {},
        |index, v| index.cell_or_projection(&super::geometry::point(sides.origins.vertex(v))),
    )
}

#[cfg(test)]
mod tests {
    use super::super::test_meshes::*;
    use super::super::Mapping;
    use super::*;

    // Exact reproduction: each output is a sum of at most four O(1) products, so round-off is a
    // few 1e-16; 1e-13 leaves margin.
    const EXACT: f64 = 1e-13;

    /// The unit square as a 2D mesh of `n` x `n` cells, two triangles each.
    fn square(n: usize) -> MeshState {
        let s = grid_surface(n + 1, n + 1, |x, y| [x, y, 0.0]);
        let mut m = points(2, &s.coords.chunks(3).flat_map(|p| [p[0], p[1]]).collect::<Vec<_>>());
        m.connectivity = s.connectivity;
        m
    }

    #[test]
    fn linear_fields_inside_2d_triangles_are_reproduced() {
        let input = square(4);
        let output = points(2, &[0.13, 0.77, 0.5, 0.5, 0.999, 0.001, 0.31, 0.62, 0.0, 1.0]);
        let f = |p: &[f64]| vec![3.0 * p[0] - p[1] + 0.5, -2.0 * p[1]];
        let m = build(&input, &output, ("A", "B"), false).unwrap();
        assert_close(&m.map(&vector_field(&input, f), 2), &vector_field(&output, f), EXACT);
    }

    #[test]
    fn linear_fields_inside_3d_tetrahedra_are_reproduced() {
        let input = cube_tetrahedra(3);
        let out: Vec<f64> = (0..40)
            .flat_map(|i| [(i as f64 * 0.137) % 1.0, (i as f64 * 0.291) % 1.0, (i as f64 * 0.173) % 1.0])
            .collect();
        let output = points(3, &out);
        let f = |p: &[f64]| 1.0 + p[0] - 2.0 * p[1] + 4.0 * p[2];
        let m = build(&input, &output, ("A", "B"), false).unwrap();
        assert_close(&m.map(&field(&input, f), 1), &field(&output, f), EXACT);
    }

    #[test]
    fn conservative_keeps_sums_and_is_the_transpose() {
        let cells = cube_tetrahedra(2);
        let cloud = points(
            3,
            &(0..30)
                .flat_map(|i| [(i as f64 * 0.61) % 1.0, (i as f64 * 0.37) % 1.0, (i as f64 * 0.83) % 1.0])
                .collect::<Vec<_>>(),
        );
        let conservative = build(&cloud, &cells, ("P", "C"), true).unwrap();
        let consistent = build(&cells, &cloud, ("C", "P"), false).unwrap();
        let f: Vec<f64> = (0..30).map(|i| (i as f64).cos()).collect();
        let mapped = conservative.map(&f, 1);
        // 30 O(1) terms: round-off below 1e-13.
        assert!((f.iter().sum::<f64>() - mapped.iter().sum::<f64>()).abs() < 1e-12);
        let g: Vec<f64> = (0..cells.vertex_count()).map(|i| (i as f64 * 0.3).sin()).collect();
        let lhs: f64 = mapped.iter().zip(&g).map(|(a, b)| a * b).sum();
        let rhs: f64 = consistent.map(&g, 1).iter().zip(&f).map(|(a, b)| a * b).sum();
        assert!((lhs - rhs).abs() < 1e-12, "{lhs} vs {rhs}");
    }

    #[test]
    fn a_point_outside_the_cells_is_projected_onto_the_boundary() {
        // 2D: below the square the point projects onto the bottom edge, where a linear field
        // takes its value at the projected point (x, 0).
        let input = square(2);
        let output = points(2, &[0.3, -0.4, 1.5, 1.5]);
        let f = |p: &[f64]| 2.0 * p[0] + p[1];
        let mapped = build(&input, &output, ("A", "B"), false).unwrap().map(&field(&input, f), 1);
        // Beyond the corner (1, 1) no edge projection is valid: the corner vertex is taken.
        assert_close(&mapped, &[0.6, 3.0], EXACT);
    }

    #[test]
    fn warnings_name_the_fallback() {
        let mut input = square(1);
        let out = points(2, &[0.5, 0.5]);
        input.connectivity.triangles.clear();
        let w = missing_cells_warning(&Sides::new(&input, &out, ("Vol", "P"), false)).unwrap();
        assert_eq!(w, "2D Mesh \"Vol\" does not contain triangles. Linear cell interpolation falls back to nearest-projection mapping.");
        input.connectivity.edges.clear();
        let w = missing_cells_warning(&Sides::new(&input, &out, ("Vol", "P"), false)).unwrap();
        assert!(
            w.ends_with("triangles or edges. Linear cell interpolation falls back to nearest-neighbor mapping."),
            "{w}"
        );
        let mut solid = cube_tetrahedra(1);
        solid.connectivity.tetrahedra.clear();
        let out3 = points(3, &[0.5, 0.5, 0.5]);
        let w = missing_cells_warning(&Sides::new(&solid, &out3, ("S", "P"), false)).unwrap();
        assert_eq!(w, "3D Mesh \"S\" does not contain tetrahedra, edges or triangles. Linear cell interpolation falls back to nearest-neighbor mapping.");
        // Without cells the mapping still works, on the nearest vertex.
        let m = build(&solid, &points(3, &[0.1, 0.1, 0.1]), ("S", "P"), false).unwrap();
        assert_eq!(m.map(&field(&solid, |p| p[0] + 10.0 * p[1] + 100.0 * p[2]), 1), vec![0.0]);
    }
}
