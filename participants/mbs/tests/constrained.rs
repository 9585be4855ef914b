//! Validation of the constrained solver (joints, TSDA, RSDA, HHT-α, linearized implicit
//! Euler) against closed-form results.

use nalgebra::{Isometry3, Translation3, UnitQuaternion, Vector3};
use std::f64::consts::PI;
use tidelink_mbs_solver::dynamics::force_element::{ForceElement, Wrench};
use tidelink_mbs_solver::solver::assembly::{DofMap, System};
use tidelink_mbs_solver::{
    BodyHandle, BodySet, ForceElementSet, Hht, Integrator, Joint, JointKind, JointSet, LinearizedImplicitEuler,
    MbsError, RigidBodyBuilder, Rsda, Tsda,
};

const G: f64 = 9.81;

/// A ground body and a pendulum bob of mass `m`, COM at `(0, −l, 0)`, hanging from a
/// revolute joint about z at the origin; gravity −y; initial angle `theta0`.
fn pendulum(l: f64, m: f64, icom: f64, theta0: f64) -> (BodySet, JointSet, BodyHandle) {
    let mut bodies = BodySet::new(Vector3::new(0.0, -G, 0.0));
    let ground = bodies.insert(RigidBodyBuilder::fixed().build().unwrap());
    let rot = UnitQuaternion::from_axis_angle(&Vector3::z_axis(), theta0);
    let pose = Isometry3::from_parts(Translation3::from(rot * Vector3::new(0.0, -l, 0.0)), rot);
    let bob = bodies.insert(RigidBodyBuilder::dynamic(m, Vector3::repeat(icom)).reference_pose(pose).build().unwrap());
    let mut joints = JointSet::new();
    joints.insert(Joint::new("pivot", JointKind::Revolute, &bodies, ground, bob, Isometry3::identity()).unwrap());
    (bodies, joints, bob)
}

fn swing_angle(bodies: &BodySet, bob: BodyHandle) -> f64 {
    let p = bodies.get(bob).unwrap().com_position();
    p.x.atan2(-p.y)
}

/// Times of the upward zero crossings of `f` (linear interpolation).
fn crossings(samples: &[(f64, f64)]) -> Vec<f64> {
    samples
        .windows(2)
        .filter(|w| w[0].1 < 0.0 && w[1].1 >= 0.0)
        .map(|w| w[0].0 + (w[1].0 - w[0].0) * (-w[0].1) / (w[1].1 - w[0].1))
        .collect()
}

fn mean_period(c: &[f64]) -> f64 {
    (c[c.len() - 1] - c[0]) / (c.len() - 1) as f64
}

fn max_residual(bodies: &BodySet, joints: &JointSet) -> f64 {
    let forces = ForceElementSet::new();
    let sys = System { joints, forces: &forces, force_numerical: false };
    sys.constraints(bodies, &DofMap::new(bodies)).0.amax()
}

#[test]
fn small_angle_pendulum_period() {
    let (l, m, icom) = (1.0, 2.0, 1e-3);
    let theta0 = 0.05;
    let (mut bodies, joints, bob) = pendulum(l, m, icom, theta0);
    let mut hht = Hht::new(-0.2).unwrap();
    let forces = ForceElementSet::new();
    let dt = 1e-3;
    let mut samples = Vec::new();
    for i in 0..8000 {
        hht.step_system(&mut bodies, &joints, &forces, dt).unwrap();
        samples.push(((i + 1) as f64 * dt, swing_angle(&bodies, bob)));
    }
    let t0 = 2.0 * PI * ((icom + m * l * l) / (m * G * l)).sqrt() * (1.0 + theta0 * theta0 / 16.0);
    let t = mean_period(&crossings(&samples));
    assert!(((t - t0) / t0).abs() < 5e-4, "period {t} s, closed form {t0} s");
    assert!(max_residual(&bodies, &joints) < 1e-9);
}

