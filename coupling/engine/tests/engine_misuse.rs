//! API misuse (docs/design/coupling-semantics.md §2.12, scenario A26 a, d, e) for explicit schemes. Every
//! error must leave the participant usable: the coupled runs go on after each one.

mod common;

use common::*;
use std::path::Path;

fn two_windows_case() -> TempCase {
    pair_case(Scheme::serial("A", "B").window(1).windows(2))
}

/// A26 e and coupling-semantics.md §2.3: construction errors.
#[test]
fn construction_errors() {
    let case = two_windows_case();
    fails(NativeParticipant::new("", &case.config), ErrorKind::Config, &["name is an empty string"]);
    fails(
        NativeParticipant::new("C", &case.config),
        ErrorKind::Config,
        &["is not defined in the preCICE configuration"],
    );
    fails(
        NativeParticipant::new("A", &case.path().join("missing.xml")),
        ErrorKind::Config,
        &["unable to open configuration file"],
    );
}

/// A26 d and the name rows of coupling-semantics.md §2.12.
#[test]
fn unknown_names_get_hints() {
    let case = two_windows_case();
    let a = NativeParticipant::new("A", &case.config).unwrap();
    let b = NativeParticipant::new("B", &case.config).unwrap();
    fails(
        b.get_mesh_dimensions("A-Mosh"),
        ErrorKind::Misuse,
        &["is unknown to preCICE", r#"Did you mean mesh "A-Mesh""#],
    );
    fails(
        a.get_mesh_dimensions("Nothing"),
        ErrorKind::Misuse,
        &["is unknown to preCICE", "This participant only knows mesh"],
    );
    fails(
        b.get_data_dimensions("B-Mesh", "DataTwi"),
        ErrorKind::Misuse,
        &["is unknown to preCICE mesh", r#"Did you mean data "DataTwo""#],
    );
    assert_eq!(b.get_mesh_dimensions("A-Mesh").unwrap(), 2);
    assert_eq!(b.get_data_dimensions("B-Mesh", "DataTwo").unwrap(), 1);
}

/// coupling-semantics.md §2.12 rows that apply before initialize().
#[test]
fn calls_before_initialize() {
    let case = two_windows_case();
    let mut b = NativeParticipant::new("B", &case.config).unwrap();
    let mut ids = [0; 1];
    fails(b.set_mesh_vertices("A-Mesh", &[0.0, 0.0], &mut ids), ErrorKind::Misuse, &["does not provide Mesh"]);
    fails(
        b.set_mesh_vertices("B-Mesh", &[0.0, 0.0, 0.0], &mut ids),
        ErrorKind::Misuse,
        &["vertex indices and", "position components"],
    );
    fails(b.get_mesh_vertex_size("A-Mesh"), ErrorKind::Misuse, &["initialize() has to be called before"]);
    let mut two = [0; 2];
    b.set_mesh_vertices("B-Mesh", &[0.0, 0.0, 1.0, 0.0], &mut two).unwrap();
    assert_eq!(two, [0, 1], "vertex ids are consecutive from 0");
    assert_eq!(b.get_mesh_vertex_size("B-Mesh").unwrap(), 2);
    let mut v = [0.0];
    fails(
        b.read_data("B-Mesh", "DataOne", &[0], 0.0, &mut v),
        ErrorKind::Misuse,
        &["cannot be called before initialize()"],
    );
    fails(
        b.write_data("B-Mesh", "DataOne", &[0], &[1.0]),
        ErrorKind::Misuse,
        &["does not use data", "attempted to write"],
    );
    fails(b.write_data("B-Mesh", "DataTwo", &[0, 1], &[1.0]), ErrorKind::Misuse, &["Input sizes are inconsistent"]);
    b.write_data("B-Mesh", "DataTwo", &[], &[]).expect("empty write is a no-op");
    fails(b.advance(1.0), ErrorKind::Misuse, &["initialize() has to be called before advance()"]);
    fails(b.get_max_time_step_size(), ErrorKind::Misuse, &["initialize() has to be called before"]);
    fails(b.is_coupling_ongoing(), ErrorKind::Misuse, &["initialize() has to be called before"]);
    fails(b.is_time_window_complete(), ErrorKind::Misuse, &["initialize() has to be called before"]);
    fails(b.requires_writing_checkpoint(), ErrorKind::Misuse, &["initialize() has to be called before"]);
    b.finalize().expect("finalize is allowed before initialize");
    fails(b.finalize(), ErrorKind::Misuse, &["may only be called once"]);
    fails(b.initialize(), ErrorKind::Misuse, &["cannot be called after finalize()"]);
}

/// A26 a for an explicit scheme: initialized data require requiresInitialData().
#[test]
fn initialize_without_querying_initial_data() {
    let case = Xml::new(2)
        .scheme(Scheme::parallel("A", "B").window(1).windows(1).ex_with("DataOne", "A", "B", r#"initialize="true""#))
        .case();
    let mut a = open(&case.config, "A");
    fails(a.initialize(), ErrorKind::Misuse, &["requiresInitialData()"]);
}

fn misuse_during_run(config: &Path) {
    let mut a = open(config, "A");
    assert!(!a.requires_initial_data().unwrap());
    a.initialize().unwrap();
    let mut ids = [0; 1];
    fails(a.set_mesh_vertices("A-Mesh", &[1.0, 1.0], &mut ids), ErrorKind::Misuse, &["while locked"]);
    fails(a.initialize(), ErrorKind::Misuse, &["may only be called once"]);
    fails(a.requires_initial_data(), ErrorKind::Misuse, &["has to be called before initialize()"]);
    assert!(!a.requires_writing_checkpoint().unwrap(), "explicit schemes need no checkpoints");
    assert!(!a.requires_reading_checkpoint().unwrap());
    let mut v = [0.0];
    fails(a.read_data("A-Mesh", "DataTwo", &[0], 1.5, &mut v), ErrorKind::Misuse, &["outside of current time window"]);
    fails(a.read_data("A-Mesh", "DataTwo", &[0], -0.5, &mut v), ErrorKind::Misuse, &["before the current time"]);
    fails(
        a.read_data("A-Mesh", "DataOne", &[0], 0.0, &mut v),
        ErrorKind::Misuse,
        &["does not use data", "attempted to read"],
    );
    fails(a.read_data("A-Mesh", "DataTwo", &[3], 0.0, &mut v), ErrorKind::Misuse, &["invalid Vertex ID"]);
    fails(a.write_data("A-Mesh", "DataOne", &[-1], &[1.0]), ErrorKind::Misuse, &["invalid Vertex ID"]);
    fails(a.advance(0.0), ErrorKind::Misuse, &["time step size of 0"]);
    fails(a.advance(-0.5), ErrorKind::Misuse, &["negative time step size"]);
    fails(a.advance(1.5), ErrorKind::Misuse, &["exceeds the maximum allowed time step size"]);
    write(&mut a, "DataOne", 1.0);
    a.advance(1.0).unwrap();
    // A non-finite value names participant, mesh, data, vertex and window.
    let msg = fails(
        a.write_data("A-Mesh", "DataOne", &[0], &[f64::NAN]),
        ErrorKind::Misuse,
        &["\"A\"", "\"A-Mesh\"", "\"DataOne\"", "vertex 0", "window 2"],
    );
    assert!(msg.contains("NaN"), "{msg}");
    fails(a.write_data("A-Mesh", "DataOne", &[0], &[f64::INFINITY]), ErrorKind::Misuse, &["non-finite", "window 2"]);
    write(&mut a, "DataOne", 2.0);
    a.advance(1.0).unwrap();
    assert!(!a.is_coupling_ongoing().unwrap());
    fails(
        a.write_data("A-Mesh", "DataOne", &[0], &[3.0]),
        ErrorKind::Misuse,
        &["forbidden if coupling is not ongoing"],
    );
    fails(a.advance(1.0), ErrorKind::Misuse, &["isCouplingOngoing() returns false"]);
    fails(
        a.read_data("A-Mesh", "DataTwo", &[0], 0.5, &mut v),
        ErrorKind::Misuse,
        &["only data for relativeReadTime = 0 is available"],
    );
    close("A's last read", read(&mut a, "DataTwo", 0.0), 20.0);
    a.finalize().unwrap();
    fails(a.finalize(), ErrorKind::Misuse, &["may only be called once"]);
    fails(
        a.read_data("A-Mesh", "DataTwo", &[0], 0.0, &mut v),
        ErrorKind::Misuse,
        &["cannot be called after finalize()"],
    );
    fails(a.advance(1.0), ErrorKind::Misuse, &["advance() cannot be called after finalize()"]);
    fails(a.get_max_time_step_size(), ErrorKind::Misuse, &["cannot be called after finalize()"]);
}

/// coupling-semantics.md §2.12 rows that need a running coupling; B runs a plain loop and must not notice.
#[test]
fn misuse_during_a_coupled_run_leaves_the_run_intact() {
    let case = two_windows_case();
    let (ca, cb) = (cfg(&case), cfg(&case));
    let (_, reads) = run2(
        move || {
            misuse_during_run(&ca);
            vec![]
        },
        move || {
            let mut b = open(&cb, "B");
            b.initialize().unwrap();
            drive(&mut b, 1.0, 1.0, "DataOne", "DataTwo", |t| 10.0 * t).iter().map(|s| s.read).collect::<Vec<_>>()
        },
    );
    assert_eq!(reads, vec![1.0, 2.0], "B reads A's window-end values");
}

/// coupling-semantics.md §2.9 check 8: a read datum no exchange or mapping feeds has no samples.
/// preCICE says so at the first read, after connecting; the configuration shows it, so the
/// engine (and `tidelink check`) refuses it before the run, at the `<read-data>`.
#[test]
fn reading_unfed_data_is_refused_before_the_run() {
    let case = Xml::new(2)
        .scheme(Scheme::parallel("A", "B").window(1).windows(1).ex("DataOne", "A", "B"))
        .unfed_read("B", "DataX")
        .case();
    let msg = fails(
        tidelink_coupling::native::NativeParticipant::new("B", &cfg(&case)),
        ErrorKind::Config,
        &["participant \"B\" reads data \"DataX\" on mesh \"B-Mesh\", but no <exchange> sends \"DataX\" to it"],
    );
    assert!(msg.contains("precice-config.xml:"), "at its line: {msg}");
}
