//! The `.pvd` index: a ParaView "collection" listing one data file per time (and part), so
//! that a series of `.vtu` files opens as one time-dependent data set.

use std::fmt::Write as _;
use std::path::{Path, PathBuf};

use quick_xml::events::Event;
use quick_xml::Reader;

use crate::write::escape;
use crate::VtkError;

/// One data file of the collection.
#[derive(Clone, Debug, PartialEq)]
pub struct PvdEntry {
    /// Simulated time (s) the file shows.
    pub time: f64,
    /// Part number: several files at one time (fluid, walls, bodies) are parts 0, 1, ….
    pub part: usize,
    /// The file, relative to the `.pvd` file's folder (written with `/` separators).
    pub file: String,
}

/// A `.pvd` file kept up to date on disk: every [`PvdIndex::push`] rewrites it, so a run that
/// stops early still leaves an index of what it wrote.
#[derive(Clone, Debug)]
pub struct PvdIndex {
    path: PathBuf,
    entries: Vec<PvdEntry>,
}

impl PvdIndex {
    /// An empty index to be written at `path` (nothing is written before the first push).
    pub fn new(path: impl Into<PathBuf>) -> Self {
        Self { path: path.into(), entries: Vec::new() }
    }

    /// The index file.
    pub fn path(&self) -> &Path {
        &self.path
    }

    /// The entries so far.
    pub fn entries(&self) -> &[PvdEntry] {
        &self.entries
    }

    /// Adds a file at `time` and rewrites the index (through a temporary file and a rename, so a
    /// reader never sees half an index).
    pub fn push(&mut self, time: f64, part: usize, file: &str) -> Result<(), VtkError> {
        self.entries.push(PvdEntry { time, part, file: file.replace('\\', "/") });
        self.write()
    }

    /// Forgets the entries after `time` (a repeated stretch of simulation) and rewrites the index.
    pub fn truncate_after(&mut self, time: f64) -> Result<(), VtkError> {
        let before = self.entries.len();
        self.entries.retain(|e| e.time <= time);
        if self.entries.len() == before {
            return Ok(());
        }
        self.write()
    }

    /// The index as text.
    pub fn to_xml(&self) -> String {
        let mut out =
            String::from("<?xml version=\"1.0\"?>\n<VTKFile type=\"Collection\" version=\"0.1\">\n  <Collection>\n");
        for e in &self.entries {
            let _ = writeln!(
                out,
                "    <DataSet timestep=\"{:e}\" group=\"\" part=\"{}\" file=\"{}\"/>",
                e.time,
                e.part,
                escape(&e.file)
            );
        }
        out.push_str("  </Collection>\n</VTKFile>\n");
        out
    }

    fn write(&self) -> Result<(), VtkError> {
        let io = |source| VtkError::Io { path: self.path.clone(), source };
        let mut tmp = self.path.clone().into_os_string();
        tmp.push(".tmp");
        std::fs::write(&tmp, self.to_xml()).map_err(io)?;
        std::fs::rename(&tmp, &self.path).map_err(io)
    }

    /// Reads an index written by this type (for tests of the files a run left).
    pub fn read(path: &Path) -> Result<Self, VtkError> {
        let fail = |why: String| VtkError::Parse { path: path.into(), why };
        let text = std::fs::read_to_string(path).map_err(|source| VtkError::Io { path: path.into(), source })?;
        let mut reader = Reader::from_str(&text);
        let mut entries = Vec::new();
        loop {
            match reader.read_event().map_err(|e| fail(format!("malformed XML: {e}")))? {
                Event::Empty(e) | Event::Start(e) if e.name().as_ref() == b"DataSet" => {
                    let get = |key: &str| {
                        e.attributes()
                            .flatten()
                            .find(|a| a.key.as_ref() == key.as_bytes())
                            .and_then(|a| a.unescape_value().ok().map(|v| v.into_owned()))
                    };
                    let time = get("timestep").and_then(|t| t.parse().ok());
                    let part = get("part").map_or(Some(0), |p| p.parse().ok());
                    match (time, part, get("file")) {
                        (Some(time), Some(part), Some(file)) => entries.push(PvdEntry { time, part, file }),
                        _ => return Err(fail("a DataSet without a valid timestep, part or file".into())),
                    }
                }
                Event::Eof => break,
                _ => {}
            }
        }
        Ok(Self { path: path.into(), entries })
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn every_push_leaves_a_complete_index_on_disk() {
        let dir = tempfile::tempdir().unwrap();
        let path = dir.path().join("fluid.pvd");
        let mut index = PvdIndex::new(&path);
        assert!(!path.exists());
        index.push(0.0, 0, "fluid_000000.vtu").unwrap();
        index.push(0.0, 1, "walls_000000.vtu").unwrap();
        assert_eq!(PvdIndex::read(&path).unwrap().entries(), index.entries());
        index.push(0.125, 0, "vtu\\fluid_000001.vtu").unwrap();
        let back = PvdIndex::read(&path).unwrap();
        assert_eq!(back.entries().len(), 3);
        assert_eq!(back.entries()[2], PvdEntry { time: 0.125, part: 0, file: "vtu/fluid_000001.vtu".into() });
        assert!(!dir.path().join("fluid.pvd.tmp").exists());
    }

    #[test]
    fn a_repeated_stretch_drops_its_entries() {
        let dir = tempfile::tempdir().unwrap();
        let path = dir.path().join("a.pvd");
        let mut index = PvdIndex::new(&path);
        for k in 0..5 {
            index.push(0.1 * k as f64, 0, &format!("a_{k}.vtu")).unwrap();
        }
        index.truncate_after(0.25).unwrap();
        let back = PvdIndex::read(&path).unwrap();
        assert_eq!(
            back.entries().iter().map(|e| e.file.as_str()).collect::<Vec<_>>(),
            ["a_0.vtu", "a_1.vtu", "a_2.vtu"]
        );
    }

    #[test]
    fn times_keep_every_digit_and_names_are_escaped() {
        let mut index = PvdIndex::new("x.pvd");
        index.entries.push(PvdEntry { time: 0.1 + 0.2, part: 0, file: "a&b.vtu".into() });
        let text = index.to_xml();
        assert!(text.contains("timestep=\"3.0000000000000004e-1\""), "{text}");
        assert!(text.contains("file=\"a&amp;b.vtu\""), "{text}");
    }
}
