//! Added mass in the MBS participant: the `added_mass` entry (inline blocks and a BEMIO
//! file), the start-up rules of the preCICE XML (declaring added-mass meshes turns it on),
//! the coupling-body index space, and dynamic added mass from two fluid senders through the
//! native engine (`dynamic.rs`).

use nalgebra::Vector3;
use std::sync::{Arc, Mutex};
use tidelink_adapter_core::coupling::{self, Backend};
use tidelink_adapter_core::spec::ReadDataTime;
use tidelink_adapter_core::testing::{self, ScriptedCoupling, TempCase};
use tidelink_adapter_core::{driver, Adapter, AdapterResult, CouplingData, VertexId};
use tidelink_mbs::adapter::MbsAdapter;
use tidelink_mbs::added_mass::exchange::{AddedMassExchange, PER_BODY};
use tidelink_mbs::participant::{build, build_with_warnings};

#[path = "mbs_added_mass_coupled/dynamic.rs"]
mod dynamic;

/// How a participant thread ended.
type Outcome = Result<(), String>;

const SPHERE_XML: &str = include_str!("../configs/sphere_drop/precice-config.xml");
const SOLVER: &str = "integrator:\n  type: Euler_implicit_linearized\n  time_step: 0.01\n";

/// The sphere_drop XML with the (static) added-mass meshes declared, provided by nobody.
fn static_am_xml() -> String {
    SPHERE_XML.replace(
        r#"  <data:vector name="torques" />"#,
        r#"  <data:vector name="torques" />
  <data:scalar name="am_coeffs" />
  <mesh name="SolidAddedMass" dimensions="3"><use-data name="am_coeffs" /></mesh>
  <mesh name="FluidAddedMass" dimensions="3"><use-data name="am_coeffs" /></mesh>"#,
    )
}

/// A Solid participant file coupling `bodies` on SolidMesh, with `extra` under
/// precice_adapter_config and `sim` under simulation.
fn participant(bodies: &[&str], extra: &str, gravity: [f64; 3]) -> String {
    let mut s = format!(
        "type: MBS\nmodel: model.yaml\nsolver: solver.yaml\nsimulation:\n  end_time: -1\n  gravity: [{}, {}, {}]\n\
         output:\n  format: NONE\nprecice_adapter_config:\n  participant_name: Solid\n  read_data_time: WINDOW_END\n  bodies:\n",
        gravity[0], gravity[1], gravity[2]
    );
    for b in bodies {
        s += &format!("    - name: {b}\n");
    }
    s += "  interfaces:\n    - mesh_name: SolidMesh\n      mesh_type: RIGID_BODY_REFS\n      read_data:\n        \
          - {name: forces, type: FORCES}\n";
    s += extra;
    s
}

/// RM3-like bodies (docs/design/tdpf-loads.md §9.1) and three light bodies without hydrodynamics.
fn body(name: &str) -> String {
    let (loc, mass, inertia, v, w) = match name {
        "float" => {
            ("[0, 0, -0.72]", "725833", "[20907301, 21306090.66, 37085481.11]", "[0.1, 0, 0.5]", "[0.01, 0.02, 0.005]")
        }
        "plate" => {
            ("[0, 0, -21.29]", "886687", "[94419614.57, 94407091.24, 28542224.82]", "[0, 0.05, -0.2]", "[0, 0.01, 0]")
        }
        "ball" => ("[0, 0, 0]", "1000", "[10, 10, 10]", "[0, 0, 0]", "[0, 0, 0]"),
        _ => ("[5, 1, 2]", "10", "[1, 2, 3]", "[1, 0, 0]", "[1, 2, 3]"),
    };
    format!(
        "    - name: {name}\n      location: {loc}\n      mass: {mass}\n      inertia:\n        moments: {inertia}\n      \
         initial_linear_velocity: {v}\n      initial_angular_velocity: {w}\n"
    )
}

