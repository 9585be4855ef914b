//! `tidelink check` and a participant's start agree: for each broken input below, `check`
//! exits non-zero, and the participant started by hand (as `tidelink run` starts it, from the
//! case folder) refuses before it connects, with the same message at the same file and line.
//! Whatever the start refuses, `check` has refused first.

mod support;

use std::path::Path;
use std::process::Command;
use support::case::{
    rm3_case_with, rm3_with, sphere_drop_with, text, tidelink, tidelink_with_env, Case, RM3_SWAPPED,
    SPHERE_DROP_SWAPPED,
};

/// A file of a case, relative to the case folder, and a line of it.
type At = (&'static str, usize);

/// An edit `(file, from, to)` of a shipped case.
type Edit<'a> = (&'a str, &'a str, &'a str);

/// One broken input: the case, the participant started by hand, and what both must say.
struct Row {
    /// What is broken (named in failures).
    what: &'static str,
    /// The broken case.
    case: Case,
    /// The participant started by hand: `Fluid` or `Solid`.
    participant: &'static str,
    /// The file of the error, relative to the case folder, and its line.
    at: At,
    /// A fragment of the message.
    says: &'static str,
    /// Variables set for both `check` and the participant.
    env: Vec<(&'static str, &'static str)>,
}

/// The program and participant file of `participant` in the shipped case `case` (its manifest).
fn program_of(case: &Case, participant: &str) -> (String, String) {
    let manifest = std::fs::read_to_string(case.file("tidelink.yaml")).expect("the manifest");
    let entry = manifest.split("- name: ").find(|e| e.starts_with(participant)).expect("the participant's entry");
    let value = |key: &str| {
        let line = entry.lines().find(|l| l.trim_start().starts_with(key)).expect("the key");
        line.trim_start()[key.len()..].trim().to_string()
    };
    (value("command:"), value("spec:"))
}

/// The error lines (`file:line: error: …`) of `out`, with the case folder taken off the paths.
fn errors(out: &str, case: &Path) -> Vec<String> {
    let prefix = format!("{}/", case.display());
    out.lines().filter(|l| l.contains(": error: ")).map(|l| l.replace(&prefix, "")).collect()
}

/// Runs `check` and the participant of `row` and returns what disagrees (empty when they agree).
fn disagreement(row: &Row, bin_dir: &Path) -> Option<String> {
    let case = row.case.path();
    let check = tidelink_with_env(&["check"], case, &row.env);
    let check_text = text(&check);
    let (program, spec) = program_of(&row.case, row.participant);
    // A participant that does not refuse would wait for its partner: after a second it fails
    // instead (a handshake timeout, which this test then reports as a disagreement).
    let run = Command::new(bin_dir.join(&program))
        .args([spec.as_str(), "--precice-config", "precice-config.xml"])
        .current_dir(case)
        .env("TIDELINK_HANDSHAKE_TIMEOUT", "1")
        .envs(row.env.iter().copied())
        .output()
        .expect("start the participant");
    let run_text = text(&run);
    // Line 0: the file as a whole (it could not be read).
    let expected = match row.at.1 {
        0 => format!("{}: error: ", row.at.0),
        line => format!("{}:{line}: error: ", row.at.0),
    };
    let (check_errors, run_errors) = (errors(&check_text, case), errors(&run_text, case));
    let found = |lines: &[String]| lines.iter().find(|l| l.starts_with(&expected) && l.contains(row.says)).cloned();
    let why = if check.status.success() {
        "check passed".to_string()
    } else if run.status.success() {
        "the participant ran".to_string()
    } else if found(&check_errors).is_none() {
        format!("check does not say `{expected}…{}…`", row.says)
    } else if found(&run_errors).is_none() {
        format!("the participant does not say `{expected}…{}…`", row.says)
    } else if let Some(extra) = run_errors.iter().find(|l| !check_errors.contains(l)) {
        format!("the participant says what check does not: {extra}")
    } else {
        return None;
    };
    Some(format!("{}: {why}\n--- check:\n{check_text}--- {program} {spec}:\n{run_text}", row.what))
}

