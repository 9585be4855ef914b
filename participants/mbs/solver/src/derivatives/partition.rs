//! Independent coordinates of a jointed system (coordinate partitioning): which body
//! coordinates the joints leave free, and the basis `N` with `Φ_q N = 0` that expresses every
//! coordinate through them, so a linear model has one state per degree of freedom, named after
//! a body coordinate (`float.z`) rather than an abstract mode.

use nalgebra::{DMatrix, DVector};

/// Relative size below which a constraint column adds nothing new (rank decisions).
pub const RANK_TOLERANCE: f64 = 1e-9;

/// The free coordinates and the basis: `δq = N z` for `z` the values of `independent`.
#[derive(Debug, Clone)]
pub struct Partition {
    /// The coordinates kept as states, ascending.
    pub independent: Vec<usize>,
    /// `n × independent.len()`: identity on the independent rows, `Φ_q N = 0`.
    pub basis: DMatrix<f64>,
}

/// Chooses the dependent coordinates greedily — translations before rotations, the last bodies'
/// first — as the columns of `phi_q` (m × n) that raise its rank (Gram–Schmidt, twice for
/// stability), then solves the dependent rows of `N` by least squares (redundant joint rows are
/// allowed). Without joints every coordinate is independent.
pub fn partition(phi_q: &DMatrix<f64>) -> Partition {
    let n = phi_q.ncols();
    let scale = phi_q.column_iter().map(|c| c.norm()).fold(0.0, f64::max);
    let order = (0..n).rev().filter(|j| j % 6 < 3).chain((0..n).rev().filter(|j| j % 6 >= 3));
    let mut basis: Vec<DVector<f64>> = Vec::new();
    let mut dependent = Vec::new();
    if scale > 0.0 {
        for j in order {
            let mut c: DVector<f64> = phi_q.column(j).into_owned();
            for _ in 0..2 {
                for q in &basis {
                    let d = q.dot(&c);
                    c -= q * d;
                }
            }
            let norm = c.norm();
            if norm > RANK_TOLERANCE * scale {
                basis.push(c / norm);
                dependent.push(j);
            }
        }
    }
    dependent.sort_unstable();
    let independent: Vec<usize> = (0..n).filter(|j| !dependent.contains(j)).collect();
    let mut basis = DMatrix::zeros(n, independent.len());
    for (k, &j) in independent.iter().enumerate() {
        basis[(j, k)] = 1.0;
    }
    if !dependent.is_empty() && !independent.is_empty() {
        let pick = |cols: &[usize]| DMatrix::from_fn(phi_q.nrows(), cols.len(), |r, c| phi_q[(r, cols[c])]);
        let (pd, pi) = (pick(&dependent), pick(&independent));
        // Φ_D N_D = −Φ_I: Φ_D has full column rank by construction.
        let solved = pd.svd(true, true).solve(&(-pi), RANK_TOLERANCE * scale).expect("both factors were asked for");
        for (r, &j) in dependent.iter().enumerate() {
            basis.row_mut(j).copy_from(&solved.row(r));
        }
    }
    Partition { independent, basis }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// A body held to slide along z (5 rows fixing x, y and the three rotations): z stays.
    #[test]
    fn a_slider_keeps_its_axis() {
        let mut phi_q = DMatrix::zeros(5, 6);
        for (r, c) in [0, 1, 3, 4, 5].iter().enumerate() {
            phi_q[(r, *c)] = 1.0;
        }
        let p = partition(&phi_q);
        assert_eq!(p.independent, vec![2]);
        assert!((&phi_q * &p.basis).amax() == 0.0);
    }

    /// Two coordinates tied by `q0 − 2 q1 = 0`: the later is dependent, `N = [1, 0.5]ᵀ`
    /// (within round-off of the least-squares solve).
    #[test]
    fn a_tie_gives_its_ratio() {
        let phi_q = DMatrix::from_row_slice(1, 2, &[1.0, -2.0]);
        let p = partition(&phi_q);
        assert_eq!(p.independent, vec![0]);
        assert!((p.basis[(1, 0)] - 0.5).abs() < 1e-14);
    }
}
