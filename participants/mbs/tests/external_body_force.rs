//! A 6-DOF external body-force module through the adapter (`model.external_forces`), with the
//! worked Python module `pto/examples/linear_mooring_force.py`: a moored body settles where
//! the mooring carries its weight, the module is asked once per step, a repeated window is bit
//! for bit the same, and the YAML errors name their lines.

use nalgebra::Vector3;
use std::path::{Path, PathBuf};
use tidelink_adapter_core::Adapter;
use tidelink_mbs::adapter::MbsAdapter;
use tidelink_mbs::io::model_yaml;
use tidelink_mbs_solver::{ExternalBodyForce, Hht};

fn module() -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR")).join("../../pto/examples/linear_mooring_force.py").canonicalize().unwrap()
}

/// A free 1000 kg buoy at z = 0 under gravity, moored by the module: K = 1e5 N/m and critical
/// damping 2√(K m) = 2e4 N s/m on each axis, rotational springs and dampers too.
fn model(bodies: &str) -> String {
    format!(
        "model:
  name: moored
  bodies:
    - {{name: seabed, location: [0, 0, -50], fixed: true}}
    - {{name: buoy, location: [0, 0, 0], mass: 1000, inertia: {{moments: [500, 500, 800]}}}}
  external_forces:
    - name: mooring
      bodies: {bodies}
      command: [python3, {}]
      config: {{stiffness: [1.0e5, 1.0e5, 1.0e5], damping: [2.0e4, 2.0e4, 2.0e4],
               rot_stiffness: [1.0e4, 1.0e4, 1.0e4], rot_damping: [4.0e3, 4.0e3, 5.0e3]}}
",
        module().display()
    )
}

fn adapter(yaml: &str) -> MbsAdapter {
    let gravity = Vector3::new(0.0, 0.0, -9.81);
    let (m, _) = model_yaml::parse_str(yaml, Path::new("model.yaml"), gravity).unwrap();
    MbsAdapter::from_system("Solid", m, Box::new(Hht::default()), 0.01)
}

fn buoy_z(a: &MbsAdapter) -> f64 {
    let (_, b) = a.bodies().iter().nth(1).unwrap();
    b.com_position().z
}

#[test]
fn a_moored_buoy_settles_where_the_mooring_carries_its_weight() {
    let mut a = adapter(&model("[buoy]"));
    a.start_external_modules().unwrap();
    let (dt, steps) = (0.01, 400);
    for n in 0..steps {
        a.advance(n as f64 * dt, dt).unwrap();
        let f = a.system_mut().forces.find_mut::<ExternalBodyForce>("mooring:buoy").unwrap();
        assert_eq!(f.cache().unwrap().round_trips(), n as u64 + 1, "one round trip per step");
    }
    // Statics: K z = −m g, so z = −0.0981 m; ω t = 40 rad of critically damped motion later
    // the transient (∝ ω t e^{−ω t}) is below 1e-15 m, so only the solver's tolerance is left.
    let z = buoy_z(&a);
    assert!((z + 1000.0 * 9.81 / 1.0e5).abs() < 1e-6, "z = {z}");
    let f = a.system_mut().forces.find_mut::<ExternalBodyForce>("mooring:buoy").unwrap();
    assert!((f.wrench().force.z - 9810.0).abs() < 0.1, "{:?}", f.wrench());
    a.finish().unwrap();
}

#[test]
fn a_repeated_window_is_identical() {
    let mut a = adapter(&model("[buoy]"));
    a.start_external_modules().unwrap();
    let dt = 0.01;
    let window = |a: &mut MbsAdapter, t0: f64| {
        for k in 0..10 {
            a.advance(t0 + k as f64 * dt, dt).unwrap();
        }
        a.bodies().save_state().to_bits()
    };
    window(&mut a, 0.0);
    a.write_output(0.1).unwrap();
    a.write_checkpoint().unwrap();
    let first = window(&mut a, 0.1);
    a.read_checkpoint().unwrap();
    let second = window(&mut a, 0.1);
    assert_eq!(first, second);
    assert!(buoy_z(&a) < -1e-3, "the buoy did not move");
    a.finish().unwrap();
}

#[test]
fn yaml_errors_name_the_line() {
    let parse =
        |yaml: &str| model_yaml::parse_str(yaml, Path::new("model.yaml"), Vector3::zeros()).unwrap_err().to_string();
    let e = parse(&model("[boy]"));
    assert!(e.contains("model.yaml:8") && e.contains("no body named `boy`") && e.contains("buoy"), "{e}");
    let e = parse(&model("[seabed]"));
    assert!(e.contains("model.yaml:8") && e.contains("`seabed` is fixed"), "{e}");
    let e = parse(&model("[buoy, buoy]"));
    assert!(e.contains("listed twice"), "{e}");
    let e = parse(&model("[]"));
    assert!(e.contains("model.yaml:8") && e.contains("list the bodies"), "{e}");
}
