//! Pieces shared by the root tests (`mod support;` in each): one copy of each reference table,
//! and the participant programs that `tidelink run` starts, built next to the `tidelink` under
//! test.

use std::path::{Path, PathBuf};
use std::process::Command;

/// Hulme (1982) heave coefficients of a floating hemisphere of radius a, K = ω²a/g:
/// (K, A33/(ρV), B33/(ρωV)), V = ⅔πa³.
///
/// Source: A. Hulme, *The wave forces acting on a floating hemisphere undergoing forced periodic
/// oscillations*, J. Fluid Mech. 121 (1982) 443–463, heave table, as transcribed in the test suite
/// of MarineHydro.jl (symbiotic-engineering/MarineHydro.jl); docs/hydro.md gives the same source
/// and the K = 0.1 … 3 rows against Capytaine. Used whole by tests/sphere_decay.rs (its synthetic
/// file needs the whole band, K = 0.05 and 4 … 10 included) and, on the K = 0.1 … 3 rows that
/// `hydro/examples/hemisphere.yaml` computes, by tests/hydro.rs.
#[allow(dead_code)]
pub const HULME: &[(f64, f64, f64)] = &[
    (0.05, 0.8764, 0.1036),
    (0.1, 0.8627, 0.1816),
    (0.2, 0.7938, 0.2793),
    (0.3, 0.7157, 0.3254),
    (0.4, 0.6452, 0.3410),
    (0.5, 0.5861, 0.3391),
    (0.6, 0.5381, 0.3271),
    (0.7, 0.4999, 0.3098),
    (0.8, 0.4698, 0.2899),
    (0.9, 0.4464, 0.2691),
    (1.0, 0.4284, 0.2484),
    (1.2, 0.4047, 0.2096),
    (1.4, 0.3924, 0.1756),
    (1.6, 0.3871, 0.1469),
    (1.8, 0.3864, 0.1229),
    (2.0, 0.3884, 0.1031),
    (2.5, 0.3988, 0.0674),
    (3.0, 0.4111, 0.0452),
    (4.0, 0.4322, 0.0219),
    (5.0, 0.4471, 0.0116),
    (6.0, 0.4574, 0.0066),
    (7.0, 0.4647, 0.0040),
    (8.0, 0.4700, 0.0026),
    (9.0, 0.4740, 0.0017),
    (10.0, 0.4771, 0.0012),
];

/// Hulme's infinite-frequency heave added mass of the hemisphere, A∞/(ρV) (his K → ∞ limit;
/// the table tends to it from below: 0.4771 at K = 10).
#[allow(dead_code)]
pub const A_INF_BAR: f64 = 0.5;

/// Builds the participant programs `bins` (package, binary) with the profile, target folder and
/// target triple of the `tidelink` under test, so that `tidelink run` finds them next to itself,
/// up to date, rather than a stale copy or one of another profile (or one on PATH). Returns that
/// folder; panics naming a program that is still missing.
///
/// They are built by `cargo test --workspace --no-run`, the build `scripts/test.sh` has just
/// done: with the same packages and features, cargo finds every library and program up to date
/// and does nothing. (A `cargo build -p …` resolves the dependencies' features without the
/// dev-dependencies and rebuilt nalgebra, serde, clap and everything above them: minutes.) The
/// Python suite builds its Rust programs the same way (bindings/python/tests/support.py). When
/// this test is built with the feature `precice`, the programs get it too.
#[allow(dead_code)]
pub fn participant_programs(bins: &[(&str, &str)]) -> PathBuf {
    let tidelink = Path::new(env!("CARGO_BIN_EXE_tidelink"));
    let bin_dir = tidelink.parent().expect("the folder of tidelink");
    let profile_dir = bin_dir.file_name().and_then(|n| n.to_str()).expect("a profile folder name");
    // <target>/<profile>/tidelink, or <target>/<triple>/<profile>/tidelink under `--target`; cargo
    // marks the target folder itself with CACHEDIR.TAG.
    let above = bin_dir.parent().expect("the target folder");
    let (target_dir, triple) = match above.parent() {
        Some(root) if !above.join("CACHEDIR.TAG").is_file() && root.join("CACHEDIR.TAG").is_file() => {
            (root, above.file_name().and_then(|n| n.to_str()))
        }
        _ => (above, None),
    };
    let mut cargo = Command::new(env!("CARGO"));
    cargo.args(["test", "--workspace", "--no-run", "--quiet", "--target-dir"]).arg(target_dir);
    match profile_dir {
        "debug" => {}
        "release" => {
            cargo.arg("--release");
        }
        other => {
            cargo.args(["--profile", other]);
        }
    }
    if let Some(t) = triple {
        cargo.args(["--target", t]);
    }
    if cfg!(feature = "precice") {
        let mut features = vec!["tidelink-adapter-core/precice".to_string()];
        features.extend(bins.iter().map(|(package, _)| format!("{package}/precice")));
        cargo.arg("--features").arg(features.join(","));
    }
    let status = cargo.status().unwrap_or_else(|e| panic!("cannot run {:?}: {e}", cargo));
    assert!(status.success(), "{cargo:?} failed ({status})");
    for (package, bin) in bins {
        let p = bin_dir.join(bin);
        assert!(p.is_file(), "{} (package {package}) is missing after {cargo:?}", p.display());
    }
    bin_dir.to_path_buf()
}

/// Temporary copies of the shipped cases and the `tidelink` binary's output, for the tests that
/// run the binary.
pub mod case;

/// The rm3_reg_waves case in its two couplings (tests/rm3_reg_waves.rs, benches/rm3.rs).
pub mod rm3_case;

/// The participants as jobs for a coupled run in threads.
pub mod in_threads;

/// A folder of the repository copied with edits into a temporary case, for runs in threads.
pub mod temp_copy;

/// Processes as Linux's /proc shows them: the descendants of a process, whether one still runs.
#[cfg(target_os = "linux")]
pub mod procs;

/// The files of the shipped configs/sphere_drop case, for tests that copy it.
#[allow(dead_code)]
pub const SPHERE_DROP_FILES: &[&str] = &[
    "tidelink.yaml",
    "precice-config.xml",
    "fluid/participant.yaml",
    "fluid/buoyancy_model.yaml",
    "solid/participant.yaml",
    "solid/model.yaml",
    "solid/solver.yaml",
];

#[allow(dead_code)]
/// Writes a copy of configs/sphere_drop into `dir` that runs `windows` windows of 1 ms, with
/// `(file, from, to)` edits.
pub fn sphere_drop_case(dir: &Path, windows: u64, edits: &[(&str, &str, &str)]) {
    let root = Path::new(env!("CARGO_MANIFEST_DIR")).join("configs/sphere_drop");
    let windows = format!("<max-time-windows value=\"{windows}\" />");
    let all: Vec<(&str, &str, &str)> =
        std::iter::once(("precice-config.xml", "<max-time-windows value=\"1000\" />", windows.as_str()))
            .chain(edits.iter().copied())
            .collect();
    for f in SPHERE_DROP_FILES {
        let mut text = std::fs::read_to_string(root.join(f)).unwrap_or_else(|e| panic!("read {f}: {e}"));
        for (_, from, to) in all.iter().filter(|e| e.0 == *f) {
            assert!(text.contains(from), "{f} has no `{from}`");
            text = text.replace(from, to);
        }
        let p = dir.join(f);
        std::fs::create_dir_all(p.parent().expect("a folder")).expect("create folder");
        std::fs::write(p, text).expect("write case file");
    }
}
