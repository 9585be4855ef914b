//! Sparse LU of the saddle matrix (faer): partial pivoting with a COLAMD fill-reducing
//! column ordering, the method of choice for large systems with few couplings per body
//! (chains, mooring lines, meshes of bodies), where dense LU's n³ cost dominates the step.

use super::saddle::SparseSaddle;
use super::LinearError;
use faer::linalg::solvers::Solve;
use faer::sparse::{SparseColMat, Triplet};
use faer::Mat;
use nalgebra::DVector;

/// `K⁻¹ rhs` by sparse LU; [`LinearError::Singular`] when the matrix is structurally or
/// numerically singular.
pub fn solve_sparse_lu(k: &SparseSaddle, rhs: &DVector<f64>) -> Result<DVector<f64>, LinearError> {
    let n = k.dim();
    let t: Vec<Triplet<usize, usize, f64>> = k.entries.iter().map(|&(r, c, v)| Triplet::new(r, c, v)).collect();
    let mat = SparseColMat::<usize, f64>::try_new_from_triplets(n, n, &t).map_err(|_| LinearError::Singular)?;
    let lu = mat.sp_lu().map_err(|_| LinearError::Singular)?;
    let mut b = Mat::<f64>::zeros(n, 1);
    for (i, v) in rhs.iter().enumerate() {
        b[(i, 0)] = *v;
    }
    lu.solve_in_place(b.as_mut());
    Ok(DVector::from_iterator(n, (0..n).map(|i| b[(i, 0)])))
}
