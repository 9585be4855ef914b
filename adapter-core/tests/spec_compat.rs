//! Chrono's shipped participant files (in ../shared/compat/chrono) must read unchanged,
//! with the values Chrono's adapters would see and one warning per ignored key.
//!
//! Every test needs ../shared/compat/chrono: ignored without it, failing with the missing
//! file named under TIDELINK_REQUIRE_SHARED=1 (docs/testing.md).

use std::path::PathBuf;
use tidelink_adapter_core::diagnostics::Diagnostics;
use tidelink_adapter_core::spec::{self, DataType, MeshType, ParticipantFile, PointsSpec, ReadDataTime};

/// The file `rel` of Chrono's shipped cases (panics naming it when missing).
fn shared(rel: &str) -> PathBuf {
    tidelink_shared_data::require(env!("TIDELINK_SHARED_DIR"), &format!("compat/chrono/{rel}"))
}

fn load(rel: &str) -> (ParticipantFile, Diagnostics) {
    let p = shared(rel);
    match spec::load(&p) {
        Ok(r) => r,
        Err(d) => panic!("{rel} must read unchanged:\n{d}"),
    }
}

/// Warnings whose message mentions `word`, with their lines.
fn warnings_about(d: &Diagnostics, word: &str) -> Vec<usize> {
    d.warnings().filter(|w| w.message.contains(word)).map(|w| w.location.line).collect()
}

/// Asserts that `d` holds these warnings and nothing else: for each `(word, line)`, one
/// warning mentions `word`, on `line`.
fn assert_only_warnings(d: &Diagnostics, expected: &[(&str, usize)]) {
    for (word, line) in expected {
        assert_eq!(warnings_about(d, word), [*line], "{word}");
    }
    assert_eq!(d.0.len(), expected.len(), "{d}");
}

fn data(list: &[spec::DataSpec]) -> Vec<(&str, DataType)> {
    list.iter().map(|d| (d.name.as_str(), d.data_type)).collect()
}

#[test]
#[cfg_attr(not(tidelink_shared), ignore = "needs ../shared/compat/chrono (reference data beside the repository)")]
fn sphere_drop_solid() {
    let (f, d) = load("sphere_drop/solid_chrono/mbs_participant.yaml");
    assert_eq!(f.participant_type.as_deref(), Some("MBS"));
    assert_eq!(f.model.as_deref(), Some("mbs_model.yaml"));
    assert_eq!(f.solver.as_deref(), Some("mbs_solver.yaml"));
    assert_eq!(f.simulation.end_time, Some(100.0));
    assert!(f.simulation.enforce_realtime);
    assert_eq!(f.simulation.gravity, None);
    assert_eq!(f.output.format.as_deref(), Some("HDF5"));
    assert_eq!(f.output.mode.as_deref(), Some("SERIES"));
    assert_eq!(f.output.fps, Some(20.0));
    let a = &f.adapter;
    assert_eq!(a.participant_name, "Solid");
    assert_eq!(a.loc.line, 29);
    assert_eq!(a.read_data_time, ReadDataTime::WindowStart);
    assert_eq!(a.bodies.len(), 1);
    assert_eq!(a.bodies[0].name, "ball");
    assert_eq!(a.bodies[0].points, None);
    assert_eq!(a.interfaces.len(), 1);
    let i = &a.interfaces[0];
    assert_eq!((i.mesh_name.as_str(), &i.mesh_type), ("SolidMesh", &MeshType::RigidBodyRefs));
    assert_eq!(data(&i.write_data), [("positions", DataType::Positions), ("velocities", DataType::LinearVelocities)]);
    assert_eq!(data(&i.read_data), [("forces", DataType::Forces), ("torques", DataType::Torques)]);
    assert_eq!(i.read_data[1].loc.line, 45);
    assert_only_warnings(&d, &[("`visualization`", 16), ("end_time", 8)]);
}

#[test]
#[cfg_attr(not(tidelink_shared), ignore = "needs ../shared/compat/chrono (reference data beside the repository)")]
fn sphere_drop_sph() {
    let (f, d) = load("sphere_drop/fluid_sph/sph_participant.yaml");
    assert_eq!(f.participant_type.as_deref(), Some("SPH"));
    assert_eq!(f.output.format.as_deref(), Some("NONE"));
    assert_eq!(f.output.mode.as_deref(), Some("FRAMES"));
    let a = &f.adapter;
    assert_eq!(a.participant_name, "Fluid");
    let b = &a.bodies[0];
    assert_eq!(b.name, "ball");
    assert_eq!(b.location, Some([0.0, 0.0, 0.18]));
    assert_eq!(b.orientation, Some([0.0, 0.0, 0.0]));
    assert_eq!(b.loc.line, 54);
    let i = &a.interfaces[0];
    assert_eq!((i.mesh_name.as_str(), &i.mesh_type), ("FluidMesh", &MeshType::RigidBodyRefs));
    assert_eq!(data(&i.write_data), [("forces", DataType::Forces), ("torques", DataType::Torques)]);
    assert_eq!(data(&i.read_data), [("positions", DataType::Positions), ("velocities", DataType::LinearVelocities)]);
    // One warning each, although `visualization` has many sub-keys.
    assert_only_warnings(&d, &[("`visualization`", 15), ("`shapes`", 57), ("end_time", 8)]);
}

