//! Constant under-relaxation (docs/design/coupling-semantics.md §11.5): every unconverged
//! iteration sends ω·x̃ + (1 − ω)·x, sample by sample, for every datum of the map.

use super::{AccData, Acceleration};
use crate::Result;

/// `<acceleration:constant>`: no history, no primary data.
#[derive(Debug, Clone)]
pub struct ConstantRelaxation {
    omega: f64,
}

impl ConstantRelaxation {
    /// Relaxation with factor `omega` (the parser checks 0 < ω ≤ 1).
    pub fn new(omega: f64) -> Self {
        ConstantRelaxation { omega }
    }
}

/// x ← ω·x̃ + (1 − ω)·x for every sample of every datum, gradients included: the step
/// constant and Aitken relaxation share.
pub(crate) fn relax_all(data: &mut [AccData], omega: f64) {
    for d in data.iter_mut() {
        for (v, o) in d.values.iter_mut().zip(&d.old) {
            *v = omega * *v + (1.0 - omega) * o;
        }
    }
    relax_gradients(data, omega);
}

/// g ← ω·g̃ + (1 − ω)·g for the gradients of every datum that carries them: libprecice's
/// `applyRelaxation` relaxes them with the values (the quasi-Newton methods call it for
/// their initial relaxation only).
pub(crate) fn relax_gradients(data: &mut [AccData], omega: f64) {
    for d in data {
        for (g, o) in d.gradients.iter_mut().zip(&d.old_gradients) {
            *g = *g * omega + o * (1.0 - omega);
        }
    }
}

impl Acceleration for ConstantRelaxation {
    fn perform(&mut self, data: &mut [AccData]) -> Result<()> {
        relax_all(data, self.omega);
        Ok(())
    }

    fn converged(&mut self, _data: &[AccData]) {}
}
