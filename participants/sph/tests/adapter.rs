//! The SPH adapter against a scripted coupling (the shipped floating_box_sph fluid): one window
//! of 1 ms taken in sub-steps of at most the solver's own step, the loads written being the
//! average over the window of the per-step loads (times the 2D depth), and a repeated window
//! from a checkpoint writing the same loads bit for bit.

use std::collections::HashMap;
use tidelink_adapter_core::coupling::{CouplingData, Result as CResult, VertexId};
use tidelink_adapter_core::participant;
use tidelink_adapter_core::testing;
use tidelink_adapter_core::Adapter;
use tidelink_sph::adapter::SphAdapter;
use tidelink_sph::participant::Sph;

const XML: &str = include_str!("../../../configs/floating_box_sph/precice-config.xml");
const PARTICIPANT: &str = include_str!("../../../configs/floating_box_sph/fluid/participant.yaml");
const MODEL: &str = include_str!("../../../configs/floating_box_sph/fluid/sph_model.yaml");
const WINDOW: f64 = 1e-3;
const DEPTH: f64 = 0.2;

/// A coupling that serves fixed values for the data read and keeps what is written.
#[derive(Default)]
struct Scripted {
    served: HashMap<String, [f64; 3]>,
    written: HashMap<String, Vec<f64>>,
}

impl CouplingData for Scripted {
    fn participant_name(&self) -> &str {
        "Fluid"
    }
    fn get_mesh_dimensions(&self, _: &str) -> CResult<usize> {
        Ok(3)
    }
    fn get_data_dimensions(&self, _: &str, _: &str) -> CResult<usize> {
        Ok(3)
    }
    fn set_mesh_vertices(&mut self, _: &str, positions: &[f64], ids: &mut [VertexId]) -> CResult<()> {
        assert_eq!(positions, [0.0, 0.0, 0.02], "one vertex, the box's initial location");
        ids[0] = 0;
        Ok(())
    }
    fn get_mesh_vertex_size(&self, _: &str) -> CResult<usize> {
        Ok(1)
    }
    fn read_data(&mut self, _: &str, data: &str, _: &[VertexId], _: f64, out: &mut [f64]) -> CResult<()> {
        out.copy_from_slice(self.served.get(data).unwrap_or(&[0.0; 3]));
        Ok(())
    }
    fn write_data(&mut self, _: &str, data: &str, _: &[VertexId], values: &[f64]) -> CResult<()> {
        self.written.insert(data.to_string(), values.to_vec());
        Ok(())
    }
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
fn window(a: &mut SphAdapter, c: &mut Scripted, start: f64) -> (Vec<f64>, Vec<f64>, Vec<f64>, [f64; 6]) {
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
    (steps, c.written["forces"].clone(), c.written["torques"].clone(), mean)
}

#[test]
fn a_window_is_sub_stepped_and_its_loads_are_the_window_average() {
    let (mut a, _case) = adapter();
    let mut c = Scripted::default();
    c.served.insert("positions".into(), [0.0, 0.0, 0.02]);
    c.served.insert("velocities".into(), [0.0; 3]);
    a.initialize_participant(&mut c).unwrap();
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
    let mut c = Scripted::default();
    c.served.insert("positions".into(), [0.0, 0.0, 0.02]);
    c.served.insert("velocities".into(), [0.0, 0.0, -0.05]);
    c.served.insert("angular-velocities".into(), [0.0, 0.3, 0.0]);
    a.initialize_participant(&mut c).unwrap();
    window(&mut a, &mut c, 0.0);
    a.write_checkpoint().unwrap();
    c.served.insert("velocities".into(), [0.01, 0.0, -0.08]);
    let first = window(&mut a, &mut c, WINDOW);
    a.read_checkpoint().unwrap();
    let second = window(&mut a, &mut c, WINDOW);
    assert_eq!(first.0, second.0, "the same sub-steps");
    assert_eq!((&first.1, &first.2), (&second.1, &second.2), "the same loads, bitwise");
}
