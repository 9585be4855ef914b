//! `rbf-pum-direct` and the `rbf` alias: exactness where the partition of unity guarantees it,
//! closeness to the global method, and its refusals.

use super::test_support::*;
use crate::native::mesh::MeshState;
use tidelink_precice_config::{MappingConstraint as C, MappingMethod as M, Polynomial as P};

/// The concrete partition of unity (to count clusters).
fn pum(
    from: &MeshState,
    to: &MeshState,
    basis: &tidelink_precice_config::BasisFunctionDecl,
    poly: P,
) -> super::pum::Pum {
    let d = decl(M::RbfPumDirect, C::Consistent, basis.clone(), poly);
    let s = super::Setup {
        basis: super::Basis::from_decl(basis).unwrap(),
        polynomial: poly,
        active: [true, true, from.dim == 3],
        conservative: false,
        what: "test".into(),
    };
    let params = super::pum_params("test", &d.rbf).unwrap();
    super::pum::build_pum(&s, &super::points(from), &super::points(to), params).unwrap()
}

#[test]
fn linear_fields_are_reproduced_exactly_across_many_clusters() {
    // Each cluster reproduces linear fields (separate polynomial) and the weights sum to one,
    // so the blend does too, to round-off times the local condition numbers.
    for (a, b) in
        [(grid(2, 20, 0.0, 0.1), inner(&grid(2, 15, 0.0, 0.1))), (grid(3, 7, 0.0, 0.1), inner(&grid(3, 6, 0.0, 0.1)))]
    {
        for basis in [
            bf("thin-plate-splines", None, None),
            bf("compact-polynomial-c2", None, Some(0.5)),
            bf("inverse-multiquadrics", Some(0.3), None),
        ] {
            assert!(pum(&a, &b, &basis, P::Separate).cluster_count() > 8, "too few clusters to test blending");
            let m = build(M::RbfPumDirect, C::Consistent, &basis, P::Separate, &a, &b);
            let e = max_diff(&m.map(&sample(&a, linear), 1), &sample(&b, linear));
            assert!(e < 1e-8, "{} {}D: {e}", basis.name, a.dim);
            // Conservative: sums and first moments kept (transpose of a linear-exact operator).
            let c = build(M::RbfPumDirect, C::Conservative, &basis, P::Separate, &a, &b);
            let load = sample(&a, |p| 1.0 + p[0] * p[1]);
            let (mi, mo) = (moments(&a, &load), moments(&b, &c.map(&load, 1)));
            for k in 0..mi.len() {
                assert!((mi[k] - mo[k]).abs() < 1e-9 * mi[0], "{} moment {k}: {} {}", basis.name, mi[k], mo[k]);
            }
        }
    }
}

#[test]
fn without_polynomial_constants_are_approximated_and_sums_drift_little() {
    // No polynomial: each cluster only approximates a constant (compact C2 of radius 0.3 on
    // spacing 1/29); the weights still sum to one, so the error is the local interpolants'.
    // Measured: 9 % at the box's corners; we assert below 20 %, the point being that it is
    // approximate, not exact.
    let (a, b) = (grid(2, 30, 0.0, 0.1), grid(2, 23, 0.01, 0.1));
    let basis = bf("compact-polynomial-c2", None, Some(0.3));
    let m = build(M::RbfPumDirect, C::Consistent, &basis, P::Off, &a, &b);
    let e = max_diff(&m.map(&vec![1.0; 900], 1), &vec![1.0; b.vertex_count()]);
    assert!(e < 0.2 && e > 1e-10, "{e}");
}

#[test]
fn close_to_the_global_method_on_a_smooth_field() {
    // f = sin(3x) cos(2y) on 256 inputs, read inside the square: the global and the partitioned
    // TPS interpolants both approximate f to the mesh's resolution (h = 1/15, h² |f''| / 8 ≈
    // 5e-3; measured 6e-4 global, 1.3e-3 partitioned), and so differ by at most the sum of the
    // two errors (measured 1.2e-3).
    let f = |p: &[f64]| (3.0 * p[0]).sin() * (2.0 * p[1]).cos();
    let a = grid(2, 16, 0.0, 0.0);
    let b = inner(&grid(2, 12, 0.0, 0.1));
    let basis = bf("thin-plate-splines", None, None);
    let g = build(M::RbfGlobalDirect, C::Consistent, &basis, P::Separate, &a, &b).map(&sample(&a, f), 1);
    let p = build(M::RbfPumDirect, C::Consistent, &basis, P::Separate, &a, &b).map(&sample(&a, f), 1);
    let exact = sample(&b, f);
    let (eg, ep, d) = (max_diff(&g, &exact), max_diff(&p, &exact), max_diff(&g, &p));
    eprintln!("global error {eg:.2e}, pum error {ep:.2e}, difference {d:.2e}");
    assert!(eg < 5e-3 && ep < 5e-3 && d <= eg + ep, "{eg} {ep} {d}");
}

