//! Sets `cfg(tidelink_shared)` when the reference data folder ../shared is there (or
//! TIDELINK_REQUIRE_SHARED=1), so the tests that need it run, else show as ignored (docs/testing.md);
//! `cfg(tidelink_octave)` when `octave-cli` with its instrument-control package is on PATH (or
//! TIDELINK_REQUIRE_OCTAVE=1), for the test of the MATLAB module helper under Octave; and
//! `cfg(tidelink_second_uid)` when the tests can run a process as another user (built as root with
//! `setpriv` on PATH, or TIDELINK_REQUIRE_SECOND_UID=1): tests/strangers.rs; and
//! `cfg(tidelink_oswec_h5)` when the generated OSWEC file configs/oswec/hydro/oswec.h5 is there
//! (`tidelink hydro configs/oswec/hydro/oswec.yaml`, not in git, or TIDELINK_REQUIRE_OSWEC_H5=1):
//! tests/pto_trios.rs and tests/oswec.rs; and `cfg(tidelink_hydro_python)` when the hydro test
//! environment (hydro/test.sh: target/hydro-test-venv or TIDELINK_HYDRO_TEST_VENV) is there, to
//! import WEC-Sim's WAMIT run in seconds: tests/oswec.rs.
use std::path::PathBuf;
use std::process::{Command, Stdio};

fn main() {
    tidelink_shared_data::build_script();
    octave();
    second_uid();
    oswec_h5();
    hydro_python();
}

/// `cfg(tidelink_hydro_python)`: the Python of hydro/test.sh's environment exists (scripts/test.sh
/// makes it before building). One made after a build without it is noticed after `touch build.rs`,
/// as the shared folder (watching a missing path would rebuild on every build).
fn hydro_python() {
    println!("cargo::rustc-check-cfg=cfg(tidelink_hydro_python)");
    println!("cargo::rerun-if-env-changed=TIDELINK_HYDRO_TEST_VENV");
    let venv = std::env::var_os("TIDELINK_HYDRO_TEST_VENV")
        .map(PathBuf::from)
        .unwrap_or_else(|| PathBuf::from("target/hydro-test-venv"));
    let manifest = PathBuf::from(std::env::var_os("CARGO_MANIFEST_DIR").unwrap_or_default());
    let python = manifest.join(venv).join("bin/python");
    if python.is_file() {
        println!("cargo::rerun-if-changed={}", python.display());
        println!("cargo::rustc-cfg=tidelink_hydro_python");
    }
    println!("cargo::rustc-env=TIDELINK_HYDRO_PYTHON={}", python.display());
}

/// Whether the environment variable `name` says yes.
fn required(name: &str) -> bool {
    println!("cargo::rerun-if-env-changed={name}");
    std::env::var(name).is_ok_and(|v| matches!(v.trim().to_ascii_lowercase().as_str(), "1" | "true" | "yes"))
}

/// `cfg(tidelink_octave)`: reruns when the folder holding `octave-cli` changes; an Octave
/// installed after a build into a folder not watched is noticed after `touch build.rs`.
fn octave() {
    println!("cargo::rustc-check-cfg=cfg(tidelink_octave)");
    if let Some(dir) = on_path("octave-cli") {
        println!("cargo::rerun-if-changed={}", dir.display());
    }
    let usable = || {
        Command::new("octave-cli")
            .args(["--no-gui", "--quiet", "--no-history", "--eval", "pkg load instrument-control"])
            .stdout(Stdio::null())
            .stderr(Stdio::null())
            .status()
            .is_ok_and(|s| s.success())
    };
    if required("TIDELINK_REQUIRE_OCTAVE") || usable() {
        println!("cargo::rustc-cfg=tidelink_octave");
    }
}

/// `cfg(tidelink_second_uid)`: built as root with `setpriv` on PATH.
fn second_uid() {
    println!("cargo::rustc-check-cfg=cfg(tidelink_second_uid)");
    if required("TIDELINK_REQUIRE_SECOND_UID") || (effective_uid() == Some(0) && on_path("setpriv").is_some()) {
        println!("cargo::rustc-cfg=tidelink_second_uid");
    }
}

/// `cfg(tidelink_oswec_h5)`: configs/oswec/hydro/oswec.h5 exists. Its folder is watched (it is in
/// git, and a file made in it changes its time), so generating the file re-runs this script.
fn oswec_h5() {
    println!("cargo::rustc-check-cfg=cfg(tidelink_oswec_h5)");
    println!("cargo::rerun-if-changed=configs/oswec/hydro");
    if required("TIDELINK_REQUIRE_OSWEC_H5") || std::path::Path::new("configs/oswec/hydro/oswec.h5").is_file() {
        println!("cargo::rustc-cfg=tidelink_oswec_h5");
    }
}

/// The effective user id of the build, from /proc (Linux); `None` elsewhere.
fn effective_uid() -> Option<u32> {
    let status = std::fs::read_to_string("/proc/self/status").ok()?;
    let line = status.lines().find_map(|l| l.strip_prefix("Uid:"))?;
    line.split_whitespace().nth(1)?.parse().ok()
}

/// The PATH folder holding `program`.
fn on_path(program: &str) -> Option<PathBuf> {
    std::env::split_paths(&std::env::var_os("PATH")?).find(|d| d.join(program).is_file())
}
