//! The HHT step of systems the dense LU solves (few bodies, e.g. RM3's float and spar), in
//! buffers kept between steps: after the first step nothing is allocated, the Newton matrix is
//! not factored again while it equals the last one factored bit for bit, with
//! `keep_newton_matrix` (the default) iterations after a step's first solve with its factors
//! while the line search takes full steps and the updates contract (modified Newton), with
//! `keep_factors_across_steps` (the default) a step starts with the factors the step before
//! left (they are saved and restored with the history), the residual at the start of an
//! iteration is the line search's last one when the mass matrix has not changed, and the
//! velocity projection takes `M⁻¹` body by body and reuses the accepted state's `Φ_q`.
//!
//! The arithmetic is the general path's ([`super::Hht::step_full`] with `dense_in_place` off):
//! the same assembly, the same formulas in the same order and nalgebra's LU steps, so with full
//! Newton every iterate equals it bit for bit; the projection's `M⁻¹` and products are formed
//! in another order than nalgebra's LU inverse and blocked product (which allocates), so the end
//! velocities agree to round-off. Modified Newton stops on the same test, so its answer meets
//! the same tolerances (tests_dense.rs measures both).

use super::{Hht, ARMIJO_C, MAX_HALVINGS};
use crate::dynamics::body_set::BodySet;
use crate::error::MbsError;
use crate::solver::assembly::{displace, set_velocities, DofMap, System};
use crate::solver::assembly_into::velocities_into;
use crate::solver::integrator::Mechanism;
use crate::solver::jacobian::JacobianPolicy;
use crate::solver::linear::dense_kept::{same_bits, KeptLu};
use crate::solver::linear::LinearSolverKind;
use crate::solver::newton::elements_named;
use crate::solver::newton_system::LinearStats;
use crate::state::NewtonFactors;
use nalgebra::{DMatrix, DVector, Vector3};

/// Kept factors serve the next iteration only while each update made with them is at most this
/// fraction of the one before (a linear rate of 1/4 or better: the distance to the root is then
/// at most a third of the last update, so the stopping test on the update keeps its meaning);
/// otherwise the next iteration factors the matrix at its own state.
const CONTRACTION: f64 = 0.25;

/// The buffers of the dense step, sized on the first step (and again only if the system's
/// size changes).
#[derive(Debug, Clone)]
pub(crate) struct DenseWork {
    dofs: DofMap,
    base: BodySet,
    trial: BodySet,
    a0: DVector<f64>,
    v0: DVector<f64>,
    r0: DVector<f64>,
    a: DVector<f64>,
    l: DVector<f64>,
    a1: DVector<f64>,
    l1: DVector<f64>,
    dq: DVector<f64>,
    v1: DVector<f64>,
    /// `M + A∞` at the current trial state, and the one before it (what `r1` was made with).
    mass: DMatrix<f64>,
    mass_prev: DMatrix<f64>,
    stiffness: DMatrix<f64>,
    damping: DMatrix<f64>,
    newton: DMatrix<f64>,
    rhs: DVector<f64>,
    r: DVector<f64>,
    r1: DVector<f64>,
    scratch: Scratch,
    lu: KeptLu,
    /// The bits of the poses `mass` was built at (per free body its orientation, and its
    /// position when the added mass reads positions), within the step.
    mass_pose: Vec<u64>,
    /// `h` and `α` (bits) of the Newton matrix `lu` holds the factors of.
    factors_key: [u64; 2],
    projection: Projection,
}

/// What one residual evaluation writes besides the residual.
#[derive(Debug, Clone, Default)]
struct Scratch {
    phi: DVector<f64>,
    phi_q: DMatrix<f64>,
    phi_q_l: DVector<f64>,
    q: DVector<f64>,
    ma: DVector<f64>,
}

/// The velocity projection's buffers.
#[derive(Debug, Clone, Default)]
struct Projection {
    /// `M⁻¹ Φ_qᵀ` and `Φ_q M⁻¹ Φ_qᵀ`.
    w: DMatrix<f64>,
    s: DMatrix<f64>,
    lu: KeptLu,
    v: DVector<f64>,
    y: DVector<f64>,
    t: DVector<f64>,
    /// Per free body (in body order) its coordinate offset, and per constraint row and body
    /// whether the row has a non-zero entry in the body's six columns (row-major, `m` × bodies).
    offsets: Vec<usize>,
    touches: Vec<bool>,
}

