//! Dense LU with partial pivoting in buffers kept between calls, for the small Newton systems
//! of the HHT step: nothing is allocated once the buffers have their size, and a matrix equal
//! bit for bit to the one factored last is not factored again. The arithmetic is nalgebra's
//! (`LU::new`, `LU::solve_mut`: the same pivots, the same Gauss steps and triangular solves,
//! the same operations in the same order, written on the raw columns without nalgebra's view
//! arithmetic), so results equal the allocating path's bit for bit.

use crate::state::NewtonFactors;
use nalgebra::{DMatrix, DVector};

/// An LU factorisation kept with the matrix it was made from.
#[derive(Debug, Clone, Default)]
pub(crate) struct KeptLu {
    /// `L` (unit diagonal, below) and `U` (on and above), as nalgebra stores them.
    lu: DMatrix<f64>,
    /// The row swaps, in order (nalgebra's permutation sequence).
    swaps: Vec<(usize, usize)>,
    /// The matrix factored last, bit for bit: what a reuse is decided on.
    source: DMatrix<f64>,
    /// Whether `lu` holds the factorisation of `source`.
    valid: bool,
    /// Whether `lu` holds a factorisation (of `source`, or one put back by [`Self::import`]).
    holds: bool,
    /// Factorisations made (for tests and the benchmark).
    pub factorisations: usize,
    /// Factorisations saved because the matrix had not changed.
    pub reuses: usize,
}

/// Whether two matrices are equal bit for bit (so `-0.0 ≠ 0.0` and a NaN equals itself).
pub(crate) fn same_bits(a: &DMatrix<f64>, b: &DMatrix<f64>) -> bool {
    a.shape() == b.shape() && a.as_slice().iter().zip(b.as_slice()).all(|(x, y)| x.to_bits() == y.to_bits())
}

impl KeptLu {
    /// Factors `k` as nalgebra's `LU::new` does, unless `k` equals the matrix factored last bit
    /// for bit; returns whether the old factorisation was kept.
    pub fn factor(&mut self, k: &DMatrix<f64>) -> bool {
        if self.valid && same_bits(k, &self.source) {
            self.reuses += 1;
            return true;
        }
        if self.lu.shape() != k.shape() {
            self.lu = k.clone();
            self.source = k.clone();
            self.swaps = Vec::with_capacity(k.nrows());
        } else {
            self.lu.copy_from(k);
            self.source.copy_from(k);
        }
        self.swaps.clear();
        let (rows, cols) = k.shape();
        let a = self.lu.as_mut_slice();
        for i in 0..rows.min(cols) {
            // nalgebra's `icamax`: the first entry of largest magnitude on and below the diagonal.
            let column = &a[i * rows..(i + 1) * rows];
            let mut piv = i;
            for r in i + 1..rows {
                if column[r].abs() > column[piv].abs() {
                    piv = r;
                }
            }
            let diag = column[piv];
            if diag == 0.0 {
                // No non-zero entry in this column: left for the solve to report.
                continue;
            }
            if piv != i {
                self.swaps.push((i, piv));
                for c in 0..=i {
                    a.swap(c * rows + i, c * rows + piv);
                }
            }
            // nalgebra's `gauss_step(_swap)`: the multipliers times `1/diag`, then each column
            // to the right (its rows `i` and `piv` swapped) gets `−p·coeff + entry` below row `i`.
            let inv_diag = 1.0 / diag;
            let (left, right) = a.split_at_mut((i + 1) * rows);
            let coeffs = &mut left[i * rows + i + 1..];
            for x in coeffs.iter_mut() {
                *x *= inv_diag;
            }
            for column in right.chunks_exact_mut(rows) {
                if piv != i {
                    column.swap(i, piv);
                }
                let p = column[i];
                for (y, x) in column[i + 1..].iter_mut().zip(coeffs.iter()) {
                    *y += -p * x;
                }
            }
        }
        self.valid = true;
        self.holds = true;
        self.factorisations += 1;
        false
    }

    /// The order of the factored matrix when there are factors to solve with.
    pub fn factored_size(&self) -> Option<usize> {
        self.holds.then(|| self.lu.nrows())
    }

    /// Writes the factors (not the source matrix) into `out`, in its lists.
    pub fn export(&self, out: &mut NewtonFactors, key: [u64; 2]) {
        out.lu.clear();
        out.swaps.clear();
        out.key = key;
        if self.holds {
            out.lu.extend_from_slice(self.lu.as_slice());
            out.swaps.extend_from_slice(&self.swaps);
        }
    }

    /// Puts exported factors back (none when `f` is empty) and returns their key. The source
    /// matrix is not part of them, so the next [`Self::factor`] factors whatever it is given;
    /// solves with these factors are the same bit for bit as with the ones exported.
    pub fn import(&mut self, f: &NewtonFactors) -> [u64; 2] {
        self.valid = false;
        let n = (f.lu.len() as f64).sqrt() as usize;
        self.holds = n > 0 && n * n == f.lu.len();
        if self.holds {
            if self.lu.shape() != (n, n) {
                self.lu = DMatrix::zeros(n, n);
            }
            self.lu.as_mut_slice().copy_from_slice(&f.lu);
            self.swaps.clone_from(&f.swaps);
        }
        f.key
    }

