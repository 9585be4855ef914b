//! Infinite-frequency added mass in the mass matrix: closed-form accelerations and periods,
//! a direct solve of the coupled system, independence of the body order and of the
//! non-hydrodynamic bodies, BODY axes, reference-point shifts, and what is refused.

use nalgebra::{DMatrix, DVector, Isometry3, Point3, Translation3, UnitQuaternion, Vector3};
use std::f64::consts::{FRAC_PI_2, PI};
use tidelink_mbs_solver::added_mass::{AddedMass, AddedMassError, Frame, ReferencePoint};
use tidelink_mbs_solver::{
    BodyHandle, BodySet, Hht, Integrator, Joint, JointKind, LinearizedImplicitEuler, MbsError, MultibodySystem,
    RigidBodyBuilder, SemiImplicitEuler, Tsda,
};

fn integrators() -> Vec<Box<dyn Integrator>> {
    vec![Box::new(Hht::default()), Box::new(LinearizedImplicitEuler::new())]
}

fn free(set: &mut BodySet, mass: f64, moments: Vector3<f64>, pose: Isometry3<f64>) -> BodyHandle {
    set.insert(RigidBodyBuilder::dynamic(mass, moments).reference_pose(pose).build().unwrap())
}

/// A 6 × 6 block with `a` at `(k, k)` only.
fn single(k: usize, a: f64) -> DMatrix<f64> {
    let mut m = DMatrix::zeros(6, 6);
    m[(k, k)] = a;
    m
}

/// A symmetric positive definite `n × n` matrix with every entry non-zero.
fn dense_spd(n: usize, scale: f64) -> DMatrix<f64> {
    let g = DMatrix::from_fn(n, n, |r, c| ((1 + r * 5 + c * 11) as f64 * 0.61).sin());
    (&g * g.transpose() + DMatrix::identity(n, n)) * scale
}

/// The row blocks of a 6N × 6N matrix.
fn rows(a: &DMatrix<f64>) -> Vec<DMatrix<f64>> {
    (0..a.nrows() / 6).map(|i| a.rows(6 * i, 6).into_owned()).collect()
}

fn close(a: f64, b: f64, rel: f64) -> bool {
    (a - b).abs() <= rel * a.abs().max(b.abs()).max(1.0)
}

/// (a) A free body with heave added mass `a` under a constant vertical force `F` accelerates
/// at `F/(m + a)`; gravity, a force on the body's own mass, gives `(F + m g)/(m + a)`.
#[test]
fn free_body_accelerates_at_force_over_mass_plus_added_mass() {
    let (m, a, f, dt) = (2.0, 3.0, 10.0, 0.01);
    for g in [0.0, -9.81] {
        for mut integrator in integrators() {
            let mut sys = MultibodySystem::new(Vector3::new(0.0, 0.0, g));
            let h = free(&mut sys.bodies, m, Vector3::repeat(1.0), Isometry3::identity());
            sys.set_added_mass(AddedMass::new(vec![h], vec![single(2, a)]).unwrap()).unwrap();
            sys.bodies.get_mut(h).unwrap().add_force(Vector3::new(0.0, 0.0, f));
            let n = 50;
            for _ in 0..n {
                sys.step(integrator.as_mut(), dt).unwrap();
            }
            let t = n as f64 * dt;
            let b = sys.bodies.get(h).unwrap();
            let expected = (f + m * g) / (m + a);
            assert!(
                close(b.linvel().z / t, expected, 1e-12),
                "{}: {} vs {expected}",
                integrator.name(),
                b.linvel().z / t
            );
            assert!(b.linvel().xy().norm() == 0.0 && b.angvel().norm() == 0.0);
            if integrator.name() == "HHT-alpha" {
                // Constant acceleration: Newmark positions are exact.
                assert!(close(b.com_position().z, 0.5 * expected * t * t, 1e-12), "{}", b.com_position().z);
            }
        }
    }
}

