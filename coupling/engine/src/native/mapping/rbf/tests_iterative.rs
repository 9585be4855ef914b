//! `rbf-global-iterative`: the sparse assembly, and the mapping's properties to the solver's
//! tolerance.

use super::basis::Basis;
use super::sparse::Csr;
use super::test_support::*;
use tidelink_precice_config::{MappingConstraint as C, MappingMethod as M, Polynomial as P};

#[test]
fn compact_bases_store_only_pairs_within_the_support_radius() {
    // A regular 2D grid of spacing h = 0.1 and radius 1.5 h: an interior vertex sees itself,
    // its 4 axis neighbours (h) and its 4 diagonal ones (1.41 h), not the next ring (2 h).
    let g = grid(2, 11, 0.0, 0.0);
    let pts: Vec<[f64; 3]> = g.coords.chunks(2).map(|p| [p[0], p[1], 0.0]).collect();
    let basis = Basis::CompactPolynomial { order: 2, radius: 0.15 };
    let c = Csr::kernel(&basis, &pts, &pts, &[true, true, false], usize::MAX).unwrap();
    // 81 interior vertices × 9, 36 edge vertices × 6, 4 corners × 4.
    assert_eq!(c.entries(), 81 * 9 + 36 * 6 + 4 * 4);
    // Hostile sizes are refused before the dense assembly allocates.
    assert!(Csr::kernel(&Basis::ThinPlateSplines, &pts, &pts, &[true, true, false], 1000).is_err());
}

/// Basis functions for the iterative tests: CG (SPD compact, Gaussian) and GMRES (TPS, MQ).
fn cases() -> Vec<(tidelink_precice_config::BasisFunctionDecl, P)> {
    vec![
        (bf("compact-polynomial-c2", None, Some(0.6)), P::Separate),
        (bf("compact-tps-c2", None, Some(0.6)), P::Off),
        (bf("gaussian", Some(4.0), None), P::Separate),
        (bf("thin-plate-splines", None, None), P::Separate),
        (bf("thin-plate-splines", None, None), P::On),
        (bf("multiquadrics", Some(0.3), None), P::On),
    ]
}

#[test]
fn linear_fields_and_sums_are_kept_to_the_solver_tolerance() {
    for (a, b) in [(grid(2, 8, 0.0, 0.1), grid(2, 6, 0.05, 0.1)), (grid(3, 4, 0.0, 0.1), grid(3, 3, 0.1, 0.1))] {
        for (basis, poly) in cases() {
            let m = build(M::RbfGlobalIterative, C::Consistent, &basis, poly, &a, &b);
            if poly != P::Off {
                // solver-rtol 1e-9 on data of order 5 amplified by |A C⁻¹| (order 10 here).
                let e = max_diff(&m.map(&sample(&a, linear), 1), &sample(&b, linear));
                assert!(e < 1e-6, "{} {poly:?}: {e}", basis.name);
                let cons = build(M::RbfGlobalIterative, C::Conservative, &basis, poly, &a, &b);
                let load = sample(&a, |p| 1.0 + p[0] * p[1]);
                let (mi, mo) = (moments(&a, &load), moments(&b, &cons.map(&load, 1)));
                for k in 0..mi.len() {
                    assert!((mi[k] - mo[k]).abs() < 1e-6 * mi[0], "{} {poly:?} moment {k}", basis.name);
                }
            }
            // The iterative and direct methods solve the same system: they agree to the tolerance.
            let d = build(M::RbfGlobalDirect, C::Consistent, &basis, poly, &a, &b);
            let x = sample(&a, |p| (4.0 * p[0]).sin() * p[1]);
            let e = max_diff(&m.map(&x, 1), &d.map(&x, 1));
            assert!(e < 1e-6, "{} {poly:?} vs direct: {e}", basis.name);
        }
    }
}

#[test]
fn an_unreachable_tolerance_still_returns_values() {
    // No solve reaches a relative residual of 1e-300 (round-off stops near 1e-16): the solver
    // runs to its iteration limit, warns and returns the iterate (finite values, no panic)
    // rather than failing a time window.
    let (a, b) = (grid(2, 8, 0.0, 0.1), grid(2, 6, 0.05, 0.1));
    let mut d = decl(M::RbfGlobalIterative, C::Consistent, bf("gaussian", Some(4.0), None), P::Off);
    d.rbf.solver_rtol = 1e-300;
    let out = super::build(&d, &a, &b).unwrap().map(&sample(&a, linear), 1);
    assert!(out.iter().all(|v| v.is_finite()));
}

#[test]
fn every_basis_function_reproduces_linear_fields_iteratively() {
    // As for the direct method, to the solver's tolerance (1e-9 relative, times |A C⁻¹|).
    let (a, b) = (grid(2, 6, 0.0, 0.1), grid(2, 5, 0.05, 0.1));
    for basis in all_bases() {
        let m = build(M::RbfGlobalIterative, C::Consistent, &basis, P::Separate, &a, &b);
        let e = max_diff(&m.map(&sample(&a, linear), 1), &sample(&b, linear));
        assert!(e < 1e-6, "{}: {e}", basis.name);
    }
}

#[test]
fn dead_axes_are_left_out_of_the_sparse_search_too() {
    // Inputs on x = 0, outputs on x = 5 at the same y, compact support 0.5: with x dead the
    // pairs are found (distance 0) and the data come back unchanged (interpolation property).
    let ys = [0.0, 0.2, 0.5, 0.7, 1.0];
    let a = mesh(2, ys.iter().flat_map(|y| [0.0, *y]).collect());
    let b = mesh(2, ys.iter().flat_map(|y| [5.0, *y]).collect());
    let mut d = decl(M::RbfGlobalIterative, C::Consistent, bf("compact-polynomial-c2", None, Some(0.5)), P::Separate);
    d.rbf.dead_axes = [true, false, false];
    let data = [3.0, -1.0, 2.0, 0.5, 4.0];
    let out = super::build(&d, &a, &b).unwrap().map(&data, 1);
    // solver-rtol 1e-9 on data of order 4.
    assert!(max_diff(&out, &data) < 1e-7, "{out:?}");
}
