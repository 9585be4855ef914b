//! The rigid-body solver on problems with known answers: free fall, torque-free rotation,
//! a spinning body with an offset COM, and bitwise checkpoint restore.

use nalgebra::{Isometry3, Vector3};
use tidelink_mbs_solver::{BodySet, Integrator, RigidBodyBuilder, SemiImplicitEuler};

const G: f64 = 9.81;

fn gravity() -> Vector3<f64> {
    Vector3::new(0.0, 0.0, -G)
}

#[test]
fn free_fall_follows_the_symplectic_euler_recurrence_and_the_parabola() {
    let mut set = BodySet::new(gravity());
    let z0 = 0.18;
    let h = set.insert(
        RigidBodyBuilder::dynamic(3.62, Vector3::repeat(0.021))
            .reference_pose(Isometry3::translation(0.0, 0.0, z0))
            .build()
            .unwrap(),
    );
    let dt = 1e-3;
    let mut integ = SemiImplicitEuler;
    // The recurrence the scheme implements: v_{n+1} = v_n − g dt, z_{n+1} = z_n + dt v_{n+1}.
    let (mut z, mut v) = (z0, 0.0_f64);
    for n in 1..=1000 {
        integ.step(&mut set, dt).unwrap();
        v += dt * -G;
        z += dt * v;
        let b = set.get(h).unwrap();
        assert_eq!(b.com_position().z.to_bits(), z.to_bits(), "step {n}");
        assert_eq!(b.linvel().z.to_bits(), v.to_bits(), "step {n}");
        // Against z(t) = z0 − g t²/2: the scheme's z_n = z0 − g dt² n(n+1)/2 lies below the
        // parabola by exactly g dt t / 2 (first order in dt).
        let t = n as f64 * dt;
        let exact = z0 - 0.5 * G * t * t;
        let err = exact - b.com_position().z;
        assert!((err - 0.5 * G * dt * t).abs() < 1e-12, "step {n}: error {err}");
        assert_eq!(b.com_position().x, 0.0);
    }
}

#[test]
fn fixed_bodies_stay_put() {
    let mut set = BodySet::new(gravity());
    let h =
        set.insert(RigidBodyBuilder::fixed().reference_pose(Isometry3::translation(1.0, 2.0, 3.0)).build().unwrap());
    set.get_mut(h).unwrap().add_force(Vector3::new(1e3, 0.0, 0.0));
    SemiImplicitEuler.step(&mut set, 0.1).unwrap();
    let b = set.get(h).unwrap();
    assert_eq!(b.reference_position(), Vector3::new(1.0, 2.0, 3.0));
    assert_eq!(b.linvel(), Vector3::zeros());
}

/// A symmetric top (I1 = I2 ≠ I3) spinning torque-free keeps its angular momentum; the
/// explicit gyroscopic term lets |L| drift at first order in dt, so the drift is bounded
/// and halves with the step.
#[test]
fn torque_free_rotation_of_a_symmetric_body_keeps_angular_momentum() {
    let drift = |dt: f64| {
        let mut set = BodySet::new(Vector3::zeros());
        let h = set.insert(
            RigidBodyBuilder::dynamic(1.0, Vector3::new(0.1, 0.1, 0.2))
                .angvel(Vector3::new(1.0, 0.5, 3.0))
                .build()
                .unwrap(),
        );
        let l0 = set.get(h).unwrap().angular_momentum();
        let mut worst: f64 = 0.0;
        let steps = (2.0 / dt).round() as usize;
        for _ in 0..steps {
            SemiImplicitEuler.step(&mut set, dt).unwrap();
            let b = set.get(h).unwrap();
            worst = worst.max((b.angular_momentum().norm() - l0.norm()).abs() / l0.norm());
        }
        let b = set.get(h).unwrap();
        let w_dir = b.angvel().normalize();
        (worst, w_dir.dot(&Vector3::new(1.0, 0.5, 3.0).normalize()))
    };
    let (d1, cos1) = drift(1e-3);
    let (d2, _) = drift(5e-4);
    println!("relative |L| drift over 2 s: {d1:.3e} at dt = 1e-3, {d2:.3e} at dt = 5e-4");
    assert!(d1 < 1e-3, "|L| drifted by {d1} over 2 s at dt = 1e-3");
    assert!(d2 < 0.6 * d1, "the drift should halve with the step: {d1} → {d2}");
    assert!(cos1 < 0.9999, "no precession seen (cos = {cos1})");

    // A spherical body: ω × Iω = 0, so |L| (and ω) are constant to round-off.
    let mut set = BodySet::new(Vector3::zeros());
    let h = set.insert(
        RigidBodyBuilder::dynamic(1.0, Vector3::repeat(0.3)).angvel(Vector3::new(2.0, -1.0, 0.5)).build().unwrap(),
    );
    for _ in 0..1000 {
        SemiImplicitEuler.step(&mut set, 1e-3).unwrap();
    }
    assert!((set.get(h).unwrap().angvel() - Vector3::new(2.0, -1.0, 0.5)).norm() < 1e-12);
}