#[test]
fn the_alias_is_a_partition_of_unity_of_100_vertices_per_cluster() {
    // 144 input vertices: fewer than twice 100, so the alias uses one cluster holding every
    // vertex, i.e. exactly the global system with separate polynomial; rbf-pum-direct's default
    // 50 vertices per cluster splits it (and so differs).
    let (a, b) = (grid(2, 12, 0.0, 0.1), inner(&grid(2, 11, 0.0, 0.1)));
    let basis = bf("thin-plate-splines", None, None);
    let x = sample(&a, |p| (3.0 * p[0]).sin() + p[1] * p[1]);
    let alias = build(M::Rbf, C::Consistent, &basis, P::Separate, &a, &b).map(&x, 1);
    let global = build(M::RbfGlobalDirect, C::Consistent, &basis, P::Separate, &a, &b).map(&x, 1);
    let split = build(M::RbfPumDirect, C::Consistent, &basis, P::Separate, &a, &b).map(&x, 1);
    assert!(max_diff(&alias, &global) < 1e-10);
    assert!(max_diff(&split, &global) > 1e-8);
    assert!(pum(&a, &b, &basis, P::Separate).cluster_count() > 1);
}

#[test]
fn without_projection_the_grid_starts_inside_the_box() {
    let (a, b) = (grid(2, 30, 0.0, 0.1), grid(2, 23, 0.01, 0.1));
    let basis = bf("thin-plate-splines", None, None);
    let mut d = decl(M::RbfPumDirect, C::Consistent, basis, P::Separate);
    d.rbf.project_to_input = false;
    let m = super::build(&d, &a, &b).unwrap();
    assert!(max_diff(&m.map(&sample(&a, linear), 1), &sample(&b, linear)) < 1e-8);
}

#[test]
fn an_output_vertex_outside_every_cluster_is_refused() {
    let a = grid(2, 30, 0.0, 0.1);
    let mut coords = inner(&grid(2, 5, 0.0, 0.0)).coords;
    coords.extend([40.0, 40.0]);
    let b = mesh(2, coords);
    let d = decl(M::RbfPumDirect, C::Consistent, bf("thin-plate-splines", None, None), P::Separate);
    let e = super::build(&d, &a, &b).err().expect("accepted").to_string();
    assert!(e.contains("output vertex 25") && e.contains("vertices-per-cluster"), "{e}");
    let far = mesh(2, vec![50.0, 50.0]);
    let e = super::build(&d, &a, &far).err().expect("accepted").to_string();
    assert!(e.contains("do not overlap"), "{e}");
}

/// Release-build timing at 10⁵ vertices (run with `--release -- --ignored --nocapture`), and
/// of the global methods at 2 000 for comparison.
#[test]
#[ignore]
fn timing_at_1e5_vertices() {
    let (a, b) = (grid(2, 45, 0.0, 0.1), inner(&grid(2, 44, 0.0, 0.1)));
    for (method, basis) in [
        (M::RbfGlobalDirect, bf("thin-plate-splines", None, None)),
        (M::RbfGlobalIterative, bf("compact-polynomial-c2", None, Some(0.1))),
    ] {
        let t = std::time::Instant::now();
        let m = build(method.clone(), C::Consistent, &basis, P::Separate, &a, &b);
        let built = t.elapsed();
        let t = std::time::Instant::now();
        let y = m.map(&sample(&a, linear), 1);
        eprintln!(
            "{} {} -> {} vertices: build {built:?}, map {:?}, max error on a linear field {:.1e}",
            method.tag(),
            a.vertex_count(),
            b.vertex_count(),
            t.elapsed(),
            max_diff(&y, &sample(&b, linear))
        );
    }
    let (a, b) = (grid(3, 47, 0.0, 0.1), inner(&grid(3, 46, 0.0, 0.1)));
    for radius in [0.05, 0.1] {
        let basis = bf("compact-polynomial-c2", None, Some(radius));
        let t = std::time::Instant::now();
        let m = build(M::RbfPumDirect, C::Consistent, &basis, P::Separate, &a, &b);
        let built = t.elapsed();
        let x = sample(&a, linear);
        let t = std::time::Instant::now();
        let y = m.map(&x, 1);
        let mapped = t.elapsed();
        eprintln!(
        "PUM {} -> {} vertices, C2 radius {radius}: build {built:?}, map {mapped:?}, max error on a linear field {:.1e}",
        a.vertex_count(),
        b.vertex_count(),
        max_diff(&y, &sample(&b, linear))
    );
    }
}

