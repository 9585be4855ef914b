//! `mapping:nearest-projection` (docs/design/coupling-semantics.md §7.3): every origin vertex
//! is projected onto the nearest element of the searched mesh — edges in 2D; triangles, then
//! edges in 3D — and interpolated linearly there; the nearest vertex where no projection is
//! valid or a vertex is closer (the candidate rule of `index`). Consistent searches the input
//! mesh for each output vertex; conservative searches the output mesh for each input vertex and
//! applies the weights transposed.

use super::weights::{Sides, WeightedMapping};
use crate::native::mesh::MeshState;
use crate::Result;

/// The warning libprecice gives when the searched mesh lacks the elements projected on; `None`
/// when it has them or there is nothing to map.
pub fn missing_elements_warning(sides: &Sides) -> Option<String> {
    let c = &sides.search.connectivity;
    if sides.origins.vertex_count() == 0 {
        return None;
    }
    let name = sides.search_name;
    if sides.search.dim == 2 && c.edges.is_empty() {
        Some(format!(
            "2D Mesh \"{name}\" does not contain edges. Nearest projection mapping falls back to nearest neighbor mapping."
        ))
    } else if sides.search.dim == 3 && c.triangles.is_empty() {
        Some(format!(
            "3D Mesh \"{name}\" does not contain triangles. Nearest projection mapping will map to primitives of lower dimension."
        ))
    } else {
        None
    }
}

/// Builds the nearest-projection mapping from `from` to `to` (`names`: their names).
pub fn build(from: &MeshState, to: &MeshState, names: (&str, &str), conservative: bool) -> Result<WeightedMapping> {
    let sides = Sides::new(from, to, names, conservative);
    if let Some(w) = missing_elements_warning(&sides) {
        log::warn!("{w}");
    }
    WeightedMapping::build(
        &sides,
        conservative,
        |index| index.prepare_projection(),
        |index, v| index.nearest_projection(&super::geometry::point(sides.origins.vertex(v))),
    )
}

#[cfg(test)]
mod tests {
    use super::super::test_meshes::*;
    use super::super::Mapping;
    use super::*;
    use crate::native::mesh::Connectivity;

    // Tolerance for exact reproduction: weights and values are O(1) and each output is a sum of
    // at most three products, so round-off stays within a few 1e-16; 1e-13 leaves margin.
    const EXACT: f64 = 1e-13;

    #[test]
    fn linear_field_on_a_2d_polyline_is_reproduced() {
        // A straight, irregularly spaced polyline on y = 0.5 x; output points on the line.
        let xs = [0.0, 0.3, 1.1, 1.5, 2.6, 4.0];
        let input = polyline(&xs.iter().map(|&x| [x, 0.5 * x]).collect::<Vec<_>>());
        let output = points(2, &[0.1, 0.05, 1.3, 0.65, 2.0, 1.0, 3.99, 1.995]);
        let f = |p: &[f64]| 2.0 * p[0] - 3.0 * p[1] + 1.0;
        let m = build(&input, &output, ("A", "B"), false).unwrap();
        assert_close(&m.map(&field(&input, f), 1), &field(&output, f), EXACT);
    }

    #[test]
    fn linear_vector_field_on_a_3d_surface_is_reproduced() {
        // A tilted plane z = 0.3 x - 0.2 y, triangulated on a 5 x 4 grid; output points on it.
        let input = grid_surface(5, 4, |x, y| [x, y, 0.3 * x - 0.2 * y]);
        let out: Vec<f64> = [[0.11, 0.73], [0.5, 0.5], [0.97, 0.02], [0.33, 0.91]]
            .iter()
            .flat_map(|&[x, y]| [x, y, 0.3 * x - 0.2 * y])
            .collect();
        let output = points(3, &out);
        let f = |p: &[f64]| vec![p[0] + 2.0 * p[1], 1.0 - p[2], 3.0 * p[0] - p[1] + 4.0 * p[2]];
        let m = build(&input, &output, ("A", "B"), false).unwrap();
        assert_close(&m.map(&vector_field(&input, f), 3), &vector_field(&output, f), EXACT);
        // A constant is reproduced anywhere, also off the surface (weights sum to one).
        let off = points(3, &[0.5, 0.5, 3.0, -1.0, 2.0, 0.0]);
        let m = build(&input, &off, ("A", "B"), false).unwrap();
        assert_close(&m.map(&vec![7.5; input.vertex_count()], 1), &[7.5, 7.5], EXACT);
    }