/// Runs every row, then fails naming every one that disagrees.
fn assert_rows_agree(rows: Vec<Row>) {
    let bin_dir = support::participant_programs(&[
        ("tidelink-mbs", "tidelink-mbs"),
        ("tidelink-buoyancy", "tidelink-buoyancy"),
        ("tidelink-tdpf", "tidelink-tdpf"),
        ("tidelink-sph", "tidelink-sph"),
    ]);
    let n = rows.len();
    let failures: Vec<String> = rows.iter().filter_map(|r| disagreement(r, &bin_dir)).collect();
    assert!(failures.is_empty(), "{} of {n} inputs disagree:\n\n{}", failures.len(), failures.join("\n\n"));
}

const XML: &str = "precice-config.xml";
const SOCKETS: &str = r#"<m2n:sockets acceptor="Fluid" connector="Solid" exchange-directory="." />"#;
const READ_MAPPING: &str =
    r#"<mapping:nearest-neighbor direction="read" from="SolidMesh" to="FluidMesh" constraint="consistent" />"#;

/// A sphere_drop row: `edits` are `(file, from, to)`.
fn sd(what: &'static str, who: &'static str, edits: &[Edit], at: At, says: &'static str) -> Row {
    Row { what, case: sphere_drop_with(edits), participant: who, at, says, env: Vec::new() }
}

/// The sphere_drop Solid's ball coupled through the points of `ball.stl`, written with `bytes`.
fn ball_points(what: &'static str, bytes: &[u8], says: &'static str) -> Row {
    let case = sphere_drop_with(&[
        ("solid/participant.yaml", "    - name: ball\n", "    - name: ball\n      points: ball.stl\n"),
        ("solid/participant.yaml", "mesh_type: RIGID_BODY_REFS", "mesh_type: RIGID_BODY_POINTS"),
    ]);
    std::fs::write(case.file("solid/ball.stl"), bytes).expect("write the STL");
    Row { what, case, participant: "Solid", at: ("solid/participant.yaml", 24), says, env: Vec::new() }
}

