//! Dense LU with partial pivoting of the whole saddle matrix: the default for small systems.

use nalgebra::{DMatrix, DVector};

/// The saddle matrix `[A Bᵀ; C 0]` and right-hand side `[f; g]`, dense.
pub(crate) fn saddle_dense(
    a: &DMatrix<f64>,
    bt: &DMatrix<f64>,
    c: &DMatrix<f64>,
    f: &DVector<f64>,
    g: &DVector<f64>,
) -> (DMatrix<f64>, DVector<f64>) {
    let (n, m) = (a.nrows(), c.nrows());
    let mut k = DMatrix::zeros(n + m, n + m);
    k.view_mut((0, 0), (n, n)).copy_from(a);
    k.view_mut((0, n), (n, m)).copy_from(bt);
    k.view_mut((n, 0), (m, n)).copy_from(c);
    (k, stack(f, g))
}

/// `[f; g]`.
pub(crate) fn stack(f: &DVector<f64>, g: &DVector<f64>) -> DVector<f64> {
    let (n, m) = (f.len(), g.len());
    let mut rhs = DVector::zeros(n + m);
    rhs.rows_mut(0, n).copy_from(f);
    rhs.rows_mut(n, m).copy_from(g);
    rhs
}

/// `[x; y]` by dense LU (nalgebra); `None` when singular.
pub fn solve_dense(
    a: &DMatrix<f64>,
    bt: &DMatrix<f64>,
    c: &DMatrix<f64>,
    f: &DVector<f64>,
    g: &DVector<f64>,
) -> Option<DVector<f64>> {
    let (k, rhs) = saddle_dense(a, bt, c, f, g);
    k.lu().solve(&rhs)
}
