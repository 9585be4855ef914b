//! The `tidelink` binary on temporary cases: `check` finds cross-file problems with file
//! and line, `run` prefixes output, hides progress lines and stops everyone on a failure.

mod support;

use std::path::Path;
use std::process::Command;
use support::case::{
    assert_error_at, rm3_with, shipped_with, sphere_drop_with, text, tidelink, tidelink_err, tidelink_ok, Case,
    SPHERE_DROP_SWAPPED,
};
use support::temp_copy::edited;

/// Two participants coupled serially on one mesh, for 1 s of simulated time.
const XML: &str = include_str!("fixtures/cli-two-participants.xml");

const SOLID: &str = "\
chrono-version: 10.0
type: MBS
simulation:
  end_time: -1
  gravity: [0, 0, -9.81]
precice_adapter_config:
  participant_name: Solid
  bodies:
  - name: ball
  interfaces:
  - mesh_name: SolidMesh
    mesh_type: RIGID_BODY_REFS
    write_data:
    - name: Displacement
      type: DISPLACEMENTS
    read_data:
    - name: Force
      type: FORCES
  read_data_time: WINDOW_END
";

const FLUID: &str = "\
simulation:
  gravity: [0, 0, -9.81]
precice_adapter_config:
  participant_name: Fluid
  interfaces:
  - mesh_name: FluidMesh
    mesh_type: RIGID_BODY_REFS
    write_data:
    - name: Force
      type: FORCES
    read_data:
    - name: Displacement
      type: DISPLACEMENTS
";

const MANIFEST: &str = "\
name: ball
precice_config: precice-config.xml
participants:
  - name: Fluid
    command: [sh, -c, 'true']
    spec: fluid/participant.yaml
  - name: Solid
    command: [sh, -c, 'true']
    spec: solid/participant.yaml
";

impl Case {
    /// A case with the two-participant XML above and `files`.
    fn new(files: &[(&str, &str)]) -> Case {
        let case = Case::empty();
        case.write("precice-config.xml", XML);
        for (name, text) in files {
            case.write(name, text);
        }
        case
    }
}

/// The two participants' files above that agree with each other and with the XML.
fn good_case() -> Case {
    Case::new(&[("tidelink.yaml", MANIFEST), ("solid/participant.yaml", SOLID), ("fluid/participant.yaml", FLUID)])
}

/// [`good_case`] with its file `name` rewritten to `text`, and the output of `tidelink check`
/// on it, which must fail.
fn good_case_failing_with(name: &str, text: &str) -> (Case, String) {
    let case = good_case();
    case.write(name, text);
    let t = tidelink_err(&["check"], case.path());
    (case, t)
}

/// A case of the XML above whose manifest starts each `(name, command)`, without participant
/// files.
fn commands_case(participants: &[(&str, &str)]) -> Case {
    let mut manifest = String::from("precice_config: precice-config.xml\nparticipants:\n");
    for (name, command) in participants {
        manifest += &format!("  - name: {name}\n    command: {command}\n");
    }
    Case::new(&[("tidelink.yaml", &manifest)])
}

/// `tidelink check … | head` closes the pipe early: the listing ends there, the program does
/// not panic, and the exit code still says whether the case checks.
#[test]
fn check_into_a_closed_pipe_ends_quietly_with_its_exit_code() {
    let xml = Path::new(env!("CARGO_MANIFEST_DIR")).join("configs/tutorials/perpendicular-flap/precice-config.xml");
    let (reader, writer) = std::io::pipe().expect("a pipe");
    drop(reader);
    let o = Command::new(env!("CARGO_BIN_EXE_tidelink"))
        .arg("check")
        .arg(&xml)
        .stdout(writer)
        .stderr(std::process::Stdio::piped())
        .output()
        .expect("start tidelink");
    let err = String::from_utf8_lossy(&o.stderr);
    assert!(!err.contains("panicked"), "{err}");
    // The tutorial's RBF mapping, watch-point and exports all run on the native engine.
    assert_eq!(o.status.code(), Some(0), "the configuration checks: {err}");
}