impl Default for DenseWork {
    fn default() -> Self {
        let empty = BodySet::new(Vector3::zeros());
        DenseWork {
            dofs: DofMap::new(&empty),
            base: empty.clone(),
            trial: empty,
            a0: DVector::zeros(0),
            v0: DVector::zeros(0),
            r0: DVector::zeros(0),
            a: DVector::zeros(0),
            l: DVector::zeros(0),
            a1: DVector::zeros(0),
            l1: DVector::zeros(0),
            dq: DVector::zeros(0),
            v1: DVector::zeros(0),
            mass: DMatrix::zeros(0, 0),
            mass_prev: DMatrix::zeros(0, 0),
            stiffness: DMatrix::zeros(0, 0),
            damping: DMatrix::zeros(0, 0),
            newton: DMatrix::zeros(0, 0),
            rhs: DVector::zeros(0),
            r: DVector::zeros(0),
            r1: DVector::zeros(0),
            scratch: Scratch::default(),
            lu: KeptLu::default(),
            mass_pose: Vec::new(),
            factors_key: [0; 2],
            projection: Projection::default(),
        }
    }
}

fn fit_v(v: &mut DVector<f64>, n: usize) {
    if v.len() != n {
        *v = DVector::zeros(n);
    }
}

fn fit_m(a: &mut DMatrix<f64>, r: usize, c: usize) {
    if a.shape() != (r, c) {
        *a = DMatrix::zeros(r, c);
    }
}

impl DenseWork {
    /// The Newton matrix's factorisations made and saved so far (tests, benchmark).
    pub(crate) fn lu_counts(&self) -> (usize, usize) {
        (self.lu.factorisations, self.lu.reuses)
    }

    /// The kept factors of the Newton matrix into a history being saved.
    pub(crate) fn export_factors(&self, out: &mut NewtonFactors) {
        self.lu.export(out, self.factors_key);
    }

    /// Factors from a restored history (none when it has none): the next step starts from them
    /// as the step after the save did.
    pub(crate) fn import_factors(&mut self, f: &NewtonFactors) {
        self.factors_key = self.lu.import(f);
    }

    /// Gives every buffer its size for `n` coordinates and `m` constraint rows.
    fn fit(&mut self, n: usize, m: usize) {
        for v in [&mut self.a0, &mut self.v0, &mut self.r0, &mut self.a, &mut self.a1, &mut self.dq, &mut self.v1] {
            fit_v(v, n);
        }
        for v in [&mut self.l, &mut self.l1] {
            fit_v(v, m);
        }
        for v in [&mut self.rhs, &mut self.r, &mut self.r1] {
            fit_v(v, n + m);
        }
        for a in [&mut self.mass, &mut self.mass_prev, &mut self.stiffness, &mut self.damping] {
            fit_m(a, n, n);
        }
        fit_m(&mut self.newton, n + m, n + m);
        let s = &mut self.scratch;
        fit_v(&mut s.phi, m);
        fit_m(&mut s.phi_q, m, n);
        for v in [&mut s.phi_q_l, &mut s.q, &mut s.ma] {
            fit_v(v, n);
        }
        let p = &mut self.projection;
        fit_m(&mut p.w, n, m);
        fit_m(&mut p.s, m, m);
        fit_v(&mut p.v, n);
        fit_v(&mut p.t, n);
        fit_v(&mut p.y, m);
    }

    /// The Newton matrix `[M − (1+α)(β h² K + γ h C), (1+α)Φ_qᵀ; Φ_q, 0]` (the general path's
    /// blocks, entry by entry) from the kept `M`, `K`, `C` and the residual's `Φ_q`.
    fn newton_matrix(&mut self, n: usize, m: usize, c_k: f64, c_c: f64, s: f64) {
        for j in 0..n {
            for i in 0..n {
                self.newton[(i, j)] =
                    self.mass[(i, j)] - (self.stiffness[(i, j)] * c_k + self.damping[(i, j)] * c_c) * s;
            }
        }
        let phi_q = &self.scratch.phi_q;
        for r in 0..m {
            for i in 0..n {
                self.newton[(i, n + r)] = phi_q[(r, i)] * s;
                self.newton[(n + r, i)] = phi_q[(r, i)];
            }
            for c in 0..m {
                self.newton[(n + r, n + c)] = 0.0;
            }
        }
    }

