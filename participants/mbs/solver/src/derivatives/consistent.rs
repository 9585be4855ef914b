//! The terms the Newton iteration may leave out of its matrix but the derivative of its
//! converged solution needs: they change how fast Newton converges, not where it stops, yet
//! the implicit-function theorem differentiates the residual exactly.
//!
//! - `∂/∂q [(M + A∞)(q) w + Φ_q(q)ᵀ μ]`: the mass matrix turns with the bodies (world inertia,
//!   added mass in body axes) and the joints' Jacobians with their lever arms (the joints'
//!   geometric stiffness). Central differences of these analytical quantities (no
//!   factorisation, no integrator step).
//! - The gyroscopic term's dependence on orientation, `∂(−ω × I_w ω)/∂θ`, which the analytical
//!   Jacobian policies leave out (the `numerical` policy differences it with the rest).

use crate::added_mass::AddedMass;
use crate::derivatives::rotation::skew;
use crate::dynamics::body_set::BodySet;
use crate::error::MbsError;
use crate::solver::assembly::{displace, DofMap, System};
use nalgebra::{DMatrix, DVector};

/// Perturbation of the central differences (m for translations, rad for rotations): the
/// truncation error goes as ε² (≈ 1e-12 relative), round-off as 1e-16/ε (≈ 1e-10 relative).
pub const GEOMETRIC_EPS: f64 = 1e-6;

/// `∂/∂q [(M + A∞)(q) w + Φ_q(q)ᵀ μ]` over left increments `[δx, δθ]` (n × n), by central
/// differences at `bodies`.
pub fn geometric_stiffness(
    sys: &System,
    bodies: &BodySet,
    dofs: &DofMap,
    added: Option<&AddedMass>,
    w: &DVector<f64>,
    mu: &DVector<f64>,
) -> Result<DMatrix<f64>, MbsError> {
    let n = dofs.n;
    let g = |b: &BodySet| -> Result<DVector<f64>, MbsError> {
        let mut out = sys.mass_with(b, dofs, added)? * w;
        if !mu.is_empty() {
            let (_, phi_q) = sys.constraints(b, dofs);
            out += phi_q.transpose() * mu;
        }
        Ok(out)
    };
    let mut h = DMatrix::zeros(n, n);
    for j in 0..n {
        let mut d = DVector::zeros(n);
        d[j] = GEOMETRIC_EPS;
        let mut plus = bodies.clone();
        displace(&mut plus, dofs, &d);
        let mut minus = bodies.clone();
        displace(&mut minus, dofs, &(-d));
        let col = (g(&plus)? - g(&minus)?) / (2.0 * GEOMETRIC_EPS);
        h.set_column(j, &col);
    }
    Ok(h)
}

/// `∂(−ω × I_w ω)/∂θ = −[ω]× (I_w [ω]× − [I_w ω]×)` per free body (n × n), the world
/// inertia `I_w = R I Rᵀ` turning with the body.
pub fn gyroscopic_stiffness(bodies: &BodySet, dofs: &DofMap) -> DMatrix<f64> {
    let mut k = DMatrix::zeros(dofs.n, dofs.n);
    for (h, b) in bodies.iter() {
        if let Some(o) = dofs.offset(h) {
            let iw = b.inertia_world();
            let w = skew(&b.angvel);
            let block = -(w * (iw * w - skew(&(iw * b.angvel))));
            k.view_mut((o + 3, o + 3), (3, 3)).copy_from(&block);
        }
    }
    k
}
