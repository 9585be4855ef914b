//! Temporary case folders for the tests that run the `tidelink` binary: copies of the shipped
//! cases with edits, the binary's output, and the `file:line: error:` assertion.

#![allow(dead_code)]

use std::path::{Path, PathBuf};
use std::process::{Command, Output};

/// A temporary case folder; files are written relative to it.
pub struct Case(pub tempfile::TempDir);

impl Case {
    /// An empty case folder.
    pub fn empty() -> Case {
        Case(tempfile::tempdir().expect("temporary case folder"))
    }
    /// Writes `text` to `name` (relative to the case), creating its folder.
    pub fn write(&self, name: &str, text: &str) {
        let p = self.0.path().join(name);
        std::fs::create_dir_all(p.parent().expect("parent")).expect("create folder");
        std::fs::write(p, text).expect("write case file");
    }
    /// The case folder.
    pub fn path(&self) -> &Path {
        self.0.path()
    }
    /// A file of the case.
    pub fn file(&self, name: &str) -> PathBuf {
        self.0.path().join(name)
    }
}

/// The participant programs `tidelink check` and `run` start for the shipped cases.
const PROGRAMS: &[(&str, &str)] = &[
    ("tidelink-mbs", "tidelink-mbs"),
    ("tidelink-mbs", "tidelink-flap"),
    ("tidelink-tdpf", "tidelink-tdpf"),
    ("tidelink-sph", "tidelink-sph"),
    ("tidelink-buoyancy", "tidelink-buoyancy"),
    ("tidelink-buoyancy", "tidelink-stream"),
];

/// `tidelink <args> <case>`, run to its end. The participant programs are built first, once per
/// test binary ([`super::participant_programs`]): `tidelink` starts them from its own folder, and
/// a test file run on its own (`cargo test -p tidelink --test cli`) would otherwise race with the
/// one of its tests that builds them.
pub fn tidelink(args: &[&str], case: &Path) -> Output {
    tidelink_with_env(args, case, &[])
}

/// [`tidelink`] with `env` added to its environment (and so to the participants it starts).
pub fn tidelink_with_env(args: &[&str], case: &Path, env: &[(&str, &str)]) -> Output {
    static BUILT: std::sync::Once = std::sync::Once::new();
    BUILT.call_once(|| {
        super::participant_programs(PROGRAMS);
    });
    Command::new(env!("CARGO_BIN_EXE_tidelink"))
        .args(args)
        .arg(case)
        .envs(env.iter().copied())
        .output()
        .expect("start tidelink")
}

/// Standard output then standard error, as text.
pub fn text(o: &Output) -> String {
    format!("{}{}", String::from_utf8_lossy(&o.stdout), String::from_utf8_lossy(&o.stderr))
}

/// Asserts an error line `file:line: error: ...fragment...` is in the output.
pub fn assert_error_at(out: &str, file: &Path, line: usize, fragment: &str) {
    let prefix = format!("{}:{line}: error: ", file.display());
    assert!(
        out.lines().any(|l| l.starts_with(&prefix) && l.contains(fragment)),
        "expected `{prefix}...{fragment}...` in:\n{out}"
    );
}

/// `tidelink <args> <path>`, which must succeed: its output (as [`text`]).
pub fn tidelink_ok(args: &[&str], path: &Path) -> String {
    let o = tidelink(args, path);
    let t = text(&o);
    assert!(o.status.success(), "{t}");
    t
}

/// `tidelink <args> <path>`, which must fail: its output (as [`text`]).
pub fn tidelink_err(args: &[&str], path: &Path) -> String {
    let o = tidelink(args, path);
    let t = text(&o);
    assert!(!o.status.success(), "{t}");
    t
}

/// A copy of the shipped case `configs/<name>` (its `files`), each file's text passed through `edit`.
pub fn shipped_case(name: &str, files: &[&str], edit: impl Fn(&str, String) -> String) -> Case {
    let root = Path::new(env!("CARGO_MANIFEST_DIR")).join("configs").join(name);
    let case = Case::empty();
    for f in files {
        let text = std::fs::read_to_string(root.join(f)).unwrap_or_else(|e| panic!("read {f}: {e}"));
        case.write(f, &edit(f, text));
    }
    case
}

/// [`shipped_case`] with `(file, from, to)` edits.
pub fn shipped_with(name: &str, files: &[&str], edits: &[(&str, &str, &str)]) -> Case {
    shipped_case(name, files, |f, text| replace_all(f, text, edits))
}

/// The shipped sphere_drop case (tidelink-mbs and tidelink-buoyancy) with `(file, from, to)` edits.
pub fn sphere_drop_with(edits: &[(&str, &str, &str)]) -> Case {
    shipped_with("sphere_drop", super::SPHERE_DROP_FILES, edits)
}

/// Edits of the sphere_drop manifest that swap its participants' commands.
pub const SPHERE_DROP_SWAPPED: &[(&str, &str, &str)] = &[
    ("tidelink.yaml", "command: tidelink-buoyancy", "command: tidelink-swap"),
    ("tidelink.yaml", "command: tidelink-mbs", "command: tidelink-buoyancy"),
    ("tidelink.yaml", "command: tidelink-swap", "command: tidelink-mbs"),
];

/// The files of the shipped rm3_reg_waves case that [`rm3_case_with`] copies.
pub const RM3_FILES: &[&str] = &[
    "tidelink.yaml",
    "precice-config.xml",
    "solid/participant.yaml",
    "solid/model.yaml",
    "solid/solver.yaml",
    "fluid/participant.yaml",
    "fluid/tdpf_model.yaml",
];

/// A copy of the shipped rm3_reg_waves case reading the reference data where it is (the shipped
/// files reach it relative to the repository), with `edit(file, text)` applied.
pub fn rm3_case_with(edit: impl Fn(&str, String) -> String) -> Case {
    let h5 = tidelink_adapter_core::testing::shared_path("data/rm3/rm3.h5");
    let data = h5.parent().expect("a folder").display().to_string();
    shipped_case("rm3_reg_waves", RM3_FILES, |f, text| {
        let text = text.replace("type: RELATIVE", "type: ABSOLUTE");
        edit(f, text.replace("root: ../../../../shared/data/rm3", &format!("root: {data}")))
    })
}

/// Edits of the rm3_reg_waves manifest that swap its participants' commands.
pub const RM3_SWAPPED: &[(&str, &str, &str)] = &[
    ("tidelink.yaml", "command: tidelink-tdpf", "command: tidelink-swap"),
    ("tidelink.yaml", "command: tidelink-mbs", "command: tidelink-tdpf"),
    ("tidelink.yaml", "command: tidelink-swap", "command: tidelink-mbs"),
];

/// [`rm3_case_with`] with `(file, from, to)` edits.
pub fn rm3_with(edits: &[(&str, &str, &str)]) -> Case {
    rm3_case_with(|f, text| replace_all(f, text, edits))
}

/// `text` of file `f` with each edit of `edits` for that file applied; an edit whose `from` is
/// not there fails the test (the shipped file changed).
fn replace_all(f: &str, mut text: String, edits: &[(&str, &str, &str)]) -> String {
    for (file, from, to) in edits.iter().filter(|e| e.0 == f) {
        assert!(text.contains(from), "{file} has no `{from}`");
        text = text.replace(from, to);
    }
    text
}
