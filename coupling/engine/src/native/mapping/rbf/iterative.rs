//! `rbf-global-iterative`: the global interpolation system solved per sample and component by
//! conjugate gradients (SPD bases) or GMRES (the others, and the saddle system of
//! `polynomial="on"`) to `solver-rtol`. Compactly supported bases assemble sparse matrices
//! (pairs within the support radius only); global bases assemble them fully.

use super::krylov::{cg, gmres};
use super::sparse::Csr;
use super::system::{pinv, poly_matrix, polynomial_axes, Point};
use super::{singular, Setup};
use crate::native::mapping::Mapping;
use crate::{CouplingError, Result};
use nalgebra::DMatrix;
use tidelink_precice_config::Polynomial;

/// Iterations per solve (libprecice 3.4 offers no `max-iterations` for this method).
pub const DEFAULT_MAX_ITERATIONS: usize = 10_000;

/// Matrix entries (both kernel matrices together) beyond which construction is refused.
const MAX_ENTRIES: usize = 100_000_000;

/// The assembled system with its polynomial parts.
pub struct Iterative {
    c: Csr,
    a: Csr,
    /// `Q` on the centres and `V` on the evaluation points (separate: reduced axes).
    q: DMatrix<f64>,
    v: DMatrix<f64>,
    /// `Q⁺` (separate only).
    q_pinv: DMatrix<f64>,
    polynomial: Polynomial,
    spd: bool,
    conservative: bool,
    rtol: f64,
    max_iter: usize,
    what: String,
}

/// Assembles the system with centres `src` and evaluation points `dst`.
pub fn build(s: &Setup, src: &[Point], dst: &[Point], rtol: f64, max_iter: usize) -> Result<Box<dyn Mapping>> {
    let too_big = |count: usize| {
        CouplingError::config(format!(
            "{}: the RBF system would hold more than {count} matrix entries (at most {MAX_ENTRIES}); \
             use a compactly supported basis with a smaller support radius, or rbf-pum-direct.",
            s.what
        ))
    };
    let c = Csr::kernel(&s.basis, src, src, &s.active, MAX_ENTRIES).map_err(too_big)?;
    let a = Csr::kernel(&s.basis, dst, src, &s.active, MAX_ENTRIES - c.entries()).map_err(too_big)?;
    let axes = match s.polynomial {
        Polynomial::Separate => polynomial_axes(src, &s.active),
        _ => s.active,
    };
    let (q, v) = (poly_matrix(src, &axes), poly_matrix(dst, &axes));
    let q_pinv = if s.polynomial == Polynomial::Separate && !src.is_empty() {
        pinv(&q).ok_or_else(|| singular(&s.what))?
    } else {
        DMatrix::zeros(0, 0)
    };
    if s.polynomial == Polynomial::On && src.len() < q.ncols() {
        return Err(singular(&s.what));
    }
    Ok(Box::new(Iterative {
        c,
        a,
        q,
        v,
        q_pinv,
        polynomial: s.polynomial,
        spd: s.basis.is_spd(),
        conservative: s.conservative,
        rtol,
        max_iter,
        what: s.what.clone(),
    }))
}

impl Iterative {
    /// Solves the interpolation system for `rhs` (length n, or n + p with the polynomial on).
    fn solve(&self, rhs: &[f64]) -> Vec<f64> {
        let n = self.q.nrows();
        let on = self.polynomial == Polynomial::On;
        let k = |x: &[f64], y: &mut [f64]| {
            self.c.mul(&x[..n], &mut y[..n]);
            if on {
                let p = self.q.ncols();
                for (i, yi) in y[..n].iter_mut().enumerate() {
                    *yi += (0..p).map(|j| self.q[(i, j)] * x[n + j]).sum::<f64>();
                }
                for j in 0..p {
                    y[n + j] = (0..n).map(|i| self.q[(i, j)] * x[i]).sum();
                }
            }
        };
        let out = if self.spd && !on {
            cg(&k, rhs, self.rtol, self.max_iter)
        } else {
            gmres(&k, rhs, self.rtol, self.max_iter)
        };
        if !out.converged {
            log::warn!(
                "{}: the RBF system has not converged to solver-rtol {} within {} iterations; \
                 the mapped values are approximate. Loosen solver-rtol or use rbf-global-direct.",
                self.what,
                self.rtol,
                self.max_iter
            );
        }
        out.x
    }

    /// One component: consistent `x` on the centres → values at the evaluation points.
    fn consistent(&self, x: &[f64]) -> Vec<f64> {
        let (n, m) = (self.q.nrows(), self.v.nrows());
        let mut y = vec![0.0; m];
        match self.polynomial {
            Polynomial::Off => self.a.mul(&self.solve(x), &mut y),
            Polynomial::Separate => {
                let beta = &self.q_pinv * nalgebra::DVector::from_column_slice(x);
                let qb = &self.q * &beta;
                let r: Vec<f64> = (0..n).map(|i| x[i] - qb[i]).collect();
                self.a.mul(&self.solve(&r), &mut y);
                let vb = &self.v * &beta;
                y.iter_mut().zip(vb.iter()).for_each(|(a, b)| *a += b);
            }
            Polynomial::On => {
                let mut rhs = x.to_vec();
                rhs.resize(n + self.q.ncols(), 0.0);
                let w = self.solve(&rhs);
                self.a.mul(&w[..n], &mut y);
                let vb = &self.v * nalgebra::DVector::from_column_slice(&w[n..]);
                y.iter_mut().zip(vb.iter()).for_each(|(a, b)| *a += b);
            }
        }
        y
    }

    /// One component: the transpose, values at the evaluation points → the centres.
    fn conservative(&self, yv: &[f64]) -> Vec<f64> {
        let n = self.q.nrows();
        let mut aty = vec![0.0; n];
        self.a.tr_mul(yv, &mut aty);
        let vty = self.v.tr_mul(&nalgebra::DVector::from_column_slice(yv));
        match self.polynomial {
            Polynomial::Off => self.solve(&aty),
            Polynomial::Separate => {
                let z = self.solve(&aty);
                let qtz = self.q.tr_mul(&nalgebra::DVector::from_column_slice(&z));
                let corr = self.q_pinv.tr_mul(&(vty - qtz));
                z.iter().zip(corr.iter()).map(|(a, b)| a + b).collect()
            }
            Polynomial::On => {
                let mut rhs = aty;
                rhs.extend(vty.iter());
                let mut w = self.solve(&rhs);
                w.truncate(n);
                w
            }
        }
    }
}

impl Mapping for Iterative {
    fn map(&self, input: &[f64], components: usize) -> Vec<f64> {
        let (n, m) = (self.q.nrows(), self.v.nrows());
        let (n_in, n_out) = if self.conservative { (m, n) } else { (n, m) };
        let mut out = vec![0.0; n_out * components];
        if n == 0 || m == 0 {
            return out;
        }
        for comp in 0..components {
            let x: Vec<f64> = (0..n_in).map(|i| input[i * components + comp]).collect();
            let y = if self.conservative { self.conservative(&x) } else { self.consistent(&x) };
            for (i, v) in y.iter().enumerate() {
                out[i * components + comp] = *v;
            }
        }
        out
    }
}
