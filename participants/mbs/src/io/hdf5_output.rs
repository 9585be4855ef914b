//! HDF5 output (`output.format: HDF5`): one group per coupling body holding time series —
//! `time` (n), and `position`, `rotation` (rotation vector), `linear_velocity`,
//! `angular_velocity`, `force`, `torque` (n × 3) — buffered during the run and written at
//! the end; a group `links` holds `time` and `<link>_power` (n) per TSDA or RSDA (absorbed power
//! `−F·v`, W, as in `links.csv`); a run that stops on an error still writes what it has when the output is dropped.

use crate::io::output::Row;
use hdf5_metno as hdf5;
use std::path::{Path, PathBuf};

/// The channels of a body, in the order of [`Row`].
pub const CHANNELS: [&str; 6] = ["position", "rotation", "linear_velocity", "angular_velocity", "force", "torque"];

/// Rows buffered per body, written to one file by [`Hdf5Output::flush`].
pub struct Hdf5Output {
    path: PathBuf,
    bodies: Vec<(String, Vec<Row>)>,
    fps: Option<f64>,
    next_frame: f64,
    /// Rows pushed since the file was last written.
    unwritten: bool,
    links: Vec<(String, Vec<f64>)>,
    link_time: Vec<f64>,
}

impl Hdf5Output {
    /// Rows at `fps` per second of coupled time (`None`: every call of [`Self::due`]).
    pub fn new(path: &Path, bodies: &[&str], fps: Option<f64>) -> Self {
        Hdf5Output {
            path: path.to_path_buf(),
            bodies: bodies.iter().map(|b| (b.to_string(), Vec::new())).collect(),
            fps,
            next_frame: 0.0,
            unwritten: false,
            links: Vec::new(),
            link_time: Vec::new(),
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
        let Some(fps) = self.fps else { return true };
        let frame = time * fps;
        let slack = 1e-9 * frame.abs().max(1.0);
        if frame + slack < self.next_frame {
            return false;
        }
        self.next_frame = (frame + slack).floor() + 1.0;
        true
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
        for (name, rows) in &self.bodies {
            let g = file.create_group(name)?;
            let time: Vec<f64> = rows.iter().map(|r| r.time).collect();
            g.new_dataset_builder().with_data(&time[..]).create("time")?;
            for (k, channel) in CHANNELS.iter().enumerate() {
                let mut flat = Vec::with_capacity(rows.len() * 3);
                for r in rows {
                    let v = [r.position, r.rotation, r.linvel, r.angvel, r.force, r.torque][k];
                    flat.extend_from_slice(v.as_slice());
                }
                let ds = g.new_dataset::<f64>().shape((rows.len(), 3)).create(*channel)?;
                ds.write_raw(&flat[..])?;
            }
        }
        if !self.links.is_empty() {
            let g = file.create_group("links")?;
            g.new_dataset_builder().with_data(&self.link_time[..]).create("time")?;
            for (name, series) in &self.links {
                g.new_dataset_builder().with_data(&series[..]).create(format!("{name}_power").as_str())?;
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

#[cfg(test)]
mod tests {
    use super::*;
    use hdf5_metno as hdf5;
    use nalgebra::Vector3;

    #[test]
    fn writes_and_reads_back_one_group_per_body() {
        let dir = tempfile::tempdir().unwrap();
        let path = dir.path().join("out/bodies.h5");
        let mut out = Hdf5Output::new(&path, &["ball", "float"], None);
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
        let (t2, _) = read(&path, "float").unwrap();
        assert!(t2.is_empty());
        assert!(read(&path, "nobody").is_err());
    }

    #[test]
    fn rows_not_flushed_are_written_when_dropped() {
        let dir = tempfile::tempdir().unwrap();
        let path = dir.path().join("bodies.h5");
        let mut out = Hdf5Output::new(&path, &["ball"], None);
        let v = Vector3::new(1.0, 2.0, 3.0);
        out.push(0, Row { time: 0.5, position: v, rotation: v, linvel: v, angvel: v, force: v, torque: v });
        drop(out);
        assert_eq!(read(&path, "ball").unwrap().0, vec![0.5]);
    }
}