/// A model with `order` bodies (file order), and a PTO damper between float and plate if both are there.
fn model(order: &[&str]) -> String {
    let mut s = "model:\n  name: am\n  bodies:\n".to_string();
    for b in order {
        s += &body(b);
    }
    if order.contains(&"float") && order.contains(&"plate") {
        s += "  tsdas:\n    - name: PTO\n      body1: float\n      body2: plate\n      point1: [0, 0, -0.72]\n      \
              point2: [0, 0, -21.29]\n      damping_coefficient: 1.2e6\n";
    }
    s
}

/// A case folder with the XML, participant, model and solver files.
fn case(xml: &str, participant: &str, model: &str) -> TempCase {
    let c = testing::temp_case(xml);
    c.write("solid/participant.yaml", participant);
    c.write("solid/model.yaml", model);
    c.write("solid/solver.yaml", SOLVER);
    c
}

fn solid_file(c: &TempCase) -> std::path::PathBuf {
    c.path().join("solid/participant.yaml")
}

/// Inline coefficients (kg, kg·m, kg·m²; density 1) of float and plate: symmetric, positive
/// definite, with surge-pitch terms and body-to-body coupling.
fn two_body_coefficients() -> [[f64; 12]; 12] {
    let diag = [1e5, 1.1e5, 1.2e6, 2e7, 2.1e7, 3e6, 9e5, 9e5, 8.9e6, 5e7, 5e7, 1e7];
    let mut a = [[0.0; 12]; 12];
    for (i, d) in diag.iter().enumerate() {
        a[i][i] = *d;
    }
    for (i, j, v) in [(0, 4, 3e5), (2, 8, -1.42e5), (0, 6, 2e4), (1, 3, -2e5), (6, 10, 4e5)] {
        a[i][j] = v;
        a[j][i] = v;
    }
    a
}

fn inline_entry(names: &[&str], a: &[[f64; 12]; 12], density: f64, tail: &str) -> String {
    let mut s = format!("  added_mass:\n    density: {density}\n    blocks:\n");
    for (b, name) in names.iter().enumerate() {
        s += &format!("      - name: {name}\n        data:\n");
        for r in 0..6 {
            let row: Vec<String> = a[6 * b + r].iter().map(|v| (v / density).to_string()).collect();
            s += &format!("          - [{}]\n", row.join(", "));
        }
    }
    s + tail
}

fn error_of(c: &TempCase) -> String {
    match build(&solid_file(c), &c.config) {
        Ok(_) => panic!("the case was accepted"),
        Err(e) => format!("{e:#}"),
    }
}

#[test]
fn declared_meshes_without_entry_or_exchange_is_a_start_up_error_saying_what_to_add() {
    let c = case(&static_am_xml(), &participant(&["float"], "", [0.0, 0.0, -9.81]), &model(&["float"]));
    let e = error_of(&c);
    assert!(e.contains("declares the added-mass mesh(es) SolidAddedMass, FluidAddedMass"), "{e}");
    assert!(e.contains("has no `added_mass` entry and reads no added mass"), "{e}");
    assert!(e.contains("add `added_mass: {h5_filename: <BEMIO file>}`"), "{e}");
    assert!(e.contains("participant.yaml:"), "{e}");
}

#[test]
fn an_entry_without_added_mass_meshes_is_ignored_with_a_warning() {
    let a = two_body_coefficients();
    let text = participant(&["float", "plate"], &inline_entry(&["float", "plate"], &a, 1000.0, ""), [0.0; 3]);
    let c = case(SPHERE_XML, &text, &model(&["float", "plate"]));
    let (adapter, _, warnings) = build_with_warnings(&solid_file(&c), &c.config).unwrap();
    assert!(adapter.system().added_mass.is_none());
    let w = warnings.to_string();
    let line = text.lines().position(|l| l.contains("added_mass:")).unwrap() + 1;
    assert!(
        w.contains(&format!("participant.yaml:{line}: warning: precice_adapter_config.added_mass is ignored")),
        "{w}"
    );
    assert!(w.contains("declaring those meshes is what turns added mass on"), "{w}");
}

