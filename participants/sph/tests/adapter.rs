//! The SPH adapter against a scripted coupling (the shipped floating_box_sph fluid): one window
//! of 1 ms taken in sub-steps of at most the solver's own step, the loads written being the
//! average over the window of the per-step loads (times the 2D depth), and a repeated window
//! from a checkpoint writing the same loads bit for bit.

use tidelink_adapter_core::participant;
use tidelink_adapter_core::testing::{self, ScriptedCoupling};
use tidelink_adapter_core::Adapter;
use tidelink_sph::adapter::SphAdapter;
use tidelink_sph::participant::Sph;

const XML: &str = include_str!("../../../configs/floating_box_sph/precice-config.xml");
const PARTICIPANT: &str = include_str!("../../../configs/floating_box_sph/fluid/participant.yaml");
const MODEL: &str = include_str!("../../../configs/floating_box_sph/fluid/sph_model.yaml");
const WINDOW: f64 = 1e-3;
const DEPTH: f64 = 0.2;
const MESH: &str = "FluidMesh";

/// A coupling that serves the values it is given for the data read (zeros for the others) and
/// keeps what is written.
fn scripted() -> ScriptedCoupling {
    ScriptedCoupling::new("Fluid").zeros_when_unscripted()
}

/// Registers the adapter's vertices: one, the box's initial location.
fn initialize(a: &mut SphAdapter, c: &mut ScriptedCoupling) {
    a.initialize_participant(c).unwrap();
    assert_eq!(c.vertices(MESH), [0.0, 0.0, 0.02], "one vertex, the box's initial location");
}

fn adapter() -> (SphAdapter, testing::TempCase) {
    let case = testing::temp_case(XML);
    let file = case.write("fluid/participant.yaml", PARTICIPANT);
    case.write("fluid/sph_model.yaml", MODEL);
    let (built, _) = participant::build::<Sph>(&file, &case.config).expect("the shipped fluid builds");
    (built.adapter, case)
}

/// One window the way the driver takes it: read once, then `min(own step, rest)` sub-steps,
/// writing after each; returns the sub-steps' sizes, the force and torque written last, and
/// the window average of the solver's per-step loads (whole-body: times the depth).
fn window(a: &mut SphAdapter, c: &mut ScriptedCoupling, start: f64) -> (Vec<f64>, Vec<f64>, Vec<f64>, [f64; 6]) {
    a.read_data(c, start, 0.0).unwrap();
    let id = a.simulation().body_id("box").unwrap();
    let (mut left, mut time, mut steps) = (WINDOW, start, Vec::new());
    let mut impulse = [0.0; 6];
    while left > 1e-15 {
        let dt = a.solver_time_step(left);
        let before = a.simulation().steps();
        a.advance(time, dt).unwrap();
        assert_eq!(a.simulation().steps(), before + 1, "one solver step per sub-step at the solver's own step");
        let l = a.simulation().last_body_loads(id).unwrap();
        for k in 0..3 {
            impulse[k] += l.force[k] * dt * DEPTH;
            impulse[3 + k] += l.torque[k] * dt * DEPTH;
        }
        a.write_data(c).unwrap();
        steps.push(dt);
        time += dt;
        left -= dt;
    }
    let mean = impulse.map(|i| i / WINDOW);
    (steps, c.written(MESH, "forces").to_vec(), c.written(MESH, "torques").to_vec(), mean)
}

#[test]
fn a_window_is_sub_stepped_and_its_loads_are_the_window_average() {
    let (mut a, _case) = adapter();
    let mut c = scripted();
    c.serve(MESH, "positions", &[0.0, 0.0, 0.02]);
    c.serve(MESH, "velocities", &[0.0; 3]);
    initialize(&mut a, &mut c);
    let own = a.own_time_step();
    let (steps, force, torque, mean) = window(&mut a, &mut c, 0.0);
    println!("sub-steps {steps:?}, own step {own:e}, force {force:?}");
    assert!(steps.len() >= 5, "the 1 ms window in several SPH steps: {steps:?}");
    assert!((steps.iter().sum::<f64>() - WINDOW).abs() < 1e-15);
    assert!(steps[..steps.len() - 1].iter().all(|&dt| dt < WINDOW), "{steps:?}");
    for k in 0..3 {
        assert!((force[k] - mean[k]).abs() <= 1e-9 * mean[2].abs(), "force {force:?} against {mean:?}");
        assert!((torque[k] - mean[3 + k]).abs() <= 1e-9 * mean[2].abs(), "torque {torque:?} against {mean:?}");
    }
    // The box held at rest at a 3 cm draft in water started hydrostatic: its buoyancy,
    // ρ g · 0.2 · 0.03 · 0.2 = 11.77 N.
    let buoyancy = 1000.0 * 9.81 * 0.2 * 0.03 * DEPTH;
    assert!((force[2] / buoyancy - 1.0).abs() < 0.05, "{force:?} against {buoyancy} N");
    assert_eq!((force[1], torque[0], torque[2]), (0.0, 0.0, 0.0), "2D: no y force, torque about y only");
}

#[test]
fn a_repeated_window_writes_the_same_loads_bit_for_bit() {
    let (mut a, _case) = adapter();
    let mut c = scripted();
    c.serve(MESH, "positions", &[0.0, 0.0, 0.02]);
    c.serve(MESH, "velocities", &[0.0, 0.0, -0.05]);
    c.serve(MESH, "angular-velocities", &[0.0, 0.3, 0.0]);
    initialize(&mut a, &mut c);
    window(&mut a, &mut c, 0.0);
    a.write_checkpoint().unwrap();
    c.serve(MESH, "velocities", &[0.01, 0.0, -0.08]);
    let first = window(&mut a, &mut c, WINDOW);
    a.read_checkpoint().unwrap();
    let second = window(&mut a, &mut c, WINDOW);
    assert_eq!(first.0, second.0, "the same sub-steps");
    assert_eq!((&first.1, &first.2), (&second.1, &second.2), "the same loads, bitwise");
}
