//! Time integration of a [`BodySet`] with its [`JointSet`] and [`ForceElementSet`] (one
//! pipeline, as in rapier): `step_system` advances bodies, joints and force elements
//! together, `step_full` with the added mass as well ([`crate::system::MultibodySystem::step`]);
//! `step` is the free-body shorthand. The implicit integrators live in
//! [`crate::solver::hht`] and [`crate::solver::euler_implicit`]; the semi-implicit Euler scheme here stays
//! for free bodies and as the explicit reference of the tests.

use crate::added_mass::AddedMass;
use crate::dynamics::body_set::BodySet;
use crate::dynamics::force_element::ForceElementSet;
use crate::dynamics::joint::JointSet;
use crate::error::MbsError;
use crate::solver::assembly::{displace, velocities, DofMap, System};
use crate::solver::jacobian::verify::VerifyReport;
use crate::solver::jacobian::JacobianStats;
use crate::state::IntegratorHistory;
use nalgebra::UnitQuaternion;

/// What a step advances the bodies under besides their own loads: joints, force elements and
/// the infinite-frequency added mass (one argument for every integrator's step).
#[derive(Debug, Clone, Copy)]
pub struct Mechanism<'a> {
    /// The joints to keep.
    pub joints: &'a JointSet,
    /// The force elements between bodies.
    pub forces: &'a ForceElementSet,
    /// The added mass `A∞`, if any.
    pub added_mass: Option<&'a AddedMass>,
}

impl<'a> Mechanism<'a> {
    /// The assembly view of the implicit schemes and the DOF map of `bodies`: the set-up
    /// they start their step with (their Jacobian policy goes to each assembly).
    pub(crate) fn assembly(self, bodies: &BodySet) -> (System<'a>, DofMap) {
        (System { joints: self.joints, forces: self.forces, force_numerical: false }, DofMap::new(bodies))
    }
}

/// Advances every free body of a set by one step, under the loads in their accumulators
/// (which the step leaves untouched) and the set's gravity.
pub trait Integrator: Send {
    /// A short name for logs.
    fn name(&self) -> &'static str;
    /// Advances `bodies` (no joints, no force elements) by `dt`; an error means the state
    /// is no longer finite.
    fn step(&mut self, bodies: &mut BodySet, dt: f64) -> Result<(), MbsError> {
        self.step_system(bodies, &JointSet::new(), &ForceElementSet::new(), dt)
    }
    /// Advances `bodies` under `joints` and `forces` by `dt` (no added mass).
    fn step_system(
        &mut self,
        bodies: &mut BodySet,
        joints: &JointSet,
        forces: &ForceElementSet,
        dt: f64,
    ) -> Result<(), MbsError> {
        self.step_full(bodies, Mechanism { joints, forces, added_mass: None }, dt)
    }
    /// Advances `bodies` under the joints, force elements and infinite-frequency added mass
    /// of `mech` (the added mass in the mass matrix, `M + A∞`) by `dt`. Schemes without a
    /// mass matrix in their step refuse added mass ([`MbsError::AddedMassUnsupported`]).
    fn step_full(&mut self, bodies: &mut BodySet, mech: Mechanism<'_>, dt: f64) -> Result<(), MbsError>;
    /// Whether [`Integrator::step_full`] takes added mass (implicit schemes do).
    fn handles_added_mass(&self) -> bool {
        false
    }
    /// Whether it can keep joints and force elements (explicit free-body schemes cannot).
    fn handles_constraints(&self) -> bool {
        true
    }
    /// What the last assembly of the Jacobians did (perturbations, compressed entries), for
    /// the caller's debug log; `None` for schemes that assemble none.
    fn jacobian_stats(&self) -> Option<&JacobianStats> {
        None
    }
    /// Which linear solver ran on the last Newton system, for the caller's debug log; `None`
    /// for schemes that solve none.
    fn linear_stats(&self) -> Option<&crate::solver::newton_system::LinearStats> {
        None
    }
    /// The last verification of the analytical Jacobians (the solver file's
    /// `jacobian.verify`), if the integrator ran one.
    fn jacobian_report(&self) -> Option<&VerifyReport> {
        None
    }
    /// The integrator's own state (time, accelerations, multipliers), for checkpoints; a
    /// one-step scheme has none beyond the time.
    fn save_history(&self) -> IntegratorHistory {
        IntegratorHistory::default()
    }
    /// Restores what [`Integrator::save_history`] gave, bit for bit.
    fn restore_history(&mut self, _history: &IntegratorHistory) {}
    /// The state expected at the end of a step of `dt` from `bodies`, before any force of that
    /// step is known: what force laws evaluated once per step are asked at. Here at constant
    /// velocity; integrators that keep the last acceleration extrapolate with it.
    fn predict(&self, bodies: &BodySet, dt: f64) -> BodySet {
        let dofs = DofMap::new(bodies);
        let mut next = bodies.clone();
        displace(&mut next, &dofs, &(velocities(bodies, &dofs) * dt));
        next
    }
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
/// drifting, which is why it suits oscillating bodies. It has no mass matrix to put
/// added mass in, so [`Integrator::step_full`] refuses added mass.
#[derive(Debug, Clone, Copy, Default)]
pub struct SemiImplicitEuler;

impl Integrator for SemiImplicitEuler {
    fn name(&self) -> &'static str {
        "semi-implicit (symplectic) Euler"
    }
    fn handles_constraints(&self) -> bool {
        false
    }

    /// Joints cannot be kept by an explicit free-body scheme, nor added mass without a mass
    /// matrix: a system with joints, force elements or added mass is refused (use HHT or
    /// linearized implicit Euler).
    fn step_full(&mut self, bodies: &mut BodySet, mech: Mechanism<'_>, dt: f64) -> Result<(), MbsError> {
        if mech.added_mass.is_some() {
            return Err(MbsError::AddedMassUnsupported(self.name()));
        }
        if !mech.joints.is_empty() || !mech.forces.is_empty() {
            return Err(MbsError::Unsupported("semi-implicit Euler advances free bodies only; joints and force elements need HHT or Euler_implicit_linearized"));
        }
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
