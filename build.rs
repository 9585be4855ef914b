//! Sets `cfg(tidelink_shared)` when the reference data folder ../shared is there (or
//! TIDELINK_REQUIRE_SHARED=1), so the tests that need it run, else show as ignored (docs/testing.md);
//! and `cfg(tidelink_octave)` when `octave-cli` with its instrument-control package is on PATH (or
//! TIDELINK_REQUIRE_OCTAVE=1), for the test of the MATLAB module helper under Octave.
use std::path::PathBuf;
use std::process::{Command, Stdio};

fn main() {
    tidelink_shared_data::build_script();
    octave();
}

/// `cfg(tidelink_octave)`: reruns when the folder holding `octave-cli` changes; an Octave
/// installed after a build into a folder not watched is noticed after `touch build.rs`.
fn octave() {
    println!("cargo::rustc-check-cfg=cfg(tidelink_octave)");
    println!("cargo::rerun-if-env-changed=TIDELINK_REQUIRE_OCTAVE");
    if let Some(dir) = on_path("octave-cli") {
        println!("cargo::rerun-if-changed={}", dir.display());
    }
    let required = std::env::var("TIDELINK_REQUIRE_OCTAVE")
        .is_ok_and(|v| matches!(v.trim().to_ascii_lowercase().as_str(), "1" | "true" | "yes"));
    let usable = || {
        Command::new("octave-cli")
            .args(["--no-gui", "--quiet", "--no-history", "--eval", "pkg load instrument-control"])
            .stdout(Stdio::null())
            .stderr(Stdio::null())
            .status()
            .is_ok_and(|s| s.success())
    };
    if required || usable() {
        println!("cargo::rustc-cfg=tidelink_octave");
    }
}

/// The PATH folder holding `program`.
fn on_path(program: &str) -> Option<PathBuf> {
    std::env::split_paths(&std::env::var_os("PATH")?).find(|d| d.join(program).is_file())
}
