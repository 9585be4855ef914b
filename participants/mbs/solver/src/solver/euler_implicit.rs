//! Linearized implicit Euler (Chrono's `Euler_implicit_linearized`): one linear solve per
//! step for the new velocities and the constraint impulses, then positions from the new
//! velocities and a projection back onto the constraints (so drift does not accumulate).
//!
//! `(M − h C − h² K) v₁ + Φ_qᵀ μ = M v₀ + h Q₀ − h C v₀`, `Φ_q v₁ = −Φ₀/h`, `q₁ = q₀ ⊕ h v₁`.
//! Free bodies under constant loads get exactly the semi-implicit Euler update.
//! With added mass ([`Integrator::step_full`]) `M` is `M + A∞` in the step (the position
//! projection of [`crate::solver::newton`] stays weighted by `M`: any metric lands on `Φ = 0`).

use crate::dynamics::body_set::BodySet;
use crate::error::MbsError;
use crate::solver::assembly::{displace, set_velocities, velocities, DofMap, System};
use crate::solver::integrator::{Integrator, Mechanism};
use crate::solver::jacobian::verify::{verify_due, VerifyReport};
use crate::solver::jacobian::JacobianOptions;
use crate::solver::jacobian::JacobianStats;
use crate::solver::linear::LinearSolverKind;
use crate::solver::newton::{elements_named, project_positions};
use crate::solver::newton_system::{LinearPlan, LinearStats, NewtonAssembly, NewtonMatrix};
use crate::state::IntegratorHistory;

/// The linearized implicit Euler integrator.
#[derive(Debug, Clone, Default)]
pub struct LinearizedImplicitEuler {
    time: f64,
    /// Constraint tolerance of the position projection (m, or rad for angular rows).
    pub constraint_tolerance: f64,
    /// The Jacobian policy and verification (the solver file's `jacobian:`).
    pub jacobian: JacobianOptions,
    /// The linear solver of the Newton saddle system (the solver file's `solver.type`).
    pub linear_solver: LinearSolverKind,
    /// Steps taken (what the verification schedule counts).
    steps: usize,
    /// The last verification of the analytical Jacobians, if one was due.
    report: Option<VerifyReport>,
    /// What the last assembly of the Jacobians did.
    stats: Option<JacobianStats>,
    /// Which linear solver ran last.
    linear: Option<LinearStats>,
}

impl LinearizedImplicitEuler {
    /// The integrator with a 1e-12 projection tolerance.
    pub fn new() -> Self {
        LinearizedImplicitEuler {
            time: 0.0,
            constraint_tolerance: 1e-12,
            jacobian: JacobianOptions::default(),
            linear_solver: LinearSolverKind::default(),
            steps: 0,
            report: None,
            stats: None,
            linear: None,
        }
    }
}

impl LinearizedImplicitEuler {
    /// Verifies the analytical Jacobians at the step's start when the schedule says so.
    fn verify_if_due(&mut self, sys: &System, bodies: &BodySet, dofs: &DofMap) {
        let time = self.time;
        if let Some(r) = verify_due(&self.jacobian, self.steps, sys, bodies, dofs, time) {
            self.report = Some(r);
        }
    }
}

impl Integrator for LinearizedImplicitEuler {
    fn name(&self) -> &'static str {
        "linearized implicit Euler"
    }

    fn handles_added_mass(&self) -> bool {
        true
    }

    fn step_full(&mut self, bodies: &mut BodySet, mech: Mechanism<'_>, dt: f64) -> Result<(), MbsError> {
        let (sys, dofs) = mech.assembly(bodies);
        self.verify_if_due(&sys, bodies, &dofs);
        let added = mech.added_mass;
        let plan = LinearPlan::new(self.linear_solver, &sys, bodies, &dofs, added);
        let asm = NewtonAssembly::new(&plan, &sys, bodies, &dofs, added, self.jacobian.policy)?;
        self.stats = Some(asm.stats());
        let v0 = velocities(bodies, &dofs);
        let (newton, f) = match &asm {
            NewtonAssembly::Dense(asm) => (
                NewtonMatrix::Dense(
                    &asm.mass - &asm.damping * dt - &asm.stiffness * (dt * dt),
                    asm.phi_q.transpose(),
                    asm.phi_q.clone(),
                ),
                &asm.mass * &v0 + &asm.forces * dt - &asm.damping * &v0 * dt,
            ),
            NewtonAssembly::Sparse(asm) => (
                NewtonMatrix::Sparse(asm.newton(dt, dt * dt, 1.0)),
                asm.mass.mul(&v0) + &asm.forces * dt - asm.damping.mul(&v0) * dt,
            ),
        };
        let g = -asm.phi() / dt;
        let bad = || MbsError::NonFiniteNewtonStep { time: self.time, elements: elements_named(&sys, bodies, &dofs) };
        let (sol, linear) = plan.solve(newton.saddle(), &f, &g, bad)?;
        self.linear = Some(linear);
        let v1 = sol.x;
        displace(bodies, &dofs, &(&v1 * dt));
        set_velocities(bodies, &dofs, &v1);
        let tol = if self.constraint_tolerance > 0.0 { self.constraint_tolerance } else { 1e-12 };
        if plan.dense() {
            project_positions(&sys, bodies, &dofs, tol, 20, self.time)?;
        } else {
            plan.project_positions(&sys, bodies, &dofs, tol, 20, self.time)?;
        }
        for (h, b) in bodies.iter() {
            let finite = b.position.iter().chain(b.linvel.iter()).chain(b.angvel.iter()).all(|x| x.is_finite())
                && b.orientation.coords.iter().all(|x| x.is_finite());
            if !finite {
                return Err(MbsError::Diverged(h.index()));
            }
        }
        self.time += dt;
        self.steps += 1;
        Ok(())
    }

    fn jacobian_stats(&self) -> Option<&JacobianStats> {
        self.stats.as_ref()
    }
    fn linear_stats(&self) -> Option<&LinearStats> {
        self.linear.as_ref()
    }
    fn jacobian_report(&self) -> Option<&VerifyReport> {
        self.report.as_ref()
    }

    fn save_history(&self) -> IntegratorHistory {
        IntegratorHistory { time: self.time, ..Default::default() }
    }
    fn restore_history(&mut self, history: &IntegratorHistory) {
        self.time = history.time;
    }
}
