//! One LU factorisation solved both ways: `S x = b` for forward seeds and `Sᵀ x = b` for adjoint
//! seeds, so the two modes apply exactly transposed operators from the same factors.

use nalgebra::{DMatrix, DVector, LU};
use nalgebra::{Dyn, PermutationSequence};

/// `P S = L U` with partial pivoting, with `L` and `U` kept for the transposed solves.
#[derive(Debug, Clone)]
pub struct Factored {
    l: DMatrix<f64>,
    u: DMatrix<f64>,
    p: PermutationSequence<Dyn>,
}

impl Factored {
    /// Factors `s` (square); `None` when it is singular (a zero pivot) or not finite.
    pub fn new(s: DMatrix<f64>) -> Option<Self> {
        if s.nrows() == 0 {
            return Some(Factored { l: s.clone(), u: s, p: PermutationSequence::identity_generic(Dyn(0)) });
        }
        if !s.iter().all(|v| v.is_finite()) {
            return None;
        }
        let lu = LU::new(s);
        if !lu.is_invertible() {
            return None;
        }
        let (p, l, u) = lu.unpack();
        Some(Factored { l, u, p })
    }

    /// Unknowns.
    pub fn len(&self) -> usize {
        self.u.nrows()
    }

    /// Whether there is nothing to solve (every body fixed).
    pub fn is_empty(&self) -> bool {
        self.len() == 0
    }

    /// `S x = b`: `x = U⁻¹ L⁻¹ P b`.
    pub fn solve(&self, b: &DVector<f64>) -> DVector<f64> {
        let mut x = b.clone();
        self.p.permute_rows(&mut x);
        self.l.solve_lower_triangular_with_diag_mut(&mut x, 1.0);
        self.u.solve_upper_triangular_mut(&mut x);
        x
    }

    /// `Sᵀ x = b`: `Sᵀ = Uᵀ Lᵀ P`, so `x = P⁻¹ L⁻ᵀ U⁻ᵀ b`.
    pub fn solve_transpose(&self, b: &DVector<f64>) -> DVector<f64> {
        let mut x = b.clone();
        self.u.tr_solve_upper_triangular_mut(&mut x);
        self.l.tr_solve_lower_triangular_mut(&mut x);
        self.p.inv_permute_rows(&mut x);
        x
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// Both solves against the matrix itself on a non-symmetric system that needs pivoting;
    /// 1e-12: round-off of an LU of a 5 × 5 matrix with condition ≈ 10².
    #[test]
    fn solves_both_ways() {
        let s = DMatrix::from_fn(5, 5, |r, c| if r == c { 0.0 } else { ((r * 7 + c * 3) as f64 * 0.37).sin() + 0.2 });
        let f = Factored::new(s.clone()).unwrap();
        let b = DVector::from_fn(5, |i, _| i as f64 - 1.5);
        assert!((&s * f.solve(&b) - &b).amax() < 1e-12);
        assert!((s.transpose() * f.solve_transpose(&b) - &b).amax() < 1e-12);
    }

    #[test]
    fn singular_is_refused() {
        assert!(Factored::new(DMatrix::from_element(3, 3, 1.0)).is_none());
    }
}
