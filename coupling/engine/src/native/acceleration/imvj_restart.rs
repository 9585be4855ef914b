//! Restarts of IQN-IMVJ's inverse Jacobian (Scheufele & Mehl, SIAM J. Sci. Comput. 39, 2017):
//! a Jacobian that remembers every window ever computed is expensive in the matrix-free
//! formulation and carries outdated information, so every `chunk-size` windows it is cut back.
//! The native engine keeps J dense, so each mode acts on J directly:
//!
//! - `no-restart`: never;
//! - `RS-0`: J_prev ← 0 (the next window starts from nothing: relaxation);
//! - `RS-LS`: J_prev ← W (P V)⁺ P from the pooled own columns of the last
//!   `reused-time-windows-at-restart` windows (newest first, at most as many as primary
//!   unknowns, filtered like the iterations' columns);
//! - `RS-SVD`: J_prev ← its truncated SVD, singular values below `truncation-threshold`·σ_max
//!   removed;
//! - `RS-SLIDE`: after every window, J_prev ← the multi-secant updates of only the last
//!   `chunk-size` windows, applied from the oldest to the newest starting from 0.

use super::filter::Qr;
use super::iqn_imvj::corrected;
use super::qn::Column;
use super::settings::ImvjSettings;
use nalgebra::{DMatrix, DVector};
use std::collections::VecDeque;
use tidelink_precice_config::ImvjRestartKind;

/// How many past windows' columns the restart mode needs.
pub(crate) fn history_len(im: &ImvjSettings) -> usize {
    match im.restart {
        ImvjRestartKind::RsLs => im.reused_time_windows_at_restart,
        ImvjRestartKind::RsSlide => im.chunk_size,
        _ => 0,
    }
}

/// The new J_prev when a restart is due after `windows_done` windows (`None`: keep J).
/// `history` holds past windows' own columns (newest window first), `m` is the number of
/// primary unknowns, `filter` filters preconditioned columns, `scale` applies the weights.
pub(crate) fn restart(
    im: &ImvjSettings,
    windows_done: usize,
    j: &DMatrix<f64>,
    history: &VecDeque<Vec<Column>>,
    m: usize,
    filter: impl Fn(&[DVector<f64>]) -> (Vec<usize>, Qr),
    scale: impl Fn(&DVector<f64>) -> DVector<f64>,
) -> Option<DMatrix<f64>> {
    let chunk_end = windows_done.is_multiple_of(im.chunk_size.max(1));
    let zero = || DMatrix::zeros(j.nrows(), j.ncols());
    match im.restart {
        ImvjRestartKind::NoRestart => None,
        ImvjRestartKind::Rs0 => chunk_end.then(zero),
        ImvjRestartKind::RsLs => chunk_end.then(|| {
            let pool: Vec<Column> = history.iter().flatten().take(m).cloned().collect();
            from_columns(zero(), &pool, &filter, &scale)
        }),
        ImvjRestartKind::RsSvd => chunk_end.then(|| truncated(j, im.truncation_threshold)),
        ImvjRestartKind::RsSlide => {
            Some(history.iter().rev().fold(zero(), |acc, w| from_columns(acc, w, &filter, &scale)))
        }
    }
}

/// `j0` corrected by the (filtered) columns `cols`.
fn from_columns(
    j0: DMatrix<f64>,
    cols: &[Column],
    filter: &impl Fn(&[DVector<f64>]) -> (Vec<usize>, Qr),
    scale: &impl Fn(&DVector<f64>) -> DVector<f64>,
) -> DMatrix<f64> {
    if cols.is_empty() {
        return j0;
    }
    let scaled: Vec<DVector<f64>> = cols.iter().map(|c| scale(&c.v)).collect();
    let (kept, qr) = filter(&scaled);
    if kept.is_empty() {
        return j0;
    }
    let kept: Vec<Column> = kept.iter().map(|&i| cols[i].clone()).collect();
    corrected(&j0, &kept, &qr, scale)
}

/// J without its singular values below `threshold`·σ_max.
pub(crate) fn truncated(j: &DMatrix<f64>, threshold: f64) -> DMatrix<f64> {
    if j.is_empty() || j.iter().all(|x| *x == 0.0) {
        return j.clone();
    }
    let svd = j.clone().svd(true, true);
    let (Some(u), Some(vt)) = (svd.u.as_ref(), svd.v_t.as_ref()) else {
        return j.clone();
    };
    let smax = svd.singular_values.max();
    let mut out = DMatrix::zeros(j.nrows(), j.ncols());
    for (k, s) in svd.singular_values.iter().enumerate() {
        if *s >= threshold * smax {
            out += u.column(k) * vt.row(k) * *s;
        }
    }
    out
}
