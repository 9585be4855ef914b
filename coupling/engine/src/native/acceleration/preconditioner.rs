//! Preconditioner weights of the primary data blocks (docs/design/coupling-semantics.md §11.5;
//! Mehl et al., "Parallel coupling numerics for partitioned fluid–structure interaction
//! simulations", CAMWA 71, 2016): primary data of different magnitude (forces and
//! displacements, say) would otherwise let one datum dominate the least-squares problem and
//! the Aitken factor. Each block's residual (and V's rows) are multiplied by its weight:
//!
//! - `constant`: 1 / `scaling` of the datum's `<data>` tag, fixed;
//! - `value`: 1 / ‖x̃_i‖, set at the first update of the first window and afterwards only
//!   refreshed when a window completes;
//! - `residual`: 1 / ‖r_i‖ of the current iteration;
//! - `residual-sum`: 1 / Σ (‖r_i‖ / ‖r‖) over the window's iterations so far (‖r‖ over all
//!   primary blocks); the sums restart with every window. In the first window the weights
//!   follow every iteration; afterwards, with `update-on-threshold` (the default), they are
//!   replaced only when some block's new weight differs from its current one by more than a
//!   factor 10 (then all blocks take their new weights).
//!
//! `freeze-after = N ≥ 0` stops every change once N windows have completed (N = 0: the weights
//! stay at their initial value, 1, or 1/scaling for `constant`); negative values never freeze.
//! A block whose norm is zero keeps its weight, with one warning per preconditioner.

use super::settings::{DataKey, PreconditionerSettings};
use nalgebra::DVector;
use std::ops::Range;
use tidelink_precice_config::PreconditionerKind;

/// Weights of the primary blocks and the state that updates them.
#[derive(Debug, Clone)]
pub struct Preconditioner {
    s: PreconditionerSettings,
    keys: Vec<DataKey>,
    weights: Vec<f64>,
    sums: Vec<f64>,
    first_window: bool,
    windows_done: usize,
    value_set: bool,
    warned: bool,
    generation: u64,
}

impl Preconditioner {
    /// A preconditioner with all weights 1 until it sees its blocks.
    pub fn new(s: PreconditionerSettings) -> Self {
        Preconditioner {
            s,
            keys: Vec::new(),
            weights: Vec::new(),
            sums: Vec::new(),
            first_window: true,
            windows_done: 0,
            value_set: false,
            warned: false,
            generation: 0,
        }
    }

    /// The current weights, one per primary block.
    #[cfg(test)]
    pub fn weights(&self) -> &[f64] {
        &self.weights
    }

    /// Changes whenever a weight changes, so a QR of preconditioned columns knows it is stale.
    pub fn generation(&self) -> u64 {
        self.generation
    }

    /// One iteration's update from the primary values x̃ and residual r (blocks at `ranges`).
    pub fn iteration(&mut self, keys: &[DataKey], ranges: &[Range<usize>], values: &DVector<f64>, r: &DVector<f64>) {
        self.ensure(keys);
        match self.s.kind {
            PreconditionerKind::Constant => {}
            PreconditionerKind::Value => {
                if !self.value_set && !self.frozen() {
                    self.value_set = true;
                    self.set_from_norms(&norms(ranges, values), "values");
                }
            }
            PreconditionerKind::Residual => {
                if !self.frozen() {
                    self.set_from_norms(&norms(ranges, r), "residual");
                }
            }
            PreconditionerKind::ResidualSum => self.residual_sum(ranges, r),
        }
    }

    /// The window converged with primary values x̃: value weights are refreshed, residual sums restart.
    pub fn window_complete(&mut self, keys: &[DataKey], ranges: &[Range<usize>], values: &DVector<f64>) {
        self.ensure(keys);
        self.windows_done += 1;
        self.first_window = false;
        self.sums.iter_mut().for_each(|s| *s = 0.0);
        if self.s.kind == PreconditionerKind::Value && !self.frozen() {
            self.value_set = true;
            self.set_from_norms(&norms(ranges, values), "values");
        }
    }

    /// `v` (a primary vector) with each block multiplied by its weight.
    pub fn apply(&self, ranges: &[Range<usize>], v: &DVector<f64>) -> DVector<f64> {
        let mut out = v.clone();
        for (r, w) in ranges.iter().zip(&self.weights) {
            out.rows_mut(r.start, r.len()).scale_mut(*w);
        }
        out
    }

    fn frozen(&self) -> bool {
        self.s.freeze_after.is_some_and(|n| self.windows_done >= n)
    }

    /// (Re)starts the weights when the primary data are first seen or change.
    fn ensure(&mut self, keys: &[DataKey]) {
        if self.keys == keys {
            return;
        }
        self.keys = keys.to_vec();
        self.weights = keys
            .iter()
            .map(|k| if self.s.kind == PreconditionerKind::Constant { 1.0 / self.s.scaling_of(k) } else { 1.0 })
            .collect();
        self.sums = vec![0.0; keys.len()];
        self.generation += 1;
    }

    /// weight_i = 1 / norm_i where the norm is not zero.
    fn set_from_norms(&mut self, norms: &[f64], what: &str) {
        for (i, n) in norms.iter().enumerate() {
            if *n > 0.0 {
                self.set(i, 1.0 / n);
            } else {
                self.warn_zero(i, what);
            }
        }
    }

    fn residual_sum(&mut self, ranges: &[Range<usize>], r: &DVector<f64>) {
        let n = norms(ranges, r);
        let total = n.iter().map(|x| x * x).sum::<f64>().sqrt();
        if total == 0.0 {
            if !self.warned {
                self.warned = true;
                log::warn!("residual-sum preconditioner: the whole residual is zero; the weights are kept");
            }
            return;
        }
        for (s, ni) in self.sums.iter_mut().zip(&n) {
            *s += ni / total;
        }
        if self.frozen() {
            return;
        }
        let candidates: Vec<Option<f64>> = self.sums.iter().map(|s| (*s > 0.0).then(|| 1.0 / s)).collect();
        let jump = candidates.iter().zip(&self.weights).any(|(c, w)| c.is_some_and(|c| c / w > 10.0 || c / w < 0.1));
        if self.first_window || !self.s.update_on_threshold || jump {
            for (i, c) in candidates.into_iter().enumerate() {
                match c {
                    Some(c) => self.set(i, c),
                    None => self.warn_zero(i, "residual sum"),
                }
            }
        }
    }

    fn set(&mut self, i: usize, w: f64) {
        if self.weights[i] != w {
            self.weights[i] = w;
            self.generation += 1;
        }
    }

    fn warn_zero(&mut self, i: usize, what: &str) {
        if !self.warned {
            self.warned = true;
            let DataKey { mesh: m, data: d } = &self.keys[i];
            log::warn!(
                "{:?} preconditioner: the {what} of data \"{d}\" on mesh \"{m}\" is zero; its weight stays {} \
                 (reported once)",
                self.s.kind,
                self.weights[i]
            );
        }
    }
}

/// Euclidean norm of each block.
fn norms(ranges: &[Range<usize>], v: &DVector<f64>) -> Vec<f64> {
    ranges.iter().map(|r| v.rows(r.start, r.len()).norm()).collect()
}
