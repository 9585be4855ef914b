//! The Newton system as the implicit integrators hold it: assembled densely for the dense
//! solver (small systems, the default) and as entries for every other solver, so that a long
//! chain never holds an `n × n` array; the body structure that `auto` and the block solvers
//! read; and the solve with its figures kept for the caller's log.

use crate::added_mass::AddedMass;
use crate::dynamics::body_set::BodySet;
use crate::error::MbsError;
use crate::solver::assembly::{Assembled, DofMap, System};
use crate::solver::assembly_sparse::{Entries, SparseAssembled};
use crate::solver::jacobian::{JacobianPolicy, JacobianStats};
use crate::solver::linear::{solve_saddle, LinearError, LinearSolverKind, Saddle, Solution, SparseSaddle, Structure};
use crate::solver::topology::structure;
use nalgebra::{DMatrix, DVector};
use std::fmt;

/// Which linear solver ran on the last Newton system, on how many unknowns (for the log).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct LinearStats {
    /// The solver file's choice.
    pub requested: LinearSolverKind,
    /// The method that ran (`auto` resolved).
    pub method: LinearSolverKind,
    /// Unknowns (DOFs plus constraint rows).
    pub unknowns: usize,
    /// Sweeps of block Gauss–Seidel (0 for direct methods).
    pub sweeps: usize,
}

impl fmt::Display for LinearStats {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "linear solver `{}`: `{}` on {} unknowns", self.requested, self.method, self.unknowns)?;
        if self.sweeps > 0 {
            write!(f, ", {} sweeps", self.sweeps)?;
        }
        Ok(())
    }
}

/// The linear solver, resolved for one mechanism: its structure and whether the assembly is dense.
#[derive(Debug, Clone)]
pub(crate) struct LinearPlan {
    /// The solver file's choice.
    pub requested: LinearSolverKind,
    /// The method `auto` resolves to for this structure.
    pub method: LinearSolverKind,
    /// The bodies, joint rows and couplings.
    pub structure: Structure,
}

impl LinearPlan {
    /// The plan for `requested` on `sys` over `bodies`.
    pub fn new(
        requested: LinearSolverKind,
        sys: &System,
        bodies: &BodySet,
        dofs: &DofMap,
        added: Option<&AddedMass>,
    ) -> Self {
        let structure = structure(sys, bodies, dofs, added);
        let method = requested.choose(dofs.n + sys.joints.equations(), &structure);
        LinearPlan { requested, method, structure }
    }
    /// Whether the Newton matrix is assembled densely (dense LU only).
    pub fn dense(&self) -> bool {
        self.method == LinearSolverKind::DenseLu
    }
    /// Solves `k [x; y] = [f; g]`; a singular matrix is `singular()` (the integrator's error
    /// naming the elements), other refusals [`MbsError::LinearSolver`].
    pub fn solve(
        &self,
        k: Saddle,
        f: &DVector<f64>,
        g: &DVector<f64>,
        singular: impl FnOnce() -> MbsError,
    ) -> Result<(Solution, LinearStats), MbsError> {
        match solve_saddle(self.method, k, Some(&self.structure), f, g) {
            Ok(s) => {
                let stats = LinearStats {
                    requested: self.requested,
                    method: s.method,
                    unknowns: f.len() + g.len(),
                    sweeps: s.sweeps,
                };
                Ok((s, stats))
            }
            Err(LinearError::Singular) => Err(singular()),
            Err(e) => Err(MbsError::LinearSolver(e)),
        }
    }
}

/// The assembled equations, dense or as entries.
#[derive(Debug, Clone)]
pub(crate) enum NewtonAssembly {
    /// For dense LU.
    Dense(Assembled),
    /// For the other solvers.
    Sparse(SparseAssembled),
}

