//! A multibody system: the bodies, the joints between them and the force elements acting
//! on them, which one integrator advances together (the rapier pipeline's sets, in one place).

use crate::body_set::BodySet;
use crate::error::MbsError;
use crate::force_element::ForceElementSet;
use crate::integrator::Integrator;
use crate::joint::JointSet;
use nalgebra::Vector3;

/// Everything an integration step needs besides the integrator's own history.
#[derive(Debug, Clone)]
pub struct MultibodySystem {
    pub bodies: BodySet,
    pub joints: JointSet,
    pub forces: ForceElementSet,
}

impl MultibodySystem {
    /// An empty system under `gravity`.
    pub fn new(gravity: Vector3<f64>) -> Self {
        MultibodySystem { bodies: BodySet::new(gravity), joints: JointSet::new(), forces: ForceElementSet::new() }
    }

    /// Advances the whole system by `dt` with `integrator`.
    pub fn step(&mut self, integrator: &mut dyn Integrator, dt: f64) -> Result<(), MbsError> {
        integrator.step_system(&mut self.bodies, &self.joints, &self.forces, dt)
    }
}
