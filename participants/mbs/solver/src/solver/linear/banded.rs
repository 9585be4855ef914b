//! Banded LU with partial pivoting (as LAPACK's `gbtrf`/`gbtrs`): the unknowns reordered by
//! reverse Cuthill–McKee so that a chain's saddle matrix has a narrow band, the lower and
//! upper bandwidths `kl`, `ku` read from the reordered entries, and the band factored in
//! `O(n kl (kl + ku))`. Row interchanges widen the upper band to `kl + ku`, which the
//! storage reserves.

use super::ordering::{bandwidths, reverse_cuthill_mckee};
use super::saddle::SparseSaddle;
use super::LinearError;
use nalgebra::DVector;

/// A band matrix stored by rows: row `i` holds columns `i − kl ..= i + kl + ku`.
struct Band {
    n: usize,
    kl: usize,
    ku: usize,
    width: usize,
    data: Vec<f64>,
}

impl Band {
    fn at(&self, i: usize, j: usize) -> usize {
        i * self.width + (j + self.kl - i)
    }
    fn last_col(&self, i: usize) -> usize {
        (i + self.kl + self.ku).min(self.n - 1)
    }
}

/// The band ordering and bandwidths `(position of each unknown, kl, ku)` of `k`.
pub fn band_ordering(k: &SparseSaddle) -> (Vec<usize>, usize, usize) {
    let entries = k.compressed();
    let mut adj = vec![Vec::new(); k.dim()];
    for &(r, c, _) in &entries {
        if r != c {
            adj[r].push(c);
            adj[c].push(r);
        }
    }
    let order = reverse_cuthill_mckee(&adj);
    let mut position = vec![0; k.dim()];
    for (p, &u) in order.iter().enumerate() {
        position[u] = p;
    }
    let (kl, ku) = bandwidths(&entries, &position);
    (position, kl, ku)
}

/// `K⁻¹ rhs` by banded LU of `k` after the reverse Cuthill–McKee ordering.
pub fn solve_banded(k: &SparseSaddle, rhs: &DVector<f64>) -> Result<DVector<f64>, LinearError> {
    let n = k.dim();
    let (position, kl, ku) = band_ordering(k);
    let width = 2 * kl + ku + 1;
    let mut band = Band { n, kl, ku, width, data: vec![0.0; n * width] };
    for (r, c, v) in k.compressed() {
        let at = band.at(position[r], position[c]);
        band.data[at] += v;
    }
    let mut b = vec![0.0; n];
    for (u, v) in rhs.iter().enumerate() {
        b[position[u]] = *v;
    }
    let mut pivots = Vec::with_capacity(n);
    for col in 0..n {
        let last_row = (col + kl).min(n - 1);
        let p = (col..=last_row)
            .max_by(|&x, &y| band.data[band.at(x, col)].abs().total_cmp(&band.data[band.at(y, col)].abs()))
            .unwrap_or(col);
        let piv = band.data[band.at(p, col)];
        if piv == 0.0 || !piv.is_finite() {
            return Err(LinearError::Singular);
        }
        pivots.push(p);
        let last = band.last_col(col);
        if p != col {
            for j in col..=last {
                let (x, y) = (band.at(col, j), band.at(p, j));
                band.data.swap(x, y);
            }
        }
        for i in col + 1..=last_row {
            let at = band.at(i, col);
            let l = band.data[at] / piv;
            band.data[at] = l;
            if l != 0.0 {
                for j in col + 1..=last {
                    let (t, s) = (band.at(i, j), band.at(col, j));
                    band.data[t] -= l * band.data[s];
                }
            }
        }
    }
    // Forward: the interchanges and L, step by step as the factorisation took them.
    for (col, &p) in pivots.iter().enumerate() {
        b.swap(col, p);
        let (head, tail) = b.split_at_mut(col + 1);
        let bc = head[col];
        for (k, bi) in tail.iter_mut().take(kl).enumerate() {
            *bi -= band.data[band.at(col + 1 + k, col)] * bc;
        }
    }
    // Backward: U, whose rows reach `kl + ku` past the diagonal.
    for i in (0..n).rev() {
        let s: f64 = (i + 1..=band.last_col(i)).map(|j| band.data[band.at(i, j)] * b[j]).sum();
        b[i] = (b[i] - s) / band.data[band.at(i, i)];
    }
    Ok(DVector::from_iterator(n, position.iter().map(|&p| b[p])))
}
