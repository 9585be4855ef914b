//! The linear solvers of the implicit integrators' Newton step: the saddle system
//! `[A Bᵀ; C 0] [x; y] = [f; g]` (`A` the mass-like Jacobian, `Bᵀ` and `C` the constraint
//! Jacobian `Φ_q` as the scheme scales it) solved by the method the solver file names.
//! Dense LU suits small systems; sparse LU with a fill-reducing ordering suits large, sparse
//! ones such as mooring lines of many bodies (docs/design/linear-solvers.md).

mod dense;
mod sparse;
#[cfg(test)]
mod tests;

use nalgebra::{DMatrix, DVector};
use std::fmt;

pub use dense::solve_dense;
pub use sparse::solve_sparse;

/// Unknowns (DOFs plus constraint rows) below which `auto` factors the saddle matrix densely:
/// dense LU's cost (n³/3) is then smaller than a sparse analysis and its bookkeeping.
pub const AUTO_DENSE_BELOW: usize = 50;

/// Which method solves the saddle system (the solver file's `solver.type`).
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default)]
pub enum LinearSolverKind {
    /// Dense LU below [`AUTO_DENSE_BELOW`] unknowns, sparse LU above.
    #[default]
    Auto,
    /// Dense LU with partial pivoting (nalgebra).
    DenseLu,
    /// Sparse LU with partial pivoting and a COLAMD fill-reducing column ordering (faer).
    SparseLu,
}

impl LinearSolverKind {
    /// Our names, as the solver file spells them (compared case-insensitively).
    pub const NAMES: &'static [&'static str] = &["auto", "dense", "sparse"];

    /// The kind our `name` means (`dense_lu` and `sparse_lu` are accepted too).
    pub fn parse(name: &str) -> Option<Self> {
        match name.to_ascii_lowercase().as_str() {
            "auto" => Some(LinearSolverKind::Auto),
            "dense" | "dense_lu" => Some(LinearSolverKind::DenseLu),
            "sparse" | "sparse_lu" => Some(LinearSolverKind::SparseLu),
            _ => None,
        }
    }

    /// The concrete method for a saddle system of `unknowns` unknowns (`auto` resolved).
    pub fn resolve(self, unknowns: usize) -> LinearSolverKind {
        match self {
            LinearSolverKind::Auto if unknowns < AUTO_DENSE_BELOW => LinearSolverKind::DenseLu,
            LinearSolverKind::Auto => LinearSolverKind::SparseLu,
            k => k,
        }
    }
}

impl fmt::Display for LinearSolverKind {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(match self {
            LinearSolverKind::Auto => "auto",
            LinearSolverKind::DenseLu => "dense",
            LinearSolverKind::SparseLu => "sparse",
        })
    }
}

/// Solves `[A Bᵀ; C 0] [x; y] = [f; g]` by `kind`; `None` when the matrix is singular or the
/// solution not finite (the integrators turn that into an error naming the elements).
pub fn solve_saddle_with(
    kind: LinearSolverKind,
    a: &DMatrix<f64>,
    bt: &DMatrix<f64>,
    c: &DMatrix<f64>,
    f: &DVector<f64>,
    g: &DVector<f64>,
) -> Option<(DVector<f64>, DVector<f64>)> {
    let (n, m) = (a.nrows(), c.nrows());
    if n + m == 0 {
        // Every body fixed: nothing to factor (nalgebra's LU of a 0 × 0 matrix would panic).
        return Some((DVector::zeros(0), DVector::zeros(0)));
    }
    let x = match kind.resolve(n + m) {
        LinearSolverKind::SparseLu => solve_sparse(a, bt, c, f, g)?,
        _ => solve_dense(a, bt, c, f, g)?,
    };
    if x.iter().all(|v| v.is_finite()) {
        Some((x.rows(0, n).into_owned(), x.rows(n, m).into_owned()))
    } else {
        None
    }
}
