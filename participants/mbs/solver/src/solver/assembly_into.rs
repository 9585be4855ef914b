//! The dense assembly of [`crate::solver::assembly`] into buffers the caller keeps: the same
//! entries added in the same order (so the same bits), nothing allocated. What the dense HHT
//! step ([`crate::solver::hht_dense`]) assembles with in every Newton iteration.

use crate::added_mass::AddedMass;
use crate::dynamics::body_set::BodySet;
use crate::error::MbsError;
use crate::solver::assembly::{body_forces, element_forces, DofMap, System};
use crate::solver::jacobian::{JacobianPolicy, JacobianStats, COMPRESSION_THRESHOLD};
use nalgebra::{DMatrix, DVector};

/// `v`'s entries set to the velocities `[v, ω]` of every free body (`v` has `dofs.n` rows).
pub(crate) fn velocities_into(bodies: &BodySet, dofs: &DofMap, v: &mut DVector<f64>) {
    for (h, b) in bodies.iter() {
        if let Some(o) = dofs.offset(h) {
            v.fixed_rows_mut::<3>(o).copy_from(&b.linvel);
            v.fixed_rows_mut::<3>(o + 3).copy_from(&b.angvel);
        }
    }
}

impl System<'_> {
    /// [`System::constraints`] into `phi` (`m` rows) and `phi_q` (`m × n`).
    pub(crate) fn constraints_into(
        &self,
        bodies: &BodySet,
        dofs: &DofMap,
        phi: &mut DVector<f64>,
        phi_q: &mut DMatrix<f64>,
    ) {
        phi.fill(0.0);
        phi_q.fill(0.0);
        let mut row = 0;
        for j in self.joints.iter() {
            j.visit_rows(bodies, |r| {
                phi[row] = r.value;
                for (h, jac) in [(j.body1, r.jac1), (j.body2, r.jac2)] {
                    if let Some(o) = dofs.offset(h) {
                        for k in 0..6 {
                            phi_q[(row, o + k)] += jac[k];
                        }
                    }
                }
                row += 1;
            });
        }
    }

    /// [`System::forces`] into `q` (`n` rows).
    pub(crate) fn forces_into(&self, bodies: &BodySet, dofs: &DofMap, q: &mut DVector<f64>) {
        q.fill(0.0);
        for (h, _) in bodies.iter() {
            if let Some(o) = dofs.offset(h) {
                body_forces(bodies, h, o, q);
            }
        }
        for e in self.forces.iter() {
            element_forces(e, bodies, dofs, q);
        }
    }

    /// [`System::mass_with`] into `mass` (`n × n`).
    pub(crate) fn mass_into(
        &self,
        bodies: &BodySet,
        dofs: &DofMap,
        added: Option<&AddedMass>,
        mass: &mut DMatrix<f64>,
    ) -> Result<(), MbsError> {
        mass.fill(0.0);
        for (h, b) in bodies.iter() {
            if let Some(o) = dofs.offset(h) {
                for k in 0..3 {
                    mass[(o + k, o + k)] = b.mass;
                }
                mass.view_mut((o + 3, o + 3), (3, 3)).copy_from(&b.inertia_world());
            }
        }
        if let Some(a) = added {
            a.add_to(mass, bodies, dofs)?;
        }
        Ok(())
    }

    /// `∂Q/∂q` and `∂Q/∂v` into `k` and `c` (`n × n`) when every force element gives its blocks
    /// analytically here (the `analytical` policy's sums, entries below
    /// [`COMPRESSION_THRESHOLD`] dropped); `None` as soon as one gives none, the buffers then
    /// being partly written.
    pub(crate) fn analytical_jacobians_into(
        &self,
        bodies: &BodySet,
        dofs: &DofMap,
        k: &mut DMatrix<f64>,
        c: &mut DMatrix<f64>,
    ) -> Option<JacobianStats> {
        k.fill(0.0);
        c.fill(0.0);
        let mut stats = JacobianStats { policy: JacobianPolicy::Analytical, ..JacobianStats::default() };
        // Bodies: the gyroscopic term's derivative in ω.
        for (h, b) in bodies.iter() {
            if let Some(o) = dofs.offset(h) {
                let iw = b.inertia_world();
                let d = -(b.angvel.cross_matrix() * iw - (iw * b.angvel).cross_matrix());
                for i in 0..3 {
                    for j in 0..3 {
                        c[(o + 3 + i, o + 3 + j)] += d[(i, j)];
                    }
                }
            }
        }
        for e in self.forces.iter() {
            let (kb, cb) = e.jacobian(bodies)?;
            let handles = e.bodies();
            // The element's local columns 6·slot + k at the body's coordinates, both slots.
            let cols = |slot: usize| dofs.offset(handles[slot]).map(|o| (6 * slot, o));
            for (li0, gi0) in (0..2).filter_map(cols) {
                for ki in 0..6 {
                    let (li, gi) = (li0 + ki, gi0 + ki);
                    for (lj0, gj0) in (0..2).filter_map(cols) {
                        for kj in 0..6 {
                            let (lj, gj) = (lj0 + kj, gj0 + kj);
                            for (target, block) in [(&mut *k, &kb), (&mut *c, &cb)] {
                                let v = block[(li, lj)];
                                if v.abs() < COMPRESSION_THRESHOLD {
                                    stats.compressed += usize::from(v != 0.0);
                                } else {
                                    target[(gi, gj)] += v;
                                }
                            }
                        }
                    }
                }
            }
        }
        Some(stats)
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::fixtures::chain;
    use nalgebra::Vector3;

    /// The kept-buffer assembly gives the allocating assembly's matrices bit for bit, on a
    /// chain with joints and spring-dampers away from its rest state.
    #[test]
    fn into_buffers_equals_the_allocating_assembly_bit_for_bit() {
        let (mut bodies, joints, forces) = chain(5, true);
        for (i, (_, b)) in bodies.iter_mut().enumerate().skip(1) {
            b.position += Vector3::new(0.01 * i as f64, -0.02, 0.005);
            b.linvel = Vector3::new(0.1, 0.2 * i as f64, -0.3);
            b.angvel = Vector3::new(0.3, -0.1 * i as f64, 0.2);
        }
        let dofs = DofMap::new(&bodies);
        let sys = System { joints: &joints, forces: &forces, force_numerical: false };
        let asm = sys.assemble_full(&bodies, &dofs, None, JacobianPolicy::Analytical).unwrap();
        let (n, m) = (dofs.n, joints.equations());
        let (mut phi, mut phi_q) = (DVector::zeros(m), DMatrix::zeros(m, n));
        let (mut q, mut v) = (DVector::zeros(n), DVector::zeros(n));
        let (mut mass, mut k, mut c) = (DMatrix::zeros(n, n), DMatrix::zeros(n, n), DMatrix::zeros(n, n));
        sys.constraints_into(&bodies, &dofs, &mut phi, &mut phi_q);
        sys.forces_into(&bodies, &dofs, &mut q);
        sys.mass_into(&bodies, &dofs, None, &mut mass).unwrap();
        let stats = sys.analytical_jacobians_into(&bodies, &dofs, &mut k, &mut c).unwrap();
        velocities_into(&bodies, &dofs, &mut v);
        assert_eq!((phi, phi_q, q, mass), (asm.phi, asm.phi_q, asm.forces, asm.mass));
        assert_eq!((k, c, stats), (asm.stiffness, asm.damping, asm.stats));
        assert_eq!(v, crate::solver::assembly::velocities(&bodies, &dofs));
        let mut refilled = DofMap::new(&crate::dynamics::body_set::BodySet::new(Vector3::zeros()));
        refilled.refill(&bodies);
        assert_eq!(refilled, dofs);
    }
}