#[test]
fn com_offset_body_swings_about_its_reference_frame() {
    // The flap's layout: reference frame at the hinge, COM 0.3 m along its x axis.
    let (m, d, izz) = (3.0, 0.3, 0.02);
    let mut bodies = BodySet::new(Vector3::new(0.0, -G, 0.0));
    let ground = bodies.insert(RigidBodyBuilder::fixed().build().unwrap());
    let down = UnitQuaternion::from_axis_angle(&Vector3::z_axis(), -PI / 2.0 + 0.04);
    let flap = bodies.insert(
        RigidBodyBuilder::dynamic(m, Vector3::new(0.01, 0.01, izz))
            .com_offset(Isometry3::translation(d, 0.0, 0.0))
            .reference_pose(Isometry3::from_parts(Translation3::new(0.0, 0.0, 0.0), down))
            .build()
            .unwrap(),
    );
    let mut joints = JointSet::new();
    joints.insert(Joint::new("hinge", JointKind::Revolute, &bodies, ground, flap, Isometry3::identity()).unwrap());
    let mut hht = Hht::new(-0.1).unwrap();
    let dt = 1e-3;
    let mut samples = Vec::new();
    let mut worst_ref: f64 = 0.0;
    for i in 0..5000 {
        hht.step_system(&mut bodies, &joints, &ForceElementSet::new(), dt).unwrap();
        let b = bodies.get(flap).unwrap();
        worst_ref = worst_ref.max(b.reference_position().norm());
        samples.push(((i + 1) as f64 * dt, swing_angle(&bodies, flap)));
    }
    let t0 = 2.0 * PI * ((izz + m * d * d) / (m * G * d)).sqrt() * (1.0 + 0.04f64.powi(2) / 16.0);
    let t = mean_period(&crossings(&samples));
    assert!(((t - t0) / t0).abs() < 5e-4, "period {t} s, closed form {t0} s");
    assert!(worst_ref < 1e-9, "the reference origin left the hinge by {worst_ref} m");
}

/// A body on a prismatic joint along x, tied to ground by a TSDA (free length 1 m).
fn spring_mass(k: f64, c: f64, element_numerical: bool) -> (BodySet, JointSet, ForceElementSet, BodyHandle) {
    let (bodies, joints, tsda, mass) = tidelink_mbs_solver::fixtures::tsda_slider("spring", k, c);
    let mut forces = ForceElementSet::new();
    if element_numerical {
        forces.insert(Box::new(NoJacobian(tsda)));
    } else {
        forces.insert(Box::new(tsda));
    }
    (bodies, joints, forces, mass)
}

/// Successive maxima of a sampled signal.
fn peaks(samples: &[(f64, f64)]) -> Vec<(f64, f64)> {
    samples.windows(3).filter(|w| w[1].1 > w[0].1 && w[1].1 >= w[2].1).map(|w| w[1]).collect()
}

#[test]
fn tsda_spring_mass_frequency_and_damped_decay() {
    let (k, m): (f64, f64) = (200.0, 2.0);
    let wn = (k / m).sqrt();
    for c in [0.0, 2.0] {
        let (mut bodies, joints, forces, h) = spring_mass(k, c, false);
        let mut hht = Hht::new(-0.05).unwrap();
        let dt = 5e-4;
        let mut s = Vec::new();
        for i in 0..8000 {
            hht.step_system(&mut bodies, &joints, &forces, dt).unwrap();
            s.push(((i + 1) as f64 * dt, bodies.get(h).unwrap().com_position().x - 1.0));
        }
        let zeta = c / (2.0 * (k * m).sqrt());
        let wd = wn * (1.0 - zeta * zeta).sqrt();
        let t = mean_period(&crossings(&s));
        assert!((t * wd / (2.0 * PI) - 1.0).abs() < 1e-3, "c = {c}: period {t} s, closed form {}", 2.0 * PI / wd);
        let p = peaks(&s);
        if c > 0.0 {
            let rate = (p[0].1 / p[3].1).ln() / (p[3].0 - p[0].0);
            assert!((rate / (zeta * wn) - 1.0).abs() < 0.02, "decay rate {rate} 1/s, closed form {}", zeta * wn);
        }
        assert!(max_residual(&bodies, &joints) < 1e-9);
    }
}