impl NewtonAssembly {
    /// Assembles at `bodies` by `policy`, densely when `plan` solves densely.
    pub fn new(
        plan: &LinearPlan,
        sys: &System,
        bodies: &BodySet,
        dofs: &DofMap,
        added: Option<&AddedMass>,
        policy: JacobianPolicy,
    ) -> Result<Self, MbsError> {
        Ok(if plan.dense() {
            NewtonAssembly::Dense(sys.assemble_full(bodies, dofs, added, policy)?)
        } else {
            NewtonAssembly::Sparse(sys.assemble_sparse(bodies, dofs, added, policy)?)
        })
    }
    /// How the Jacobians were obtained.
    pub fn stats(&self) -> JacobianStats {
        match self {
            NewtonAssembly::Dense(a) => a.stats,
            NewtonAssembly::Sparse(a) => a.stats,
        }
    }
    /// The constraint residuals.
    pub fn phi(&self) -> &DVector<f64> {
        match self {
            NewtonAssembly::Dense(a) => &a.phi,
            NewtonAssembly::Sparse(a) => &a.phi,
        }
    }
    /// The mass matrix as an operator (what the residuals need of it).
    pub fn mass(&self) -> MassOp<'_> {
        match self {
            NewtonAssembly::Dense(a) => MassOp::Dense(&a.mass),
            NewtonAssembly::Sparse(a) => MassOp::Sparse(&a.mass),
        }
    }
}

/// The mass matrix, dense or as entries.
#[derive(Debug, Clone, Copy)]
pub(crate) enum MassOp<'a> {
    /// Dense.
    Dense(&'a DMatrix<f64>),
    /// Entries.
    Sparse(&'a Entries),
}

impl MassOp<'_> {
    /// `M v`.
    pub fn mul(&self, v: &DVector<f64>) -> DVector<f64> {
        match self {
            MassOp::Dense(m) => *m * v,
            MassOp::Sparse(m) => m.mul(v),
        }
    }
    /// The diagonal (what the residual merit scales by).
    pub fn diagonal(&self) -> DVector<f64> {
        match self {
            MassOp::Dense(m) => m.diagonal(),
            MassOp::Sparse(m) => m.diagonal(),
        }
    }
}

/// The constraint residuals `Φ` and `Φ_qᵀ μ` at `bodies` (dense or by entries as `dense` says).
pub(crate) fn constraint_terms(
    sys: &System,
    bodies: &BodySet,
    dofs: &DofMap,
    mu: &DVector<f64>,
    dense: bool,
) -> (DVector<f64>, DVector<f64>) {
    if dense {
        let (phi, phi_q) = sys.constraints(bodies, dofs);
        (phi, phi_q.transpose() * mu)
    } else {
        let (phi, phi_q) = sys.constraints_sparse(bodies, dofs);
        (phi, phi_q.tr_mul(mu))
    }
}

/// The Newton matrix of one iteration, owned: dense blocks or entries.
pub(crate) enum NewtonMatrix {
    /// `A`, `Bᵀ`, `C`.
    Dense(DMatrix<f64>, DMatrix<f64>, DMatrix<f64>),
    /// The whole saddle matrix.
    Sparse(SparseSaddle),
}

impl NewtonMatrix {
    /// The view the solvers take.
    pub fn saddle(&self) -> Saddle<'_> {
        match self {
            NewtonMatrix::Dense(a, bt, c) => Saddle::Dense { a, bt, c },
            NewtonMatrix::Sparse(k) => Saddle::Sparse(k),
        }
    }
}

/// The constraint projections of [`crate::solver::newton`] for a plan that does not solve
/// densely: each mass-weighted least-norm correction as the saddle system
/// `[M Φ_qᵀ; Φ_q 0] [d; y] = [r; s]` solved by the plan's solver, so that neither `M⁻¹` nor
/// `Φ_q M⁻¹ Φ_qᵀ` is formed as an array. The same corrections as the dense forms, to round-off.
impl LinearPlan {
    /// Solves `[M Φ_qᵀ; Φ_q 0] [d; y] = [r; s]` at `bodies` (`M` without added mass).
    fn mass_saddle(
        &self,
        sys: &System,
        bodies: &BodySet,
        dofs: &DofMap,
        rhs: impl FnOnce(&Entries, &Entries) -> (DVector<f64>, DVector<f64>),
        time: f64,
    ) -> Result<DVector<f64>, MbsError> {
        let (_, phi_q) = sys.constraints_sparse(bodies, dofs);
        let mass = sys.mass_sparse(bodies, dofs, None)?;
        let (r, s) = rhs(&mass, &phi_q);
        let k = crate::solver::assembly_sparse::saddle(&mass, &[], 1.0, &phi_q);
        let bad = || MbsError::NonFiniteNewtonStep {
            time,
            elements: crate::solver::newton::elements_named(sys, bodies, dofs),
        };
        Ok(self.solve(Saddle::Sparse(&k), &r, &s, bad)?.0.x)
    }

