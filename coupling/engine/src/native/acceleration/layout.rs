//! The vectors of one call: which data, how many values per sample, at which times; the
//! concatenations the methods work on; and the resampling of stored vectors when the time
//! grid of a window differs from the one they were recorded on.
//!
//! Two concatenations are used (docs/design/coupling-semantics.md §11.4): the *all-data*
//! vector (every datum, every sample, in call order), which the update is applied to, and the
//! *primary* vector (the acceleration's `<data>` only; with the reduced time grid only their
//! window-end sample), which steers it.
//!
//! Resampling maps a stored vector onto the current grid datum by datum and component by
//! component, piecewise linearly in the relative window time τ = (t − start)/(end − start),
//! with the value 0 at τ = 0: every stored vector is a difference between iterations or a
//! Jacobian acting on one, and the window-start sample never changes. The first window's start
//! is not known to the methods (its samples all lie after it); it is taken to be as long as
//! the window it is mapped to. Columns are only approximations of the Jacobian, so this
//! changes how fast later windows converge, not what they converge to.

use super::{AccData, DataKey};
use crate::{CouplingError, Result};
use nalgebra::{DMatrix, DVector};
use std::ops::Range;

/// One datum's part of a layout.
#[derive(Debug, Clone, PartialEq)]
pub struct Block {
    /// (mesh, data).
    pub key: DataKey,
    /// A `<data>` of the acceleration.
    pub primary: bool,
    /// Values per sample.
    pub size: usize,
    /// Sample times after the window start; the last one is the window end.
    pub times: Vec<f64>,
}

/// The shape of one call's data and the start of its window (when known).
#[derive(Debug, Clone, PartialEq)]
pub struct Layout {
    /// The data in call order.
    pub blocks: Vec<Block>,
    /// The window start: the end of the previous converged window, `None` in the first one.
    pub start: Option<f64>,
}

impl Layout {
    /// The layout of `data`, checking that every datum has samples and `times × size` values.
    pub fn of(data: &[AccData], start: Option<f64>, label: &str) -> Result<Self> {
        let mut blocks = Vec::with_capacity(data.len());
        for d in data {
            let n = d.times.len() * d.size;
            if d.times.is_empty() || d.values.len() != n || d.old.len() != n {
                return Err(CouplingError::protocol(format!(
                    "{label}: data \"{}\" on mesh \"{}\" has {} new and {} old values for {} samples of {} values each; \
                     the coupling scheme passed inconsistent data (a bug).",
                    d.key.data,
                    d.key.mesh,
                    d.values.len(),
                    d.old.len(),
                    d.times.len(),
                    d.size
                )));
            }
            blocks.push(Block { key: d.key.clone(), primary: d.primary, size: d.size, times: d.times.clone() });
        }
        Ok(Layout { blocks, start })
    }

    /// Same data, same roles and sizes: stored vectors can be carried over (possibly resampled).
    pub fn same_data(&self, other: &Layout) -> bool {
        self.blocks.len() == other.blocks.len()
            && self
                .blocks
                .iter()
                .zip(&other.blocks)
                .all(|(a, b)| a.key == b.key && a.primary == b.primary && a.size == b.size)
    }

    /// Same data on the same relative time grid (sample offsets from the window end agree):
    /// stored vectors are valid as they are.
    pub fn same_grid(&self, other: &Layout) -> bool {
        self.same_data(other)
            && self.blocks.iter().zip(&other.blocks).all(|(a, b)| {
                let (ea, eb) = (end(a), end(b));
                let tol = 1e-10 * ea.abs().max(eb.abs()).max(1.0);
                a.times.len() == b.times.len()
                    && a.times.iter().zip(&b.times).all(|(ta, tb)| ((ta - ea) - (tb - eb)).abs() <= tol)
            })
    }

    /// Where this layout's grid departs from `other`'s, for messages: the first datum whose
    /// samples differ, with its sample times before the window end in both.
    pub fn grid_difference(&self, other: &Layout) -> String {
        let offsets = |b: &Block| {
            let e = end(b);
            let v: Vec<String> = b.times.iter().map(|t| format!("{:e}", t - e)).collect();
            format!("[{}]", v.join(", "))
        };
        self.blocks
            .iter()
            .zip(&other.blocks)
            .find(|(a, b)| offsets(a) != offsets(b))
            .map(|(a, b)| {
                format!(
                    "data \"{}\": samples at t − window end = {} before, {} now (window end {})",
                    a.key.data,
                    offsets(a),
                    offsets(b),
                    end(b)
                )
            })
            .unwrap_or_default()
    }

    /// Length of the all-data vector.
    pub fn all_len(&self) -> usize {
        self.blocks.iter().map(|b| b.size * b.times.len()).sum()
    }

    /// Length of the primary vector.
    pub fn primary_len(&self, reduced: bool) -> usize {
        self.primary_ranges(reduced).last().map(|r| r.end).unwrap_or(0)
    }

    /// Where each primary datum lies in the primary vector (the preconditioner's blocks).
    pub fn primary_ranges(&self, reduced: bool) -> Vec<Range<usize>> {
        let mut at = 0;
        self.blocks
            .iter()
            .filter(|b| b.primary)
            .map(|b| {
                let n = if reduced { b.size } else { b.size * b.times.len() };
                at += n;
                at - n..at
            })
            .collect()
    }

    /// Keys of the primary data, in order.
    pub fn primary_keys(&self) -> Vec<DataKey> {
        self.blocks.iter().filter(|b| b.primary).map(|b| b.key.clone()).collect()
    }

