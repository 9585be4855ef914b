//! The dense RBF interpolation problem on one set of centres: its factorisations, the
//! polynomial's matrices, and the consistent operator `M` (outputs = `M` · inputs) that every
//! cluster of `rbf-pum-direct` stores (`rbf-global-direct` applies the same `M` without
//! forming it).
//!
//! With centres `x`, evaluation points `y`, `C = φ(|xᵢ - xⱼ|)`, `A = φ(|yₖ - xⱼ|)`, and the
//! linear polynomial `Q = [1 x]` on the centres, `V = [1 y]` on the evaluation points:
//! - `off`:      `M = A C⁻¹`;
//! - `separate`: the polynomial is fitted first by least squares (`Q⁺`), the rest interpolated:
//!   `M = A C⁻¹ (I - Q Q⁺) + V Q⁺ = B + (V - B Q) Q⁺` with `B = A C⁻¹`;
//! - `on`:       the saddle system `[[C, Q], [Qᵀ, 0]]` (first `n` columns of `[A V] K⁻¹`).
//!
//! Both polynomial variants reproduce linear fields exactly, so `M` reproduces constants (rows
//! sum to one) and its transpose keeps sums and first moments.

use super::basis::Basis;
use faer::linalg::solvers::{Llt, PartialPivLu, Solve};
use faer::{MatMut, MatRef, Side};
use nalgebra::DMatrix;
use tidelink_precice_config::Polynomial;

/// Points stored as three coordinates (z = 0 in 2D), flat per point.
pub type Point = [f64; 3];

/// The squared distance over the active axes only (dead axes, and z in 2D, do not count).
pub fn dist2(a: &Point, b: &Point, active: &[bool; 3]) -> f64 {
    (0..3).filter(|&d| active[d]).map(|d| (a[d] - b[d]) * (a[d] - b[d])).sum()
}

/// The interpolation matrix could not be factorised (duplicated vertices, too small a support
/// radius, or a polynomial the centres cannot determine).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Singular;

/// A factorisation of the symmetric interpolation matrix (by `faer`: blocked and vectorised):
/// Cholesky for SPD bases, LU with partial pivoting otherwise (the indefinite thin-plate,
/// multiquadric and volume-spline matrices and the saddle system of `polynomial="on"`), with
/// the rank checked either way. libprecice factorises the latter with a column-pivoted QR: LU
/// solves the same systems with a third of its work, and the two agree to the condition number
/// times round-off, as any two backward-stable solvers do.
pub enum Factor {
    /// For strictly positive definite bases without integrated polynomial.
    Cholesky(Llt<f64>),
    /// For the others.
    Lu(PartialPivLu<f64>),
}

/// Whether the pivots `d` (magnitudes) show a rank-deficient matrix of order `n`: the smallest
/// below `n · ε` times `max` (or any NaN).
fn deficient(d: &[f64], max: f64, n: usize) -> bool {
    let tol = n.max(1) as f64 * f64::EPSILON;
    let min = d.iter().cloned().fold(f64::INFINITY, f64::min);
    n > 0 && (d.iter().any(|v| v.is_nan()) || min <= tol * max)
}

/// `m` as faer sees it (nalgebra stores column-major too: no copy).
fn view(m: &DMatrix<f64>) -> MatRef<'_, f64> {
    MatRef::from_column_major_slice(m.as_slice(), m.nrows(), m.ncols())
}

impl Factor {
    /// Factorises `k` (Cholesky if `spd`, else LU with partial pivoting); `Singular` when it is
    /// (numerically) rank deficient: a pivot below `n · ε` times the largest one (for
    /// Cholesky, the squared pivots against the largest diagonal entry).
    pub fn new(k: &DMatrix<f64>, spd: bool) -> Result<Factor, Singular> {
        let n = k.nrows();
        if spd {
            let diag_max = k.diagonal().iter().fold(0.0f64, |m, v| m.max(v.abs()));
            let ch = Llt::new(view(k), Side::Lower).map_err(|_| Singular)?;
            let pivots: Vec<f64> = (0..n).map(|i| ch.L()[(i, i)] * ch.L()[(i, i)]).collect();
            if deficient(&pivots, diag_max, n) {
                return Err(Singular);
            }
            return Ok(Factor::Cholesky(ch));
        }
        let lu = PartialPivLu::new(view(k));
        let d: Vec<f64> = (0..n).map(|i| lu.U()[(i, i)].abs()).collect();
        if deficient(&d, d.iter().cloned().fold(0.0f64, f64::max), n) {
            return Err(Singular);
        }
        Ok(Factor::Lu(lu))
    }

