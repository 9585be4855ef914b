//! Newton backward Euler (Chrono's `Euler_implicit`) and fixed-step BDF of order 1 and 2, on
//! the velocities and scaled constraint multipliers of the constrained equations of motion,
//! positions kept on the constraints at every step:
//!
//! - `v₁ = v₀ + a (v₀ − v₋₁) + β h a₁`, `q₁ = q₀ ⊕ (a d₋₁ + β h v₁)` with `d₋₁` the displacement
//!   increment of the step before (`q₀ = q₋₁ ⊕ d₋₁`): order 1 `a = 0`, `β = 1` (backward Euler),
//!   order 2 `a = 1/3`, `β = 2/3`;
//! - residuals `M (v₁ − v₀ − a (v₀ − v₋₁)) − β h Q(q₁, v₁) + Φ_qᵀ μ = 0` (`μ = β h λ`) and
//!   `Φ(q₁)/(β h) = 0`;
//! - Newton matrix `[M − β h C − (β h)² K, Φ_qᵀ; Φ_q, 0]`, assembled per element by the
//!   Jacobian policy; every Newton step damped by Armijo backtracking on the residual
//!   (at most [`MAX_HALVINGS`] halvings, sufficient decrease [`ARMIJO_C`]).
//!
//! BDF2 has no step before the first one (nor after a change of step length or of the number
//! of bodies): that step is taken with order 1, and order 2 from the next.

use crate::dynamics::body_set::BodySet;
use crate::error::MbsError;
use crate::solver::assembly::{displace, set_velocities, velocities};
use crate::solver::integrator::{Integrator, Mechanism};
use crate::solver::jacobian::verify::{verify_due, VerifyReport};
use crate::solver::jacobian::JacobianOptions;
use crate::solver::jacobian::JacobianStats;
use crate::solver::linear::LinearSolverKind;
use crate::solver::newton::elements_named;
use crate::solver::newton_system::{constraint_terms, LinearPlan, LinearStats, MassOp, NewtonAssembly, NewtonMatrix};
use crate::state::IntegratorHistory;
use nalgebra::DVector;

/// Armijo's sufficient-decrease constant.
pub const ARMIJO_C: f64 = 1e-4;
/// Most halvings of one Newton step.
pub const MAX_HALVINGS: usize = 5;

/// Backward Euler (order 1) or BDF2 with Newton iterations and a line search.
#[derive(Debug, Clone)]
pub struct Bdf {
    order: usize,
    /// Most Newton iterations per step.
    pub max_iterations: usize,
    /// Newton stops when the last position update is below this (m; rad for rotations)…
    pub abs_tolerance: f64,
    /// …and every constraint residual is below this (m, or dimensionless for angular rows).
    pub constraint_tolerance: f64,
    /// Most halvings of a Newton step ([`MAX_HALVINGS`]; 0 takes plain Newton steps).
    pub max_halvings: usize,
    /// The Jacobian policy and verification (the solver file's `jacobian:`).
    pub jacobian: JacobianOptions,
    /// The linear solver of the Newton saddle system (the solver file's `solver.type`).
    pub linear_solver: LinearSolverKind,
    time: f64,
    /// The step before: `(h, v₋₁, d₋₁)`, for order 2.
    previous: Option<(f64, DVector<f64>, DVector<f64>)>,
    steps: usize,
    report: Option<VerifyReport>,
    /// What the last assembly of the Jacobians did.
    stats: Option<JacobianStats>,
    /// Halvings taken over the run (what the tests of the line search read).
    pub halvings: usize,
    /// The scaled multipliers `μ = β h λ` of the last converged step (what the step's
    /// derivative, [`crate::derivatives`], needs besides the end state).
    multipliers: DVector<f64>,
    /// Which linear solver ran last.
    linear: Option<LinearStats>,
}

