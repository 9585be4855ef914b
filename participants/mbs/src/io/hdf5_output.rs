//! HDF5 output (`output.format: HDF5`): one group per coupling body holding time series —
//! `time` (n), and `position`, `rotation` (rotation vector), `linear_velocity`,
//! `angular_velocity`, `force`, `torque` (n × 3) — and a group `links` with `time` and
//! `<link>_power` (n) per TSDA or RSDA (absorbed power `−F·v`, W, as in `links.csv`).
//! Every dataset carries a `units` attribute (`s`, `m`, `rad`, `m/s`, `rad/s`, `N`, `N*m`, `W`),
//! the file the attributes `case`, `participant` and `run_at` (UTC) of its run.
//!
//! The file is created at the first [`Hdf5Output::flush`] with empty, growable datasets and the
//! rows are appended at every flush, each followed by `H5Fflush`: the file on disk is a valid
//! HDF5 file holding every row flushed, also when the process is killed between two flushes.
//! A run that stops on an error or a signal flushes what it has when the output is dropped.

use crate::io::output::Row;
use crate::io::schedule::Schedule;
use hdf5::types::VarLenUnicode;
use hdf5_metno as hdf5;
use std::path::{Path, PathBuf};
use tidelink_adapter_core::records::Provenance;

/// The channels of a body, in the order of [`Row`].
pub const CHANNELS: [&str; 6] = ["position", "rotation", "linear_velocity", "angular_velocity", "force", "torque"];
/// The `units` attribute of each of [`CHANNELS`].
pub const UNITS: [&str; 6] = ["m", "rad", "m/s", "rad/s", "N", "N*m"];
/// Rows per chunk of a growable dataset: appending a row touches one chunk, and a chunk of a
/// (n × 3) dataset is 6 KiB.
const CHUNK_ROWS: usize = 256;

/// Sets the string attribute `name` of `loc` (a dataset, group or file).
fn text_attr(loc: &hdf5::Location, name: &str, value: &str) -> hdf5::Result<()> {
    let v: VarLenUnicode = value.parse().map_err(|e| hdf5::Error::from(format!("attribute {name}: {e}")))?;
    loc.new_attr::<VarLenUnicode>().create(name)?.write_scalar(&v)
}

/// A growable dataset of `width` columns (1: a series of n, else n × width) with its units.
fn growable(g: &hdf5::Group, name: &str, width: usize, units: &str) -> hdf5::Result<hdf5::Dataset> {
    let ds = if width == 1 {
        g.new_dataset::<f64>().chunk(CHUNK_ROWS).shape(0..).create(name)?
    } else {
        g.new_dataset::<f64>().chunk((CHUNK_ROWS, width)).shape((0.., width)).create(name)?
    };
    text_attr(&ds, "units", units)?;
    Ok(ds)
}

/// Appends `values` (`rows` rows of `width`, row-major) to growable dataset `ds`.
fn append(ds: &hdf5::Dataset, values: &[f64], width: usize) -> hdf5::Result<()> {
    let rows = values.len() / width;
    if rows == 0 {
        return Ok(());
    }
    let n = ds.shape().first().copied().unwrap_or(0);
    if width == 1 {
        ds.resize(n + rows)?;
        ds.write_slice(values, n..n + rows)
    } else {
        ds.resize((n + rows, width))?;
        let block = ndarray::ArrayView2::from_shape((rows, width), values)
            .map_err(|e| hdf5::Error::from(format!("rows of {}: {e}", ds.name())))?;
        ds.write_slice(block, (n..n + rows, ..))
    }
}

/// The open file: per body its `time` and channel datasets, the links' group.
struct Open {
    file: hdf5::File,
    bodies: Vec<(hdf5::Dataset, Vec<hdf5::Dataset>)>,
    links: Option<(hdf5::Dataset, Vec<hdf5::Dataset>)>,
}

