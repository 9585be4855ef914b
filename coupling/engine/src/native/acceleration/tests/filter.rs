//! The QR filters against least-squares solutions computed independently (nalgebra's SVD).

use crate::native::acceleration::filter::{filter, Qr};
use nalgebra::{DMatrix, DVector};
use tidelink_precice_config::FilterKind;

const ALL: [FilterKind; 4] = [FilterKind::Qr1, FilterKind::Qr1Absolute, FilterKind::Qr2, FilterKind::Qr3];

fn v(x: &[f64]) -> DVector<f64> {
    DVector::from_column_slice(x)
}

/// Three well-conditioned columns of length 6, newest first.
fn columns() -> Vec<DVector<f64>> {
    vec![v(&[1.0, 2.0, 0.0, -1.0, 0.5, 0.0]), v(&[0.0, 1.0, 3.0, 0.0, -1.0, 1.0]), v(&[2.0, -1.0, 0.0, 1.0, 1.0, 2.0])]
}

fn rhs() -> DVector<f64> {
    v(&[0.3, -1.0, 2.0, 0.7, 0.1, -0.4])
}

/// min ‖V α − b‖ by SVD, independent of the code under test.
fn least_squares(cols: &[DVector<f64>], b: &DVector<f64>) -> DVector<f64> {
    DMatrix::from_columns(cols).svd(true, true).solve(b, 1e-14).unwrap()
}

#[test]
fn decomposition_reproduces_the_columns() {
    let c = columns();
    let (qr, ratios) = Qr::decompose(&c);
    let q = DMatrix::from_columns(&qr.q);
    assert!((&q * &qr.r - DMatrix::from_columns(&c)).norm() < 1e-13);
    assert!((q.transpose() * &q - DMatrix::identity(3, 3)).norm() < 1e-13);
    assert!(ratios.iter().all(|r| *r > 0.1));
}

#[test]
fn every_filter_keeps_well_conditioned_columns_and_the_least_squares_solution() {
    let c = columns();
    let expected = least_squares(&c, &rhs());
    for kind in ALL {
        for new in [0, 1, 3] {
            let (kept, qr) = filter(kind, 1e-2, &c, new);
            assert_eq!(kept, [0, 1, 2], "{kind:?} new {new}");
            let alpha = qr.solve(&rhs());
            assert!((alpha - &expected).norm() < 1e-12, "{kind:?} new {new}");
        }
    }
}

#[test]
fn every_filter_removes_an_exactly_duplicated_older_column() {
    // [a, b, a]: the older copy of a goes; the solution is that of [a, b].
    let c = columns();
    let dup = vec![c[0].clone(), c[1].clone(), c[0].clone()];
    let expected = least_squares(&dup[..2], &rhs());
    for kind in ALL {
        let (kept, qr) = filter(kind, 1e-8, &dup, 1);
        assert_eq!(kept, [0, 1], "{kind:?}");
        assert!((qr.solve(&rhs()) - &expected).norm() < 1e-12, "{kind:?}");
    }
}

#[test]
fn qr1_is_relative_to_the_norm_of_r_and_qr1_absolute_is_not() {
    // b = (100, 0, …) newest, a = (0, 5, 0, …): R = diag(100, 5), ‖R‖_F ≈ 100.12.
    // QR1 with limit 0.1: 5 < 10.01 → a goes. QR1-absolute with limit 0.1: 5 ≥ 0.1 → kept.
    let c = vec![v(&[100.0, 0.0, 0.0]), v(&[0.0, 5.0, 0.0])];
    assert_eq!(filter(FilterKind::Qr1, 0.1, &c, 1).0, [0]);
    assert_eq!(filter(FilterKind::Qr1Absolute, 0.1, &c, 1).0, [0, 1]);
    // QR1-absolute with limit 10 removes both, newest first: 100 ≥ 10 stays, 5 < 10 goes.
    assert_eq!(filter(FilterKind::Qr1Absolute, 10.0, &c, 1).0, [0]);
}

#[test]
fn qr2_tests_each_column_against_the_newer_ones() {
    // a and a + δ with ‖δ⊥‖/‖a + δ‖ ≈ 1e-3 < 1e-2: the older (a + δ) goes.
    let a = v(&[1.0, 0.0, 0.0, 0.0]);
    let ad = v(&[1.0, 1e-3, 0.0, 0.0]);
    let c = vec![v(&[0.0, 0.0, 1.0, 0.0]), a.clone(), ad.clone()];
    assert_eq!(filter(FilterKind::Qr2, 1e-2, &c, 1).0, [0, 1]);
    // With limit 1e-4 the ratio 1e-3 passes.
    assert_eq!(filter(FilterKind::Qr2, 1e-4, &c, 1).0, [0, 1, 2]);
}

#[test]
fn qr3_does_not_retest_kept_columns_when_the_new_one_passes() {
    // Same columns: the new one (e₃) is independent of the kept ones, so nothing is re-tested
    // and the nearly dependent pair stays; when every column counts as new, QR3 is QR2.
    let c = vec![v(&[0.0, 0.0, 1.0, 0.0]), v(&[1.0, 0.0, 0.0, 0.0]), v(&[1.0, 1e-3, 0.0, 0.0])];
    assert_eq!(filter(FilterKind::Qr3, 1e-2, &c, 1).0, [0, 1, 2]);
    assert_eq!(filter(FilterKind::Qr3, 1e-2, &c, 3).0, [0, 1]);
    // A new column that fails (a copy of a kept one) triggers the full QR2 filter.
    let c =
        vec![v(&[1.0, 0.0, 0.0, 0.0]), v(&[0.0, 1.0, 0.0, 0.0]), v(&[1.0, 0.0, 0.0, 0.0]), v(&[0.0, 1.0, 1e-4, 0.0])];
    assert_eq!(filter(FilterKind::Qr3, 1e-2, &c, 1).0, [0, 1]);
}

#[test]
fn zero_columns_are_always_removed() {
    let c = vec![v(&[1.0, 2.0]), v(&[0.0, 0.0])];
    for kind in ALL {
        assert_eq!(filter(kind, 1e-16, &c, 2).0, [0], "{kind:?}");
        let (kept, qr) = filter(kind, 1e-16, &c[1..], 1);
        assert!(kept.is_empty() && qr.cols() == 0, "{kind:?}");
    }
}