    /// `K⁻¹ b`: one blocked solve for all the columns of `b`.
    pub fn solve(&self, b: &DMatrix<f64>) -> DMatrix<f64> {
        let mut x = b.clone();
        let (rows, cols) = x.shape();
        let rhs = MatMut::from_column_major_slice_mut(x.as_mut_slice(), rows, cols);
        match self {
            Factor::Cholesky(c) => c.solve_in_place(rhs),
            Factor::Lu(l) => l.solve_in_place(rhs),
        }
        x
    }
}

/// The linear polynomial's columns `[1, x_d for active d]` at `pts`.
pub fn poly_matrix(pts: &[Point], axes: &[bool; 3]) -> DMatrix<f64> {
    let p = 1 + axes.iter().filter(|&&a| a).count();
    DMatrix::from_fn(pts.len(), p, |i, j| {
        if j == 0 {
            1.0
        } else {
            let d = (0..3).filter(|&d| axes[d]).nth(j - 1).unwrap_or(0);
            pts[i][d]
        }
    })
}

/// The least-squares pseudo-inverse `Q⁺ = R⁻¹ Q̂ᵀ` of a tall full-rank `q` from its
/// Householder QR (`None` if `R` is singular). Not the SVD's: nalgebra 0.33's SVD returns
/// inaccurate singular vectors for some well-conditioned tall matrices (|Q⁺Q - I| ~ 0.07 seen
/// on a 50 × 4 cluster polynomial), while its QR is backward stable.
pub fn pinv(q: &DMatrix<f64>) -> Option<DMatrix<f64>> {
    let qr = q.clone().qr();
    qr.r().solve_upper_triangular(&qr.q().transpose())
}

/// The 2-norm condition number of a tall `q`, from the eigenvalues of `QᵀQ` (p ≤ 4 columns).
fn condition(q: &DMatrix<f64>) -> f64 {
    let ev = q.tr_mul(q).symmetric_eigenvalues();
    let (max, min) = ev.iter().fold((0.0f64, f64::INFINITY), |(a, b), &e| (a.max(e), b.min(e)));
    (max / min.max(0.0)).sqrt()
}

/// The axes of the separate polynomial: starting from `active`, the axis of smallest extent
/// among the centres is dropped while the polynomial matrix's condition number exceeds 1e5
/// (flat or nearly flat point sets). Fewer centres than coefficients counts as ill-conditioned
/// too (the fit would not be unique).
pub fn polynomial_axes(centres: &[Point], active: &[bool; 3]) -> [bool; 3] {
    let mut axes = *active;
    if centres.is_empty() {
        return axes;
    }
    loop {
        let q = poly_matrix(centres, &axes);
        if q.ncols() == 1 {
            return axes;
        }
        let cond = if q.nrows() < q.ncols() { f64::INFINITY } else { condition(&q) };
        if cond <= 1e5 {
            return axes;
        }
        let extent = |d: usize| {
            let (lo, hi) =
                centres.iter().fold((f64::INFINITY, f64::NEG_INFINITY), |(l, h), p| (l.min(p[d]), h.max(p[d])));
            hi - lo
        };
        let drop = (0..3).filter(|&d| axes[d]).min_by(|&a, &b| extent(a).total_cmp(&extent(b)));
        match drop {
            Some(d) => axes[d] = false,
            None => return axes,
        }
    }
}

/// The kernel matrix `φ(|yₖ - xⱼ|)` between evaluation points `ys` and centres `xs`.
pub fn kernel(basis: &Basis, ys: &[Point], xs: &[Point], active: &[bool; 3]) -> DMatrix<f64> {
    DMatrix::from_fn(ys.len(), xs.len(), |k, j| basis.eval_sq(dist2(&ys[k], &xs[j], active)))
}

