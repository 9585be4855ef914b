//! Broken model, solver and participant files: every error names the file, the line and
//! the key (or body) at fault, and nothing panics. Chrono's own case files still read.

use tidelink_adapter_core::testing::{self, TempCase};
use tidelink_mbs::participant::build;

const XML: &str = include_str!("../../../configs/sphere_drop/precice-config.xml");
const PARTICIPANT: &str = include_str!("../../../configs/sphere_drop/solid/participant.yaml");
const MODEL: &str = include_str!("../../../configs/sphere_drop/solid/model.yaml");
const SOLVER: &str = include_str!("../../../configs/sphere_drop/solid/solver.yaml");

/// The sphere_drop Solid files in a temporary case, with `edit` applied to one of them.
fn case(file: &str, edit: impl Fn(&str) -> String) -> TempCase {
    let case = testing::temp_case(XML);
    for (name, text) in
        [("solid/participant.yaml", PARTICIPANT), ("solid/model.yaml", MODEL), ("solid/solver.yaml", SOLVER)]
    {
        let text = if name.ends_with(file) { edit(text) } else { text.to_string() };
        case.write(name, &text);
    }
    case
}

fn error(case: &TempCase) -> String {
    match build(&case.path().join("solid/participant.yaml"), &case.config) {
        Ok(_) => panic!("the broken case was accepted"),
        Err(e) => format!("{e:#}"),
    }
}

fn line_of(text: &str, needle: &str) -> usize {
    text.lines().position(|l| l.contains(needle)).expect("needle in text") + 1
}

#[test]
fn the_shipped_case_builds() {
    let case = case("none", str::to_string);
    build(&case.path().join("solid/participant.yaml"), &case.config).unwrap();
}

#[test]
fn unknown_key_in_the_model_names_file_line_and_spelling() {
    let edited = |t: &str| t.replace("mass: 3.62", "mas: 3.62");
    let case = case("model.yaml", edited);
    let e = error(&case);
    let line = line_of(&edited(MODEL), "mas: 3.62");
    let want = format!("model.yaml:{line}: error: unknown key `mas` in model.bodies[0]; did you mean `mass`?");
    assert!(e.contains(&want), "{e}\nwanted: {want}");
}

#[test]
fn unknown_coupling_body_names_it_and_lists_the_models_bodies() {
    let edited = |t: &str| t.replace("- name: ball", "- name: bal");
    let case = case("participant.yaml", edited);
    let e = error(&case);
    let line = line_of(&edited(PARTICIPANT), "- name: bal");
    assert!(e.contains(&format!("participant.yaml:{line}:")), "{e}");
    assert!(e.contains("coupling body `bal` is not a body of the model; the model's bodies are: ball"), "{e}");
}

#[test]
fn bad_values_in_the_model_name_their_line() {
    let edited = |t: &str| t.replace("mass: 3.62", "mass: -3.62");
    let case = case("model.yaml", edited);
    let e = error(&case);
    let line = line_of(&edited(MODEL), "mass: -3.62");
    assert!(e.contains(&format!("model.yaml:{line}: error: body `ball`: the mass must be positive")), "{e}");
}

#[test]
fn unsupported_integrators_and_unknown_solver_keys_are_errors() {
    let case1 = case("solver.yaml", |t| t.replace("Euler_implicit_linearized", "RUNGEKUTTA45"));
    let e = error(&case1);
    assert!(
        e.contains(
            "solver.yaml:3: error: integrator type `RUNGEKUTTA45` is not implemented; implemented: HHT, Euler_implicit_linearized"
        ),
        "{e}"
    );
    let case2 = case("solver.yaml", |t| t.replace("time_step:", "timestep:"));
    let e = error(&case2);
    assert!(e.contains("unknown key `timestep` in integrator; did you mean `time_step`?"), "{e}");
}

#[test]
fn fea_meshes_are_refused_at_start_up() {
    let case = case("participant.yaml", |t| t.replace("mesh_type: RIGID_BODY_REFS", "mesh_type: FEA_MESH_NODES"));
    let e = error(&case);
    assert!(e.contains("mesh `SolidMesh` has mesh_type FEA_MESH_NODES: not implemented in the MBS participant"), "{e}");
}

