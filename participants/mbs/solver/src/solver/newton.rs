//! Pieces the implicit integrators share: the naming of elements
//! in error messages, and the position projection onto the constraint manifold.

use crate::dynamics::body_set::BodySet;
use crate::error::MbsError;
use crate::solver::assembly::{displace, set_velocities, velocities, DofMap, System};

/// The names of the joints and force elements acting on `bodies`' free bodies (all of them
/// when nothing narrower is known), for a non-finite-step error.
pub fn elements_named(sys: &System, bodies: &BodySet, dofs: &DofMap) -> Vec<String> {
    let mut names: Vec<String> = sys.joints.iter().map(|j| format!("joint `{}`", j.name)).collect();
    names.extend(sys.forces.iter().map(|e| format!("force element `{}`", e.name())));
    if names.is_empty() {
        names = bodies
            .iter()
            .filter(|(h, _)| dofs.offset(*h).is_some())
            .map(|(h, _)| format!("body {}", h.index()))
            .collect();
    }
    names
}

/// Moves the positions onto `Φ = 0` by mass-weighted least-norm corrections
/// `δq = −M⁻¹Φ_qᵀ (Φ_q M⁻¹ Φ_qᵀ)⁻¹ Φ` until `|Φ|∞ ≤ tol` (at most `max_iterations`).
pub fn project_positions(
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
        let (phi, phi_q) = sys.constraints(bodies, dofs);
        if phi.amax() <= tol {
            return Ok(());
        }
        let minv = sys
            .mass(bodies, dofs)
            .try_inverse()
            .ok_or_else(|| MbsError::NonFiniteNewtonStep { time, elements: elements_named(sys, bodies, dofs) })?;
        let s = &phi_q * &minv * phi_q.transpose();
        let y = s
            .lu()
            .solve(&phi)
            .ok_or_else(|| MbsError::NonFiniteNewtonStep { time, elements: elements_named(sys, bodies, dofs) })?;
        let d = -(&minv * phi_q.transpose() * y);
        if !d.iter().all(|v| v.is_finite()) {
            return Err(MbsError::NonFiniteNewtonStep { time, elements: elements_named(sys, bodies, dofs) });
        }
        displace(bodies, dofs, &d);
    }
    Ok(())
}

/// Removes the velocity components that violate `Φ_q v = 0` (mass-weighted, so kinetic
/// energy can only drop): keeps the velocity-level drift of index-3 schemes from growing.
pub fn project_velocities(sys: &System, bodies: &mut BodySet, dofs: &DofMap, time: f64) -> Result<(), MbsError> {
    if sys.joints.is_empty() {
        return Ok(());
    }
    let bad = |b: &BodySet| MbsError::NonFiniteNewtonStep { time, elements: elements_named(sys, b, dofs) };
    let (_, phi_q) = sys.constraints(bodies, dofs);
    let minv = sys.mass(bodies, dofs).try_inverse().ok_or_else(|| bad(bodies))?;
    let v = velocities(bodies, dofs);
    let s = &phi_q * &minv * phi_q.transpose();
    let y = s.lu().solve(&(&phi_q * &v)).ok_or_else(|| bad(bodies))?;
    let v1 = &v - &minv * phi_q.transpose() * y;
    if !v1.iter().all(|x| x.is_finite()) {
        return Err(bad(bodies));
    }
    set_velocities(bodies, dofs, &v1);
    Ok(())
}