#[test]
fn help_describes_the_subcommands() {
    let o = Command::new(env!("CARGO_BIN_EXE_tidelink")).arg("--help").output().expect("start tidelink");
    let t = text(&o);
    assert!(o.status.success(), "{t}");
    assert!(t.contains("run") && t.contains("start every participant"), "{t}");
    assert!(t.contains("check") && t.contains("without running"), "{t}");
    let o = Command::new(env!("CARGO_BIN_EXE_tidelink")).args(["help", "run"]).output().expect("start tidelink");
    assert!(text(&o).contains("SIGTERM"), "{}", text(&o));
}

#[test]
fn check_passes_on_a_good_case() {
    let case = good_case();
    let t = tidelink_ok(&["check"], case.path());
    assert!(!t.contains("error:"), "{t}");
    assert!(t.contains("no errors"), "{t}");
}

#[test]
fn check_reports_a_gravity_mismatch_naming_both_files() {
    let (case, t) = good_case_failing_with("fluid/participant.yaml", &FLUID.replace("[0, 0, -9.81]", "[0, 0, -9.8]"));
    // The second file in manifest order is compared with the first one.
    assert_error_at(&t, &case.file("solid/participant.yaml"), 5, "gravity [0, 0, -9.81]");
    assert!(t.contains(&format!("{}:2", case.file("fluid/participant.yaml").display())), "{t}");
    assert!(t.contains("[0, 0, -9.8]"), "{t}");
}

#[test]
fn check_reports_a_participant_name_mismatch() {
    let (case, t) = good_case_failing_with(
        "solid/participant.yaml",
        &SOLID.replace("participant_name: Solid", "participant_name: Solids"),
    );
    assert_error_at(&t, &case.file("solid/participant.yaml"), 7, "participant_name `Solids` does not match");
    assert!(t.contains(&format!("{}:7", case.file("tidelink.yaml").display())), "{t}");
}

#[test]
fn check_reports_a_data_name_missing_from_the_xml() {
    let (case, t) = good_case_failing_with("fluid/participant.yaml", &FLUID.replace("name: Force", "name: Forces"));
    assert_error_at(&t, &case.file("fluid/participant.yaml"), 9, "did you mean `Force`?");
}

#[test]
fn check_reports_unknown_manifest_keys() {
    let (case, t) = good_case_failing_with("tidelink.yaml", &MANIFEST.replace("    spec: solid", "    spek: solid"));
    assert_error_at(&t, &case.file("tidelink.yaml"), 9, "did you mean `spec`?");
}

/// A connection file of a dead run (Fluid listens for Solid: the XML connector publishes):
/// named by the UUID v5 of "FluidPRIMARYCOMSolid-1" as preCICE names it, its lock free.
const STALE: &str = "precice-run/Fluid-Solid/cd/ae5e7a172c57738d3c176c1946f37c";
const STALE_TEXT: &str =
    "127.0.0.1:1\nAcceptor: Fluid, Requester: Solid, Tag: PRIMARYCOM, Rank: -1\nOwner: pid=4000000 host=h lock=1 run=old\n";

/// `run` removes the connection files of dead runs from `precice-run/` and nothing else: a file
/// of the user's and a symbolically linked subfolder stay, with the link's target intact, and
/// are named.
#[test]
fn run_removes_only_stale_connection_files() {
    let case = commands_case(&[("Fluid", "[sh, -c, 'true']"), ("Solid", "[sh, -c, 'true']")]);
    case.write(STALE, STALE_TEXT);
    case.write("precice-run/notes.txt", "mine");
    let user = tempfile::tempdir().expect("a folder of the user's");
    std::fs::write(user.path().join("data.csv"), "1,2\n").expect("a file of the user's");
    std::os::unix::fs::symlink(user.path(), case.file("precice-run/Fluid-Other")).expect("a link");
    let o = tidelink(&["run"], case.path());
    let t = text(&o);
    assert!(o.status.success(), "{t}");
    assert!(!case.file(STALE).exists(), "the stale connection file goes: {t}");
    assert!(t.contains("removed stale ") && t.contains("precice-run (1 file(s))"), "{t}");
    let line = t.lines().find(|l| l.contains("that are not connection files")).unwrap_or_else(|| panic!("{t}"));
    assert!(
        line.contains("left 2 item(s) in ") && line.contains("Fluid-Other") && line.contains("notes.txt"),
        "{line}"
    );
    assert_eq!(std::fs::read_to_string(case.file("precice-run/notes.txt")).expect("kept"), "mine");
    assert!(case.file("precice-run/Fluid-Other").is_symlink(), "the link stays");
    assert_eq!(std::fs::read_to_string(user.path().join("data.csv")).expect("kept"), "1,2\n");
}