/// (b) A body on a vertical spring with heave added mass oscillates at `√(k/(m + a))`.
#[test]
fn spring_mass_with_added_mass_oscillates_at_the_reduced_frequency() {
    let (m, a, k) = (1.0_f64, 3.0, 40.0);
    let period = 2.0 * PI * ((m + a) / k).sqrt();
    let dt = period / 400.0;
    for mut integrator in integrators() {
        let mut sys = MultibodySystem::new(Vector3::zeros());
        let ground = sys.bodies.insert(RigidBodyBuilder::fixed().build().unwrap());
        let h = free(&mut sys.bodies, m, Vector3::repeat(1.0), Isometry3::translation(0.0, 0.0, -0.05));
        let spring = Tsda::new(
            "spring",
            &sys.bodies,
            ground,
            h,
            Vector3::new(0.0, 0.0, 1.0),
            Vector3::new(0.0, 0.0, -0.05),
            k,
            0.0,
            0.0,
            1.0,
        )
        .unwrap();
        sys.forces.insert(Box::new(spring));
        sys.set_added_mass(AddedMass::new(vec![h], vec![single(2, a)]).unwrap()).unwrap();
        let mut samples = Vec::new();
        for i in 0..(3.6 * 400.0) as usize {
            sys.step(integrator.as_mut(), dt).unwrap();
            samples.push(((i + 1) as f64 * dt, sys.bodies.get(h).unwrap().com_position().z));
        }
        let ups: Vec<f64> = samples
            .windows(2)
            .filter(|w| w[0].1 < 0.0 && w[1].1 >= 0.0)
            .map(|w| w[0].0 + (w[1].0 - w[0].0) * (-w[0].1) / (w[1].1 - w[0].1))
            .collect();
        assert!(ups.len() >= 3, "{} crossings", ups.len());
        let measured = (ups[ups.len() - 1] - ups[0]) / (ups.len() - 1) as f64;
        let err = (measured - period).abs() / period;
        assert!(err < 2e-3, "{}: period {measured} s, expected {period} s (error {err:e})", integrator.name());
    }
}

/// Two free bodies (isotropic inertia: the problem stays linear), `A` full 12 × 12.
struct Pair {
    sys: MultibodySystem,
    float: BodyHandle,
    plate: BodyHandle,
}

const FLOAT: (f64, f64) = (5.0, 2.0);
const PLATE: (f64, f64) = (3.0, 1.5);

fn loads() -> [(Vector3<f64>, Vector3<f64>); 2] {
    [
        (Vector3::new(1.0, 2.0, 3.0), Vector3::new(0.1, -0.2, 0.3)),
        (Vector3::new(-2.0, 0.5, 1.0), Vector3::new(-0.3, 0.4, 0.05)),
    ]
}

/// The float and the plate at rest with constant loads and the coupled `A` (rows float, plate).
fn pair(a: &DMatrix<f64>) -> Pair {
    let mut sys = MultibodySystem::new(Vector3::zeros());
    let float = free(&mut sys.bodies, FLOAT.0, Vector3::repeat(FLOAT.1), Isometry3::identity());
    let plate = free(&mut sys.bodies, PLATE.0, Vector3::repeat(PLATE.1), Isometry3::translation(0.0, 0.0, -3.0));
    for (h, (f, t)) in [float, plate].into_iter().zip(loads()) {
        let b = sys.bodies.get_mut(h).unwrap();
        b.add_force(f);
        b.add_torque(t);
    }
    sys.set_added_mass(AddedMass::new(vec![float, plate], rows(a)).unwrap()).unwrap();
    Pair { sys, float, plate }
}

