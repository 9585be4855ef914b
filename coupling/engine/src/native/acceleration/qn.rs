//! What IQN-ILS and IQN-IMVJ share (docs/design/coupling-semantics.md §11.5; Degroote et al.,
//! "Performance of a new partitioned procedure versus a monolithic procedure in fluid–structure
//! interaction", Computers & Structures 87, 2009): the columns ΔR (primary residual
//! differences, V) and ΔX̃ (differences of all new values, W), their lifetime, the
//! preconditioner and the filter.
//!
//! Column lifetime:
//! - iteration k ≥ 2 of a window adds (r^k − r^{k−1}, x̃^k − x̃^{k−1}) in front (newest first);
//!   the window's convergence adds the last such pair too;
//! - at most `max-used-iterations` columns, and never more than one beyond the primary
//!   unknowns (as preCICE): the oldest go first ("dropped");
//! - at convergence, columns of windows older than the last `time-windows-reused` are dropped;
//!   with 0 the window's columns stay for the next window's first iteration only (IQN-ILS) or
//!   go at once (IQN-IMVJ, whose Jacobian already holds them);
//! - the filter deletes nearly dependent columns from V and W alike ("deleted").
//!
//! The number of samples may change between windows: stored columns are then resampled onto
//! the new grid (see [`super::layout`]). If it changes between iterations of one window, that
//! window's columns and the previous iteration's vectors no longer fit and are dropped (no
//! column is added in that iteration); columns of earlier windows are resampled as usual.
//! If the data themselves change (another datum, another size), everything is dropped.

use super::filter::{filter, Qr};
use super::layout::{all, primary, resample_all, resample_primary, Layout};
use super::preconditioner::Preconditioner;
use super::settings::QnSettings;
use super::{AccData, QnColumns};
use crate::{CouplingError, Result};
use nalgebra::DVector;
use std::ops::Range;

/// One quasi-Newton column pair.
#[derive(Debug, Clone, PartialEq)]
pub struct Column {
    /// Residual difference of the primary data (a column of V).
    pub v: DVector<f64>,
    /// Difference of the new values of all data (a column of W).
    pub w: DVector<f64>,
    /// The window (0-based) it was recorded in.
    pub window: usize,
}

impl Column {
    /// The column recorded on `from`, mapped onto `to`.
    pub fn resampled(&self, from: &Layout, to: &Layout, reduced: bool) -> Column {
        Column {
            v: resample_primary(from, to, reduced, &self.v),
            w: resample_all(from, to, &self.w),
            window: self.window,
        }
    }
}

/// One iteration's vectors.
#[derive(Debug, Clone)]
pub struct Step {
    /// New values x̃ of all data.
    pub xt: DVector<f64>,
    /// What was sent last, x, for all data.
    pub x: DVector<f64>,
    /// Primary residual r = x̃ − x.
    pub r: DVector<f64>,
    /// The first iteration of its window.
    pub first: bool,
}

/// How the layout of a call relates to the stored one.
#[derive(Debug, Clone)]
pub enum Change {
    /// Same data, same grid.
    Same,
    /// Same data on another grid: stored columns were resampled from this layout.
    Resampled(Layout),
    /// First call, or other data: nothing stored survives.
    Fresh,
}

/// Columns, their lifetime and the per-window counters of the quasi-Newton methods.
#[derive(Debug, Clone)]
pub struct QnBase {
    /// The resolved settings.
    pub s: QnSettings,
    /// Weights of the primary blocks.
    pub pre: Preconditioner,
    /// The columns, newest first.
    pub cols: Vec<Column>,
    /// The window (0-based) being iterated.
    pub window: usize,
    /// Iterations performed in this window so far.
    pub iter: usize,
    /// Prefix of error messages.
    pub label: String,
    layout: Option<Layout>,
    prev: Option<(DVector<f64>, DVector<f64>)>,
    start: Option<f64>,
    new_cols: usize,
    qr_generation: Option<u64>,
    deleted: usize,
    dropped: usize,
    last: QnColumns,
}

impl QnBase {
    /// A method with no history yet.
    pub fn new(s: QnSettings, label: String) -> Self {
        let pre = Preconditioner::new(s.preconditioner.clone());
        QnBase {
            s,
            pre,
            cols: Vec::new(),
            window: 0,
            iter: 0,
            label,
            layout: None,
            prev: None,
            start: None,
            new_cols: 0,
            qr_generation: None,
            deleted: 0,
            dropped: 0,
            last: QnColumns::default(),
        }
    }