#[test]
fn inline_blocks_are_scaled_by_density_and_must_follow_the_coupling_bodies() {
    let a = two_body_coefficients();
    let entry = inline_entry(
        &["float", "plate"],
        &a,
        1000.0,
        "    reference_points:\n      - {name: plate, point: [0, 0, 1]}\n",
    );
    let c = case(&static_am_xml(), &participant(&["float", "plate"], &entry, [0.0; 3]), &model(&["float", "plate"]));
    let (adapter, _) = build(&solid_file(&c), &c.config).unwrap();
    let am = adapter.system().added_mass.as_ref().expect("added mass on");
    assert_eq!(am.blocks()[0][(2, 2)], 1.2e6);
    assert_eq!(am.blocks()[0][(2, 8)], -1.42e5);
    assert_eq!(am.reference_point(1), Some(Vector3::new(0.0, 0.0, 1.0)));
    assert_eq!(am.reference_point(0), None);
    // Blocks in another order than the coupling bodies.
    let swapped = inline_entry(&["plate", "float"], &a, 1000.0, "");
    let c = case(&static_am_xml(), &participant(&["float", "plate"], &swapped, [0.0; 3]), &model(&["float", "plate"]));
    let e = error_of(&c);
    assert!(e.contains("added_mass block 0 is for `plate` but coupling body 0 is `float`"), "{e}");
    // One block for two coupling bodies.
    let one = "  added_mass:\n    density: 1\n    blocks:\n      - name: float\n        data: [[1, 0, 0, 0, 0, 0], \
               [0, 1, 0, 0, 0, 0], [0, 0, 1, 0, 0, 0], [0, 0, 0, 1, 0, 0], [0, 0, 0, 0, 1, 0], [0, 0, 0, 0, 0, 1]]\n";
    let c = case(&static_am_xml(), &participant(&["float", "plate"], one, [0.0; 3]), &model(&["float", "plate"]));
    let e = error_of(&c);
    assert!(e.contains("added_mass has 1 block(s) but there are 2 coupling bodies (float, plate)"), "{e}");
    // Coefficients in body axes.
    let body_axes = one.replace("density: 1\n", "density: 1\n    frame: BODY\n").replace("float", "ball");
    let c = case(&static_am_xml(), &participant(&["ball"], &body_axes, [0.0; 3]), &model(&["ball"]));
    let (adapter, _) = build(&solid_file(&c), &c.config).unwrap_or_else(|e| panic!("{e:#}"));
    assert_eq!(adapter.system().added_mass.as_ref().map(|a| a.frame()), Some(tidelink_mbs_solver::Frame::Body));
    // M + A not positive definite: refused at start-up with the body named.
    let bad = one.replace("[0, 0, 1, 0, 0, 0]", "[0, 0, -2000, 0, 0, 0]");
    let c = case(&static_am_xml(), &participant(&["ball"], &bad.replace("float", "ball"), [0.0; 3]), &model(&["ball"]));
    let e = error_of(&c);
    assert!(e.contains("not positive definite") && e.contains("body `ball`"), "{e}");
}

