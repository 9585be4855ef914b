//! `rbf-global-direct` against analytic expectations, for every basis function.

use super::test_support::*;
use tidelink_precice_config::{MappingConstraint as C, MappingMethod as M, Polynomial as P};

/// The polynomial variants each basis allows (`on` only with the non-SPD bases).
fn variants(name: &str) -> Vec<P> {
    let spd = !matches!(name, "thin-plate-splines" | "multiquadrics" | "volume-splines");
    if spd {
        vec![P::Separate, P::Off]
    } else {
        vec![P::Separate, P::On, P::Off]
    }
}

/// 2D (6×6 input, 5×5 output) and 3D (4×4×4 input, 3×3×3 output) meshes that do not coincide.
fn meshes() -> Vec<(crate::native::mesh::MeshState, crate::native::mesh::MeshState)> {
    vec![(grid(2, 6, 0.0, 0.1), grid(2, 5, 0.05, 0.1)), (grid(3, 4, 0.0, 0.1), grid(3, 3, 0.1, 0.1))]
}

#[test]
fn linear_fields_are_reproduced_with_a_polynomial_and_inputs_always() {
    for (a, b) in meshes() {
        for basis in all_bases() {
            for poly in variants(&basis.name) {
                let m = build(M::RbfGlobalDirect, C::Consistent, &basis, poly, &a, &b);
                let out = m.map(&sample(&a, linear), 1);
                if poly != P::Off {
                    // Exact in exact arithmetic; the residual of the polynomial fit (~1e-15) is
                    // amplified by the interpolation matrix's condition number (< 1e7 for these
                    // meshes and parameters), so 1e-7 on values of order 5.
                    let e = max_diff(&out, &sample(&b, linear));
                    assert!(e < 1e-7, "{} {poly:?} {}D: {e}", basis.name, a.dim);
                }
                // Interpolation: mapping onto the input vertices returns the input (any data).
                let same = build(M::RbfGlobalDirect, C::Consistent, &basis, poly, &a, &a);
                let data = sample(&a, |p| (3.0 * p[0]).sin() + p[1] * p[1]);
                let e = max_diff(&same.map(&data, 1), &data);
                assert!(e < 1e-7, "interpolation {} {poly:?} {}D: {e}", basis.name, a.dim);
            }
        }
    }
}

#[test]
fn without_polynomial_constants_are_only_approximated() {
    // No polynomial: constants are reproduced only as well as the basis functions' span
    // approximates them. For thin-plate splines between 36 vertices of spacing 0.2 the error is
    // of order one percent; we assert it is below 10 % and not round-off (it is not exact).
    let (a, b) = (grid(2, 6, 0.0, 0.1), grid(2, 5, 0.05, 0.1));
    let m = build(M::RbfGlobalDirect, C::Consistent, &bf("thin-plate-splines", None, None), P::Off, &a, &b);
    let e = max_diff(&m.map(&vec![1.0; 36], 1), &[1.0; 25]);
    assert!(e < 0.1 && e > 1e-8, "{e}");
}

#[test]
fn conservative_keeps_sums_and_with_a_polynomial_first_moments() {
    for (a, b) in meshes() {
        for basis in all_bases() {
            for poly in variants(&basis.name) {
                let m = build(M::RbfGlobalDirect, C::Conservative, &basis, poly, &a, &b);
                let load = sample(&a, |p| 1.0 + p[0] * p[0] - 0.3 * p[1]);
                let out = m.map(&load, 1);
                let (mi, mo) = (moments(&a, &load), moments(&b, &out));
                let n = if poly == P::Off { 0 } else { mi.len() };
                // Without polynomial nothing is kept exactly (checked: the sum drifts); with it
                // the sum and moments agree to round-off amplified by the condition number.
                for k in 0..n {
                    assert!((mi[k] - mo[k]).abs() < 1e-7 * mi[0].abs(), "{} {poly:?} moment {k}", basis.name);
                }
            }
        }
    }
}

#[test]
fn conservative_is_the_transpose_of_consistent() {
    // <y, Cx> = <Cᵀy, x> with C consistent A→B and Cᵀ conservative B→A, for arbitrary x, y.
    for (a, b) in meshes() {
        for basis in all_bases() {
            for poly in variants(&basis.name) {
                let c = build(M::RbfGlobalDirect, C::Consistent, &basis, poly, &a, &b);
                let ct = build(M::RbfGlobalDirect, C::Conservative, &basis, poly, &b, &a);
                let x = sample(&a, |p| (5.0 * p[0] + 1.0).cos() + p[1]);
                let y = sample(&b, |p| (2.0 * p[1]).sin() - p[0]);
                let lhs: f64 = y.iter().zip(c.map(&x, 1)).map(|(a, b)| a * b).sum();
                let rhs: f64 = x.iter().zip(ct.map(&y, 1)).map(|(a, b)| a * b).sum();
                // Same operator, applied in two orders: round-off only.
                assert!((lhs - rhs).abs() < 1e-10 * (1.0 + lhs.abs()), "{} {poly:?}: {lhs} {rhs}", basis.name);
            }
        }
    }
}

