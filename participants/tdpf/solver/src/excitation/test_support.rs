//! Synthetic excitation data for the unit tests.

use nalgebra::{Complex, DMatrix};
use tidelink_hydro_data::Excitation;

/// A deliberately non-uniform frequency grid (rad/s), not of HydroChrono's n·Δ form.
pub const GRID: [f64; 8] = [0.1, 0.15, 0.32, 0.5, 0.9, 1.7, 2.6, 5.2];
pub const HEADINGS: [f64; 3] = [0.0, 30.0, 90.0];

/// X(ω, β) bilinear in ω and β, different per DOF, with non-zero re and im.
pub fn linear_x(dof: usize, omega: f64, heading: f64) -> Complex<f64> {
    let d = dof as f64 + 1.0;
    let b = 1.0 + 0.01 * heading;
    Complex::new(1e5 * d * (1.0 + 2.0 * omega) * b, -3e4 * d * (0.5 - omega) * (2.0 - 0.005 * heading))
}

/// Excitation data sampled from `x(dof, ω, β)` on the grids; no IRF.
pub fn synthetic(omega: &[f64], headings: &[f64], x: impl Fn(usize, f64, f64) -> Complex<f64>) -> Excitation {
    let sample = |part: fn(Complex<f64>) -> f64| -> Vec<DMatrix<f64>> {
        omega.iter().map(|&w| DMatrix::from_fn(6, headings.len(), |dof, h| part(x(dof, w, headings[h])))).collect()
    };
    Excitation { re: sample(|c| c.re), im: sample(|c| c.im), irf: None }
}