#[test]
#[cfg_attr(not(tidelink_shared), ignore = "needs ../shared/data/rm3/rm3.h5 (reference data beside the repository)")]
fn rm3_h5_gives_the_float_heave_and_coupling_added_mass() {
    let h5 = testing::shared_path("data/rm3/rm3.h5");
    let dir = h5.parent().expect("the data folder").display().to_string();
    let entry = format!("  data_path: {{type: ABSOLUTE, root: \"{dir}\"}}\n  added_mass:\n    h5_filename: rm3.h5\n");
    let c = case(&static_am_xml(), &participant(&["float", "plate"], &entry, [0.0; 3]), &model(&["float", "plate"]));
    let (adapter, _, warnings) = build_with_warnings(&solid_file(&c), &c.config).unwrap_or_else(|e| panic!("{e:#}"));
    let am = adapter.system().added_mass.as_ref().expect("added mass on");
    let (heave, coupling) = (am.blocks()[0][(2, 2)], am.blocks()[0][(2, 8)]);
    println!("rm3.h5: float A33 = {heave:.6e} kg, A(3,9) = {coupling:.6e} kg; warnings: {warnings}");
    assert!((heave / 1.2328e6 - 1.0).abs() < 1e-3, "float heave added mass {heave}");
    // The reference is given to three figures (−1.42·10⁵ kg): the file's value must round to it.
    assert!((coupling - -1.42e5).abs() <= 0.005e5, "float-plate coupling {coupling}");
    assert_eq!(am.blocks()[0].shape(), (6, 12));
    // The file's surge-pitch terms are not symmetric: used as given, with a warning.
    assert!(warnings.to_string().contains("the added mass of `rm3.h5` is not symmetric"), "{warnings}");
    // Three coupling bodies against a two-body file: an error naming both counts.
    let three = model(&["float", "plate", "buoy"]);
    let c = case(&static_am_xml(), &participant(&["float", "plate", "buoy"], &entry, [0.0; 3]), &three);
    let e = error_of(&c);
    assert!(e.contains("the file has 2 bodies but there are 3 coupling bodies (float, plate, buoy)"), "{e}");
    // Names are matched by index: the file calls /body2 `spar`, a warning naming both.
    let w = warnings.to_string();
    assert!(w.contains("model body \"plate\" takes the coefficients of /body2 named \"spar\""), "{w}");
    // The file's bodies in another order: an error, not a warning (swapped coefficients).
    let swapped =
        case(&static_am_xml(), &participant(&["spar", "float"], &entry, [0.0; 3]), &model(&["spar", "float"]));
    let e = error_of(&swapped);
    assert!(e.contains("\"spar\" (index 0) is /body2 of the file") && e.contains("file's order"), "{e}");
}

/// `mass: equilibrium` is ρ V of the added-mass file's body (by coupling index); without a
/// file it is an error naming the body and what to give instead.
#[test]
#[cfg_attr(not(tidelink_shared), ignore = "needs ../shared/data/rm3/rm3.h5 (reference data beside the repository)")]
fn equilibrium_mass_is_the_displaced_water_of_the_file() {
    let h5 = testing::shared_path("data/rm3/rm3.h5");
    let dir = h5.parent().expect("the data folder").display().to_string();
    let entry = format!("  data_path: {{type: ABSOLUTE, root: \"{dir}\"}}\n  added_mass:\n    h5_filename: rm3.h5\n");
    let model =
        model(&["float", "plate"]).replace("mass: 725833", "mass: equilibrium").replace("mass: 886687", "mass: 1");
    let model = model.replace("mass: 1\n", "mass: EQUILIBRIUM\n");
    assert!(model.contains("mass: equilibrium"), "{model}");
    let c = case(&static_am_xml(), &participant(&["float", "plate"], &entry, [0.0; 3]), &model);
    let (adapter, _, _) = build_with_warnings(&solid_file(&c), &c.config).unwrap_or_else(|e| panic!("{e:#}"));
    let mass = |i: usize| adapter.bodies().get(adapter.coupling_bodies()[i].handle).unwrap().mass();
    assert!((mass(0) - 725833.0).abs() < 1e-6 && (mass(1) - 886687.0).abs() < 1e-6, "{} {}", mass(0), mass(1));
    let c = case(&static_am_xml(), &participant(&["float", "plate"], "", [0.0; 3]), &model);
    let e = error_of(&c);
    assert!(e.contains("`mass: equilibrium` is the water it displaces"), "{e}");
}