/// (c) The accelerations of two coupled bodies solve `(M + A) a = F`, 12 × 12, directly.
#[test]
fn coupled_bodies_match_the_direct_solve() {
    let a = dense_spd(12, 4.0);
    let mut m = DMatrix::zeros(12, 12);
    for (o, (mass, inertia)) in [(0, FLOAT), (6, PLATE)] {
        for d in 0..3 {
            m[(o + d, o + d)] = mass;
            m[(o + 3 + d, o + 3 + d)] = inertia;
        }
    }
    let [(f1, t1), (f2, t2)] = loads();
    let f = DVector::from_iterator(12, f1.iter().chain(t1.iter()).chain(f2.iter()).chain(t2.iter()).copied());
    let direct = (&m + &a).lu().solve(&f).unwrap();
    // Without the coupling the answer is clearly different (the test can tell).
    assert!((&direct - m.clone().lu().solve(&f).unwrap()).amax() > 0.1 * direct.amax());
    let dt = 0.01;
    for mut integrator in integrators() {
        let mut p = pair(&a);
        p.sys.step(integrator.as_mut(), dt).unwrap();
        let got: Vec<f64> = if integrator.name() == "HHT-alpha" {
            integrator.save_history().accelerations
        } else {
            [p.float, p.plate]
                .iter()
                .flat_map(|h| {
                    let b = p.sys.bodies.get(*h).unwrap();
                    b.linvel().iter().chain(b.angvel().iter()).map(|v| v / dt).collect::<Vec<_>>()
                })
                .collect()
        };
        for k in 0..12 {
            assert!(close(got[k], direct[k], 1e-12), "{}: a[{k}] = {} vs {}", integrator.name(), got[k], direct[k]);
        }
    }
}

/// The float's and the plate's state after `steps`, as one vector.
fn trajectory_end(p: &mut Pair, integrator: &mut dyn Integrator, steps: usize) -> Vec<f64> {
    for _ in 0..steps {
        p.sys.step(integrator, 0.01).unwrap();
    }
    [p.float, p.plate]
        .iter()
        .flat_map(|h| {
            let b = p.sys.bodies.get(*h).unwrap();
            let q = b.com_orientation();
            b.com_position()
                .iter()
                .chain(q.coords.iter())
                .chain(b.linvel().iter())
                .chain(b.angvel().iter())
                .copied()
                .collect::<Vec<_>>()
        })
        .collect()
}

/// A spinning non-hydrodynamic body with its own loads (its motion is nonlinear).
fn bystander(set: &mut BodySet, z: f64) -> BodyHandle {
    let b = RigidBodyBuilder::dynamic(7.0, Vector3::new(1.0, 2.0, 3.0))
        .reference_pose(Isometry3::translation(4.0, 0.0, z))
        .angvel(Vector3::new(0.5, -1.0, 2.0))
        .linvel(Vector3::new(0.0, 1.0, 0.0))
        .build()
        .unwrap();
    let h = set.insert(b);
    set.get_mut(h).unwrap().add_force(Vector3::new(0.0, 0.0, -20.0));
    h
}

/// The pair built in another layout: `order` lists what to create ('f' float, 'p' plate,
/// 'b' a free bystander, 'g' a fixed body); `plate_first` lists the plate first in the
/// hydrodynamic list, with the blocks permuted to match. A spring joins float and plate.
fn pair_in_layout(a: &DMatrix<f64>, order: &str, plate_first: bool) -> Pair {
    let mut sys = MultibodySystem::new(Vector3::zeros());
    let (mut float, mut plate) = (None, None);
    for (i, c) in order.chars().enumerate() {
        match c {
            'f' => float = Some(free(&mut sys.bodies, FLOAT.0, Vector3::repeat(FLOAT.1), Isometry3::identity())),
            'p' => {
                let pose = Isometry3::translation(0.0, 0.0, -3.0);
                plate = Some(free(&mut sys.bodies, PLATE.0, Vector3::repeat(PLATE.1), pose));
            }
            'b' => {
                bystander(&mut sys.bodies, i as f64);
            }
            _ => {
                sys.bodies.insert(RigidBodyBuilder::fixed().build().unwrap());
            }
        }
    }
    let (float, plate) = (float.unwrap(), plate.unwrap());
    for (h, (f, t)) in [float, plate].into_iter().zip(loads()) {
        let b = sys.bodies.get_mut(h).unwrap();
        b.add_force(f);
        b.add_torque(t);
    }
    let spring = Tsda::new(
        "link",
        &sys.bodies,
        float,
        plate,
        Vector3::new(0.2, 0.0, 0.0),
        Vector3::new(0.0, 0.1, -3.0),
        30.0,
        2.0,
        0.0,
        2.5,
    )
    .unwrap();
    sys.forces.insert(Box::new(spring));
    let am = if plate_first {
        // Swap the two bodies: P A Pᵀ with P exchanging the 6-blocks.
        let perm = DMatrix::from_fn(12, 12, |r, c| if (r + 6) % 12 == c { 1.0 } else { 0.0 });
        AddedMass::new(vec![plate, float], rows(&(&perm * a * perm.transpose()))).unwrap()
    } else {
        AddedMass::new(vec![float, plate], rows(a)).unwrap()
    };
    sys.set_added_mass(am).unwrap();
    Pair { sys, float, plate }
}

