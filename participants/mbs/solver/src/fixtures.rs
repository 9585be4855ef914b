//! Small ready-made systems: the models that the solver's own tests and those of its users
//! share, built in one place so that they stay the same model.

use crate::dynamics::body::RigidBodyBuilder;
use crate::dynamics::body_set::{BodyHandle, BodySet};
use crate::dynamics::joint::{Joint, JointKind, JointSet};
use crate::dynamics::tsda::Tsda;
use nalgebra::{Isometry3, Translation3, UnitQuaternion, Vector3};

/// A 2 kg body (0.1 kg·m² about each axis) at x = 1.1 m on a prismatic joint along x, under
/// gravity −9.81 m/s² in z, and a TSDA `name` (stiffness `k`, damping `c`, free length 1 m)
/// from a fixed ground body at the origin to it; the TSDA is returned, not inserted.
pub fn tsda_slider(name: &str, k: f64, c: f64) -> (BodySet, JointSet, Tsda, BodyHandle) {
    let mut bodies = BodySet::new(Vector3::new(0.0, 0.0, -9.81));
    let ground = bodies.insert(RigidBodyBuilder::fixed().build().expect("a fixed body"));
    let mass = bodies.insert(
        RigidBodyBuilder::dynamic(2.0, Vector3::repeat(0.1))
            .reference_pose(Isometry3::translation(1.1, 0.0, 0.0))
            .build()
            .expect("positive mass and inertia"),
    );
    let mut joints = JointSet::new();
    let frame = Isometry3::from_parts(
        Translation3::new(1.1, 0.0, 0.0),
        UnitQuaternion::rotation_between(&Vector3::z(), &Vector3::x()).expect("z and x are not opposite"),
    );
    joints.insert(Joint::new("slider", JointKind::Prismatic, &bodies, ground, mass, frame).expect("distinct bodies"));
    let tsda = Tsda::new(name, &bodies, ground, mass, Vector3::zeros(), Vector3::new(1.1, 0.0, 0.0), k, c, 0.0, 1.0)
        .expect("distinct bodies, positive free length");
    (bodies, joints, tsda, mass)
}