/// A body spinning about its COM (no gravity) while its reference frame sits off the COM:
/// the COM stays where it is and the reference origin circles around it, always at
/// COM + R·(−com offset).
#[test]
fn reference_frame_follows_the_com_through_the_offset() {
    let mut set = BodySet::new(Vector3::zeros());
    let offset = Vector3::new(0.1, 0.0, 0.0);
    let h = set.insert(
        RigidBodyBuilder::dynamic(40.0, Vector3::new(0.2, 0.2, 0.534))
            .com_offset(Isometry3::translation(offset.x, offset.y, offset.z))
            .reference_pose(Isometry3::translation(1.0, 0.0, 0.0))
            .angvel(Vector3::new(0.0, 0.0, 2.0))
            .build()
            .unwrap(),
    );
    let com0 = set.get(h).unwrap().com_position();
    assert!((com0 - Vector3::new(1.1, 0.0, 0.0)).norm() < 1e-15);
    let dt = 1e-3;
    for n in 1..=800 {
        SemiImplicitEuler.step(&mut set, dt).unwrap();
        let b = set.get(h).unwrap();
        let r = b.reference_orientation();
        assert!((b.reference_position() - (b.com_position() + r * (-offset))).norm() < 1e-14);
        assert!((b.com_position() - com0).norm() < 1e-15, "the COM moved");
        // Rotation about z by 2 rad/s: the reference origin is at angle π + 2t around the COM.
        let ang = std::f64::consts::PI + 2.0 * n as f64 * dt;
        let want = com0 + 0.1 * Vector3::new(ang.cos(), ang.sin(), 0.0);
        assert!((b.reference_position() - want).norm() < 1e-12, "step {n}");
        // The reference origin moves at ω × (p − x_com).
        assert!((b.reference_velocity().norm() - 0.2).abs() < 1e-12);
    }
}

#[test]
fn state_restore_is_bitwise_exact() {
    let mut set = BodySet::new(gravity());
    let h = set.insert(
        RigidBodyBuilder::dynamic(2.0, Vector3::new(0.1, 0.2, 0.3))
            .products(Vector3::new(0.01, 0.0, -0.02))
            .angvel(Vector3::new(0.3, 1.7, -0.4))
            .linvel(Vector3::new(0.1, 0.0, 1.0))
            .build()
            .unwrap(),
    );
    set.get_mut(h).unwrap().add_force_at_point(Vector3::new(0.0, 3.0, 1.0), &Vector3::new(0.2, 0.0, 0.1));
    let saved = set.save_state();
    let run = |set: &mut BodySet| {
        for _ in 0..137 {
            SemiImplicitEuler.step(set, 7e-4).unwrap();
        }
        set.save_state().to_bits()
    };
    let first = run(&mut set);
    assert_ne!(first, saved.to_bits());
    set.restore_state(&saved).unwrap();
    assert_eq!(set.save_state().to_bits(), saved.to_bits());
    assert_eq!(run(&mut set), first);
    assert!(BodySet::new(gravity()).restore_state(&saved).is_err());
}

#[test]
fn divergence_is_an_error_not_a_panic() {
    let mut set = BodySet::new(gravity());
    let h = set.insert(RigidBodyBuilder::dynamic(1.0, Vector3::repeat(1.0)).build().unwrap());
    set.get_mut(h).unwrap().add_force(Vector3::new(f64::INFINITY, 0.0, 0.0));
    assert!(SemiImplicitEuler.step(&mut set, 1e-3).is_err());
}
