//! HDF5 output (`output.format: HDF5`): one group per coupling body holding time series —
//! `time` (n), and `position`, `rotation` (rotation vector), `linear_velocity`,
//! `angular_velocity`, `force`, `torque` (n × 3) — buffered during the run and written at
//! the end; a group `links` holds `time` and `<link>_power` (n) per TSDA or RSDA (absorbed power
//! `−F·v`, W, as in `links.csv`); a run that stops on an error still writes what it has when the output is dropped.
//! Every dataset carries a `units` attribute (`s`, `m`, `rad`, `m/s`, `rad/s`, `N`, `N*m`, `W`),
//! the file the attributes `case`, `participant` and `run_at` (UTC) of its run.

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

/// Sets the string attribute `name` of `loc` (a dataset, group or file).
fn text_attr(loc: &hdf5::Location, name: &str, value: &str) -> hdf5::Result<()> {
    let v: VarLenUnicode = value.parse().map_err(|e| hdf5::Error::from(format!("attribute {name}: {e}")))?;
    loc.new_attr::<VarLenUnicode>().create(name)?.write_scalar(&v)
}

/// Rows buffered per body, written to one file by [`Hdf5Output::flush`].
pub struct Hdf5Output {
    path: PathBuf,
    bodies: Vec<(String, Vec<Row>)>,
    schedule: Schedule,
    /// Rows pushed since the file was last written.
    unwritten: bool,
    links: Vec<(String, Vec<f64>)>,
    link_time: Vec<f64>,
    provenance: Provenance,
}

impl Hdf5Output {
    /// Rows at `fps` per second of coupled time (`None`: every call of [`Self::due`]), the file
    /// stamped with `provenance`.
    pub fn new(path: &Path, bodies: &[&str], fps: Option<f64>, provenance: &Provenance) -> Self {
        Hdf5Output {
            path: path.to_path_buf(),
            bodies: bodies.iter().map(|b| (b.to_string(), Vec::new())).collect(),
            schedule: Schedule::new(fps),
            unwritten: false,
            links: Vec::new(),
            link_time: Vec::new(),
            provenance: provenance.clone(),
        }
    }
    /// Names the links whose absorbed power [`Self::push_links`] records.
    pub fn set_links(&mut self, names: &[String]) {
        self.links = names.iter().map(|n| (n.clone(), Vec::new())).collect();
    }
    /// Buffers the links' absorbed power at `time`, in the order of [`Self::set_links`].
    pub fn push_links(&mut self, time: f64, powers: &[f64]) {
        self.link_time.push(time);
        for ((_, series), p) in self.links.iter_mut().zip(powers) {
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
        if let Some((_, rows)) = self.bodies.get_mut(body) {
            rows.push(row);
            self.unwritten = true;
        }
    }
    /// Writes (or rewrites) the file with every row so far.
    pub fn flush(&mut self) -> hdf5::Result<()> {
        self.write()?;
        self.unwritten = false;
        Ok(())
    }

    fn write(&self) -> hdf5::Result<()> {
        if let Some(dir) = self.path.parent() {
            let _ = std::fs::create_dir_all(dir);
        }
        let file = hdf5::File::create(&self.path)?;
        text_attr(&file, "case", &self.provenance.case)?;
        text_attr(&file, "participant", &self.provenance.participant)?;
        text_attr(&file, "run_at", &self.provenance.run_at)?;
        for (name, rows) in &self.bodies {
            let g = file.create_group(name)?;
            let time: Vec<f64> = rows.iter().map(|r| r.time).collect();
            let ds = g.new_dataset_builder().with_data(&time[..]).create("time")?;
            text_attr(&ds, "units", "s")?;
            for (k, channel) in CHANNELS.iter().enumerate() {
                let mut flat = Vec::with_capacity(rows.len() * 3);
                for r in rows {
                    let v = [r.position, r.rotation, r.linvel, r.angvel, r.force, r.torque][k];
                    flat.extend_from_slice(v.as_slice());
                }
                let ds = g.new_dataset::<f64>().shape((rows.len(), 3)).create(*channel)?;
                ds.write_raw(&flat[..])?;
                text_attr(&ds, "units", UNITS[k])?;
            }
        }
        if !self.links.is_empty() {
            let g = file.create_group("links")?;
            let ds = g.new_dataset_builder().with_data(&self.link_time[..]).create("time")?;
            text_attr(&ds, "units", "s")?;
            for (name, series) in &self.links {
                let ds = g.new_dataset_builder().with_data(&series[..]).create(format!("{name}_power").as_str())?;
                text_attr(&ds, "units", "W")?;
            }
        }
        Ok(())
    }
}

impl Drop for Hdf5Output {
    /// A run that failed before `flush` keeps the rows it had.
    fn drop(&mut self) {
        if self.unwritten {
            match self.write() {
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
