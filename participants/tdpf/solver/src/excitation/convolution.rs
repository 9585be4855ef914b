//! Excitation as the convolution of the excitation impulse response with the elevation history:
//! F(t) = ∫ K_e(τ) r(t − τ) η(t − τ) dτ, for any η (irregular, imported), at the IRF's resolution.

use super::error::ExcitationError;
use super::table::ExcitationTable;
use crate::waves::{Elevation, Ramp};
use nalgebra::Vector6;

/// Trapezoid convolution of the file's excitation IRF (× ρg, interpolated to one heading) with a
/// ramped elevation at the origin. K_e is non-causal (τ < 0 samples need η ahead of `t`), which any
/// [`Elevation`] provides.
///
/// The ramp multiplies η, not the force: F is fully developed only for t ≥ T_r + τ_max, and
/// nonzero from t > τ_min. That differs from [`super::SuperpositionExcitation`] (ramped force)
/// during start-up and agrees with it afterwards.
#[derive(Debug, Clone, PartialEq)]
pub struct IrfExcitation {
    tau: Vec<f64>,
    /// K_e(τ_s) times the trapezoid weight of τ_s (works on non-uniform τ too).
    weighted: Vec<Vector6<f64>>,
    ramp: Ramp,
}

impl IrfExcitation {
    /// Uses the table's IRF at `heading_deg` (interpolated linearly between file headings).
    pub fn new(table: &ExcitationTable, heading_deg: f64, ramp: Ramp) -> Result<Self, ExcitationError> {
        let (tau, kernel) = table.irf(heading_deg)?;
        let n = tau.len();
        let weighted = (0..n)
            .map(|s| {
                let left = if s > 0 { tau[s] - tau[s - 1] } else { 0.0 };
                let right = if s + 1 < n { tau[s + 1] - tau[s] } else { 0.0 };
                kernel[s] * (0.5 * (left + right))
            })
            .collect();
        Ok(IrfExcitation { tau, weighted, ramp })
    }

    /// The IRF's time span (τ_min, τ_max) in s.
    pub fn span(&self) -> (f64, f64) {
        (self.tau[0], self.tau[self.tau.len() - 1])
    }

    /// The time from which the ramp no longer affects the force: T_r + max(τ_max, 0).
    pub fn settled_after(&self) -> f64 {
        self.ramp.duration() + self.span().1.max(0.0)
    }

    /// Force on the 6 DOFs at absolute time `t` (s) for the elevation `wave` at the origin; costs
    /// one η evaluation per IRF sample.
    pub fn force<E: Elevation + ?Sized>(&self, wave: &E, t: f64) -> Vector6<f64> {
        let mut sum = Vector6::zeros();
        for (tau, k) in self.tau.iter().zip(&self.weighted) {
            let s = t - tau;
            let r = self.ramp.factor(s);
            if r != 0.0 {
                sum += k * (r * wave.elevation(s));
            }
        }
        sum
    }
}

#[cfg(test)]
mod tests {
    use super::super::superposition::{OutsideGrid, SuperpositionExcitation};
    use super::super::test_support::synthetic;
    use super::*;
    use crate::waves::{FrequencyBand, IrregularWave, Spectrum, WaveComponent};
    use nalgebra::{Complex, DMatrix};
    use std::f64::consts::PI;
    use tidelink_hydro_data::WaterDepth;
    use tidelink_hydro_data::{Excitation, ExcitationIrf};

    const SIGMA: f64 = 0.5;
    const DELAY: f64 = 0.3;
    const B: f64 = 0.4;

    /// A smooth X(ω): Gaussian magnitude, a delay phase and an imaginary part growing with ω.
    fn smooth_x(dof: usize, omega: f64, _heading: f64) -> Complex<f64> {
        let a = 1e5 * (dof as f64 + 1.0);
        Complex::new(a, a * B * omega)
            * (-0.5 * omega * omega * SIGMA * SIGMA).exp()
            * Complex::from_polar(1.0, -omega * DELAY)
    }

    /// K_e(τ) = (1/π)∫₀^∞ (Re X cos ωτ − Im X sin ωτ) dω by trapezoid (spectrally accurate here,
    /// since the integrand continues smoothly to negative ω).
    fn irf_of(dof: usize, tau: f64) -> f64 {
        let (h, n) = (0.005, 3200); // up to 16 rad/s, where |X| ~ 1e-14 of its peak
        let mut sum = 0.0;
        for j in 0..=n {
            let w = j as f64 * h;
            let x = smooth_x(dof, w, 0.0);
            let weight = if j == 0 || j == n { 0.5 } else { 1.0 };
            sum += weight * (x.re * (w * tau).cos() - x.im * (w * tau).sin());
        }
        sum * h / PI
    }

    fn data_with_irf() -> (Vec<f64>, Excitation) {
        let grid: Vec<f64> = (1..=1000).map(|i| i as f64 * 0.01).collect();
        let mut data = synthetic(&grid, &[0.0], smooth_x);
        let t: Vec<f64> = (0..=1000).map(|i| -10.0 + i as f64 * 0.02).collect();
        let base: Vec<f64> = t.iter().map(|&tau| irf_of(0, tau)).collect();
        let f = base.iter().map(|&k| DMatrix::from_fn(6, 1, |dof, _| k * (dof as f64 + 1.0))).collect();
        data.irf = Some(ExcitationIrf { t, f });
        (grid, data)
    }

