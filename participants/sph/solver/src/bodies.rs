//! Walls and rigid bodies: their markers, their prescribed motion, and the loads the fluid puts
//! on them.
//!
//! A body moves as it is told: [`Motion`] holds the pose of its reference point (normally its
//! centre of mass) and its velocities; between two calls of
//! [`Simulation::set_body_motion`](crate::Simulation::set_body_motion) the solver carries the
//! pose forward at those constant velocities. Each marker sits at a fixed body-frame position
//! and moves with `v + ω × r`.
//!
//! The load is what the fluid's pressure and viscous terms exert on the markers: the sum over
//! them of marker mass times the acceleration the fluid gives it, and its moment about the
//! reference point. Gravity on the body and contact are not included. It is taken at the
//! corrector stage of each step, the stage whose accelerations advance the fluid, so the
//! impulse the body receives over a step is exactly minus the impulse the fluid receives from
//! it. [`Simulation::body_loads`](crate::Simulation::body_loads) returns the time average over
//! the current load window.

use crate::geometry::Shape;
use nalgebra::{Isometry3, Point3, Translation3, UnitQuaternion, Vector3};

/// Index of a body in its simulation, in the order the bodies were added.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub struct BodyId(pub usize);

/// Where a body's markers come from.
#[derive(Debug, Clone, PartialEq)]
pub enum MarkerSource {
    /// Markers generated from a shape (see [`crate::geometry`]).
    Shape(Shape),
    /// Explicit body-frame marker positions; fluid particles nearer than 0.75 dp to one of them
    /// are removed at start-up (the interior of a hollow list is left alone).
    Points(Vec<Point3<f64>>),
}

/// A wall or body to add to a scene.
#[derive(Debug, Clone, PartialEq)]
pub struct BodySpec {
    /// Name (for messages and look-up).
    pub name: String,
    /// Geometry.
    pub markers: MarkerSource,
    /// Initial pose of the body frame (its reference point and orientation) in the world.
    pub pose: Isometry3<f64>,
    /// Compute this body's loads (walls whose loads nobody reads save the work).
    pub loads: bool,
    /// Marker layers; none: enough for a wall one support radius thick.
    pub layers: Option<usize>,
}

impl BodySpec {
    /// A body of shape `shape` at `pose`, with loads.
    pub fn new(name: impl Into<String>, shape: Shape, pose: Isometry3<f64>) -> Self {
        BodySpec { name: name.into(), markers: MarkerSource::Shape(shape), pose, loads: true, layers: None }
    }

    /// A body given by its body-frame markers, with loads.
    pub fn from_points(name: impl Into<String>, points: Vec<Point3<f64>>, pose: Isometry3<f64>) -> Self {
        BodySpec { name: name.into(), markers: MarkerSource::Points(points), pose, loads: true, layers: None }
    }

    /// The same without load computation.
    pub fn without_loads(mut self) -> Self {
        self.loads = false;
        self
    }
}

/// The prescribed motion of a body: pose, velocities and accelerations, world frame.
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct Motion {
    /// Pose of the body frame.
    pub pose: Isometry3<f64>,
    /// Velocity of the reference point (m/s).
    pub linvel: Vector3<f64>,
    /// Angular velocity (rad/s).
    pub angvel: Vector3<f64>,
    /// Acceleration of the reference point (m/s²); enters the marker pressure only.
    pub linacc: Vector3<f64>,
    /// Angular acceleration (rad/s²); enters the marker pressure only.
    pub angacc: Vector3<f64>,
}

impl Motion {
    /// At rest at `pose`.
    pub fn at_rest(pose: Isometry3<f64>) -> Self {
        Motion {
            pose,
            linvel: Vector3::zeros(),
            angvel: Vector3::zeros(),
            linacc: Vector3::zeros(),
            angacc: Vector3::zeros(),
        }
    }

    /// The pose `tau` seconds later at constant velocities.
    pub fn pose_after(&self, tau: f64) -> Isometry3<f64> {
        if tau == 0.0 {
            return self.pose;
        }
        let rotation = UnitQuaternion::from_scaled_axis(self.angvel * tau) * self.pose.rotation;
        Isometry3::from_parts(Translation3::from(self.pose.translation.vector + self.linvel * tau), rotation)
    }

