//! `tidelink sweep` end to end on a tiny grid of the flap with a Python damper module
//! (`configs/flap/external_pto`, no reference data needed): three cells over the stream's fluid
//! density, two at once, one of them broken on purpose (a negative density, which the stream
//! participant refuses). The two good cells finish and write their figures; the failed one is
//! reported with its reason and folder and makes the exit status 1; the matrix, the long table
//! and the heat map are written; every cell ran in its own copy of the case. A second sweep
//! reruns only the failed cell. A broken grid file is refused at its line before anything runs.

mod support;

use std::path::{Path, PathBuf};
use std::process::{Command, Output};
use support::case::text;

fn flap_case() -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR")).join("configs/flap/external_pto")
}

/// `tidelink sweep CASE GRID --jobs 2 -o OUT`, with the participant programs built first.
fn sweep(grid: &Path, out: &Path) -> Output {
    static BUILT: std::sync::Once = std::sync::Once::new();
    BUILT.call_once(|| {
        support::participant_programs(&[("tidelink-mbs", "tidelink-mbs"), ("tidelink-buoyancy", "tidelink-stream")]);
    });
    Command::new(env!("CARGO_BIN_EXE_tidelink"))
        .arg("sweep")
        .arg(flap_case())
        .arg(grid)
        .args(["--jobs", "2", "-o"])
        .arg(out)
        .output()
        .expect("run tidelink sweep")
}

const GRID: &str = "title: flap with a damper module in a stream
duration: 1.0
average_from: 0.5
rows:
  name: rho
  label: fluid density
  unit: kg/m3
  file: ../fluid/stream_model.yaml
  key: stream.fluid_density
  values: [1000, 500, -1]
power: {link: spring}
";

/// The trapezoidal mean of `<link>_power_W` over t >= 0.5 s in a cell's links.csv, worked out
/// here from the file.
fn mean_power(links: &Path) -> f64 {
    let text = std::fs::read_to_string(links).expect("links.csv");
    let rows: Vec<(f64, f64)> = text
        .lines()
        .filter(|l| !l.starts_with('#') && !l.starts_with("time_s"))
        .map(|l| {
            let c: Vec<f64> = l.split(',').map(|x| x.parse().expect("a number")).collect();
            (c[0], c[1])
        })
        .filter(|(t, _)| *t >= 0.5)
        .collect();
    let area: f64 = rows.windows(2).map(|w| 0.5 * (w[0].1 + w[1].1) * (w[1].0 - w[0].0)).sum();
    area / (rows[rows.len() - 1].0 - rows[0].0)
}

#[test]
fn a_tiny_grid_runs_two_at_once_reports_the_failed_cell_and_resumes() {
    let dir = tempfile::tempdir().expect("temporary folder");
    let grid = dir.path().join("grid.yaml");
    std::fs::write(&grid, GRID).expect("write the grid");
    let out = dir.path().join("out");
    let first = sweep(&grid, &out);
    let said = text(&first);
    assert_eq!(first.status.code(), Some(1), "one cell fails on purpose: {said}");
    assert!(said.contains("3 cells (0 finished before, 3 to run, 2 at once)"), "{said}");
    let failed = out.join("cells/rho=-1");
    assert!(
        said.contains("failed cell rho=-1: `tidelink run` exited with status 1")
            && said.contains("fluid_density")
            && said
                .contains(&format!("folder: {}", failed.canonicalize().expect("the failed cell's folder").display())),
        "{said}"
    );
    assert!(!failed.join("done.json").exists(), "a failed cell has no completion marker");
    // Each good cell: its own copy of the case, its own output, its marker.
    let mut powers = Vec::new();
    for rho in ["1000", "500"] {
        let cell = out.join(format!("cells/rho={rho}"));
        assert!(cell.join("done.json").is_file(), "{said}");
        let copied = std::fs::read_to_string(cell.join("case/fluid/stream_model.yaml")).expect("the cell's copy");
        assert!(copied.contains(&format!("fluid_density: {rho}")), "{copied}");
        powers.push(mean_power(&cell.join("case/external_pto/solid/output/links.csv")));
    }
    // The density changes the loads, so the two cells' figures differ (the link's power includes
    // its spring's, so over half a second it need not be positive).
    assert!(powers.iter().all(|p| p.is_finite()) && powers[0] != powers[1], "{powers:?}");
    let matrix = std::fs::read_to_string(out.join("mean_power_W.csv")).expect("the matrix");
    let rows: Vec<&str> = matrix.lines().filter(|l| !l.starts_with('#')).collect();
    assert_eq!(rows[0], "rho_kg_m3,", "{matrix}");
    assert_eq!(rows[3], "-1,", "a failed cell's entry is empty: {matrix}");
    for (row, p) in rows[1..3].iter().zip(&powers) {
        let value: f64 = row.split(',').nth(1).and_then(|v| v.parse().ok()).expect("a number");
        // The same integral of the same rows, summed in the same order: equal but for round-off.
        assert!((value - p).abs() <= 1e-12 * p.abs(), "{value} vs {p}: {matrix}");
    }
    let cells = std::fs::read_to_string(out.join("cells.csv")).expect("cells.csv");
    assert!(cells.lines().any(|l| l.starts_with("-1,failed,,,") && l.contains("fluid_density")), "{cells}");
    let png = std::fs::read(out.join("mean_power.png")).expect("the heat map");
    assert_eq!(&png[1..4], b"PNG");

    // Again: the finished cells are taken from their markers, only the failed one runs.
    let marker = out.join("cells/rho=1000/done.json");
    let before = std::fs::metadata(&marker).and_then(|m| m.modified()).expect("marker time");
    let second = sweep(&grid, &out);
    let said = text(&second);
    assert_eq!(second.status.code(), Some(1), "{said}");
    assert!(said.contains("3 cells (2 finished before, 1 to run, 1 at once)"), "{said}");
    assert!(said.contains("3 cells: 0 finished now, 2 finished before, 1 failed"), "{said}");
    assert_eq!(std::fs::metadata(&marker).and_then(|m| m.modified()).expect("marker time"), before);
    let again = std::fs::read_to_string(out.join("mean_power_W.csv")).expect("the matrix");
    assert_eq!(again, matrix, "the resumed matrix differs");
}

#[test]
fn a_broken_grid_is_refused_at_its_line_before_anything_runs() {
    let dir = tempfile::tempdir().expect("temporary folder");
    let grid = dir.path().join("grid.yaml");
    std::fs::write(&grid, GRID.replace("stream.fluid_density", "stream.fluid_densty")).expect("write the grid");
    let out = dir.path().join("out");
    let o = Command::new(env!("CARGO_BIN_EXE_tidelink"))
        .arg("sweep")
        .arg(flap_case())
        .arg(&grid)
        .arg("-o")
        .arg(&out)
        .output()
        .expect("run tidelink sweep");
    let said = text(&o);
    assert!(!o.status.success(), "{said}");
    assert!(
        said.contains(&format!(
            "{}:9: error: ../fluid/stream_model.yaml: no key `fluid_densty` under `stream` (did you mean `fluid_density`?)",
            grid.display()
        )),
        "{said}"
    );
    assert!(said.contains("the grid file does not check (1 error(s)); nothing was run"), "{said}");
    assert!(!out.exists(), "a refused grid created the output folder");
}
