//! `<export:vtu|vtp|vtk|csv>`: every mesh the participant uses (provided and received) written
//! with its elements and the latest sample of each of its data, for ParaView, at the moments
//! libprecice writes them:
//!
//! * `init` at `initialize`, `dt<k>` after the advance that completes window k when k is a
//!   multiple of `every-n-time-windows`; a value below 1 turns both off;
//! * with `every-iteration="true"` instead `it<m>` after every advance that reaches the end of a
//!   window, converged or not, m counting every `advance` call (sub-steps included);
//! * the `.series` file (VTK formats) after the advance that ends the coupling, or after every
//!   completed window with `update-series="true"` (with `every-iteration` only at `initialize`,
//!   as libprecice does).
//!
//! Files are named `<Mesh>-<Participant>.<index>.<ext>` in `directory` (relative to the
//! participant's output directory, the working directory by default; created when missing).
//! Each file is written under a temporary name in the same directory and renamed, so a run that
//! is killed leaves only complete files.

mod csv;
mod series;
mod vtk;
mod vtp;
mod vtu;
mod xml;

use super::data::{DataKey, DataStore};
use super::mesh::Connectivity;
use crate::{CouplingError, Result};
use std::path::{Path, PathBuf};
use tidelink_precice_config::{ExportDecl, PreciceConfig};

/// One mesh at one moment, as the writers see it.
pub(crate) struct Snapshot<'a> {
    pub dim: usize,
    /// Flat coordinates, `dim` per vertex.
    pub coords: &'a [f64],
    pub cells: &'a Connectivity,
    /// The data with samples, in `use-data` order.
    pub fields: Vec<Field<'a>>,
}

/// One datum's latest sample.
pub(crate) struct Field<'a> {
    pub name: &'a str,
    pub components: usize,
    /// `components` per vertex.
    pub values: &'a [f64],
}

impl Snapshot<'_> {
    fn vertex_count(&self) -> usize {
        self.coords.len() / self.dim
    }
    fn vertex(&self, v: usize) -> &[f64] {
        &self.coords[v * self.dim..(v + 1) * self.dim]
    }
}

/// The four file formats.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
enum Format {
    Vtu,
    Vtp,
    Vtk,
    Csv,
}

impl Format {
    fn of(tag: &str) -> Option<Format> {
        Some(match tag {
            "vtu" => Format::Vtu,
            "vtp" => Format::Vtp,
            "vtk" => Format::Vtk,
            "csv" => Format::Csv,
            _ => return None,
        })
    }
    fn extension(self) -> &'static str {
        match self {
            Format::Vtu => "vtu",
            Format::Vtp => "vtp",
            Format::Vtk => "vtk",
            Format::Csv => "csv",
        }
    }
    fn render(self, s: &Snapshot) -> String {
        match self {
            Format::Vtu => vtu::render(s),
            Format::Vtp => vtp::render(s),
            Format::Vtk => vtk::render(s),
            Format::Csv => csv::render(s),
        }
    }
}

/// One `<export>` tag applied to one mesh.
struct Exporter {
    format: Format,
    dir: PathBuf,
    mesh: String,
    participant: String,
    every_n: i64,
    every_iteration: bool,
    update_series: bool,
    /// The mesh's data in `use-data` order, with their components.
    data: Vec<(DataKey, usize)>,
    /// Files written so far with their times, for the series file (not kept for CSV).
    records: Vec<(String, f64)>,
}

