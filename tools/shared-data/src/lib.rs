//! Where the reference data live, decided once per crate by its build script (docs/testing.md).
//!
//! The data (`data/rm3/rm3.h5`, WEC-Sim's reference series, Chrono's case files, the research
//! notes) are not in the repository: they sit in a folder `shared` beside it, that is
//! `<workspace root>/../shared`, the workspace root being the first folder at or above the crate
//! that holds `Cargo.lock` (so a crate may sit at any depth). `TIDELINK_SHARED=<folder>` points
//! elsewhere.
//!
//! A crate whose tests need the data calls [`build_script`] from its `build.rs`. That sets
//! `cfg(tidelink_shared)` when the folder exists, or when `TIDELINK_REQUIRE_SHARED=1` (CI: the
//! tests then run and fail naming the missing file instead of being ignored), and passes the
//! folder's path to the crate as the compile-time variable `TIDELINK_SHARED_DIR`. The tests mark
//! themselves `#[cfg_attr(not(tidelink_shared), ignore = "needs ../shared/…")]`, so without the
//! data they show as `ignored`, with the reason, in `cargo test`'s output and summary.

#![warn(missing_docs)]

use std::path::{Path, PathBuf};

/// Points at the shared folder instead of `<workspace root>/../shared`.
pub const SHARED_ENV: &str = "TIDELINK_SHARED";
/// `1` (or `true`/`yes`): never ignore the tests that need the data, even when it is absent.
pub const REQUIRE_ENV: &str = "TIDELINK_REQUIRE_SHARED";
/// The cfg set when the tests that need the data are to run.
pub const CFG: &str = "tidelink_shared";

/// The first folder at or above `start` holding a `Cargo.lock`: the workspace root.
pub fn workspace_root(start: &Path) -> Option<PathBuf> {
    start.ancestors().find(|d| d.join("Cargo.lock").is_file()).map(Path::to_path_buf)
}

/// Where the shared folder is (whether or not it exists): `$TIDELINK_SHARED` when set and not
/// empty, else `../shared` beside the workspace root found from `start` (beside `start` itself
/// when no `Cargo.lock` is found above it).
pub fn shared_dir(start: &Path) -> PathBuf {
    if let Some(dir) = std::env::var_os(SHARED_ENV).filter(|d| !d.is_empty()) {
        return PathBuf::from(dir);
    }
    let root = workspace_root(start).unwrap_or_else(|| start.to_path_buf());
    let dir = root.join("..").join("shared");
    // `<root>/repo/../shared` → `<root>/shared` where it exists, for readable messages.
    dir.canonicalize().unwrap_or(dir)
}

/// Whether `TIDELINK_REQUIRE_SHARED` asks for the data to be required.
pub fn required() -> bool {
    std::env::var(REQUIRE_ENV).is_ok_and(|v| matches!(v.trim().to_ascii_lowercase().as_str(), "1" | "true" | "yes"))
}

/// The whole build script of a crate whose tests need the shared data: declares and (when the
/// folder exists or is required) sets `cfg(tidelink_shared)`, and sets `TIDELINK_SHARED_DIR`.
///
/// Reruns when either variable changes, and when the watched sub-folders of an existing shared
/// folder change (`data`, `compat`, `spec`, so that removing the folder turns the cfg off).
/// A folder that appears after a build without it is not noticed by itself (watching a missing
/// path would rebuild the crate on every build): rebuild the crate, e.g. by running once with
/// `TIDELINK_REQUIRE_SHARED=1` (docs/testing.md).
pub fn build_script() {
    let manifest = std::env::var_os("CARGO_MANIFEST_DIR").expect("CARGO_MANIFEST_DIR (run from a build script)");
    let dir = shared_dir(Path::new(&manifest));
    println!("cargo::rustc-check-cfg=cfg({CFG})");
    println!("cargo::rerun-if-env-changed={SHARED_ENV}");
    println!("cargo::rerun-if-env-changed={REQUIRE_ENV}");
    println!("cargo::rerun-if-changed=build.rs");
    let present = dir.is_dir();
    if present {
        let watched: Vec<PathBuf> =
            ["data", "compat", "spec"].iter().map(|s| dir.join(s)).filter(|p| p.exists()).collect();
        if watched.is_empty() {
            println!("cargo::rerun-if-changed={}", dir.display());
        }
        for p in watched {
            println!("cargo::rerun-if-changed={}", p.display());
        }
    }
    if present || required() {
        println!("cargo::rustc-cfg={CFG}");
    }
    println!("cargo::rustc-env=TIDELINK_SHARED_DIR={}", dir.display());
}

/// The file or folder `rel` of the shared folder `dir` (a crate's `env!("TIDELINK_SHARED_DIR")`),
/// or why it is not there, naming both.
pub fn find(dir: &str, rel: &str) -> Result<PathBuf, String> {
    let dir = Path::new(dir);
    let p = dir.join(rel);
    if p.exists() {
        Ok(p)
    } else {
        let why = if dir.is_dir() { "that folder has no such entry" } else { "that folder does not exist" };
        Err(format!(
            "missing reference data {}: needs `{rel}` of the shared data folder {} ({why}); put the folder \
             beside the repository or point TIDELINK_SHARED at it (docs/testing.md)",
            p.display(),
            dir.display()
        ))
    }
}

/// As [`find`], panicking with its message: for tests marked
/// `#[cfg_attr(not(tidelink_shared), ignore = "needs ../shared/…")]`, which are reported as ignored
/// where the folder is absent and fail here when `TIDELINK_REQUIRE_SHARED=1`.
#[track_caller]
pub fn require(dir: &str, rel: &str) -> PathBuf {
    match find(dir, rel) {
        Ok(p) => p,
        Err(e) => panic!("{e}"),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_workspace_root_is_the_first_folder_above_with_a_lock_file() {
        let here = Path::new(env!("CARGO_MANIFEST_DIR"));
        let root = workspace_root(here).expect("a Cargo.lock above this crate");
        assert!(root.join("Cargo.lock").is_file() && here.starts_with(&root) && root != here, "{}", root.display());
    }
}
