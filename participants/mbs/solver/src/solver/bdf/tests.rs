//! Backward Euler and BDF2: the line search, the order of accuracy, checkpoints.

use super::*;
use crate::dynamics::body::RigidBodyBuilder;
use crate::dynamics::body_set::BodyHandle;
use crate::dynamics::force_element::{Block12, ForceElement, ForceElementSet, Wrench};
use crate::dynamics::joint::JointSet;
use crate::fixtures::tsda_slider;
use crate::solver::assembly::{DofMap, System};
use nalgebra::Vector3;

/// A saturating spring along x to the origin, `F = −K L atan(x/L)`, with its analytical
/// Jacobian: stiff near the origin, nearly constant far from it — where a full Newton step
/// overshoots (the classic divergence of Newton's method on `atan`).
#[derive(Debug, Clone)]
struct Saturating {
    body: BodyHandle,
    k: f64,
    l: f64,
}

impl ForceElement for Saturating {
    fn name(&self) -> &str {
        "saturating"
    }
    fn bodies(&self) -> [BodyHandle; 2] {
        [self.body, self.body]
    }
    fn wrenches(&self, bodies: &BodySet) -> [Wrench; 2] {
        let x = bodies.get(self.body).unwrap().position.x;
        let f = Vector3::new(-self.k * self.l * (x / self.l).atan(), 0.0, 0.0);
        [Wrench { force: f, torque: Vector3::zeros() }, Wrench::default()]
    }
    fn jacobian(&self, bodies: &BodySet) -> Option<(Block12, Block12)> {
        let x = bodies.get(self.body).unwrap().position.x;
        let mut k = Block12::zeros();
        k[(0, 0)] = -self.k / (1.0 + (x / self.l).powi(2));
        Some((k, Block12::zeros()))
    }
    fn has_jacobian(&self) -> bool {
        true
    }
}

/// A 1 kg body at x = `x0`, at rest, no gravity, on the saturating spring (K = 1e4 N/m, L = 1 m).
fn far_start(x0: f64) -> (BodySet, ForceElementSet, BodyHandle) {
    let mut bodies = BodySet::new(Vector3::zeros());
    let b = bodies.insert(
        RigidBodyBuilder::dynamic(1.0, Vector3::repeat(1.0))
            .reference_pose(nalgebra::Isometry3::translation(x0, 0.0, 0.0))
            .build()
            .unwrap(),
    );
    let mut forces = ForceElementSet::new();
    forces.insert(Box::new(Saturating { body: b, k: 1e4, l: 1.0 }));
    (bodies, forces, b)
}

#[test]
fn backtracking_converges_where_plain_newton_diverges() {
    let (h, x0) = (0.1, 10.0);
    let (bodies, forces, b) = far_start(x0);
    let joints = JointSet::new();
    // Plain Newton: from x = 10 the tangent of atan sends the iterate to about −64, then further.
    let mut plain = Bdf::new(1).unwrap();
    plain.max_halvings = 0;
    let mut state = bodies.clone();
    assert!(plain.step_system(&mut state, &joints, &forces, h).is_err(), "plain Newton converged");
    // With the line search.
    let mut damped = Bdf::new(1).unwrap();
    let mut state = bodies.clone();
    damped.step_system(&mut state, &joints, &forces, h).unwrap();
    assert!(damped.halvings > 0);
    // The backward-Euler equation m (x1 − x0)/h² + K L atan(x1/L) = 0 (v0 = 0), solved by
    // bisection on [−x0, x0] (its left side increases in x1).
    let g = |x: f64| (x - x0) / (h * h) + 1e4 * x.atan();
    let (mut lo, mut hi) = (-x0, x0);
    for _ in 0..200 {
        let mid = 0.5 * (lo + hi);
        if g(mid) > 0.0 {
            hi = mid;
        } else {
            lo = mid;
        }
    }
    let x1 = state.get(b).unwrap().position.x;
    // Newton stops when the last update is below 1e-10 m; quadratic convergence leaves far less.
    assert!((x1 - lo).abs() < 1e-9, "x1 = {x1}, bisection {lo}");
    assert!(((state.get(b).unwrap().linvel.x) - (x1 - x0) / h).abs() < 1e-8);
}

