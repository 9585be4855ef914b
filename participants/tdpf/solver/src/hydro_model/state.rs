//! What the load model takes and gives per body.

use nalgebra::{Vector3, Vector6};

/// The state of one body at the evaluation time, world axes (see the module docs for the rotation).
#[derive(Debug, Clone, Copy, PartialEq, Default)]
pub struct BodyState {
    /// CG position (m).
    pub position: Vector3<f64>,
    /// Rotation vector (axis × angle, rad) from the BEM equilibrium orientation.
    pub rotation: Vector3<f64>,
    /// CG velocity (m/s).
    pub velocity: Vector3<f64>,
    /// Angular velocity (rad/s).
    pub angular_velocity: Vector3<f64>,
}

impl BodyState {
    /// A body at rest at `position` with rotation vector `rotation`.
    pub fn at_rest(position: Vector3<f64>, rotation: Vector3<f64>) -> Self {
        BodyState { position, rotation, ..Default::default() }
    }

    /// `[v, ω]`, the 6 velocity DOFs the hydrodynamic coefficients act on.
    pub fn velocity6(&self) -> Vector6<f64> {
        let (v, w) = (self.velocity, self.angular_velocity);
        Vector6::new(v.x, v.y, v.z, w.x, w.y, w.z)
    }

    pub(crate) fn is_finite(&self) -> bool {
        [self.position, self.rotation, self.velocity, self.angular_velocity]
            .iter()
            .all(|v| v.iter().all(|x| x.is_finite()))
    }
}

/// The hydrodynamic load on one body, `[Fx, Fy, Fz, Mx, My, Mz]` with moments about the CG (N, N·m).
#[derive(Debug, Clone, Copy, PartialEq, Default)]
pub struct BodyLoad {
    /// Linear restoring force plus the equilibrium buoyancy.
    pub hydrostatic: Vector6<f64>,
    /// Radiation memory force `−∫K ẋ` (opposes the motion).
    pub radiation: Vector6<f64>,
    /// Wave excitation force (zero in still water).
    pub excitation: Vector6<f64>,
}

impl BodyLoad {
    /// The sum of the three parts.
    pub fn total(&self) -> Vector6<f64> {
        self.hydrostatic + self.radiation + self.excitation
    }

    /// Total force (N).
    pub fn force(&self) -> Vector3<f64> {
        self.total().fixed_rows::<3>(0).into_owned()
    }

    /// Total moment about the CG (N·m).
    pub fn torque(&self) -> Vector3<f64> {
        self.total().fixed_rows::<3>(3).into_owned()
    }
}
