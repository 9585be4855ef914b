//! HHT-α (Hilber–Hughes–Taylor), index 3: Newton iterations on the accelerations and
//! Lagrange multipliers of the constrained equations of motion, positions kept on the
//! constraints at every step (Negrut et al.'s form, as Chrono's `HHT`):
//!
//! - `M a₁ + (1+α)(Φ_qᵀλ − Q)₁ − α(Φ_qᵀλ − Q)₀ = 0`, `Φ(q₁)/(β h²) = 0`;
//! - `q₁ = q₀ ⊕ (h v₀ + h²((½ − β) a₀ + β a₁))`, `v₁ = v₀ + h((1 − γ) a₀ + γ a₁)`;
//! - `γ = ½ − α`, `β = (1 − α)²/4`, `α ∈ [−⅓, 0]` (α = 0: trapezoidal, energy-conserving).
//!
//! The Newton matrix is `[M − (1+α)(β h² K + γ h C), (1+α)Φ_qᵀ; Φ_q, 0]`, assembled per
//! element by [`crate::solver::assembly`]; each Newton step is damped by an Armijo backtracking
//! line search (at most 5 halvings, c = 1e-4) on the residual norm.
//!
//! With added mass ([`Integrator::step_full`]) `M` is `M + A∞` throughout (start, residual,
//! Newton matrix); the velocity projection of [`crate::solver::newton`] stays weighted by `M` alone,
//! which changes only the direction of a correction as small as the constraint drift.

use crate::added_mass::AddedMass;
use crate::dynamics::body_set::BodySet;
use crate::error::MbsError;
use crate::solver::assembly::{displace, set_velocities, velocities, DofMap, System};
use crate::solver::assembly_sparse::saddle;
use crate::solver::integrator::{Integrator, Mechanism};
use crate::solver::jacobian::verify::{verify_due, VerifyReport};
use crate::solver::jacobian::JacobianOptions;
use crate::solver::jacobian::JacobianStats;
use crate::solver::linear::{LinearSolverKind, Saddle};
use crate::solver::newton::{elements_named, project_velocities};
use crate::solver::newton_system::{constraint_terms, LinearPlan, LinearStats, MassOp, NewtonAssembly, NewtonMatrix};
use crate::state::IntegratorHistory;
use nalgebra::DVector;

mod dense;
#[cfg(test)]
mod tests_dense;

/// Chrono's default α for hydrodynamics.
pub const DEFAULT_ALPHA: f64 = -0.2;
/// Armijo's sufficient-decrease constant.
const ARMIJO_C: f64 = 1e-4;
/// Most halvings of one Newton step.
const MAX_HALVINGS: usize = 5;

/// The HHT-α integrator and its history (accelerations, multipliers, previous residual).
#[derive(Debug, Clone)]
pub struct Hht {
    alpha: f64,
    /// Most Newton iterations per step.
    pub max_iterations: usize,
    /// Newton stops when the last position update is below this (m; rad for rotations)…
    pub abs_tolerance: f64,
    /// …and every constraint residual is below this (m, or dimensionless for angular rows).
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
    history: IntegratorHistory,
    started: bool,
    /// Steps systems the dense LU solves in buffers kept between steps ([`dense`]): no
    /// allocation after the first step, the Newton matrix factored again only when it changed.
    /// On by default; off, every step takes the general path (the reference of the tests and
    /// of the `rm3_step` benchmark).
    pub dense_in_place: bool,
    /// With `dense_in_place`: Newton iterations solve with the factors already made while the
    /// line search takes full steps and the updates contract (modified Newton, as Chrono's HHT
    /// offers); the stopping test is the same, so the answer meets the same tolerances. On by
    /// default; off, every iteration factors its own matrix (full Newton, as the general path).
    pub keep_newton_matrix: bool,
    /// With `keep_newton_matrix`: a step starts with the factors the step before left (as
    /// Chrono's modified Newton), so a step whose matrix has not changed much factors nothing.
    /// The factors are part of the saved history, so a restored checkpoint repeats its window
    /// bit for bit. On by default; off, each step factors its first matrix.
    pub keep_factors_across_steps: bool,
    /// The dense step's buffers, boxed so that a step takes and puts them back by moving a
    /// pointer; `None` only while a dense step runs.
    work: Option<Box<dense::DenseWork>>,
}