    /// Moves the positions onto `Φ = 0` ([`crate::solver::newton::project_positions`]'s
    /// corrections `δq = −M⁻¹Φ_qᵀ (Φ_q M⁻¹ Φ_qᵀ)⁻¹ Φ`).
    pub fn project_positions(
        &self,
        sys: &System,
        bodies: &mut BodySet,
        dofs: &DofMap,
        tol: f64,
        max_iterations: usize,
        time: f64,
    ) -> Result<(), MbsError> {
        if sys.joints.is_empty() {
            return Ok(());
        }
        for _ in 0..max_iterations {
            let (phi, _) = sys.constraints_sparse(bodies, dofs);
            if phi.amax() <= tol {
                return Ok(());
            }
            let d = self.mass_saddle(sys, bodies, dofs, |m, _| (DVector::zeros(m.rows), -phi), time)?;
            crate::solver::assembly::displace(bodies, dofs, &d);
        }
        Ok(())
    }

    /// Removes the velocity components that violate `Φ_q v = 0`, mass-weighted
    /// ([`crate::solver::newton::project_velocities`]).
    pub fn project_velocities(
        &self,
        sys: &System,
        bodies: &mut BodySet,
        dofs: &DofMap,
        time: f64,
    ) -> Result<(), MbsError> {
        if sys.joints.is_empty() {
            return Ok(());
        }
        let v = crate::solver::assembly::velocities(bodies, dofs);
        let v1 = self.mass_saddle(sys, bodies, dofs, |m, pq| (m.mul(&v), DVector::zeros(pq.rows)), time)?;
        crate::solver::assembly::set_velocities(bodies, dofs, &v1);
        Ok(())
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::fixtures::chain;
    use crate::solver::newton::{project_positions, project_velocities};
    use nalgebra::Vector3;

    #[test]
    fn only_dense_lu_gets_a_dense_assembly() {
        let (bodies, joints, forces) = chain(12, true);
        let dofs = DofMap::new(&bodies);
        let sys = System { joints: &joints, forces: &forces, force_numerical: false };
        for (kind, dense) in [(LinearSolverKind::Auto, false), (LinearSolverKind::DenseLu, true)] {
            let plan = LinearPlan::new(kind, &sys, &bodies, &dofs, None);
            let asm = NewtonAssembly::new(&plan, &sys, &bodies, &dofs, None, JacobianPolicy::Auto).unwrap();
            assert_eq!(matches!(asm, NewtonAssembly::Dense(_)), dense, "{kind}");
        }
    }

    #[test]
    fn the_sparse_projections_make_the_dense_projections_corrections() {
        let (mut bodies, joints, forces) = chain(8, true);
        // Pull the chain (not its fixed anchor) off its joints and give it velocities.
        for (i, (_, b)) in bodies.iter_mut().enumerate().skip(1) {
            b.position += Vector3::new(0.01 * i as f64, -0.02, 0.005 * (i % 3) as f64);
            b.linvel = Vector3::new(0.1, 0.2 * i as f64, -0.3);
        }
        let dofs = DofMap::new(&bodies);
        let sys = System { joints: &joints, forces: &forces, force_numerical: false };
        let plan = LinearPlan::new(LinearSolverKind::SparseLu, &sys, &bodies, &dofs, None);
        let (mut dense, mut sparse) = (bodies.clone(), bodies.clone());
        project_positions(&sys, &mut dense, &dofs, 1e-12, 20, 0.0).unwrap();
        plan.project_positions(&sys, &mut sparse, &dofs, 1e-12, 20, 0.0).unwrap();
        project_velocities(&sys, &mut dense, &dofs, 0.0).unwrap();
        plan.project_velocities(&sys, &mut sparse, &dofs, 0.0).unwrap();
        // The same least-norm corrections by two factorisations: round-off apart (the
        // positions to the 1e-12 m tolerance both iterate to, the velocities relative 1e-10).
        for ((_, d), (_, s)) in dense.iter().zip(sparse.iter()) {
            assert!((d.position - s.position).amax() < 1e-11, "{} vs {}", d.position, s.position);
            assert!((d.linvel - s.linvel).amax() < 1e-10, "{} vs {}", d.linvel, s.linvel);
            assert!((d.angvel - s.angvel).amax() < 1e-10);
        }
        let (phi, _) = sys.constraints(&sparse, &dofs);
        assert!(phi.amax() <= 1e-12);
    }
}
