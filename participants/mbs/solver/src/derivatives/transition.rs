//! The derivative of one backward-Euler step with respect to its start state as well as its
//! inputs: `dx₁ = A dx₀ + B du` on the plain state `x = [δq; v]` (position increments as
//! translations and world rotation increments, then velocities, per free body). Chaining these
//! over the sub-steps of a longer interval gives the derivative of the whole interval
//! ([`chain`]): how an FMU's `fmi3DoStep` of several integrator steps differentiates.
//!
//! From the step's residual (see [`crate::derivatives::step`]) with `q₁ = q₀ ⊕ h v₁`:
//! `dq₁ = T dq₀ + h G dv₁`, `T = diag(I, exp([h ω₁]×))` per body (an increment of the start
//! orientation is carried along by the step's rotation), and
//! `S [dv₁; dμ] = [h B du + M dv₀ − (H − h K) T dq₀ + h L dq₀; −Φ_q T dq₀ / h]`,
//! where `L` is how the start-state lever arms turn the moments of the held forces
//! (`∂(r × f)/∂θ₀ = [f]× [r]×`).

use crate::derivatives::channels::{self, Input, Output};
use crate::derivatives::error::DerivativeError;
use crate::derivatives::rotation::skew;
use crate::derivatives::step::Prepared;
use crate::dynamics::body_set::BodySet;
use crate::solver::bdf::Bdf;
use crate::system::MultibodySystem;
use nalgebra::{DMatrix, DVector, Rotation3, Vector3};

/// One step's state transition and input map (a per-call workspace, no global state).
#[derive(Debug, Clone)]
pub struct StepTransition {
    /// `dx₁/dx₀` (2n × 2n).
    pub state: DMatrix<f64>,
    /// `dx₁/du` (2n × inputs).
    pub input: DMatrix<f64>,
    end: BodySet,
}

impl StepTransition {
    /// Takes the backward-Euler step of `h` from `system` at `t` (loads in the accumulators
    /// as the operating point) and differentiates it. `loads` are the current values of
    /// `inputs` (3 per input, world axes): the forces whose lever arms turn with the start
    /// orientation.
    pub fn new(
        system: &MultibodySystem,
        integrator: &Bdf,
        t: f64,
        h: f64,
        inputs: &[Input],
        loads: &[f64],
    ) -> Result<Self, DerivativeError> {
        let p = Prepared::new(system, integrator, t, h, inputs, &[])?;
        let n = p.dofs.n;
        // T: translations carried unchanged, rotation increments turned by the step's rotation.
        let mut t_map = DMatrix::identity(n, n);
        for (hd, b) in p.end.iter() {
            if let Some(o) = p.dofs.offset(hd) {
                let r = Rotation3::new(b.angvel * h);
                t_map.view_mut((o + 3, o + 3), (3, 3)).copy_from(r.matrix());
            }
        }
        // L: d(generalized force of the held inputs)/dθ₀ through the start lever arms.
        let mut l = DMatrix::zeros(n, n);
        for (i, inp) in inputs.iter().enumerate() {
            let Input::Force { body, point } = inp else { continue };
            let (Some(o), Some(b)) = (p.dofs.offset(*body), system.bodies.get(*body)) else { continue };
            let f = Vector3::new(loads[3 * i], loads[3 * i + 1], loads[3 * i + 2]);
            let r = channels::lever(b, point);
            let block = skew(&f) * skew(&r);
            for (row, col) in (0..3).flat_map(|row| (0..3).map(move |col| (row, col))) {
                l[(o + 3 + row, o + 3 + col)] += block[(row, col)];
            }
        }
        let rhs_q = &l * h - &p.r_q * &t_map;
        let con_q = -(&p.phi_q * &t_map) / h;
        let m = p.phi_q.nrows();
        let solve = |top: DVector<f64>, bottom: DVector<f64>| {
            let mut x = p.padded(&top);
            x.rows_mut(n, m).copy_from(&bottom);
            p.factors.solve(&x).rows(0, n).into_owned()
        };
        // dv₁ per unit dq₀, dv₀, du.
        let mut dv_dq = DMatrix::zeros(n, n);
        let mut dv_dv = DMatrix::zeros(n, n);
        for j in 0..n {
            dv_dq.set_column(j, &solve(rhs_q.column(j).into_owned(), con_q.column(j).into_owned()));
            dv_dv.set_column(j, &solve(p.mass.column(j).into_owned(), DVector::zeros(m)));
        }
        let ni = p.b.ncols();
        let mut dv_du = DMatrix::zeros(n, ni);
        for j in 0..ni {
            dv_du.set_column(j, &solve(p.b.column(j) * h, DVector::zeros(m)));
        }
        let hg = &p.g * h;
        let mut state = DMatrix::zeros(2 * n, 2 * n);
        state.view_mut((0, 0), (n, n)).copy_from(&(&t_map + &hg * &dv_dq));
        state.view_mut((0, n), (n, n)).copy_from(&(&hg * &dv_dv));
        state.view_mut((n, 0), (n, n)).copy_from(&dv_dq);
        state.view_mut((n, n), (n, n)).copy_from(&dv_dv);
        let mut input = DMatrix::zeros(2 * n, ni);
        input.view_mut((0, 0), (n, ni)).copy_from(&(&hg * &dv_du));
        input.view_mut((n, 0), (n, ni)).copy_from(&dv_du);
        Ok(StepTransition { state, input, end: p.end })
    }

    /// The converged state at the step's end.
    pub fn end_state(&self) -> &BodySet {
        &self.end
    }
}

/// The derivative of an interval of steps: `x_N` after steps with transitions `steps` (in
/// order), all with the same inputs held, read through `outputs` at `end` (the last step's
/// end state): `dy/du = C Σₖ (A_N ⋯ A_{k+1}) B_k` (outputs × inputs).
pub fn chain(steps: &[StepTransition], end: &BodySet, outputs: &[Output]) -> Result<DMatrix<f64>, DerivativeError> {
    let Some(first) = steps.first() else {
        return Err(DerivativeError::InvalidStep(0.0));
    };
    let mut x = first.input.clone();
    for s in &steps[1..] {
        x = &s.state * x + &s.input;
    }
    let dofs = crate::solver::assembly::DofMap::new(end);
    let (p, v) = channels::output_maps(end, &dofs, outputs);
    let n = dofs.n;
    Ok(p * x.rows(0, n) + v * x.rows(n, n))
}
