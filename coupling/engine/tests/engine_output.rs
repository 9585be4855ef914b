//! Exports and watch-integrals through a real coupled run (docs/design/coupling-semantics.md
//! §13): the files libprecice would write, named and timed as it names and times them, with the
//! values the solvers wrote, read back by independent readers (meshio and Python's XML parser,
//! tests/support/read_export.py) where the project's Python environment has meshio.

mod common;

use common::*;
use std::path::Path;

/// Solid (first) sends Displacement, Fluid sends Heat back; serial-implicit, three windows of
/// size 1 with exactly two iterations each. The Solid exports its mesh in every format (vtp
/// every second window, vtk updating its series), the Fluid both its meshes every iteration.
const XML: &str = r#"<?xml version="1.0"?>
<precice-configuration>
  <data:vector name="Displacement"/>
  <data:scalar name="Heat"/>
  <mesh name="Solid-Mesh" dimensions="2">
    <use-data name="Displacement"/>
    <use-data name="Heat"/>
  </mesh>
  <mesh name="Fluid-Mesh" dimensions="2">
    <use-data name="Displacement"/>
    <use-data name="Heat"/>
  </mesh>
  <participant name="Solid">
    <provide-mesh name="Solid-Mesh"/>
    <write-data name="Displacement" mesh="Solid-Mesh"/>
    <read-data name="Heat" mesh="Solid-Mesh"/>
    <watch-integral name="Total" mesh="Solid-Mesh" scale-with-connectivity="true"/>
    <export:vtu directory="out"/>
    <export:vtp directory="out" every-n-time-windows="2"/>
    <export:vtk directory="out" update-series="true"/>
    <export:csv directory="out"/>
    <export:vtu directory="never" every-n-time-windows="0"/>
  </participant>
  <participant name="Fluid">
    <provide-mesh name="Fluid-Mesh"/>
    <receive-mesh name="Solid-Mesh" from="Solid"/>
    <read-data name="Displacement" mesh="Fluid-Mesh"/>
    <write-data name="Heat" mesh="Fluid-Mesh"/>
    <mapping:nearest-neighbor direction="read" from="Solid-Mesh" to="Fluid-Mesh" constraint="consistent"/>
    <mapping:nearest-neighbor direction="write" from="Fluid-Mesh" to="Solid-Mesh" constraint="conservative"/>
    <export:vtu directory="iterations" every-iteration="true"/>
  </participant>
  <m2n:sockets acceptor="Solid" connector="Fluid" exchange-directory="{dir}"/>
  <coupling-scheme:serial-implicit>
    <participants first="Solid" second="Fluid"/>
    <max-time-windows value="3"/>
    <time-window-size value="1"/>
    <min-iterations value="2"/>
    <max-iterations value="2"/>
    <exchange data="Displacement" mesh="Solid-Mesh" from="Solid" to="Fluid"/>
    <exchange data="Heat" mesh="Solid-Mesh" from="Fluid" to="Solid"/>
  </coupling-scheme:serial-implicit>
</precice-configuration>
"#;

/// Both meshes: three vertices, the same positions.
const VERTICES: [f64; 6] = [0.0, 0.0, 1.0, 0.0, 2.0, 0.5];

/// What the Solid writes at vertex i in window k: (k + i/4, 1 − i).
fn displacement(k: usize, i: usize) -> [f64; 2] {
    [k as f64 + 0.25 * i as f64, 1.0 - i as f64]
}

/// What the Fluid writes at vertex i in iteration j of window k: 100k + 10j + i.
fn heat(k: usize, j: usize, i: usize) -> f64 {
    (100 * k + 10 * j + i) as f64
}

/// Runs `me` through the three windows, writing `values(k, j)` as `data` before each advance.
fn solver(case: &TempCase, me: &'static str, data: &'static str, values: fn(usize, usize) -> Vec<f64>) -> Job<()> {
    let config = case.config.clone();
    let dir = case.path().to_path_buf();
    job(move || {
        let mut p = NativeParticipant::new(me, &config).unwrap_or_else(|e| panic!("open {me}: {e}"));
        p.set_handshake_timeout(std::time::Duration::from_secs(20));
        p.set_log_directory(&dir);
        let mesh = format!("{me}-Mesh");
        let mut ids = [0; 3];
        p.set_mesh_vertices(&mesh, &VERTICES, &mut ids).unwrap();
        p.initialize().unwrap();
        let (mut k, mut j) = (1, 0);
        while p.is_coupling_ongoing().unwrap() {
            p.requires_writing_checkpoint().unwrap();
            j += 1;
            p.write_data(&mesh, data, &ids, &values(k, j)).unwrap();
            let dt = p.get_max_time_step_size().unwrap();
            p.advance(dt).unwrap();
            if !p.requires_reading_checkpoint().unwrap() {
                (k, j) = (k + 1, 0);
            }
        }
        p.finalize().unwrap();
    })
}

