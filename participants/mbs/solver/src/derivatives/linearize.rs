//! The continuous-time linear model `ẋ = A x + B u`, `y = C x + D u` of a system around a
//! state: `x = [z; ż]` with `z` the independent coordinates left by the joints
//! ([`crate::derivatives::partition`]), `u` the inputs, `y` the outputs (increments from the
//! operating point). From the equations of motion `M q̈ = Q(q, q̇, u) − Φ_qᵀ λ`, `Φ(q) = 0`:
//!
//! - the joint reactions `λ` and accelerations `a` at the state from
//!   `[M Φ_qᵀ; Φ_q 0] [a; λ] = [Q; 0]` (exact at rest; the velocity terms of `Φ̈` are left out);
//! - stiffness `K − ∂(M a + Φ_qᵀ λ)/∂q − K_extra` (the joints' geometric stiffness makes a
//!   pendulum's restoring moment), damping `C`, both with the gyroscopic terms;
//! - reduced by `δq = N z`: `M_r = NᵀMN`, `K_r`, `C_r` likewise, `B_r = Nᵀ B_u`;
//! - `A = [0 I; M_r⁻¹K_r M_r⁻¹C_r]`, `B = [0; M_r⁻¹B_r]`, `C = [P N, V N]`, `D = 0` (loads
//!   reach positions and velocities only through the dynamics).
//!
//! `K_extra` is what the solver does not model itself, such as a floating body's hydrostatic
//! stiffness from a BEMIO file ([`ExtraStiffness`]).

use crate::derivatives::channels::{self, Input, Output};
use crate::derivatives::consistent::{geometric_stiffness, gyroscopic_stiffness};
use crate::derivatives::error::DerivativeError;
use crate::derivatives::partition::{partition, Partition};
use crate::dynamics::body_set::BodyHandle;
use crate::solver::assembly::{DofMap, System};
use crate::solver::jacobian::JacobianPolicy;
use crate::solver::linear::{solve_saddle_with, LinearSolverKind};
use crate::system::MultibodySystem;
use nalgebra::{Complex, DMatrix, DVector, Matrix6};

/// A stiffness about a body's centre of mass that the model lacks (e.g. hydrostatics), over
/// `[δx, δθ]`: the generalized force `−K δq` is added.
#[derive(Debug, Clone, PartialEq)]
pub struct ExtraStiffness {
    /// The body.
    pub body: BodyHandle,
    /// `K` (N/m, N, N m/rad).
    pub k: Matrix6<f64>,
    /// Whether the body's weight is balanced at the state by a force outside the model (the
    /// buoyancy of a body floating at equilibrium): its weight is then left out of the
    /// reactions `λ`.
    pub balances_weight: bool,
}

/// A continuous-time state-space model around a state.
#[derive(Debug, Clone)]
pub struct LinearModel {
    /// `2k × 2k`.
    pub a: DMatrix<f64>,
    /// `2k × inputs`.
    pub b: DMatrix<f64>,
    /// `outputs × 2k`.
    pub c: DMatrix<f64>,
    /// `outputs × inputs` (zero).
    pub d: DMatrix<f64>,
    /// The body coordinates kept as states (index into `[δq]`: 6 per free body) and the basis.
    pub partition: Partition,
    /// The largest generalized force left unbalanced at the state along the free coordinates
    /// (`|Nᵀ Q|∞`, N or N m): zero at an equilibrium, else the model linearises a motion.
    pub unbalanced: f64,
}

impl LinearModel {
    /// Eigenvalues of `A` (rad/s): `−ζω ± iω√(1−ζ²)` per oscillating mode.
    pub fn eigenvalues(&self) -> Vec<Complex<f64>> {
        if self.a.is_empty() {
            return Vec::new();
        }
        self.a.complex_eigenvalues().iter().copied().collect()
    }
}

/// Linearises `system` at its current state (velocities included) with the force elements'
/// Jacobians by `policy`; loads in the accumulators are part of the operating point.
pub fn linearize(
    system: &MultibodySystem,
    policy: JacobianPolicy,
    inputs: &[Input],
    outputs: &[Output],
    extra: &[ExtraStiffness],
) -> Result<LinearModel, DerivativeError> {
    let bodies = &system.bodies;
    let dofs = DofMap::new(bodies);
    channels::check(bodies, &dofs, inputs, outputs)?;
    let view = System { joints: &system.joints, forces: &system.forces, force_numerical: false };
    let added = system.added_mass.as_ref();
    let asm = view.assemble_full(bodies, &dofs, added, policy)?;
    let n = dofs.n;
    let mut k = asm.stiffness.clone();
    if asm.stats.policy != JacobianPolicy::Numerical {
        k += gyroscopic_stiffness(bodies, &dofs);
    }
    let mut q = asm.forces.clone();
    for (i, e) in extra.iter().enumerate() {
        if !e.k.iter().all(|v| v.is_finite()) {
            return Err(DerivativeError::InvalidStiffness(e.body.index()));
        }
        let (Some(o), Some(b)) = (dofs.offset(e.body), bodies.get(e.body)) else {
            return Err(DerivativeError::UnknownBody {
                what: format!("extra stiffness {i}"),
                index: e.body.index(),
                bodies: bodies.len(),
            });
        };
        let mut block = k.view_mut((o, o), (6, 6));
        block -= e.k;
        if e.balances_weight {
            let mut f = q.fixed_rows_mut::<3>(o);
            f -= b.mass() * bodies.gravity;
        }
    }
    let m = asm.phi_q.nrows();
    let (acc, lambda) = solve_saddle_with(
        LinearSolverKind::DenseLu,
        &asm.mass,
        &asm.phi_q.transpose(),
        &asm.phi_q,
        &q,
        &DVector::zeros(m),
    )
    .ok_or(DerivativeError::Singular("mass matrix with the joints"))?;
    let geo = geometric_stiffness(&view, bodies, &dofs, added, &acc, &lambda)?;
    let k_eff = k - geo;
    let part = partition(&asm.phi_q);
    let nb = &part.basis;
    let dof = nb.ncols();
    let mr = nb.transpose() * &asm.mass * nb;
    let lu = mr.lu();
    let solve = |x: DMatrix<f64>| lu.solve(&x).ok_or(DerivativeError::Singular("reduced mass matrix"));
    let stiff = solve(nb.transpose() * &k_eff * nb)?;
    let damp = solve(nb.transpose() * &asm.damping * nb)?;
    let bu = solve(nb.transpose() * channels::input_map(bodies, &dofs, inputs))?;
    let mut a = DMatrix::zeros(2 * dof, 2 * dof);
    a.view_mut((0, dof), (dof, dof)).fill_with_identity();
    a.view_mut((dof, 0), (dof, dof)).copy_from(&stiff);
    a.view_mut((dof, dof), (dof, dof)).copy_from(&damp);
    let mut b = DMatrix::zeros(2 * dof, bu.ncols());
    b.view_mut((dof, 0), (dof, bu.ncols())).copy_from(&bu);
    let (p, v) = channels::output_maps(bodies, &dofs, outputs);
    let rows = p.nrows();
    let mut c = DMatrix::zeros(rows, 2 * dof);
    c.view_mut((0, 0), (rows, dof)).copy_from(&(p * nb));
    c.view_mut((0, dof), (rows, dof)).copy_from(&(v * nb));
    let d = DMatrix::zeros(c.nrows(), b.ncols());
    let unbalanced = if n == 0 { 0.0 } else { (nb.transpose() * &q).amax() };
    Ok(LinearModel { a, b, c, d, partition: part, unbalanced })
}
