//! The shipped sphere_drop case on both coupling backends: `tidelink run` with the manifest
//! key `backend: native`, then `backend: precice`, must give the same trajectory to 1e-12.
//!
//! Only compiled with the feature (`cargo test --features precice --test differential_sphere_drop`;
//! needs libprecice 3.4 via pkg-config, docs/precice-backend.md). preCICE keeps process-wide
//! state, so the participants run as the processes `tidelink run` starts; this test builds
//! `tidelink-mbs` and `tidelink-buoyancy` with the feature first, next to the `tidelink` under
//! test (same profile and target folder: tests/support/mod.rs).

#![cfg(feature = "precice")]

use std::path::{Path, PathBuf};
use std::process::Command;
use tidelink_mbs::io::output::{self, Row};

mod support;

const FILES: &[&str] = support::SPHERE_DROP_FILES;

/// The participant programs next to `tidelink`, built on the real library (this file is only
/// compiled with the feature `precice`, which `support::participant_programs` passes on).
fn build_participants() {
    support::participant_programs(&[("tidelink-mbs", "tidelink-mbs"), ("tidelink-buoyancy", "tidelink-buoyancy")]);
}

/// Runs a copy of configs/sphere_drop with `backend` in its manifest; the ball's rows.
fn run_case(backend: &str) -> Vec<Row> {
    let dir = tempfile::tempdir().expect("temporary case folder");
    let root = Path::new(env!("CARGO_MANIFEST_DIR")).join("configs/sphere_drop");
    for f in FILES {
        let to = dir.path().join(f);
        std::fs::create_dir_all(to.parent().expect("a folder")).expect("case sub-folder");
        std::fs::copy(root.join(f), &to).unwrap_or_else(|e| panic!("copy {f}: {e}"));
    }
    let manifest = dir.path().join("tidelink.yaml");
    let text = std::fs::read_to_string(&manifest).expect("read the manifest");
    std::fs::write(&manifest, format!("{text}backend: {backend}\n")).expect("write the manifest");
    let tidelink = PathBuf::from(env!("CARGO_BIN_EXE_tidelink"));
    let out = Command::new(&tidelink).arg("run").arg(dir.path()).output().expect("start tidelink run");
    let log = String::from_utf8_lossy(&out.stdout).to_string() + &String::from_utf8_lossy(&out.stderr);
    assert!(out.status.success(), "tidelink run on {backend}:\n{log}");
    // Guard against a silent fallback: both participants greet with libprecice's version.
    let banners = log.matches("This is preCICE version 3.4").count();
    assert_eq!(banners, if backend == "precice" { 2 } else { 0 }, "libprecice banners on {backend}:\n{log}");
    output::read(&dir.path().join("solid/output/ball.csv")).expect("the ball's CSV")
}

#[test]
fn sphere_drop_trajectory_is_the_same_on_both_backends() {
    build_participants();
    let native = run_case("native");
    let real = run_case("precice");
    assert_eq!(native.len(), real.len(), "rows native vs preCICE");
    assert_eq!(native.len(), 1001, "one row per 1 ms window plus the initial one");
    let mut worst = 0.0f64;
    for (i, (a, b)) in native.iter().zip(&real).enumerate() {
        assert_eq!(a.time, b.time, "row {i}: time");
        let fields = [
            ("position", a.position, b.position),
            ("velocity", a.linvel, b.linvel),
            ("force", a.force, b.force),
            ("rotation", a.rotation, b.rotation),
        ];
        for (what, x, y) in fields {
            let d = (x - y).abs().max();
            worst = worst.max(d);
            assert!(d <= 1e-12, "row {i} (t = {}): {what} native {x:?} vs preCICE {y:?}", a.time);
        }
    }
    let drop = native[0].position.z - native.iter().map(|r| r.position.z).fold(f64::INFINITY, f64::min);
    println!("sphere_drop: {} rows, max |native − preCICE| = {worst:e}; the ball sank {drop:.4} m", native.len());
    assert!(drop > 0.05, "the ball moved");
}