    /// Solves `k x = b` in place with the last factorisation (nalgebra's `LU::solve_mut`);
    /// `false` when `k` is singular.
    /// The triangular solves are nalgebra's (`solve_lower_triangular_with_diag_mut`,
    /// `solve_upper_triangular_mut`: column by column, `b ← −c·l + b`) written on the raw
    /// columns: the same operations in the same order, so the same bits, without the views'
    /// index arithmetic (it runs two or three times per HHT step).
    pub fn solve_mut(&self, b: &mut DVector<f64>) -> bool {
        for &(i, j) in &self.swaps {
            b.swap_rows(i, j);
        }
        let n = self.lu.nrows();
        let (lu, b) = (self.lu.as_slice(), b.as_mut_slice());
        if b.len() != n {
            return false;
        }
        for i in 0..n.saturating_sub(1) {
            let c = b[i];
            for (bj, lj) in b[i + 1..].iter_mut().zip(&lu[i * n + i + 1..(i + 1) * n]) {
                *bj += -c * lj;
            }
        }
        for i in (0..n).rev() {
            let d = lu[i * n + i];
            if d == 0.0 {
                return false;
            }
            let c = b[i] / d;
            b[i] = c;
            for (bj, uj) in b[..i].iter_mut().zip(&lu[i * n..i * n + i]) {
                *bj += -c * uj;
            }
        }
        true
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn matrix(n: usize, seed: f64) -> DMatrix<f64> {
        // Entries of mixed magnitude and sign so that pivoting swaps rows.
        DMatrix::from_fn(n, n, |r, c| ((r * 13 + c * 7 + 1) as f64 * seed).sin() * 10f64.powi((r % 3) as i32 - 1))
    }

    #[test]
    fn factor_and_solve_equal_nalgebra_bit_for_bit() {
        for (n, seed) in [(1, 0.3), (6, 0.7), (12, 1.3), (22, 0.41)] {
            let k = matrix(n, seed);
            let b = DVector::from_fn(n, |i, _| (i as f64 * 0.37).cos());
            let expected = k.clone().lu().solve(&b).unwrap();
            let mut lu = KeptLu::default();
            assert!(!lu.factor(&k));
            let mut x = b.clone();
            assert!(lu.solve_mut(&mut x));
            assert_eq!(x.as_slice(), expected.as_slice(), "n = {n}");
        }
    }

    #[test]
    fn an_unchanged_matrix_is_not_factored_again_a_changed_one_is() {
        let k = matrix(8, 0.9);
        let mut lu = KeptLu::default();
        assert!(!lu.factor(&k));
        assert!(lu.factor(&k.clone()));
        let mut changed = k.clone();
        changed[(3, 4)] = f64::from_bits(changed[(3, 4)].to_bits() + 1);
        assert!(!lu.factor(&changed), "one ulp is a change");
        let mut x = DVector::from_element(8, 1.0);
        assert!(lu.solve_mut(&mut x));
        assert_eq!(x, changed.clone().lu().solve(&DVector::from_element(8, 1.0)).unwrap());
        assert_eq!((lu.factorisations, lu.reuses), (2, 1));
    }

    #[test]
    fn imported_factors_solve_as_the_exported_ones_bit_for_bit() {
        let k = matrix(10, 0.8);
        let mut lu = KeptLu::default();
        let mut none = NewtonFactors::default();
        lu.export(&mut none, [1, 2]);
        assert!(none.lu.is_empty() && none.key == [1, 2], "nothing factored, nothing exported");
        lu.factor(&k);
        let mut saved = NewtonFactors::default();
        lu.export(&mut saved, [3, 4]);
        let b = DVector::from_fn(10, |i, _| (i as f64).sin());
        let (mut x, mut y) = (b.clone(), b.clone());
        assert!(lu.solve_mut(&mut x));
        let mut other = KeptLu::default();
        other.factor(&matrix(10, 0.3));
        assert_eq!(other.import(&saved), [3, 4]);
        assert_eq!(other.factored_size(), Some(10));
        assert!(other.solve_mut(&mut y));
        assert_eq!(x.as_slice(), y.as_slice());
        assert!(!other.factor(&k), "the source is not part of the factors: factored again");
        other.import(&NewtonFactors::default());
        assert_eq!(other.factored_size(), None);
    }

    #[test]
    fn a_singular_matrix_is_reported() {
        let mut k = matrix(6, 0.5);
        k.column_mut(2).fill(0.0);
        let mut lu = KeptLu::default();
        lu.factor(&k);
        assert!(!lu.solve_mut(&mut DVector::from_element(6, 1.0)));
    }
}