/// Rows of the bodies and links not yet appended to the file.
#[derive(Default)]
struct Pending {
    bodies: Vec<Vec<Row>>,
    link_time: Vec<f64>,
    links: Vec<Vec<f64>>,
}

/// The HDF5 output of one run: rows pushed per window, appended to the file at each flush.
pub struct Hdf5Output {
    path: PathBuf,
    names: Vec<String>,
    link_names: Vec<String>,
    schedule: Schedule,
    provenance: Provenance,
    open: Option<Open>,
    pending: Pending,
}

impl Hdf5Output {
    /// Rows at `fps` per second of coupled time (`None`: every call of [`Self::due`]), the file
    /// stamped with `provenance`.
    pub fn new(path: &Path, bodies: &[&str], fps: Option<f64>, provenance: &Provenance) -> Self {
        Hdf5Output {
            path: path.to_path_buf(),
            names: bodies.iter().map(|b| b.to_string()).collect(),
            link_names: Vec::new(),
            schedule: Schedule::new(fps),
            provenance: provenance.clone(),
            open: None,
            pending: Pending { bodies: vec![Vec::new(); bodies.len()], ..Pending::default() },
        }
    }
    /// Names the links whose absorbed power [`Self::push_links`] records (before the first flush).
    pub fn set_links(&mut self, names: &[String]) {
        self.link_names = names.to_vec();
        self.pending.links = vec![Vec::new(); names.len()];
    }
    /// Buffers the links' absorbed power at `time`, in the order of [`Self::set_links`].
    pub fn push_links(&mut self, time: f64, powers: &[f64]) {
        if self.link_names.is_empty() {
            return;
        }
        self.pending.link_time.push(time);
        for (series, p) in self.pending.links.iter_mut().zip(powers) {
            series.push(*p);
        }
    }
    /// Whether a row is due at `time` (the CSV output's schedule).
    pub fn due(&mut self, time: f64) -> bool {
        self.schedule.due(time)
    }
    /// The file written, for the run report.
    pub fn path(&self) -> &Path {
        &self.path
    }
    /// Buffers `row` for coupling body `body` (an index out of range is ignored).
    pub fn push(&mut self, body: usize, row: Row) {
        if let Some(rows) = self.pending.bodies.get_mut(body) {
            rows.push(row);
        }
    }
    /// Creates the file if needed, appends the rows buffered since the last flush and flushes
    /// the file to disk (`H5Fflush`): from then on it holds them whatever happens to the process.
    pub fn flush(&mut self) -> hdf5::Result<()> {
        if self.open.is_none() {
            self.open = Some(self.create()?);
        }
        let Some(open) = &self.open else { return Ok(()) };
        for ((time, channels), rows) in open.bodies.iter().zip(&mut self.pending.bodies) {
            // Channels first and `time` last: a reader sizes a series by its `time`.
            for (k, ds) in channels.iter().enumerate() {
                let mut flat = Vec::with_capacity(rows.len() * 3);
                for r in rows.iter() {
                    let v = [r.position, r.rotation, r.linvel, r.angvel, r.force, r.torque][k];
                    flat.extend_from_slice(v.as_slice());
                }
                append(ds, &flat, 3)?;
            }
            let t: Vec<f64> = rows.iter().map(|r| r.time).collect();
            append(time, &t, 1)?;
            rows.clear();
        }
        if let Some((time, series)) = &open.links {
            for (ds, values) in series.iter().zip(&mut self.pending.links) {
                append(ds, values, 1)?;
                values.clear();
            }
            append(time, &self.pending.link_time, 1)?;
            self.pending.link_time.clear();
        }
        open.file.flush()
    }

