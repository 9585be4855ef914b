//! `rbf-global-direct`: one interpolation system over all input vertices, factorised once
//! (Cholesky for SPD bases, LU with partial pivoting otherwise). The factorisation and the
//! evaluation matrix are kept, so a sample costs two triangular solves and one product per
//! component (O(n²)), and construction is one factorisation (O(n³)), not n solves.

use super::system::{kernel, pinv, poly_matrix, polynomial_axes, symmetric_kernel, Factor, Point};
use super::{singular, Setup};
use crate::native::mapping::Mapping;
use crate::{CouplingError, Result};
use nalgebra::DMatrix;
use tidelink_precice_config::Polynomial;

/// Largest system assembled densely: 20 000 centres need 3.2 GB for the matrix alone.
const MAX_CENTRES: usize = 20_000;

/// Largest stored evaluation matrix (input × output vertices): 3.2 GB.
const MAX_ENTRIES: u128 = 400_000_000;

/// The factorised system with centres `x` (n) and evaluation points `y` (m); see
/// `system` for the formulas (the same operator `M`, applied without forming it).
pub struct GlobalDirect {
    factor: Factor,
    /// `A` (m × n), or `[A V]` (m × (n + p)) with the polynomial on.
    a: DMatrix<f64>,
    /// Separate polynomial: `Q` (n × p), `V` (m × p), `Q⁺` (p × n).
    q: DMatrix<f64>,
    v: DMatrix<f64>,
    q_pinv: DMatrix<f64>,
    polynomial: Polynomial,
    n: usize,
    m: usize,
    conservative: bool,
}

/// Builds the system from `src` (the centres) to `dst`.
pub fn build(s: &Setup, src: &[Point], dst: &[Point]) -> Result<Box<dyn Mapping>> {
    let (n, m) = (src.len(), dst.len());
    if n > MAX_CENTRES || (n as u128) * (m as u128) > MAX_ENTRIES {
        return Err(CouplingError::config(format!(
            "{}: {n} × {m} vertices are too many for a dense global RBF system (at most {MAX_CENTRES} \
             centres and {MAX_ENTRIES} evaluation-matrix entries); use rbf-pum-direct (or the rbf \
             alias) for large meshes.",
            s.what
        )));
    }
    let empty = DMatrix::zeros(0, 0);
    let mut g = GlobalDirect {
        factor: Factor::new(&empty, true).map_err(|_| singular(&s.what))?,
        a: DMatrix::zeros(m, n),
        q: empty.clone(),
        v: empty.clone(),
        q_pinv: empty,
        polynomial: s.polynomial,
        n,
        m,
        conservative: s.conservative,
    };
    if n == 0 || m == 0 {
        return Ok(Box::new(g));
    }
    let c = symmetric_kernel(&s.basis, src, &s.active);
    let a = kernel(&s.basis, dst, src, &s.active);
    match s.polynomial {
        Polynomial::Off => {
            g.factor = Factor::new(&c, s.basis.is_spd()).map_err(|_| singular(&s.what))?;
            g.a = a;
        }
        Polynomial::Separate => {
            let axes = polynomial_axes(src, &s.active);
            g.q = poly_matrix(src, &axes);
            g.v = poly_matrix(dst, &axes);
            g.q_pinv = pinv(&g.q).ok_or_else(|| singular(&s.what))?;
            g.factor = Factor::new(&c, s.basis.is_spd()).map_err(|_| singular(&s.what))?;
            g.a = a;
        }
        Polynomial::On => {
            let q = poly_matrix(src, &s.active);
            let p = q.ncols();
            if n < p {
                return Err(singular(&s.what));
            }
            let mut k = DMatrix::zeros(n + p, n + p);
            k.view_mut((0, 0), (n, n)).copy_from(&c);
            k.view_mut((0, n), (n, p)).copy_from(&q);
            k.view_mut((n, 0), (p, n)).copy_from(&q.transpose());
            g.factor = Factor::new(&k, false).map_err(|_| singular(&s.what))?;
            let mut ext = DMatrix::zeros(m, n + p);
            ext.view_mut((0, 0), (m, n)).copy_from(&a);
            ext.view_mut((0, n), (m, p)).copy_from(&poly_matrix(dst, &s.active));
            g.a = ext;
        }
    }
    Ok(Box::new(g))
}

impl GlobalDirect {
    /// Consistent: values `x` (n × c) at the centres → the evaluation points (m × c).
    fn consistent(&self, x: DMatrix<f64>) -> DMatrix<f64> {
        match self.polynomial {
            Polynomial::Off => &self.a * self.factor.solve(&x),
            Polynomial::Separate => {
                let beta = &self.q_pinv * &x;
                let alpha = self.factor.solve(&(&x - &self.q * &beta));
                &self.a * alpha + &self.v * beta
            }
            Polynomial::On => {
                let mut rhs = DMatrix::zeros(self.a.ncols(), x.ncols());
                rhs.rows_mut(0, self.n).copy_from(&x);
                &self.a * self.factor.solve(&rhs)
            }
        }
    }

    /// Conservative: the transpose, `y` (m × c) → the centres (n × c). The matrices are
    /// symmetric, so the same factorisation solves the transposed systems.
    fn conservative(&self, y: DMatrix<f64>) -> DMatrix<f64> {
        let z = self.factor.solve(&self.a.tr_mul(&y));
        match self.polynomial {
            Polynomial::Off => z,
            Polynomial::Separate => {
                let tau = self.v.tr_mul(&y) - self.q.tr_mul(&z);
                z + self.q_pinv.tr_mul(&tau)
            }
            Polynomial::On => z.rows(0, self.n).into_owned(),
        }
    }
}

impl Mapping for GlobalDirect {
    fn map(&self, input: &[f64], components: usize) -> Vec<f64> {
        let (n_in, n_out) = if self.conservative { (self.m, self.n) } else { (self.n, self.m) };
        if n_in == 0 || n_out == 0 {
            return vec![0.0; n_out * components];
        }
        let x = DMatrix::from_row_slice(n_in, components, &input[..n_in * components]);
        let y = if self.conservative { self.conservative(x) } else { self.consistent(x) };
        y.transpose().as_slice().to_vec()
    }
}