#[test]
fn check_and_start_agree_on_broken_model_solver_mesh_and_xml_files() {
    let rows = vec![
        sd("negative mass", "Solid", &[("solid/model.yaml", "mass: 3.62", "mass: -3.62")], ("solid/model.yaml", 10), "the mass must be positive and finite, got -3.62"),
        sd("NaN mass", "Solid", &[("solid/model.yaml", "mass: 3.62", "mass: .nan")], ("solid/model.yaml", 10), "got NaN"),
        sd(
            "zero inertia",
            "Solid",
            &[("solid/model.yaml", "moments: [0.0208512, 0.0208512, 0.0208512]", "moments: [0, 0.0208512, 0.0208512]")],
            ("solid/model.yaml", 11),
            "the inertia tensor is not positive definite",
        ),
        sd("negative time step", "Solid", &[("solid/solver.yaml", "time_step: 1e-3", "time_step: -1e-3")], ("solid/solver.yaml", 5), "`time_step` must be positive, got -0.001"),
        sd("integrator RK4", "Solid", &[("solid/solver.yaml", "type: Euler_implicit_linearized", "type: RK4")], ("solid/solver.yaml", 3), "integrator type `RK4` is not implemented"),
        sd(
            "external_pto_file and external_pto both set",
            "Solid",
            &[(
                "solid/model.yaml",
                "  angle_degrees: true\n",
                "  angle_degrees: true\n  external_pto_file: pto.yaml\n  external_pto: {link: pto, command: [sh]}\n",
            )],
            ("solid/model.yaml", 7),
            "`external_pto` and `external_pto_file` (line 6) are both set; keep one",
        ),
        sd(
            "unknown model key",
            "Solid",
            &[("solid/model.yaml", "      mass: 3.62\n", "      mass: 3.62\n      colour: red\n")],
            ("solid/model.yaml", 11),
            "unknown key `colour` in model.bodies[0]",
        ),
        sd(
            "manifest commands swapped",
            "Fluid",
            SPHERE_DROP_SWAPPED,
            ("fluid/participant.yaml", 2),
            "this is a `type: BUOYANCY` participant file, but `tidelink-mbs` reads `type: MBS` files",
        ),
        sd("negative buoyancy radius", "Fluid", &[("fluid/buoyancy_model.yaml", "radius: 0.12", "radius: -0.12")], ("fluid/buoyancy_model.yaml", 2), "radius"),
        ball_points("empty STL", b"", "solid/ball.stl: the file is empty"),
        ball_points("garbage STL", b"this is no mesh\n", "solid/ball.stl: not an STL file"),
        sd(
            "m2n:mpi",
            "Fluid",
            &[(XML, SOCKETS, &SOCKETS.replace("m2n:sockets", "m2n:mpi"))],
            (XML, 47),
            "m2n:mpi can only be used if preCICE was compiled with MPI support",
        ),
        sd(
            "RBF mapping on a GPU executor",
            "Fluid",
            &[(XML, READ_MAPPING, r#"<mapping:rbf direction="read" from="SolidMesh" to="FluidMesh" constraint="consistent"><basis-function:thin-plate-splines /><executor:cuda /></mapping:rbf>"#)],
            (XML, 38),
            "<executor:cuda> is not available in the native engine",
        ),
        sd(
            "nearest-projection mapping with a volume constraint",
            "Fluid",
            &[(
                XML,
                READ_MAPPING,
                &READ_MAPPING
                    .replace("nearest-neighbor", "nearest-projection")
                    .replace(r#"constraint="consistent""#, r#"constraint="scaled-consistent-volume""#),
            )],
            (XML, 38),
            "The constraint \"scaled-consistent-volume\" is not available for nearest-projection mapping",
        ),
        sd(
            "unknown network",
            "Solid",
            &[(XML, SOCKETS, &SOCKETS.replace(" />", r#" network="no-such-if0" />"#))],
            (XML, 47),
            "Cannot find network interface \"no-such-if0\"",
        ),
        sd(
            "exchange against the write direction",
            "Solid",
            &[(XML, r#"<exchange data="forces" mesh="SolidMesh" from="Fluid" to="Solid" />"#, r#"<exchange data="forces" mesh="SolidMesh" from="Solid" to="Fluid" />"#)],
            // The Solid's <read-data name="forces">, which nothing reaches now.
            (XML, 31),
            "participant \"Solid\" reads data \"forces\" on mesh \"SolidMesh\", but no <exchange> sends",
        ),
        sd(
            "read data never exchanged",
            "Fluid",
            &[(XML, "    <exchange data=\"velocities\" mesh=\"SolidMesh\" from=\"Solid\" to=\"Fluid\" initialize=\"yes\" />\n", "")],
            (XML, 41),
            "participant \"Fluid\" reads data \"velocities\" on mesh \"FluidMesh\", but no <exchange> sends",
        ),
        sd(
            "1e20 windows",
            "Fluid",
            &[(XML, r#"<max-time-windows value="1000" />"#, r#"<max-time-windows value="1e20" />"#)],
            (XML, 52),
            "value is too large",
        ),
        sd(
            "99999999999999999999 windows",
            "Solid",
            &[(XML, r#"<max-time-windows value="1000" />"#, r#"<max-time-windows value="99999999999999999999" />"#)],
            (XML, 52),
            "value is too large (the largest whole number accepted is 9223372036854775807)",
        ),
    ];
    assert_rows_agree(rows);
}

/// An rm3 row: `edits` are `(file, from, to)`.
fn rm3(what: &'static str, who: &'static str, edits: &[Edit], at: At, says: &'static str) -> Row {
    Row { what, case: rm3_with(edits), participant: who, at, says, env: Vec::new() }
}

/// The 1-based line of the first `needle` in the shipped rm3 case's `file` (so that a row does
/// not break when lines are added above it).
fn rm3_line(file: &str, needle: &str) -> usize {
    let path = Path::new(env!("CARGO_MANIFEST_DIR")).join("configs/rm3_reg_waves").join(file);
    let text = std::fs::read_to_string(&path).expect("a shipped rm3 file");
    let at = text.find(needle).unwrap_or_else(|| panic!("{} no longer contains {needle:?}", path.display()));
    text[..at].matches('\n').count() + 1
}

/// The rm3 case whose Fluid (TDPF model) and Solid (added mass) read `rm3.h5` from the case
/// folder, a copy of the reference file passed through `break_it` (which gets its path); the
/// Fluid is started.
fn rm3_broken_h5(what: &'static str, break_it: impl Fn(&Path), says: &'static str) -> Row {
    let case = rm3_case_with(|_, text| text);
    for file in ["fluid/tdpf_model.yaml", "solid/participant.yaml"] {
        let path = case.file(file);
        let text = std::fs::read_to_string(&path).expect("a file with a data root");
        let root = text.lines().find(|l| l.trim_start().starts_with("root: ")).expect("a data root").to_string();
        let indent = &root[..root.len() - root.trim_start().len()];
        std::fs::write(&path, text.replace(&root, &format!("{indent}root: {}", case.path().display()))).expect("write");
    }
    let h5 = case.file("rm3.h5");
    std::fs::copy(tidelink_adapter_core::testing::shared_path("data/rm3/rm3.h5"), &h5).expect("copy rm3.h5");
    break_it(&h5);
    Row {
        what,
        case,
        participant: "Fluid",
        at: ("fluid/tdpf_model.yaml", rm3_line("fluid/tdpf_model.yaml", "h5_file: rm3.h5")),
        says,
        env: Vec::new(),
    }
}

/// [`rm3_broken_h5`] with the Solid started: its added mass reads the file.
fn rm3_broken_h5_solid(what: &'static str, break_it: impl Fn(&Path), says: &'static str) -> Row {
    Row {
        participant: "Solid",
        at: ("solid/participant.yaml", rm3_line("solid/participant.yaml", "h5_filename: rm3.h5")),
        ..rm3_broken_h5(what, break_it, says)
    }
}

/// Cuts the copy to its first half.
fn truncate(p: &Path) {
    let bytes = std::fs::read(p).expect("read");
    std::fs::write(p, &bytes[..bytes.len() / 2]).expect("truncate");
}

/// Opens the copy for writing.
fn h5_rw(p: &Path) -> hdf5_metno::File {
    hdf5_metno::File::open_rw(p).expect("open the copy")
}

#[test]
#[cfg_attr(not(tidelink_shared), ignore = "needs ../shared/data/rm3/rm3.h5 (reference data beside the repository)")]
fn check_and_start_agree_on_broken_hydrodynamic_cases() {
    let cg = "/body1/properties/cg";
    let rows = vec![
        rm3(
            "joint naming a missing body",
            "Solid",
            &[("solid/model.yaml", "      body1: spar\n", "      body1: sparr\n")],
            ("solid/model.yaml", rm3_line("solid/model.yaml", "      body1: spar\n")),
            "joint `float_spar`: no body named `sparr`",
        ),
        rm3(
            "manifest commands swapped",
            "Solid",
            RM3_SWAPPED,
            ("solid/participant.yaml", 2),
            "this is a `type: MBS` participant file, but `tidelink-tdpf` reads `type: TDPF` files",
        ),
        rm3(
            "wave period 0",
            "Fluid",
            &[("fluid/tdpf_model.yaml", "period: 8", "period: 0")],
            // Both name the `period` line itself.
            ("fluid/tdpf_model.yaml", rm3_line("fluid/tdpf_model.yaml", "    period: 8\n")),
            "wave period must be finite and positive, got 0",
        ),
        rm3(
            "missing h5 file",
            "Fluid",
            &[("fluid/tdpf_model.yaml", "h5_file: rm3.h5", "h5_file: rm4.h5")],
            ("fluid/tdpf_model.yaml", rm3_line("fluid/tdpf_model.yaml", "h5_file: rm3.h5")),
            "h5_file `rm4.h5` not found",
        ),
        rm3_broken_h5(
            "a directory named like the h5 file",
            |p| {
                std::fs::remove_file(p).expect("remove");
                std::fs::create_dir(p).expect("a folder");
            },
            "is a directory",
        ),
        rm3_broken_h5("truncated h5 file", truncate, "cannot open as an HDF5 file"),
        rm3_broken_h5(
            "h5 file without a dataset",
            |p| h5_rw(p).unlink(cg).expect("unlink"),
            "missing dataset /body1/properties/cg",
        ),
        rm3_broken_h5(
            "h5 dataset of the wrong shape",
            |p| {
                let f = h5_rw(p);
                f.unlink(cg).expect("unlink");
                f.new_dataset_builder().with_data(&[1.0f64, 2.0]).create(cg).expect("a 2-vector");
            },
            "/body1/properties/cg",
        ),
        rm3_broken_h5_solid("truncated h5 file of the added mass", truncate, "added_mass.h5_filename `rm3.h5`: "),
        rm3_broken_h5(
            "an IRF declaring 2e9 samples",
            |p| {
                // Declared, never written: HDF5 stores no chunk, the file stays small.
                let f = h5_rw(p);
                let t = "/body1/hydro_coeffs/radiation_damping/impulse_response_fun/t";
                f.unlink(t).expect("unlink");
                f.new_dataset::<f64>().shape(vec![2_000_000_000, 1]).chunk(vec![1024, 1]).create(t).expect("declare");
            },
            "declares shape (2000000000, 1), 16.0 GB of values",
        ),
        rm3_broken_h5(
            "h5 file without /body2",
            |p| h5_rw(p).unlink("/body2").expect("unlink"),
            "/body2: missing: the coefficients of /body1 couple 2 bodies",
        ),
    ];
    assert_rows_agree(rows);
}

/// A sphere_drop row whose Solid model has an external force module on the ball started by
/// `command` (a YAML list; its `command:` key is line 9 of solid/model.yaml), with `files`
/// `(name, text, mode)` written into the case folder first and `env` set for both sides.
fn module_row(
    what: &'static str,
    command: &str,
    files: &[(&str, &str, u32)],
    says: &'static str,
    env: Vec<(&'static str, &'static str)>,
) -> Row {
    use std::os::unix::fs::PermissionsExt;
    let entry = format!(
        "  angle_degrees: true\n  external_forces:\n    - name: drag\n      bodies: [ball]\n      command: {command}\n"
    );
    let case = sphere_drop_with(&[("solid/model.yaml", "  angle_degrees: true\n", entry.as_str())]);
    for (name, text, mode) in files {
        std::fs::write(case.file(name), text).expect("write a module file");
        std::fs::set_permissions(case.file(name), std::fs::Permissions::from_mode(*mode)).expect("its mode");
    }
    Row { what, case, participant: "Solid", at: ("solid/model.yaml", 9), says, env }
}

/// What used to pass `check` and stop the run only once it had started (at the first step, at
/// the first output row): refused by both, before any connection.
#[test]
fn check_and_start_agree_on_what_used_to_stop_a_started_run() {
    let output_is_a_file = {
        let mut row =
            sd("output folder is a file", "Solid", &[], ("solid/participant.yaml", 15), "it is a file, not a folder");
        std::fs::write(row.case.file("solid/output"), "not a folder").expect("a file in the way");
        row.says = "output folder `solid/output`: it is a file, not a folder";
        row
    };
    let rows = vec![
        output_is_a_file,
        module_row(
            "module program missing",
            "[no-such-drag-module]",
            &[],
            "the module cannot start: the program `no-such-drag-module` is not found on PATH",
            Vec::new(),
        ),
        module_row(
            "module script missing",
            "[sh, missing_drag.py]",
            &[],
            "the module cannot start: the script `missing_drag.py` does not exist",
            Vec::new(),
        ),
        module_row(
            "module program not executable",
            "[./drag.sh]",
            &[("drag.sh", "#!/bin/sh\n", 0o644)],
            "the program `./drag.sh` is not executable",
            Vec::new(),
        ),
        module_row(
            "module poll time not a number",
            "[sh, drag.py]",
            &[("drag.py", "", 0o644)],
            "TIDELINK_PTO_SPIN_US=\"abc\" is not a poll time",
            vec![("TIDELINK_PTO_SPIN_US", "abc")],
        ),
    ];
    assert_rows_agree(rows);
}

/// The files of the shipped sphere_drop_sph case; its Solid's model and solver are sphere_drop's.
const SPH_DROP_FILES: &[&str] = &[
    "tidelink.yaml",
    "precice-config.xml",
    "fluid/participant.yaml",
    "fluid/sph_model.yaml",
    "solid/participant.yaml",
];

/// A sphere_drop_sph row (the Fluid, `tidelink-sph`, is started) with `edits`.
fn sph(what: &'static str, edits: &[Edit], at: At, says: &'static str) -> Row {
    let mut all = vec![("solid/participant.yaml", "../../sphere_drop/solid/", "")];
    all.extend_from_slice(edits);
    let case = shipped_with_edits("sphere_drop_sph", SPH_DROP_FILES, &all);
    let solid = Path::new(env!("CARGO_MANIFEST_DIR")).join("configs/sphere_drop/solid");
    for f in ["model.yaml", "solver.yaml"] {
        std::fs::copy(solid.join(f), case.file(&format!("solid/{f}"))).expect("sphere_drop's solid files");
    }
    Row { what, case, participant: "Fluid", at, says, env: Vec::new() }
}

/// [`sph`] with the ball's shape a MESH read from `fluid/ball.obj`, written with `obj`.
fn sph_ball_obj(what: &'static str, obj: &str, says: &'static str) -> Row {
    let row = sph(
        what,
        &[("fluid/sph_model.yaml", "shape: {type: SPHERE, radius: 0.12}", "shape: {type: MESH, file: ball.obj}")],
        ("fluid/sph_model.yaml", 15),
        says,
    );
    std::fs::write(row.case.file("fluid/ball.obj"), obj).expect("write the OBJ");
    row
}

/// [`support::case::shipped_with`] under a name that says the edits are applied.
fn shipped_with_edits(name: &str, files: &[&str], edits: &[Edit]) -> Case {
    support::case::shipped_with(name, files, edits)
}

const TETRA: &str = "v 0 0 0\nv 0.1 0 0\nv 0 0.1 0\nv 0 0 0.1\nf 1 3 2\nf 1 2 4\nf 2 3 4\n";

#[test]
fn check_and_start_agree_on_sph_models_that_cannot_run() {
    let spacing = ("fluid/sph_model.yaml", "  spacing: 0.03            # m\n", "  spacing: 1e-5\n");
    let rows = vec![
        sph("spacing 1e-5", &[spacing], ("fluid/sph_model.yaml", 6), "raise `sph.spacing`"),
        sph(
            "sound speed 0.05",
            &[("fluid/sph_model.yaml", "  spacing: 0.03            # m\n", "  spacing: 0.03\n  sound_speed: 0.05\n")],
            ("fluid/sph_model.yaml", 7),
            "sound speed 0.05 m/s is too low for water 0.3 m deep",
        ),
        sph(
            "tank narrower than the fluid",
            &[("fluid/sph_model.yaml", "tank:\n  min: [-0.36", "tank:\n  min: [-0.3")],
            ("fluid/sph_model.yaml", 11),
            "fluid box 0 reaches x = -0.36 m, below the tank's min x = -0.3 m",
        ),
        sph(
            "tank corner NaN",
            &[("fluid/sph_model.yaml", "tank:\n  min: [-0.36", "tank:\n  min: [.nan")],
            ("fluid/sph_model.yaml", 8),
            "`tank.min`: x is NaN, not a finite number",
        ),
        sph(
            "body outside the tank",
            &[("fluid/participant.yaml", "      location: [0, 0, 0.18]", "      location: [2, 0, 0.18]")],
            ("fluid/participant.yaml", 21),
            "body `ball` starts at [2, 0, 0.18], outside the tank",
        ),
        sph_ball_obj("OBJ without faces", "v 0 0 0\nv 1 0 0\nv 0 1 0\n", "the file has 3 vertices but no faces"),
        sph_ball_obj(
            "OBJ with a NaN vertex",
            &TETRA.replace("v 0 0.1 0", "v 0 nan 0"),
            "a vertex is [0, NaN, 0], not a finite point",
        ),
        sph_ball_obj("OBJ not closed", TETRA, "the surface is not closed: 3 edges"),
    ];
    assert_rows_agree(rows);
}

/// A YAML value nested `depth` deep in flow style.
fn nested(depth: usize) -> String {
    format!("{}{}", "[".repeat(depth), "]".repeat(depth))
}

#[test]
fn check_and_start_agree_on_hostile_sizes_and_nesting() {
    let dev_zero = {
        let row = sd("XML is /dev/zero", "Fluid", &[], (XML, 0), "not a regular file");
        std::fs::remove_file(row.case.file(XML)).expect("remove the XML");
        std::os::unix::fs::symlink("/dev/zero", row.case.file(XML)).expect("link it to /dev/zero");
        row
    };
    let deep_xml = {
        let row = sd("XML nested 200 000 deep", "Solid", &[], (XML, 101), "more than the 100 levels");
        let depth = 200_000;
        std::fs::write(row.case.file(XML), format!("{}{}", "<a>\n".repeat(depth), "</a>".repeat(depth)))
            .expect("write");
        row
    };
    let deep = format!("      mass: 3.62\n      deep: {}\n", nested(100_000));
    let rows = vec![
        dev_zero,
        deep_xml,
        sd(
            "YAML nested 1e5 deep",
            "Solid",
            &[("solid/model.yaml", "      mass: 3.62\n", deep.as_str())],
            ("solid/model.yaml", 11),
            "deeper than 100 levels",
        ),
    ];
    assert_rows_agree(rows);
}

/// `tidelink run` checks first: a manifest program that does not exist stops both at its line,
/// and nothing is started.
#[test]
fn a_manifest_program_that_does_not_exist_is_an_error_of_check_and_run() {
    let case = sphere_drop_with(&[("tidelink.yaml", "command: tidelink-buoyancy", "command: tidelink-buoyancyy")]);
    let manifest = std::fs::read_to_string(case.file("tidelink.yaml")).expect("the manifest");
    let line = manifest.lines().position(|l| l.contains("tidelink-buoyancyy")).expect("the command") + 1;
    let says =
        format!("tidelink.yaml:{line}: error: program `tidelink-buoyancyy` not found next to tidelink or on PATH");
    for args in [["check"], ["run"]] {
        let o = tidelink(&args, case.path());
        let t = text(&o).replace(&format!("{}/", case.path().display()), "");
        assert!(!o.status.success() && t.contains(&says), "tidelink {args:?}:\n{t}");
    }
    assert!(!case.file("solid/output").exists(), "the run started a participant");
}
