//! Time integration of a [`BodySet`]. The trait is deliberately small (one `step`) so
//! that the semi-implicit Euler scheme here can be replaced by HHT-α without touching
//! the adapter.

use crate::body_set::BodySet;
use crate::error::MbsError;
use nalgebra::UnitQuaternion;

/// Advances every free body of a set by one step, under the loads in their accumulators
/// (which the step leaves untouched) and the set's gravity.
pub trait Integrator: Send {
    /// A short name for logs.
    fn name(&self) -> &'static str;
    /// Advances `bodies` by `dt`; an error means the state is no longer finite.
    fn step(&mut self, bodies: &mut BodySet, dt: f64) -> Result<(), MbsError>;
}

/// Semi-implicit (symplectic) Euler: velocities first from the current loads, then
/// positions from the new velocities:
///
/// - `v ← v + dt (F/m + g)`, `x ← x + dt v`;
/// - `ω ← ω + dt I_w⁻¹ (τ − ω × I_w ω)` with `I_w = R I Rᵀ` for the orientation at the
///   step start (the gyroscopic term makes torque-free spinning bodies precess);
/// - `q ← exp(dt ω) q` (rotation by the rotation vector `dt ω`, world axes), renormalized.
///
/// First-order accurate; for constant loads the energy error stays bounded instead of
/// drifting, which is why it suits oscillating bodies.
#[derive(Debug, Clone, Copy, Default)]
pub struct SemiImplicitEuler;

impl Integrator for SemiImplicitEuler {
    fn name(&self) -> &'static str {
        "semi-implicit (symplectic) Euler"
    }

    fn step(&mut self, bodies: &mut BodySet, dt: f64) -> Result<(), MbsError> {
        let g = bodies.gravity;
        for (h, b) in bodies.iter_mut() {
            if b.fixed {
                continue;
            }
            let a = b.force / b.mass + g;
            b.linvel += dt * a;
            b.position += dt * b.linvel;

            let iw = b.inertia_world();
            let iw_inv = b.inv_inertia_world();
            let gyro = b.angvel.cross(&(iw * b.angvel));
            b.angvel += dt * (iw_inv * (b.torque - gyro));
            let turn = UnitQuaternion::from_scaled_axis(dt * b.angvel);
            b.orientation = UnitQuaternion::new_normalize((turn * b.orientation).into_inner());

            let finite = b.position.iter().chain(b.linvel.iter()).chain(b.angvel.iter()).all(|x| x.is_finite())
                && b.orientation.coords.iter().all(|x| x.is_finite());
            if !finite {
                return Err(MbsError::Diverged(h.index()));
            }
        }
        Ok(())
    }
}