#[test]
fn every_basis_function_blends_linear_fields_exactly() {
    // 225 inputs, 50 per cluster: several clusters; each basis reproduces linear fields in each
    // cluster (separate polynomial), so the blend does (round-off × local condition numbers).
    let (a, b) = (grid(2, 15, 0.0, 0.1), inner(&grid(2, 9, 0.0, 0.1)));
    for basis in all_bases() {
        assert!(pum(&a, &b, &basis, P::Separate).cluster_count() > 3);
        let m = build(M::RbfPumDirect, C::Consistent, &basis, P::Separate, &a, &b);
        let e = max_diff(&m.map(&sample(&a, linear), 1), &sample(&b, linear));
        assert!(e < 1e-7, "{}: {e}", basis.name);
    }
}

#[test]
fn conservative_is_the_transpose_of_consistent() {
    // Both directions cluster the same mesh (A) with the same outputs (B): Cᵀ exactly.
    let (a, b) = (grid(2, 15, 0.0, 0.1), inner(&grid(2, 9, 0.0, 0.1)));
    for basis in [bf("thin-plate-splines", None, None), bf("compact-polynomial-c4", None, Some(0.4))] {
        for poly in [P::Separate, P::Off] {
            let c = build(M::RbfPumDirect, C::Consistent, &basis, poly, &a, &b);
            let ct = build(M::RbfPumDirect, C::Conservative, &basis, poly, &b, &a);
            let x = sample(&a, |p| (5.0 * p[0] + 1.0).cos() + p[1]);
            let y = sample(&b, |p| (2.0 * p[1]).sin() - p[0]);
            let lhs: f64 = y.iter().zip(c.map(&x, 1)).map(|(a, b)| a * b).sum();
            let rhs: f64 = x.iter().zip(ct.map(&y, 1)).map(|(a, b)| a * b).sum();
            assert!((lhs - rhs).abs() < 1e-10 * (1.0 + lhs.abs()), "{} {poly:?}: {lhs} {rhs}", basis.name);
        }
    }
}

#[test]
fn the_partition_of_unity_converges_under_refinement() {
    // f = sin(2x) cos(y), TPS with separate polynomial, read at fixed points inside. Halving h
    // keeps about 50 vertices per cluster, so the clusters shrink with h and each local TPS
    // interpolant converges like h² (as the global one, see tests_global); the Wendland
    // weights are smooth and sum to one, adding no error of their own. We assert a gain of at
    // least 1.5 in log2 of the error per halving (measured: 1.96, 2.03).
    let f = |p: &[f64]| (2.0 * p[0]).sin() * p[1].cos();
    let probe = inner(&grid(2, 7, 0.0, 0.0));
    let mut errs = Vec::new();
    for n in [9, 17, 33] {
        let a = grid(2, n, 0.0, 0.0);
        let m = build(M::RbfPumDirect, C::Consistent, &bf("thin-plate-splines", None, None), P::Separate, &a, &probe);
        errs.push(max_diff(&m.map(&sample(&a, f), 1), &sample(&probe, f)));
    }
    let rates: Vec<f64> = errs.windows(2).map(|w| (w[0] / w[1]).log2()).collect();
    eprintln!("PUM errors {errs:?}, rates {rates:?}");
    assert!(rates.iter().all(|&r| r > 1.5), "errors {errs:?} rates {rates:?}");
}