/// (d) Index spaces: the blocks follow the hydrodynamic list, not the creation order nor
/// the DOF offsets; bodies without hydrodynamics anywhere change nothing.
#[test]
fn trajectories_do_not_depend_on_body_layout_or_order() {
    let a = dense_spd(12, 4.0);
    let layouts = [("bfgpb", false), ("pbf", false), ("gpbbf", true), ("fp", true), ("pf", true)];
    // HHT factoring its Newton matrix in each step: the layouts part by round-off (another
    // pivot order), 1e-12 relative over 60 steps. With the factors kept across steps (the
    // default) Newton's iterates converge linearly, and each step's root is found to the Newton
    // tolerance instead of to round-off: positions within 1e-10 m, accelerations within
    // 1e-10 / (β h²), so velocities within γ h of that, (γ / (β h)) 1e-10 ≈ 2e-8 m/s at h =
    // 0.01 s (the solver's tests_dense.rs measures a fraction of these). 1e-7 allows a few
    // steps' worth on values of order 1 (4e-12 measured); a layout that mattered (the coupling
    // blocks misplaced, as below) changes them by 1e-3.
    let per_step = || {
        let mut h = Hht::default();
        h.keep_factors_across_steps = false;
        Box::new(h) as Box<dyn Integrator>
    };
    type Make = fn() -> Box<dyn Integrator>;
    let makers: [(Make, f64); 3] =
        [(per_step, 1e-12), (|| Box::new(Hht::default()), 1e-7), (|| Box::new(LinearizedImplicitEuler::new()), 1e-12)];
    for (make, bound) in makers {
        let reference = trajectory_end(&mut pair_in_layout(&a, "fp", false), make().as_mut(), 60);
        for (order, plate_first) in layouts {
            let got = trajectory_end(&mut pair_in_layout(&a, order, plate_first), make().as_mut(), 60);
            let scale = reference.iter().fold(1.0_f64, |m, x| m.max(x.abs()));
            let worst = got.iter().zip(&reference).map(|(x, y)| (x - y).abs()).fold(0.0, f64::max) / scale;
            assert!(worst < bound, "{}: layout {order} (plate first {plate_first}): {worst:e}", make().name());
        }
        // The coupling matters here: ignoring it (block-diagonal A) changes the result.
        let mut diag = a.clone();
        diag.view_mut((0, 6), (6, 6)).fill(0.0);
        diag.view_mut((6, 0), (6, 6)).fill(0.0);
        let other = trajectory_end(&mut pair_in_layout(&diag, "fp", false), make().as_mut(), 60);
        assert!(other.iter().zip(&reference).any(|(x, y)| (x - y).abs() > 1e-3));
    }
}

/// The velocity after one step from rest over the step: the acceleration at the start.
fn first_acceleration(sys: &mut MultibodySystem, h: BodyHandle, dt: f64) -> DVector<f64> {
    sys.step(&mut LinearizedImplicitEuler::new(), dt).unwrap();
    let b = sys.bodies.get(h).unwrap();
    DVector::from_iterator(6, b.linvel().iter().chain(b.angvel().iter()).map(|v| v / dt))
}

