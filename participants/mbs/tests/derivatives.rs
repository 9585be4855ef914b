//! The step's derivative on the project's models (the flap, the sphere, RM3 with its added
//! mass) against central differences of full backward-Euler steps, and their linear models'
//! eigenvalues against natural frequencies computed here from the models' own numbers (the
//! flap's settings, the BEMIO file's hydrostatics and added mass), never from the code under
//! test.

use nalgebra::{DMatrix, Point3, Vector3};
use std::path::{Path, PathBuf};
use tidelink_mbs::flap::{self, FlapSettings};
use tidelink_mbs::linearize::{self, LinearizeArgs};
use tidelink_mbs_solver::derivatives::verify::central_differences;
use tidelink_mbs_solver::derivatives::{linearize as linear_model, Input, Output, StepDerivative};
use tidelink_mbs_solver::solver::jacobian::JacobianPolicy;
use tidelink_mbs_solver::{Bdf, BodyHandle, MultibodySystem, Tsda};

fn repo(rel: &str) -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR")).join("../..").join(rel)
}

/// Tight Newton tolerances: the differenced steps must be converged far below what the
/// difference quotient resolves (the default 1e-10 m over ε would be the error itself).
fn integrator() -> Bdf {
    let mut b = Bdf::backward_euler();
    b.abs_tolerance = 1e-15;
    b.constraint_tolerance = 1e-13;
    b.max_iterations = 80;
    b
}

/// The largest entry error of the derivative relative to the largest entry of the central
/// differences (loads perturbed by ±`eps`).
fn error_vs_differences(sys: &MultibodySystem, h: f64, inputs: &[Input], outputs: &[Output], eps: f64) -> f64 {
    let d = StepDerivative::new(sys, &integrator(), 0.0, h, inputs, outputs).unwrap();
    let fd = central_differences(sys, &integrator(), 0.0, h, inputs, outputs, eps).unwrap();
    let e = (d.matrix() - &fd).amax() / fd.amax();
    println!("max |dy/du − central differences| / max |dy/du| = {e:.3e}");
    e
}

fn point_channels(body: BodyHandle, points: &[Point3<f64>]) -> (Vec<Input>, Vec<Output>) {
    let mut inputs: Vec<Input> = points.iter().map(|&point| Input::Force { body, point }).collect();
    inputs.push(Input::Torque { body });
    let mut outputs =
        vec![Output::Rotation { body }, Output::AngularVelocity { body }, Output::State(0), Output::State(9)];
    for &point in points {
        outputs.extend([Output::Position { body, point }, Output::Velocity { body, point }]);
    }
    (inputs, outputs)
}

fn flap_system() -> (MultibodySystem, BodyHandle) {
    let model = flap::model(&FlapSettings::default()).unwrap();
    let body = model.handle("flap").unwrap();
    let mut sys = MultibodySystem::from_parts(model.bodies, model.joints, model.forces);
    let b = sys.bodies.get_mut(body).unwrap();
    // Swinging about the hinge (z through the origin): the COM, 0.1 m out, moves with it.
    b.set_angvel(Vector3::new(0.0, 0.0, 0.8));
    b.set_linvel(Vector3::new(0.0, 0.08, 0.0));
    b.add_force(Vector3::new(3.0, 20.0, 0.0));
    (sys, body)
}

/// Flap on its hinge and spring, loads at outline vertices (real lever arms). Tolerance 1e-7
/// relative: ε = 1e-2 N on a 40 kg flap moves the tip by ~1e-8 m, resolved to ~1e-16 m by the
/// tight Newton (1e-8 relative round-off at worst); truncation ε² is far below.
#[test]
fn flap_step_derivative_matches_central_differences() {
    let (sys, body) = flap_system();
    let points = [Point3::new(0.2, 0.01, 0.0), Point3::new(0.1, -0.01, 0.0)];
    let (inputs, outputs) = point_channels(body, &points);
    assert!(error_vs_differences(&sys, 1e-3, &inputs, &outputs, 1e-2) < 1e-7);
}

/// The flap's linear model: one state pair (the hinge angle), `ω = √(k / (I_zz + m d²))` from
/// its settings; 1e-9 relative (the geometric term's differences, here of a zero reaction).
#[test]
fn flap_linear_model_has_its_spring_frequency() {
    let s = FlapSettings::default();
    let model = flap::model(&s).unwrap();
    let body = model.handle("flap").unwrap();
    let sys = MultibodySystem::from_parts(model.bodies, model.joints, model.forces);
    let lin =
        linear_model(&sys, JacobianPolicy::Auto, &[Input::Torque { body }], &[Output::Rotation { body }], &[]).unwrap();
    assert_eq!(lin.partition.independent, vec![5], "rz is the free coordinate");
    let omega = (s.stiffness / (s.inertia.z + s.mass * s.com * s.com)).sqrt();
    for e in lin.eigenvalues() {
        assert!(e.re.abs() < 1e-9 * omega && (e.im.abs() - omega).abs() < 1e-9 * omega, "{e} vs ±{omega}i");
    }
}

