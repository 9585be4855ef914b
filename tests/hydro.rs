//! `tidelink hydro`: description errors (fast), and generated files checked through our BEMIO reader
//! against Hulme (1982) and the WAMIT-derived RM3 file (ignored: they need PyPI for the first install,
//! a one-off ~2 min Green-function table, and minutes of CPU; run with `--ignored`, see docs/hydro.md).

use std::path::{Path, PathBuf};
use std::process::Command;
use tidelink_bemio as bemio;

mod support;
use support::HULME;

fn repo(rel: &str) -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR")).join(rel)
}

/// Runs `tidelink hydro <description> -o <out>`; returns (success, stdout + stderr).
fn hydro(description: &Path, out: &Path) -> (bool, String) {
    let o = Command::new(env!("CARGO_BIN_EXE_tidelink"))
        .arg("hydro")
        .arg(description)
        .arg("-o")
        .arg(out)
        .output()
        .expect("tidelink starts");
    let text = String::from_utf8_lossy(&o.stdout).to_string() + &String::from_utf8_lossy(&o.stderr);
    (o.status.success(), text)
}

fn rel_diff(ours: f64, reference: f64) -> f64 {
    (ours - reference).abs() / reference.abs()
}

/// Writes a description of two frequencies and the body `body` (its YAML lines, from line 3 of
/// the file) as `name` in a new folder and runs `tidelink hydro` on it: (the folder, the
/// description's path, success, stdout + stderr).
fn hydro_on_body(name: &str, body: &str) -> (tempfile::TempDir, PathBuf, bool, String) {
    let dir = tempfile::tempdir().unwrap();
    let desc = dir.path().join(name);
    std::fs::write(&desc, format!("frequencies: {{min: 0.5, max: 1.0, count: 2}}\nbodies:\n{body}")).unwrap();
    let (ok, out) = hydro(&desc, &dir.path().join("x.h5"));
    (dir, desc, ok, out)
}

#[test]
fn bad_key_is_reported_with_file_and_line() {
    let body = concat!("  - name: b\n", "    kind: sphere\n", "    radus: 2\n", "    cg: [0, 0, 0]\n");
    let (_dir, desc, ok, out) = hydro_on_body("bad.yaml", body);
    assert!(!ok, "{out}");
    assert!(out.contains(&format!("{}:5:", desc.display())) && out.contains("radus"), "{out}");
}

#[test]
fn missing_kind_key_is_reported_at_the_body() {
    let body = concat!("  - name: c\n", "    kind: cylinder\n", "    radius: 2\n", "    cg: [0, 0, 0]\n");
    let (_dir, _, ok, out) = hydro_on_body("cyl.yaml", body);
    assert!(!ok && out.contains(":3:") && out.contains("`draft`"), "{out}");
}

/// `--wamit STEM` names the run's files that are missing before any Python starts, and needs
/// `--output`.
#[test]
fn wamit_import_names_the_missing_files() {
    let dir = tempfile::tempdir().unwrap();
    std::fs::write(dir.path().join("run.1"), "header\n").unwrap();
    let stem = dir.path().join("run");
    let o = Command::new(env!("CARGO_BIN_EXE_tidelink"))
        .args(["hydro", "--wamit"])
        .arg(&stem)
        .arg("-o")
        .arg(dir.path().join("x.h5"))
        .output()
        .expect("tidelink starts");
    let text = String::from_utf8_lossy(&o.stderr);
    assert!(!o.status.success(), "{text}");
    assert!(text.contains("run.hst") && text.contains("run.mmx") && text.contains("run.pot"), "{text}");
    assert!(!text.contains("run.1,") && text.contains("without extension"), "{text}");
    let o = Command::new(env!("CARGO_BIN_EXE_tidelink")).args(["hydro", "--wamit"]).arg(&stem).output().unwrap();
    assert!(!o.status.success() && String::from_utf8_lossy(&o.stderr).contains("--output"));
}