/// `body_to_body: false` keeps each body's own block and drops the coupling between them
/// (WEC-Sim's default), so the float's heave is kept and its coupling to the plate is zero.
#[test]
#[cfg_attr(not(tidelink_shared), ignore = "needs ../shared/data/rm3/rm3.h5 (reference data beside the repository)")]
fn without_body_to_body_terms_only_the_self_blocks_remain() {
    let h5 = testing::shared_path("data/rm3/rm3.h5");
    let dir = h5.parent().expect("the data folder").display().to_string();
    let entry = format!(
        "  data_path: {{type: ABSOLUTE, root: \"{dir}\"}}\n  added_mass:\n    h5_filename: rm3.h5\n    body_to_body: false\n"
    );
    let c = case(&static_am_xml(), &participant(&["float", "plate"], &entry, [0.0; 3]), &model(&["float", "plate"]));
    let (adapter, _, _) = build_with_warnings(&solid_file(&c), &c.config).unwrap_or_else(|e| panic!("{e:#}"));
    let am = adapter.system().added_mass.as_ref().expect("added mass on");
    let (float, plate) = (&am.blocks()[0], &am.blocks()[1]);
    assert!((float[(2, 2)] / 1.2328e6 - 1.0).abs() < 1e-3, "float heave kept: {}", float[(2, 2)]);
    assert!((plate[(2, 8)] / 8.9188e6 - 1.0).abs() < 1e-3, "plate heave kept: {}", plate[(2, 8)]);
    assert!(float.columns(6, 6).iter().all(|x| *x == 0.0) && plate.columns(0, 6).iter().all(|x| *x == 0.0));
    let bad = entry.replace("body_to_body: false", "body_to_body: maybe");
    let c = case(&static_am_xml(), &participant(&["float", "plate"], &bad, [0.0; 3]), &model(&["float", "plate"]));
    let e = error_of(&c);
    assert!(e.contains("body_to_body"), "{e}");
}

/// The two coupling bodies' states after `steps` steps of the model with bodies in `order`.
fn motion(order: &[&str], steps: usize) -> Vec<f64> {
    let a = two_body_coefficients();
    let entry = inline_entry(
        &["float", "plate"],
        &a,
        1000.0,
        "    reference_points:\n      - {name: plate, point: [0.5, 0, 1]}\n",
    );
    let c = case(&static_am_xml(), &participant(&["float", "plate"], &entry, [0.0, 0.0, -9.81]), &model(order));
    let (mut adapter, _) = build(&solid_file(&c), &c.config).unwrap_or_else(|e| panic!("{e:#}"));
    for k in 0..steps {
        adapter.advance(k as f64 * 0.01, 0.01).unwrap_or_else(|e| panic!("{e}"));
    }
    state(&adapter)
}

fn state(adapter: &MbsAdapter) -> Vec<f64> {
    let mut out = Vec::new();
    for c in adapter.coupling_bodies() {
        let b = adapter.bodies().get(c.handle).expect("coupling body");
        out.extend(b.reference_position().iter());
        out.extend(b.reference_orientation().coords.iter());
        out.extend(b.linvel().iter());
        out.extend(b.angvel().iter());
    }
    out
}

#[test]
fn motion_does_not_depend_on_where_the_coupling_bodies_sit_in_the_model() {
    let reference = motion(&["float", "plate"], 50);
    let start = {
        let c = case(SPHERE_XML, &participant(&["float", "plate"], "", [0.0; 3]), &model(&["float", "plate"]));
        state(&build(&solid_file(&c), &c.config).unwrap().0)
    };
    let moved = reference.iter().zip(&start).map(|(a, b)| (a - b).abs()).fold(0.0, f64::max);
    assert!(moved > 1e-2, "the bodies hardly moved ({moved})");
    for order in [
        &["extra1", "float", "plate"][..],
        &["float", "extra1", "plate"],
        &["float", "plate", "extra1"],
        &["extra1", "plate", "extra2", "float", "extra3"],
    ] {
        let other = motion(order, 50);
        let worst = reference.iter().zip(&other).map(|(a, b)| (a - b).abs() / (1.0 + a.abs())).fold(0.0, f64::max);
        println!("model order {order:?}: largest relative difference {worst:.3e}");
        assert!(worst <= 1e-12, "model order {order:?}: difference {worst}");
    }
}

