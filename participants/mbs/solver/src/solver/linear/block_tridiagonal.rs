//! Block-tridiagonal LU (the block Thomas algorithm) for chains: the unknowns grouped by body
//! in chain order, each body's coordinates with the rows of the joints to its predecessor,
//! so that the saddle matrix couples each block only with its two neighbours. Forward
//! elimination `Sᵢ = Dᵢ − Lᵢ Sᵢ₋₁⁻¹ Uᵢ₋₁` (dense LU with partial pivoting per block), then
//! back substitution: `O(N b³)` for `N` blocks of size `b`, linear in the chain's length.

use super::saddle::SparseSaddle;
use super::LinearError;
use nalgebra::{DMatrix, DVector};

/// `K⁻¹ rhs` by block Thomas over `blocks` (unknown indices per block, in chain order); refuses
/// with [`LinearError::NotChain`] an entry that couples blocks that are not neighbours.
pub fn solve_block_tridiagonal(
    k: &SparseSaddle,
    blocks: &[Vec<usize>],
    rhs: &DVector<f64>,
) -> Result<DVector<f64>, LinearError> {
    let nb = blocks.len();
    let mut block_of = vec![(usize::MAX, 0); k.dim()];
    for (b, ids) in blocks.iter().enumerate() {
        for (local, &u) in ids.iter().enumerate() {
            block_of[u] = (b, local);
        }
    }
    if let Some(u) = block_of.iter().position(|b| b.0 == usize::MAX) {
        return Err(LinearError::NotChain(format!("unknown {u} belongs to no body block")));
    }
    // Dᵢ, Lᵢ (block i, i−1) and Uᵢ (block i, i+1).
    let size = |b: usize| blocks[b].len();
    let mut d: Vec<DMatrix<f64>> = (0..nb).map(|b| DMatrix::zeros(size(b), size(b))).collect();
    let mut lower: Vec<DMatrix<f64>> = (0..nb).map(|b| DMatrix::zeros(size(b), size(b.max(1) - 1))).collect();
    let mut upper: Vec<DMatrix<f64>> =
        (0..nb).map(|b| DMatrix::zeros(size(b), if b + 1 < nb { size(b + 1) } else { 0 })).collect();
    for &(r, c, v) in &k.entries {
        let ((br, lr), (bc, lc)) = (block_of[r], block_of[c]);
        if br == bc {
            d[br][(lr, lc)] += v;
        } else if bc + 1 == br {
            lower[br][(lr, lc)] += v;
        } else if br + 1 == bc {
            upper[br][(lr, lc)] += v;
        } else if v != 0.0 {
            return Err(LinearError::NotChain(format!(
                "the matrix couples block {br} with block {bc}, which are not neighbours in the chain"
            )));
        }
    }
    let mut y: Vec<DVector<f64>> =
        blocks.iter().map(|ids| DVector::from_iterator(ids.len(), ids.iter().map(|&u| rhs[u]))).collect();
    // Forward: S₀ = D₀; Sᵢ = Dᵢ − Lᵢ (Sᵢ₋₁⁻¹ Uᵢ₋₁), yᵢ −= Lᵢ (Sᵢ₋₁⁻¹ yᵢ₋₁).
    let mut factors = Vec::with_capacity(nb);
    let mut s_inv_u: Vec<DMatrix<f64>> = Vec::with_capacity(nb);
    for b in 0..nb {
        let mut s = std::mem::replace(&mut d[b], DMatrix::zeros(0, 0));
        if b > 0 {
            s -= &lower[b] * &s_inv_u[b - 1];
            let z = factors_solve(&factors[b - 1], &y[b - 1])?;
            y[b] -= &lower[b] * z;
        }
        let lu = s.lu();
        s_inv_u.push(if b + 1 < nb { solve_mat(&lu, &upper[b])? } else { DMatrix::zeros(size(b), 0) });
        factors.push(lu);
    }
    // Backward: x_last = S⁻¹ y_last; xᵢ = S⁻¹yᵢ − (Sᵢ⁻¹Uᵢ) xᵢ₊₁.
    let mut x = DVector::zeros(k.dim());
    let mut next: Option<DVector<f64>> = None;
    for b in (0..nb).rev() {
        let mut xb = factors_solve(&factors[b], &y[b])?;
        if let Some(xn) = &next {
            xb -= &s_inv_u[b] * xn;
        }
        for (local, &u) in blocks[b].iter().enumerate() {
            x[u] = xb[local];
        }
        next = Some(xb);
    }
    Ok(x)
}

type Lu = nalgebra::LU<f64, nalgebra::Dyn, nalgebra::Dyn>;

fn factors_solve(lu: &Lu, b: &DVector<f64>) -> Result<DVector<f64>, LinearError> {
    lu.solve(b).filter(|x| x.iter().all(|v| v.is_finite())).ok_or(LinearError::Singular)
}

fn solve_mat(lu: &Lu, b: &DMatrix<f64>) -> Result<DMatrix<f64>, LinearError> {
    if b.ncols() == 0 {
        return Ok(b.clone());
    }
    lu.solve(b).filter(|x| x.iter().all(|v| v.is_finite())).ok_or(LinearError::Singular)
}
