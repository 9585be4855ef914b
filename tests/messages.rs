//! What a user reads, said once and plainly: warnings printed once per run, no progress lines
//! on the terminal of a participant started by hand, no `error: …: error:` prefixes, no `././`
//! in paths, no empty `precice-run/` left behind, each network interface named once.
//! (The messages of broken files are in tests/check_vs_run.rs, where check and run must agree.)

mod support;

use std::path::Path;
use std::process::{Command, Output};
use support::case::{sphere_drop_with, text, Case};

/// The shipped sphere_drop, 20 windows long, with sub-steps of the Solid's positions exchanged
/// to the Fluid (a warning: the first participant of a serial-explicit scheme never reads them)
/// and `more` edits.
fn short_sphere_drop(more: &[(&str, &str, &str)]) -> Case {
    let mut edits =
        vec![("precice-config.xml", r#"<max-time-windows value="1000" />"#, r#"<max-time-windows value="20" />"#)];
    edits.extend_from_slice(more);
    warned_sphere_drop(&edits)
}

/// The shipped sphere_drop (1000 windows, 1 s) with the warned-about sub-steps and `more` edits.
fn warned_sphere_drop(more: &[(&str, &str, &str)]) -> Case {
    let mut edits = vec![(
        "precice-config.xml",
        r#"<exchange data="positions" mesh="SolidMesh" from="Solid" to="Fluid" initialize="yes" />"#,
        r#"<exchange data="positions" mesh="SolidMesh" from="Solid" to="Fluid" initialize="yes" substeps="true" />"#,
    )];
    edits.extend_from_slice(more);
    sphere_drop_with(&edits)
}

const WARNING: &str = "Sub-steps of \"positions\" from the second to the first participant";

/// `tidelink <args>` run in folder `dir`.
fn tidelink_in(dir: &Path, args: &[&str]) -> Output {
    Command::new(env!("CARGO_BIN_EXE_tidelink")).args(args).current_dir(dir).output().expect("start tidelink")
}

/// Participant `program` with file `spec` started by hand from the case folder, as `tidelink
/// run` would start it but without it.
fn start(case: &Case, program: &str, spec: &str) -> std::process::Child {
    start_with(case, program, spec, &[])
}

/// [`start`] with `env` added to the participant's environment.
fn start_with(case: &Case, program: &str, spec: &str, env: &[(&str, &str)]) -> std::process::Child {
    let bin =
        support::participant_programs(&[("tidelink-mbs", "tidelink-mbs"), ("tidelink-buoyancy", "tidelink-buoyancy")]);
    Command::new(bin.join(program))
        .args([spec, "--precice-config", "precice-config.xml"])
        .envs(env.iter().copied())
        .current_dir(case.path())
        .stdout(std::process::Stdio::piped())
        .stderr(std::process::Stdio::piped())
        .spawn()
        .expect("start a participant")
}

/// Both participants started by hand; their outputs, Fluid then Solid.
fn by_hand(case: &Case) -> (Output, Output) {
    let fluid = start(case, "tidelink-buoyancy", "fluid/participant.yaml");
    let solid = start(case, "tidelink-mbs", "solid/participant.yaml");
    (fluid.wait_with_output().expect("Fluid ends"), solid.wait_with_output().expect("Solid ends"))
}

#[test]
fn a_run_prints_each_warning_once_and_leaves_no_empty_precice_run() {
    let case = short_sphere_drop(&[]);
    support::participant_programs(&[("tidelink-mbs", "tidelink-mbs"), ("tidelink-buoyancy", "tidelink-buoyancy")]);
    let o = tidelink_in(case.path(), &["run", "."]);
    let t = text(&o);
    assert!(o.status.success(), "{t}");
    // The launcher's check prints it; the participants it started do not repeat it.
    assert_eq!(t.matches(WARNING).count(), 1, "{t}");
    assert!(!case.file("precice-run").exists(), "an empty precice-run/ is left after the run:\n{t}");
    // The progress lines go to the launcher, never to the user.
    assert!(!t.contains("@progress"), "{t}");
}

#[test]
fn a_participant_started_by_hand_prints_its_warnings_once_and_no_progress_lines() {
    let case = short_sphere_drop(&[]);
    let (fluid, solid) = by_hand(&case);
    let (f, s) = (text(&fluid), text(&solid));
    assert!(fluid.status.success() && solid.status.success(), "{f}\n{s}");
    // The Solid reads the XML and its engine reads it again: still one line.
    assert_eq!(s.matches(WARNING).count(), 1, "{s}");
    assert!(!String::from_utf8_lossy(&fluid.stdout).contains("@progress"), "{f}");
    assert!(!String::from_utf8_lossy(&solid.stdout).contains("@progress"), "{s}");
}

/// What `tidelink run` sets for the participants it starts: then (and only then) the first
/// window's progress line is printed, and the warnings are left to the launcher.
#[test]
fn a_participant_started_as_the_launcher_does_prints_progress_lines_and_no_warnings() {
    let case = short_sphere_drop(&[]);
    let launched = [("TIDELINK_LAUNCHED", "1")];
    let fluid = start_with(&case, "tidelink-buoyancy", "fluid/participant.yaml", &launched);
    let solid = start_with(&case, "tidelink-mbs", "solid/participant.yaml", &launched);
    let (fluid, solid) = (fluid.wait_with_output().expect("Fluid ends"), solid.wait_with_output().expect("Solid ends"));
    let s = text(&solid);
    assert!(fluid.status.success() && solid.status.success(), "{}\n{s}", text(&fluid));
    assert!(String::from_utf8_lossy(&solid.stdout).lines().any(|l| l == "@progress 0.001"), "{s}");
    assert!(!s.contains(WARNING), "{s}");
}

#[test]
fn a_refused_participant_says_error_once_per_line() {
    let case = short_sphere_drop(&[("solid/model.yaml", "mass: 3.62", "mass: -3.62")]);
    let solid = start(&case, "tidelink-mbs", "solid/participant.yaml").wait_with_output().expect("Solid ends");
    let s = String::from_utf8_lossy(&solid.stderr);
    assert!(!solid.status.success(), "{s}");
    assert!(
        s.lines().any(|l| l.starts_with("solid/model.yaml:10: error: body `ball`: the mass must be positive")),
        "{s}"
    );
    assert!(s.lines().all(|l| l.matches("error:").count() <= 1), "a repeated `error:` prefix:\n{s}");
}

#[test]
fn paths_of_a_case_given_as_dot_have_no_dot_segments() {
    let case = short_sphere_drop(&[]);
    std::fs::create_dir_all(case.file("precice-run/Solid-Fluid/b4")).expect("a stale rendezvous folder");
    // The check names the XML (with its warning); the run cleans the stale folder.
    let t = text(&tidelink_in(case.path(), &["check", "."]));
    assert!(t.contains("precice-config.xml:54: warning: Sub-steps of \"positions\""), "{t}");
    assert!(!t.contains("./"), "{t}");
    let o = tidelink_in(case.path(), &["run", "./"]);
    let t = text(&o);
    assert!(o.status.success(), "{t}");
    assert!(t.contains("removed stale precice-run"), "{t}");
    assert!(!t.contains("./"), "{t}");
}

#[test]
fn an_unknown_network_interface_lists_each_interface_once() {
    let sockets = r#"<m2n:sockets acceptor="Fluid" connector="Solid" exchange-directory="." />"#;
    let case = short_sphere_drop(&[(
        "precice-config.xml",
        sockets,
        r#"<m2n:sockets acceptor="Fluid" connector="Solid" exchange-directory="." network="no-such-if0" />"#,
    )]);
    let t = text(&tidelink_in(case.path(), &["check", "."]));
    let line = t.lines().find(|l| l.contains("Available interfaces are: ")).unwrap_or_else(|| panic!("{t}"));
    let list = line.split("Available interfaces are: ").nth(1).and_then(|r| r.split(" (").next()).expect("a list");
    let names: Vec<&str> = list.split(", ").collect();
    assert!(names.contains(&"lo"), "{line}");
    let mut unique = names.clone();
    unique.sort();
    unique.dedup();
    assert_eq!(unique.len(), names.len(), "an interface named twice: {line}");
}

#[test]
fn an_exchange_directory_that_is_a_file_is_named_as_such_by_check_and_by_the_engine() {
    let sockets = r#"<m2n:sockets acceptor="Fluid" connector="Solid" exchange-directory="." />"#;
    let case = short_sphere_drop(&[(
        "precice-config.xml",
        sockets,
        r#"<m2n:sockets acceptor="Fluid" connector="Solid" exchange-directory="xdir" />"#,
    )]);
    std::fs::write(case.file("xdir"), "a file").expect("a file where the folder belongs");
    let t = text(&tidelink_in(case.path(), &["check", "."]));
    assert!(t.contains("precice-config.xml:47: error: exchange-directory \"xdir\""), "{t}");
    assert!(t.contains("is a file, not a folder"), "{t}");
    // The listener (the Solid here) started by hand publishes its address there: the engine says the same.
    let solid = start_with(&case, "tidelink-mbs", "solid/participant.yaml", &[("TIDELINK_HANDSHAKE_TIMEOUT", "1")]);
    let out = solid.wait_with_output().expect("Solid ends");
    let f = text(&out);
    assert!(!out.status.success(), "{f}");
    assert!(f.contains("set exchange-directory to a folder") && !f.contains("File exists"), "{f}");
}