    /// The window end (latest sample of any datum).
    pub fn end(&self) -> f64 {
        self.blocks.iter().map(end).fold(f64::NEG_INFINITY, f64::max)
    }
}

fn end(b: &Block) -> f64 {
    *b.times.last().expect("a block has samples")
}

/// The all-data vector of `f` (values or old values) of every datum.
pub fn all(data: &[AccData], f: impl Fn(&AccData) -> &[f64]) -> DVector<f64> {
    DVector::from_iterator(data.iter().map(|d| f(d).len()).sum(), data.iter().flat_map(|d| f(d).iter().copied()))
}

/// The primary vector of `f`: primary data only, with `reduced` only their window-end sample.
pub fn primary(data: &[AccData], reduced: bool, f: impl Fn(&AccData) -> &[f64]) -> DVector<f64> {
    let parts: Vec<&[f64]> = data
        .iter()
        .filter(|d| d.primary)
        .map(|d| {
            let v = f(d);
            if reduced {
                &v[v.len() - d.size..]
            } else {
                v
            }
        })
        .collect();
    DVector::from_iterator(parts.iter().map(|p| p.len()).sum(), parts.iter().flat_map(|p| p.iter().copied()))
}

/// Writes an all-data vector back into the data's `values`.
pub fn write_all(data: &mut [AccData], v: &DVector<f64>) {
    let mut at = 0;
    for d in data {
        let n = d.values.len();
        d.values.copy_from_slice(&v.as_slice()[at..at + n]);
        at += n;
    }
}

/// An all-data vector recorded on `from`, mapped onto `to` (same data).
pub fn resample_all(from: &Layout, to: &Layout, v: &DVector<f64>) -> DVector<f64> {
    resample(from, to, v, |_| true)
}

/// A primary vector recorded on `from`, mapped onto `to` (same data).
pub fn resample_primary(from: &Layout, to: &Layout, reduced: bool, v: &DVector<f64>) -> DVector<f64> {
    if reduced {
        return v.clone();
    }
    resample(from, to, v, |b| b.primary)
}

/// A matrix whose rows are all-data and whose columns are primary vectors (IMVJ's Jacobian),
/// mapped onto `to`.
pub fn resample_matrix(from: &Layout, to: &Layout, reduced: bool, m: &DMatrix<f64>) -> DMatrix<f64> {
    let cols: Vec<DVector<f64>> = (0..m.ncols()).map(|j| resample_all(from, to, &m.column(j).into_owned())).collect();
    let rows_new = to.all_len();
    let tall = if cols.is_empty() { DMatrix::zeros(rows_new, 0) } else { DMatrix::from_columns(&cols) };
    if reduced {
        return tall;
    }
    let rows: Vec<DVector<f64>> =
        (0..rows_new).map(|i| resample_primary(from, to, false, &tall.row(i).transpose())).collect();
    let ncols = to.primary_len(false);
    let mut out = DMatrix::zeros(rows_new, ncols);
    for (i, r) in rows.iter().enumerate() {
        out.set_row(i, &r.transpose());
    }
    out
}

fn resample(from: &Layout, to: &Layout, v: &DVector<f64>, take: impl Fn(&Block) -> bool) -> DVector<f64> {
    let mut out = Vec::new();
    let mut at = 0;
    for (fb, tb) in from.blocks.iter().zip(&to.blocks).filter(|(b, _)| take(b)) {
        let n = fb.size * fb.times.len();
        let seg = &v.as_slice()[at..at + n];
        at += n;
        out.extend(resample_block(fb, from.start, tb, to.start, seg));
    }
    DVector::from_vec(out)
}

/// One datum's samples `seg` on `fb`'s grid, on `tb`'s grid (linear in τ, 0 at the window start).
fn resample_block(fb: &Block, fstart: Option<f64>, tb: &Block, tstart: Option<f64>, seg: &[f64]) -> Vec<f64> {
    let (fe, te) = (end(fb), end(tb));
    let (lf, lt) = match (fstart.map(|s| fe - s), tstart.map(|s| te - s)) {
        (Some(a), Some(b)) => (a, b),
        (Some(a), None) => (a, a),
        (None, Some(b)) => (b, b),
        (None, None) => (0.0, 0.0),
    };
    let tau = |times: &[f64], e: f64, len: f64| -> Vec<f64> {
        if len > 0.0 {
            times.iter().map(|t| 1.0 - (e - t) / len).collect()
        } else {
            (1..=times.len()).map(|i| i as f64 / times.len() as f64).collect()
        }
    };
    let (tf, tt) = (tau(&fb.times, fe, lf), tau(&tb.times, te, lt));
    let size = fb.size;
    let mut out = vec![0.0; size * tt.len()];
    for (i, &x) in tt.iter().enumerate() {
        // Bracket x by the stored samples j − 1 and j; before the first one lies the window start (value 0).
        let x = x.max(0.0);
        let j = tf.iter().position(|&t| t >= x).unwrap_or(tf.len());
        for c in 0..size {
            let val = |k: usize| seg[k * size + c];
            out[i * size + c] = if j == tf.len() {
                val(tf.len() - 1)
            } else {
                let (t0, v0) = if j == 0 { (0.0, 0.0) } else { (tf[j - 1], val(j - 1)) };
                let (t1, v1) = (tf[j], val(j));
                if t1 <= t0 {
                    v1
                } else {
                    v0 + (v1 - v0) * (x - t0) / (t1 - t0)
                }
            };
        }
    }
    out
}