    #[test]
    fn numerical_irf_matches_the_analytic_transform() {
        // The inverse of X(ω) = a(1 + iBω) e^{−ω²σ²/2} e^{−iωd} is a·G(s)(1 − B s/σ²), s = τ − d,
        // G the unit Gaussian of width σ: this pins the sign convention of the inverse transform.
        for tau in [-1.0, 0.0, 0.3, 0.55, 1.2] {
            let s: f64 = tau - DELAY;
            let g = (-s * s / (2.0 * SIGMA * SIGMA)).exp() / (SIGMA * (2.0 * PI).sqrt());
            let analytic = 1e5 * g * (1.0 - B * s / (SIGMA * SIGMA));
            assert!((irf_of(0, tau) - analytic).abs() < 1e-6 * 1e5, "tau {tau}: {} vs {analytic}", irf_of(0, tau));
        }
    }

    #[test]
    fn reproduces_superposition_for_a_single_component() {
        let (grid, data) = data_with_irf();
        let table = ExcitationTable::new(&grid, &[0.0], &data).unwrap();
        let omega = grid[79]; // 0.8 rad/s, on the grid
        let wave = IrregularWave::from_components(
            vec![WaveComponent { omega, amplitude: 1.1, phase: 0.7, wave_number: omega * omega / 9.81 }],
            0.0,
        )
        .unwrap();
        let conv = IrfExcitation::new(&table, 0.0, Ramp::None).unwrap();
        let freq = SuperpositionExcitation::new(&table, &wave, Ramp::None, OutsideGrid::Error).unwrap();
        let scale = 1.1 * smooth_x(5, omega, 0.0).norm();
        let mut worst: f64 = 0.0;
        for i in 0..80 {
            let t = 3.0 + i as f64 * 0.1;
            worst = worst.max((conv.force(&wave, t) - freq.force(t)).amax() / scale);
        }
        assert!(worst < 1e-8, "worst relative difference {worst}");
    }

    #[test]
    fn reproduces_superposition_for_an_irregular_sea() {
        let (grid, data) = data_with_irf();
        let table = ExcitationTable::new(&grid, &[0.0], &data).unwrap();
        let spectrum = Spectrum::jonswap(2.0, 6.0, 3.3).unwrap();
        let band = FrequencyBand { omega_min: 0.3, omega_max: 3.0, count: 60 };
        let wave = IrregularWave::from_spectrum(&spectrum, band, 11, 0.0, 9.81, WaterDepth::Infinite).unwrap();
        let conv = IrfExcitation::new(&table, 0.0, Ramp::None).unwrap();
        let freq = SuperpositionExcitation::new(&table, &wave, Ramp::None, OutsideGrid::Error).unwrap();
        let scale = 6e5 * wave.variance().sqrt();
        for i in 0..40 {
            let t = 50.0 + i as f64 * 0.37;
            let d = (conv.force(&wave, t) - freq.force(t)).amax() / scale;
            // X between grid points is linearly interpolated: O(h²X''/8) ≈ 1e-5 relative.
            assert!(d < 1e-4, "t {t}: relative difference {d}");
        }
    }

    #[test]
    fn ramp_is_applied_to_the_elevation() {
        let (grid, data) = data_with_irf();
        let table = ExcitationTable::new(&grid, &[0.0], &data).unwrap();
        let eta = |t: f64| 1.2 * (0.8 * t + 0.1).cos();
        let ramped = IrfExcitation::new(&table, 0.0, Ramp::cosine(20.0).unwrap()).unwrap();
        let steady = IrfExcitation::new(&table, 0.0, Ramp::None).unwrap();
        assert_eq!(ramped.span(), (-10.0, 10.0));
        assert!((ramped.settled_after() - 30.0).abs() < 1e-9);
        assert_eq!(ramped.force(&eta, -10.0), Vector6::zeros());
        assert!(ramped.force(&eta, 8.0).norm() > 0.0);
        for t in [30.0, 31.7, 45.0] {
            assert_eq!(ramped.force(&eta, t), steady.force(&eta, t));
        }
    }

    #[test]
    fn irf_is_interpolated_between_headings() {
        let grid = [0.1, 0.2];
        let mut data = synthetic(&grid, &[0.0, 60.0], smooth_x);
        let t = vec![-1.0, -0.5, 0.0, 1.0]; // non-uniform: weights 0.25, 0.5, 0.75, 0.5
        let f = t
            .iter()
            .map(|&tau| DMatrix::from_fn(6, 2, |dof, h| (dof + 1) as f64 * (1.0 + tau) * (1.0 + h as f64)))
            .collect();
        data.irf = Some(ExcitationIrf { t: t.clone(), f });
        let table = ExcitationTable::new(&grid, &[0.0, 60.0], &data).unwrap();
        let conv = IrfExcitation::new(&table, 15.0, Ramp::None).unwrap(); // weight 0.25 on 60°
        let unit = |_: f64| 1.0;
        let weights = [0.25, 0.5, 0.75, 0.5];
        let expected: f64 = t.iter().zip(weights).map(|(tau, w)| w * (1.0 + tau) * 1.25).sum();
        let force = conv.force(&unit, 3.0);
        for dof in 0..6 {
            assert!((force[dof] - (dof + 1) as f64 * expected).abs() < 1e-12, "dof {dof}: {}", force[dof]);
        }
        assert!(matches!(IrfExcitation::new(&table, 61.0, Ramp::None), Err(ExcitationError::HeadingOutOfRange { .. })));
    }

    #[test]
    fn missing_irf_is_an_error() {
        let grid = [0.1, 0.2];
        let data = synthetic(&grid, &[0.0], smooth_x);
        let table = ExcitationTable::new(&grid, &[0.0], &data).unwrap();
        assert_eq!(IrfExcitation::new(&table, 0.0, Ramp::None), Err(ExcitationError::NoIrf));
    }
}
