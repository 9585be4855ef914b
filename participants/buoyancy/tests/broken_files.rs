//! Broken buoyancy model files: every error names the file, the line and the key.

use tidelink_adapter_core::testing::{self, TempCase};
use tidelink_buoyancy::participant::build;

const XML: &str = include_str!("../../../configs/sphere_drop/precice-config.xml");
const PARTICIPANT: &str = include_str!("../../../configs/sphere_drop/fluid/participant.yaml");
const MODEL: &str = include_str!("../../../configs/sphere_drop/fluid/buoyancy_model.yaml");

fn case(model: &str, participant: &str) -> TempCase {
    let case = testing::temp_case(XML);
    case.write("fluid/participant.yaml", participant);
    case.write("fluid/buoyancy_model.yaml", model);
    case
}

fn error(case: &TempCase) -> String {
    match build(&case.path().join("fluid/participant.yaml"), &case.config) {
        Ok(_) => panic!("the broken case was accepted"),
        Err(e) => format!("{e:#}"),
    }
}

fn line_of(text: &str, needle: &str) -> usize {
    text.lines().position(|l| l.contains(needle)).expect("needle in text") + 1
}

#[test]
fn the_shipped_case_builds_at_the_body_location() {
    let case = case(MODEL, PARTICIPANT);
    let (adapter, _) = build(&case.path().join("fluid/participant.yaml"), &case.config).unwrap();
    assert_eq!(adapter.state().0, nalgebra::Vector3::new(0.0, 0.0, 0.18));
}

#[test]
fn unknown_key_names_file_line_and_spelling() {
    let model = MODEL.replace("drag_coefficient:", "drag_coeficient:");
    let e = error(&case(&model, PARTICIPANT));
    let line = line_of(&model, "drag_coeficient");
    let want = format!("buoyancy_model.yaml:{line}: error: unknown key `drag_coeficient` in buoyancy; did you mean `drag_coefficient`?");
    assert!(e.contains(&want), "{e}\nwanted: {want}");
}

#[test]
fn bad_values_and_missing_keys_name_their_line() {
    let model = MODEL.replace("radius: 0.12", "radius: -0.12");
    let e = error(&case(&model, PARTICIPANT));
    let line = line_of(&model, "radius: -0.12");
    assert!(
        e.contains(&format!(
            "buoyancy_model.yaml:{line}: error: invalid `radius`: radius must be a positive number, got -0.12"
        )),
        "{e}"
    );

    let model: String = MODEL.lines().filter(|l| !l.contains("fluid_density")).map(|l| format!("{l}\n")).collect();
    let e = error(&case(&model, PARTICIPANT));
    assert!(
        e.contains("buoyancy_model.yaml:") && e.contains("missing required key `fluid_density` in buoyancy"),
        "{e}"
    );
}

#[test]
fn the_interface_must_read_positions() {
    let participant = PARTICIPANT.replace("type: POSITIONS", "type: ROTATIONS");
    let e = error(&case(MODEL, &participant));
    assert!(e.contains("the buoyancy participant cannot read ROTATIONS (`positions`)"), "{e}");
}
