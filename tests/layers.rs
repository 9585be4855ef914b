//! The crate map of ARCHITECTURE.md, checked against the Cargo.toml files: every workspace crate
//! is on the map, and each depends only on what its layer allows (normal and build dependencies;
//! tests, examples and benchmarks separately). A dependency added against the map fails here,
//! with the rule it breaks.

use std::collections::BTreeSet;
use std::path::Path;

/// One crate of the map: where it is, what it may depend on, and why.
struct Entry {
    /// The crate's folder, relative to the workspace root.
    dir: &'static str,
    /// Allowed in `[dependencies]` and `[build-dependencies]`.
    deps: &'static [&'static str],
    /// Allowed in `[dev-dependencies]` besides `deps` (tests, examples, benchmarks).
    dev: &'static [&'static str],
    /// The rule, for the failure message.
    why: &'static str,
}

const PARTICIPANTS: &[&str] = &["tidelink-mbs", "tidelink-tdpf", "tidelink-buoyancy", "tidelink-sph"];

/// Crates that package one participant's model for other tools (the MBS FMU reads its model
/// files with the participant's reader): each may depend on that participant, and only on it.
const PACKAGINGS: &[(&str, &str)] = &[("participants/mbs/fmu", "tidelink-mbs")];

/// Crates every participant may use (besides its own solver and formats).
const PARTICIPANT_COMMON: &[&str] = &[
    "tidelink-adapter-core",
    "nalgebra",
    "serde",
    "serde_yaml",
    "serde_json",
    "thiserror",
    "anyhow",
    "log",
    "env_logger",
    "clap",
    "tidelink-shared-data",
];