fn run_case() -> TempCase {
    let case = temp_case(XML);
    let solid = solver(&case, "Solid", "Displacement", |k, _| (0..3).flat_map(|i| displacement(k, i)).collect());
    let fluid = solver(&case, "Fluid", "Heat", |k, j| (0..3).map(|i| heat(k, j, i)).collect());
    run(vec![solid, fluid]);
    case
}

/// The names in `dir`, sorted.
fn names(dir: &Path) -> Vec<String> {
    let mut n: Vec<String> = std::fs::read_dir(dir)
        .unwrap_or_else(|e| panic!("{}: {e}", dir.display()))
        .map(|e| e.unwrap().file_name().into_string().unwrap())
        .collect();
    n.sort();
    n
}

fn text(path: &Path) -> String {
    std::fs::read_to_string(path).unwrap_or_else(|e| panic!("{}: {e}", path.display()))
}

fn sorted(mut v: Vec<String>) -> Vec<String> {
    v.sort();
    v
}

#[test]
fn exports_are_named_and_timed_as_libprecice_s_and_hold_the_latest_samples() {
    let case = run_case();
    let out = case.path().join("out");
    let files = |ext: &str, indices: &[&str]| -> Vec<String> {
        indices.iter().map(|i| format!("Solid-Mesh-Solid.{i}.{ext}")).collect()
    };
    let every = ["init", "dt1", "dt2", "dt3"];
    let mut expected = files("vtu", &every);
    expected.extend(files("vtp", &["init", "dt2"]));
    expected.extend(files("vtk", &every));
    expected.extend(files("csv", &every));
    expected.extend(["vtu", "vtp", "vtk"].map(|e| format!("Solid-Mesh-Solid.{e}.series")));
    // Nothing else (no temporary files left behind); every-n-time-windows="0" writes nothing.
    assert_eq!(names(&out), sorted(expected));
    assert!(!case.path().join("never").exists(), "every-n-time-windows=0 made its directory");

    // The series list each file with its time (ParaView's time axis).
    let series = |names: &[(&str, u32)], ext: &str| {
        let files: Vec<String> = names
            .iter()
            .map(|(i, t)| format!(r#" {{ "name" : "Solid-Mesh-Solid.{i}.{ext}", "time" : {t} }}"#))
            .collect();
        format!(r#"{{ "file-series-version" : "1.0", "files" : [{} ] }}"#, files.join(","))
    };
    let all = [("init", 0), ("dt1", 1), ("dt2", 2), ("dt3", 3)];
    assert_eq!(text(&out.join("Solid-Mesh-Solid.vtu.series")), series(&all, "vtu"));
    assert_eq!(text(&out.join("Solid-Mesh-Solid.vtk.series")), series(&all, "vtk"));
    assert_eq!(text(&out.join("Solid-Mesh-Solid.vtp.series")), series(&[("init", 0), ("dt2", 2)], "vtp"));

    // After window 2: the Solid's Displacement of window 2 and the Heat of the Fluid's second,
    // accepted, iteration of it (values with few digits: printed exactly).
    let csv = text(&out.join("Solid-Mesh-Solid.dt2.csv"));
    assert_eq!(
        csv,
        "PosX;PosY;Rank;DisplacementX;DisplacementY;Heat\n0;0;0;2;1;220\n1;0;0;2.25;0;221\n2;0.5;0;2.5;-1;222\n"
    );

    // The Fluid exports both its meshes after every iteration (two per window, six advances),
    // and, as libprecice with every-iteration, no series file.
    let it = case.path().join("iterations");
    let mut expected: Vec<String> = Vec::new();
    for mesh in ["Fluid-Mesh", "Solid-Mesh"] {
        for i in ["init", "it1", "it2", "it3", "it4", "it5", "it6"] {
            expected.push(format!("{mesh}-Fluid.{i}.vtu"));
        }
    }
    assert_eq!(names(&it), sorted(expected));
}

#[test]
fn the_watch_integral_sums_each_datum_per_completed_window() {
    let case = run_case();
    let log = text(&case.path().join("precice-Solid-watchintegral-Total.log"));
    // No elements on the mesh: plain sums (scaling asked for, nothing to scale with), no
    // SurfaceArea column. At t = k: Σ displacement = (3k + 0.75, 0), Σ heat = 300k + 63.
    let expected = "  Time  Displacement0  Displacement1  Heat\n \
0.00000000e+00   0.00000000e+00   0.00000000e+00   0.00000000e+00\n \
1.00000000e+00   3.75000000e+00   0.00000000e+00   3.63000000e+02\n \
2.00000000e+00   6.75000000e+00   0.00000000e+00   6.63000000e+02\n \
3.00000000e+00   9.75000000e+00   0.00000000e+00   9.63000000e+02";
    assert_eq!(log, expected);
}

/// `path` as tests/support/read_export.py's independent readers see it.
fn read_back(path: &Path) -> serde_json::Value {
    let script = Path::new(env!("CARGO_MANIFEST_DIR")).join("tests/support/read_export.py");
    let python = env!("TIDELINK_TEST_PYTHON");
    let out = std::process::Command::new(python)
        .arg(script)
        .arg(path)
        .output()
        .unwrap_or_else(|e| panic!("cannot start {python} ({e}): run scripts/setup.sh"));
    let err = String::from_utf8_lossy(&out.stderr);
    assert!(out.status.success(), "reading {} back failed:\n{err}", path.display());
    serde_json::from_slice(&out.stdout).expect("the reader prints JSON")
}

#[track_caller]
fn rows(v: &serde_json::Value) -> Vec<Vec<f64>> {
    let Some(rows) = v.as_array() else { panic!("not an array of rows: {v}") };
    rows.iter().map(|r| r.as_array().unwrap().iter().map(|x| x.as_f64().unwrap()).collect()).collect()
}

#[test]
#[cfg_attr(not(tidelink_meshio), ignore = "needs meshio in the project's Python environment (.venv, scripts/setup.sh)")]
fn independent_readers_read_what_the_solvers_wrote() {
    let case = run_case();
    let points: Vec<Vec<f64>> = VERTICES.chunks(2).map(|x| vec![x[0], x[1], 0.0]).collect();
    let disp = |k: usize| -> Vec<Vec<f64>> {
        (0..3).map(|i| displacement(k, i)).map(|[x, y]| vec![x, y, 0.0]).collect::<Vec<_>>()
    };
    let heat_of = |k: usize| -> Vec<Vec<f64>> { (0..3).map(|i| vec![heat(k, 2, i)]).collect() };
    let solid = |name: &str| case.path().join("out").join(name);
    let fluid = |name: &str| case.path().join("iterations").join(name);
    // (file, window of the Displacement it holds, window of the Heat): each datum's latest
    // sample. The Solid, first of a serial scheme, holds its own window k and the Heat the Fluid
    // computed for it; the Fluid, second, receives the Solid's next window in the same advance
    // that accepts its window, so after window 2 it already holds the Displacement of window 3.
    let checks = [
        (solid("Solid-Mesh-Solid.dt1.vtu"), 1, 1),
        (solid("Solid-Mesh-Solid.dt2.vtp"), 2, 2),
        (solid("Solid-Mesh-Solid.dt3.vtk"), 3, 3),
        (fluid("Fluid-Mesh-Fluid.it4.vtu"), 3, 2),
        (fluid("Solid-Mesh-Fluid.it6.vtu"), 3, 3),
    ];
    for (path, kd, kh) in &checks {
        let got = read_back(path);
        let what = format!("{} read back as {got}", path.display());
        assert_eq!(rows(&got["points"]), points, "{what}: points");
        assert_eq!(got["cells"], serde_json::json!({}), "{what}: no elements were given");
        let field = |name: &str| {
            let v = &got["point_data"][name];
            assert!(v.is_array(), "{what}: no point data {name}");
            rows(v)
        };
        assert_eq!(field("Rank"), vec![vec![0.0]; 3], "{what}: Rank");
        assert_eq!(field("Displacement"), disp(*kd), "{what}: Displacement");
        assert_eq!(field("Heat"), heat_of(*kh), "{what}: Heat");
    }
}