    /// Counts of the window converged last.
    pub fn last_columns(&self) -> QnColumns {
        self.last
    }

    /// The layout of the current call (after [`QnBase::adopt`]).
    pub fn layout(&self) -> &Layout {
        self.layout.as_ref().expect("adopt runs first")
    }

    /// The primary blocks' ranges in the current layout.
    pub fn ranges(&self) -> Vec<Range<usize>> {
        self.layout().primary_ranges(self.s.reduced_time_grid)
    }

    /// A primary vector multiplied by the preconditioner weights.
    pub fn scaled(&self, v: &DVector<f64>) -> DVector<f64> {
        self.pre.apply(&self.ranges(), v)
    }

    /// Takes the layout of this call's data, carrying stored columns over to it.
    pub fn adopt(&mut self, data: &[AccData]) -> Result<Change> {
        let new = Layout::of(data, self.start, &self.label)?;
        let reduced = self.s.reduced_time_grid;
        let change = match self.layout.take() {
            None => Change::Fresh,
            Some(old) if old.same_grid(&new) => Change::Same,
            Some(old) if old.same_data(&new) => {
                if self.iter > 0 {
                    log::warn!(
                        "{}: the time grid changed within a window; its quasi-Newton columns are dropped ({})",
                        self.label,
                        old.grid_difference(&new)
                    );
                    let before = self.cols.len();
                    let window = self.window;
                    self.cols.retain(|c| c.window != window);
                    self.dropped += before - self.cols.len();
                    self.prev = None;
                }
                self.cols = self.cols.iter().map(|c| c.resampled(&old, &new, reduced)).collect();
                self.qr_generation = None;
                Change::Resampled(old)
            }
            Some(_) => {
                log::warn!("{}: the accelerated data changed; all quasi-Newton columns are dropped", self.label);
                self.dropped += self.cols.len();
                self.cols.clear();
                self.prev = None;
                Change::Fresh
            }
        };
        self.layout = Some(new);
        self.cap();
        Ok(change)
    }

    /// This iteration's vectors; updates the preconditioner and records the new column.
    pub fn begin(&mut self, data: &[AccData]) -> Result<Step> {
        let (xt, xt_p, r) = self.vectors(data);
        if r.is_empty() {
            return Err(CouplingError::config(format!(
                "{}: none of the scheme's data is a <data> of the acceleration, so there is no residual to steer it.",
                self.label
            )));
        }
        // As in preCICE, the weights follow the quasi-Newton iterations only: the initial
        // relaxation (first iteration of the first window, or of every window with `enforce`)
        // leaves the preconditioner, and a residual sum, untouched.
        let relaxing = self.iter == 0 && (self.window == 0 || self.s.enforce_initial_relaxation);
        if !relaxing {
            let (keys, ranges) = (self.layout().primary_keys(), self.ranges());
            self.pre.iteration(&keys, &ranges, &xt_p, &r);
        }
        self.record(&xt, &r);
        Ok(Step { xt, x: all(data, |d| &d.old), r, first: self.iter == 0 })
    }

    /// The window converged: adds its last differences (the caller may then use the columns).
    pub fn close_begin(&mut self, data: &[AccData]) -> Result<Change> {
        let change = self.adopt(data)?;
        let (xt, _, r) = self.vectors(data);
        self.record(&xt, &r);
        Ok(change)
    }

    /// Ends the window: preconditioner refresh, column lifetime, counters. `keep_once`: with
    /// `time-windows-reused = 0` the window's columns stay for the next window's first iteration.
    pub fn close_end(&mut self, data: &[AccData], keep_once: bool) {
        let xt_p = primary(data, self.s.reduced_time_grid, |d| &d.values);
        let (keys, ranges) = (self.layout().primary_keys(), self.ranges());
        self.pre.window_complete(&keys, &ranges, &xt_p);
        let (window, reused) = (self.window, self.s.time_windows_reused);
        let before = self.cols.len();
        if reused == 0 && !keep_once {
            self.cols.clear();
        } else {
            let keep = reused.max(1);
            self.cols.retain(|c| c.window + keep > window);
        }
        self.dropped += before - self.cols.len();
        self.last = QnColumns { columns: self.cols.len(), deleted: self.deleted, dropped: self.dropped };
        self.deleted = 0;
        self.dropped = 0;
        self.window += 1;
        self.iter = 0;
        self.prev = None;
        // The next window starts where this one ends; the stored layout keeps this window's
        // start, so its columns can be resampled if the next grid differs.
        self.start = Some(self.layout().end());
    }

