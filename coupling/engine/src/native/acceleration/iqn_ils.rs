//! IQN-ILS, the interface quasi-Newton method with an inverse Jacobian from a least-squares
//! model (docs/design/coupling-semantics.md §11.5; Degroote, Bathe & Vierendeels, Computers &
//! Structures 87, 2009; Haelterman et al., Computers & Structures 171, 2016).
//!
//! With the columns V (primary residual differences) and W (differences of all new values)
//! of `qn`, each iteration solves min_α ‖P(V α + r)‖ (P the preconditioner weights)
//! through the filtered QR decomposition, R α = −Qᵀ P r, and sends x = x̃ + W α for every
//! datum and sample. The first iteration of the first window (of every window with
//! `enforce`) relaxes with the initial relaxation instead, as does any iteration without
//! columns; the first iteration of a later window uses the columns kept from earlier windows.
//! For a scalar linear problem this is the secant method.

use super::constant::relax_gradients;
use super::layout::write_all;
use super::qn::{check_nan, QnBase};
use super::settings::QnSettings;
use super::{AccData, Acceleration, QnColumns};
use crate::Result;

/// `<acceleration:IQN-ILS>`.
#[derive(Debug, Clone)]
pub struct IqnIls {
    base: QnBase,
}

impl IqnIls {
    /// IQN-ILS with resolved settings; `label` prefixes its errors.
    pub fn new(s: QnSettings, label: String) -> Self {
        IqnIls { base: QnBase::new(s, label) }
    }

    /// The current columns, newest first.
    #[cfg(test)]
    pub(crate) fn columns(&self) -> &[super::qn::Column] {
        &self.base.cols
    }

    /// The preconditioner's current weights.
    #[cfg(test)]
    pub(crate) fn weights(&self) -> &[f64] {
        self.base.pre.weights()
    }
}

impl Acceleration for IqnIls {
    fn perform(&mut self, data: &mut [AccData]) -> Result<()> {
        let b = &mut self.base;
        b.adopt(data)?;
        let step = b.begin(data)?;
        let omega = b.s.initial_relaxation;
        let initial = step.first && (b.window == 0 || b.s.enforce_initial_relaxation);
        let x = if initial {
            step.relaxed(omega)
        } else {
            match b.filtered() {
                None => step.relaxed(omega),
                Some(qr) => {
                    let alpha = qr.solve(&-b.scaled(&step.r));
                    let mut x = step.xt.clone();
                    for (a, c) in alpha.iter().zip(&b.cols) {
                        x.axpy(*a, &c.w, 1.0);
                    }
                    x
                }
            }
        };
        check_nan(&x, &b.label)?;
        write_all(data, &x);
        if initial {
            // libprecice's `applyRelaxation`: the initial relaxation relaxes gradients too.
            relax_gradients(data, omega);
        }
        b.iter += 1;
        Ok(())
    }

    fn converged(&mut self, data: &[AccData]) {
        let b = &mut self.base;
        if let Err(e) = b.close_begin(data) {
            log::error!("{}", e.message);
            b.abandon_window();
            return;
        }
        let keep_once = !b.s.enforce_initial_relaxation;
        b.close_end(data, keep_once);
    }

    fn qn_columns(&self) -> Option<QnColumns> {
        Some(self.base.last_columns())
    }
}