impl Exporter {
    /// Writes the file of `index` (`init`, `dt3`, `it7`) at time `t`.
    fn export(&mut self, index: &str, t: f64, store: &mut DataStore) -> Result<()> {
        let n = store.meshes[&self.mesh].vertex_count();
        let mut latest = Vec::new();
        for (key, c) in &self.data {
            if let Some(values) = store.latest(key)?.filter(|v| v.len() == n * c) {
                latest.push((key, *c, values));
            }
        }
        let mesh = &store.meshes[&self.mesh];
        let fields = latest.iter().map(|(key, c, values)| Field { name: &key.data, components: *c, values }).collect();
        let snapshot = Snapshot { dim: mesh.dim, coords: &mesh.coords, cells: &mesh.connectivity, fields };
        let name = format!("{}-{}.{index}.{}", self.mesh, self.participant, self.format.extension());
        write_complete(&self.dir, &name, &self.format.render(&snapshot))?;
        if self.format != Format::Csv {
            self.records.push((name, t));
        }
        Ok(())
    }

    fn write_series(&self) -> Result<()> {
        let Some(json) = series::render(&self.records) else { return Ok(()) };
        let name = format!("{}-{}.{}.series", self.mesh, self.participant, self.format.extension());
        write_complete(&self.dir, &name, &json)
    }
}

/// Every exporter of a participant, with the counts that name the files.
#[derive(Default)]
pub(crate) struct Exports {
    exporters: Vec<Exporter>,
    /// `advance` calls so far.
    advances: u64,
    /// Completed time windows so far.
    windows: u64,
}

impl Exports {
    /// One exporter per `<export>` of `participant` and mesh it uses (provided meshes first),
    /// writing under `out_dir`.
    pub fn new(participant: &str, cfg: &PreciceConfig, out_dir: &Path) -> Result<Exports> {
        let Some(me) = cfg.participant(participant) else { return Ok(Exports::default()) };
        let meshes: Vec<&str> = me
            .provide_meshes
            .iter()
            .map(|m| m.name.as_str())
            .chain(me.receive_meshes.iter().map(|m| m.name.as_str()))
            .collect();
        let mut exporters = Vec::new();
        for e in &me.exports {
            let format = format_of(e)?;
            if e.every_iteration && e.every_n_time_windows > 1 {
                log::warn!(
                    "Participant {participant} defines an exporter of type {} which exports every iteration. This \
                     overrides the every-n-time-window value you provided.",
                    e.format
                );
            }
            for mesh in &meshes {
                let uses = cfg.mesh(mesh).map(|m| m.use_data.clone()).unwrap_or_default();
                exporters.push(Exporter {
                    format,
                    dir: out_dir.join(&e.directory),
                    mesh: mesh.to_string(),
                    participant: participant.to_string(),
                    every_n: e.every_n_time_windows,
                    every_iteration: e.every_iteration,
                    update_series: e.update_series,
                    data: uses
                        .iter()
                        .map(|u| (DataKey::new(*mesh, u), cfg.data_dimensions(mesh, u).unwrap_or(1)))
                        .collect(),
                    records: Vec::new(),
                });
            }
        }
        Ok(Exports { exporters, advances: 0, windows: 0 })
    }

    /// At the end of `initialize`: the `init` files (and series with `update-series`).
    pub fn initial(&mut self, store: &mut DataStore) -> Result<()> {
        for x in self.exporters.iter_mut().filter(|x| x.every_n >= 1) {
            x.export("init", 0.0, store)?;
            if x.update_series {
                x.write_series()?;
            }
        }
        Ok(())
    }

    /// After every `advance`: whether it reached a window end, completed the window, ended the
    /// coupling, and the participant's time after it.
    pub fn advanced(
        &mut self,
        window_end: bool,
        complete: bool,
        last: bool,
        t: f64,
        store: &mut DataStore,
    ) -> Result<()> {
        self.advances += 1;
        if !window_end {
            return Ok(());
        }
        if complete {
            self.windows += 1;
        }
        for x in &mut self.exporters {
            if x.every_iteration {
                x.export(&format!("it{}", self.advances), t, store)?;
                continue;
            }
            if complete && x.every_n >= 1 && self.windows.is_multiple_of(x.every_n as u64) {
                x.export(&format!("dt{}", self.windows), t, store)?;
            }
            if last || (complete && x.update_series) {
                x.write_series()?;
            }
        }
        Ok(())
    }
}

