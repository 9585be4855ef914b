//! QR decomposition of the (preconditioned) residual-difference columns V and the filters
//! that drop nearly linearly dependent columns before the least-squares solve
//! (docs/design/coupling-semantics.md §11.5; the filters follow preCICE's documentation and
//! Haelterman et al., "Improving the performance of the partitioned QN-ILS procedure for
//! fluid–structure interaction problems: filtering", Computers & Structures 171, 2016).
//!
//! Columns are given newest first, so a column that is (nearly) a combination of newer ones
//! is the one deleted: the newest information is kept.
//!
//! - **QR1**: decompose all columns; while some |R_ii| < limit·‖R‖_F, delete the first such
//!   column and decompose again.
//! - **QR1-absolute**: the same with |R_ii| < limit.
//! - **QR2**: build the decomposition column by column (modified Gram–Schmidt, newest first);
//!   a column whose part orthogonal to the newer kept ones is shorter than limit·‖v‖ is
//!   deleted.
//! - **QR3**: the QR2 test, applied only to the columns added since the last filtering: if
//!   each of them passes against the columns already kept, nothing else is re-tested (the
//!   cheap insertion of preCICE's QR3); if one fails, the whole QR2 filter runs. A caller
//!   whose older columns changed (new preconditioner weights, resampled columns) passes all
//!   of them as new, which makes QR3 a QR2.
//!
//! The decomposition is recomputed from the columns every time (the methods work on small
//! serial interfaces), so the filters differ only in which columns they delete. When no column
//! is deleted, R α = Qᵀ b is the ordinary least-squares solution of V α ≈ b.

use nalgebra::{DMatrix, DVector};
use tidelink_precice_config::FilterKind;

/// A thin QR decomposition V = Q R of the kept columns: Q has orthonormal columns, R is upper triangular.
#[derive(Debug, Clone)]
pub struct Qr {
    /// Orthonormal columns, one per kept column of V (zero where a column had no orthogonal part).
    pub q: Vec<DVector<f64>>,
    /// n × n upper triangular.
    pub r: DMatrix<f64>,
}

impl Qr {
    /// Modified Gram–Schmidt with one re-orthogonalisation pass, in the given column order,
    /// without deleting anything; also returns each column's orthogonal-part ratio ‖v_orth‖/‖v‖.
    pub fn decompose(cols: &[DVector<f64>]) -> (Qr, Vec<f64>) {
        let n = cols.len();
        let mut qr = Qr { q: Vec::with_capacity(n), r: DMatrix::zeros(n, n) };
        let mut ratios = Vec::with_capacity(n);
        for v in cols {
            let (q, coeffs, norm, ratio) = orthogonalize(&qr.q, v);
            let j = qr.q.len();
            for (i, c) in coeffs.iter().enumerate() {
                qr.r[(i, j)] = *c;
            }
            qr.r[(j, j)] = norm;
            qr.q.push(q);
            ratios.push(ratio);
        }
        (qr, ratios)
    }

    /// Number of columns.
    pub fn cols(&self) -> usize {
        self.q.len()
    }

    /// Qᵀ b, the right-hand side of the triangular solve.
    pub fn qt(&self, b: &DVector<f64>) -> DVector<f64> {
        DVector::from_iterator(self.q.len(), self.q.iter().map(|q| q.dot(b)))
    }

    /// α with R α = Qᵀ b: the least-squares solution of V α ≈ b.
    pub fn solve(&self, b: &DVector<f64>) -> DVector<f64> {
        self.back_substitute(self.qt(b))
    }

    /// x with R x = y (y has one entry per column).
    pub fn back_substitute(&self, mut y: DVector<f64>) -> DVector<f64> {
        let n = self.cols();
        for i in (0..n).rev() {
            let mut s = y[i];
            for k in i + 1..n {
                s -= self.r[(i, k)] * y[k];
            }
            y[i] = s / self.r[(i, i)];
        }
        y
    }
}

