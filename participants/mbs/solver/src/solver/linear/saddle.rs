//! The saddle matrix `[A Bᵀ; C 0]` in sparse form: entries `(row, column, value)` over the
//! `n + m` unknowns (DOFs first, then constraint rows), duplicates summed. What the sparse,
//! banded and block solvers take, and what the sparse assembly builds without ever holding
//! an `n × n` array.

use nalgebra::{DMatrix, DVector};

/// A saddle matrix as summed entries.
#[derive(Debug, Clone, Default, PartialEq)]
pub struct SparseSaddle {
    /// Coordinates (rows and columns of `A`).
    pub n: usize,
    /// Constraint rows (rows of `C`, columns of `Bᵀ`).
    pub m: usize,
    /// `(row, column, value)` over `0..n + m`; repeated positions add up.
    pub entries: Vec<(usize, usize, f64)>,
}

impl SparseSaddle {
    /// An empty `(n + m)`-square saddle matrix.
    pub fn new(n: usize, m: usize) -> Self {
        SparseSaddle { n, m, entries: Vec::new() }
    }

    /// The non-zero entries of dense blocks `A`, `Bᵀ` and `C`.
    pub fn from_dense(a: &DMatrix<f64>, bt: &DMatrix<f64>, c: &DMatrix<f64>) -> Self {
        let (n, m) = (a.nrows(), c.nrows());
        let mut s = SparseSaddle::new(n, m);
        for (b, r0, c0) in [(a, 0, 0), (bt, 0, n), (c, n, 0)] {
            for j in 0..b.ncols() {
                for (i, v) in b.column(j).iter().enumerate() {
                    if *v != 0.0 {
                        s.entries.push((r0 + i, c0 + j, *v));
                    }
                }
            }
        }
        s
    }

    /// Unknowns in all.
    pub fn dim(&self) -> usize {
        self.n + self.m
    }

    /// The entries with each position once (summed), sorted by row then column, zeros dropped.
    pub fn compressed(&self) -> Vec<(usize, usize, f64)> {
        let mut e = self.entries.clone();
        e.sort_by_key(|&(r, c, _)| (r, c));
        let mut out: Vec<(usize, usize, f64)> = Vec::with_capacity(e.len());
        for (r, c, v) in e {
            match out.last_mut() {
                Some(last) if last.0 == r && last.1 == c => last.2 += v,
                _ => out.push((r, c, v)),
            }
        }
        out.retain(|e| e.2 != 0.0);
        out
    }

    /// The whole matrix, dense (for dense LU of a sparsely assembled system, and tests).
    pub fn to_dense(&self) -> DMatrix<f64> {
        let mut k = DMatrix::zeros(self.dim(), self.dim());
        for &(r, c, v) in &self.entries {
            k[(r, c)] += v;
        }
        k
    }

    /// `K x` (what the iterative solver's residual needs).
    pub fn mul(&self, x: &DVector<f64>) -> DVector<f64> {
        let mut y = DVector::zeros(self.dim());
        for &(r, c, v) in &self.entries {
            y[r] += v * x[c];
        }
        y
    }
}