#[test]
fn vector_components_map_independently() {
    let (a, b) = (grid(2, 6, 0.0, 0.1), grid(2, 5, 0.05, 0.1));
    let basis = bf("compact-polynomial-c2", None, Some(0.8));
    let m = build(M::RbfGlobalDirect, C::Consistent, &basis, P::Separate, &a, &b);
    let (f, g) = (sample(&a, linear), sample(&a, |p| p[0] * p[1]));
    let both: Vec<f64> = f.iter().zip(&g).flat_map(|(x, y)| [*x, *y]).collect();
    let out = m.map(&both, 2);
    let (mf, mg) = (m.map(&f, 1), m.map(&g, 1));
    let split: Vec<f64> = mf.iter().zip(&mg).flat_map(|(x, y)| [*x, *y]).collect();
    assert!(max_diff(&out, &split) < 1e-14);
}

#[test]
fn thin_plate_splines_converge_at_second_order_on_a_smooth_field() {
    // f = sin(2x) cos(y) on [0,1]², TPS with separate polynomial, evaluated at fixed points
    // inside. The TPS interpolant of a smooth function converges like h² in the interior
    // (h^(ν) with ν = 2 the order of the TPS native space, the boundary layer lowering the
    // maximum norm); we assert each halving of h gains at least 1.5 in log2 of the error.
    let f = |p: &[f64]| (2.0 * p[0]).sin() * p[1].cos();
    let probe = grid(2, 7, 0.0, 0.0);
    let inner = mesh(2, probe.coords.iter().map(|c| 0.2 + 0.6 * c).collect());
    // Measured rates: 3.5 and 6.4 (the interior points see almost no boundary layer).
    let mut errs = Vec::new();
    for n in [5, 9, 17] {
        let a = grid(2, n, 0.0, 0.0);
        let m =
            build(M::RbfGlobalDirect, C::Consistent, &bf("thin-plate-splines", None, None), P::Separate, &a, &inner);
        errs.push(max_diff(&m.map(&sample(&a, f), 1), &sample(&inner, f)));
    }
    let rates: Vec<f64> = errs.windows(2).map(|w| (w[0] / w[1]).log2()).collect();
    eprintln!("TPS errors {errs:?}, rates {rates:?}");
    assert!(rates.iter().all(|&r| r > 1.5), "errors {errs:?} rates {rates:?}");
}

#[test]
fn dead_axes_are_left_out_of_the_distances() {
    // Inputs on x = 0, outputs on x = 5 at the same y: with x dead they coincide, so any data
    // is returned unchanged (the interpolation property); without, it is not.
    let ys = [0.0, 0.2, 0.5, 0.7, 1.0];
    let a = mesh(2, ys.iter().flat_map(|y| [0.0, *y]).collect());
    let b = mesh(2, ys.iter().flat_map(|y| [5.0, *y]).collect());
    let mut d = decl(M::RbfGlobalDirect, C::Consistent, bf("thin-plate-splines", None, None), P::Separate);
    let data = [3.0, -1.0, 2.0, 0.5, 4.0];
    let plain = super::build(&d, &a, &b).unwrap().map(&data, 1);
    assert!(max_diff(&plain, &data) > 0.1);
    d.rbf.dead_axes = [true, false, false];
    let dead = super::build(&d, &a, &b).unwrap().map(&data, 1);
    assert!(max_diff(&dead, &data) < 1e-10, "{dead:?}");
}

#[test]
fn a_flat_mesh_drops_the_polynomial_axis_it_cannot_determine() {
    // 3D vertices all on the plane z = 0.3: the z column of the polynomial is a multiple of the
    // constant one, so the separate fit drops z and still reproduces 1 + 2x - 3y exactly.
    let flat =
        |g: crate::native::mesh::MeshState| mesh(3, g.coords.chunks(2).flat_map(|p| [p[0], p[1], 0.3]).collect());
    let (a, b) = (flat(grid(2, 6, 0.0, 0.1)), flat(grid(2, 5, 0.05, 0.1)));
    let m = build(M::RbfGlobalDirect, C::Consistent, &bf("thin-plate-splines", None, None), P::Separate, &a, &b);
    let e = max_diff(&m.map(&sample(&a, linear), 1), &sample(&b, linear));
    assert!(e < 1e-9, "{e}");
}

#[test]
fn the_direction_does_not_change_the_operator() {
    // read and write only decide which participant computes the mapping.
    let (a, b) = (grid(3, 4, 0.0, 0.1), grid(3, 3, 0.1, 0.1));
    let x = sample(&a, |p| p[0] * p[1] + p[2]);
    for method in [M::RbfGlobalDirect, M::RbfGlobalIterative, M::RbfPumDirect, M::Rbf] {
        let mut d = decl(method, C::Consistent, bf("compact-polynomial-c4", None, Some(0.9)), P::Separate);
        let read = super::build(&d, &a, &b).unwrap().map(&x, 1);
        d.direction = tidelink_precice_config::MappingDirection::Write;
        assert_eq!(super::build(&d, &a, &b).unwrap().map(&x, 1), read);
    }
}