impl Bdf {
    /// BDF of `order` 1 (backward Euler) or 2; another order is [`MbsError::InvalidSetting`].
    pub fn new(order: usize) -> Result<Self, MbsError> {
        if !(1..=2).contains(&order) {
            return Err(MbsError::InvalidSetting(format!("BDF order must be 1 or 2, got {order}")));
        }
        Ok(Bdf { order, ..Bdf::backward_euler() })
    }
    /// Newton backward Euler (Chrono's `Euler_implicit`): BDF of order 1.
    pub fn backward_euler() -> Self {
        Bdf {
            order: 1,
            max_iterations: 20,
            abs_tolerance: 1e-10,
            constraint_tolerance: 1e-12,
            max_halvings: MAX_HALVINGS,
            jacobian: JacobianOptions::default(),
            linear_solver: LinearSolverKind::default(),
            time: 0.0,
            previous: None,
            steps: 0,
            report: None,
            stats: None,
            halvings: 0,
            multipliers: DVector::zeros(0),
            linear: None,
        }
    }
    /// The order in use.
    pub fn order(&self) -> usize {
        self.order
    }
    /// The scaled joint multipliers `μ = β h λ` of the last converged step, joint rows in
    /// order (empty before the first step).
    pub fn multipliers(&self) -> &DVector<f64> {
        &self.multipliers
    }
}

/// The residual at a trial `(v₁, μ)`, with its merit `½ |r|²` (force rows scaled by the mass
/// diagonal, so metres and radians weigh alike) and the largest constraint residual.
struct Residual {
    r: DVector<f64>,
    merit: f64,
    phi_max: f64,
}