#[test]
#[cfg_attr(not(tidelink_shared), ignore = "needs ../shared/compat/chrono (reference data beside the repository)")]
fn sphere_drop_buoyancy() {
    let (f, d) = load("sphere_drop/fluid_buoyancy/cfd_participant.yaml");
    assert!(d.0.is_empty(), "{d}");
    assert_eq!(f.participant_type, None);
    assert_eq!(f.model, None);
    let a = &f.adapter;
    assert_eq!(a.participant_name, "Fluid");
    assert!(a.bodies.is_empty());
    assert_eq!(a.interfaces[0].mesh_name, "FluidMesh");
    assert_eq!(a.interfaces[0].write_data[0].loc.line, 8);
    assert_eq!(
        data(&a.interfaces[0].read_data),
        [("positions", DataType::Positions), ("velocities", DataType::LinearVelocities)]
    );
}

#[test]
#[cfg_attr(not(tidelink_shared), ignore = "needs ../shared/compat/chrono (reference data beside the repository)")]
fn flap_solid() {
    let (f, d) = load("flap_openfoam/solid_chrono/mbs_participant.yaml");
    assert_eq!(f.simulation.gravity, Some([0.0, 0.0, 0.0]));
    assert_eq!(f.simulation.gravity_loc.as_ref().map(|l| l.line), Some(10));
    let a = &f.adapter;
    assert_eq!(a.participant_name, "Solid");
    let dp = a.data_path.as_ref().expect("data_path");
    assert!(!dp.absolute);
    assert_eq!(dp.root, ".");
    assert_eq!(a.bodies[0].name, "flap");
    assert_eq!(a.bodies[0].points, Some(PointsSpec::File("flap.txt".into())));
    assert!(f.data_file("flap.txt").is_file());
    let i = &a.interfaces[0];
    assert_eq!((i.mesh_name.as_str(), &i.mesh_type), ("SolidMesh", &MeshType::RigidBodyPoints));
    assert_eq!(data(&i.write_data), [("Displacement", DataType::Displacements)]);
    assert_eq!(data(&i.read_data), [("Force", DataType::Forces)]);
    assert_eq!(warnings_about(&d, "`visualization`"), [17]);
    assert_eq!(d.0.len(), 2, "{d}");
}

/// Reads a Chrono XML with the config reader.
fn xml(rel: &str) -> tidelink_adapter_core::config::PreciceConfig {
    let p = shared(rel);
    match tidelink_adapter_core::config::load(&p) {
        Ok((cfg, _)) => cfg,
        Err(d) => panic!("{rel} must read:\n{d}"),
    }
}

#[test]
#[cfg_attr(not(tidelink_shared), ignore = "needs ../shared/compat/chrono (reference data beside the repository)")]
fn chrono_files_agree_with_their_xml() {
    let cases = [
        ("sphere_drop/precice_config_explicit.xml", "sphere_drop/solid_chrono/mbs_participant.yaml"),
        ("sphere_drop/precice_config_explicit.xml", "sphere_drop/fluid_sph/sph_participant.yaml"),
        ("sphere_drop/precice_config_explicit.xml", "sphere_drop/fluid_buoyancy/cfd_participant.yaml"),
        ("sphere_drop/precice_config_implicit.xml", "sphere_drop/solid_chrono/mbs_participant.yaml"),
        ("flap_openfoam/precice_config.xml", "flap_openfoam/solid_chrono/mbs_participant.yaml"),
    ];
    for (x, y) in cases {
        let (cfg, (file, _)) = (xml(x), load(y));
        let d = spec::check_against(&cfg, &file);
        assert!(!d.has_errors(), "{y} against {x}:\n{d}");
    }
}

#[test]
#[cfg_attr(not(tidelink_shared), ignore = "needs ../shared/compat/chrono (reference data beside the repository)")]
fn check_against_reports_every_wrong_name_with_its_line() {
    let cfg = xml("sphere_drop/precice_config_explicit.xml");
    let p = shared("sphere_drop/fluid_buoyancy/cfd_participant.yaml");
    let text = std::fs::read_to_string(&p)
        .expect("read")
        .replace("name: forces", "name: force")
        .replace("name: velocities", "name: torques");
    let (file, _) = spec::parse_str(&text, &p).expect("still valid YAML");
    let d = spec::check_against(&cfg, &file);
    let errors: Vec<(usize, &str)> = d.errors().map(|e| (e.location.line, e.message.as_str())).collect();
    assert_eq!(errors.len(), 2, "{d}");
    assert_eq!(errors[0].0, 8);
    assert!(errors[0].1.contains("did you mean `forces`?"), "{d}");
    assert_eq!(errors[1].0, 15);
    assert!(errors[1].1.contains("is a <write-data> of participant `Fluid`"), "{d}");

    let renamed = text.replace("participant_name: Fluid", "participant_name: Fluids");
    let (file, _) = spec::parse_str(&renamed, &p).expect("still valid YAML");
    let d = spec::check_against(&cfg, &file);
    let e = d.errors().next().expect("an error");
    assert_eq!(e.location.line, 2);
    assert!(e.message.contains("did you mean `Fluid`?"), "{d}");
}