/// The error at t = 1 s of the slider of [`tsda_slider`] (k = 50 N/m, 2 kg, on a prismatic
/// joint, released 0.1 m from its free length): `x(t) = 1 + 0.1 cos(5 t)`.
fn slider_error(order: usize, h: f64) -> f64 {
    let (mut bodies, joints, tsda, mass) = tsda_slider("s", 50.0, 0.0);
    let mut forces = ForceElementSet::new();
    forces.insert(Box::new(tsda));
    let mut bdf = Bdf::new(order).unwrap();
    let steps = (1.0 / h).round() as usize;
    for _ in 0..steps {
        bdf.step_system(&mut bodies, &joints, &forces, h).unwrap();
        let (phi, _) = System { joints: &joints, forces: &forces, force_numerical: false }
            .constraints(&bodies, &DofMap::new(&bodies));
        assert!(phi.amax() < 1e-9, "constraint residual {}", phi.amax());
    }
    (bodies.get(mass).unwrap().position.x - (1.0 + 0.1 * 5.0f64.cos())).abs()
}

#[test]
fn backward_euler_is_first_and_bdf2_second_order() {
    // Halving the step divides the error by 2^order, up to the next term of the expansion
    // (ω h = 0.05 and 0.025 here): a band of ±15 % around 2 and 4.
    let (e1, e1_half) = (slider_error(1, 0.01), slider_error(1, 0.005));
    let (e2, e2_half) = (slider_error(2, 0.01), slider_error(2, 0.005));
    assert!((e1 / e1_half - 2.0).abs() < 0.3, "order 1: {e1} → {e1_half}");
    assert!((e2 / e2_half - 4.0).abs() < 0.6, "order 2: {e2} → {e2_half}");
    // At ω h = 0.05 the first-order error is about 8 times the second-order one.
    assert!(e2 < e1 / 5.0, "BDF2 {e2}, backward Euler {e1}");
}

#[test]
fn restored_history_repeats_the_steps_bit_for_bit() {
    let (bodies, joints, tsda, _) = tsda_slider("s", 50.0, 2.0);
    let mut forces = ForceElementSet::new();
    forces.insert(Box::new(tsda));
    let mut bdf = Bdf::new(2).unwrap();
    let mut state = bodies.clone();
    for _ in 0..3 {
        bdf.step_system(&mut state, &joints, &forces, 0.01).unwrap();
    }
    let (saved_bodies, saved) = (state.clone(), bdf.save_history());
    let run = |b: &mut BodySet, i: &mut Bdf| {
        for _ in 0..3 {
            i.step_system(b, &joints, &forces, 0.01).unwrap();
        }
        b.save_state().to_bits()
    };
    let first = run(&mut state, &mut bdf);
    let mut again = Bdf::new(2).unwrap();
    again.restore_history(&saved);
    let mut state = saved_bodies;
    assert_eq!(run(&mut state, &mut again), first);
}

#[test]
fn other_orders_are_refused() {
    assert!(Bdf::new(3).is_err() && Bdf::new(0).is_err());
    assert_eq!(Bdf::new(2).unwrap().name(), "BDF2");
}

#[test]
fn a_singular_newton_matrix_is_the_typed_error_naming_the_elements() {
    // A second prismatic joint on the same axis repeats the first one's rows: `Φ_q` loses rank.
    let (mut bodies, mut joints, tsda, mass) = tsda_slider("s", 50.0, 0.0);
    let ground = bodies.iter().next().unwrap().0;
    let frame = nalgebra::Isometry3::from_parts(
        nalgebra::Translation3::new(1.1, 0.0, 0.0),
        nalgebra::UnitQuaternion::rotation_between(&Vector3::z(), &Vector3::x()).unwrap(),
    );
    joints.insert(
        crate::dynamics::joint::Joint::new(
            "twin",
            crate::dynamics::joint::JointKind::Prismatic,
            &bodies,
            ground,
            mass,
            frame,
        )
        .unwrap(),
    );
    let mut forces = ForceElementSet::new();
    forces.insert(Box::new(tsda));
    let e = Bdf::new(2).unwrap().step_system(&mut bodies, &joints, &forces, 1e-2).unwrap_err();
    let msg = e.to_string();
    assert!(matches!(e, MbsError::NonFiniteNewtonStep { .. }), "{msg}");
    assert!(msg.contains("joint `slider`") && msg.contains("joint `twin`"), "{msg}");
}