/// The RM3 float and plate (free, no PTO) against the TDPF participant in still water, with
/// the h5 baseline in the Solid and the TDPF participant's (zero) increments on
/// FluidAddedMass_TDPF: both adapters agree on the added-mass vertices, and the run goes
/// through with the baseline applied.
fn rm3_tdpf_xml() -> String {
    let vectors = ["positions", "rotations", "velocities", "angular_velocities", "forces", "torques"];
    let mut x = String::from("<?xml version=\"1.0\" encoding=\"UTF-8\" ?>\n<precice-configuration>\n");
    let uses: String = vectors.iter().map(|v| format!("<use-data name=\"{v}\" />")).collect();
    for v in vectors {
        x += &format!("  <data:vector name=\"{v}\" />\n");
    }
    x += "  <data:scalar name=\"am_coeffs\" />\n";
    x += &format!("  <mesh name=\"SolidMesh\" dimensions=\"3\">{uses}</mesh>\n");
    x += &format!("  <mesh name=\"FluidMesh\" dimensions=\"3\">{uses}</mesh>\n");
    for m in ["FluidAddedMass_TDPF", "SolidAddedMass_TDPF"] {
        x += &format!("  <mesh name=\"{m}\" dimensions=\"3\"><use-data name=\"am_coeffs\" /></mesh>\n");
    }
    x += "  <participant name=\"Solid\">\n    <provide-mesh name=\"SolidMesh\" />\n";
    for v in &vectors[..4] {
        x += &format!("    <write-data name=\"{v}\" mesh=\"SolidMesh\" />\n");
    }
    x += r#"    <read-data name="forces" mesh="SolidMesh" />
    <read-data name="torques" mesh="SolidMesh" />
    <provide-mesh name="SolidAddedMass_TDPF" />
    <receive-mesh name="FluidAddedMass_TDPF" from="Fluid" />
    <mapping:nearest-neighbor direction="read" from="FluidAddedMass_TDPF" to="SolidAddedMass_TDPF" constraint="consistent" />
    <read-data name="am_coeffs" mesh="SolidAddedMass_TDPF" />
  </participant>
  <participant name="Fluid">
    <provide-mesh name="FluidMesh" />
    <receive-mesh name="SolidMesh" from="Solid" />
    <mapping:nearest-neighbor direction="read" from="SolidMesh" to="FluidMesh" constraint="consistent" />
    <mapping:nearest-neighbor direction="write" from="FluidMesh" to="SolidMesh" constraint="conservative" />
"#;
    for v in &vectors[..4] {
        x += &format!("    <read-data name=\"{v}\" mesh=\"FluidMesh\" />\n");
    }
    x += r#"    <write-data name="forces" mesh="FluidMesh" />
    <write-data name="torques" mesh="FluidMesh" />
    <provide-mesh name="FluidAddedMass_TDPF" />
    <write-data name="am_coeffs" mesh="FluidAddedMass_TDPF" />
  </participant>
  <m2n:sockets acceptor="Fluid" connector="Solid" exchange-directory="{dir}" />
  <coupling-scheme:serial-explicit>
    <participants first="Fluid" second="Solid" />
    <time-window-size value="0.1" />
    <max-time-windows value="20" />
"#;
    for v in &vectors[..4] {
        x += &format!(
            "    <exchange data=\"{v}\" mesh=\"SolidMesh\" from=\"Solid\" to=\"Fluid\" initialize=\"yes\" />\n"
        );
    }
    x += r#"    <exchange data="forces" mesh="SolidMesh" from="Fluid" to="Solid" />
    <exchange data="torques" mesh="SolidMesh" from="Fluid" to="Solid" />
    <exchange data="am_coeffs" mesh="FluidAddedMass_TDPF" from="Fluid" to="Solid" />
  </coupling-scheme:serial-explicit>
</precice-configuration>
"#;
    x
}

