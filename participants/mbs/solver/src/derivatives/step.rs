//! The derivative of one backward-Euler step (Newton, as [`crate::Bdf`] takes it) with
//! respect to the loads held over the step: forward (seed inputs, read outputs) and adjoint
//! (seed outputs, read inputs) from one assembly and one factorisation, any number of seeds.
//!
//! The step solves `R(v₁, μ; u) = 0` with `R_v = M(q₁)(v₁ − v₀) − h Q(q₁, v₁; u) + Φ_q(q₁)ᵀ μ`,
//! `R_c = Φ(q₁)/h` and `q₁ = q₀ ⊕ h v₁`. Differentiating the converged solution (implicit
//! function theorem): `S [dv; dμ] = [h B du; 0]`, with the consistent matrix
//!
//! `S = [M − h C − (h² K − h H) G, Φ_qᵀ; Φ_q G, 0]`,
//!
//! `K = ∂Q/∂q`, `C = ∂Q/∂v`, `H = ∂(M w + Φ_qᵀ μ)/∂q` ([`crate::derivatives::consistent`]),
//! `G = diag(I, J_l(h ω₁))` per body (rotation vectors to world increments). Outputs read
//! `dy = C_y [h G dv; dv]`. Without joints and with `H = 0`, `G = I` this is the first-order
//! form `(I − h J)⁻¹ h B` of the state `[q; v]` after eliminating `dq = h dv`.

use crate::derivatives::channels::{self, Input, Output};
use crate::derivatives::consistent::{geometric_stiffness, gyroscopic_stiffness};
use crate::derivatives::error::DerivativeError;
use crate::derivatives::factor::Factored;
use crate::derivatives::rotation::left_jacobian;
use crate::dynamics::body_set::BodySet;
use crate::solver::assembly::{velocities, DofMap, System};
use crate::solver::bdf::Bdf;
use crate::solver::integrator::Integrator;
use crate::solver::jacobian::JacobianPolicy;
use crate::state::IntegratorHistory;
use crate::system::MultibodySystem;
use nalgebra::{DMatrix, DVector, Matrix3};

/// One step's derivative, ready to be seeded: the factorised consistent Newton matrix and the
/// input and output maps (a per-instance workspace: no global state, `Send + Sync`).
#[derive(Debug, Clone)]
pub struct StepDerivative {
    factors: Factored,
    /// Free coordinates.
    n: usize,
    /// Step length.
    h: f64,
    /// Generalized forces of unit inputs (n × inputs).
    b: DMatrix<f64>,
    /// Outputs per velocity change `dv` (outputs × n), position part included.
    c: DMatrix<f64>,
    end: BodySet,
}

/// `G`: per free body `I` on translations and `J_l(h ω₁)` on rotations.
pub(crate) fn rotation_map(end: &BodySet, dofs: &DofMap, h: f64) -> DMatrix<f64> {
    let mut g = DMatrix::identity(dofs.n, dofs.n);
    for (hd, b) in end.iter() {
        if let Some(o) = dofs.offset(hd) {
            let j: Matrix3<f64> = left_jacobian(&(b.angvel * h));
            g.view_mut((o + 3, o + 3), (3, 3)).copy_from(&j);
        }
    }
    g
}

/// What the step's derivatives are built from: the factorised consistent matrix `S` and the
/// pieces of its right-hand sides, at the converged end of the step.
#[derive(Debug, Clone)]
pub(crate) struct Prepared {
    pub factors: Factored,
    pub dofs: DofMap,
    /// Generalized forces of unit inputs at the step's start (n × inputs).
    pub b: DMatrix<f64>,
    /// `G` at the end (rotation vectors to world increments).
    pub g: DMatrix<f64>,
    /// `∂R_v/∂q₁ = H − h K` at the end (n × n).
    pub r_q: DMatrix<f64>,
    /// `M(q₁)`, added mass included.
    pub mass: DMatrix<f64>,
    /// `Φ_q(q₁)` (m × n).
    pub phi_q: DMatrix<f64>,
    pub end: BodySet,
}