#[test]
fn missing_python_is_a_clear_error() {
    let dir = tempfile::tempdir().unwrap();
    let o = Command::new(env!("CARGO_BIN_EXE_tidelink"))
        .arg("hydro")
        .arg(repo("hydro/examples/hemisphere.yaml"))
        .env("TIDELINK_CACHE_DIR", dir.path())
        .env("TIDELINK_PYTHON", dir.path().join("no-such-python3"))
        .output()
        .expect("tidelink starts");
    let err = String::from_utf8_lossy(&o.stderr);
    assert!(!o.status.success());
    assert!(err.contains("cannot start") && err.contains("TIDELINK_PYTHON"), "{err}");
}

/// The rows of Hulme's table (tests/support/mod.rs) at the frequencies of
/// `hydro/examples/hemisphere.yaml`: K = ω²a/g from 0.1 to 3.
fn hulme_rows() -> impl Iterator<Item = &'static (f64, f64, f64)> {
    HULME.iter().filter(|r| (0.1..=3.0).contains(&r.0))
}

/// Those rows are exactly the frequencies the description computes (no Python needed).
#[test]
fn hemisphere_example_computes_the_hulme_rows_compared() {
    let text = std::fs::read_to_string(repo("hydro/examples/hemisphere.yaml")).expect("read hemisphere.yaml");
    let y: serde_yaml::Value = serde_yaml::from_str(&text).expect("hemisphere.yaml is YAML");
    let (a, g) = (y["bodies"][0]["radius"].as_f64().expect("radius"), y["g"].as_f64().expect("g"));
    let omega = y["frequencies"]["values"].as_sequence().expect("frequencies.values");
    let k: Vec<f64> = omega.iter().map(|w| w.as_f64().expect("a number").powi(2) * a / g).collect();
    let rows: Vec<f64> = hulme_rows().map(|r| r.0).collect();
    assert_eq!(k.len(), rows.len(), "K of the description {k:?}, of the table {rows:?}");
    for (ours, hulme) in k.iter().zip(&rows) {
        assert!((ours - hulme).abs() < 1e-3 * hulme, "K {ours} of the description vs Hulme's {hulme}");
    }
}

#[test]
#[ignore = "needs the Python environment (PyPI) and ~2 min of CPU on first use"]
fn hemisphere_heave_matches_hulme_within_2_percent_and_is_cached() {
    let dir = tempfile::tempdir().unwrap();
    let out = dir.path().join("hemisphere.h5");
    let (ok, text) = hydro(&repo("hydro/examples/hemisphere.yaml"), &out);
    assert!(ok, "{text}");
    let data = bemio::read(&out).expect("our reader accepts the file");
    let (a, volume) = (5.0_f64, 2.0 / 3.0 * std::f64::consts::PI * 125.0);
    let body = &data.bodies[0];
    for &(k, ha, hb) in hulme_rows() {
        let f = data.omega.iter().position(|w| (w * w * a / data.g - k).abs() < 1e-3 * k).expect("Hulme's K");
        let w = data.omega[f];
        let ca = body.added_mass[f][(2, 2)] / (data.rho * volume);
        let cb = body.radiation_damping[f][(2, 2)] / (data.rho * w * volume);
        assert!(rel_diff(ca, ha) < 0.02, "K {k}: A {ca} vs Hulme {ha}");
        assert!(rel_diff(cb, hb) < 0.02, "K {k}: B {cb} vs Hulme {hb}");
    }
    // The second run comes from the cache: it says so, runs no solve (no progress lines, no
    // "generated in"), and leaves the cached file untouched (same modification time).
    let cached = cached_file(&text);
    let stamp = || std::fs::metadata(&cached).and_then(|m| m.modified()).expect("the cached file's modification time");
    let before = stamp();
    let (ok, again) = hydro(&repo("hydro/examples/hemisphere.yaml"), &dir.path().join("again.h5"));
    assert!(ok && again.contains("cached result"), "{again}");
    assert!(!again.contains("generated in") && !again.contains("[hydro] ["), "the second run solved again:\n{again}");
    assert_eq!(cached_file(&again), cached, "{again}");
    assert_eq!(stamp(), before, "the second run rewrote the cached file {}", cached.display());
}