/// (e) Sway added mass in BODY axes of a body turned 90° about z acts on world x.
#[test]
fn body_frame_sway_added_mass_acts_along_the_turned_axis() {
    let (m, a, f, dt) = (2.0, 6.0, 4.0, 0.01);
    let turned =
        Isometry3::from_parts(Translation3::identity(), UnitQuaternion::from_axis_angle(&Vector3::z_axis(), FRAC_PI_2));
    for (frame, heavy) in [(Frame::Body, 0), (Frame::Inertial, 1)] {
        for axis in 0..2 {
            let mut sys = MultibodySystem::new(Vector3::zeros());
            let h = free(&mut sys.bodies, m, Vector3::repeat(1.0), turned);
            sys.set_added_mass(AddedMass::new(vec![h], vec![single(1, a)]).unwrap().with_frame(frame)).unwrap();
            let mut force = Vector3::zeros();
            force[axis] = f;
            sys.bodies.get_mut(h).unwrap().add_force(force);
            let acc = first_acceleration(&mut sys, h, dt);
            let expected = if axis == heavy { f / (m + a) } else { f / m };
            assert!(close(acc[axis], expected, 1e-12), "{frame:?}, axis {axis}: {} vs {expected}", acc[axis]);
            assert!(acc.iter().enumerate().all(|(k, v)| k == axis || v.abs() < 1e-14));
        }
    }
}

/// `S = [I −[r]×; 0 I]`: the velocity of the point at `r` from the COM is `S [v; ω]`.
fn shift(r: Vector3<f64>) -> DMatrix<f64> {
    let mut s = DMatrix::identity(6, 6);
    s.view_mut((0, 3), (3, 3)).copy_from(&(-r.cross_matrix()));
    s
}

/// A body with an offset, turned COM frame, about which the coefficients are not given.
fn offset_body(set: &mut BodySet) -> BodyHandle {
    let pose =
        Isometry3::from_parts(Translation3::new(0.5, -1.0, 0.2), UnitQuaternion::from_euler_angles(0.4, 0.2, -0.7));
    let com =
        Isometry3::from_parts(Translation3::new(0.1, -0.2, 0.3), UnitQuaternion::from_euler_angles(0.0, 0.3, 0.0));
    let b = RigidBodyBuilder::dynamic(4.0, Vector3::new(1.0, 1.5, 2.0)).com_offset(com).reference_pose(pose).build();
    let h = set.insert(b.unwrap());
    let b = set.get_mut(h).unwrap();
    b.add_force(Vector3::new(3.0, -1.0, 2.0));
    b.add_torque(Vector3::new(0.5, 0.2, -0.4));
    h
}