    #[test]
    fn conservative_keeps_sums_and_is_the_transpose_of_consistent() {
        let fine = grid_surface(6, 5, |x, y| [x, y, 0.1 * (x * x + y)]);
        let coarse = grid_surface(3, 3, |x, y| [x, y, 0.1 * (x * x + y) + 0.01]);
        let consistent = build(&coarse, &fine, ("C", "F"), false).unwrap();
        let conservative = build(&fine, &coarse, ("F", "C"), true).unwrap();
        let forces: Vec<f64> = (0..fine.vertex_count() * 2).map(|i| ((i * 7919) % 13) as f64 - 6.0).collect();
        let mapped = conservative.map(&forces, 2);
        for k in 0..2 {
            let sum = |v: &[f64]| v.iter().skip(k).step_by(2).sum::<f64>();
            // Sums of ~60 O(1) terms: round-off below 1e-13.
            assert!((sum(&forces) - sum(&mapped)).abs() < 1e-12, "component {k}");
        }
        // <K f, g> = <f, C g> for conservative K and consistent C between the same meshes.
        let g: Vec<f64> = (0..coarse.vertex_count()).map(|i| (i as f64).sin()).collect();
        let f: Vec<f64> = (0..fine.vertex_count()).map(|i| (i as f64 * 0.7).cos()).collect();
        let lhs: f64 = conservative.map(&f, 1).iter().zip(&g).map(|(a, b)| a * b).sum();
        let rhs: f64 = consistent.map(&g, 1).iter().zip(&f).map(|(a, b)| a * b).sum();
        assert!((lhs - rhs).abs() < 1e-12, "{lhs} vs {rhs}");
    }

    #[test]
    fn conservative_2d_keeps_the_sum_between_circles() {
        // Forces on a 40-gon distributed onto the edges of a 17-gon: every input value split
        // with weights summing to one, so each component's total is kept (round-off < 1e-13).
        let (fine, coarse) = (circle(40), circle(17));
        let forces: Vec<f64> = (0..80).map(|i| (i as f64 * 0.37).sin()).collect();
        let mapped = build(&fine, &coarse, ("F", "C"), true).unwrap().map(&forces, 2);
        assert_eq!(mapped.len(), 34);
        for k in 0..2 {
            let sum = |v: &[f64]| v.iter().skip(k).step_by(2).sum::<f64>();
            assert!((sum(&forces) - sum(&mapped)).abs() < 1e-13, "component {k}");
        }
    }

    #[test]
    fn a_point_outside_every_element_takes_the_nearest_vertex() {
        let input = polyline(&[[0.0, 0.0], [1.0, 0.0], [2.0, 0.0]]);
        let output = points(2, &[-0.5, 0.3, 2.4, -0.1]);
        let m = build(&input, &output, ("A", "B"), false).unwrap();
        assert_eq!(m.map(&[10.0, 20.0, 30.0], 1), vec![10.0, 30.0]);
    }

    #[test]
    fn without_edges_2d_degrades_to_nearest_neighbor_with_a_warning() {
        let mut input = polyline(&[[0.0, 0.0], [1.0, 0.0], [2.0, 0.0]]);
        input.connectivity = Connectivity::default();
        let output = points(2, &[0.4, 0.0, 1.6, 0.0]);
        let sides = Sides::new(&input, &output, ("Solid", "Fluid"), false);
        assert_eq!(
            missing_elements_warning(&sides).unwrap(),
            "2D Mesh \"Solid\" does not contain edges. Nearest projection mapping falls back to nearest neighbor mapping."
        );
        let m = build(&input, &output, ("Solid", "Fluid"), false).unwrap();
        assert_eq!(m.map(&[10.0, 20.0, 30.0], 1), vec![10.0, 30.0]);
        // Nothing to map: no warning.
        assert!(missing_elements_warning(&Sides::new(&input, &points(2, &[]), ("S", "F"), false)).is_none());
    }

    #[test]
    fn without_triangles_3d_maps_onto_edges_with_a_warning() {
        let mut input = polyline(&[[0.0, 0.0], [1.0, 0.0]]);
        input.dim = 3;
        input.coords = vec![0.0, 0.0, 0.0, 1.0, 0.0, 0.0];
        let output = points(3, &[0.25, 0.5, 0.5]);
        let sides = Sides::new(&input, &output, ("A", "B"), false);
        assert!(missing_elements_warning(&sides).unwrap().contains("primitives of lower dimension"));
        let m = build(&input, &output, ("A", "B"), false).unwrap();
        assert_close(&m.map(&[4.0, 8.0], 1), &[5.0], EXACT);
    }