    /// Creates the file with its attributes and empty datasets.
    fn create(&self) -> hdf5::Result<Open> {
        if let Some(dir) = self.path.parent() {
            let _ = std::fs::create_dir_all(dir);
        }
        let file = hdf5::File::create(&self.path)?;
        text_attr(&file, "case", &self.provenance.case)?;
        text_attr(&file, "participant", &self.provenance.participant)?;
        text_attr(&file, "run_at", &self.provenance.run_at)?;
        let mut bodies = Vec::new();
        for name in &self.names {
            let g = file.create_group(name)?;
            let time = growable(&g, "time", 1, "s")?;
            let channels =
                CHANNELS.iter().zip(UNITS).map(|(c, u)| growable(&g, c, 3, u)).collect::<hdf5::Result<Vec<_>>>()?;
            bodies.push((time, channels));
        }
        let links = if self.link_names.is_empty() {
            None
        } else {
            let g = file.create_group("links")?;
            let time = growable(&g, "time", 1, "s")?;
            let series = self
                .link_names
                .iter()
                .map(|n| growable(&g, &format!("{n}_power"), 1, "W"))
                .collect::<hdf5::Result<Vec<_>>>()?;
            Some((time, series))
        };
        Ok(Open { file, bodies, links })
    }

    fn unwritten(&self) -> bool {
        self.pending.bodies.iter().any(|r| !r.is_empty()) || !self.pending.link_time.is_empty()
    }
}

impl Drop for Hdf5Output {
    /// A run that stopped before its last `flush` keeps the rows it had; the file is closed.
    fn drop(&mut self) {
        if self.unwritten() {
            match self.flush() {
                Ok(()) => log::warn!("the run stopped early: output so far written to {}", self.path.display()),
                Err(e) => log::error!("writing {}: {e}", self.path.display()),
            }
        }
    }
}

/// Reads one body's series back: `time` and the `CHANNELS` (n × 3, row-major).
pub fn read(path: &Path, body: &str) -> hdf5::Result<(Vec<f64>, Vec<Vec<f64>>)> {
    let file = hdf5::File::open(path)?;
    let g = file.group(body)?;
    let time = g.dataset("time")?.read_raw::<f64>()?;
    let mut channels = Vec::new();
    for c in CHANNELS {
        channels.push(g.dataset(c)?.read_raw::<f64>()?);
    }
    Ok((time, channels))
}

/// The links' series read back: times and, per link, its name and absorbed power (W).
pub type LinkSeries = (Vec<f64>, Vec<(String, Vec<f64>)>);

/// Reads the links' group back: `time` and each link's absorbed power (W) by link name;
/// empty when the file has no links.
pub fn read_links(path: &Path) -> hdf5::Result<LinkSeries> {
    let file = hdf5::File::open(path)?;
    let Ok(g) = file.group("links") else { return Ok((Vec::new(), Vec::new())) };
    let time = g.dataset("time")?.read_raw::<f64>()?;
    let mut links = Vec::new();
    for name in g.member_names()? {
        if let Some(link) = name.strip_suffix("_power") {
            links.push((link.to_string(), g.dataset(&name)?.read_raw::<f64>()?));
        }
    }
    Ok((time, links))
}

#[cfg(test)]
mod tests {
    use super::*;
    use hdf5_metno as hdf5;
    use nalgebra::Vector3;

