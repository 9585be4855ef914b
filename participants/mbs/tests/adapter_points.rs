//! RIGID_BODY_POINTS meshes of the MBS adapter, driven through a scripted coupling
//! (no partner): the vertices it registers, the motion it writes, the loads it applies
//! (summed into a force and a moment about the COM, replaced every window) and the
//! start-up errors of broken cases.

use nalgebra::Vector3;
use std::path::PathBuf;
use tidelink_adapter_core::testing::{self, ScriptedCoupling, TempCase};
use tidelink_adapter_core::Adapter;
use tidelink_mbs::adapter::MbsAdapter;

const XML: &str = include_str!("../../../configs/sphere_drop/precice-config.xml");
const SOLVER: &str = include_str!("../../../configs/sphere_drop/solid/solver.yaml");
const MODEL: &str = include_str!("../../../configs/sphere_drop/solid/model.yaml");

/// A coupling without partner of `dims`-dimensional meshes: remembers what is written, answers
/// reads of `forces` only.
fn scripted(dims: usize) -> ScriptedCoupling {
    ScriptedCoupling::new("Solid").with_dimensions(dims)
}

/// A solid participant file with the given `bodies` and `interfaces` sections (YAML, indented
/// as list items under them), plus the shipped model and solver.
fn case(bodies: &str, interfaces: &str) -> (TempCase, PathBuf) {
    let case = testing::temp_case(&XML.replace(r#"exchange-directory=".""#, r#"exchange-directory="{dir}""#));
    let yaml = format!(
        "type: MBS\nmodel: model.yaml\nsolver: solver.yaml\noutput:\n  format: NONE\n\
         precice_adapter_config:\n  participant_name: Solid\n  read_data_time: WINDOW_END\n  bodies:\n{bodies}  interfaces:\n{interfaces}"
    );
    let file = case.write("solid/participant.yaml", &yaml);
    case.write("solid/model.yaml", MODEL);
    case.write("solid/solver.yaml", SOLVER);
    (case, file)
}

const POINTS_IFACE: &str =
    "    - mesh_name: SolidMesh\n      mesh_type: RIGID_BODY_POINTS\n      write_data:\n        \
     - {name: positions, type: DISPLACEMENTS}\n        - {name: velocities, type: LINEAR_VELOCITIES}\n      \
     read_data:\n        - {name: forces, type: FORCES}\n";

fn build(bodies: &str, interfaces: &str) -> anyhow::Result<MbsAdapter> {
    let (case, file) = case(bodies, interfaces);
    let r = tidelink_mbs::participant::build(&file, &case.config).map(|(a, _)| a);
    drop(case);
    r
}

fn v3(s: &[f64], i: usize) -> Vector3<f64> {
    Vector3::new(s[3 * i], s[3 * i + 1], s[3 * i + 2])
}

#[test]
fn points_mesh_vertices_motion_and_loads() {
    let mut a = build("    - name: ball\n      points: [[0.1, 0, 0], [-0.1, 0, 0]]\n", POINTS_IFACE).unwrap();
    let mut c = scripted(3);
    a.initialize_participant(&mut c).unwrap();
    // Body frame → world at the initial pose (the ball starts at z = 0.18).
    assert_eq!(c.vertices("SolidMesh"), vec![0.1, 0.0, 0.18, -0.1, 0.0, 0.18]);

    // Window 1: 1 N and 3 N upwards at the two points: 4 N and a moment about y.
    c.serve("SolidMesh", "forces", &[0.0, 0.0, 1.0, 0.0, 0.0, 3.0]);
    a.read_data(&mut c, 0.0, 0.0).unwrap();
    let ball = a.bodies().get(a.coupling_bodies()[0].handle).unwrap();
    assert!((ball.force() - Vector3::new(0.0, 0.0, 4.0)).norm() < 1e-12, "{}", ball.force());
    // (0.1,0,0)×(0,0,1) + (−0.1,0,0)×(0,0,3) = (0,−0.1,0) + (0,0.3,0).
    assert!((ball.torque() - Vector3::new(0.0, 0.2, 0.0)).norm() < 1e-12, "{}", ball.torque());
    a.advance(0.0, 1e-3).unwrap();

    // Window 2: a different load replaces the first, it does not add to it.
    c.serve("SolidMesh", "forces", &[1.0, 0.0, 0.0, 1.0, 0.0, 0.0]);
    a.read_data(&mut c, 1e-3, 0.0).unwrap();
    let ball = a.bodies().get(a.coupling_bodies()[0].handle).unwrap();
    assert!((ball.force() - Vector3::new(2.0, 0.0, 0.0)).norm() < 1e-12, "{}", ball.force());
    assert!(ball.torque().norm() < 1e-12, "{}", ball.torque());
    a.advance(1e-3, 1e-3).unwrap();

    // Motion at the points: displacement from each point's start, v + ω × r.
    a.write_data(&mut c).unwrap();
    let ball = a.bodies().get(a.coupling_bodies()[0].handle).unwrap();
    let (w, v, com) = (ball.angvel(), ball.linvel(), ball.com_position());
    assert!(w.y > 0.0, "the first window's moment turned the ball: {w}");
    let pose = ball.reference_pose();
    let disp = c.written("SolidMesh", "positions");
    let vel = c.written("SolidMesh", "velocities");
    for (i, local) in [Vector3::new(0.1, 0.0, 0.0), Vector3::new(-0.1, 0.0, 0.0)].iter().enumerate() {
        let now = (pose * nalgebra::Point3::from(*local)).coords;
        let start = Vector3::new(local.x, local.y, local.z + 0.18);
        assert!((v3(disp, i) - (now - start)).norm() < 1e-12, "point {i}: {}", v3(disp, i));
        let expected = v + w.cross(&(now - com));
        assert!((v3(vel, i) - expected).norm() < 1e-12, "point {i}: {} vs {expected}", v3(vel, i));
    }
    // The two points move differently (the ball rotates), so the rotation term is exercised.
    assert!((v3(vel, 0) - v3(vel, 1)).norm() > 1e-9);
}

#[test]
fn two_dimensional_points_mesh_uses_x_and_y() {
    let mut a = build("    - name: ball\n      points: [[0.1, 0.2, 0.3]]\n", POINTS_IFACE).unwrap();
    let mut c = scripted(2);
    a.initialize_participant(&mut c).unwrap();
    assert_eq!(c.vertices("SolidMesh"), vec![0.1, 0.2]);
    c.serve("SolidMesh", "forces", &[0.0, 5.0]);
    a.read_data(&mut c, 0.0, 0.0).unwrap();
    let ball = a.bodies().get(a.coupling_bodies()[0].handle).unwrap();
    assert!((ball.force() - Vector3::new(0.0, 5.0, 0.0)).norm() < 1e-12);
    // r = (0.1, 0.2, 0.3) from the COM: r × (0,5,0) = (−1.5, 0, 0.5).
    assert!((ball.torque() - Vector3::new(-1.5, 0.0, 0.5)).norm() < 1e-12, "{}", ball.torque());
    a.write_data(&mut c).unwrap();
    assert_eq!(c.written("SolidMesh", "positions").len(), 2);
}

#[test]
fn points_from_chrono_text_file_through_data_path() {
    let (case, file) = case("    - name: ball\n      points: pts/flap.txt\n", POINTS_IFACE);
    case.write("solid/pts/flap.txt", "3\n0 0 0\n0 0 0.5\n# tip\n0 0 1\n");
    let (mut a, _) = tidelink_mbs::participant::build(&file, &case.config).unwrap();
    let mut c = scripted(3);
    a.initialize_participant(&mut c).unwrap();
    assert_eq!(c.vertices("SolidMesh").len(), 9);
    assert_eq!(&c.vertices("SolidMesh")[6..], &[0.0, 0.0, 1.18]);
}

#[test]
fn the_faces_of_a_surface_file_go_to_the_coupling_when_a_mapping_needs_them() {
    let (case, file) = case("    - name: ball\n      points: pts/cap.obj\n", POINTS_IFACE);
    // A square cap of four corners, one quad face: two triangles over the four vertices.
    case.write("solid/pts/cap.obj", "v 0 0 0\nv 0.1 0 0\nv 0.1 0.1 0\nv 0 0.1 0\nf 1 2 3 4\n");
    let (mut a, _) = tidelink_mbs::participant::build(&file, &case.config).unwrap();
    let mut c = scripted(3).with_connectivity("SolidMesh");
    a.initialize_participant(&mut c).unwrap();
    assert_eq!(c.vertices("SolidMesh").len(), 12);
    let t = c.triangles("SolidMesh");
    assert_eq!(t.len(), 6, "two triangles: {t:?}");
    let mut corners = t.to_vec();
    corners.sort();
    corners.dedup();
    assert_eq!(corners, [0, 1, 2, 3]);
    // Without a mapping that needs them, none are given.
    let (mut a, _) = tidelink_mbs::participant::build(&file, &case.config).unwrap();
    let mut c = scripted(3);
    a.initialize_participant(&mut c).unwrap();
    assert!(c.triangles("SolidMesh").is_empty());
}

fn error(bodies: &str, interfaces: &str, files: &[(&str, &str)]) -> String {
    let (case, file) = case(bodies, interfaces);
    for (name, text) in files {
        case.write(name, text);
    }
    match tidelink_mbs::participant::build(&file, &case.config) {
        Ok(_) => panic!("the case should not build"),
        Err(e) => format!("{e:#}"),
    }
}

#[test]
fn bad_points_file_names_file_and_line() {
    let e =
        error("    - name: ball\n      points: bad.txt\n", POINTS_IFACE, &[("solid/bad.txt", "2\n0 0 0\n0 zero 0\n")]);
    assert!(e.contains("bad.txt:3") && e.contains("`zero` is not a number") && e.contains("ball"), "{e}");
}

#[test]
fn unsupported_points_extension_is_an_error() {
    let e = error("    - name: ball\n      points: float.ply\n", POINTS_IFACE, &[("solid/float.ply", "ply\n")]);
    assert!(e.contains("float.ply") && e.contains("unsupported extension"), "{e}");
}

#[test]
fn rotational_data_on_a_points_mesh_is_a_start_up_error() {
    let rot = POINTS_IFACE.replace("type: DISPLACEMENTS", "type: ROTATIONS");
    let e = error("    - name: ball\n      points: [[0, 0, 0]]\n", &rot, &[]);
    assert!(e.contains("ROTATIONS") && e.contains("RIGID_BODY_POINTS mesh `SolidMesh`"), "{e}");
    let torque = format!("{POINTS_IFACE}        - {{name: torques, type: TORQUES}}\n");
    let e = error("    - name: ball\n      points: [[0, 0, 0]]\n", &torque, &[]);
    assert!(e.contains("TORQUES") && e.contains("`SolidMesh`") && e.contains("RIGID_BODY_REFS"), "{e}");
}

#[test]
fn points_mesh_without_points_is_an_error() {
    let e = error("    - name: ball\n", POINTS_IFACE, &[]);
    assert!(e.contains("RIGID_BODY_POINTS mesh `SolidMesh` has no points"), "{e}");
}

#[test]
fn fea_mesh_is_not_implemented_and_named() {
    let fea = POINTS_IFACE.replace("RIGID_BODY_POINTS", "FEA_MESH_NODES");
    let e = error("    - name: ball\n", &fea, &[]);
    assert!(e.contains("`SolidMesh`") && e.contains("FEA_MESH_NODES") && e.contains("not implemented"), "{e}");
}