fn format_of(e: &ExportDecl) -> Result<Format> {
    Format::of(&e.format).ok_or_else(|| {
        CouplingError::config(format!(
            "{}: export:{} is not a format the native engine writes; use export:vtu, export:vtp, export:vtk or export:csv.",
            e.loc, e.format
        ))
    })
}

/// Writes `text` to `dir/name` whole: under a temporary name in `dir` first, then renamed over
/// `name`, so that readers and a killed run only ever see complete files. Creates `dir`.
fn write_complete(dir: &Path, name: &str, text: &str) -> Result<()> {
    let fail = |what: &str, path: &Path, e: std::io::Error| {
        CouplingError::io(format!("export: cannot {what} \"{}\": {e}", path.display()))
    };
    std::fs::create_dir_all(dir).map_err(|e| fail("create the directory", dir, e))?;
    let target = dir.join(name);
    let temporary = dir.join(format!(".{name}.writing"));
    if let Err(e) = std::fs::write(&temporary, text) {
        let _ = std::fs::remove_file(&temporary);
        return Err(fail("write", &temporary, e));
    }
    std::fs::rename(&temporary, &target).map_err(|e| {
        let _ = std::fs::remove_file(&temporary);
        fail("rename the finished file to", &target, e)
    })
}

#[cfg(test)]
pub(super) mod tests {
    use super::*;
    use std::collections::BTreeMap;

    /// A mesh with data, owned, for the writers' tests.
    pub struct Owned {
        dim: usize,
        coords: Vec<f64>,
        cells: Connectivity,
        data: Vec<(&'static str, usize, Vec<f64>)>,
    }

    impl Owned {
        pub fn snapshot(&self) -> Snapshot<'_> {
            let fields = self
                .data
                .iter()
                .map(|(name, components, v)| Field { name, components: *components, values: v })
                .collect();
            Snapshot { dim: self.dim, coords: &self.coords, cells: &self.cells, fields }
        }
    }

    /// 2D: three vertices, two edges and the triangle they span; a scalar T and a vector F.
    pub fn flap() -> Owned {
        Owned {
            dim: 2,
            coords: vec![0.0, 0.0, 1.0, 0.0, 1.0, 0.5],
            cells: Connectivity { edges: vec![[0, 1], [1, 2]], triangles: vec![[0, 1, 2]], tetrahedra: vec![] },
            data: vec![("T", 1, vec![1.0, 2.0, -0.25]), ("F", 2, vec![1.0, 0.0, 0.0, 1.0, 1.5, -1.0])],
        }
    }

    /// 3D: the unit tetrahedron, one of its faces and one of its edges; a vector V.
    pub fn tetra() -> Owned {
        Owned {
            dim: 3,
            coords: vec![0.0, 0.0, 0.0, 1.0, 0.0, 0.0, 0.0, 1.0, 0.0, 0.0, 0.0, 1.0],
            cells: Connectivity { edges: vec![[0, 3]], triangles: vec![[0, 1, 2]], tetrahedra: vec![[0, 1, 2, 3]] },
            data: vec![("V", 3, vec![1.0, 2.0, 3.0, 0.0, 0.0, 0.0, 0.0, 0.0, 0.0, 0.1, 0.0, -1.0])],
        }
    }

