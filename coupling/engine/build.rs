//! Sets `cfg(tidelink_shared)` when the reference data folder ../shared is there (or
//! TIDELINK_REQUIRE_SHARED=1), so the tests that need it run, else show as ignored (docs/testing.md);
//! and `cfg(tidelink_meshio)` when the project's Python environment reads meshes with meshio (or
//! TIDELINK_REQUIRE_MESHIO=1), for the tests that read the exports back.
use std::path::{Path, PathBuf};

fn main() {
    tidelink_shared_data::build_script();
    meshio();
}

/// The project's Python environment (`$TIDELINK_VENV`, default `.venv` at the workspace root):
/// `cfg(tidelink_meshio)` when its Python imports meshio, and its interpreter's path as the
/// compile-time variable `TIDELINK_TEST_PYTHON`. Reruns when the environment's `bin` changes
/// (installing meshio adds its script there); an environment made after a build without one is
/// not noticed by itself: rebuild once (docs/testing.md).
fn meshio() {
    println!("cargo::rustc-check-cfg=cfg(tidelink_meshio)");
    println!("cargo::rerun-if-env-changed=TIDELINK_VENV");
    println!("cargo::rerun-if-env-changed=TIDELINK_REQUIRE_MESHIO");
    let manifest = PathBuf::from(std::env::var_os("CARGO_MANIFEST_DIR").expect("CARGO_MANIFEST_DIR"));
    let root = tidelink_shared_data::workspace_root(&manifest).unwrap_or(manifest);
    let venv = std::env::var_os("TIDELINK_VENV").filter(|v| !v.is_empty()).map_or(root.join(".venv"), PathBuf::from);
    let venv = if venv.is_absolute() { venv } else { root.join(venv) };
    let python = venv.join("bin").join("python");
    if venv.join("bin").is_dir() {
        println!("cargo::rerun-if-changed={}", venv.join("bin").display());
    }
    let required = std::env::var("TIDELINK_REQUIRE_MESHIO")
        .is_ok_and(|v| matches!(v.trim().to_ascii_lowercase().as_str(), "1" | "true" | "yes"));
    if required || imports_meshio(&python) {
        println!("cargo::rustc-cfg=tidelink_meshio");
    }
    println!("cargo::rustc-env=TIDELINK_TEST_PYTHON={}", python.display());
}

fn imports_meshio(python: &Path) -> bool {
    std::process::Command::new(python)
        .args(["-c", "import meshio"])
        .stdout(std::process::Stdio::null())
        .stderr(std::process::Stdio::null())
        .status()
        .is_ok_and(|s| s.success())
}