    #[test]
    fn writes_and_reads_back_one_group_per_body() {
        let dir = tempfile::tempdir().unwrap();
        let path = dir.path().join("out/bodies.h5");
        let p = Provenance { case: "drop".into(), participant: "Solid".into(), run_at: "2026-12-02T17:20:32Z".into() };
        let mut out = Hdf5Output::new(&path, &["ball", "float"], None, &p);
        for i in 0..3 {
            let t = i as f64 * 0.1;
            let v = Vector3::new(t, 2.0 * t, 3.0 * t);
            out.push(0, Row { time: t, position: v, rotation: -v, linvel: v, angvel: v, force: v * 10.0, torque: v });
        }
        out.flush().unwrap();
        let (time, ch) = read(&path, "ball").unwrap();
        assert_eq!(time, vec![0.0, 0.1, 0.2]);
        assert_eq!(&ch[0][3..6], &[0.1, 0.2, 0.30000000000000004]);
        assert_eq!(ch[1][5], -0.30000000000000004);
        assert_eq!(ch[4][7], 4.0);
        let f = hdf5::File::open(&path).unwrap();
        assert_eq!(f.group("ball").unwrap().dataset("force").unwrap().shape(), vec![3, 3]);
        let text = |a: hdf5::Attribute| a.read_scalar::<VarLenUnicode>().unwrap().as_str().to_string();
        let units = |ds: &str| text(f.group("ball").unwrap().dataset(ds).unwrap().attr("units").unwrap());
        assert_eq!(units("time"), "s");
        assert_eq!(
            [units("position"), units("linear_velocity"), units("force"), units("torque")],
            ["m", "m/s", "N", "N*m"]
        );
        assert_eq!(text(f.attr("case").unwrap()), "drop");
        assert_eq!(text(f.attr("participant").unwrap()), "Solid");
        assert_eq!(text(f.attr("run_at").unwrap()), "2026-12-02T17:20:32Z");
        assert_eq!(read_links(&path).unwrap(), (vec![], vec![]));
        let (t2, _) = read(&path, "float").unwrap();
        assert!(t2.is_empty());
        assert!(read(&path, "nobody").is_err());
    }

    #[test]
    fn each_flush_appends_and_the_file_is_readable_between_flushes() {
        let dir = tempfile::tempdir().unwrap();
        let path = dir.path().join("bodies.h5");
        let p = Provenance { case: "c".into(), participant: "P".into(), run_at: "T".into() };
        let mut out = Hdf5Output::new(&path, &["ball"], None, &p);
        out.set_links(&["pto".to_string()]);
        for k in 0..600 {
            let t = k as f64;
            let v = Vector3::new(t, -t, 2.0 * t);
            out.push(0, Row { time: t, position: v, rotation: v, linvel: v, angvel: v, force: v, torque: v });
            out.push_links(t, &[10.0 * t]);
            out.flush().unwrap();
            if k == 299 {
                // What a reader (or a process that died here) finds: every row so far, once.
                let copy = dir.path().join("copy.h5");
                std::fs::copy(&path, &copy).unwrap();
                let (time, ch) = read(&copy, "ball").unwrap();
                assert_eq!(time, (0..300).map(f64::from).collect::<Vec<_>>());
                assert_eq!(&ch[0][897..900], &[299.0, -299.0, 598.0]);
                assert_eq!(read_links(&copy).unwrap().1[0].1.len(), 300);
            }
        }
        drop(out);
        let (time, ch) = read(&path, "ball").unwrap();
        assert_eq!(time.len(), 600, "rows across chunk boundaries, each once");
        assert_eq!(ch[4][3 * 599], 599.0);
        let (lt, links) = read_links(&path).unwrap();
        assert_eq!((lt.len(), links[0].1[599]), (600, 5990.0));
    }

    #[test]
    fn rows_not_flushed_are_written_when_dropped() {
        let dir = tempfile::tempdir().unwrap();
        let path = dir.path().join("bodies.h5");
        let p = Provenance { case: "c".into(), participant: "P".into(), run_at: "T".into() };
        let mut out = Hdf5Output::new(&path, &["ball"], None, &p);
        out.set_links(&["pto".to_string()]);
        let v = Vector3::new(1.0, 2.0, 3.0);
        out.push(0, Row { time: 0.5, position: v, rotation: v, linvel: v, angvel: v, force: v, torque: v });
        out.push_links(0.5, &[1250.0]);
        drop(out);
        assert_eq!(read(&path, "ball").unwrap().0, vec![0.5]);
        assert_eq!(read_links(&path).unwrap(), (vec![0.5], vec![("pto".to_string(), vec![1250.0])]));
        let f = hdf5::File::open(&path).unwrap();
        let units = f.group("links").unwrap().dataset("pto_power").unwrap().attr("units").unwrap();
        assert_eq!(units.read_scalar::<VarLenUnicode>().unwrap().as_str(), "W");
    }
}