/// A `precice-run` that is a symbolic link to a folder of the user's is never cleaned, not even
/// of a connection file that looks stale: the run says it left it alone.
#[test]
fn run_leaves_a_linked_precice_run_alone() {
    let case = commands_case(&[("Fluid", "[sh, -c, 'true']"), ("Solid", "[sh, -c, 'true']")]);
    let user = tempfile::tempdir().expect("a folder of the user's");
    std::fs::write(user.path().join("data.csv"), "1,2\n").expect("a file of the user's");
    let inside = user.path().join(STALE.strip_prefix("precice-run/").expect("under precice-run"));
    std::fs::create_dir_all(inside.parent().expect("parent")).expect("folders");
    std::fs::write(&inside, STALE_TEXT).expect("a stale-looking file");
    std::os::unix::fs::symlink(user.path(), case.file("precice-run")).expect("a link");
    let o = tidelink(&["run"], case.path());
    let t = text(&o);
    assert!(o.status.success(), "{t}");
    assert!(t.contains("precice-run alone: it is a symbolic link (to "), "{t}");
    assert!(!t.contains("removed stale"), "{t}");
    assert!(case.file("precice-run").is_symlink());
    assert_eq!(std::fs::read_to_string(user.path().join("data.csv")).expect("kept"), "1,2\n");
    assert_eq!(std::fs::read_to_string(&inside).expect("kept"), STALE_TEXT);
}

/// A `precice-run` that is a file is the user's too: the run refuses before starting anything
/// (the participants could not put their connection files there) and leaves the file alone.
#[test]
fn run_leaves_a_precice_run_file_alone() {
    let case = commands_case(&[("Fluid", "[sh, -c, 'true']"), ("Solid", "[sh, -c, 'true']")]);
    case.write("precice-run", "mine");
    let o = tidelink(&["run"], case.path());
    let t = text(&o);
    assert!(!o.status.success(), "{t}");
    assert!(t.contains("precice-run is a file, where the participants put their connection files"), "{t}");
    assert!(t.contains("nothing was started"), "{t}");
    assert_eq!(std::fs::read_to_string(case.file("precice-run")).expect("kept"), "mine");
}

