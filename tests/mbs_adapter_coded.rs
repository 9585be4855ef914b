//! The coded construction route (`MbsAdapter::from_system` + `add_coupling_body` +
//! `add_interface`) against the buoyancy participant through the native engine, with
//! before/after-step callbacks and real-time pacing.

use nalgebra::{Isometry3, Vector3};
use std::sync::{Arc, Mutex};
use std::time::Instant;
use tidelink_adapter_core::coupling::{self, Backend};
use tidelink_adapter_core::driver;
use tidelink_adapter_core::spec::{DataType, MeshType, ReadDataTime};
use tidelink_adapter_core::testing;
use tidelink_mbs::adapter::MbsAdapter;
use tidelink_mbs_solver::{RigidBodyBuilder, SemiImplicitEuler};

/// A fixed ground: the model the code adds its bodies to.
const GROUND: &str = "model:\n  bodies:\n    - name: ground\n      location: [0, 0, 0]\n      fixed: true\n";

mod support;
use support::in_threads;
use support::temp_copy::TempCopy;

fn coded_system() -> MbsAdapter {
    let gravity = Vector3::new(0.0, 0.0, -9.81);
    let ball = RigidBodyBuilder::dynamic(3.62, Vector3::repeat(0.0208512))
        .reference_pose(Isometry3::translation(0.0, 0.0, 0.18))
        .build()
        .unwrap();
    let mut model = tidelink_mbs::io::model_yaml::parse_str(GROUND, std::path::Path::new("coded model"), gravity)
        .unwrap_or_else(|d| panic!("{d}"))
        .0;
    let h = model.bodies.insert(ball);
    model.names.push(("ball".to_string(), h));
    MbsAdapter::from_system("Solid", model, Box::new(SemiImplicitEuler), 1e-3)
}

fn coded_ball() -> MbsAdapter {
    let mut a = coded_system();
    a.add_coupling_body("ball", None).unwrap();
    a.add_interface(
        "SolidMesh",
        MeshType::RigidBodyRefs,
        &[("positions", DataType::Positions), ("velocities", DataType::LinearVelocities)],
        &[("forces", DataType::Forces), ("torques", DataType::Torques)],
    )
    .unwrap();
    a
}

/// Runs the coded Solid against the Fluid for `windows` 1 ms windows; the Solid's adapter
/// after the run, its step count and the wall time it took.
fn run(mut solid: MbsAdapter, windows: usize) -> (MbsAdapter, usize, f64) {
    let windows = format!(r#"<max-time-windows value="{windows}" />"#);
    let copy = TempCopy::shipped(
        "configs/sphere_drop",
        "precice-config.xml",
        &[(r#"<max-time-windows value="1000" />"#, &windows)],
    );
    let fluid_file = copy.copy("fluid/participant.yaml", &[]);
    copy.copy("fluid/buoyancy_model.yaml", &[]);
    let x2 = copy.case.config.clone();
    let out = Arc::new(Mutex::new(None));
    let out2 = out.clone();
    let solid_job: testing::Job<in_threads::Outputs> = (
        "Solid",
        Box::new(move || {
            let start = Instant::now();
            let mut c = coupling::open(Backend::Native, "Solid", &x2).map_err(|e| e.to_string())?;
            let s = driver::run(&mut solid, c.as_mut(), ReadDataTime::WindowEnd, &mut ())
                .map_err(|e| format!("Solid: {e:#}"))?;
            *out2.lock().unwrap() = Some((solid, s.steps as usize, start.elapsed().as_secs_f64()));
            Ok(Vec::new())
        }),
    );
    testing::run_participants(vec![in_threads::buoyancy(fluid_file, copy.case.config.clone()), solid_job]);
    let taken = out.lock().unwrap().take();
    taken.expect("the Solid ran")
}

fn height(a: &MbsAdapter) -> f64 {
    a.bodies().get(a.coupling_bodies()[0].handle).unwrap().reference_position().z
}

#[test]
fn step_callbacks_run_around_every_step_and_can_change_the_system() {
    let log = Arc::new(Mutex::new(Vec::<(char, f64)>::new()));
    let mut a = coded_ball();
    let l1 = log.clone();
    a.on_before_step(Box::new(move |_, t| l1.lock().unwrap().push(('b', t))));
    let l2 = log.clone();
    a.on_after_step(Box::new(move |_, t| l2.lock().unwrap().push(('a', t))));
    // From t = 20 ms on, the callback holds the ball up (an extra upward force equal to its
    // weight, added to the accumulator of the coming step).
    a.on_before_step(Box::new(|sys, t| {
        if t >= 0.02 - 1e-9 {
            for (_, b) in sys.bodies.iter_mut() {
                let w = b.mass() * 9.81;
                b.add_force(Vector3::new(0.0, 0.0, w));
            }
        }
    }));
    let (held, steps, _) = run(a, 40);
    let (free, _, _) = run(coded_ball(), 40);
    let log = log.lock().unwrap();
    assert_eq!(steps, 40);
    assert_eq!(log.len(), 2 * steps, "one before and one after call per step");
    for (k, pair) in log.chunks(2).enumerate() {
        assert_eq!(pair[0].0, 'b');
        assert_eq!(pair[1].0, 'a');
        assert!((pair[0].1 - k as f64 * 1e-3).abs() < 1e-12, "step {k} starts at {}", pair[0].1);
        assert!((pair[1].1 - (k + 1) as f64 * 1e-3).abs() < 1e-12, "step {k} ends at {}", pair[1].1);
    }
    // In the air (no fluid force yet), held from 20 ms: the ball keeps the speed it had then.
    let (zh, zf) = (height(&held), height(&free));
    assert!(zh > zf + 1e-3, "held {zh} vs free {zf}");
    let v_held = held.bodies().get(held.coupling_bodies()[0].handle).unwrap().linvel().z;
    assert!((v_held - (-9.81 * 0.02)).abs() < 1e-9, "{v_held}");
}

#[test]
fn enforce_realtime_paces_windows_to_the_wall_clock() {
    let mut a = coded_ball();
    a.set_enforce_realtime(true);
    let (_, _, wall) = run(a, 150);
    assert!(wall >= 0.15, "150 windows of 1 ms took {wall} s of wall time");
}

#[test]
fn coded_route_errors_name_the_body_and_the_mesh() {
    let mut a = coded_system();
    let e = a.add_coupling_body("float", None).unwrap_err().to_string();
    assert!(e.contains("`float`") && e.contains("ball"), "{e}");
    let e = coded_ball().add_coupling_body("ball", None).unwrap_err().to_string();
    assert!(e.contains("after an interface"), "{e}");
    let mut b = coded_system();
    b.add_coupling_body("ball", None).unwrap();
    let e =
        b.add_interface("Tips", MeshType::RigidBodyPoints, &[("p", DataType::Positions)], &[]).unwrap_err().to_string();
    assert!(e.contains("RIGID_BODY_POINTS mesh `Tips` has no points"), "{e}");
}