/// The cache file a `tidelink hydro` run reports: the path ending its "generated in … s: " or
/// "cached result (…): " line.
fn cached_file(text: &str) -> PathBuf {
    text.lines()
        .filter(|l| l.starts_with("[hydro] generated in ") || l.starts_with("[hydro] cached result "))
        .find_map(|l| l.split_once("): ").or_else(|| l.split_once(" s: ")).map(|(_, p)| PathBuf::from(p)))
        .unwrap_or_else(|| panic!("no cache file named in:\n{text}"))
}

/// Linear interpolation of `f(i)` over the ascending `w` at `w0`.
fn at(w: &[f64], w0: f64, f: impl Fn(usize) -> f64) -> f64 {
    let i = w.partition_point(|x| *x < w0).clamp(1, w.len() - 1);
    let s = (w0 - w[i - 1]) / (w[i] - w[i - 1]);
    f(i - 1) + s * (f(i) - f(i - 1))
}

#[test]
#[ignore = "needs the Python environment (PyPI), a few minutes of CPU and ../shared/data/rm3/rm3.h5"]
fn rm3_gdf_heave_matches_the_wamit_file_at_8_s() {
    let reference = tidelink_adapter_core::testing::shared_path("data/rm3/rm3.h5");
    let dir = tempfile::tempdir().unwrap();
    let out = dir.path().join("rm3_gdf.h5");
    let (ok, text) = hydro(&repo("configs/rm3_reg_waves/hydro/rm3_gdf.yaml"), &out);
    assert!(ok, "{text}");
    let ours = bemio::read(&out).expect("our reader accepts the file");
    let wamit = bemio::read(&reference).unwrap();
    let w0 = 2.0 * std::f64::consts::PI / 8.0;
    // (name, body, row, column) of the heave terms: float 3, spar 9, coupling 3-9.
    for (name, b, r, c) in [("33", 0, 2, 2), ("99", 1, 2, 8), ("39", 0, 2, 8)] {
        let a = |d: &bemio::HydroData| at(&d.omega, w0, |f| d.bodies[b].added_mass[f][(r, c)]);
        let bb = |d: &bemio::HydroData| at(&d.omega, w0, |f| d.bodies[b].radiation_damping[f][(r, c)]);
        let ainf = |d: &bemio::HydroData| d.bodies[b].added_mass_inf[(r, c)];
        for (what, o, w) in
            [("A", a(&ours), a(&wamit)), ("B", bb(&ours), bb(&wamit)), ("Ainf", ainf(&ours), ainf(&wamit))]
        {
            println!("{what}{name}: ours {o:.5e}, WAMIT {w:.5e}, {:+.2} %", 100.0 * (o - w) / w.abs());
            assert!(rel_diff(o, w) < 0.02, "{what}{name}: {o} vs {w}");
        }
    }
    for (name, b) in [("3", 0), ("9", 1)] {
        let x = |d: &bemio::HydroData| {
            let re = at(&d.omega, w0, |f| d.bodies[b].excitation.re[f][(2, 0)]);
            let im = at(&d.omega, w0, |f| d.bodies[b].excitation.im[f][(2, 0)]);
            (re.hypot(im), im.atan2(re).to_degrees())
        };
        let ((mo, po), (mw, pw)) = (x(&ours), x(&wamit));
        println!("|X{name}|: ours {mo:.5e} at {po:+.1}°, WAMIT {mw:.5e} at {pw:+.1}°");
        assert!(rel_diff(mo, mw) < 0.02, "|X{name}|: {mo} vs {mw}");
        assert!((po - pw).abs() < 1.0, "phase of X{name}: {po}° vs {pw}° (exp(-iωt) not conjugated?)");
    }
    let float_phase = x_phase(&ours, w0);
    assert!((float_phase - 17.3).abs() < 1.0, "float heave excitation phase {float_phase}° (WAMIT: +17.3°)");
}

fn x_phase(d: &bemio::HydroData, w0: f64) -> f64 {
    let re = at(&d.omega, w0, |f| d.bodies[0].excitation.re[f][(2, 0)]);
    let im = at(&d.omega, w0, |f| d.bodies[0].excitation.im[f][(2, 0)]);
    im.atan2(re).to_degrees()
}