    /// Whether `self.trial`'s poses, as the mass matrix reads them, equal bit for bit those
    /// `self.mass` was built at; when not (or `built` is false), records them for the build.
    fn mass_pose_unchanged(&mut self, built: bool, positions: bool) -> bool {
        let mut same = built;
        let mut k = 0;
        for (h, b) in self.trial.iter() {
            if self.dofs.offset(h).is_none() {
                continue;
            }
            let q = b.orientation.coords;
            let p = if positions { b.position } else { Vector3::zeros() };
            for x in [q.x, q.y, q.z, q.w, p.x, p.y, p.z] {
                let bits = x.to_bits();
                if k == self.mass_pose.len() {
                    // Sized on the first step (a body set does not change its free bodies often).
                    self.mass_pose.push(bits);
                    same = false;
                } else if self.mass_pose[k] != bits {
                    self.mass_pose[k] = bits;
                    same = false;
                }
                k += 1;
            }
        }
        self.mass_pose.truncate(k);
        same
    }

    /// The trial state at accelerations `a` ([`Hht::trial`]'s formulas) into `self.trial`.
    /// Only the motion is copied from `self.base`: the step's start makes `self.trial` a full
    /// copy of it, and nothing else changes within a step.
    fn trial(&mut self, use_a1: bool, gamma: f64, beta: f64, h: f64) {
        let a = if use_a1 { &self.a1 } else { &self.a };
        for i in 0..self.dofs.n {
            let (a0, v0) = (self.a0[i], self.v0[i]);
            self.dq[i] = v0 * h + (a0 * (0.5 - beta) + a[i] * beta) * (h * h);
            self.v1[i] = v0 + (a0 * (1.0 - gamma) + a[i] * gamma) * h;
        }
        self.trial.copy_motion_from(&self.base);
        displace(&mut self.trial, &self.dofs, &self.dq);
        set_velocities(&mut self.trial, &self.dofs, &self.v1);
    }
}

/// `Φ_qᵀ λ` into `out` (`n` rows) read straight from `Φ_q` (`m × n`), without a transposed
/// copy, summed as nalgebra's product of the transpose sums (column by column of `Φ_qᵀ`:
/// `Φ_q[0,i] λ₀`, then `Φ_q[j,i] λ_j + …` for `j = 1, 2, …`), so the same bits. A column of
/// `Φ_q` is contiguous (column-major), so each entry is one pass over it.
fn phi_q_t_mul(phi_q: &DMatrix<f64>, l: &DVector<f64>, out: &mut DVector<f64>) {
    let m = phi_q.nrows();
    if m == 0 {
        out.fill(0.0);
        return;
    }
    let (l, cols) = (l.as_slice(), phi_q.as_slice());
    for (col, o) in cols.chunks_exact(m).zip(out.iter_mut()) {
        let mut sum = col[0] * l[0];
        for (x, y) in col[1..].iter().zip(&l[1..]) {
            sum += x * y;
        }
        *o = sum;
    }
}

/// HHT's constants of one step.
#[derive(Debug, Clone, Copy)]
struct Coefficients {
    alpha: f64,
    beta: f64,
    h: f64,
}

/// The residual at `bodies` for accelerations `a` and multipliers `l` with mass matrix `mass`
/// into `r`; returns the merit and `|Φ|∞` (the general path's `residual` closure).
#[allow(clippy::too_many_arguments)]
fn residual(
    sys: &System,
    dofs: &DofMap,
    bodies: &BodySet,
    (a, l): (&DVector<f64>, &DVector<f64>),
    mass: &DMatrix<f64>,
    r0: &DVector<f64>,
    k: Coefficients,
    s: &mut Scratch,
    r: &mut DVector<f64>,
) -> (f64, f64) {
    let (n, m) = (dofs.n, s.phi.len());
    sys.constraints_into(bodies, dofs, &mut s.phi, &mut s.phi_q);
    phi_q_t_mul(&s.phi_q, l, &mut s.phi_q_l);
    sys.forces_into(bodies, dofs, &mut s.q);
    mass.mul_to(a, &mut s.ma);
    for i in 0..n {
        r[i] = s.ma[i] + (s.phi_q_l[i] - s.q[i]) * (1.0 + k.alpha) - r0[i] * k.alpha;
    }
    for i in 0..m {
        r[n + i] = s.phi[i] / (k.beta * k.h * k.h);
    }
    let scaled: f64 =
        (0..n).map(|i| (r[i] / mass[(i, i)].max(f64::MIN_POSITIVE)).powi(2)).sum::<f64>() + r.rows(n, m).norm_squared();
    (0.5 * scaled, s.phi.amax())
}

