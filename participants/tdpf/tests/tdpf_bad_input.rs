//! Start-up errors of the TDPF participant: each bad input is refused by `participant::build` with
//! a message naming what is wrong and where, before any connection is made.

mod common;

use common::{model_yaml, participant_yaml, rm3, write_case, Xml, FLOAT, PLATE};
use std::path::Path;
use tidelink_adapter_core::testing::temp_case;
use tidelink_tdpf::participant;

const BODIES: [(&str, [f64; 3]); 2] = [("float", FLOAT), ("plate", PLATE)];

/// The error of building a case from its texts, as printed.
fn build_error(xml: &Xml, participant: &str, model: &str) -> String {
    let case = temp_case(&xml.text());
    let fluid = write_case(&case, participant, model);
    match participant::build(&fluid, &case.config) {
        Ok(_) => panic!("the case was accepted"),
        Err(e) => format!("{e:#}"),
    }
}

fn good_participant() -> String {
    participant_yaml(&BODIES, "WINDOW_START", "RIGID_BODY_REFS")
}

#[test]
fn unknown_model_key_names_key_file_and_line() {
    let model = model_yaml(Path::new("rm3.h5"), "    type: REGULAR\n    height: 2.5\n    periode: 8\n");
    let e = build_error(&Xml::default(), &good_participant(), &model);
    println!("{e}");
    assert!(e.contains("tdpf_model.yaml:7"), "{e}");
    assert!(e.contains("unknown key `periode`") && e.contains("did you mean `period`?"), "{e}");
}

#[test]
fn missing_h5_file_is_named() {
    let model = "model:\n  h5_file: nowhere/rm3.h5\n  waves:\n    type: NO_WAVE\n";
    let e = build_error(&Xml::default(), &good_participant(), model);
    println!("{e}");
    assert!(e.contains("tdpf_model.yaml:2") && e.contains("h5_file `nowhere/rm3.h5` not found"), "{e}");
}

#[test]
fn unimplemented_wave_type_names_the_implemented_ones() {
    let model = model_yaml(Path::new("rm3.h5"), "    type: IRREGULAR_ETA_IMPORT\n");
    let e = build_error(&Xml::default(), &good_participant(), &model);
    assert!(e.contains("tdpf_model.yaml:5") && e.contains("implements NO_WAVE, REGULAR, IRREGULAR"), "{e}");
}

#[test]
fn rigid_body_points_mesh_is_refused() {
    let participant = participant_yaml(&BODIES, "WINDOW_START", "RIGID_BODY_POINTS");
    let e = build_error(&Xml::default(), &participant, &model_yaml(Path::new("rm3.h5"), "    type: NO_WAVE\n"));
    println!("{e}");
    assert!(e.contains("mesh_type RIGID_BODY_POINTS") && e.contains("RIGID_BODY_REFS"), "{e}");
}

#[test]
#[cfg_attr(not(tidelink_shared), ignore = "needs ../shared/data/rm3/rm3.h5 (reference data beside the repository)")]
fn fewer_file_bodies_than_coupling_bodies() {
    let h5 = rm3();
    let three = [("float", FLOAT), ("plate", PLATE), ("buoy", [10.0, 0.0, 0.0])];
    let participant = participant_yaml(&three, "WINDOW_START", "RIGID_BODY_REFS");
    let e = build_error(&Xml::default(), &participant, &model_yaml(&h5, "    type: NO_WAVE\n"));
    println!("{e}");
    assert!(e.contains("the file has 2 bodies but the model needs 3"), "{e}");
}

#[test]
#[cfg_attr(not(tidelink_shared), ignore = "needs ../shared/data/rm3/rm3.h5 (reference data beside the repository)")]
fn body_name_mismatch_is_an_error_in_strict_mode_only_and_a_reorder_always() {
    let h5 = rm3();
    // Names the file does not hold (it says float, spar): a warning, an error when strict.
    let renamed = [("buoy", FLOAT), ("plate", PLATE)];
    let participant = participant_yaml(&renamed, "WINDOW_START", "RIGID_BODY_REFS");
    let strict = format!("{}  strict_body_names: true\n", model_yaml(&h5, "    type: NO_WAVE\n"));
    let e = build_error(&Xml::default(), &participant, &strict);
    println!("{e}");
    assert!(e.contains("model body \"buoy\" takes the coefficients of /body1"), "{e}");
    let case = temp_case(&Xml::default().text());
    let fluid = write_case(&case, &participant, &model_yaml(&h5, "    type: NO_WAVE\n"));
    assert!(participant::build(&fluid, &case.config).is_ok(), "without strict_body_names a mismatch only warns");
    // The file's bodies in another order would swap their coefficients: an error either way.
    let swapped = [("spar", FLOAT), ("float", PLATE)];
    let participant = participant_yaml(&swapped, "WINDOW_START", "RIGID_BODY_REFS");
    let e = build_error(&Xml::default(), &participant, &model_yaml(&h5, "    type: NO_WAVE\n"));
    assert!(e.contains("\"spar\" (index 0) is /body2 of the file"), "{e}");
}

#[test]
#[cfg_attr(not(tidelink_shared), ignore = "needs ../shared/data/rm3/rm3.h5 (reference data beside the repository)")]
fn gravity_other_than_the_files_g_warns_at_its_line() {
    let h5 = rm3();
    let model = model_yaml(&h5, "    type: NO_WAVE\n");
    let bodies = [("float", FLOAT), ("spar", PLATE)];
    let case = temp_case(&Xml::default().text());
    // The file's own g (rm3.h5: 9.81): no warning.
    let same = participant_yaml(&bodies, "WINDOW_START", "RIGID_BODY_REFS");
    let (built, _) =
        tidelink_adapter_core::participant::build::<participant::Tdpf>(&write_case(&case, &same, &model), &case.config)
            .expect("builds");
    assert!(!built.warnings.to_string().contains("gravity"), "{}", built.warnings);
    // The Moon's: builds (a user may mean it), with a warning at the gravity line.
    let moon = same.replace("gravity: [0, 0, -9.81]", "gravity: [0, 0, -1.62]");
    let file = write_case(&case, &moon, &model);
    let (built, _) =
        tidelink_adapter_core::participant::build::<participant::Tdpf>(&file, &case.config).expect("builds");
    let line = moon.lines().position(|l| l.contains("gravity: [0, 0, -1.62]")).expect("gravity line") + 1;
    let w = built.warnings.to_string();
    assert!(w.contains(&format!(":{line}: warning: gravity 1.62 m/s² differs from the g = 9.81")), "{w}");
}