impl Default for Hht {
    /// HHT with [`DEFAULT_ALPHA`].
    fn default() -> Self {
        Hht {
            alpha: DEFAULT_ALPHA,
            max_iterations: 20,
            abs_tolerance: 1e-10,
            constraint_tolerance: 1e-12,
            jacobian: JacobianOptions::default(),
            linear_solver: LinearSolverKind::default(),
            steps: 0,
            report: None,
            stats: None,
            linear: None,
            history: IntegratorHistory::default(),
            started: false,
            dense_in_place: true,
            keep_newton_matrix: true,
            keep_factors_across_steps: true,
            work: Some(Box::default()),
        }
    }
}

impl Hht {
    /// HHT with `alpha` in [−1/3, 0]; anything else is [`MbsError::InvalidAlpha`].
    pub fn new(alpha: f64) -> Result<Self, MbsError> {
        if !(alpha.is_finite() && (-1.0 / 3.0..=0.0).contains(&alpha)) {
            return Err(MbsError::InvalidAlpha(alpha));
        }
        Ok(Hht { alpha, ..Hht::default() })
    }
    /// Factorisations of the Newton matrix the dense step in kept buffers made, and those it
    /// saved because the matrix had not changed (both 0 on the general path).
    pub fn newton_factorisations(&self) -> (usize, usize) {
        self.work.as_deref().map_or((0, 0), dense::DenseWork::lu_counts)
    }
    /// The α in use.
    pub fn alpha(&self) -> f64 {
        self.alpha
    }

    fn coefficients(&self) -> (f64, f64) {
        (0.5 - self.alpha, (1.0 - self.alpha).powi(2) / 4.0)
    }

    /// The bodies at the trial accelerations `a`.
    fn trial(&self, base: &BodySet, dofs: &DofMap, a: &DVector<f64>, h: f64) -> BodySet {
        let (gamma, beta) = self.coefficients();
        let a0 = DVector::from_column_slice(&self.history.accelerations);
        let v0 = velocities(base, dofs);
        let dq = &v0 * h + (&a0 * (0.5 - beta) + a * beta) * (h * h);
        let v1 = v0 + (&a0 * (1.0 - gamma) + a * gamma) * h;
        let mut b = base.clone();
        displace(&mut b, dofs, &dq);
        set_velocities(&mut b, dofs, &v1);
        b
    }

    /// Consistent start: `[M Φ_qᵀ; Φ_q 0][a; λ] = [Q; 0]` at the initial state (`M + A∞`
    /// with added mass).
    fn start(
        &mut self,
        sys: &System,
        bodies: &BodySet,
        dofs: &DofMap,
        added: Option<&AddedMass>,
        plan: &LinearPlan,
    ) -> Result<(), MbsError> {
        let q = sys.forces(bodies, dofs);
        let bad =
            || MbsError::NonFiniteNewtonStep { time: self.history.time, elements: elements_named(sys, bodies, dofs) };
        let (a, l) = if plan.dense() {
            let (phi, phi_q) = sys.constraints(bodies, dofs);
            let m = sys.mass_with(bodies, dofs, added)?;
            let bt = phi_q.transpose();
            let (s, _) =
                plan.solve(Saddle::Dense { a: &m, bt: &bt, c: &phi_q }, &q, &DVector::zeros(phi.len()), bad)?;
            (s.x, s.y)
        } else {
            let (phi, phi_q) = sys.constraints_sparse(bodies, dofs);
            let m = sys.mass_sparse(bodies, dofs, added)?;
            let k = saddle(&m, &[], 1.0, &phi_q);
            let (s, _) = plan.solve(Saddle::Sparse(&k), &q, &DVector::zeros(phi.len()), bad)?;
            (s.x, s.y)
        };
        let (_, phi_q_l) = constraint_terms(sys, bodies, dofs, &l, plan.dense());
        self.history.residual = (phi_q_l - q).as_slice().to_vec();
        self.history.accelerations = a.as_slice().to_vec();
        self.history.multipliers = l.as_slice().to_vec();
        self.started = true;
        Ok(())
    }
}