/// (f) Coefficients about a point off the COM give the same dynamics as the COM matrix
/// `Sᵀ A S` computed by hand: along a whole turning trajectory in BODY axes (where the shift
/// is constant), and at the start in inertial axes (a body point or the same world point).
#[test]
fn reference_point_shift_matches_the_hand_computed_com_matrix() {
    let p_local = Vector3::new(0.5, 0.2, -0.4);
    let c = Vector3::new(0.1, -0.2, 0.3);
    let a_p = dense_spd(6, 1.5);
    // BODY axes: r in the reference frame's axes is p − c for every orientation.
    let s = shift(p_local - c);
    let a_com_body = s.transpose() * &a_p * &s;
    let mut ends = Vec::new();
    for (blocks, point) in [(a_p.clone(), ReferencePoint::Body(p_local)), (a_com_body, ReferencePoint::Com)] {
        let mut sys = MultibodySystem::new(Vector3::zeros());
        let h = offset_body(&mut sys.bodies);
        let am = AddedMass::new(vec![h], vec![blocks]).unwrap().with_frame(Frame::Body);
        sys.set_added_mass(am.with_reference_points(&sys.bodies, &[point]).unwrap()).unwrap();
        let mut hht = Hht::default();
        for _ in 0..80 {
            sys.step(&mut hht, 0.01).unwrap();
        }
        let b = sys.bodies.get(h).unwrap();
        assert!(b.angvel().norm() > 0.1, "the body turns");
        ends.push((b.com_position(), b.com_orientation(), b.linvel(), b.angvel()));
    }
    let (x, y) = (&ends[0], &ends[1]);
    let d = (x.0 - y.0).norm() + x.1.angle_to(&y.1) + (x.2 - y.2).norm() + (x.3 - y.3).norm();
    assert!(d < 1e-10, "BODY-axes shift: trajectories differ by {d:e}");

    // Inertial axes, at the initial state: r = p_world − x_com.
    let mut sys = MultibodySystem::new(Vector3::zeros());
    let h = offset_body(&mut sys.bodies);
    let b = sys.bodies.get(h).unwrap();
    let p_world = b.reference_pose() * Point3::from(p_local);
    let s = shift(p_world.coords - b.com_position());
    let a_com = s.transpose() * &a_p * &s;
    let mut accs = Vec::new();
    for (blocks, point) in [
        (a_p.clone(), ReferencePoint::Body(p_local)),
        (a_p.clone(), ReferencePoint::World(p_world.coords)),
        (a_com, ReferencePoint::Com),
    ] {
        let mut sys = MultibodySystem::new(Vector3::zeros());
        let h = offset_body(&mut sys.bodies);
        let am = AddedMass::new(vec![h], vec![blocks]).unwrap().with_reference_points(&sys.bodies, &[point]).unwrap();
        sys.set_added_mass(am).unwrap();
        accs.push(first_acceleration(&mut sys, h, 1e-3));
    }
    for acc in &accs[..2] {
        assert!((acc - &accs[2]).amax() < 1e-12 * accs[2].amax(), "{acc} vs {}", accs[2]);
    }
    // Unshifted coefficients would give another answer.
    let mut sys = MultibodySystem::new(Vector3::zeros());
    let h = offset_body(&mut sys.bodies);
    sys.set_added_mass(AddedMass::new(vec![h], vec![a_p]).unwrap()).unwrap();
    assert!((first_acceleration(&mut sys, h, 1e-3) - &accs[2]).amax() > 1e-3 * accs[2].amax());
}

/// (g) A negative heave coefficient larger than the mass makes `M + A∞` indefinite: refused
/// when set, when updated and at the first step, naming the body and the eigenvalue.
#[test]
fn indefinite_total_mass_is_refused() {
    let m = 3.0;
    let mut sys = MultibodySystem::new(Vector3::zeros());
    let h = free(&mut sys.bodies, m, Vector3::repeat(1.0), Isometry3::identity());
    let bad = AddedMass::new(vec![h], vec![single(2, -(m + 1.0))]).unwrap().with_names(vec!["float".into()]).unwrap();
    let e = sys.set_added_mass(bad.clone()).unwrap_err();
    let MbsError::AddedMass(AddedMassError::NotPositiveDefinite { smallest, ref bodies, .. }) = e else {
        panic!("{e:?}")
    };
    assert!((smallest + 1.0).abs() < 1e-12, "smallest eigenvalue {smallest}");
    assert_eq!(bodies, &vec!["body `float` (mostly z)".to_string()]);
    let text = e.to_string();
    assert!(text.contains("`float`") && text.contains("-1e0") && text.contains("sign convention"), "{text}");
    assert!(sys.added_mass.is_none(), "a refused set leaves the previous added mass");

    // An update that breaks it is refused and the previous coefficients stay.
    let good = AddedMass::new(vec![h], vec![single(2, 1.0)]).unwrap();
    sys.set_added_mass(good.clone()).unwrap();
    let e = sys.update_added_mass(&[(h, single(2, -10.0))]).unwrap_err();
    assert!(matches!(e, MbsError::AddedMass(AddedMassError::NotPositiveDefinite { .. })), "{e:?}");
    assert_eq!(sys.added_mass.as_ref().unwrap().blocks(), good.blocks());
    sys.update_added_mass(&[(h, single(2, 2.0))]).unwrap();
    assert_eq!(sys.added_mass.as_ref().unwrap().blocks()[0][(2, 2)], 2.0);

    // Put in place directly, it is caught at the first step, before the state moves.
    sys.added_mass = Some(bad);
    sys.bodies.get_mut(h).unwrap().add_force(Vector3::new(0.0, 0.0, 1.0));
    let before = sys.bodies.save_state();
    let e = sys.step(&mut Hht::default(), 0.01).unwrap_err();
    assert!(matches!(e, MbsError::AddedMass(AddedMassError::NotPositiveDefinite { .. })), "{e:?}");
    assert_eq!(sys.bodies.save_state(), before);
}

