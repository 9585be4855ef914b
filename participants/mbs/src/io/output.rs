//! CSV time series, one file per coupling body (`<output dir>/<body>.csv`), one row per
//! output time. The first line says which case, participant and run (`# case …`), the second
//! names the columns with their units; numbers are in their shortest round-trip form
//! (`records::number`), so reading a file back gives the exact values the solver had.

use super::schedule::Schedule;
use nalgebra::Vector3;
use std::fs::File;
use std::io::{self, BufRead, BufWriter, Write};
use std::path::{Path, PathBuf};
use tidelink_adapter_core::records::{number, Provenance};

/// The column names with their units (SI; `_m_s` is m/s, `_Nm` is N·m), in order.
pub const HEADER: &str = "time_s,x_m,y_m,z_m,rx_rad,ry_rad,rz_rad,vx_m_s,vy_m_s,vz_m_s,\
                          wx_rad_s,wy_rad_s,wz_rad_s,fx_N,fy_N,fz_N,tx_Nm,ty_Nm,tz_Nm";

/// One output row: the reference frame's position, its rotation vector, the reference
/// point's velocity, the angular velocity and the loads applied over the last window.
#[derive(Debug, Clone, PartialEq)]
pub struct Row {
    /// Coupled time of the row (s).
    pub time: f64,
    /// Reference frame origin (m, world).
    pub position: Vector3<f64>,
    /// Reference frame orientation as a rotation vector (rad, world).
    pub rotation: Vector3<f64>,
    /// Velocity of the reference frame origin (m/s, world).
    pub linvel: Vector3<f64>,
    /// Angular velocity (rad/s, world axes).
    pub angvel: Vector3<f64>,
    /// Coupling force applied over the last window (N, world).
    pub force: Vector3<f64>,
    /// Coupling torque applied over the last window (N·m, world axes).
    pub torque: Vector3<f64>,
}

/// Writers for the bodies' files and the output schedule.
pub struct CsvOutput {
    files: Vec<(PathBuf, BufWriter<File>)>,
    schedule: Schedule,
}

impl CsvOutput {
    /// Creates `dir` and one file per name, each starting with the provenance line and
    /// [`HEADER`]. With `fps`, rows are written at most every `1/fps` seconds of coupled
    /// time; without, every call.
    pub fn create(dir: &Path, names: &[&str], fps: Option<f64>, provenance: &Provenance) -> io::Result<Self> {
        std::fs::create_dir_all(dir)?;
        let mut files = Vec::new();
        for name in names {
            let path = dir.join(format!("{name}.csv"));
            let mut w = BufWriter::new(File::create(&path)?);
            writeln!(w, "{}", provenance.line())?;
            writeln!(w, "{HEADER}")?;
            files.push((path, w));
        }
        Ok(CsvOutput { files, schedule: Schedule::new(fps) })
    }

    /// The files, in the order of the names given to [`Self::create`].
    pub fn paths(&self) -> Vec<PathBuf> {
        self.files.iter().map(|(p, _)| p.clone()).collect()
    }

    /// Whether a row is due at coupled time `time` (and, if so, books the next one).
    pub fn due(&mut self, time: f64) -> bool {
        self.schedule.due(time)
    }

    /// Appends `row` to the file of body number `index`.
    pub fn write(&mut self, index: usize, row: &Row) -> io::Result<()> {
        let Some((_, w)) = self.files.get_mut(index) else {
            return Err(io::Error::new(io::ErrorKind::InvalidInput, format!("no output file number {index}")));
        };
        let mut line = number(row.time);
        for v in [&row.position, &row.rotation, &row.linvel, &row.angvel, &row.force, &row.torque] {
            for x in v.iter() {
                line.push(',');
                line.push_str(&number(*x));
            }
        }
        // One write of the whole row: a flush never leaves half a row in the file.
        line.push('\n');
        w.write_all(line.as_bytes())
    }

    /// Hands every whole row written so far to the operating system (it survives the
    /// process being killed; `Sinks` calls this at every output row).
    pub fn flush(&mut self) -> io::Result<()> {
        self.files.iter_mut().try_for_each(|(_, w)| w.flush())
    }
}