    /// Ends a window whose data could not be read (a scheme bug, already reported): the
    /// history stays, the window's iteration state goes.
    pub fn abandon_window(&mut self) {
        self.last = QnColumns { columns: self.cols.len(), deleted: self.deleted, dropped: self.dropped };
        self.deleted = 0;
        self.dropped = 0;
        self.window += 1;
        self.iter = 0;
        self.prev = None;
    }

    /// Filters the preconditioned columns, deleting the dependent ones from V and W; the
    /// decomposition of what is kept (`None` when no column is left).
    pub fn filtered(&mut self) -> Option<Qr> {
        if self.cols.is_empty() {
            return None;
        }
        let ranges = self.ranges();
        let scaled: Vec<DVector<f64>> = self.cols.iter().map(|c| self.pre.apply(&ranges, &c.v)).collect();
        let fresh = if self.qr_generation == Some(self.pre.generation()) { self.new_cols } else { self.cols.len() };
        let (kept, qr) = filter(self.s.filter, self.s.filter_limit, &scaled, fresh);
        if kept.len() < self.cols.len() {
            self.deleted += self.cols.len() - kept.len();
            let mut i = 0;
            self.cols.retain(|_| {
                i += 1;
                kept.contains(&(i - 1))
            });
        }
        self.new_cols = 0;
        self.qr_generation = Some(self.pre.generation());
        (!self.cols.is_empty()).then_some(qr)
    }

    /// (x̃ of all data, x̃ of the primary data, primary residual).
    fn vectors(&self, data: &[AccData]) -> (DVector<f64>, DVector<f64>, DVector<f64>) {
        let reduced = self.s.reduced_time_grid;
        let xt = all(data, |d| &d.values);
        let xt_p = primary(data, reduced, |d| &d.values);
        let r = &xt_p - primary(data, reduced, |d| &d.old);
        (xt, xt_p, r)
    }

    /// Adds the column of differences to the previous iteration (from the second iteration
    /// on) and remembers this iteration's vectors.
    fn record(&mut self, xt: &DVector<f64>, r: &DVector<f64>) {
        if self.iter > 0 {
            if self.s.time_windows_reused == 0 {
                let (before, window) = (self.cols.len(), self.window);
                self.cols.retain(|c| c.window == window);
                self.dropped += before - self.cols.len();
            }
            if let Some((xt0, r0)) = self.prev.take() {
                self.cols.insert(0, Column { v: r - r0, w: xt - xt0, window: self.window });
                self.new_cols += 1;
                self.cap();
            }
        }
        self.prev = Some((xt.clone(), r.clone()));
    }

    /// Drops the oldest columns beyond `max-used-iterations` and one more than the number of
    /// primary unknowns (preCICE adds a column while the count does not exceed the unknowns;
    /// the filter or the QR decomposition then copes with the dependent one).
    fn cap(&mut self) {
        let limit = self.s.max_used_iterations.min(self.layout().primary_len(self.s.reduced_time_grid) + 1);
        if self.cols.len() > limit {
            self.dropped += self.cols.len() - limit;
            self.cols.truncate(limit);
            self.new_cols = self.new_cols.min(limit);
        }
    }
}

impl Step {
    /// ω·x̃ + (1 − ω)·x: the relaxation step of the quasi-Newton methods.
    pub fn relaxed(&self, omega: f64) -> DVector<f64> {
        &self.xt * omega + &self.x * (1.0 - omega)
    }
}

/// The quasi-Newton update must be a number everywhere.
pub fn check_nan(x: &DVector<f64>, label: &str) -> Result<()> {
    if x.iter().any(|v| v.is_nan()) {
        return Err(CouplingError::config(format!(
            "{label}: The quasi-Newton update contains NaN values. This means that the quasi-Newton acceleration \
             failed to converge. Check the data the solvers write, or try another filter or a smaller filter limit."
        )));
    }
    Ok(())
}