impl Integrator for Bdf {
    fn name(&self) -> &'static str {
        if self.order == 1 {
            "backward Euler (Newton)"
        } else {
            "BDF2"
        }
    }

    fn handles_added_mass(&self) -> bool {
        true
    }

    fn step_full(&mut self, bodies: &mut BodySet, mech: Mechanism<'_>, h: f64) -> Result<(), MbsError> {
        let (sys, dofs) = mech.assembly(bodies);
        if let Some(r) = verify_due(&self.jacobian, self.steps, &sys, bodies, &dofs, self.time) {
            self.report = Some(r);
        }
        let added = mech.added_mass;
        let m = mech.joints.equations();
        let n = dofs.n;
        let v0 = velocities(bodies, &dofs);
        // Order 2 only with a step before of the same length and layout.
        let (beta, extra_v, extra_d) = match &self.previous {
            Some((hp, vp, dp)) if self.order == 2 && *hp == h && vp.len() == n => {
                (2.0 / 3.0, (&v0 - vp) / 3.0, dp / 3.0)
            }
            _ => (1.0, DVector::zeros(n), DVector::zeros(n)),
        };
        let bh = beta * h;
        let base = bodies.clone();
        let vhat = &v0 + &extra_v;
        let trial = |v1: &DVector<f64>| {
            let mut b = base.clone();
            displace(&mut b, &dofs, &(&extra_d + v1 * bh));
            set_velocities(&mut b, &dofs, v1);
            b
        };
        let plan = LinearPlan::new(self.linear_solver, &sys, bodies, &dofs, added);
        let dense = plan.dense();
        let residual = |b: &BodySet, v1: &DVector<f64>, mu: &DVector<f64>, mass: MassOp| {
            let (phi, phi_q_mu) = constraint_terms(&sys, b, &dofs, mu, dense);
            let q = sys.forces(b, &dofs);
            let rv = mass.mul(&(v1 - &vhat)) - q * bh + phi_q_mu;
            let mut r = DVector::zeros(n + m);
            r.rows_mut(0, n).copy_from(&rv);
            r.rows_mut(n, m).copy_from(&(&phi / bh));
            let diag = mass.diagonal();
            let scaled: f64 = (0..n).map(|i| (r[i] / diag[i].max(f64::MIN_POSITIVE)).powi(2)).sum::<f64>()
                + r.rows(n, m).norm_squared();
            Residual { r, merit: 0.5 * scaled, phi_max: phi.amax() }
        };
        let bad =
            |b: &BodySet, time: f64| MbsError::NonFiniteNewtonStep { time, elements: elements_named(&sys, b, &dofs) };
        let mut v1 = v0.clone();
        let mut mu = DVector::zeros(m);
        let mut converged = false;
        let mut last_phi = 0.0;
        for _ in 0..self.max_iterations {
            let tb = trial(&v1);
            let asm = NewtonAssembly::new(&plan, &sys, &tb, &dofs, added, self.jacobian.policy)?;
            self.stats = Some(asm.stats());
            let res = residual(&tb, &v1, &mu, asm.mass());
            let newton = match &asm {
                NewtonAssembly::Dense(a) => NewtonMatrix::Dense(
                    &a.mass - &a.damping * bh - &a.stiffness * (bh * bh),
                    a.phi_q.transpose(),
                    a.phi_q.clone(),
                ),
                NewtonAssembly::Sparse(a) => NewtonMatrix::Sparse(a.newton(bh, bh * bh, 1.0)),
            };
            let f = -res.r.rows(0, n);
            let g = -res.r.rows(n, m);
            let (sol, linear) =
                plan.solve(newton.saddle(), &f.into_owned(), &g.into_owned(), || bad(&base, self.time))?;
            self.linear = Some(linear);
            let (dv, dmu) = (sol.x, sol.y);
            let mut s = 1.0;
            let mut next = None;
            for k in 0..=self.max_halvings {
                let (v_try, mu_try) = (&v1 + &dv * s, &mu + &dmu * s);
                let r1 = residual(&trial(&v_try), &v_try, &mu_try, asm.mass());
                let ok = r1.merit.is_finite() && r1.merit <= (1.0 - 2.0 * ARMIJO_C * s) * res.merit;
                if ok || k == self.max_halvings {
                    next = Some((v_try, mu_try, r1));
                    break;
                }
                s *= 0.5;
                self.halvings += 1;
            }
            let Some((v_next, mu_next, r1)) = next else { break };
            v1 = v_next;
            mu = mu_next;
            last_phi = r1.phi_max;
            if !v1.iter().all(|x| x.is_finite()) {
                return Err(bad(&base, self.time));
            }
            let update = s * dv.amax() * bh;
            if update <= self.abs_tolerance && r1.phi_max <= self.constraint_tolerance {
                converged = true;
                break;
            }
        }
        if !converged {
            return Err(MbsError::NotConverged {
                time: self.time,
                iterations: self.max_iterations,
                residual: last_phi,
            });
        }
        *bodies = trial(&v1);
        for (hd, b) in bodies.iter() {
            let finite = b.position.iter().chain(b.linvel.iter()).chain(b.angvel.iter()).all(|x| x.is_finite())
                && b.orientation.coords.iter().all(|x| x.is_finite());
            if !finite {
                return Err(MbsError::Diverged(hd.index()));
            }
        }
        self.previous = Some((h, v0, &extra_d + &v1 * bh));
        self.multipliers = mu;
        self.time += h;
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
        let previous = match &self.previous {
            Some((h, v, d)) => std::iter::once(*h).chain(v.iter().copied()).chain(d.iter().copied()).collect(),
            None => Vec::new(),
        };
        IntegratorHistory { time: self.time, previous, ..Default::default() }
    }
    fn restore_history(&mut self, history: &IntegratorHistory) {
        self.time = history.time;
        let p = &history.previous;
        self.previous = (p.len() >= 3 && p.len() % 2 == 1).then(|| {
            let n = (p.len() - 1) / 2;
            (p[0], DVector::from_column_slice(&p[1..1 + n]), DVector::from_column_slice(&p[1 + n..]))
        });
    }
}

#[cfg(test)]
mod tests;