const MAP: &[Entry] = &[
    Entry {
        dir: "coupling/config",
        deps: &["quick-xml", "log", "strsim", "uuid", "tidelink-shared-data"],
        dev: &["tempfile"],
        why: "the preCICE configuration knows no engine, adapter, YAML or command line",
    },
    Entry {
        dir: "coupling/engine",
        deps: &[
            "tidelink-precice-config",
            "thiserror",
            "log",
            "nalgebra",
            // The RBF mappings' dense factorisations and solves (blocked, vectorised).
            "faer",
            // The mappings' spatial searches (R*-trees) and their parallel loops.
            "rstar",
            "rayon",
            "uuid",
            "socket2",
            "if-addrs",
            // Partners prove they hold the run's secret (HMAC-SHA256), secrets and nonces from the
            // operating system, file owners checked against the effective user (docs/security.md).
            "hmac",
            "sha2",
            "getrandom",
            "libc",
            "tempfile",
            "tidelink-shared-data",
            "precice",
        ],
        // The export tests parse the JSON their independent reader prints.
        dev: &["serde_json"],
        why: "the engine depends on the configuration only (no adapter layer, YAML or clap)",
    },
    Entry {
        dir: "bindings/python",
        deps: &["tidelink-coupling", "pyo3", "numpy", "env_logger"],
        dev: &[],
        why: "the Python module is the engine's API for Python: the coupling crate and the interpreter's, no adapter layer",
    },
    Entry {
        dir: "adapter-core",
        deps: &[
            // SIGINT/SIGTERM/SIGHUP turned into a stop at the next step (output whole).
            "ctrlc",
            "tidelink-precice-config",
            "tidelink-coupling",
            "tidelink-mesh",
            "thiserror",
            "clap",
            "env_logger",
            "serde",
            "serde_yaml",
            "serde_json",
            "log",
            "nix",
            "tempfile",
            "tidelink-shared-data",
        ],
        dev: &[],
        why: "the adapter layer sits on the engine and the configuration; it knows no solver or participant",
    },
    Entry { dir: "formats/hydro-data", deps: &["nalgebra"], dev: &[], why: "the data model is plain numbers" },
    Entry {
        dir: "formats/bemio",
        deps: &["tidelink-hydro-data", "nalgebra", "thiserror", "hdf5-metno"],
        dev: &["tempfile"],
        why: "a file format knows its data model only",
    },
    Entry {
        dir: "formats/vtk",
        deps: &["thiserror", "quick-xml"],
        dev: &["tempfile"],
        why: "a file format needs no solver",
    },
    Entry {
        dir: "formats/mesh",
        deps: &["thiserror", "tobj", "stl_io"],
        dev: &["tempfile"],
        why: "the mesh reader knows only the file formats",
    },
    Entry {
        dir: "participants/mbs/solver",
        // faer: the sparse LU (fill-reducing ordering) of large saddle systems.
        deps: &["nalgebra", "faer", "thiserror"],
        dev: &["tempfile"],
        why: "a solver library is physics only",
    },
    Entry {
        dir: "participants/buoyancy/solver",
        deps: &["nalgebra", "thiserror"],
        dev: &["tempfile"],
        why: "a solver library is physics only",
    },
    Entry {
        dir: "participants/tdpf/solver",
        // rayon: the radiation identification fits its IRF entries in parallel (same bits as serial).
        deps: &["tidelink-hydro-data", "nalgebra", "thiserror", "rand", "rand_chacha", "rayon"],
        dev: &["tempfile"],
        why: "a solver library is physics only (and the data model it computes on)",
    },
    Entry {
        dir: "participants/sph/solver",
        deps: &["nalgebra", "rayon", "thiserror", "tidelink-mesh"],
        dev: &["tidelink-plot", "libc", "tempfile", "serde_json", "stl_io"],
        why: "a solver library is physics only (and the body meshes it reads); tests and examples may plot, time \
              and read a reference file",
    },
    Entry {
        dir: "pto/host",
        // getrandom: the module's token; nix: its parent-death signal and process group.
        deps: &["tidelink-mbs-solver", "serde_json", "thiserror", "log", "getrandom", "nix", "clap", "anyhow"],
        dev: &["tempfile"],
        why: "the external-module host knows the solver's ExternalLaw only: no coupling stack, no participant",
    },
    Entry {
        dir: "participants/mbs",
        deps: &[
            "tidelink-mbs-solver",
            "tidelink-bemio",
            "hdf5-metno",
            // The HDF5 writer's growing (chunked) datasets take ndarray views (hdf5-metno's own).
            "ndarray",
            "tidelink-plot",
            "tidelink-vtk",
            "tidelink-mesh",
            "tidelink-pto",
        ],
        dev: &["tempfile"],
        why: "a participant: the adapter layer, its solver, formats; never another participant",
    },
    Entry {
        dir: "participants/mbs/fmu",
        deps: &["tidelink-mbs-solver", "tidelink-mbs", "nalgebra", "zip", "serde_yaml", "tidelink-shared-data"],
        dev: &["tempfile", "tidelink-shared-data"],
        why: "the MBS FMU: its solver and the MBS participant's model reader; no other participant, no coupling stack",
    },
    Entry {
        dir: "participants/tdpf",
        // sha2, tempfile, libc: the radiation realisation cache (key, atomic private files, owner).
        deps: &["tidelink-tdpf-solver", "tidelink-bemio", "sha2", "tempfile", "libc"],
        dev: &["tempfile", "tidelink-hydro-data"],
        why: "a participant: the adapter layer, its solver, formats; never another participant",
    },
    Entry {
        dir: "participants/buoyancy",
        deps: &["tidelink-buoyancy-solver"],
        dev: &["tempfile"],
        why: "a participant: the adapter layer, its solver; never another participant",
    },
    Entry {
        dir: "participants/sph",
        deps: &["tidelink-sph-solver", "tidelink-vtk"],
        dev: &["tempfile"],
        why: "a participant: the adapter layer, its solver, formats; never another participant",
    },
    Entry {
        dir: "tools/plot",
        deps: &["plotters", "dejavu", "thiserror"],
        dev: &["tempfile"],
        why: "the chart crate draws series it is given; it reads no file of ours and knows no solver",
    },
    Entry { dir: "tools/shared-data", deps: &[], dev: &[], why: "a build-script helper has no dependencies" },
    Entry {
        dir: ".",
        deps: &[
            "tidelink-adapter-core",
            "anyhow",
            "clap",
            "serde",
            "serde_yaml",
            "log",
            "env_logger",
            "ctrlc",
            "serde_json",
            "nix",
            "sha2",
            "indicatif",
            "tidelink-plot",
            "tidelink-shared-data",
        ],
        // The root tests/ are where participants talk to each other.
        dev: &[
            "nalgebra",
            "tidelink-mbs",
            "tidelink-buoyancy",
            "tidelink-tdpf",
            "tidelink-sph",
            "tidelink-pto",
            "tidelink-vtk",
            "tidelink-mbs-solver",
            "tidelink-tdpf-solver",
            "tidelink-bemio",
            "tempfile",
            "hdf5-metno",
        ],
        why: "the launcher knows the adapter layer (and the chart crate, for the sweep's heat maps) only; participants only in the end-to-end tests",
    },
];