#[test]
fn run_prefixes_output_and_hides_progress_lines() {
    let case = commands_case(&[
        ("Fluid", r#"[sh, -c, "echo hello; echo '@progress 0.5'; echo oops >&2"]"#),
        ("Solid", r#"[sh, -c, "echo '@progress 0.5'; echo done"]"#),
    ]);
    // Empty folders of the connection-file layout, as a crashed run leaves them.
    std::fs::create_dir_all(case.file("precice-run/Fluid-Solid/cd")).expect("stale rendezvous folder");
    let o = tidelink(&["run"], case.path());
    let t = text(&o);
    assert!(o.status.success(), "{t}");
    let stdout = String::from_utf8_lossy(&o.stdout);
    assert!(stdout.lines().any(|l| l == "[Fluid] hello"), "{t}");
    assert!(stdout.lines().any(|l| l == "[Solid] done"), "{t}");
    assert!(String::from_utf8_lossy(&o.stderr).lines().any(|l| l == "[Fluid] oops"), "{t}");
    assert!(!t.contains("@progress"), "{t}");
    assert!(t.contains("t = 0.500 / 1.000 s (50%)"), "{t}");
    assert!(!case.file("precice-run").exists(), "stale precice-run must be removed");
}

#[test]
fn run_stops_the_others_when_one_fails() {
    let case = commands_case(&[
        ("Fluid", "[sh, -c, 'sleep 30; echo finished']"),
        ("Solid", "[sh, -c, 'echo starting; echo broken >&2; sleep 0.3; exit 3']"),
    ]);
    let t = tidelink_err(&["run"], case.path());
    // Fluid was stopped, not waited for: it never got to the end of its 30 s (no clock needed).
    assert!(!t.contains("[Fluid] finished"), "Fluid ran to its end instead of being stopped:\n{t}");
    assert!(t.contains("participant `Solid` exited with status 3"), "{t}");
    assert!(t.contains("stopped: Fluid"), "{t}");
    assert!(t.contains("  [Solid] broken"), "last lines must be shown:\n{t}");
}

#[test]
fn run_does_not_start_a_case_that_fails_check() {
    let case = commands_case(&[("Fluidd", "[sh, -c, 'echo started']"), ("Solid", "[sh, -c, 'echo started']")]);
    let t = tidelink_err(&["run"], case.path());
    assert!(!t.contains("] started"), "{t}");
    assert_error_at(&t, &case.file("tidelink.yaml"), 3, "did you mean `Fluid`?");
}

#[test]
fn run_passes_spec_and_xml_relative_to_the_working_directory() {
    // The good case, its Solid started in its own folder and saying how it was started.
    let solid = "    command: [sh, -c, 'true']\n    spec: solid/participant.yaml\n";
    let started = concat!(
        "    command: [sh, -c, 'echo \"args: $*\"; pwd', sh]\n",
        "    spec: solid/participant.yaml\n",
        "    working_directory: solid\n",
    );
    let case = good_case();
    case.write("tidelink.yaml", &edited("the manifest", MANIFEST, &[(solid, started)]));
    let t = tidelink_ok(&["run"], case.path());
    assert!(t.contains("[Solid] args: participant.yaml --precice-config ../precice-config.xml"), "{t}");
    let wd = case.file("solid").canonicalize().expect("solid folder");
    assert!(t.contains(&format!("[Solid] {}", wd.display())), "{t}");
}

#[test]
fn check_runs_each_participants_own_check_on_its_model_and_solver_files() {
    let case = sphere_drop_with(&[]);
    let o = tidelink(&["check"], case.path());
    assert!(o.status.success(), "the shipped case passes:\n{}", text(&o));

    // A negative mass (model file) and an unknown integrator (solver file): only the MBS
    // participant reads these files, so only its own check can find them.
    let case = sphere_drop_with(&[
        ("solid/model.yaml", "mass: 3.62", "mass: -3.62"),
        ("fluid/buoyancy_model.yaml", "radius: 0.12", "radius: -0.12"),
    ]);
    let t = tidelink_err(&["check"], case.path());
    assert_error_at(&t, &case.file("solid/model.yaml"), 10, "mass");
    assert!(
        t.lines().any(|l| l.starts_with(&format!("{}:", case.file("fluid/buoyancy_model.yaml").display()))
            && l.contains("error")
            && l.contains("radius")),
        "the buoyancy model's error with its file:\n{t}"
    );
}

#[test]
fn a_participant_program_that_cannot_check_is_an_error_naming_it() {
    // A `tidelink-*` program that exits without answering (here: one that is not Tidelink's).
    let case = sphere_drop_with(&[("tidelink.yaml", "command: tidelink-buoyancy", "command: ./tidelink-broken")]);
    case.write(
        "tidelink-broken",
        "#!/bin/sh\necho 'error while loading shared libraries: libprecice.so.3' >&2\nexit 127\n",
    );
    use std::os::unix::fs::PermissionsExt;
    std::fs::set_permissions(case.file("tidelink-broken"), std::fs::Permissions::from_mode(0o755)).expect("chmod");
    let t = tidelink_err(&["check"], case.path());
    assert!(
        t.contains("the check of participant `Fluid` (tidelink-broken --check) failed: exited with status 127")
            && t.contains("libprecice"),
        "{t}"
    );
}

#[test]
#[cfg_attr(not(tidelink_shared), ignore = "needs ../shared/data/rm3/rm3.h5 (reference data beside the repository)")]
fn check_reports_a_body_to_body_mismatch_between_the_solid_and_the_tdpf_model() {
    // The shipped solid keeps own blocks only.
    let copy = |solid_b2b: &str| rm3_with(&[("solid/participant.yaml", "body_to_body: false", solid_b2b)]);
    let same = copy("body_to_body: false");
    let o = tidelink(&["check"], same.path());
    assert!(o.status.success(), "the shipped settings agree:\n{}", text(&o));

    let differ = copy("body_to_body: true");
    let t = tidelink_err(&["check"], differ.path());
    let line = t
        .lines()
        .find(|l| l.contains("error: body_to_body is"))
        .unwrap_or_else(|| panic!("no body_to_body error:\n{t}"));
    assert!(
        line.contains("participant `Solid`")
            && line.contains("`Fluid`")
            && line.contains("set the same value in both files"),
        "{line}"
    );
    assert!(
        line.starts_with(&format!("{}:", differ.file("solid/participant.yaml").display())),
        "at the Solid's key: {line}"
    );
}

#[test]
#[cfg_attr(not(tidelink_shared), ignore = "needs ../shared/data/rm3/rm3.h5 (reference data beside the repository)")]
fn check_refuses_bodies_that_differ_between_participants_and_passes_the_shipped_rm3_without_warnings() {
    let shipped_bodies =
        "    - name: float\n      location: [0, 0, -0.72]\n    - name: spar\n      location: [0, 0, -21.29]\n";
    // The shipped fluid lists float then spar.
    let copy = |fluid_bodies: &str| rm3_with(&[("fluid/participant.yaml", shipped_bodies, fluid_bodies)]);
    // The shipped case: no error and no warning, so that a warning means something.
    let o = tidelink(&["check"], copy(shipped_bodies).path());
    let t = text(&o);
    assert!(o.status.success() && t.contains("no errors (0 warning(s))") && !t.contains("warning:"), "{t}");

    // The spar missing on the Fluid's side: the Solid's spar would get no hydrodynamic load.
    let missing = copy("    - name: float\n      location: [0, 0, -0.72]\n");
    let t = tidelink_err(&["check"], missing.path());
    let line = t.lines().find(|l| l.contains("must be the same list")).unwrap_or_else(|| panic!("{t}"));
    for f in ["`Fluid` [float]", "`Solid` [float, spar]", "1 bodies here, 2 in `Solid`", "SolidMesh"] {
        assert!(line.contains(f), "{f:?} in {line}");
    }
    assert!(line.starts_with(&format!("{}:", missing.file("fluid/participant.yaml").display())), "{line}");

    // The same bodies in another order: the rule between participants, and the file's order.
    let swapped =
        copy("    - name: spar\n      location: [0, 0, -21.29]\n    - name: float\n      location: [0, 0, -0.72]\n");
    let t = tidelink_err(&["check"], swapped.path());
    assert!(t.contains("body 0 is `spar` here and `float` in `Solid`"), "{t}");
    assert!(t.contains("\"spar\" (index 0) is /body2 of the file"), "{t}");
}

#[test]
fn check_names_a_participant_file_started_with_the_wrong_program() {
    // The manifest's commands swapped between the two participants.
    let case = sphere_drop_with(SPHERE_DROP_SWAPPED);
    let t = tidelink_err(&["check"], case.path());
    assert_error_at(
        &t,
        &case.file("fluid/participant.yaml"),
        2,
        "this is a `type: BUOYANCY` participant file, but `tidelink-mbs` reads `type: MBS` files",
    );
    assert_error_at(&t, &case.file("solid/participant.yaml"), 2, "participant `Solid` with the program for MBS");
}

/// The shipped sphere_drop with the Fluid mapping read data by RBF on a GPU executor (which
/// the native engine refuses: it maps on the CPU), and a watch-point on the Solid's mesh
/// (which the native engine writes).
fn sphere_drop_with_rbf() -> Case {
    sphere_drop_with(&[
        (
            "precice-config.xml",
            r#"    <mapping:nearest-neighbor direction="read" from="SolidMesh" to="FluidMesh" constraint="consistent" />"#,
            r#"    <mapping:rbf direction="read" from="SolidMesh" to="FluidMesh" constraint="consistent"><basis-function:thin-plate-splines /><executor:cuda /></mapping:rbf>"#,
        ),
        (
            "precice-config.xml",
            r#"    <read-data name="torques" mesh="SolidMesh" />"#,
            r#"    <read-data name="torques" mesh="SolidMesh" /><watch-point name="Ball" mesh="SolidMesh" coordinate="0;0;0" />"#,
        ),
    ])
}

#[test]
fn check_refuses_what_the_native_engine_refuses_once_with_its_line() {
    let case = sphere_drop_with_rbf();
    let t = tidelink_err(&["check"], case.path());
    let xml = case.file("precice-config.xml");
    assert_error_at(&t, &xml, 38, "<executor:cuda> is not available in the native engine");
    // Found by `tidelink check` and by the participants' own checks: reported once. The
    // watch-point (line 32) is written by the native engine: nothing to say about it.
    assert_eq!(t.matches("<executor:cuda> is not available").count(), 1, "{t}");
    assert!(!t.contains("watch-point"), "{t}");
    assert!(t.contains("1 error(s), 0 warning(s)"), "{t}");

    // The Fluid on the real library (only its mapping is refused): no error left.
    let precice = sphere_drop_with_rbf();
    let manifest = std::fs::read_to_string(precice.file("tidelink.yaml")).expect("manifest");
    let manifest = manifest.replace("command: tidelink-buoyancy", "command: tidelink-buoyancy\n    backend: precice");
    precice.write("tidelink.yaml", &manifest);
    let t = text(&tidelink(&["check"], precice.path()));
    assert!(!t.contains("<executor:cuda> is not available"), "{t}");
}

#[test]
fn an_external_participant_is_not_checked_against_the_native_engine() {
    let case = sphere_drop_with_rbf();
    let manifest = std::fs::read_to_string(case.file("tidelink.yaml")).expect("manifest");
    let manifest = manifest.replace("    command: tidelink-buoyancy\n", "    external: true\n");
    assert!(manifest.contains("external: true"), "{manifest}");
    case.write("tidelink.yaml", &manifest.replace("    spec: fluid/participant.yaml\n", ""));
    let t = text(&tidelink(&["check"], case.path()));
    assert!(!t.contains("<executor:cuda> is not available"), "the external Fluid links preCICE itself:\n{t}");
    assert!(t.contains("no errors (0 warning(s))"), "the Solid runs natively and writes its watch-point:\n{t}");
}

#[test]
fn check_takes_a_precice_configuration_alone() {
    let case = Case::new(&[]);
    let xml = case.file("precice-config.xml");
    let t = tidelink_ok(&["check"], &xml);
    assert_eq!(t.trim_end(), format!("configuration `{}`: no errors (0 warning(s))", xml.display()));

    // Broken: preCICE's rules with file and line, not a YAML error.
    case.write("broken.xml", &XML.replace(r#"<max-time value="1.0" />"#, ""));
    let broken = case.file("broken.xml");
    let t = text(&tidelink(&["check"], &broken));
    assert_error_at(&t, &broken, 27, "At least one termination condition is required");
    assert!(!t.contains("YAML"), "{t}");

    // Recognised by its text too, whatever its name.
    // (A mapping the native engine refuses: radial basis functions on a GPU.)
    let gpu = |tag: &str| {
        tag.replace("<mapping:nearest-neighbor", "<mapping:rbf-global-direct")
            .replace(" />", "><basis-function:thin-plate-splines /><executor:cuda /></mapping:rbf-global-direct>")
    };
    let lines: Vec<String> =
        XML.lines().map(|l| if l.contains("<mapping:nearest-neighbor") { gpu(l) } else { l.to_string() }).collect();
    case.write("coupling.cfg", &(lines.join("\n") + "\n"));
    let cfg = case.file("coupling.cfg");
    let t = tidelink_err(&["check"], &cfg);
    assert_error_at(&t, &cfg, 21, "<executor:cuda> is not available in the native engine");
    assert_error_at(&t, &cfg, 22, "<executor:cuda> is not available in the native engine");
    assert!(t.contains("2 error(s), 0 warning(s)"), "{t}");
    let o = tidelink(&["check", "--backend", "precice"], &cfg);
    assert!(o.status.success(), "{}", text(&o));

    // Nearest-neighbor-gradient runs on the native engine (both backends accept it); the
    // conservative form is refused by preCICE's rules, with its words, on both.
    let nng = XML.replace(
        r#"<mapping:nearest-neighbor direction="read""#,
        r#"<mapping:nearest-neighbor-gradient direction="read""#,
    );
    assert!(nng.contains("nearest-neighbor-gradient"));
    case.write("nng.xml", &nng);
    let t = tidelink_ok(&["check"], &case.file("nng.xml"));
    assert!(t.contains("no errors (0 warning(s))"), "{t}");
    case.write(
        "nng-conservative.xml",
        &nng.replace(
            r#"<mapping:nearest-neighbor direction="write""#,
            r#"<mapping:nearest-neighbor-gradient direction="write""#,
        ),
    );
    let conservative = case.file("nng-conservative.xml");
    for backend in ["native", "precice"] {
        let t = tidelink_err(&["check", "--backend", backend], &conservative);
        assert_error_at(
            &t,
            &conservative,
            21,
            "Nearest-neighbor-gradient mapping is not implemented using a \"conservative\" constraint.",
        );
    }

    // --backend is for a file alone; `run` needs a case.
    let t = text(&tidelink(&["check", "--backend", "native"], case.path()));
    assert!(t.contains("--backend applies to a preCICE configuration checked alone"), "{t}");
    let t = tidelink_err(&["run"], &xml);
    assert!(t.contains("is a preCICE configuration, not a case"), "{t}");
}

/// The files of the shipped configs/floating_box_sph case.
const FLOATING_BOX_SPH_FILES: &[&str] = &[
    "tidelink.yaml",
    "precice-config.xml",
    "fluid/participant.yaml",
    "fluid/sph_model.yaml",
    "solid/participant.yaml",
    "solid/model.yaml",
    "solid/solver.yaml",
];

#[test]
fn check_passes_the_shipped_sph_cases_without_warnings_and_refuses_rigid_body_points() {
    support::participant_programs(&[("tidelink-mbs", "tidelink-mbs"), ("tidelink-sph", "tidelink-sph")]);
    for name in ["floating_box_sph", "sphere_drop_sph"] {
        let dir = Path::new(env!("CARGO_MANIFEST_DIR")).join("configs").join(name);
        let o = tidelink(&["check"], &dir);
        let t = text(&o);
        assert!(o.status.success() && t.contains("no errors (0 warning(s))") && !t.contains("warning:"), "{name}: {t}");
    }
    // The per-marker exchange is not implemented: `check` says so at the mesh's line, through the
    // participant's own check (the same build a run stops on before connecting).
    let case = shipped_with(
        "floating_box_sph",
        FLOATING_BOX_SPH_FILES,
        &[("fluid/participant.yaml", "mesh_type: RIGID_BODY_REFS", "mesh_type: RIGID_BODY_POINTS")],
    );
    let t = tidelink_err(&["check"], case.path());
    let fluid = std::fs::read_to_string(case.file("fluid/participant.yaml")).expect("the edited file");
    let line = fluid.lines().position(|l| l.contains("- mesh_name: FluidMesh")).expect("the interface") + 1;
    assert_error_at(&t, &case.file("fluid/participant.yaml"), line, "RIGID_BODY_POINTS: not implemented");
}