#[test]
fn rsda_torsion_frequency_and_damped_decay() {
    let (k, izz): (f64, f64) = (25.0, 0.5);
    let wn = (k / izz).sqrt();
    for c in [0.0, 0.3] {
        let mut bodies = BodySet::new(Vector3::new(0.0, 0.0, -G));
        let ground = bodies.insert(RigidBodyBuilder::fixed().build().unwrap());
        let disk = bodies.insert(
            RigidBodyBuilder::dynamic(4.0, Vector3::new(0.3, 0.3, izz))
                .angvel(Vector3::new(0.0, 0.0, 1.0))
                .build()
                .unwrap(),
        );
        let mut joints = JointSet::new();
        joints.insert(Joint::new("axle", JointKind::Revolute, &bodies, ground, disk, Isometry3::identity()).unwrap());
        let mut forces = ForceElementSet::new();
        forces.insert(Box::new(Rsda::new("torsion", &bodies, ground, disk, Vector3::z(), k, c, 0.0, 0.0).unwrap()));
        let mut hht = Hht::new(-0.05).unwrap();
        let dt = 5e-4;
        let mut s = Vec::new();
        for i in 0..8000 {
            hht.step_system(&mut bodies, &joints, &forces, dt).unwrap();
            let q = bodies.get(disk).unwrap().com_orientation();
            s.push(((i + 1) as f64 * dt, q.scaled_axis().z));
        }
        let zeta = c / (2.0 * (k * izz).sqrt());
        let wd = wn * (1.0 - zeta * zeta).sqrt();
        let t = mean_period(&crossings(&s));
        assert!((t * wd / (2.0 * PI) - 1.0).abs() < 1e-3, "c = {c}: period {t} s, closed form {}", 2.0 * PI / wd);
        if c > 0.0 {
            let p = peaks(&s);
            let rate = (p[0].1 / p[3].1).ln() / (p[3].0 - p[0].0);
            assert!((rate / (zeta * wn) - 1.0).abs() < 0.02, "decay rate {rate} 1/s, closed form {}", zeta * wn);
        }
    }
}

#[test]
fn slider_on_an_inclined_prismatic_joint_under_gravity() {
    let incline = 30f64.to_radians();
    let u = Vector3::new(incline.cos(), -incline.sin(), 0.0);
    let mut bodies = BodySet::new(Vector3::new(0.0, -G, 0.0));
    let ground = bodies.insert(RigidBodyBuilder::fixed().build().unwrap());
    let slider = bodies.insert(RigidBodyBuilder::dynamic(5.0, Vector3::new(0.1, 0.2, 0.3)).build().unwrap());
    let mut joints = JointSet::new();
    let frame =
        Isometry3::from_parts(Translation3::identity(), UnitQuaternion::rotation_between(&Vector3::z(), &u).unwrap());
    joints.insert(Joint::new("rail", JointKind::Prismatic, &bodies, ground, slider, frame).unwrap());
    for alpha in [0.0, -0.2] {
        let mut b = bodies.clone();
        let mut hht = Hht::new(alpha).unwrap();
        for _ in 0..1000 {
            hht.step_system(&mut b, &joints, &ForceElementSet::new(), 1e-3).unwrap();
        }
        let s = 0.5 * G * incline.sin() * 1.0f64.powi(2);
        let p = b.get(slider).unwrap().com_position();
        assert!((p - s * u).norm() < 1e-6 * s, "alpha {alpha}: at {p}, closed form {}", s * u);
        assert!(b.get(slider).unwrap().angvel().norm() < 1e-9);
    }
}

#[test]
fn undamped_energy_is_conserved_with_alpha_zero() {
    let (l, m, icom) = (1.0, 1.0, 1e-2);
    let (mut bodies, joints, bob) = pendulum(l, m, icom, 0.3);
    let energy = |b: &BodySet| {
        let body = b.get(bob).unwrap();
        body.kinetic_energy() + m * G * body.com_position().y
    };
    let e0 = energy(&bodies);
    let scale = m * G * l * (1.0 - 0.3f64.cos());
    let mut hht = Hht::new(0.0).unwrap();
    let dt = 1e-2;
    let period = 2.0 * PI * ((icom + m * l * l) / (m * G * l)).sqrt();
    let steps = (100.0 * period / dt) as usize;
    let mut worst: f64 = 0.0;
    for _ in 0..steps {
        hht.step_system(&mut bodies, &joints, &ForceElementSet::new(), dt).unwrap();
        worst = worst.max((energy(&bodies) - e0).abs() / scale);
    }
    assert!(worst < 1e-3, "energy drift {worst} of the swing energy over 100 periods");
}