#[test]
#[cfg_attr(not(tidelink_shared), ignore = "needs ../shared/data/rm3/rm3.h5 (reference data beside the repository)")]
fn rm3_with_the_tdpf_participant_applies_the_h5_baseline_and_zero_increments() {
    let h5 = testing::shared_path("data/rm3/rm3.h5");
    let dir = h5.parent().expect("the data folder").display().to_string();
    let c = testing::temp_case(&rm3_tdpf_xml());
    let mut solid = participant(&["float", "plate"], "", [0.0, 0.0, -9.81]).replace(
        "      read_data:\n",
        "      write_data:\n        - {name: positions, type: POSITIONS}\n        - {name: rotations, type: ROTATIONS}\n        \
         - {name: velocities, type: LINEAR_VELOCITIES}\n        - {name: angular_velocities, type: ANGULAR_VELOCITIES}\n      \
         read_data:\n        - {name: torques, type: TORQUES}\n",
    );
    solid += &format!("  data_path: {{type: ABSOLUTE, root: \"{dir}\"}}\n  added_mass:\n    h5_filename: rm3.h5\n");
    // Free bodies at the file's equilibrium, the float released with a heave speed.
    let bodies = model(&["float", "plate"]);
    let bodies = bodies[..bodies.find("  tsdas:").unwrap_or(bodies.len())]
        .replace("[0.1, 0, 0.5]", "[0, 0, 0.5]")
        .replace("[0.01, 0.02, 0.005]", "[0, 0, 0]")
        .replace("[0, 0.05, -0.2]", "[0, 0, 0]")
        .replace("[0, 0.01, 0]", "[0, 0, 0]");
    c.write("solid/participant.yaml", &solid);
    c.write("solid/model.yaml", &bodies);
    c.write("solid/solver.yaml", SOLVER);
    let mut fluid = String::from(
        "type: TDPF\nmodel: tdpf_model.yaml\nsimulation:\n  end_time: -1\n  gravity: [0, 0, -9.81]\n\
         precice_adapter_config:\n  participant_name: Fluid\n  read_data_time: WINDOW_START\n  bodies:\n    \
         - {name: float, location: [0, 0, -0.72]}\n    - {name: plate, location: [0, 0, -21.29]}\n  interfaces:\n    \
         - mesh_name: FluidMesh\n      mesh_type: RIGID_BODY_REFS\n      write_data:\n",
    );
    fluid += "        - {name: forces, type: FORCES}\n        - {name: torques, type: TORQUES}\n      read_data:\n";
    fluid += "        - {name: positions, type: POSITIONS}\n        - {name: rotations, type: ROTATIONS}\n";
    fluid += "        - {name: velocities, type: LINEAR_VELOCITIES}\n        - {name: angular_velocities, type: ANGULAR_VELOCITIES}\n";
    let fluid_file = c.write("fluid/participant.yaml", &fluid);
    c.write(
        "fluid/tdpf_model.yaml",
        &format!("model:\n  name: rm3\n  h5_file: {}\n  waves:\n    type: NO_WAVE\n", h5.display()),
    );
    let (solid_file, x1, x2) = (solid_file(&c), c.config.clone(), c.config.clone());
    let out = Arc::new(Mutex::new(None));
    let out2 = out.clone();
    let results = testing::run_in_threads::<Outcome>(vec![
        (
            "Fluid",
            Box::new(move || {
                tidelink_tdpf::run_with_progress(&fluid_file, &x1, Backend::Native, &mut ())
                    .map(|_| ())
                    .map_err(|e| format!("Fluid: {e:#}"))
            }),
        ),
        (
            "Solid",
            Box::new(move || {
                let (mut a, spec) = build(&solid_file, &x2).map_err(|e| format!("Solid: {e:#}"))?;
                let baseline = a.system().added_mass.clone();
                let mut cpl = coupling::open(Backend::Native, "Solid", &x2).map_err(|e| format!("Solid: {e}"))?;
                driver::run(&mut a, cpl.as_mut(), spec.adapter.read_data_time, &mut ())
                    .map_err(|e| format!("Solid: {e}"))?;
                *out2.lock().unwrap() = Some((baseline, a.system().added_mass.clone(), state(&a)));
                Ok(())
            }),
        ),
    ]);
    for r in results {
        r.unwrap_or_else(|e| panic!("{e}"));
    }
    let (baseline, applied, s) = out.lock().unwrap().take().expect("the Solid ran");
    let (baseline, applied) = (baseline.expect("baseline"), applied.expect("applied"));
    assert_eq!(applied.blocks(), baseline.blocks(), "zero increments leave the h5 baseline");
    // The float (state[0..13]) heaves within a metre of its equilibrium after 2 s.
    println!("RM3 + TDPF, t = 2 s: float z = {:.4} m, vz = {:.4} m/s", s[2], s[9]);
    assert!((s[2] + 0.72).abs() < 1.0 && s[2].is_finite(), "float z {}", s[2]);
}
