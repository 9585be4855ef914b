//! The layering of ARCHITECTURE.md, read from the Cargo.toml files: solver crates depend on
//! numerics only, formats on nothing of ours but the data model, participants never on each
//! other (not even for tests). A dependency added against these rules fails here, with the rule.

use std::collections::BTreeSet;
use std::path::Path;

/// The dependency names of `section` (`dependencies`, `dev-dependencies`) in a Cargo.toml.
fn deps(manifest: &str, section: &str) -> BTreeSet<String> {
    let path = Path::new(env!("CARGO_MANIFEST_DIR")).join(manifest);
    let text = std::fs::read_to_string(&path).unwrap_or_else(|e| panic!("read {}: {e}", path.display()));
    let mut out = BTreeSet::new();
    let mut inside = false;
    for line in text.lines().map(str::trim) {
        if line.starts_with('[') {
            inside = line == format!("[{section}]");
            continue;
        }
        if inside && !line.is_empty() && !line.starts_with('#') {
            let name = line.split(['=', '.', ' ']).next().unwrap_or_default();
            out.insert(name.to_string());
        }
    }
    out
}

/// Every dependency of `manifest` (normal and dev) must be in `allowed`.
fn only(manifest: &str, allowed: &[&str], why: &str) {
    for section in ["dependencies", "dev-dependencies", "build-dependencies"] {
        for d in deps(manifest, section) {
            assert!(allowed.contains(&d.as_str()), "{manifest} [{section}] has `{d}`: {why}");
        }
    }
}

const NUMERICS: &[&str] = &["nalgebra", "thiserror", "rand", "rand_chacha", "rayon", "tempfile"];

#[test]
fn solver_crates_depend_on_numerics_only() {
    let why = "a solver library is physics only (numerics crates; the data model it computes on)";
    only("participants/mbs/solver/Cargo.toml", NUMERICS, why);
    only("participants/buoyancy/solver/Cargo.toml", NUMERICS, why);
    let tdpf: Vec<&str> = NUMERICS.iter().copied().chain(["tidelink-hydro-data"]).collect();
    only("participants/tdpf/solver/Cargo.toml", &tdpf, why);
    only("formats/hydro-data/Cargo.toml", &["nalgebra"], "the data model is plain numbers");
    only("formats/vtk/Cargo.toml", &["thiserror", "quick-xml", "tempfile"], "a file format needs no solver");
    // The SPH solver also reads body meshes (tobj, stl_io); its tests, examples and benchmark
    // draw a PNG, read CPU time and read another code's JSON result file (tidelink-plot, libc,
    // serde_json), never the library itself.
    let sph: Vec<&str> = NUMERICS.iter().copied().chain(["tobj", "stl_io"]).collect();
    for section in ["dependencies", "build-dependencies"] {
        for d in deps("participants/sph/solver/Cargo.toml", section) {
            assert!(sph.contains(&d.as_str()), "participants/sph/solver/Cargo.toml [{section}] has `{d}`: {why}");
        }
    }
    let sph_dev: Vec<&str> = sph.iter().copied().chain(["tidelink-plot", "libc", "serde_json"]).collect();
    only_section(
        "participants/sph/solver/Cargo.toml",
        "dev-dependencies",
        &sph_dev,
        "tests and examples may plot, time and read a reference file, nothing more",
    );
}

/// Every dependency in one section of `manifest` must be in `allowed`.
fn only_section(manifest: &str, section: &str, allowed: &[&str], why: &str) {
    for d in deps(manifest, section) {
        assert!(allowed.contains(&d.as_str()), "{manifest} [{section}] has `{d}`: {why}");
    }
}

#[test]
fn participants_never_depend_on_each_other() {
    let participants = ["tidelink-mbs", "tidelink-tdpf", "tidelink-buoyancy", "tidelink-sph"];
    for (crate_name, manifest) in [
        ("tidelink-mbs", "participants/mbs/Cargo.toml"),
        ("tidelink-tdpf", "participants/tdpf/Cargo.toml"),
        ("tidelink-buoyancy", "participants/buoyancy/Cargo.toml"),
        ("tidelink-sph", "participants/sph/Cargo.toml"),
    ] {
        for section in ["dependencies", "dev-dependencies"] {
            let found = deps(manifest, section);
            for other in participants.iter().filter(|p| **p != crate_name) {
                assert!(
                    !found.contains(*other),
                    "{manifest} [{section}] has `{other}`: participants never know each other; a test where two \
                     participants talk belongs in the root tests/"
                );
            }
        }
    }
    for core in ["adapter-core/Cargo.toml", "formats/bemio/Cargo.toml", "formats/vtk/Cargo.toml"] {
        for section in ["dependencies", "dev-dependencies"] {
            let found = deps(core, section);
            assert!(
                found.iter().all(|d| !d.starts_with("tidelink-") || d == "tidelink-hydro-data"),
                "{core}: {found:?}"
            );
        }
    }
}

#[test]
fn the_plot_crate_knows_nothing_of_ours() {
    only(
        "tools/plot/Cargo.toml",
        &["plotters", "dejavu", "thiserror", "tempfile"],
        "the chart crate draws series it is given; it reads no file of ours and knows no solver",
    );
}

#[test]
fn the_parser_sees_what_a_manifest_lists() {
    // Guards the two tests above against reading nothing.
    let mbs = deps("participants/mbs/Cargo.toml", "dependencies");
    assert!(mbs.contains("tidelink-mbs-solver") && mbs.contains("tidelink-adapter-core"), "{mbs:?}");
}
