//! Excitation by an irregular wave summed in the frequency domain: Σ_i A_i Re{X(ω_i) e^{i(ω_i t + φ_i)}}.

use super::error::ExcitationError;
use super::table::ExcitationTable;
use crate::waves::{IrregularWave, Ramp};
use nalgebra::{Complex, Vector6};

/// What to do with a wave component whose frequency lies outside the BEM data.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default)]
pub enum OutsideGrid {
    /// Refuse to build the model (the default: nothing is silently dropped).
    #[default]
    Error,
    /// Give that component no excitation (for spectral tails beyond the BEM range).
    Zero,
}

/// Frequency-superposition excitation for an [`IrregularWave`]; the ramp multiplies the force
/// (WEC-Sim's convention), so F(t) = r(t)·Σ_i Re{A_i X_i e^{i(ω_i t + φ_i)}}.
#[derive(Debug, Clone, PartialEq)]
pub struct SuperpositionExcitation {
    omega: Vec<f64>,
    phase: Vec<f64>,
    /// A_i · X(ω_i, β) per component.
    weighted: Vec<Vector6<Complex<f64>>>,
    ramp: Ramp,
}

impl SuperpositionExcitation {
    /// Interpolates X once per component at the wave's heading.
    pub fn new(
        table: &ExcitationTable,
        wave: &IrregularWave,
        ramp: Ramp,
        outside: OutsideGrid,
    ) -> Result<Self, ExcitationError> {
        let n = wave.components().len();
        let (mut omega, mut phase, mut weighted) =
            (Vec::with_capacity(n), Vec::with_capacity(n), Vec::with_capacity(n));
        for c in wave.components() {
            let x = match table.coefficients(c.omega, wave.heading_deg()) {
                Ok(x) => x,
                Err(ExcitationError::FrequencyOutOfRange { .. }) if outside == OutsideGrid::Zero => continue,
                Err(e) => return Err(e),
            };
            omega.push(c.omega);
            phase.push(c.phase);
            weighted.push(x * Complex::new(c.amplitude, 0.0));
        }
        Ok(SuperpositionExcitation { omega, phase, weighted, ramp })
    }

    /// Number of components that contribute (fewer than the wave's with [`OutsideGrid::Zero`]).
    pub fn len(&self) -> usize {
        self.omega.len()
    }

    /// True if no component contributes.
    pub fn is_empty(&self) -> bool {
        self.omega.is_empty()
    }

    /// Force on the 6 DOFs at absolute time `t` (s); costs one complex exponential per component.
    pub fn force(&self, t: f64) -> Vector6<f64> {
        let mut sum = Vector6::zeros();
        for ((w, p), ax) in self.omega.iter().zip(&self.phase).zip(&self.weighted) {
            let rotor = Complex::from_polar(1.0, w * t + p);
            sum += ax.map(|x| (x * rotor).re);
        }
        sum * self.ramp.factor(t)
    }
}

#[cfg(test)]
mod tests {
    use super::super::regular::RegularExcitation;
    use super::super::test_support::{linear_x, synthetic, GRID, HEADINGS};
    use super::*;
    use crate::waves::{RegularWave, WaveComponent};

    fn component(omega: f64, amplitude: f64, phase: f64) -> WaveComponent {
        WaveComponent { omega, amplitude, phase, wave_number: omega * omega / 9.81 }
    }

    #[test]
    fn single_component_equals_regular() {
        let data = synthetic(&GRID, &HEADINGS, linear_x);
        let table = ExcitationTable::new(&GRID, &HEADINGS, &data).unwrap();
        let reg = RegularWave::from_amplitude(1.3, 7.0, 0.9, 30.0).unwrap();
        let irr = IrregularWave::from_components(vec![component(reg.omega(), 1.3, 0.9)], 30.0).unwrap();
        let ramp = Ramp::linear(20.0).unwrap();
        let a = RegularExcitation::new(&table, &reg, ramp).unwrap();
        let b = SuperpositionExcitation::new(&table, &irr, ramp, OutsideGrid::Error).unwrap();
        for i in 0..100 {
            let t = i as f64 * 0.7;
            assert!((a.force(t) - b.force(t)).norm() <= 1e-9 * a.amplitudes().norm());
        }
    }

    #[test]
    fn is_the_sum_of_its_components() {
        let data = synthetic(&GRID, &HEADINGS, linear_x);
        let table = ExcitationTable::new(&GRID, &HEADINGS, &data).unwrap();
        let comps = vec![component(0.4, 0.5, 0.1), component(0.9, 1.0, 2.0), component(1.6, 0.2, 4.0)];
        let all = IrregularWave::from_components(comps.clone(), 0.0).unwrap();
        let sum = SuperpositionExcitation::new(&table, &all, Ramp::None, OutsideGrid::Error).unwrap();
        let parts: Vec<SuperpositionExcitation> = comps
            .iter()
            .map(|c| {
                let w = IrregularWave::from_components(vec![*c], 0.0).unwrap();
                SuperpositionExcitation::new(&table, &w, Ramp::None, OutsideGrid::Error).unwrap()
            })
            .collect();
        for t in [0.0, 3.1, 77.7] {
            let expected: Vector6<f64> = parts.iter().map(|p| p.force(t)).sum();
            assert!((sum.force(t) - expected).norm() <= 1e-9 * expected.norm().max(1.0));
        }
    }

    #[test]
    fn components_outside_the_grid() {
        let data = synthetic(&GRID, &HEADINGS, linear_x);
        let table = ExcitationTable::new(&GRID, &HEADINGS, &data).unwrap();
        let wave =
            IrregularWave::from_components(vec![component(0.05, 0.1, 0.0), component(1.0, 1.0, 0.0)], 0.0).unwrap();
        assert!(matches!(
            SuperpositionExcitation::new(&table, &wave, Ramp::None, OutsideGrid::Error),
            Err(ExcitationError::FrequencyOutOfRange { .. })
        ));
        let kept = SuperpositionExcitation::new(&table, &wave, Ramp::None, OutsideGrid::Zero).unwrap();
        assert_eq!(kept.len(), 1);
        let bad_heading = IrregularWave::from_components(vec![component(1.0, 1.0, 0.0)], 120.0).unwrap();
        assert!(SuperpositionExcitation::new(&table, &bad_heading, Ramp::None, OutsideGrid::Zero).is_err());
    }
}
