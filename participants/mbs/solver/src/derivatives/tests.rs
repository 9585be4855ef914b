//! The step's derivative against central differences of full steps on small systems that
//! exercise every term (spinning body: gyroscopic terms; spring-damper: `K`, `C`; hinge:
//! the joints' geometric stiffness; added mass turning with the body), the exact transpose
//! of the two modes, and the linear model of a pendulum against its closed-form frequency.

use super::verify::central_differences;
use super::*;
use crate::added_mass::{AddedMass, Frame};
use crate::dynamics::body::RigidBodyBuilder;
use crate::dynamics::body_set::{BodyHandle, BodySet};
use crate::dynamics::joint::{Joint, JointKind};
use crate::dynamics::tsda::Tsda;
use crate::solver::bdf::Bdf;
use crate::solver::jacobian::JacobianPolicy;
use crate::system::MultibodySystem;
use nalgebra::{DMatrix, Isometry3, Point3, Translation3, UnitQuaternion, Vector3};

const H: f64 = 0.01;

/// Tight Newton tolerances, so the converged steps the differences compare are exact to
/// ~1e-15 m (the default 1e-10 m would be 1e-10/ε of noise in a difference quotient).
fn integrator() -> Bdf {
    let mut b = Bdf::backward_euler();
    b.abs_tolerance = 1e-15;
    b.constraint_tolerance = 1e-14;
    b.max_iterations = 60;
    b
}

/// A spinning body with unequal moments, moving, tied to the ground by a spring-damper;
/// optionally on a hinge (revolute about a body-fixed axis through an off-centre point) and
/// with a full, body-axes added-mass block.
fn system(hinge: bool, added: bool) -> (MultibodySystem, BodyHandle) {
    let mut bodies = BodySet::new(Vector3::new(0.0, 0.0, -9.81));
    let ground = bodies.insert(RigidBodyBuilder::fixed().build().unwrap());
    let pose = Isometry3::from_parts(
        Translation3::new(0.4, -0.2, 1.0),
        UnitQuaternion::from_scaled_axis(Vector3::new(0.2, -0.1, 0.3)),
    );
    let mut builder = RigidBodyBuilder::dynamic(3.0, Vector3::new(0.5, 0.8, 1.3)).reference_pose(pose);
    builder = if hinge {
        builder.angvel(Vector3::new(0.0, 0.0, 0.0)).linvel(Vector3::zeros())
    } else {
        builder.angvel(Vector3::new(1.5, -2.0, 0.7)).linvel(Vector3::new(0.3, 0.1, -0.4))
    };
    let body = bodies.insert(builder.build().unwrap());
    let mut sys = MultibodySystem::from_parts(bodies, Default::default(), Default::default());
    let tsda = Tsda::new(
        "spring",
        &sys.bodies,
        ground,
        body,
        Vector3::new(0.0, 0.0, 2.0),
        Vector3::new(0.1, 0.0, 0.0),
        400.0,
        15.0,
        0.0,
        0.8,
    )
    .unwrap();
    sys.forces.insert(Box::new(tsda));
    if hinge {
        let frame = Isometry3::from_parts(
            Translation3::new(0.4, -0.2, 1.5),
            UnitQuaternion::rotation_between(&Vector3::z(), &Vector3::new(1.0, 0.3, 0.0)).unwrap(),
        );
        sys.joints.insert(Joint::new("hinge", JointKind::Revolute, &sys.bodies, ground, body, frame).unwrap());
    }
    if added {
        let g = DMatrix::from_fn(6, 6, |r, c| ((1 + r * 5 + c * 11) as f64 * 0.61).sin());
        let block = (&g * g.transpose() + DMatrix::identity(6, 6)) * 0.7;
        let am = AddedMass::new(vec![body], vec![block]).unwrap().with_frame(Frame::Body);
        sys.set_added_mass(am).unwrap();
    }
    sys.bodies.get_mut(body).unwrap().add_force(Vector3::new(2.0, -1.0, 5.0));
    (sys, body)
}

fn channels_of(body: BodyHandle) -> (Vec<Input>, Vec<Output>) {
    let point = Point3::new(0.3, -0.2, 0.1);
    let inputs = vec![Input::Force { body, point }, Input::Torque { body }];
    let outputs = vec![
        Output::Position { body, point },
        Output::Rotation { body },
        Output::Velocity { body, point },
        Output::AngularVelocity { body },
        Output::State(2),
        Output::State(4),
        Output::State(9),
    ];
    (inputs, outputs)
}

/// Largest entry error relative to the largest entry of the reference.
fn relative_error(a: &DMatrix<f64>, reference: &DMatrix<f64>) -> f64 {
    (a - reference).amax() / reference.amax()
}

fn compare(hinge: bool, added: bool) -> f64 {
    let (sys, body) = system(hinge, added);
    let (inputs, outputs) = channels_of(body);
    let d = StepDerivative::new(&sys, &integrator(), 0.0, H, &inputs, &outputs).unwrap();
    // ε = 1e-3 N on loads of a few N: the truncation error (ε² times the third derivative of a
    // nearly linear step) and the round-off (1e-16 m / 1e-3 N) both stay far below 1e-8.
    let fd = central_differences(&sys, &integrator(), 0.0, H, &inputs, &outputs, 1e-3).unwrap();
    let e = relative_error(&d.matrix(), &fd);
    println!("hinge {hinge}, added mass {added}: relative error {e:.2e}");
    e
}

/// 1e-7: the geometric terms are central differences of analytical quantities (1e-10), the
/// reference a difference quotient (≈1e-9); a missing term (the joints' geometric stiffness,
/// the turning inertia, the left Jacobian) shows as 8e-3 to 2e-2 here.
#[test]
fn free_spinning_body_matches_central_differences() {
    let e = compare(false, false);
    assert!(e < 1e-7, "relative error {e:e}");
}