/// Reads a file written by [`CsvOutput`] back into rows (for tests and summaries).
pub fn read(path: &Path) -> io::Result<Vec<Row>> {
    Ok(read_with_provenance(path)?.1)
}

/// As [`read`], with the file's provenance line (`None` when it has none).
pub fn read_with_provenance(path: &Path) -> io::Result<(Option<Provenance>, Vec<Row>)> {
    let bad =
        |n: usize, why: String| io::Error::new(io::ErrorKind::InvalidData, format!("{}:{n}: {why}", path.display()));
    let mut rows = Vec::new();
    let mut provenance = None;
    let mut header_seen = false;
    for (i, line) in io::BufReader::new(File::open(path)?).lines().enumerate() {
        let line = line?;
        if line.starts_with('#') {
            provenance = provenance.or_else(|| Provenance::parse(&line));
            continue;
        }
        if !header_seen {
            if line.trim() != HEADER {
                return Err(bad(i + 1, format!("expected the header `{HEADER}`")));
            }
            header_seen = true;
            continue;
        }
        let v: Vec<f64> = line
            .split(',')
            .map(|s| s.trim().parse::<f64>())
            .collect::<Result<_, _>>()
            .map_err(|e| bad(i + 1, e.to_string()))?;
        if v.len() != 19 {
            return Err(bad(i + 1, format!("expected 19 columns, found {}", v.len())));
        }
        let v3 = |k: usize| Vector3::new(v[k], v[k + 1], v[k + 2]);
        rows.push(Row {
            time: v[0],
            position: v3(1),
            rotation: v3(4),
            linvel: v3(7),
            angvel: v3(10),
            force: v3(13),
            torque: v3(16),
        });
    }
    Ok((provenance, rows))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn round_trips_and_keeps_the_schedule() {
        let dir = tempfile::tempdir().unwrap();
        let provenance =
            Provenance { case: "drop".into(), participant: "Solid".into(), run_at: "2026-12-02T17:20:32Z".into() };
        let mut out = CsvOutput::create(&dir.path().join("out"), &["ball"], Some(10.0), &provenance).unwrap();
        let mut written = Vec::new();
        for k in 0..=25 {
            let t = k as f64 * 0.01;
            if out.due(t) {
                let row = Row {
                    time: t,
                    position: Vector3::new(0.1, 0.2, 1.0 / 3.0),
                    rotation: Vector3::zeros(),
                    linvel: Vector3::new(-1e-300, 0.0, 2.5),
                    angvel: Vector3::zeros(),
                    force: Vector3::new(0.0, 0.0, 35.5),
                    torque: Vector3::zeros(),
                };
                out.write(0, &row).unwrap();
                written.push(row);
            }
        }
        out.flush().unwrap();
        let times: Vec<f64> = written.iter().map(|r| r.time).collect();
        assert_eq!(times, [0.0, 0.1, 0.2]);
        assert_eq!(read_with_provenance(&out.paths()[0]).unwrap(), (Some(provenance), written));
        let text = std::fs::read_to_string(&out.paths()[0]).unwrap();
        let lines: Vec<&str> = text.lines().collect();
        assert_eq!(lines[0], "# case drop, participant Solid, run at 2026-12-02T17:20:32Z");
        assert!(lines[1].starts_with("time_s,x_m,y_m,z_m,rx_rad,") && lines[1].ends_with(",fz_N,tx_Nm,ty_Nm,tz_Nm"));
        assert_eq!(lines[3], "0.1,0.1,0.2,0.3333333333333333,0,0,0,-1e-300,0,2.5,0,0,0,0,0,35.5,0,0,0");
    }

    #[test]
    fn a_file_without_the_header_is_refused_at_its_line() {
        let dir = tempfile::tempdir().unwrap();
        let path = dir.path().join("old.csv");
        std::fs::write(&path, "# case c, participant P, run at T\ntime,x,y,z\n").unwrap();
        let e = read(&path).unwrap_err().to_string();
        assert!(e.contains("old.csv:2") && e.contains("time_s,x_m"), "{e}");
    }
}
