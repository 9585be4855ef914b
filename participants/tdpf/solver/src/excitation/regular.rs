//! Excitation by a regular wave: X is interpolated once, so each step costs one complex
//! exponential.

use super::error::ExcitationError;
use super::table::ExcitationTable;
use crate::waves::{Ramp, RegularWave};
use nalgebra::{Complex, Vector6};

/// F(t) = r(t)·A·Re{X(ω, β) e^{i(ωt + phase)}} for a [`RegularWave`] and a [`Ramp`] on the force.
#[derive(Debug, Clone, PartialEq)]
pub struct RegularExcitation {
    omega: f64,
    amplitude: f64,
    phase: f64,
    ramp: Ramp,
    coefficients: Vector6<Complex<f64>>,
}

impl RegularExcitation {
    /// Interpolates X at the wave's ω and heading; errors if either lies outside the file's data.
    pub fn new(table: &ExcitationTable, wave: &RegularWave, ramp: Ramp) -> Result<Self, ExcitationError> {
        Ok(RegularExcitation {
            omega: wave.omega(),
            amplitude: wave.amplitude(),
            phase: wave.phase(),
            ramp,
            coefficients: table.coefficients(wave.omega(), wave.heading_deg())?,
        })
    }

    /// The interpolated X(ω, β) per unit amplitude (× ρg).
    pub fn coefficients(&self) -> &Vector6<Complex<f64>> {
        &self.coefficients
    }

    /// Steady-state force amplitude A|X| per DOF (N or N·m).
    pub fn amplitudes(&self) -> Vector6<f64> {
        self.coefficients.map(|x| self.amplitude * x.norm())
    }

    /// Force on the 6 DOFs at absolute time `t` (s).
    pub fn force(&self, t: f64) -> Vector6<f64> {
        let rotor = Complex::from_polar(self.ramp.factor(t) * self.amplitude, self.omega * t + self.phase);
        self.coefficients.map(|x| (x * rotor).re)
    }
}

#[cfg(test)]
mod tests {
    use super::super::test_support::{linear_x, synthetic, GRID, HEADINGS};
    use super::*;
    use std::f64::consts::PI;

    /// The force written out from the convention, independently of the implementation.
    fn expected(dof: usize, a: f64, omega: f64, phase: f64, heading: f64, t: f64) -> f64 {
        let x = linear_x(dof, omega, heading);
        a * x.norm() * (omega * t + phase + x.im.atan2(x.re)).cos()
    }

    #[test]
    fn non_uniform_grid_is_exact_for_linear_x() {
        let data = synthetic(&GRID, &HEADINGS, linear_x);
        let table = ExcitationTable::new(&GRID, &HEADINGS, &data).unwrap();
        let wave = RegularWave::from_height(2.5, 8.0, 0.4, 0.0).unwrap();
        let exc = RegularExcitation::new(&table, &wave, Ramp::None).unwrap();
        let omega = 2.0 * PI / 8.0;
        for i in 0..200 {
            let t = i as f64 * 0.173;
            let f = exc.force(t);
            for dof in 0..6 {
                let e = expected(dof, 1.25, omega, 0.4, 0.0, t);
                let scale = 1.25 * linear_x(dof, omega, 0.0).norm();
                assert!((f[dof] - e).abs() <= 1e-12 * scale, "t {t} dof {dof}: {} vs {e}", f[dof]);
            }
        }
        for dof in 0..6 {
            assert!((exc.amplitudes()[dof] - 1.25 * linear_x(dof, omega, 0.0).norm()).abs() < 1e-6);
        }
    }

    #[test]
    fn index_interpolation_would_be_wrong_here() {
        // HydroChrono's scheme treats the grid as ω_n = (n + 1)Δ with Δ = ω_max/N; on GRID that
        // puts 0.785 rad/s at fractional index 0.785/0.65 − 1 = 0.208, i.e. between 0.1 and 0.15.
        let omega = 2.0 * PI / 8.0;
        let delta = GRID[GRID.len() - 1] / GRID.len() as f64;
        let s = omega / delta - 1.0;
        let (i, w) = (s.floor() as usize, s - s.floor());
        let wrong = linear_x(2, GRID[i], 0.0) * (1.0 - w) + linear_x(2, GRID[i + 1], 0.0) * w;
        let right = linear_x(2, omega, 0.0);
        assert!((wrong - right).norm() > 0.2 * right.norm());
        let data = synthetic(&GRID, &HEADINGS, linear_x);
        let table = ExcitationTable::new(&GRID, &HEADINGS, &data).unwrap();
        assert!((table.coefficients(omega, 0.0).unwrap()[2] - right).norm() < 1e-9 * right.norm());
    }

    #[test]
    fn heading_between_file_headings_is_interpolated() {
        let data = synthetic(&GRID, &HEADINGS, linear_x);
        let table = ExcitationTable::new(&GRID, &HEADINGS, &data).unwrap();
        let wave = RegularWave::from_amplitude(1.0, 6.0, 0.0, 45.0).unwrap();
        let exc = RegularExcitation::new(&table, &wave, Ramp::None).unwrap();
        for dof in 0..6 {
            let e = linear_x(dof, wave.omega(), 45.0);
            assert!((exc.coefficients()[dof] - e).norm() <= 1e-12 * e.norm());
            assert!((exc.force(1.3)[dof] - expected(dof, 1.0, wave.omega(), 0.0, 45.0, 1.3)).abs() < 1e-6);
        }
    }

    #[test]
    fn out_of_range_wave_is_an_error() {
        let data = synthetic(&GRID, &HEADINGS, linear_x);
        let table = ExcitationTable::new(&GRID, &HEADINGS, &data).unwrap();
        let long = RegularWave::from_amplitude(1.0, 100.0, 0.0, 0.0).unwrap(); // ω = 0.063 < 0.1
        assert!(matches!(
            RegularExcitation::new(&table, &long, Ramp::None),
            Err(ExcitationError::FrequencyOutOfRange { .. })
        ));
        let short = RegularWave::from_amplitude(1.0, 1.0, 0.0, 0.0).unwrap(); // ω = 6.28 > 5.2
        assert!(RegularExcitation::new(&table, &short, Ramp::None).is_err());
        let oblique = RegularWave::from_amplitude(1.0, 8.0, 0.0, 135.0).unwrap();
        assert!(matches!(
            RegularExcitation::new(&table, &oblique, Ramp::None),
            Err(ExcitationError::HeadingOutOfRange { .. })
        ));
    }

    #[test]
    fn ramp_multiplies_the_force() {
        let data = synthetic(&GRID, &HEADINGS, linear_x);
        let table = ExcitationTable::new(&GRID, &HEADINGS, &data).unwrap();
        let wave = RegularWave::from_height(2.5, 8.0, 0.0, 0.0).unwrap();
        let ramp = Ramp::cosine(100.0).unwrap();
        let ramped = RegularExcitation::new(&table, &wave, ramp).unwrap();
        let steady = RegularExcitation::new(&table, &wave, Ramp::None).unwrap();
        assert_eq!(ramped.force(0.0), Vector6::zeros());
        for t in [13.0, 50.0, 99.0, 100.0, 150.0] {
            let (a, b) = (ramped.force(t), steady.force(t) * ramp.factor(t));
            assert!((a - b).norm() <= 1e-9 * steady.amplitudes().norm());
        }
        assert_eq!(ramped.force(150.0), steady.force(150.0));
    }
}