/// The interpolation matrix `φ(|xᵢ - xⱼ|)` of the centres `xs`: symmetric, so each entry is
/// evaluated once (the upper triangle, copied to the lower).
pub fn symmetric_kernel(basis: &Basis, xs: &[Point], active: &[bool; 3]) -> DMatrix<f64> {
    let n = xs.len();
    let mut c = DMatrix::zeros(n, n);
    for j in 0..n {
        for i in 0..=j {
            c[(i, j)] = basis.eval_sq(dist2(&xs[i], &xs[j], active));
        }
    }
    c.fill_lower_triangle_with_upper_triangle();
    c
}

/// The consistent operator from values at `centres` to values at `evals` (see the module
/// documentation). The caller has refused `polynomial="on"` with SPD bases.
pub fn consistent_operator(
    basis: &Basis,
    centres: &[Point],
    evals: &[Point],
    active: &[bool; 3],
    polynomial: Polynomial,
) -> Result<DMatrix<f64>, Singular> {
    let n = centres.len();
    let c = symmetric_kernel(basis, centres, active);
    // Aᵀ, assembled as such: C is symmetric, so A C⁻¹ = (C⁻¹ Aᵀ)ᵀ, one solve with all the
    // evaluation points as right-hand sides.
    let at = kernel(basis, centres, evals, active);
    match polynomial {
        Polynomial::Off => Ok(Factor::new(&c, basis.is_spd())?.solve(&at).transpose()),
        Polynomial::Separate => {
            let axes = polynomial_axes(centres, active);
            let q = poly_matrix(centres, &axes);
            let v = poly_matrix(evals, &axes);
            let q_pinv = pinv(&q).ok_or(Singular)?;
            let b = Factor::new(&c, basis.is_spd())?.solve(&at).transpose();
            let correction = (v - &b * &q) * q_pinv;
            Ok(b + correction)
        }
        Polynomial::On => {
            let q = poly_matrix(centres, active);
            let p = q.ncols();
            if n < p {
                return Err(Singular);
            }
            let mut k = DMatrix::zeros(n + p, n + p);
            k.view_mut((0, 0), (n, n)).copy_from(&c);
            k.view_mut((0, n), (n, p)).copy_from(&q);
            k.view_mut((n, 0), (p, n)).copy_from(&q.transpose());
            let mut ext_t = DMatrix::zeros(n + p, evals.len());
            ext_t.view_mut((0, 0), (n, evals.len())).copy_from(&at);
            ext_t.view_mut((n, 0), (p, evals.len())).copy_from(&poly_matrix(evals, active).transpose());
            // K is symmetric: [A V] K⁻¹ = (K⁻¹ [A V]ᵀ)ᵀ.
            let full = Factor::new(&k, false)?.solve(&ext_t).transpose();
            Ok(full.columns(0, n).into_owned())
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// Q⁺ Q = I to round-off for the polynomial matrices of small clusters of a 3D grid away
    /// from the origin (the shape on which an SVD-based pseudo-inverse went wrong).
    #[test]
    fn the_pseudo_inverse_is_a_left_inverse() {
        let n = 12;
        let pts: Vec<Point> = (0..n * n * n)
            .map(|i| [(i % n) as f64, ((i / n) % n) as f64, (i / (n * n)) as f64].map(|c| c / (n - 1) as f64))
            .collect();
        for centre in [[0.8, 0.55, 0.1], [0.5, 0.5, 0.5], [0.9, 0.9, 0.9], [0.2, 0.7, 0.3]] {
            let local: Vec<Point> = pts.iter().filter(|p| dist2(p, &centre, &[true; 3]) < 0.04).copied().collect();
            let q = poly_matrix(&local, &[true; 3]);
            let id = pinv(&q).unwrap() * &q;
            let e = (id - DMatrix::<f64>::identity(4, 4)).abs().max();
            // Condition numbers here are below 1e2: round-off of order 1e-14.
            assert!(e < 1e-12, "{centre:?}: {e}");
        }
    }
}
