//! Bodies: Archimedes on a fixed submerged box, rigid marker kinematics, geometry sources, and
//! bitwise save/restore with a moving body.

mod support;

use nalgebra::{Isometry3, Point3, Translation3, UnitQuaternion, Vector3};
use support::{add_tank, G};
use tidelink_sph_solver::{BodySpec, Dimension, Motion, Parameters, Scene, Shape, Simulation, TriMesh};

/// Still water `depth` deep in a tank `width` wide with a box body (half extents `e`) centred at
/// `centre`.
fn tank_with_box(dim: Dimension, width: f64, depth: f64, dp: f64, e: Vector3<f64>, centre: Point3<f64>) -> Simulation {
    let params = Parameters::new(dim, dp, Parameters::sound_speed_for_depth(depth, G));
    let t = params.marker_layers() as f64 * dp;
    let three = dim == Dimension::Three;
    let mut scene = Scene::new(params);
    scene.add_fluid_box(Point3::origin(), Point3::new(width, if three { width } else { 0.0 }, depth));
    scene.set_hydrostatic_surface(depth);
    add_tank(&mut scene, [width, width, depth + 4.0 * dp], t);
    scene.add_body(BodySpec::new(
        "box",
        Shape::Box { half_extents: e },
        Isometry3::translation(centre.x, centre.y, centre.z),
    ));
    scene.build().unwrap()
}

#[test]
fn fixed_submerged_box_feels_archimedes() {
    let (dp, e) = (0.04, Vector3::new(0.2, 0.0, 0.1));
    let mut sim = tank_with_box(Dimension::Two, 2.0, 1.0, dp, e, Point3::new(1.0, 0.0, 0.5));
    let id = sim.body_id("box").unwrap();
    // Fluid was removed where the box is: 50 × 25 cells minus the box's 10 × 5.
    assert_eq!(sim.fluid_count(), 50 * 25 - 50);
    sim.advance(1.0).unwrap();
    sim.start_load_window();
    sim.advance(0.25).unwrap();
    let l = sim.body_loads(id).unwrap();
    let buoyancy = 1000.0 * G * 4.0 * e.x * e.z;
    let err = l.force.z / buoyancy - 1.0;
    let torque = l.torque.y / (buoyancy * e.x);
    eprintln!(
        "box: F = ({:.3}, {:.3}) N/m against ρgV = {buoyancy:.2} ({err:+.4}); T_y = {:.4} N (T/(F a) = {torque:+.4})",
        l.force.x, l.force.z, l.torque.y
    );
    assert!(err.abs() < 0.02, "vertical force off by {err}");
    assert!(l.force.x.abs() < 0.01 * buoyancy, "lateral force {}", l.force.x);
    assert!(torque.abs() < 0.01, "torque about the centroid {}", l.torque.y);
}

#[test]
fn markers_move_rigidly_with_the_prescribed_motion() {
    let dp = 0.05;
    let mut sim = tank_with_box(Dimension::Two, 1.0, 0.2, dp, Vector3::new(0.1, 0.0, 0.1), Point3::new(0.5, 0.0, 0.6));
    let id = sim.body_id("box").unwrap();
    let before = sim.body_marker_positions(id).unwrap();
    let mut m = sim.body_motion(id).unwrap();
    m.linvel = Vector3::new(0.3, 0.0, -0.1);
    m.angvel = Vector3::new(0.0, 0.5, 0.0);
    sim.set_body_motion(id, m).unwrap();
    let mut t = 0.0;
    for _ in 0..20 {
        let dt = sim.stable_time_step().unwrap();
        sim.step(dt).unwrap();
        t += dt;
    }
    let pose = sim.body_motion(id).unwrap().pose;
    let expected = Isometry3::from_parts(
        Translation3::new(0.5 + 0.3 * t, 0.0, 0.6 - 0.1 * t),
        UnitQuaternion::from_scaled_axis(Vector3::new(0.0, 0.5 * t, 0.0)),
    );
    assert!((pose.translation.vector - expected.translation.vector).norm() < 1e-12);
    assert!(pose.rotation.angle_to(&expected.rotation) < 1e-12);
    // Markers are reordered by cell as they move: compare as sets.
    let after = sim.body_marker_positions(id).unwrap();
    let start = m.pose;
    assert_eq!(before.len(), after.len());
    for a in &before {
        let want = expected * (start.inverse() * a);
        assert!(after.iter().any(|b| (want - b).norm() < 1e-12), "no marker at {want}");
    }
    // A body out of the water feels nothing.
    assert_eq!(sim.last_body_loads(id).unwrap().force, Vector3::zeros());
}

