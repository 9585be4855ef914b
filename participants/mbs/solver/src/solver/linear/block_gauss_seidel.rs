//! Component block Gauss–Seidel: the unknowns grouped per body (its coordinates and the rows
//! of the joints assigned to it), each block's diagonal matrix factored once (dense LU), then
//! sweeps `xᵢ ← Dᵢ⁻¹ (bᵢ − Σⱼ≠ᵢ Kᵢⱼ xⱼ)` over the blocks, newest values used at once, until
//! the residual `|b − K x|∞` falls below the tolerance relative to `|b|∞`. Cheap per sweep and
//! per body, as for loosely coupled components; it converges when the coupling between
//! bodies is weak against each body's own block (small steps, soft links), and otherwise
//! stops with [`LinearError::NotConverged`].

use super::saddle::SparseSaddle;
use super::LinearError;
use nalgebra::{DMatrix, DVector};

/// Relative residual `|b − K x|∞ / |b|∞` at which the sweeps stop: a few hundred times the
/// round-off of a direct solve, so that Newton sees the same step as with LU.
pub const GS_TOLERANCE: f64 = 1e-12;
/// Most sweeps before [`LinearError::NotConverged`]. A chain of springs converges in tens of
/// sweeps; with joints, whose multipliers tie neighbours rigidly, the sweeps grow with the
/// chain's length (about 200 for 3 bodies, 1 300 for 20 at h = 0.01 s).
pub const GS_MAX_SWEEPS: usize = 2000;

/// `K⁻¹ rhs` by block Gauss–Seidel over `blocks` (unknown indices per block), from zero.
pub fn solve_block_gauss_seidel(
    k: &SparseSaddle,
    blocks: &[Vec<usize>],
    rhs: &DVector<f64>,
    tolerance: f64,
    max_sweeps: usize,
) -> Result<(DVector<f64>, usize), LinearError> {
    let mut block_of = vec![(usize::MAX, 0); k.dim()];
    for (b, ids) in blocks.iter().enumerate() {
        for (local, &u) in ids.iter().enumerate() {
            block_of[u] = (b, local);
        }
    }
    if let Some(u) = block_of.iter().position(|b| b.0 == usize::MAX) {
        return Err(LinearError::NotChain(format!("unknown {u} belongs to no body block")));
    }
    let entries = k.compressed();
    // Per block: its diagonal matrix and its rows' entries outside it.
    let mut d: Vec<DMatrix<f64>> = blocks.iter().map(|ids| DMatrix::zeros(ids.len(), ids.len())).collect();
    let mut off: Vec<Vec<(usize, usize, f64)>> = vec![Vec::new(); blocks.len()];
    for &(r, c, v) in &entries {
        let ((br, lr), (bc, lc)) = (block_of[r], block_of[c]);
        if br == bc {
            d[br][(lr, lc)] += v;
        } else {
            off[br].push((lr, c, v));
        }
    }
    let lus: Vec<_> = d.into_iter().map(|m| m.lu()).collect();
    if lus.iter().any(|lu| !lu.is_invertible()) {
        return Err(LinearError::Singular);
    }
    let scale = rhs.amax().max(f64::MIN_POSITIVE);
    let mut x = DVector::zeros(k.dim());
    let mut residual = f64::INFINITY;
    for sweep in 1..=max_sweeps {
        for (b, ids) in blocks.iter().enumerate() {
            let mut r = DVector::from_iterator(ids.len(), ids.iter().map(|&u| rhs[u]));
            for &(lr, c, v) in &off[b] {
                r[lr] -= v * x[c];
            }
            // The blocks are regular: a non-finite value here is the iteration diverging.
            let Some(xb) = lus[b].solve(&r).filter(|s| s.iter().all(|v| v.is_finite())) else {
                return Err(LinearError::NotConverged { sweeps: sweep, residual: f64::INFINITY, tolerance });
            };
            for (local, &u) in ids.iter().enumerate() {
                x[u] = xb[local];
            }
        }
        residual = (rhs - k.mul(&x)).amax() / scale;
        if !residual.is_finite() {
            break;
        }
        if residual <= tolerance {
            return Ok((x, sweep));
        }
    }
    Err(LinearError::NotConverged { sweeps: max_sweeps, residual, tolerance })
}