/// Whether the dense step takes a system: dense LU for its size, every force element with
/// analytical Jacobians, and the history of a started integrator of this size.
fn eligible(hht: &Hht, mech: &Mechanism<'_>, n: usize, m: usize) -> bool {
    n + m > 0
        && hht.linear_solver.resolve(n + m) == LinearSolverKind::DenseLu
        && matches!(hht.jacobian.policy.resolve(mech.forces), Ok(JacobianPolicy::Analytical))
        && hht.started
        && hht.history.accelerations.len() == n
        && hht.history.multipliers.len() == m
        && hht.history.residual.len() == n
}

impl Hht {
    /// One step in the kept buffers; `None` when this path does not take the system (or an
    /// element gives no analytical Jacobian at a trial state): nothing has changed then, and
    /// the general path takes the step from its start.
    pub(super) fn step_dense(
        &mut self,
        bodies: &mut BodySet,
        mech: Mechanism<'_>,
        h: f64,
    ) -> Option<Result<(), MbsError>> {
        let mut w = self.work.take().unwrap_or_default();
        let out = self.step_dense_with(&mut w, bodies, mech, h);
        self.work = Some(w);
        out
    }

    fn step_dense_with(
        &mut self,
        w: &mut DenseWork,
        bodies: &mut BodySet,
        mech: Mechanism<'_>,
        h: f64,
    ) -> Option<Result<(), MbsError>> {
        w.dofs.refill(bodies);
        let (n, m) = (w.dofs.n, mech.joints.equations());
        if !eligible(self, &mech, n, m) {
            return None;
        }
        let sys = System { joints: mech.joints, forces: mech.forces, force_numerical: false };
        self.verify_if_due(&sys, bodies, &w.dofs);
        w.fit(n, m);
        let (gamma, beta) = self.coefficients();
        let k = Coefficients { alpha: self.alpha, beta, h };
        let time = self.history.time;
        w.r0.as_mut_slice().copy_from_slice(&self.history.residual);
        w.a0.as_mut_slice().copy_from_slice(&self.history.accelerations);
        w.a.copy_from(&w.a0);
        w.l.as_mut_slice().copy_from_slice(&self.history.multipliers);
        w.base.copy_from(bodies);
        w.trial.copy_from(bodies);
        velocities_into(&w.base, &w.dofs, &mut w.v0);
        let bad =
            |w: &DenseWork| MbsError::NonFiniteNewtonStep { time, elements: elements_named(&sys, &w.base, &w.dofs) };
        let (mut converged, mut last_phi) = (false, 0.0);
        // Whether `w.trial` is the trial state of `w.a` and `w.r1` its residual with `w.mass`.
        let mut have_r1 = false;
        w.trial(false, gamma, beta, h);
        // Whether the kept factors may serve this iteration (modified Newton, with
        // `keep_newton_matrix`): made for this `h` and `α` (in this step, or in an earlier one
        // with `keep_factors_across_steps`), the last line search took the full step, and the
        // iterations with them contract (`CONTRACTION`).
        let key = [h.to_bits(), self.alpha.to_bits()];
        let mut factors_fit =
            self.keep_factors_across_steps && w.factors_key == key && w.lu.factored_size() == Some(n + m);
        // The last update made with the kept factors (what the next one is compared with).
        let mut last_update: Option<f64> = None;
        // Whether `w.mass` was built in this step (the bodies' masses, inertias and the added
        // mass do not change within a step, so it is a function of the poses it reads).
        let mut mass_built = false;
        let positions = mech.added_mass.is_some_and(|a| a.reads_positions());
        for _ in 0..self.max_iterations {
            let lagged = self.keep_newton_matrix && factors_fit;
            if !lagged {
                let stats = sys.analytical_jacobians_into(&w.trial, &w.dofs, &mut w.stiffness, &mut w.damping)?;
                self.stats = Some(stats);
            }
            // `r1` was made with `w.mass`: it serves when the mass matrix is the same.
            let same_mass = if w.mass_pose_unchanged(mass_built, positions) {
                true
            } else {
                std::mem::swap(&mut w.mass, &mut w.mass_prev);
                if let Err(e) = sys.mass_into(&w.trial, &w.dofs, mech.added_mass, &mut w.mass) {
                    return Some(Err(e));
                }
                mass_built = true;
                same_bits(&w.mass, &w.mass_prev)
            };
            let merit = if have_r1 && same_mass {
                std::mem::swap(&mut w.r, &mut w.r1);
                0.5 * ((0..n).map(|i| (w.r[i] / w.mass[(i, i)].max(f64::MIN_POSITIVE)).powi(2)).sum::<f64>()
                    + w.r.rows(n, m).norm_squared())
            } else {
                residual(&sys, &w.dofs, &w.trial, (&w.a, &w.l), &w.mass, &w.r0, k, &mut w.scratch, &mut w.r).0
            };
            if !lagged {
                w.newton_matrix(n, m, beta * h * h, gamma * h, 1.0 + self.alpha);
                w.lu.factor(&w.newton);
                w.factors_key = key;
                last_update = None;
            }
            for i in 0..n + m {
                w.rhs[i] = -w.r[i];
            }
            if !w.lu.solve_mut(&mut w.rhs) || !w.rhs.iter().all(|v| v.is_finite()) {
                return Some(Err(bad(w)));
            }
            self.linear = Some(LinearStats {
                requested: self.linear_solver,
                method: LinearSolverKind::DenseLu,
                unknowns: n + m,
                sweeps: 0,
            });
            let mut step = 1.0;
            let mut phi1 = 0.0;
            for halving in 0..=MAX_HALVINGS {
                for i in 0..n {
                    w.a1[i] = w.a[i] + w.rhs[i] * step;
                }
                for i in 0..m {
                    w.l1[i] = w.l[i] + w.rhs[n + i] * step;
                }
                w.trial(true, gamma, beta, h);
                let (merit1, p1) =
                    residual(&sys, &w.dofs, &w.trial, (&w.a1, &w.l1), &w.mass, &w.r0, k, &mut w.scratch, &mut w.r1);
                phi1 = p1;
                if merit1 <= (1.0 - 2.0 * ARMIJO_C * step) * merit || halving == MAX_HALVINGS {
                    break;
                }
                step *= 0.5;
            }
            std::mem::swap(&mut w.a, &mut w.a1);
            std::mem::swap(&mut w.l, &mut w.l1);
            have_r1 = true;
            let change = step * w.rhs.rows(0, n).amax();
            let contracts = last_update.is_none_or(|before| change <= CONTRACTION * before);
            factors_fit = step == 1.0 && contracts;
            last_update = Some(change);
            last_phi = phi1;
            let update = change * beta * h * h;
            if update <= self.abs_tolerance && phi1 <= self.constraint_tolerance {
                converged = true;
                break;
            }
        }
        if !converged {
            return Some(Err(MbsError::NotConverged { time, iterations: self.max_iterations, residual: last_phi }));
        }
        // `w.trial` is the trial state of the accepted accelerations, and the scratch holds the
        // constraints there (the line search's last residual): the projection changes only
        // velocities, on which `Φ` and `Φ_q` do not depend.
        // `bodies` is `w.base` but for the motion.
        bodies.copy_motion_from(&w.trial);
        if let Err(e) = project_velocities(&sys, bodies, &w.dofs, &w.scratch.phi_q, &mut w.projection, time) {
            return Some(Err(e));
        }
        let s = &mut w.scratch;
        phi_q_t_mul(&s.phi_q, &w.l, &mut s.phi_q_l);
        sys.forces_into(bodies, &w.dofs, &mut s.q);
        let history = &mut self.history;
        for i in 0..n {
            history.residual[i] = s.phi_q_l[i] - s.q[i];
        }
        history.accelerations.copy_from_slice(w.a.as_slice());
        history.multipliers.copy_from_slice(w.l.as_slice());
        history.time += h;
        for (hd, b) in bodies.iter() {
            let finite = b.position.iter().chain(b.linvel.iter()).chain(b.angvel.iter()).all(|x| x.is_finite())
                && b.orientation.coords.iter().all(|x| x.is_finite());
            if !finite {
                return Some(Err(MbsError::Diverged(hd.index())));
            }
        }
        self.steps += 1;
        Some(Ok(()))
    }
}

