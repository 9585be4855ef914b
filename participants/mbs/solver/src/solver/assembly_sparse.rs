//! Sparse assembly of the Newton saddle system, for the linear solvers that take entries
//! (banded, block-tridiagonal, sparse LU, block Gauss–Seidel): the same per-element blocks
//! as [`crate::solver::assembly`], kept as `(row, column, value)` entries, so that a chain of
//! thousands of bodies never holds an `n × n` array (12 000 DOFs would need 1.1 GB per matrix).

use crate::added_mass::AddedMass;
use crate::dynamics::body_set::BodySet;
use crate::error::MbsError;
use crate::solver::assembly::{DofMap, System};
use crate::solver::jacobian::numerical::Entry;
use crate::solver::jacobian::{JacobianPolicy, JacobianStats};
use crate::solver::linear::SparseSaddle;
use nalgebra::DVector;
use std::collections::HashMap;

/// A matrix as entries; repeated positions add up.
#[derive(Debug, Clone, Default, PartialEq)]
pub struct Entries {
    /// Rows.
    pub rows: usize,
    /// Columns.
    pub cols: usize,
    /// `(row, column, value)`.
    pub entries: Vec<Entry>,
}

impl Entries {
    /// `self · x`.
    pub fn mul(&self, x: &DVector<f64>) -> DVector<f64> {
        let mut y = DVector::zeros(self.rows);
        for &(r, c, v) in &self.entries {
            y[r] += v * x[c];
        }
        y
    }
    /// `selfᵀ · y`.
    pub fn tr_mul(&self, y: &DVector<f64>) -> DVector<f64> {
        let mut x = DVector::zeros(self.cols);
        for &(r, c, v) in &self.entries {
            x[c] += v * y[r];
        }
        x
    }
    /// The diagonal.
    pub fn diagonal(&self) -> DVector<f64> {
        let mut d = DVector::zeros(self.rows.min(self.cols));
        for &(r, c, v) in &self.entries {
            if r == c {
                d[r] += v;
            }
        }
        d
    }
}

/// The assembled equations at one state, as entries ([`crate::solver::assembly::Assembled`]'s
/// sparse twin).
#[derive(Debug, Clone)]
pub struct SparseAssembled {
    /// `M` (plus `A∞`).
    pub mass: Entries,
    /// Generalized forces.
    pub forces: DVector<f64>,
    /// `∂Q/∂q`.
    pub stiffness: Entries,
    /// `∂Q/∂v`.
    pub damping: Entries,
    /// Constraint residuals.
    pub phi: DVector<f64>,
    /// `Φ_q`.
    pub phi_q: Entries,
    /// How the Jacobians were obtained.
    pub stats: JacobianStats,
}

impl SparseAssembled {
    /// The Newton saddle matrix `[M − c_C C − c_K K, c_B Φ_qᵀ; Φ_q, 0]`.
    pub fn newton(&self, c_c: f64, c_k: f64, c_b: f64) -> SparseSaddle {
        saddle(&self.mass, &[(&self.damping, c_c), (&self.stiffness, c_k)], c_b, &self.phi_q)
    }
}

/// The saddle matrix `[M − Σ cᵢ Jᵢ, c_B Φ_qᵀ; Φ_q, 0]` of `mass`, the `terms` `(Jᵢ, cᵢ)` and `phi_q`.
pub fn saddle(mass: &Entries, terms: &[(&Entries, f64)], c_b: f64, phi_q: &Entries) -> SparseSaddle {
    let (n, m) = (mass.rows, phi_q.rows);
    let mut s = SparseSaddle::new(n, m);
    s.entries
        .reserve(mass.entries.len() + terms.iter().map(|t| t.0.entries.len()).sum::<usize>() + 2 * phi_q.entries.len());
    s.entries.extend(mass.entries.iter().copied());
    for (j, c) in terms {
        s.entries.extend(j.entries.iter().map(|&(r, col, v)| (r, col, -c * v)));
    }
    for &(r, c, v) in &phi_q.entries {
        s.entries.push((c, n + r, c_b * v));
        s.entries.push((n + r, c, v));
    }
    s
}