/// Residual pieces at a trial state: force rows (scaled to accelerations for the merit)
/// and constraint rows.
struct Residual {
    r: DVector<f64>,
    merit: f64,
    phi_max: f64,
}

impl Hht {
    /// Verifies the analytical Jacobians at the step's start when the schedule says so.
    fn verify_if_due(&mut self, sys: &System, bodies: &BodySet, dofs: &DofMap) {
        let time = self.history.time;
        if let Some(r) = verify_due(&self.jacobian, self.steps, sys, bodies, dofs, time) {
            self.report = Some(r);
        }
    }
}

impl Integrator for Hht {
    fn name(&self) -> &'static str {
        "HHT-alpha"
    }

    fn handles_added_mass(&self) -> bool {
        true
    }

    fn step_full(&mut self, bodies: &mut BodySet, mech: Mechanism<'_>, h: f64) -> Result<(), MbsError> {
        if self.dense_in_place {
            if let Some(done) = self.step_dense(bodies, mech, h) {
                return done;
            }
        }
        let (sys, dofs) = mech.assembly(bodies);
        self.verify_if_due(&sys, bodies, &dofs);
        let added = mech.added_mass;
        let m = mech.joints.equations();
        let plan = LinearPlan::new(self.linear_solver, &sys, bodies, &dofs, added);
        let dense = plan.dense();
        if !self.started || self.history.accelerations.len() != dofs.n || self.history.multipliers.len() != m {
            self.start(&sys, bodies, &dofs, added, &plan)?;
        }
        let (gamma, beta) = self.coefficients();
        let alpha = self.alpha;
        let r0 = DVector::from_column_slice(&self.history.residual);
        let base = bodies.clone();
        let residual = |b: &BodySet, a: &DVector<f64>, l: &DVector<f64>, mass: MassOp| {
            let (phi, phi_q_l) = constraint_terms(&sys, b, &dofs, l, dense);
            let q = sys.forces(b, &dofs);
            let r1 = mass.mul(a) + (phi_q_l - q) * (1.0 + alpha) - &r0 * alpha;
            let mut r = DVector::zeros(dofs.n + m);
            r.rows_mut(0, dofs.n).copy_from(&r1);
            r.rows_mut(dofs.n, m).copy_from(&(&phi / (beta * h * h)));
            let diag = mass.diagonal();
            let scaled: f64 = (0..dofs.n).map(|i| (r[i] / diag[i].max(f64::MIN_POSITIVE)).powi(2)).sum::<f64>()
                + r.rows(dofs.n, m).norm_squared();
            Residual { r, merit: 0.5 * scaled, phi_max: phi.amax() }
        };
        let mut a = DVector::from_column_slice(&self.history.accelerations);
        let mut l = DVector::from_column_slice(&self.history.multipliers);
        let mut converged = false;
        let mut last_phi = 0.0;
        for _ in 0..self.max_iterations {
            let trial = self.trial(&base, &dofs, &a, h);
            let asm = NewtonAssembly::new(&plan, &sys, &trial, &dofs, added, self.jacobian.policy)?;
            self.stats = Some(asm.stats());
            let res = residual(&trial, &a, &l, asm.mass());
            let newton = match &asm {
                NewtonAssembly::Dense(asm) => NewtonMatrix::Dense(
                    &asm.mass - (&asm.stiffness * (beta * h * h) + &asm.damping * (gamma * h)) * (1.0 + alpha),
                    asm.phi_q.transpose() * (1.0 + alpha),
                    asm.phi_q.clone(),
                ),
                NewtonAssembly::Sparse(asm) => NewtonMatrix::Sparse(asm.newton(
                    gamma * h * (1.0 + alpha),
                    beta * h * h * (1.0 + alpha),
                    1.0 + alpha,
                )),
            };
            let f = -res.r.rows(0, dofs.n);
            let g = -res.r.rows(dofs.n, m);
            let bad = || MbsError::NonFiniteNewtonStep {
                time: self.history.time,
                elements: elements_named(&sys, &base, &dofs),
            };
            let (sol, linear) = plan.solve(newton.saddle(), &f.into_owned(), &g.into_owned(), bad)?;
            self.linear = Some(linear);
            let (da, dl) = (sol.x, sol.y);
            let mut s = 1.0;
            let mut next = None;
            for k in 0..=MAX_HALVINGS {
                let (a1, l1) = (&a + &da * s, &l + &dl * s);
                let tb = self.trial(&base, &dofs, &a1, h);
                let r1 = residual(&tb, &a1, &l1, asm.mass());
                let ok = r1.merit <= (1.0 - 2.0 * ARMIJO_C * s) * res.merit;
                if ok || k == MAX_HALVINGS {
                    next = Some((a1, l1, r1));
                    break;
                }
                s *= 0.5;
            }
            let Some((a1, l1, r1)) = next else { break };
            a = a1;
            l = l1;
            last_phi = r1.phi_max;
            let update = s * da.amax() * beta * h * h;
            if update <= self.abs_tolerance && r1.phi_max <= self.constraint_tolerance {
                converged = true;
                break;
            }
        }
        if !converged {
            return Err(MbsError::NotConverged {
                time: self.history.time,
                iterations: self.max_iterations,
                residual: last_phi,
            });
        }
        *bodies = self.trial(&base, &dofs, &a, h);
        if dense {
            project_velocities(&sys, bodies, &dofs, self.history.time)?;
        } else {
            plan.project_velocities(&sys, bodies, &dofs, self.history.time)?;
        }
        let (_, phi_q_l) = constraint_terms(&sys, bodies, &dofs, &l, dense);
        let q = sys.forces(bodies, &dofs);
        self.history.residual = (phi_q_l - q).as_slice().to_vec();
        self.history.accelerations = a.as_slice().to_vec();
        self.history.multipliers = l.as_slice().to_vec();
        self.history.time += h;
        for (hd, b) in bodies.iter() {
            let finite = b.position.iter().chain(b.linvel.iter()).chain(b.angvel.iter()).all(|x| x.is_finite())
                && b.orientation.coords.iter().all(|x| x.is_finite());
            if !finite {
                return Err(MbsError::Diverged(hd.index()));
            }
        }
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
        let mut h = self.history.clone();
        match &self.work {
            Some(w) => w.export_factors(&mut h.newton),
            None => dense::DenseWork::default().export_factors(&mut h.newton),
        }
        h
    }
    fn restore_history(&mut self, history: &IntegratorHistory) {
        // Field by field into the lists already there (a checkpoint is read every iteration);
        // the pattern names every field, so a new one cannot be forgotten here.
        let IntegratorHistory { time, accelerations, multipliers, residual, previous, newton } = history;
        let h = &mut self.history;
        h.time = *time;
        h.accelerations.clone_from(accelerations);
        h.multipliers.clone_from(multipliers);
        h.residual.clone_from(residual);
        h.previous.clone_from(previous);
        self.work.get_or_insert_with(Box::default).import_factors(newton);
        self.started = !history.accelerations.is_empty() || history.time != 0.0;
    }
    /// The first Newton iterate, `a₁ = a₀`: `q₀ ⊕ (h v₀ + ½ h² a₀)`, `v₀ + h a₀` (constant
    /// velocity before the first step, when there is no `a₀` yet).
    fn predict(&self, bodies: &BodySet, h: f64) -> BodySet {
        let dofs = DofMap::new(bodies);
        if self.history.accelerations.len() != dofs.n {
            let mut next = bodies.clone();
            displace(&mut next, &dofs, &(velocities(bodies, &dofs) * h));
            return next;
        }
        let a0 = DVector::from_column_slice(&self.history.accelerations);
        self.trial(bodies, &dofs, &a0, h)
    }
}
