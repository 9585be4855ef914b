//! RM3 as `configs/rm3_reg_waves` runs it in `tidelink-mbs` (float and spar with `mass:
//! equilibrium`, A∞ of the BEMIO file in the mass matrix, the PTO damper, two prismatic joints),
//! packed from its participant file: the FMU's resources read back as the participant's model,
//! and its derivatives over a communication step of several sub-steps.

use super::*;
use crate::pack;
use crate::setup::Source;
use serde_yaml::Value;
use std::path::{Path, PathBuf};

/// The case's Solid participant, copied to `dir` with its data path pointing at the shared
/// data folder (wherever it is): (participant file, preCICE configuration).
pub(crate) fn rm3_participant(dir: &Path) -> (PathBuf, PathBuf) {
    let h5 = tidelink_shared_data::require(env!("TIDELINK_SHARED_DIR"), "data/rm3/rm3.h5");
    let case = Path::new(env!("CARGO_MANIFEST_DIR")).join("../../../configs/rm3_reg_waves");
    for f in ["model.yaml", "solver.yaml"] {
        std::fs::copy(case.join("solid").join(f), dir.join(f)).unwrap();
    }
    let text = std::fs::read_to_string(case.join("solid/participant.yaml")).unwrap();
    let mut yaml: Value = serde_yaml::from_str(&text).unwrap();
    let mut data_path = serde_yaml::Mapping::new();
    data_path.insert("type".into(), "ABSOLUTE".into());
    data_path.insert("root".into(), h5.parent().unwrap().display().to_string().into());
    yaml["precice_adapter_config"]["data_path"] = Value::Mapping(data_path);
    let participant = dir.join("participant.yaml");
    std::fs::write(&participant, serde_yaml::to_string(&yaml).unwrap()).unwrap();
    (participant, case.join("precice-config.xml"))
}

/// An instance of the RM3 FMU from the packed resources, initialised.
fn rm3_fmu() -> (Fmu, PathBuf, PathBuf, tempfile::TempDir) {
    let src = tempfile::tempdir().unwrap();
    let (participant, config) = rm3_participant(src.path());
    let files = pack::resources(&Source::Participant { participant: participant.clone(), config: config.clone() })
        .expect("the participant packs");
    let res = tempfile::tempdir().unwrap();
    for (name, bytes) in &files {
        std::fs::write(res.path().join(name), bytes).unwrap();
    }
    let (inst, log, dir) = instantiate_in(res);
    (Fmu::started(inst, log, dir), participant, config, src)
}

/// Holds each body's weight (the FMU has no hydrostatics: the Fluid supplies them) plus a push
/// on the float, so the step moves the PTO.
fn rm3_loads(f: &Fmu) {
    let vr = [f.vr("float.fz"), f.vr("spar.fz"), f.vr("float.fx")];
    assert_eq!(f.set(&vr, &[725_833.0 * 9.81 + 2e5, 886_687.0 * 9.81, 1e4]), Fmi3Status::Ok);
}

#[test]
#[cfg_attr(not(tidelink_shared), ignore = "needs ../shared/data/rm3/rm3.h5 (reference data beside the repository)")]
fn rm3_fmu_steps_the_participants_model_with_added_mass() {
    let (f, participant, config, _src) = rm3_fmu();
    let names: Vec<&str> = f.vars().list.iter().map(|v| v.name.as_str()).collect();
    for n in ["float.fz", "spar.tz", "float.z", "spar.vz", "pto.damping", "solver.time_step"] {
        assert!(names.contains(&n), "{n} missing from {names:?}");
    }
    assert!(!names.iter().any(|n| n.starts_with("ground.")), "the fixed ground has no variables");
    assert_eq!(f.get(&[f.vr("pto.damping")]), vec![1.2e6]);
    // The case's HHT step, one per 40 ms coupling window (its solver.yaml).
    let dt = 0.04;
    assert_eq!(f.get(&[f.vr("solver.time_step")]), vec![dt]);
    // The float slides on the spar, the spar on the ground: one dependency group.
    assert_eq!(f.vars().groups, vec![0, 0]);
    rm3_loads(&f);
    // Communication steps of three sub-steps each.
    let h = 3.0 * dt;
    for k in 0..3 {
        assert_eq!(f.step(k as f64 * h, h), Fmi3Status::Ok, "{}", f.messages());
    }
    // The same files built by the participant, stepped by the same backward Euler in the same
    // sub-steps: the FMU's resources lost nothing (added mass, equilibrium masses, PTO).
    let setup = crate::setup::load(&Source::Participant { participant, config }).unwrap();
    let mut sys = setup.system;
    assert!(sys.added_mass.is_some(), "the participant has A∞ in its mass matrix");
    let handles: Vec<_> = setup.bodies.iter().map(|(_, h)| *h).collect();
    let mut bdf = setup.integrator;
    let forces = [725_833.0 * 9.81 + 2e5, 886_687.0 * 9.81];
    for k in 0..9 {
        sys.bodies.clear_accumulators();
        for (i, &hd) in handles.iter().enumerate() {
            let b = sys.bodies.get_mut(hd).unwrap();
            let p = b.reference_position();
            let fx = if i == 0 { 1e4 } else { 0.0 };
            b.add_force_at_point(nalgebra::Vector3::new(fx, 0.0, forces[i]), &p);
        }
        sys.step_at(&mut bdf, k as f64 * dt, dt).unwrap();
    }
    let fl = sys.bodies.get(handles[0]).unwrap();
    let sp = sys.bodies.get(handles[1]).unwrap();
    let fmu = f.get(&[f.vr("float.z"), f.vr("float.vz"), f.vr("spar.z"), f.vr("spar.vz")]);
    let rust =
        [fl.reference_position().z, fl.reference_velocity().z, sp.reference_position().z, sp.reference_velocity().z];
    // Equal to round-off: the FMU's communication steps of 0.12 s split into sub-steps of
    // 0.12 / 3, which may differ from 0.04 in the last bit.
    for (a, b) in fmu.iter().zip(rust) {
        assert!((a - b).abs() <= 1e-12 * (1.0 + b.abs()), "{fmu:?} vs {rust:?}");
    }
    // The float rose against the spar (its push exceeds its weight) and the PTO dragged the spar.
    assert!(fmu[1] > 0.0 && fmu[3] > 0.0, "{fmu:?}");
}

#[test]
#[cfg_attr(not(tidelink_shared), ignore = "needs ../shared/data/rm3/rm3.h5 (reference data beside the repository)")]
fn rm3_derivatives_over_sub_steps_match_central_differences() {
    let (f, _, _, _src) = rm3_fmu();
    rm3_loads(&f);
    assert_eq!(f.step(0.0, 0.2), Fmi3Status::Ok, "{}", f.messages());
    // A communication step of 0.2 s: five backward-Euler sub-steps of the case's 0.04 s, chained.
    // Loads of 0.1 % of the float's weight and torques of 1e4 N m (the joints hold the rotations).
    let worst = derivative_error(&f, 0.2, 0.2, |n| if n.contains(".f") { 7e3 } else { 1e4 });
    eprintln!("RM3, five sub-steps: worst relative difference to central differences: {worst:e}");
    assert!(worst < FD_TOLERANCE, "{worst:e}");
}
