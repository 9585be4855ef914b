//! A precomputed dense mapping operator, applied as is (consistent) or transposed
//! (conservative), used by `rbf-global-direct`.

use super::super::Mapping;
use nalgebra::DMatrix;

/// The consistent operator `M` of some source → destination interpolation. Consistent mappings
/// apply `M`; conservative ones build `M` in the opposite direction and apply `Mᵀ`, so
/// `⟨y, M x⟩ = ⟨Mᵀ y, x⟩` holds to round-off and sums are kept where `M` reproduces constants.
pub struct DenseOperator {
    m: DMatrix<f64>,
    transpose: bool,
}

impl DenseOperator {
    /// Wraps `m` (rows: the consistent destination, columns: its source).
    pub fn new(m: DMatrix<f64>, transpose: bool) -> Self {
        DenseOperator { m, transpose }
    }
}

/// Applies `m` (or its transpose) to `components`-wide vertex-major values.
pub fn apply(m: &DMatrix<f64>, transpose: bool, input: &[f64], components: usize) -> Vec<f64> {
    let n_in = if transpose { m.nrows() } else { m.ncols() };
    let x = DMatrix::from_row_slice(n_in, components, &input[..n_in * components]);
    let y = if transpose { m.tr_mul(&x) } else { m * x };
    y.transpose().as_slice().to_vec()
}

impl Mapping for DenseOperator {
    fn map(&self, input: &[f64], components: usize) -> Vec<f64> {
        apply(&self.m, self.transpose, input, components)
    }
}
