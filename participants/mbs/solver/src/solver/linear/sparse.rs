//! Sparse LU of the saddle matrix (faer): partial pivoting with a COLAMD fill-reducing
//! column ordering, the method of choice for large systems with few couplings per body
//! (chains, mooring lines), where dense LU's n³ cost dominates the step.

use faer::linalg::solvers::Solve;
use faer::sparse::{SparseColMat, Triplet};
use faer::Mat;
use nalgebra::{DMatrix, DVector};

/// `[x; y]` by sparse LU; `None` when the matrix is structurally or numerically singular.
/// Only the non-zero entries of the dense blocks enter the factorisation.
pub fn solve_sparse(
    a: &DMatrix<f64>,
    bt: &DMatrix<f64>,
    c: &DMatrix<f64>,
    f: &DVector<f64>,
    g: &DVector<f64>,
) -> Option<DVector<f64>> {
    let (n, m) = (a.nrows(), c.nrows());
    let mut t = Vec::new();
    push_nonzeros(&mut t, a, 0, 0);
    push_nonzeros(&mut t, bt, 0, n);
    push_nonzeros(&mut t, c, n, 0);
    let k = SparseColMat::<usize, f64>::try_new_from_triplets(n + m, n + m, &t).ok()?;
    let lu = k.sp_lu().ok()?;
    let mut rhs = Mat::<f64>::zeros(n + m, 1);
    for (i, v) in f.iter().chain(g.iter()).enumerate() {
        rhs[(i, 0)] = *v;
    }
    lu.solve_in_place(rhs.as_mut());
    Some(DVector::from_iterator(n + m, (0..n + m).map(|i| rhs[(i, 0)])))
}

/// Appends the non-zero entries of `b`, placed at `(r0, c0)`, as triplets.
fn push_nonzeros(t: &mut Vec<Triplet<usize, usize, f64>>, b: &DMatrix<f64>, r0: usize, c0: usize) {
    for j in 0..b.ncols() {
        for (i, v) in b.column(j).iter().enumerate() {
            if *v != 0.0 {
                t.push(Triplet::new(r0 + i, c0 + j, *v));
            }
        }
    }
}