#[test]
fn hinged_body_matches_central_differences() {
    let e = compare(true, false);
    assert!(e < 1e-7, "relative error {e:e}");
}

#[test]
fn added_mass_in_body_axes_matches_central_differences() {
    let e = compare(false, true);
    assert!(e < 1e-7, "relative error {e:e}");
    let e = compare(true, true);
    assert!(e < 1e-7, "relative error {e:e}");
}

/// `⟨λ, F v⟩ = ⟨Aᵀ λ, v⟩` for several seeds at once, to round-off (1e-13 relative: a few
/// dozen operations of LU solves on a 17-unknown system).
#[test]
fn forward_and_adjoint_are_exact_transposes() {
    for hinge in [false, true] {
        let (sys, body) = system(hinge, true);
        let (inputs, outputs) = channels_of(body);
        let d = StepDerivative::new(&sys, &integrator(), 0.0, H, &inputs, &outputs).unwrap();
        let v = DMatrix::from_fn(d.inputs(), 3, |r, c| ((r * 3 + c * 7 + 1) as f64).sin());
        let l = DMatrix::from_fn(d.outputs(), 3, |r, c| ((r * 5 + c * 2 + 3) as f64).cos());
        let fv = d.forward(&v).unwrap();
        let al = d.adjoint(&l).unwrap();
        for k in 0..3 {
            let lhs = l.column(k).dot(&fv.column(k));
            let rhs = al.column(k).dot(&v.column(k));
            let scale = l.column(k).norm() * fv.column(k).norm();
            assert!((lhs - rhs).abs() <= 1e-13 * scale, "{lhs} vs {rhs}");
        }
    }
}

/// Threads each with its own model give bit for bit what one after the other gives.
#[test]
fn concurrent_instances_do_not_interfere() {
    let run = |hinge: bool| {
        let (sys, body) = system(hinge, true);
        let (inputs, outputs) = channels_of(body);
        StepDerivative::new(&sys, &integrator(), 0.0, H, &inputs, &outputs).unwrap().matrix()
    };
    let serial = (run(false), run(true));
    let threads = std::thread::scope(|s| {
        let a = s.spawn(|| run(false));
        let b = s.spawn(|| run(true));
        (a.join().unwrap(), b.join().unwrap())
    });
    assert_eq!(serial, threads);
}

#[test]
fn bad_seeds_and_steps_are_refused() {
    let (sys, body) = system(false, false);
    let (inputs, outputs) = channels_of(body);
    let d = StepDerivative::new(&sys, &integrator(), 0.0, H, &inputs, &outputs).unwrap();
    assert!(matches!(d.forward(&DMatrix::zeros(2, 1)), Err(DerivativeError::SeedShape { .. })));
    assert!(matches!(
        StepDerivative::new(&sys, &integrator(), 0.0, -1.0, &inputs, &outputs),
        Err(DerivativeError::InvalidStep(_))
    ));
    assert!(matches!(
        StepDerivative::new(&sys, &integrator(), 0.0, H, &inputs, &[Output::State(99)]),
        Err(DerivativeError::StateOutOfRange { .. })
    ));
}

/// A compound pendulum hanging under gravity (hinge 0.5 m above the centre of mass, about x):
/// the linear model's eigenvalues are `±i √(m g d / (I + m d²))`, all of its stiffness coming
/// from the hinge's geometric term (gravity is a constant force). 1e-8: the geometric term's
/// central differences.
#[test]
fn pendulum_linear_model_has_its_frequency() {
    let (m, i, d, g) = (3.0, 0.8, 0.5, 9.81);
    let mut bodies = BodySet::new(Vector3::new(0.0, 0.0, -g));
    let ground = bodies.insert(RigidBodyBuilder::fixed().build().unwrap());
    let body = bodies.insert(
        RigidBodyBuilder::dynamic(m, Vector3::new(i, 1.1, 1.2))
            .reference_pose(Isometry3::translation(0.0, 0.0, -d))
            .build()
            .unwrap(),
    );
    let mut sys = MultibodySystem::from_parts(bodies, Default::default(), Default::default());
    let axis = UnitQuaternion::rotation_between(&Vector3::z(), &Vector3::x()).unwrap();
    sys.joints.insert(
        Joint::new(
            "hinge",
            JointKind::Revolute,
            &sys.bodies,
            ground,
            body,
            Isometry3::from_parts(Translation3::identity(), axis),
        )
        .unwrap(),
    );
    let outputs = [Output::Rotation { body }];
    let lin = linearize(&sys, JacobianPolicy::Auto, &[Input::Torque { body }], &outputs, &[]).unwrap();
    assert_eq!(lin.partition.independent, vec![3], "the rotation about x is the free coordinate");
    let omega = (m * g * d / (i + m * d * d)).sqrt();
    for e in lin.eigenvalues() {
        assert!(e.re.abs() < 1e-8 * omega && (e.im.abs() - omega).abs() < 1e-8 * omega, "{e} vs ±{omega}i");
    }
    assert!(lin.unbalanced < 1e-9, "hanging at rest is an equilibrium");
    // A unit torque about x: ẍ = 1 / (I + m d²) on the angle, read as the rotation output.
    let b = lin.b[(1, 0)];
    assert!((b - 1.0 / (i + m * d * d)).abs() < 1e-12, "{b}");
    assert!((lin.c[(0, 0)] - 1.0).abs() < 1e-12);
}

/// What an FMU instance per thread needs: a derivative can move to and be shared by threads.
#[test]
fn a_step_derivative_is_send_and_sync() {
    fn send_sync<T: Send + Sync>() {}
    send_sync::<StepDerivative>();
    send_sync::<LinearModel>();
}
