//! The SPH participant's files (the shipped floating_box_sph case, broken in one place each):
//! what a run refuses at start-up, before any connection, `--check` reports with file and line.

use tidelink_adapter_core::coupling::Backend;
use tidelink_adapter_core::participant::{self, ParticipantError};
use tidelink_adapter_core::testing::{self, TempCase};
use tidelink_sph::participant::Sph;

const XML: &str = include_str!("../../../configs/floating_box_sph/precice-config.xml");
const PARTICIPANT: &str = include_str!("../../../configs/floating_box_sph/fluid/participant.yaml");
const MODEL: &str = include_str!("../../../configs/floating_box_sph/fluid/sph_model.yaml");

fn case(participant: &str, model: &str) -> TempCase {
    let case = testing::temp_case(XML);
    case.write("fluid/participant.yaml", participant);
    case.write("fluid/sph_model.yaml", model);
    case
}

fn edit(text: &str, from: &str, to: &str) -> String {
    assert!(text.contains(from), "the shipped file has no `{from}`");
    text.replace(from, to)
}

fn line_of(text: &str, needle: &str) -> usize {
    text.lines().position(|l| l.contains(needle)).expect("needle in text") + 1
}

/// The error a run stops on (it never opens the coupling: no partner is running), and what
/// `--check` prints for the same files.
fn refusals(case: &TempCase) -> (String, String) {
    let file = case.path().join("fluid/participant.yaml");
    let run = match participant::run::<Sph>(&file, &case.config, Backend::Native, &mut ()) {
        Ok(_) => panic!("the broken case ran"),
        Err(e @ (ParticipantError::Files(_) | ParticipantError::Build(_))) => format!("{e:#}"),
        Err(e) => panic!("refused only when opening the coupling: {e:#}"),
    };
    let report = participant::check::<Sph>(&file, &case.config, Backend::Native);
    assert!(report.diagnostics.has_errors(), "check found nothing");
    let check = report.diagnostics.0.iter().map(|d| format!("{d}\n")).collect();
    (run, check)
}

#[test]
fn the_shipped_case_builds() {
    let c = case(PARTICIPANT, MODEL);
    let report = participant::check::<Sph>(&c.path().join("fluid/participant.yaml"), &c.config, Backend::Native);
    assert!(report.diagnostics.0.is_empty(), "{:?}", report.diagnostics);
    let (built, _) = participant::build::<Sph>(&c.path().join("fluid/participant.yaml"), &c.config).unwrap();
    let sim = built.adapter.simulation();
    // 80 × 20 cells of water, less the 20 × 3 under the box released at a 3 cm draft.
    assert_eq!(sim.fluid_count(), 1540);
    assert_eq!(sim.body_count(), 2, "the tank and the box");
}

#[test]
fn rigid_body_points_is_refused_as_not_implemented() {
    let participant = edit(PARTICIPANT, "mesh_type: RIGID_BODY_REFS", "mesh_type: RIGID_BODY_POINTS");
    let (run, check) = refusals(&case(&participant, MODEL));
    let line = line_of(&participant, "- mesh_name: FluidMesh");
    for text in [&run, &check] {
        assert!(
            text.contains(&format!("participant.yaml:{line}:"))
                && text.contains("RIGID_BODY_POINTS: not implemented by the SPH participant")
                && text.contains("use mesh_type: RIGID_BODY_REFS"),
            "{text}"
        );
    }
}

#[test]
fn model_errors_name_the_model_file_and_line() {
    let model = edit(MODEL, "spacing: 0.01", "spacing: 0");
    let (run, check) = refusals(&case(PARTICIPANT, &model));
    let line = line_of(&model, "spacing: 0");
    for text in [&run, &check] {
        assert!(text.contains(&format!("sph_model.yaml:{line}:")) && text.contains("sph.spacing"), "{text}");
    }
    let model = edit(MODEL, "type: BOX", "type: CUBE");
    let (run, _) = refusals(&case(PARTICIPANT, &model));
    assert!(run.contains(&format!("sph_model.yaml:{}:", line_of(&model, "CUBE"))) && run.contains("CUBE"), "{run}");
}

#[test]
fn bodies_must_agree_between_the_participant_and_the_model_file() {
    let participant = edit(PARTICIPANT, "- name: box", "- name: crate");
    let (run, check) = refusals(&case(&participant, MODEL));
    let at_participant = format!("participant.yaml:{}:", line_of(&participant, "- name: crate"));
    let at_model = format!("sph_model.yaml:{}:", line_of(MODEL, "- name: box"));
    for text in [&run, &check] {
        assert!(text.contains(&at_participant) && text.contains("body `crate` has no geometry"), "{text}");
        assert!(text.contains(&at_model) && text.contains("body `box` is not in precice_adapter_config"), "{text}");
    }
}

#[test]
fn a_2d_model_needs_its_depth() {
    let model = edit(MODEL, "  depth: 0.2 ", "  # depth: 0.2 ");
    let (run, _) = refusals(&case(PARTICIPANT, &model));
    assert!(run.contains(&format!("sph_model.yaml:{}:", line_of(&model, "dimension: 2"))), "{run}");
    assert!(run.contains("needs `sph.depth`"), "{run}");
}