#[test]
fn rigid_body_points_mesh_without_points_is_refused_at_start_up() {
    let case = case("participant.yaml", |t| t.replace("mesh_type: RIGID_BODY_REFS", "mesh_type: RIGID_BODY_POINTS"));
    let e = error(&case);
    assert!(e.contains("RIGID_BODY_POINTS mesh `SolidMesh` has no points"), "{e}");
}

#[test]
fn shape_errors_name_line_and_fix() {
    let model = "model:\n  bodies:\n    - name: ball\n      location: [0, 0, 0]\n      mass: 1\n      \
                 inertia: {moments: [1, 1, 1]}\n      visualization:\n        shapes:\n          \
                 - type: SPHERE\n            radius: -0.1\n          - type: CONE\n            radius: 1\n          \
                 - type: BOX\n            dimension: [1, 1, 1]\n";
    let g = nalgebra::Vector3::zeros();
    let e = tidelink_mbs::io::model_yaml::parse_str(model, std::path::Path::new("m.yaml"), g).unwrap_err().to_string();
    assert!(e.contains("m.yaml:14: error: unknown key `dimension` in model.bodies[0].visualization.shapes[2]; did you mean `dimensions`?"), "{e}");
    let fixed = model.replace("dimension:", "dimensions:");
    let e = tidelink_mbs::io::model_yaml::parse_str(&fixed, std::path::Path::new("m.yaml"), g).unwrap_err().to_string();
    assert!(e.contains("m.yaml:9: error: body `ball`, visualization shape 0: `radius` of a SPHERE must be a positive number, not -0.1"), "{e}");
    assert!(e.contains("m.yaml:11: error: body `ball`, visualization shape 1: type `CONE` is not a shape type we read; use one of SPHERE, BOX, CYLINDER, HULL, MESH"), "{e}");
}

#[test]
#[cfg_attr(not(tidelink_shared), ignore = "needs ../shared/compat/chrono (reference data beside the repository)")]
fn chrono_model_files_read() {
    use nalgebra::Vector3;
    let g = Vector3::new(0.0, 0.0, -9.81);
    {
        let p = testing::shared_path("compat/chrono/sphere_drop/solid_chrono/mbs_model.yaml");
        let (m, w) = tidelink_mbs::io::model_yaml::load(&p, g).unwrap();
        assert_eq!(m.body_names(), ["ball"]);
        assert!(w.0.is_empty(), "{w}");
        assert_eq!(m.shapes.len(), 1);
        assert_eq!(m.shapes[0].kind, tidelink_mbs_solver::ShapeKind::Sphere { radius: 0.12 });
        assert_eq!(m.shapes[0].color, Some([0.6, 0.2, 0.2]));
        let ball = m.bodies.get(m.handle("ball").unwrap()).unwrap();
        assert_eq!(ball.reference_position(), Vector3::new(0.0, 0.0, 0.18));
    }
    {
        let p = testing::shared_path("compat/chrono/flap_openfoam/solid_chrono/mbs_model.yaml");
        let (m, w) = tidelink_mbs::io::model_yaml::load(&p, g).unwrap();
        assert_eq!(m.body_names(), ["ground", "flap"]);
        assert!(w.0.is_empty(), "{w}");
        assert_eq!((m.joints.len(), m.forces.len()), (1, 1), "the revolute joint and the RSDA are built");
        // The flap's BOX, 0.2 × 0.02 × 0.01 m, centred 0.1 m along the flap.
        assert_eq!(m.shapes.len(), 1);
        let s = &m.shapes[0];
        assert_eq!(s.kind, tidelink_mbs_solver::ShapeKind::Box { dimensions: Vector3::new(0.2, 0.02, 0.01) });
        assert_eq!(s.pose.translation.vector, Vector3::new(0.1, 0.0, 0.0));
        assert!(!s.contact);
        let flap = m.bodies.get(m.handle("flap").unwrap()).unwrap();
        assert!((flap.com_position() - Vector3::new(0.1, 0.0, 0.0)).norm() < 1e-15);
    }
    {
        let p = testing::shared_path("compat/chrono/sphere_drop/solid_chrono/mbs_solver.yaml");
        let (s, w) = tidelink_mbs::io::solver_yaml::load(&p).unwrap();
        assert_eq!(s.time_step, 1e-2);
        // contact_method; Barzilai_Borwein read as `auto`; its tuning keys ignored.
        assert_eq!(w.0.len(), 3, "three warnings: contact_method, solver type, solver tuning: {w}");
        assert_eq!(s.linear_solver, tidelink_mbs_solver::solver::linear::LinearSolverKind::Auto);
        assert!(
            w.to_string().contains("solver `Barzilai_Borwein` (Chrono's solver for contact, NSC) is read as `auto`"),
            "{w}"
        );
    }
}