#[test]
fn shapes_meshes_and_marker_lists() {
    let dp = 0.05;
    let params = Parameters::new(Dimension::Three, dp, 10.0);
    let mut scene = Scene::new(params.clone());
    scene.add_fluid_box(Point3::new(-0.5, -0.5, -0.5), Point3::new(0.5, 0.5, 0.5));
    let cube = support::cube_mesh(0.15);
    let boxed = scene.add_body(BodySpec::new(
        "box",
        Shape::Box { half_extents: Vector3::repeat(0.15) },
        Isometry3::translation(-0.25, 0.0, 0.0),
    ));
    let meshed = scene.add_body(BodySpec::new("mesh", Shape::Mesh(cube), Isometry3::translation(0.25, 0.0, 0.0)));
    let sphere =
        scene.add_body(BodySpec::new("sphere", Shape::Sphere { radius: 0.1 }, Isometry3::translation(0.0, 0.3, 0.0)));
    let listed: Vec<Point3<f64>> = (0..4).map(|i| Point3::new(-0.075 + 0.05 * i as f64, 0.025, 0.025)).collect();
    let list = scene.add_body(BodySpec::from_points("list", listed, Isometry3::translation(0.0, -0.3, 0.0)));
    let sim = scene.build().unwrap();
    // The mesh cube gives the box's markers; 0.3 m cubes of 6³ cells, three layers: all cells.
    assert_eq!(sim.body_marker_count(boxed), 216);
    assert_eq!(sim.body_marker_count(meshed), 216);
    assert!(sim.body_marker_count(sphere) > 0);
    assert_eq!(sim.body_marker_count(list), 4);
    // Removed fluid: 216 per cube, the sphere's cells, and the four cells the list sits on.
    let sphere_cells = sim.body_marker_count(sphere);
    assert_eq!(sim.fluid_count(), 20 * 20 * 20 - 2 * 216 - sphere_cells - 4);
    let e = Scene::new(params.clone());
    assert!(matches!(e.build(), Err(tidelink_sph_solver::SphError::NoFluid)));
    let mut tiny = Scene::new(params);
    tiny.add_fluid_box(Point3::origin(), Point3::new(0.5, 0.5, 0.5));
    tiny.add_body(BodySpec::from_points("dot", Vec::new(), Isometry3::identity()));
    let msg = tiny.build().unwrap_err().to_string();
    assert!(msg.contains("dot") && msg.contains("no marker"), "{msg}");
    let _ = TriMesh::new(Vec::new()).unwrap_err();
}

/// A small 2D scene with a body moving through water.
fn moving_scene() -> Simulation {
    let mut sim =
        tank_with_box(Dimension::Two, 1.0, 0.5, 0.04, Vector3::new(0.08, 0.0, 0.08), Point3::new(0.4, 0.0, 0.3));
    let id = sim.body_id("box").unwrap();
    let mut m: Motion = sim.body_motion(id).unwrap();
    m.linvel = Vector3::new(0.2, 0.0, 0.0);
    m.angvel = Vector3::new(0.0, 1.0, 0.0);
    sim.set_body_motion(id, m).unwrap();
    sim
}

fn run(sim: &mut Simulation, steps: usize) {
    for _ in 0..steps {
        let dt = sim.stable_time_step().unwrap();
        sim.step(dt).unwrap();
    }
}

#[test]
fn restore_reproduces_the_run_bit_for_bit_on_any_thread_count() {
    let mut sim = moving_scene();
    let id = sim.body_id("box").unwrap();
    run(&mut sim, 30);
    let saved = sim.save_state();
    sim.start_load_window();
    run(&mut sim, 40);
    let first = (sim.save_state(), sim.body_loads(id).unwrap());
    assert!(first.1.force.norm() > 0.0);
    sim.restore_state(&saved).unwrap();
    assert_eq!(sim.time(), saved.time());
    sim.start_load_window();
    run(&mut sim, 40);
    assert_eq!(sim.save_state(), first.0, "state after restore and replay differs");
    assert_eq!(sim.body_loads(id).unwrap(), first.1);
    // The same run on one thread.
    let pool = rayon::ThreadPoolBuilder::new().num_threads(1).build().unwrap();
    let single = pool.install(|| {
        let mut s = moving_scene();
        run(&mut s, 30);
        s.start_load_window();
        run(&mut s, 40);
        (s.save_state(), s.body_loads(id).unwrap())
    });
    assert_eq!(single, first, "one thread and all threads disagree");
    // A state of another simulation is refused.
    let other =
        tank_with_box(Dimension::Two, 1.0, 0.5, 0.04, Vector3::new(0.12, 0.0, 0.08), Point3::new(0.4, 0.0, 0.3));
    assert!(sim.restore_state(&other.save_state()).is_err());
}

#[test]
fn steps_above_the_limit_are_refused() {
    let mut sim = moving_scene();
    let limit = sim.stable_time_step().unwrap();
    let e = sim.step(2.0 * limit).unwrap_err().to_string();
    assert!(e.contains("stability limit"), "{e}");
    let n = sim.advance(10.0 * limit).unwrap();
    assert!(n >= 10 && (sim.time() - 10.0 * limit).abs() < 1e-12, "{n} steps to {}", sim.time());
}
