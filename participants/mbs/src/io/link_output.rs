//! The links' absorbed power, `links.csv` beside the bodies' files: after the provenance line,
//! `time_s` and, per TSDA or RSDA in model order, `<link>_power_W` = `−F·v` (W; `F` the total
//! force along a TSDA and `v` its extension rate, or torque and opening rate of an RSDA),
//! positive when the link takes energy out of the motion, as a power take-off does. Written at
//! the body rows' times, numbers in shortest round-trip form.

use std::fs::File;
use std::io::{self, BufWriter, Write};
use std::path::{Path, PathBuf};
use tidelink_adapter_core::records::{number, Provenance};

/// The header of `links.csv` for these link names.
pub fn header(names: &[String]) -> String {
    let mut h = String::from("time_s");
    for n in names {
        h.push_str(&format!(",{n}_power_W"));
    }
    h
}

/// The open `links.csv`.
pub struct LinkCsv {
    path: PathBuf,
    w: BufWriter<File>,
}

impl LinkCsv {
    /// Creates `dir/links.csv` with the provenance line and the header of `names`.
    pub fn create(dir: &Path, names: &[String], provenance: &Provenance) -> io::Result<Self> {
        std::fs::create_dir_all(dir)?;
        let path = dir.join("links.csv");
        let mut w = BufWriter::new(File::create(&path)?);
        writeln!(w, "{}", provenance.line())?;
        writeln!(w, "{}", header(names))?;
        Ok(LinkCsv { path, w })
    }
    /// The file.
    pub fn path(&self) -> &Path {
        &self.path
    }
    /// One row: the time and each link's power, in the order of the names.
    pub fn write(&mut self, time: f64, powers: &[f64]) -> io::Result<()> {
        let mut line = number(time);
        for p in powers {
            line.push(',');
            line.push_str(&number(*p));
        }
        // One write of the whole row: a flush never leaves half a row in the file.
        line.push('\n');
        self.w.write_all(line.as_bytes())
    }
    /// Hands every whole row written so far to the operating system.
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
        let p = Provenance { case: "flap".into(), participant: "Solid".into(), run_at: "2026-12-02T17:20:32Z".into() };
        let mut f = LinkCsv::create(dir.path(), &["pto".into(), "hinge".into()], &p).unwrap();
        f.write(0.5, &[1.25, -3.0]).unwrap();
        f.write(0.6, &[1.5e-12, 120000.0]).unwrap();
        f.flush().unwrap();
        let text = std::fs::read_to_string(f.path()).unwrap();
        assert_eq!(
            text,
            "# case flap, participant Solid, run at 2026-12-02T17:20:32Z\n\
             time_s,pto_power_W,hinge_power_W\n0.5,1.25,-3\n0.6,1.5e-12,1.2e5\n"
        );
    }
}
