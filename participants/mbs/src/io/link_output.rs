//! The links' absorbed power, `links.csv` beside the bodies' files: `time` and, per TSDA or
//! RSDA in model order, `<link>_power` = `−F·v` (W; `F` the total force along a TSDA and `v` its
//! extension rate, or torque and opening rate of an RSDA), positive when the link takes energy
//! out of the motion, as a power take-off does. Written at the body rows' times.

use std::fs::File;
use std::io::{self, BufWriter, Write};
use std::path::{Path, PathBuf};

/// The header of `links.csv` for these link names.
pub fn header(names: &[String]) -> String {
    let mut h = String::from("time");
    for n in names {
        h.push_str(&format!(",{n}_power"));
    }
    h
}

/// The open `links.csv`.
pub struct LinkCsv {
    path: PathBuf,
    w: BufWriter<File>,
}

impl LinkCsv {
    /// Creates `dir/links.csv` with the header of `names`.
    pub fn create(dir: &Path, names: &[String]) -> io::Result<Self> {
        std::fs::create_dir_all(dir)?;
        let path = dir.join("links.csv");
        let mut w = BufWriter::new(File::create(&path)?);
        writeln!(w, "{}", header(names))?;
        Ok(LinkCsv { path, w })
    }
    /// The file.
    pub fn path(&self) -> &Path {
        &self.path
    }
    /// One row: the time and each link's power, in the order of the names.
    pub fn write(&mut self, time: f64, powers: &[f64]) -> io::Result<()> {
        let mut line = format!("{time}");
        for p in powers {
            line.push_str(&format!(",{p}"));
        }
        writeln!(self.w, "{line}")
    }
    /// Flushes to disk.
    pub fn flush(&mut self) -> io::Result<()> {
        self.w.flush()
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn writes_header_and_rows() {
        let dir = tempfile::tempdir().unwrap();
        let mut f = LinkCsv::create(dir.path(), &["pto".into(), "hinge".into()]).unwrap();
        f.write(0.5, &[1.25, -3.0]).unwrap();
        f.flush().unwrap();
        let text = std::fs::read_to_string(f.path()).unwrap();
        assert_eq!(text, "time,pto_power,hinge_power\n0.5,1.25,-3\n");
    }
}
