//! Aitken's dynamic relaxation (docs/design/coupling-semantics.md §11.5; Küttler & Wall,
//! "Fixed-point fluid–structure interaction solvers with dynamic relaxation", Comput. Mech.
//! 43, 2008): the relaxation factor follows the last two residuals of the primary data at the
//! window end, r = x̃ − x, concatenated over the primary data (weighted by the preconditioner
//! when there is more than one):
//!
//! - first iteration of a window: ω = sign(ω_prev)·min(ω₀, |ω_prev|), ω_prev the last factor
//!   of the previous window (ω₀ before the first one);
//! - later: ω_k = −ω_{k−1} · r_{k−1}·(r_k − r_{k−1}) / ‖r_k − r_{k−1}‖² (kept unchanged when the
//!   residual did not change at all, where the formula divides by zero).
//!
//! Every datum and every sample is relaxed with ω: x ← ω·x̃ + (1 − ω)·x.

use super::constant::relax_all;
use super::layout::{primary, Layout};
use super::preconditioner::Preconditioner;
use super::settings::PreconditionerSettings;
use super::{AccData, Acceleration};
use crate::{CouplingError, Result};
use nalgebra::DVector;

/// `<acceleration:aitken>`.
#[derive(Debug, Clone)]
pub struct Aitken {
    omega0: f64,
    omega: f64,
    iter: usize,
    prev_r: Option<DVector<f64>>,
    pre: Preconditioner,
    label: String,
}

impl Aitken {
    /// Aitken with initial relaxation `omega0`; `label` prefixes its errors.
    pub fn new(omega0: f64, pre: PreconditionerSettings, label: String) -> Self {
        Aitken { omega0, omega: omega0, iter: 0, prev_r: None, pre: Preconditioner::new(pre), label }
    }

    /// The factor used in the last iteration (for tests and logs).
    pub fn factor(&self) -> f64 {
        self.omega
    }
}

impl Acceleration for Aitken {
    fn perform(&mut self, data: &mut [AccData]) -> Result<()> {
        let layout = Layout::of(data, None, &self.label)?;
        let x_new = primary(data, true, |d| &d.values);
        let r = &x_new - primary(data, true, |d| &d.old);
        if r.is_empty() {
            return Err(CouplingError::config(format!(
                "{}: none of the scheme's data is a <data> of the acceleration, so there is no residual to steer it.",
                self.label
            )));
        }
        let (keys, ranges) = (layout.primary_keys(), layout.primary_ranges(true));
        let weighted = ranges.len() > 1;
        if weighted {
            self.pre.iteration(&keys, &ranges, &x_new, &r);
        }
        match self.prev_r.as_ref().filter(|_| self.iter > 0) {
            None => self.omega = self.omega.signum() * self.omega0.min(self.omega.abs()),
            Some(prev) => {
                let scale = |v: &DVector<f64>| if weighted { self.pre.apply(&ranges, v) } else { v.clone() };
                let (p, d) = (scale(prev), scale(&(&r - prev)));
                let denom = d.norm_squared();
                if denom > 0.0 {
                    self.omega = -self.omega * p.dot(&d) / denom;
                }
            }
        }
        relax_all(data, self.omega);
        self.prev_r = Some(r);
        self.iter += 1;
        Ok(())
    }

    fn converged(&mut self, data: &[AccData]) {
        if let Ok(layout) = Layout::of(data, None, &self.label) {
            let ranges = layout.primary_ranges(true);
            if ranges.len() > 1 {
                self.pre.window_complete(&layout.primary_keys(), &ranges, &primary(data, true, |d| &d.values));
            }
        }
        self.iter = 0;
        self.prev_r = None;
    }
}