    /// `path` as the independent readers of `tests/support/read_export.py` (meshio, the XML and
    /// CSV parsers of Python's standard library) see it.
    pub fn read_back(path: &Path) -> serde_json::Value {
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

    type Cells = BTreeMap<String, Vec<Vec<usize>>>;

    /// The cells a reader must find in `format`'s file of `m` (libprecice's choice per format).
    fn expected_cells(format: Format, m: &Owned) -> Cells {
        let c = &m.cells;
        let edges = ("line", c.edges.iter().map(|e| e.to_vec()).collect::<Vec<_>>());
        let tris = ("triangle", c.triangles.iter().map(|t| t.to_vec()).collect());
        let tets = ("tetra", c.tetrahedra.iter().map(|t| t.to_vec()).collect());
        let kinds = match format {
            Format::Vtk if m.dim == 2 => vec![edges],
            Format::Vtp => vec![edges, tris],
            _ => vec![edges, tris, tets],
        };
        kinds.into_iter().filter(|(_, v)| !v.is_empty()).map(|(k, v)| (k.to_string(), v)).collect()
    }

    fn floats(v: &serde_json::Value) -> Vec<Vec<f64>> {
        let rows = v.as_array().expect("an array of rows");
        rows.iter().map(|r| r.as_array().unwrap().iter().map(|x| x.as_f64().unwrap()).collect()).collect()
    }

    #[test]
    #[cfg_attr(
        not(tidelink_meshio),
        ignore = "needs meshio in the project's Python environment (.venv, scripts/setup.sh)"
    )]
    fn independent_readers_find_the_points_cells_and_data_written() {
        let dir = tempfile::tempdir().unwrap();
        for m in [flap(), tetra()] {
            // The fixtures' numbers have at most six significant digits: every format keeps them
            // exactly, so the comparisons are exact.
            let points: Vec<Vec<f64>> =
                m.coords.chunks(m.dim).map(|x| (0..3).map(|k| x.get(k).copied().unwrap_or(0.0)).collect()).collect();
            for format in [Format::Vtu, Format::Vtp, Format::Vtk] {
                let path = dir.path().join(format!("m{}.{}", m.dim, format.extension()));
                std::fs::write(&path, format.render(&m.snapshot())).unwrap();
                let got = read_back(&path);
                let what = path.display();
                assert_eq!(floats(&got["points"]), points, "{what}: points");
                let cells: Cells = serde_json::from_value(got["cells"].clone()).unwrap();
                assert_eq!(cells, expected_cells(format, &m), "{what}: cells");
                let data = &got["point_data"];
                assert_eq!(floats(&data["Rank"]), vec![vec![0.0]; points.len()], "{what}: Rank");
                for (name, c, values) in &m.data {
                    let padded: Vec<Vec<f64>> =
                        values.chunks(*c).map(|v| if *c == 2 { vec![v[0], v[1], 0.0] } else { v.to_vec() }).collect();
                    assert_eq!(floats(&data[name]), padded, "{what}: {name}");
                }
            }
            let path = dir.path().join(format!("m{}.csv", m.dim));
            std::fs::write(&path, Format::Csv.render(&m.snapshot())).unwrap();
            let got = read_back(&path);
            let rows = floats(&got["rows"]);
            for (v, row) in rows.iter().enumerate() {
                let mut want: Vec<f64> = m.coords[v * m.dim..(v + 1) * m.dim].to_vec();
                want.push(0.0);
                for (_, c, values) in &m.data {
                    want.extend_from_slice(&values[v * c..(v + 1) * c]);
                }
                assert_eq!(row, &want, "csv row {v}");
            }
            assert_eq!(rows.len(), points.len());
        }
    }

    /// An exporter of mesh "M" of participant "P" into `dir/sub`.
    fn exporter(
        dir: &Path,
        sub: &str,
        format: Format,
        every_n: i64,
        every_iteration: bool,
        update_series: bool,
    ) -> Exporter {
        Exporter {
            format,
            dir: dir.join(sub),
            mesh: "M".into(),
            participant: "P".into(),
            every_n,
            every_iteration,
            update_series,
            data: vec![],
            records: vec![],
        }
    }

    fn listing(dir: &Path) -> Vec<String> {
        let mut names: Vec<String> = match std::fs::read_dir(dir) {
            Ok(d) => d.map(|e| e.unwrap().file_name().into_string().unwrap()).collect(),
            Err(_) => return vec![],
        };
        names.sort();
        names
    }

    #[test]
    fn files_follow_libprecice_s_indices_and_series_timing() {
        let dir = tempfile::tempdir().unwrap();
        let d = dir.path();
        let mut store = DataStore::default();
        let mut mesh = crate::native::mesh::MeshState::new(2, true);
        mesh.coords = vec![0.0, 0.0];
        store.meshes.insert("M".into(), mesh);
        let mut x = Exports {
            exporters: vec![
                exporter(d, "it", Format::Vtu, 1, true, false),
                exporter(d, "n2", Format::Vtu, 2, false, false),
                exporter(d, "off", Format::Vtu, 0, false, true),
                exporter(d, "up", Format::Vtk, 1, false, true),
            ],
            advances: 0,
            windows: 0,
        };
        x.initial(&mut store).unwrap();
        assert_eq!(listing(&d.join("up")), ["M-P.init.vtk", "M-P.vtk.series"]);
        let series =
            |sub: &str, ext: &str| std::fs::read_to_string(d.join(sub).join(format!("M-P.{ext}.series"))).unwrap();
        assert!(series("up", "vtk").contains(r#"[ { "name" : "M-P.init.vtk", "time" : 0 } ]"#));
        // Two sub-steps per window: window 1 is iterated once more, window 2 ends the coupling.
        // (window end, complete, last, time)
        let steps = [
            (false, false, false, 0.5),
            (true, false, false, 0.0),
            (false, false, false, 0.5),
            (true, true, false, 1.0),
            (false, false, false, 1.5),
            (true, true, true, 2.0),
        ];
        for (end, complete, last, t) in steps {
            x.advanced(end, complete, last, t, &mut store).unwrap();
        }
        // every-iteration: the window-end advances by their count among all advances; no series.
        assert_eq!(listing(&d.join("it")), ["M-P.init.vtu", "M-P.it2.vtu", "M-P.it4.vtu", "M-P.it6.vtu"]);
        assert_eq!(listing(&d.join("n2")), ["M-P.dt2.vtu", "M-P.init.vtu", "M-P.vtu.series"]);
        let expected = r#"{ "file-series-version" : "1.0", "files" : [ { "name" : "M-P.init.vtu", "time" : 0 }, { "name" : "M-P.dt2.vtu", "time" : 2 } ] }"#;
        assert_eq!(series("n2", "vtu"), expected);
        assert!(!d.join("off").exists(), "every-n-time-windows=0 writes nothing");
        assert_eq!(listing(&d.join("up")), ["M-P.dt1.vtk", "M-P.dt2.vtk", "M-P.init.vtk", "M-P.vtk.series"]);
        assert!(series("up", "vtk").ends_with(r#"{ "name" : "M-P.dt2.vtk", "time" : 2 } ] }"#));
    }

    #[test]
    fn files_are_complete_under_their_name_and_nothing_else_is_left() {
        let dir = tempfile::tempdir().unwrap();
        let out = dir.path().join("new/sub");
        write_complete(&out, "M-A.init.csv", "first").unwrap();
        write_complete(&out, "M-A.init.csv", "second").unwrap();
        let names: Vec<String> =
            std::fs::read_dir(&out).unwrap().map(|e| e.unwrap().file_name().into_string().unwrap()).collect();
        assert_eq!(names, ["M-A.init.csv"]);
        assert_eq!(std::fs::read_to_string(out.join("M-A.init.csv")).unwrap(), "second");
    }

    #[test]
    fn a_directory_that_cannot_be_made_is_an_error_naming_it() {
        let dir = tempfile::tempdir().unwrap();
        let blocker = dir.path().join("file");
        std::fs::write(&blocker, "x").unwrap();
        let e = write_complete(&blocker.join("out"), "M.csv", "x").unwrap_err();
        assert!(e.message.contains("cannot create the directory") && e.message.contains("file/out"), "{}", e.message);
        // The file in the way is not ours: left as it was.
        assert_eq!(std::fs::read_to_string(&blocker).unwrap(), "x");
    }
}
