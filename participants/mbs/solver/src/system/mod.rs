//! A multibody system: the bodies, the joints between them and the force elements acting
//! on them, which one integrator advances together (the rapier pipeline's sets, in one place),
//! with the infinite-frequency added mass of its hydrodynamic bodies.

pub mod model;

use crate::added_mass::{AddedMass, AddedMassError};
use crate::dynamics::body_set::{BodyHandle, BodySet};
use crate::dynamics::force_element::{ForceElementSet, StepStart};
use crate::dynamics::joint::JointSet;
use crate::error::MbsError;
use crate::solver::integrator::{Integrator, Mechanism};
use nalgebra::{DMatrix, Vector3};

/// Everything an integration step needs besides the integrator's own history.
#[derive(Debug, Clone)]
pub struct MultibodySystem {
    /// The bodies and the gravity on them.
    pub bodies: BodySet,
    /// The constraints between bodies.
    pub joints: JointSet,
    /// The spring-dampers and actuators between bodies.
    pub forces: ForceElementSet,
    /// `A∞` of the hydrodynamic bodies, in the mass matrix of every step; checked (symmetric,
    /// `M + A∞` positive definite) before the first step after it is set or changed.
    pub added_mass: Option<AddedMass>,
}

impl MultibodySystem {
    /// An empty system under `gravity`.
    pub fn new(gravity: Vector3<f64>) -> Self {
        MultibodySystem {
            bodies: BodySet::new(gravity),
            joints: JointSet::new(),
            forces: ForceElementSet::new(),
            added_mass: None,
        }
    }

    /// A system of these bodies, joints and force elements, without added mass.
    pub fn from_parts(bodies: BodySet, joints: JointSet, forces: ForceElementSet) -> Self {
        MultibodySystem { bodies, joints, forces, added_mass: None }
    }

    /// Replaces the added mass after [`AddedMass::check`] at the current state; on error the
    /// previous coefficients stay (a bad update must not reach the integrator).
    pub fn set_added_mass(&mut self, mut added_mass: AddedMass) -> Result<(), MbsError> {
        added_mass.check(&self.bodies)?;
        added_mass.checked = true;
        self.added_mass = Some(added_mass);
        Ok(())
    }

    /// Replaces the row blocks of some or all hydrodynamic bodies (per-window updates from a
    /// fluid participant), checked as in [`Self::set_added_mass`]; all or nothing.
    pub fn update_added_mass(&mut self, updates: &[(BodyHandle, DMatrix<f64>)]) -> Result<(), MbsError> {
        let mut next = self
            .added_mass
            .clone()
            .ok_or_else(|| AddedMassError::InvalidSetting("there is no added mass to update; set it first".into()))?;
        next.set_blocks(updates)?;
        self.set_added_mass(next)
    }

    /// Advances the whole system by `dt` with `integrator` from the integrator's own time
    /// ([`Self::step_at`]).
    pub fn step(&mut self, integrator: &mut dyn Integrator, dt: f64) -> Result<(), MbsError> {
        let t = integrator.save_history().time;
        self.step_at(integrator, t, dt)
    }

    /// Advances the whole system from time `t` by `dt` with `integrator` (with `M + A∞`; the
    /// added mass is checked first if it has not been since it was set). Force elements get
    /// [`crate::ForceElement::begin_step`] first, with the state at `t` and, if an element asks,
    /// the integrator's prediction at `t + dt`.
    pub fn step_at(&mut self, integrator: &mut dyn Integrator, t: f64, dt: f64) -> Result<(), MbsError> {
        let predicted = self.forces.wants_prediction().then(|| integrator.predict(&self.bodies, dt));
        let step = StepStart { t, dt, bodies: &self.bodies, predicted: predicted.as_ref().unwrap_or(&self.bodies) };
        self.forces.begin_step(&step)?;
        if let Some(am) = self.added_mass.as_mut().filter(|a| !a.checked) {
            am.check(&self.bodies)?;
            am.checked = true;
        }
        let mech = Mechanism { joints: &self.joints, forces: &self.forces, added_mass: self.added_mass.as_ref() };
        integrator.step_full(&mut self.bodies, mech, dt)
    }
}