#[test]
fn unknown_output_format_and_bad_fps_are_errors() {
    let bad = case("participant.yaml", |t| t.replace("format: CSV", "format: VTK"));
    let e = error(&bad);
    assert!(e.contains("participant.yaml:14: error: invalid output format `VTK`; valid values are"), "{e}");
    let bad = case("participant.yaml", |t| t.replace("fps: 1000", "fps: 0"));
    let e = error(&bad);
    assert!(e.contains("participant.yaml:16: error: `fps` must be greater than 0"), "{e}");
}

/// A negative spring or damping coefficient may be meant (a negative-stiffness mechanism,
/// reactive control), so it builds, with a warning at the coefficient's line.
#[test]
fn negative_spring_and_damping_coefficients_warn_at_their_line() {
    let model = include_str!("../../../configs/flap/solid/model.yaml")
        .replace("      spring_coefficient: 25\n", "      spring_coefficient: -25\n      damping_coefficient: -0.5\n");
    let case = testing::temp_case(include_str!("../../../configs/flap/precice-config.xml"));
    case.write("solid/participant.yaml", include_str!("../../../configs/flap/solid/participant.yaml"));
    case.write("solid/model.yaml", &model);
    case.write("solid/solver.yaml", include_str!("../../../configs/flap/solid/solver.yaml"));
    case.write("flap_points.txt", include_str!("../../../configs/flap/flap_points.txt"));
    let (built, _) = tidelink_adapter_core::participant::build::<tidelink_mbs::participant::Mbs>(
        &case.path().join("solid/participant.yaml"),
        &case.config,
    )
    .unwrap_or_else(|e| panic!("a negative coefficient is a warning, not an error: {e}"));
    let w = built.warnings.to_string();
    for (key, what) in [
        ("spring_coefficient: -25", "negative spring_coefficient (-25)"),
        ("damping_coefficient: -0.5", "feeds energy"),
    ] {
        let line = line_of(&model, key);
        assert!(w.contains(&format!("model.yaml:{line}: warning: RSDA `spring` has a")) && w.contains(what), "{w}");
    }
}

/// `output.vtk: true` draws every shape: a mesh shape whose file is missing is refused when the
/// participant is built (so `--check` reports it), naming the file; without the scene it is not read.
#[test]
fn the_paraview_scene_refuses_a_missing_mesh_file_at_build() {
    let mesh = "          - type: SPHERE\n            radius: 0.12\n          - type: MESH\n            filename: nowhere.obj\n";
    let with_mesh = |t: &str| t.replace("          - type: SPHERE\n            radius: 0.12\n", mesh);
    let scene = |t: &str| t.replace("fps: 1000", "fps: 1000\n  vtk: true");
    let case_ = case("model.yaml", with_mesh);
    build(&case_.path().join("solid/participant.yaml"), &case_.config).expect("no scene: the mesh file is not read");
    case_.write("solid/participant.yaml", &scene(PARTICIPANT));
    let e = error(&case_);
    assert!(e.contains("output.vtk: cannot draw a body shape") && e.contains("nowhere.obj"), "{e}");
}
