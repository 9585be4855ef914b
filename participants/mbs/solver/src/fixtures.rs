//! Small ready-made systems: the models that the solver's own tests and those of its users
//! share, built in one place so that they stay the same model.

use crate::dynamics::body::RigidBodyBuilder;
use crate::dynamics::body_set::{BodyHandle, BodySet};
use crate::dynamics::force_element::ForceElementSet;
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

/// A chain of `n` bodies like a mooring line: 10 kg (1 kg·m² about each axis), 1 m apart
/// along x from a fixed anchor at the origin, under gravity −9.81 m/s² in z. Each link
/// (anchor to body 1, body i to body i+1) is a TSDA (1e4 N/m, 50 N·s/m, free length 0.9 m,
/// so the line starts in tension) and, with `joints`, also a spherical joint at the link's
/// far end (which then carries the load: the TSDA is kept so both element kinds are
/// assembled). The element ordering follows the chain, as a mooring line's file would.
pub fn chain(n: usize, joints: bool) -> (BodySet, JointSet, ForceElementSet) {
    let mut bodies = BodySet::new(Vector3::new(0.0, 0.0, -9.81));
    let mut prev = bodies.insert(RigidBodyBuilder::fixed().build().expect("a fixed body"));
    let mut js = JointSet::new();
    let mut forces = ForceElementSet::new();
    for i in 1..=n {
        let x = i as f64;
        let b = bodies.insert(
            RigidBodyBuilder::dynamic(10.0, Vector3::repeat(1.0))
                .reference_pose(Isometry3::translation(x, 0.0, 0.0))
                .build()
                .expect("positive mass and inertia"),
        );
        let (p1, p2) = (Vector3::new(x - 1.0, 0.0, 0.0), Vector3::new(x, 0.0, 0.0));
        let tsda = Tsda::new(&format!("link{i}"), &bodies, prev, b, p1, p2, 1e4, 50.0, 0.0, 0.9)
            .expect("distinct bodies, positive free length");
        forces.insert(Box::new(tsda));
        if joints {
            let frame = Isometry3::translation(x - 0.5, 0.0, 0.0);
            let j = Joint::new(&format!("ball{i}"), JointKind::Spherical, &bodies, prev, b, frame)
                .expect("distinct bodies");
            js.insert(j);
        }
        prev = b;
    }
    (bodies, js, forces)
}

/// A two-body heaving absorber like RM3, small: a float (2 t) sliding along z on a spar
/// (5 t), the spar sliding along z on the fixed ground (both prismatic joints), a damper
/// between them (2e4 N·s/m, no spring) and an infinite-frequency added mass per body in the
/// mass matrix (own blocks only, surge/sway/heave and the rotations, symmetric positive
/// definite), under gravity −9.81 m/s² in z. No buoyancy: callers add their loads.
pub fn two_body_heave() -> crate::system::MultibodySystem {
    use crate::added_mass::AddedMass;
    use nalgebra::{DMatrix, Matrix6};
    let mut bodies = BodySet::new(Vector3::new(0.0, 0.0, -9.81));
    let ground = bodies.insert(RigidBodyBuilder::fixed().build().expect("a fixed body"));
    let float = bodies.insert(
        RigidBodyBuilder::dynamic(2000.0, Vector3::new(800.0, 800.0, 1500.0))
            .reference_pose(Isometry3::translation(0.0, 0.0, -0.5))
            .build()
            .expect("positive mass and inertia"),
    );
    let spar = bodies.insert(
        RigidBodyBuilder::dynamic(5000.0, Vector3::new(9000.0, 9000.0, 2000.0))
            .reference_pose(Isometry3::translation(0.0, 0.0, -10.0))
            .build()
            .expect("positive mass and inertia"),
    );
    let mut joints = JointSet::new();
    for (name, b1, b2, z) in [("float_spar", spar, float, -0.5), ("spar_heave", ground, spar, -10.0)] {
        let frame = Isometry3::translation(0.0, 0.0, z);
        joints.insert(Joint::new(name, JointKind::Prismatic, &bodies, b1, b2, frame).expect("distinct bodies"));
    }
    let mut forces = ForceElementSet::new();
    let pto = Tsda::new(
        "pto",
        &bodies,
        float,
        spar,
        Vector3::new(0.0, 0.0, -0.5),
        Vector3::new(0.0, 0.0, -10.0),
        0.0,
        2e4,
        0.0,
        9.5,
    )
    .expect("distinct bodies, positive free length");
    forces.insert(Box::new(pto));
    let own = |scale: f64| {
        let mut a = Matrix6::from_diagonal(&nalgebra::Vector6::new(300.0, 300.0, 1200.0, 500.0, 500.0, 100.0)) * scale;
        // A surge–pitch coupling, as hull coefficients have.
        a[(0, 4)] = 40.0 * scale;
        a[(4, 0)] = 40.0 * scale;
        a
    };
    let block = |i: usize, scale: f64| {
        let mut b = DMatrix::zeros(6, 12);
        b.fixed_view_mut::<6, 6>(0, 6 * i).copy_from(&own(scale));
        b
    };
    let mut system = crate::system::MultibodySystem::from_parts(bodies, joints, forces);
    let added = AddedMass::new(vec![float, spar], vec![block(0, 1.0), block(1, 3.0)]).expect("6 × 12 blocks");
    system.set_added_mass(added).expect("symmetric, M + A∞ positive definite");
    system
}