    #[test]
    fn an_empty_search_mesh_is_refused_with_its_name() {
        let err = build(&points(2, &[]), &points(2, &[0.0, 0.0]), ("Solid", "Fluid"), false).err().unwrap();
        assert!(err.to_string().contains("\"Solid\" has no vertices"), "{err}");
    }

    /// Error of consistent nearest projection of f = sin(2x) + y² + z from a refined circle
    /// (2D) or cylinder (3D) to points on the exact surface. Linear interpolation along an
    /// element of size h errs by O(h²); the exact surface lies O(h²) (the sagitta h²/8R) off the
    /// chords, which moves the projected point by O(h²) too; so the max error is second order.
    fn circle_error(n: usize) -> f64 {
        let input = circle(n);
        let m = 97; // output angles not aligned with the input vertices
        let out: Vec<f64> = (0..m).flat_map(|i| polar(0.3 + i as f64 * std::f64::consts::TAU / m as f64)).collect();
        let output = points(2, &out);
        let f = |p: &[f64]| (2.0 * p[0]).sin() + p[1] * p[1];
        let mapped = build(&input, &output, ("A", "B"), false).unwrap().map(&field(&input, f), 1);
        max_error(&mapped, &field(&output, f))
    }

    fn cylinder_error(n: usize) -> f64 {
        let input = cylinder(n, n / 2);
        let out: Vec<f64> =
            (0..211).flat_map(|i| cylinder_point(0.1 + i as f64 * 0.117, ((i * 37) % 211) as f64 / 211.0)).collect();
        let output = points(3, &out);
        let f = |p: &[f64]| (2.0 * p[0]).sin() + p[1] * p[1] + p[2];
        let mapped = build(&input, &output, ("A", "B"), false).unwrap().map(&field(&input, f), 1);
        max_error(&mapped, &field(&output, f))
    }

    #[test]
    fn second_order_convergence_on_curved_surfaces() {
        for (name, err) in [("circle", circle_error as fn(usize) -> f64), ("cylinder", cylinder_error)] {
            let ns: [f64; 4] = [16.0, 32.0, 64.0, 128.0];
            let e: Vec<f64> = ns.iter().map(|&n| err(n as usize)).collect();
            // Least-squares slope of log e against log h (h ~ 1/n) over the four levels: the max
            // error over scattered points samples each element's error profile differently at
            // each level, so single halvings scatter around 2 (1.8 to 2.1 here); the fit does not.
            let (x, y): (Vec<f64>, Vec<f64>) = ns.iter().zip(&e).map(|(n, e)| (-n.ln(), e.ln())).unzip();
            let (mx, my) = (x.iter().sum::<f64>() / 4.0, y.iter().sum::<f64>() / 4.0);
            let order = x.iter().zip(&y).map(|(a, b)| (a - mx) * (b - my)).sum::<f64>()
                / x.iter().map(|a| (a - mx) * (a - mx)).sum::<f64>();
            eprintln!("{name}: errors {e:?}, fitted order {order:.3}");
            assert!((1.9..2.1).contains(&order), "{name}: errors {e:?}, order {order}");
        }
    }

    /// Run in release: `cargo test --release -p tidelink-coupling --lib hundred_thousand -- --ignored`.
    #[test]
    #[ignore = "a timing, meaningful in release builds only"]
    fn hundred_thousand_vertices_onto_a_surface_of_a_hundred_thousand() {
        let input = grid_surface(317, 317, |x, y| [x, y, 0.1 * (3.0 * x).sin() * y]);
        let output =
            grid_surface(316, 316, |x, y| [x * 0.999 + 0.0004, y * 0.998 + 0.001, 0.1 * (3.0 * x).sin() * y + 0.01]);
        let start = std::time::Instant::now();
        let m = build(&input, &output, ("A", "B"), false).unwrap();
        let built = start.elapsed();
        let out = m.map(&vec![1.0; input.vertex_count()], 1);
        eprintln!(
            "nearest-projection {} onto {} vertices ({} triangles): built in {built:?}, mapped in {:?}",
            output.vertex_count(),
            input.vertex_count(),
            input.connectivity.triangles.len(),
            start.elapsed() - built
        );
        assert_close(&out, &vec![1.0; output.vertex_count()], EXACT);
    }
}