#[test]
fn constraint_drift_stays_below_1e9_over_a_long_run() {
    // A spatial double pendulum: spherical joint to ground, universal joint between links,
    // started spinning; both implicit integrators.
    let build = || {
        let mut bodies = BodySet::new(Vector3::new(0.0, 0.0, -G));
        let ground = bodies.insert(RigidBodyBuilder::fixed().build().unwrap());
        let l1 = bodies.insert(
            RigidBodyBuilder::dynamic(1.0, Vector3::new(0.1, 0.1, 0.02))
                .reference_pose(Isometry3::translation(0.5, 0.0, 0.0))
                .linvel(Vector3::new(0.0, 1.0, 0.5))
                .angvel(Vector3::new(0.0, -1.0, 2.0))
                .build()
                .unwrap(),
        );
        let l2 = bodies.insert(
            RigidBodyBuilder::dynamic(0.5, Vector3::new(0.05, 0.05, 0.01))
                .reference_pose(Isometry3::translation(1.5, 0.0, 0.0))
                .build()
                .unwrap(),
        );
        let mut joints = JointSet::new();
        joints
            .insert(Joint::new("shoulder", JointKind::Spherical, &bodies, ground, l1, Isometry3::identity()).unwrap());
        joints.insert(
            Joint::new("elbow", JointKind::Universal, &bodies, l1, l2, Isometry3::translation(1.0, 0.0, 0.0)).unwrap(),
        );
        (bodies, joints)
    };
    let integrators: Vec<Box<dyn Integrator>> =
        vec![Box::new(Hht::new(-0.2).unwrap()), Box::new(LinearizedImplicitEuler::new())];
    for mut integ in integrators {
        let (mut bodies, joints) = build();
        let mut worst: f64 = 0.0;
        for _ in 0..20_000 {
            integ.step_system(&mut bodies, &joints, &ForceElementSet::new(), 1e-3).unwrap();
            worst = worst.max(max_residual(&bodies, &joints));
        }
        // Body size 1 m: the residual is the drift relative to it.
        assert!(worst < 1e-9, "{}: worst constraint residual {worst}", integ.name());
    }
}

/// A TSDA that hides its analytical Jacobian, so the integrators difference it.
#[derive(Debug, Clone)]
struct NoJacobian(Tsda);

impl ForceElement for NoJacobian {
    fn name(&self) -> &str {
        self.0.name()
    }
    fn bodies(&self) -> [BodyHandle; 2] {
        self.0.bodies()
    }
    fn wrenches(&self, bodies: &BodySet) -> [Wrench; 2] {
        self.0.wrenches(bodies)
    }
}

#[test]
fn numerical_jacobian_path_gives_the_analytical_trajectory() {
    let (mut a, joints, fa, h) = spring_mass(300.0, 1.5, false);
    let (mut b, _, fb, _) = spring_mass(300.0, 1.5, true);
    let (mut ia, mut ib) = (Hht::new(-0.2).unwrap(), Hht::new(-0.2).unwrap());
    let mut worst: f64 = 0.0;
    for _ in 0..2000 {
        ia.step_system(&mut a, &joints, &fa, 1e-3).unwrap();
        ib.step_system(&mut b, &joints, &fb, 1e-3).unwrap();
        worst = worst.max((a.get(h).unwrap().com_position() - b.get(h).unwrap().com_position()).norm());
    }
    assert!(worst < 1e-9, "trajectories differ by {worst} m");
    // Linearized Euler uses the Jacobian directly: the coloured differences must match it.
    let (mut a, joints, fa, h) = spring_mass(300.0, 1.5, false);
    let (mut b, _, fb, _) = spring_mass(300.0, 1.5, true);
    let (mut ea, mut eb) = (LinearizedImplicitEuler::new(), LinearizedImplicitEuler::new());
    for _ in 0..2000 {
        ea.step_system(&mut a, &joints, &fa, 1e-3).unwrap();
        eb.step_system(&mut b, &joints, &fb, 1e-3).unwrap();
    }
    let d = (a.get(h).unwrap().com_position() - b.get(h).unwrap().com_position()).norm();
    assert!(d < 1e-6, "linearized Euler: trajectories differ by {d} m");
}

#[test]
fn save_and_restore_reproduce_a_run_bitwise() {
    let (mut bodies, joints, forces, _) = spring_mass(150.0, 0.5, false);
    let mut hht = Hht::new(-0.2).unwrap();
    for _ in 0..100 {
        hht.step_system(&mut bodies, &joints, &forces, 1e-3).unwrap();
    }
    let (saved, history) = (bodies.save_state(), hht.save_history());
    let run = |bodies: &mut BodySet, hht: &mut Hht| {
        for _ in 0..250 {
            hht.step_system(bodies, &joints, &forces, 1e-3).unwrap();
        }
        (bodies.save_state().to_bits(), hht.save_history().to_bits())
    };
    let first = run(&mut bodies, &mut hht);
    bodies.restore_state(&saved).unwrap();
    hht.restore_history(&history);
    assert_eq!(run(&mut bodies, &mut hht), first);
}