/// The sphere of `sphere_drop`, falling and spinning, a load on its surface. Same tolerance
/// and reasons as the flap (ε = 1e-3 N on 3.62 kg).
#[test]
fn sphere_step_derivative_matches_central_differences() {
    let dir = repo("configs/sphere_drop");
    let (adapter, _) =
        tidelink_mbs::participant::build(&dir.join("solid/participant.yaml"), &dir.join("precice-config.xml")).unwrap();
    let body = adapter.coupling_bodies()[0].handle;
    let mut sys = adapter.system().clone();
    let b = sys.bodies.get_mut(body).unwrap();
    b.set_linvel(Vector3::new(0.1, 0.0, -1.2));
    b.set_angvel(Vector3::new(2.0, -1.0, 4.0));
    b.add_force(Vector3::new(0.0, 0.0, 30.0));
    let (inputs, outputs) = point_channels(body, &[Point3::new(0.12, 0.0, 0.0), Point3::new(0.0, -0.06, 0.1)]);
    assert!(error_vs_differences(&sys, 1e-3, &inputs, &outputs, 1e-3) < 1e-7);
}

fn rm3_paths() -> (PathBuf, PathBuf) {
    let dir = repo("configs/rm3_reg_waves");
    (dir.join("solid/participant.yaml"), dir.join("precice-config.xml"))
}

/// RM3 (float and spar on their prismatic joints, the PTO damper, A∞ from the BEMIO file in
/// the mass matrix), heaving, with loads off the axis (lever arms). ε = 10 N on 7e5 kg; same
/// 1e-7 tolerance and reasons.
#[test]
#[cfg_attr(not(tidelink_shared), ignore = "needs ../shared/data/rm3/rm3.h5 (reference data beside the repository)")]
fn rm3_step_derivative_with_added_mass_matches_central_differences() {
    let (participant, xml) = rm3_paths();
    let (adapter, _) = tidelink_mbs::participant::build(&participant, &xml).unwrap();
    let (float, spar) = (adapter.coupling_bodies()[0].handle, adapter.coupling_bodies()[1].handle);
    let mut sys = adapter.system().clone();
    assert!(sys.added_mass.is_some(), "RM3's participant puts A∞ in the mass matrix");
    sys.bodies.get_mut(float).unwrap().set_linvel(Vector3::new(0.0, 0.0, 0.6));
    sys.bodies.get_mut(spar).unwrap().set_linvel(Vector3::new(0.0, 0.0, -0.1));
    sys.bodies.get_mut(float).unwrap().add_force(Vector3::new(0.0, 0.0, 2e5));
    let inputs = [
        Input::Force { body: float, point: Point3::origin() },
        Input::Force { body: float, point: Point3::new(5.0, 0.0, 1.0) },
        Input::Torque { body: spar },
    ];
    let outputs = [
        Output::Position { body: float, point: Point3::new(10.0, 0.0, 2.72) },
        Output::Velocity { body: float, point: Point3::origin() },
        Output::Position { body: spar, point: Point3::new(0.0, 15.0, -8.71) },
        Output::Velocity { body: spar, point: Point3::new(0.0, 15.0, -8.71) },
        Output::Rotation { body: float },
        Output::State(2),
        Output::State(14),
    ];
    assert!(error_vs_differences(&sys, 0.02, &inputs, &outputs, 10.0) < 1e-7);
}

/// Heave of a body on `K₃₃` and `m + A∞₃₃`, from the file's numbers: `m = ρ V` (the model's
/// `mass: equilibrium`).
fn heave_frequencies(file: &Path) -> (Vec<f64>, Vec<(f64, f64, f64)>) {
    let data = tidelink_bemio::read(file).unwrap();
    let mka: Vec<(f64, f64, f64)> = data.bodies[..2]
        .iter()
        .enumerate()
        .map(|(i, b)| {
            (data.rho * b.displaced_volume, b.hydrostatic_stiffness[(2, 2)], b.added_mass_inf[(2, 6 * i + 2)])
        })
        .collect();
    (mka.iter().map(|(m, k, a)| (k / (m + a)).sqrt()).collect(), mka)
}

