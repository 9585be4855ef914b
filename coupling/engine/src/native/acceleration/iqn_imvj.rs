//! IQN-IMVJ, the interface quasi-Newton method with a multi-vector inverse Jacobian kept
//! across windows (docs/design/coupling-semantics.md §11.5; Lindner et al., "A comparison of
//! various quasi-Newton schemes for partitioned fluid-structure interaction", Coupled
//! Problems 2015; Scheufele & Mehl, "Robust multisecant quasi-Newton variants for parallel
//! fluid-structure simulations — and other multiphysics applications", SIAM J. Sci. Comput.
//! 39, 2017).
//!
//! The inverse Jacobian J (all-data unknowns × primary unknowns, dense: the native engine
//! couples small serial meshes) of the previous windows, J_prev, is corrected in each
//! iteration by the window's columns with the least change in the preconditioned norm that
//! satisfies J V = W:
//!
//!   J = J_prev + (W − J_prev V)(P V)⁺ P,  x = x̃ − J r,
//!
//! with (P V)⁺ from the filtered QR decomposition of P V. J is formed only at the window's
//! convergence (or in every iteration with `always-build-jacobian`, which gives the same
//! values); then J_prev ← J and the window's columns go (with `time-windows-reused > 0` they
//! stay, like IQN-ILS's, and only repeat conditions J_prev already satisfies). The restart
//! modes are in `imvj_restart`. Relaxation replaces the update in the first iteration of
//! the first window (of every window with `enforce`), and whenever J_prev holds nothing (never
//! built, or reset) and there are no columns.

use super::constant::relax_gradients;
use super::filter::Qr;
use super::imvj_restart::{history_len, restart};
use super::layout::{resample_matrix, write_all};
use super::qn::{check_nan, Change, Column, QnBase};
use super::settings::{ImvjSettings, QnSettings};
use super::{AccData, Acceleration, QnColumns};
use crate::Result;
use nalgebra::{DMatrix, DVector};
use std::collections::VecDeque;

/// `<acceleration:IQN-IMVJ>`.
#[derive(Debug, Clone)]
pub struct IqnImvj {
    base: QnBase,
    im: ImvjSettings,
    /// J_prev: rows all-data unknowns, columns primary unknowns, in the base's layout.
    j: DMatrix<f64>,
    /// J_prev carries information (built from at least one column, not reset since).
    informed: bool,
    /// Past windows' own columns, newest window first (RS-LS and RS-SLIDE rebuild from them).
    history: VecDeque<Vec<Column>>,
    windows_done: usize,
}

impl IqnImvj {
    /// IQN-IMVJ with resolved settings; `label` prefixes its errors.
    pub fn new(s: QnSettings, im: ImvjSettings, label: String) -> Self {
        IqnImvj {
            base: QnBase::new(s, label),
            im,
            j: DMatrix::zeros(0, 0),
            informed: false,
            history: VecDeque::new(),
            windows_done: 0,
        }
    }

    /// J_prev, the inverse Jacobian of the completed windows.
    #[cfg(test)]
    pub(crate) fn jacobian(&self) -> &DMatrix<f64> {
        &self.j
    }

    /// Carries J_prev and the history over to this call's layout.
    fn follow(&mut self, change: Change) {
        let reduced = self.base.s.reduced_time_grid;
        match change {
            Change::Same => {}
            Change::Fresh => {
                let l = self.base.layout();
                self.j = DMatrix::zeros(l.all_len(), l.primary_len(reduced));
                self.informed = false;
                self.history.clear();
            }
            Change::Resampled(old) => {
                let new = self.base.layout().clone();
                self.j = resample_matrix(&old, &new, reduced, &self.j);
                for w in self.history.iter_mut() {
                    *w = w.iter().map(|c| c.resampled(&old, &new, reduced)).collect();
                }
            }
        }
    }
}