impl Prepared {
    /// Takes the step and factors `S` (see [`StepDerivative::new`]).
    pub fn new(
        system: &MultibodySystem,
        integrator: &Bdf,
        t: f64,
        h: f64,
        inputs: &[Input],
        outputs: &[Output],
    ) -> Result<Self, DerivativeError> {
        if !(h > 0.0 && h.is_finite()) {
            return Err(DerivativeError::InvalidStep(h));
        }
        let mut sys = system.clone();
        let dofs = DofMap::new(&sys.bodies);
        channels::check(&sys.bodies, &dofs, inputs, outputs)?;
        let b = channels::input_map(&sys.bodies, &dofs, inputs);
        let v0 = velocities(&sys.bodies, &dofs);
        let mut bdf = integrator.clone();
        bdf.restore_history(&IntegratorHistory { time: t, ..Default::default() });
        sys.step_at(&mut bdf, t, h)?;
        let end = sys.bodies.clone();
        let v1 = velocities(&end, &dofs);
        let mu = bdf.multipliers().clone();
        let view = System { joints: &sys.joints, forces: &sys.forces, force_numerical: false };
        let added = sys.added_mass.as_ref();
        let asm = view.assemble_full(&end, &dofs, added, bdf.jacobian.policy)?;
        let mut k = asm.stiffness;
        if asm.stats.policy != JacobianPolicy::Numerical {
            k += gyroscopic_stiffness(&end, &dofs);
        }
        let geo = geometric_stiffness(&view, &end, &dofs, added, &(&v1 - &v0), &mu)?;
        let g = rotation_map(&end, &dofs, h);
        let n = dofs.n;
        let m = asm.phi_q.nrows();
        let r_q = geo - k * h;
        let top = &asm.mass - &asm.damping * h + &r_q * h * &g;
        let mut s = DMatrix::zeros(n + m, n + m);
        s.view_mut((0, 0), (n, n)).copy_from(&top);
        s.view_mut((0, n), (n, m)).copy_from(&asm.phi_q.transpose());
        s.view_mut((n, 0), (m, n)).copy_from(&(&asm.phi_q * &g));
        let factors = Factored::new(s).ok_or(DerivativeError::Singular("consistent Newton matrix of the step"))?;
        Ok(Prepared { factors, dofs, b, g, r_q, mass: asm.mass, phi_q: asm.phi_q, end })
    }

    /// `rhs` (n entries, the velocity rows) padded with zeros for the constraint rows.
    pub fn padded(&self, top: &DVector<f64>) -> DVector<f64> {
        let mut x = DVector::zeros(self.factors.len());
        x.rows_mut(0, self.dofs.n).copy_from(top);
        x
    }
}

impl StepDerivative {
    /// Takes the backward-Euler step of `h` from `system`'s state at time `t` (with
    /// `integrator`'s tolerances and Jacobian policy, its history reset: a first step), then
    /// assembles and factors the step's consistent matrix at the converged state. The loads
    /// in the bodies' accumulators are the operating point `u₀`.
    pub fn new(
        system: &MultibodySystem,
        integrator: &Bdf,
        t: f64,
        h: f64,
        inputs: &[Input],
        outputs: &[Output],
    ) -> Result<Self, DerivativeError> {
        let p = Prepared::new(system, integrator, t, h, inputs, outputs)?;
        let (pm, v) = channels::output_maps(&p.end, &p.dofs, outputs);
        let c = pm * &p.g * h + v;
        Ok(StepDerivative { factors: p.factors, n: p.dofs.n, h, b: p.b, c, end: p.end })
    }

    /// Input channels (3 per [`Input`]).
    pub fn inputs(&self) -> usize {
        self.b.ncols()
    }
    /// Output channels.
    pub fn outputs(&self) -> usize {
        self.c.nrows()
    }
    /// The converged state at the step's end (the operating point of the outputs).
    pub fn end_state(&self) -> &BodySet {
        &self.end
    }

    fn padded(&self, top: &DVector<f64>) -> DVector<f64> {
        let mut x = DVector::zeros(self.factors.len());
        x.rows_mut(0, self.n).copy_from(top);
        x
    }

    /// `dy = (dy/du) du` for each column of `seeds` (inputs × k): outputs × k. One solve with
    /// the stored factors per seed.
    pub fn forward(&self, seeds: &DMatrix<f64>) -> Result<DMatrix<f64>, DerivativeError> {
        if seeds.nrows() != self.inputs() {
            return Err(DerivativeError::SeedShape {
                mode: "forward",
                got: seeds.nrows(),
                expected: self.inputs(),
                what: "inputs",
            });
        }
        let mut out = DMatrix::zeros(self.outputs(), seeds.ncols());
        for (j, s) in seeds.column_iter().enumerate() {
            let x = self.factors.solve(&self.padded(&(&self.b * s * self.h)));
            out.set_column(j, &(&self.c * x.rows(0, self.n)));
        }
        Ok(out)
    }

    /// `duᵀ = λᵀ (dy/du)` for each column of `seeds` (outputs × k): inputs × k, by the
    /// transposed solve with the same factors (exactly the transpose of [`Self::forward`]).
    pub fn adjoint(&self, seeds: &DMatrix<f64>) -> Result<DMatrix<f64>, DerivativeError> {
        if seeds.nrows() != self.outputs() {
            return Err(DerivativeError::SeedShape {
                mode: "adjoint",
                got: seeds.nrows(),
                expected: self.outputs(),
                what: "outputs",
            });
        }
        let mut out = DMatrix::zeros(self.inputs(), seeds.ncols());
        for (j, l) in seeds.column_iter().enumerate() {
            let x = self.factors.solve_transpose(&self.padded(&(self.c.transpose() * l)));
            out.set_column(j, &(self.b.transpose() * x.rows(0, self.n) * self.h));
        }
        Ok(out)
    }

    /// The whole `dy/du` (outputs × inputs), seeded from the cheaper end.
    pub fn matrix(&self) -> DMatrix<f64> {
        let (ni, no) = (self.inputs(), self.outputs());
        if ni <= no {
            self.forward(&DMatrix::identity(ni, ni)).expect("identity seeds fit")
        } else {
            self.adjoint(&DMatrix::identity(no, no)).expect("identity seeds fit").transpose()
        }
    }
}