/// Without the PTO's damping float and spar heave independently: the linear model with the
/// file's hydrostatics has exactly `±i √(K₃₃ / (m + A∞₃₃))` for each. 1e-9 relative: the
/// eigenvalue solver's round-off on a 4 × 4 matrix.
#[test]
#[cfg_attr(not(tidelink_shared), ignore = "needs ../shared/data/rm3/rm3.h5 (reference data beside the repository)")]
fn rm3_undamped_heave_frequencies_match_the_file() {
    let file = tidelink_adapter_core::testing::shared_path("data/rm3/rm3.h5");
    let (participant, xml) = rm3_paths();
    let (adapter, _) = tidelink_mbs::participant::build(&participant, &xml).unwrap();
    let coupled = adapter.coupling_bodies().to_vec();
    let mut sys = adapter.system().clone();
    sys.forces.find_mut::<Tsda>("pto").unwrap().damping = 0.0;
    let (extra, _) = linearize::hydro::apply(&file, &coupled, &mut sys).unwrap();
    let heave = |h: BodyHandle| Output::Position { body: h, point: Point3::origin() };
    let lin =
        linear_model(&sys, JacobianPolicy::Auto, &[], &[heave(coupled[0].handle), heave(coupled[1].handle)], &extra)
            .unwrap();
    let (omegas, mka) = heave_frequencies(&file);
    println!("(m, K33, A∞33) float, spar: {mka:?}");
    let mut found: Vec<f64> = lin.eigenvalues().iter().map(|e| e.im.abs()).collect();
    found.sort_by(f64::total_cmp);
    found.dedup_by(|a, b| (*a - *b).abs() < 1e-9 * b.abs());
    let mut expected = omegas.clone();
    expected.sort_by(f64::total_cmp);
    println!("eigenvalue magnitudes {found:?}, sqrt(K/(m+A)) {expected:?}");
    assert_eq!(found.len(), 2, "{found:?}");
    for (f, e) in found.iter().zip(&expected) {
        assert!((f - e).abs() < 1e-9 * e, "{f} vs {e}");
    }
    assert!(lin.eigenvalues().iter().all(|e| e.re.abs() < 1e-9), "no damping left");
}

/// `tidelink-mbs linearize --hydro` on RM3 as written (PTO damper 1.2 MN s/m): the files, the
/// names, and each eigenvalue `s` a root of `det(s² M + s C + K) = 0` for the 2-DOF heave
/// system built here from the file and the PTO coefficient (relative residual 1e-9).
#[test]
#[cfg_attr(not(tidelink_shared), ignore = "needs ../shared/data/rm3/rm3.h5 (reference data beside the repository)")]
fn rm3_linearize_command_writes_a_damped_heave_model() {
    let file = tidelink_adapter_core::testing::shared_path("data/rm3/rm3.h5");
    let (participant, precice_config) = rm3_paths();
    let out = tempfile::tempdir().unwrap();
    let args = LinearizeArgs { participant, precice_config, output: out.path().join("lin"), hydro: Some(file.clone()) };
    let l = linearize::run(&args).unwrap();
    assert_eq!(l.names.states, ["float.z", "spar.z", "float.vz", "spar.vz"]);
    assert_eq!(l.names.inputs.len(), 12);
    let a_csv = std::fs::read_to_string(out.path().join("lin/A.csv")).unwrap();
    let mut lines = a_csv.lines();
    assert_eq!(lines.next(), Some("float.z,spar.z,float.vz,spar.vz"));
    let a: Vec<f64> = lines.flat_map(|r| r.split(',').map(|v| v.parse::<f64>().unwrap()).collect::<Vec<_>>()).collect();
    assert_eq!(DMatrix::from_row_slice(4, 4, &a), l.model.a, "A.csv holds A exactly");
    let index: serde_json::Value =
        serde_json::from_str(&std::fs::read_to_string(out.path().join("lin/linear_model.json")).unwrap()).unwrap();
    assert_eq!(index["time"], "continuous");
    assert_eq!(index["eigenvalues"].as_array().unwrap().len(), 4);

    let (_, mka) = heave_frequencies(&file);
    let c = 1.2e6;
    let (mf, kf, af) = mka[0];
    let (ms, ks, as_) = mka[1];
    for s in l.model.eigenvalues() {
        let d11 = s * s * (mf + af) + s * c + kf;
        let d22 = s * s * (ms + as_) + s * c + ks;
        let det = d11 * d22 - s * s * c * c;
        let scale = (s.norm().powi(2) * (mf + af) + kf) * (s.norm().powi(2) * (ms + as_) + ks);
        println!("eigenvalue {s}: |det| / scale = {:.2e}", det.norm() / scale);
        assert!(det.norm() < 1e-9 * scale, "{s} is not a root: {}", det.norm() / scale);
        assert!(s.re < 0.0, "the PTO damps every mode: {s}");
    }
}

/// A `--hydro` file that is not there: an error naming it, no files written.
#[test]
fn linearize_names_a_missing_hydro_file() {
    let dir = repo("configs/sphere_drop");
    let out = tempfile::tempdir().unwrap();
    let args = LinearizeArgs {
        participant: dir.join("solid/participant.yaml"),
        precice_config: dir.join("precice-config.xml"),
        output: out.path().join("lin"),
        hydro: Some(out.path().join("missing.h5")),
    };
    let e = format!("{:#}", linearize::run(&args).unwrap_err());
    assert!(e.contains("missing.h5") && e.contains("BEMIO"), "{e}");
    assert!(!out.path().join("lin").exists());
}
