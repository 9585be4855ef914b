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

/// Body A (2 kg) held to ground by a 200 N/m spring and body B (1 kg) driven by A through a
/// 100 N/m spring, along x, no gravity, integrated by BDF2 with step `h` for 1 s with the
/// Jacobians verified at the first step: ground→A is the self-coupling A→S→A (its only free
/// body is A), A→B the chain A→S→B. Returns `(t, x_A, x_B)` (displacements from rest) and the
/// verification's largest relative error.
fn chain(policy: crate::solver::jacobian::JacobianPolicy, h: f64) -> (Vec<(f64, f64, f64)>, Option<f64>) {
    use crate::dynamics::tsda::Tsda;
    use crate::solver::jacobian::VerifySchedule;
    let mut bodies = BodySet::new(Vector3::zeros());
    let ground = bodies.insert(RigidBodyBuilder::fixed().build().unwrap());
    let at = |x: f64| nalgebra::Isometry3::translation(x, 0.0, 0.0);
    let a =
        bodies.insert(RigidBodyBuilder::dynamic(2.0, Vector3::repeat(0.1)).reference_pose(at(1.1)).build().unwrap());
    let b =
        bodies.insert(RigidBodyBuilder::dynamic(1.0, Vector3::repeat(0.1)).reference_pose(at(2.0)).build().unwrap());
    let mut forces = ForceElementSet::new();
    let x = |v: f64| Vector3::new(v, 0.0, 0.0);
    forces.insert(Box::new(Tsda::new("hold", &bodies, ground, a, x(0.0), x(1.1), 200.0, 0.0, 0.0, 1.0).unwrap()));
    forces.insert(Box::new(Tsda::new("drive", &bodies, a, b, x(1.1), x(2.0), 100.0, 0.0, 0.0, 1.0).unwrap()));
    let mut bdf = Bdf::new(2).unwrap();
    bdf.jacobian.policy = policy;
    bdf.jacobian.verify = VerifySchedule::Once;
    let joints = JointSet::new();
    let mut out = Vec::new();
    let steps = (1.0 / h).round() as usize;
    for i in 1..=steps {
        bdf.step_system(&mut bodies, &joints, &forces, h).unwrap();
        out.push((i as f64 * h, bodies.get(a).unwrap().position.x - 1.0, bodies.get(b).unwrap().position.x - 2.0));
    }
    (out, bdf.jacobian_report().map(|r| r.max_rel_error()))
}

#[test]
fn stateless_chain_follows_its_closed_form_under_bdf2_with_verification() {
    use crate::solver::jacobian::JacobianPolicy;
    // M⁻¹K = [[150, −50], [−100, 100]]: ω² = 50 with mode (1, 2) and ω² = 200 with mode
    // (1, −1); from x_A = 0.1 m, x_B = 0 at rest the amplitudes are 0.1/3 and 0.2/3.
    let (w1, w2) = (50.0f64.sqrt(), 200.0f64.sqrt());
    let exact = |t: f64| {
        let (c1, c2) = ((w1 * t).cos() / 30.0, (w2 * t).cos() / 15.0);
        (c1 + c2, 2.0 * c1 - c2)
    };
    let (run, verified) = chain(JacobianPolicy::Auto, 1e-3);
    // The analytical blocks of both springs agree with central differences (at rest the
    // damper and lever-arm terms vanish; the springs' blocks are exact).
    assert!(verified.unwrap() < 1e-6, "{verified:?}");
    // BDF2's error after 1 s: of order (ω h)² ω t times the amplitude, ω h ≤ 0.014 here:
    // about 2e-4 · 14 · 0.07 m ≈ 2e-4 m (6.5e-5 m measured); 3e-4 m bounds it.
    let worst = run.iter().map(|(t, xa, xb)| {
        let (ea, eb) = exact(*t);
        (xa - ea).abs().max((xb - eb).abs())
    });
    let worst = worst.fold(0.0, f64::max);
    assert!(worst < 3e-4, "largest deviation from the closed form {worst} m");
    // The same model with every Jacobian entry differenced: Newton solves the same step
    // equations, so the trajectories agree to the Newton tolerance (1e-10 m per update; 1e-15 m
    // measured).
    let (numerical, _) = chain(JacobianPolicy::Numerical, 1e-3);
    let gap = run.iter().zip(&numerical).map(|(p, q)| (p.1 - q.1).abs().max((p.2 - q.2).abs())).fold(0.0, f64::max);
    assert!(gap < 1e-10, "analytical and numerical trajectories differ by {gap} m");
}