/// [`crate::solver::newton::project_velocities`] in the kept buffers: `v ← v − M⁻¹Φ_qᵀ
/// (Φ_q M⁻¹ Φ_qᵀ)⁻¹ Φ_q v` with `M` the bodies' own mass, block-diagonal, so `M⁻¹` is taken
/// body by body (`1/m` and the world inverse inertia) instead of by an LU of the whole of `M`:
/// the same projection to round-off.
fn project_velocities(
    sys: &System,
    bodies: &mut BodySet,
    dofs: &DofMap,
    phi_q: &DMatrix<f64>,
    p: &mut Projection,
    time: f64,
) -> Result<(), MbsError> {
    if sys.joints.is_empty() {
        return Ok(());
    }
    let bad = |b: &BodySet| MbsError::NonFiniteNewtonStep { time, elements: elements_named(sys, b, dofs) };
    let m = phi_q.nrows();
    // Which rows reach which bodies (a joint's rows reach its two bodies at most).
    p.offsets.clear();
    p.offsets.extend(bodies.iter().filter_map(|(h, _)| dofs.offset(h)));
    let nb = p.offsets.len();
    p.touches.resize(m * nb, false);
    for r in 0..m {
        for (k, &o) in p.offsets.iter().enumerate() {
            p.touches[r * nb + k] = (0..6).any(|j| phi_q[(r, o + j)] != 0.0);
        }
    }
    // W = M⁻¹ Φ_qᵀ, block by block (zeros where the row does not reach the body).
    for (body, (h, b)) in bodies.iter().filter(|(h, _)| dofs.offset(*h).is_some()).enumerate() {
        let Some(o) = dofs.offset(h) else { continue };
        let inv_mass = 1.0 / b.mass();
        let inv_inertia = b.inv_inertia_world();
        for c in 0..m {
            if !p.touches[c * nb + body] {
                p.w.view_mut((o, c), (6, 1)).fill(0.0);
                continue;
            }
            for k in 0..3 {
                p.w[(o + k, c)] = phi_q[(c, o + k)] * inv_mass;
            }
            let turn = Vector3::new(phi_q[(c, o + 3)], phi_q[(c, o + 4)], phi_q[(c, o + 5)]);
            let wt = inv_inertia * turn;
            for k in 0..3 {
                p.w[(o + 3 + k, c)] = wt[k];
            }
        }
    }
    // S = Φ_q W by hand (nalgebra hands products this size to a blocked kernel that
    // allocates), over the bodies both rows reach (the other products are zeros), the upper
    // triangle mirrored: S is symmetric (Φ_q M⁻¹ Φ_qᵀ; the mirrored entries differ from the
    // ones summed the other way round by round-off only).
    for r in 0..m {
        for c in r..m {
            let mut sum = 0.0;
            for (k, &o) in p.offsets.iter().enumerate() {
                if p.touches[r * nb + k] && p.touches[c * nb + k] {
                    for j in o..o + 6 {
                        sum += phi_q[(r, j)] * p.w[(j, c)];
                    }
                }
            }
            p.s[(r, c)] = sum;
            p.s[(c, r)] = sum;
        }
    }
    p.lu.factor(&p.s);
    velocities_into(bodies, dofs, &mut p.v);
    phi_q.mul_to(&p.v, &mut p.y);
    if !p.lu.solve_mut(&mut p.y) {
        return Err(bad(bodies));
    }
    p.w.mul_to(&p.y, &mut p.t);
    p.v -= &p.t;
    if !p.v.iter().all(|x| x.is_finite()) {
        return Err(bad(bodies));
    }
    set_velocities(bodies, dofs, &p.v);
    Ok(())
}