    /// Velocity and acceleration of the body point at offset `r` (world) from the reference point.
    pub(crate) fn point_kinematics(&self, r: &Vector3<f64>) -> (Vector3<f64>, Vector3<f64>) {
        let w = &self.angvel;
        (self.linvel + w.cross(r), self.linacc + self.angacc.cross(r) + w.cross(&w.cross(r)))
    }
}

/// Force and torque on a body (torque about its reference point), world frame. In 2D, per
/// metre of depth, with the force in x–z and the torque about y.
#[derive(Debug, Clone, Copy, PartialEq, Default)]
pub struct BodyLoads {
    /// Force (N) (2D: N/m).
    pub force: Vector3<f64>,
    /// Torque (N m) (2D: N m/m).
    pub torque: Vector3<f64>,
}

/// A body inside a simulation.
#[derive(Debug, Clone, PartialEq)]
pub(crate) struct Body {
    pub name: String,
    pub loads: bool,
    pub motion: Motion,
    /// Impulse and angular impulse since the window started, and the window's duration.
    pub impulse: Vector3<f64>,
    pub angular_impulse: Vector3<f64>,
    pub window: f64,
    /// Loads of the last step.
    pub last: BodyLoads,
}

impl Body {
    pub fn new(spec: &BodySpec) -> Self {
        Body {
            name: spec.name.clone(),
            loads: spec.loads,
            motion: Motion::at_rest(spec.pose),
            impulse: Vector3::zeros(),
            angular_impulse: Vector3::zeros(),
            window: 0.0,
            last: BodyLoads::default(),
        }
    }

    /// The average over the window, or the last step's loads if the window is empty.
    pub fn window_loads(&self) -> BodyLoads {
        if self.window > 0.0 {
            BodyLoads { force: self.impulse / self.window, torque: self.angular_impulse / self.window }
        } else {
            self.last
        }
    }

    pub fn record(&mut self, loads: BodyLoads, dt: f64) {
        self.last = loads;
        self.impulse += loads.force * dt;
        self.angular_impulse += loads.torque * dt;
        self.window += dt;
    }

    pub fn clear_window(&mut self) {
        self.impulse = Vector3::zeros();
        self.angular_impulse = Vector3::zeros();
        self.window = 0.0;
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn constant_velocity_pose_and_point_kinematics() {
        let mut m = Motion::at_rest(Isometry3::translation(1.0, 0.0, 0.0));
        m.linvel = Vector3::new(0.0, 2.0, 0.0);
        m.angvel = Vector3::new(0.0, 0.0, std::f64::consts::PI);
        let p = m.pose_after(0.5);
        assert!((p.translation.vector - Vector3::new(1.0, 1.0, 0.0)).norm() < 1e-12);
        let x = p * Point3::new(1.0, 0.0, 0.0);
        assert!((x - Point3::new(1.0, 2.0, 0.0)).norm() < 1e-12, "{x}");
        let (v, a) = m.point_kinematics(&Vector3::new(1.0, 0.0, 0.0));
        assert!((v - Vector3::new(0.0, 2.0 + std::f64::consts::PI, 0.0)).norm() < 1e-12);
        assert!((a - Vector3::new(-std::f64::consts::PI.powi(2), 0.0, 0.0)).norm() < 1e-12);
    }

    #[test]
    fn window_average() {
        let mut b = Body::new(&BodySpec::new("b", Shape::Sphere { radius: 1.0 }, Isometry3::identity()));
        b.record(BodyLoads { force: Vector3::x(), torque: Vector3::zeros() }, 1.0);
        b.record(BodyLoads { force: Vector3::x() * 3.0, torque: Vector3::z() }, 3.0);
        let l = b.window_loads();
        assert!((l.force.x - 2.5).abs() < 1e-12 && (l.torque.z - 0.75).abs() < 1e-12);
        b.clear_window();
        assert_eq!(b.window_loads(), b.last);
    }
}