/// v orthogonalised against `q` (twice, for accuracy): (unit vector, coefficients, ‖v_orth‖, ‖v_orth‖/‖v‖).
fn orthogonalize(q: &[DVector<f64>], v: &DVector<f64>) -> (DVector<f64>, Vec<f64>, f64, f64) {
    let mut w = v.clone();
    let mut coeffs = vec![0.0; q.len()];
    for _ in 0..2 {
        for (i, qi) in q.iter().enumerate() {
            let c = qi.dot(&w);
            coeffs[i] += c;
            w.axpy(-c, qi, 1.0);
        }
    }
    let (norm, full) = (w.norm(), v.norm());
    let ratio = if full > 0.0 { norm / full } else { 0.0 };
    let unit = if norm > 0.0 { w / norm } else { DVector::zeros(v.len()) };
    (unit, coeffs, norm, ratio)
}

/// Filters `cols` (newest first; the first `new` of them were added since the last
/// filtering) and decomposes the kept ones: (indices kept, in order; their decomposition).
pub fn filter(kind: FilterKind, limit: f64, cols: &[DVector<f64>], new: usize) -> (Vec<usize>, Qr) {
    match kind {
        FilterKind::Qr1 => qr1(cols, |rii, fro| rii < limit * fro),
        FilterKind::Qr1Absolute => qr1(cols, |rii, _| rii < limit),
        FilterKind::Qr2 => qr2(cols, limit),
        FilterKind::Qr3 => qr3(cols, limit, new),
    }
}

/// QR1 and QR1-absolute: delete the first column whose |R_ii| fails `small(|R_ii|, ‖R‖_F)`, repeat.
fn qr1(cols: &[DVector<f64>], small: impl Fn(f64, f64) -> bool) -> (Vec<usize>, Qr) {
    let mut kept: Vec<usize> = (0..cols.len()).collect();
    loop {
        let sel: Vec<DVector<f64>> = kept.iter().map(|&i| cols[i].clone()).collect();
        let (qr, _) = Qr::decompose(&sel);
        let fro = qr.r.norm();
        // A column without orthogonal part always goes (even when ‖R‖_F is zero).
        match (0..qr.cols()).find(|&i| qr.r[(i, i)] == 0.0 || small(qr.r[(i, i)].abs(), fro)) {
            Some(i) => {
                kept.remove(i);
            }
            None => return (kept, qr),
        }
    }
}

/// QR2: Gram–Schmidt newest first, deleting columns with ‖v_orth‖ < limit·‖v‖.
fn qr2(cols: &[DVector<f64>], limit: f64) -> (Vec<usize>, Qr) {
    let mut kept = Vec::new();
    let mut q: Vec<DVector<f64>> = Vec::new();
    let mut entries: Vec<(Vec<f64>, f64)> = Vec::new();
    for (i, v) in cols.iter().enumerate() {
        let (unit, coeffs, norm, ratio) = orthogonalize(&q, v);
        if norm == 0.0 || ratio < limit {
            continue;
        }
        kept.push(i);
        q.push(unit);
        entries.push((coeffs, norm));
    }
    let n = kept.len();
    let mut r = DMatrix::zeros(n, n);
    for (j, (coeffs, norm)) in entries.iter().enumerate() {
        for (i, c) in coeffs.iter().enumerate() {
            r[(i, j)] = *c;
        }
        r[(j, j)] = *norm;
    }
    (kept, Qr { q, r })
}

/// QR3: test only the new columns (oldest new one first) against what is kept; QR2 if one fails.
fn qr3(cols: &[DVector<f64>], limit: f64, new: usize) -> (Vec<usize>, Qr) {
    let new = new.min(cols.len());
    if new == cols.len() {
        return qr2(cols, limit);
    }
    let (old, _) = Qr::decompose(&cols[new..]);
    let mut basis = old.q;
    for v in cols[..new].iter().rev() {
        let (unit, _, norm, ratio) = orthogonalize(&basis, v);
        if norm == 0.0 || ratio < limit {
            return qr2(cols, limit);
        }
        basis.push(unit);
    }
    let (qr, _) = Qr::decompose(cols);
    ((0..cols.len()).collect(), qr)
}