fn read(manifest: &str) -> String {
    let path = Path::new(env!("CARGO_MANIFEST_DIR")).join(manifest);
    std::fs::read_to_string(&path).unwrap_or_else(|e| panic!("read {}: {e}", path.display()))
}

/// The dependency names of `section` (`dependencies`, `dev-dependencies`, ...) in a Cargo.toml.
fn deps(manifest: &str, section: &str) -> BTreeSet<String> {
    let mut out = BTreeSet::new();
    let mut inside = false;
    for line in read(manifest).lines().map(str::trim) {
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

/// The folders listed in the root manifest's `[workspace] members`.
fn members() -> Vec<String> {
    let root = read("Cargo.toml");
    let start = root.find("members = [").expect("a members list");
    let list = &root[start..root[start..].find(']').map(|e| start + e).expect("the end of the members list")];
    list.split('"').skip(1).step_by(2).map(str::to_string).collect()
}

fn manifest(dir: &str) -> String {
    if dir == "." {
        "Cargo.toml".to_string()
    } else {
        format!("{dir}/Cargo.toml")
    }
}

#[test]
fn every_workspace_crate_is_on_the_map() {
    let members = members();
    assert!(members.len() > 10, "read the members list: {members:?}");
    for m in &members {
        assert!(MAP.iter().any(|e| e.dir == m), "workspace member {m} is not on the crate map of tests/layers.rs");
    }
    for e in MAP {
        assert!(members.iter().any(|m| m == e.dir), "{} is on the map but not a workspace member", e.dir);
    }
}

#[test]
fn every_crate_depends_only_on_what_its_layer_allows() {
    for e in MAP {
        let participant = e.dir.starts_with("participants/") && !e.dir.ends_with("/solver");
        let allowed = |d: &str| e.deps.contains(&d) || (participant && PARTICIPANT_COMMON.contains(&d));
        for section in ["dependencies", "build-dependencies"] {
            for d in deps(&manifest(e.dir), section) {
                assert!(allowed(&d), "{} [{section}] has `{d}`: {}", manifest(e.dir), e.why);
            }
        }
        for d in deps(&manifest(e.dir), "dev-dependencies") {
            assert!(
                allowed(&d) || e.dev.contains(&d.as_str()),
                "{} [dev-dependencies] has `{d}`: {}",
                manifest(e.dir),
                e.why
            );
        }
    }
}

#[test]
fn participants_never_depend_on_each_other() {
    for e in MAP.iter().filter(|e| e.dir != ".") {
        for section in ["dependencies", "dev-dependencies", "build-dependencies"] {
            for p in PARTICIPANTS.iter().filter(|p| !PACKAGINGS.contains(&(e.dir, **p))) {
                assert!(
                    !deps(&manifest(e.dir), section).contains(*p),
                    "{} [{section}] has `{p}`: participants never know each other (nor does anything below them); a \
                     test where two participants talk belongs in the root tests/",
                    manifest(e.dir)
                );
            }
        }
    }
}

#[test]
fn the_parser_sees_what_a_manifest_lists() {
    // Guards the tests above against reading nothing.
    let mbs = deps("participants/mbs/Cargo.toml", "dependencies");
    assert!(mbs.contains("tidelink-mbs-solver") && mbs.contains("tidelink-adapter-core"), "{mbs:?}");
    assert!(deps("coupling/engine/Cargo.toml", "dependencies").contains("tidelink-precice-config"));
}