#[test]
fn alpha_outside_its_range_is_refused() {
    assert_eq!(Hht::new(0.1).unwrap_err(), MbsError::InvalidAlpha(0.1));
    assert_eq!(Hht::new(-0.4).unwrap_err(), MbsError::InvalidAlpha(-0.4));
    assert!(Hht::new(-1.0 / 3.0).is_ok());
}

#[test]
fn redundant_joints_give_a_typed_error_naming_time_and_elements() {
    let (mut bodies, mut joints, bob) = pendulum(1.0, 1.0, 1e-2, 0.1);
    let ground = BodySet::iter(&bodies).next().unwrap().0;
    joints.insert(Joint::new("twin", JointKind::Revolute, &bodies, ground, bob, Isometry3::identity()).unwrap());
    let e = Hht::new(-0.2).unwrap().step_system(&mut bodies, &joints, &ForceElementSet::new(), 1e-3).unwrap_err();
    let msg = e.to_string();
    assert!(matches!(e, MbsError::NonFiniteNewtonStep { .. }), "{msg}");
    assert!(msg.contains("t = 0 s") && msg.contains("joint `pivot`") && msg.contains("joint `twin`"), "{msg}");
}

#[test]
fn every_joint_family_holds_under_hht() {
    let kinds = [
        JointKind::Lock,
        JointKind::Revolute,
        JointKind::Prismatic,
        JointKind::Spherical,
        JointKind::Universal,
        JointKind::Cylindrical,
        JointKind::PointOnLine,
    ];
    for kind in kinds {
        let mut bodies = BodySet::new(Vector3::new(0.0, 0.0, -G));
        let ground = bodies.insert(RigidBodyBuilder::fixed().build().unwrap());
        let b = bodies.insert(
            RigidBodyBuilder::dynamic(1.0, Vector3::new(0.1, 0.2, 0.3))
                .com_offset(Isometry3::translation(0.2, 0.1, 0.0))
                .linvel(Vector3::new(0.3, -0.2, 0.1))
                .angvel(Vector3::new(0.5, 0.2, 1.0))
                .build()
                .unwrap(),
        );
        let frame = Isometry3::from_parts(
            Translation3::new(0.0, 0.0, 0.0),
            UnitQuaternion::from_scaled_axis(Vector3::new(0.3, 0.2, 0.1)),
        );
        let mut joints = JointSet::new();
        joints.insert(Joint::new("j", kind, &bodies, ground, b, frame).unwrap());
        let mut hht = Hht::new(-0.2).unwrap();
        for _ in 0..500 {
            hht.step_system(&mut bodies, &joints, &ForceElementSet::new(), 1e-3).unwrap();
        }
        assert!(max_residual(&bodies, &joints) < 1e-9, "{kind:?}: residual {}", max_residual(&bodies, &joints));
    }
    // A distance joint: a rod from a ground point to an offset point of the body.
    let mut bodies = BodySet::new(Vector3::new(0.0, 0.0, -G));
    let ground = bodies.insert(RigidBodyBuilder::fixed().build().unwrap());
    let b = bodies.insert(
        RigidBodyBuilder::dynamic(1.0, Vector3::new(0.1, 0.2, 0.3))
            .angvel(Vector3::new(0.5, 0.2, 1.0))
            .build()
            .unwrap(),
    );
    let mut joints = JointSet::new();
    joints.insert(
        Joint::distance("rod", &bodies, ground, b, Vector3::new(0.0, 0.0, 1.0), Vector3::new(0.1, 0.0, 0.0)).unwrap(),
    );
    let mut hht = Hht::new(-0.2).unwrap();
    for _ in 0..500 {
        hht.step_system(&mut bodies, &joints, &ForceElementSet::new(), 1e-3).unwrap();
    }
    assert!(max_residual(&bodies, &joints) < 1e-9);
    assert!(Joint::new("bad", JointKind::Distance, &bodies, ground, b, Isometry3::identity()).is_err());
}