/// J_prev + (W − J_prev V)(P V)⁺ P for the columns `cols` whose preconditioned decomposition
/// is `qr`; `scale` applies P to a primary vector.
pub(crate) fn corrected(
    j: &DMatrix<f64>,
    cols: &[Column],
    qr: &Qr,
    scale: impl Fn(&DVector<f64>) -> DVector<f64>,
) -> DMatrix<f64> {
    let m = j.ncols();
    // Z = R⁻¹ Qᵀ P (n × m), built row by row of Qᵀ P and solved column by column.
    let qtp: Vec<DVector<f64>> = qr.q.iter().map(&scale).collect();
    let mut z = DMatrix::zeros(qr.cols(), m);
    for c in 0..m {
        let y = DVector::from_iterator(qr.cols(), qtp.iter().map(|q| q[c]));
        z.set_column(c, &qr.back_substitute(y));
    }
    let mut out = j.clone();
    for (k, col) in cols.iter().enumerate() {
        let d = &col.w - j * &col.v;
        out += &d * z.row(k);
    }
    out
}

impl Acceleration for IqnImvj {
    fn perform(&mut self, data: &mut [AccData]) -> Result<()> {
        let change = self.base.adopt(data)?;
        self.follow(change);
        let step = self.base.begin(data)?;
        let omega = self.base.s.initial_relaxation;
        let initial = step.first && (self.base.window == 0 || self.base.s.enforce_initial_relaxation);
        let x = if initial {
            step.relaxed(omega)
        } else {
            let qr = self.base.filtered();
            if qr.is_none() && !self.informed {
                step.relaxed(omega)
            } else {
                let r = &step.r;
                let update = match qr {
                    None => &self.j * r,
                    Some(qr) if self.im.always_build_jacobian => {
                        let b = &self.base;
                        corrected(&self.j, &b.cols, &qr, |v| b.scaled(v)) * r
                    }
                    Some(qr) => {
                        // J r without forming J: J_prev r + (W − J_prev V) z, z = (P V)⁺ P r.
                        let zc = qr.solve(&self.base.scaled(r));
                        let mut u = &self.j * r;
                        for (zk, c) in zc.iter().zip(&self.base.cols) {
                            u += (&c.w - &self.j * &c.v) * *zk;
                        }
                        u
                    }
                };
                &step.xt - update
            }
        };
        check_nan(&x, &self.base.label)?;
        write_all(data, &x);
        if initial {
            // libprecice's `applyRelaxation`: the initial relaxation relaxes gradients too.
            relax_gradients(data, omega);
        }
        self.base.iter += 1;
        Ok(())
    }

    fn converged(&mut self, data: &[AccData]) {
        match self.base.close_begin(data) {
            Ok(change) => self.follow(change),
            Err(e) => {
                log::error!("{}", e.message);
                self.base.abandon_window();
                return;
            }
        }
        if let Some(qr) = self.base.filtered() {
            let b = &self.base;
            self.j = corrected(&self.j, &b.cols, &qr, |v| b.scaled(v));
            self.informed = true;
        }
        let keep = history_len(&self.im);
        if keep > 0 {
            let window = self.base.window;
            self.history.push_front(self.base.cols.iter().filter(|c| c.window == window).cloned().collect());
            self.history.truncate(keep);
        }
        self.base.close_end(data, false);
        self.windows_done += 1;
        let b = &self.base;
        let m = b.layout().primary_len(b.s.reduced_time_grid);
        if let Some(j) = restart(
            &self.im,
            self.windows_done,
            &self.j,
            &self.history,
            m,
            |cols| super::filter::filter(b.s.filter, b.s.filter_limit, cols, cols.len()),
            |v| b.scaled(v),
        ) {
            self.informed = j.iter().any(|x| *x != 0.0);
            self.j = j;
        }
    }

    fn qn_columns(&self) -> Option<QnColumns> {
        Some(self.base.last_columns())
    }
}
