//! Acceleration of implicit coupling (preCICE's `acceleration`): what the measuring
//! participant sends next after an unconverged iteration (docs/design/coupling-semantics.md §11.4–§11.5).
//! The scheme hands every datum of its acceleration map as an [`AccData`]; the method
//! rewrites the values in place. Samples at or before the window start never appear here,
//! so they can never be changed.

//!
//! Methods, one file each: [`constant`] relaxation, [`aitken`], and the quasi-Newton methods
//! [`iqn_ils`] and [`iqn_imvj`], which share `qn` (columns and their lifetime), `filter`
//! (QR decomposition and filters), `preconditioner` and `layout` (the vectors of one call
//! and their resampling when the time grid changes). Defaults are resolved in [`settings`].

pub mod aitken;
pub mod constant;
pub(crate) mod filter;
mod imvj_restart;
pub mod iqn_ils;
pub mod iqn_imvj;
pub(crate) mod layout;
pub(crate) mod preconditioner;
pub(crate) mod qn;
pub mod settings;

#[cfg(test)]
mod tests;

use crate::Result;
use tidelink_precice_config::{AccelerationDecl, AccelerationKind, DataKey};

/// One datum of the acceleration map, over the samples of the current window after its start.
#[derive(Debug, Clone, PartialEq)]
pub struct AccData {
    /// (mesh, data) names.
    pub key: DataKey,
    /// True for the acceleration's `<data>` tags: they steer the update (Aitken factor, QN residuals).
    pub primary: bool,
    /// Values per sample (vertices × components).
    pub size: usize,
    /// Sample times after the window start, oldest first; the last one is the window end.
    pub times: Vec<f64>,
    /// This iteration's values x̃ at `times`, sample-major (`times.len() × size`); `perform` overwrites them.
    pub values: Vec<f64>,
    /// The previous iteration's accelerated values sampled at `times` (in a window's first
    /// iteration: the window-start value at every time).
    pub old: Vec<f64>,
    /// Gradients per sample (0: the datum carries none; see coupling-semantics.md §7.6).
    pub gradient_size: usize,
    /// This iteration's gradients at `times`, sample-major; the relaxation steps (constant,
    /// Aitken, the quasi-Newton initial relaxation) relax them as the values, the
    /// quasi-Newton update leaves them (libprecice's `applyRelaxation`).
    pub gradients: Vec<f64>,
    /// The previous iteration's gradients at `times`, sampled with degree 0.
    pub old_gradients: Vec<f64>,
}

/// Quasi-Newton column counts of one window, for the iteration log.
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq)]
pub struct QnColumns {
    /// Columns kept at the end of the window.
    pub columns: usize,
    /// Columns removed by the QR filter in this window.
    pub deleted: usize,
    /// Columns dropped by `max-used-iterations` / `time-windows-reused` in this window.
    pub dropped: usize,
}

/// An acceleration method.
pub trait Acceleration: Send {
    /// An unconverged iteration: replace every datum's `values` with what is sent next.
    fn perform(&mut self, data: &mut [AccData]) -> Result<()>;
    /// The window converged (values are not changed): keep history for later windows.
    fn converged(&mut self, data: &[AccData]);
    /// Column counts of the window just converged, for quasi-Newton methods only.
    fn qn_columns(&self) -> Option<QnColumns> {
        None
    }
}

/// Builds the method a scheme's `<acceleration:*>` declares, with the defaults of
/// [`settings`]; settings the native engine does not support (`on-bound-violation` other than
/// `ignore`) are an error naming the tag.
pub fn build(decl: &AccelerationDecl) -> Result<Box<dyn Acceleration>> {
    match decl.kind {
        AccelerationKind::Constant => Ok(Box::new(constant::ConstantRelaxation::new(settings::constant(decl)?))),
        AccelerationKind::Aitken => {
            let (omega0, pre) = settings::aitken(decl)?;
            Ok(Box::new(aitken::Aitken::new(omega0, pre, label(decl))))
        }
        AccelerationKind::IqnIls => Ok(Box::new(iqn_ils::IqnIls::new(settings::qn(decl)?, label(decl)))),
        AccelerationKind::IqnImvj => {
            let qn = settings::qn(decl)?;
            Ok(Box::new(iqn_imvj::IqnImvj::new(qn, settings::imvj(decl), label(decl))))
        }
    }
}

/// "file:line: acceleration:KIND", the prefix of the methods' run-time errors.
fn label(decl: &AccelerationDecl) -> String {
    format!("{}: acceleration:{}", decl.loc, decl.kind)
}
