//! Fixtures for the tests of this crate and of the TDPF participant (feature `testing`).

use crate::radiation::Irf;
use nalgebra::DMatrix;

/// A 3-DOF impulse response over 30 s at 0.02 s with four entries that need a fit (a damped
/// oscillation, its coupling and their sum), two zero ones and an exponential: quick to identify.
pub fn three_dof_irf() -> Irf {
    let t: Vec<f64> = (0..=1500).map(|i| i as f64 * 0.02).collect();
    let k = t
        .iter()
        .map(|&x: &f64| {
            let d = (-0.3 * x).exp() * (2.0 * x).cos();
            let o = 0.2 * x * (-0.8 * x).exp() + 0.1 * (-0.1 * x).exp() * (0.7 * x).sin();
            DMatrix::from_row_slice(3, 3, &[d, o, 0.0, o, 2.0 * d + o, 0.0, 0.0, 0.0, (-x).exp()])
        })
        .collect();
    Irf::new(t, k).expect("a valid IRF")
}