/// (h) The semi-implicit Euler scheme has no mass matrix to carry `A∞`: refused.
#[test]
fn semi_implicit_euler_refuses_added_mass() {
    let mut sys = MultibodySystem::new(Vector3::zeros());
    let h = free(&mut sys.bodies, 1.0, Vector3::repeat(1.0), Isometry3::identity());
    sys.step(&mut SemiImplicitEuler, 0.01).unwrap();
    sys.set_added_mass(AddedMass::new(vec![h], vec![single(2, 1.0)]).unwrap()).unwrap();
    let e = sys.step(&mut SemiImplicitEuler, 0.01).unwrap_err();
    assert_eq!(e, MbsError::AddedMassUnsupported("semi-implicit (symplectic) Euler"));
    assert!(e.to_string().contains("HHT"), "{e}");
    assert!(!SemiImplicitEuler.handles_added_mass());
    assert!(Hht::default().handles_added_mass() && LinearizedImplicitEuler::new().handles_added_mass());
}

/// A fixed hydrodynamic body drops out: the free body keeps only its own block.
#[test]
fn fixed_hydrodynamic_bodies_are_dropped() {
    let mut sys = MultibodySystem::new(Vector3::zeros());
    let ground = sys.bodies.insert(RigidBodyBuilder::fixed().build().unwrap());
    let h = free(&mut sys.bodies, 2.0, Vector3::repeat(1.0), Isometry3::identity());
    let a = dense_spd(12, 1.0);
    sys.set_added_mass(AddedMass::new(vec![ground, h], rows(&a)).unwrap()).unwrap();
    sys.bodies.get_mut(h).unwrap().add_force(Vector3::new(1.0, -2.0, 0.5));
    let acc = first_acceleration(&mut sys, h, 1e-3);
    let mut m = a.view((6, 6), (6, 6)).into_owned();
    for d in 0..3 {
        m[(d, d)] += 2.0;
        m[(3 + d, 3 + d)] += 1.0;
    }
    let direct = m.lu().solve(&DVector::from_vec(vec![1.0, -2.0, 0.5, 0.0, 0.0, 0.0])).unwrap();
    assert!((acc - &direct).amax() < 1e-12 * direct.amax());
}

/// With joints: a body on a vertical prismatic joint with a full, coupled `A` moves only in
/// heave, at `F_z / (m + A_zz)` (the constrained directions' coefficients do not count).
#[test]
fn prismatic_heave_sees_only_the_heave_coefficient() {
    let (m, f, dt) = (2.0, 6.0, 0.01);
    let a = dense_spd(6, 3.0);
    let expected = f / (m + a[(2, 2)]);
    for mut integrator in integrators() {
        let mut sys = MultibodySystem::new(Vector3::zeros());
        let ground = sys.bodies.insert(RigidBodyBuilder::fixed().build().unwrap());
        let h = free(&mut sys.bodies, m, Vector3::repeat(1.0), Isometry3::identity());
        let joint = Joint::new("slide", JointKind::Prismatic, &sys.bodies, ground, h, Isometry3::identity()).unwrap();
        sys.joints.insert(joint);
        sys.set_added_mass(AddedMass::new(vec![h], vec![a.clone()]).unwrap()).unwrap();
        let b = sys.bodies.get_mut(h).unwrap();
        b.add_force(Vector3::new(1.0, -2.0, f));
        b.add_torque(Vector3::new(0.3, 0.0, -0.2));
        let n = 40;
        for _ in 0..n {
            sys.step(integrator.as_mut(), dt).unwrap();
        }
        let b = sys.bodies.get(h).unwrap();
        let got = b.linvel().z / (n as f64 * dt);
        assert!(close(got, expected, 1e-9), "{}: {got} vs {expected}", integrator.name());
        assert!(b.com_position().xy().norm() < 1e-9 && b.angvel().norm() < 1e-9);
    }
}