#[cfg(test)]
mod tests {
    use super::phi_q_t_mul;
    use nalgebra::{DMatrix, DVector};

    /// `Φ_qᵀ λ` read from `Φ_q` equals nalgebra's product of the transposed copy bit for bit
    /// (entries of mixed sign and magnitude, exact zeros, and no rows at all).
    #[test]
    fn transpose_product_equals_nalgebra_bit_for_bit() {
        for (m, n) in [(0, 4), (1, 6), (10, 12), (7, 3)] {
            let phi_q = DMatrix::from_fn(m, n, |r, c| {
                if (r + c) % 4 == 0 {
                    0.0
                } else {
                    ((r * 5 + c * 11 + 1) as f64 * 0.37).sin() * 10f64.powi((c % 5) as i32 - 2)
                }
            });
            let l = DVector::from_fn(m, |i, _| ((i as f64) * 1.7 - 3.0).cos() * 1e3);
            let mut expected = DVector::from_element(n, 9.0);
            phi_q.transpose().mul_to(&l, &mut expected);
            let mut got = DVector::from_element(n, 9.0);
            phi_q_t_mul(&phi_q, &l, &mut got);
            let bits = |v: &DVector<f64>| v.iter().map(|x| x.to_bits()).collect::<Vec<_>>();
            assert_eq!(bits(&got), bits(&expected), "{m} x {n}");
        }
    }
}