impl System<'_> {
    /// Constraint residuals and the Jacobian `Φ_q` as entries.
    pub fn constraints_sparse(&self, bodies: &BodySet, dofs: &DofMap) -> (DVector<f64>, Entries) {
        let m = self.joints.equations();
        let mut phi = DVector::zeros(m);
        let mut phi_q = Entries { rows: m, cols: dofs.n, entries: Vec::with_capacity(12 * m) };
        let mut row = 0;
        for j in self.joints.iter() {
            for r in j.rows(bodies) {
                phi[row] = r.value;
                for (h, jac) in [(j.body1, r.jac1), (j.body2, r.jac2)] {
                    if let Some(o) = dofs.offset(h) {
                        phi_q.entries.extend((0..6).filter(|&k| jac[k] != 0.0).map(|k| (row, o + k, jac[k])));
                    }
                }
                row += 1;
            }
        }
        (phi, phi_q)
    }

    /// The mass matrix (plus `A∞` of `added`) as entries: 6 × 6 blocks per body, and the
    /// added mass's blocks between its bodies.
    pub fn mass_sparse(&self, bodies: &BodySet, dofs: &DofMap, added: Option<&AddedMass>) -> Result<Entries, MbsError> {
        let mut mass = Entries { rows: dofs.n, cols: dofs.n, entries: Vec::with_capacity(12 * dofs.n / 6 * 2) };
        for (h, b) in bodies.iter() {
            if let Some(o) = dofs.offset(h) {
                mass.entries.extend((0..3).map(|k| (o + k, o + k, b.mass)));
                let iw = b.inertia_world();
                for i in 0..3 {
                    for j in 0..3 {
                        mass.entries.push((o + 3 + i, o + 3 + j, iw[(i, j)]));
                    }
                }
            }
        }
        if let Some(a) = added {
            let am = a.matrix(bodies)?;
            let offsets: Vec<Option<usize>> = a.bodies().iter().map(|h| dofs.offset(*h)).collect();
            for (i, oi) in offsets.iter().enumerate() {
                for (j, oj) in offsets.iter().enumerate() {
                    let (Some(oi), Some(oj)) = (oi, oj) else { continue };
                    for r in 0..6 {
                        for c in 0..6 {
                            let v = am[(6 * i + r, 6 * j + c)];
                            if v != 0.0 {
                                mass.entries.push((oi + r, oj + c, v));
                            }
                        }
                    }
                }
            }
        }
        Ok(mass)
    }

    /// Everything at the bodies' current state, as entries, the Jacobians by `policy` (as
    /// [`System::assemble_full`] does, the same numbers without the dense arrays).
    pub fn assemble_sparse(
        &self,
        bodies: &BodySet,
        dofs: &DofMap,
        added: Option<&AddedMass>,
        policy: JacobianPolicy,
    ) -> Result<SparseAssembled, MbsError> {
        let resolved = policy.resolve(self.forces)?;
        let mut parts = self.jacobian_parts(bodies, dofs, resolved, policy == JacobianPolicy::Analytical);
        if !parts.missing.is_empty() {
            return Err(MbsError::NoAnalyticalJacobian(parts.missing));
        }
        let n = dofs.n;
        let mut finish = |analytic: Vec<Entry>, numeric: Vec<Entry>| {
            let mut out = Entries { rows: n, cols: n, entries: analytic };
            if numeric.is_empty() {
                return out;
            }
            // Differenced entries fill only positions whose analytical sum is zero.
            let mut sum: HashMap<(usize, usize), f64> = HashMap::with_capacity(out.entries.len());
            for &(r, c, v) in &out.entries {
                *sum.entry((r, c)).or_insert(0.0) += v;
            }
            for (r, c, v) in numeric {
                if v == 0.0 {
                    continue;
                }
                if sum.get(&(r, c)).copied().unwrap_or(0.0) == 0.0 {
                    out.entries.push((r, c, v));
                } else {
                    parts.stats.overridden += 1;
                }
            }
            out
        };
        let stiffness = finish(std::mem::take(&mut parts.analytic_k), std::mem::take(&mut parts.numeric_k));
        let damping = finish(std::mem::take(&mut parts.analytic_c), std::mem::take(&mut parts.numeric_c));
        let (phi, phi_q) = self.constraints_sparse(bodies, dofs);
        Ok(SparseAssembled {
            mass: self.mass_sparse(bodies, dofs, added)?,
            forces: self.forces(bodies, dofs),
            stiffness,
            damping,
            phi,
            phi_q,
            stats: parts.stats,
        })
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::fixtures::chain;
    use crate::solver::jacobian::JacobianPolicy;

    /// Entries summed into a dense matrix.
    fn dense(e: &Entries) -> nalgebra::DMatrix<f64> {
        let mut m = nalgebra::DMatrix::zeros(e.rows, e.cols);
        for &(r, c, v) in &e.entries {
            m[(r, c)] += v;
        }
        m
    }

    #[test]
    fn the_sparse_assembly_holds_the_dense_assembly_s_numbers() {
        for policy in [JacobianPolicy::Auto, JacobianPolicy::Numerical] {
            let (bodies, joints, forces) = chain(6, true);
            let dofs = DofMap::new(&bodies);
            let sys = System { joints: &joints, forces: &forces, force_numerical: false };
            let d = sys.assemble_full(&bodies, &dofs, None, policy).unwrap();
            let s = sys.assemble_sparse(&bodies, &dofs, None, policy).unwrap();
            // The same entries summed in the same order: equal to the last bit.
            assert_eq!(dense(&s.mass), d.mass, "{policy:?}");
            assert_eq!(dense(&s.stiffness), d.stiffness, "{policy:?}");
            assert_eq!(dense(&s.damping), d.damping, "{policy:?}");
            assert_eq!(dense(&s.phi_q), d.phi_q, "{policy:?}");
            assert_eq!((s.forces.clone(), s.phi.clone()), (d.forces.clone(), d.phi.clone()));
            assert_eq!(s.stats, d.stats);
            let v = DVector::from_fn(dofs.n, |i, _| (i as f64).sin());
            assert_eq!(s.mass.mul(&v), &d.mass * &v);
            let y = DVector::from_fn(s.phi_q.rows, |i, _| (i as f64).cos());
            assert!((s.phi_q.tr_mul(&y) - d.phi_q.transpose() * &y).amax() < 1e-14);
            assert_eq!(s.mass.diagonal(), d.mass.diagonal());
        }
    }
}
