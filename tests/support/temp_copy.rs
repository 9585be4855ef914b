//! A case folder of the repository copied file by file into a temporary case, for the
//! participants run in threads: each file read when copied, with `(from, to)` edits that must
//! find their text (so that a test notices when the shipped file changes under it).

#![allow(dead_code)]

use std::path::{Path, PathBuf};
use tidelink_adapter_core::testing::{self, TempCase};

/// A temporary case filled from a folder of the repository.
pub struct TempCopy {
    /// The temporary case (its XML written, `{dir}` in any file replaced by its folder).
    pub case: TempCase,
    /// The folder the files are copied from.
    from: PathBuf,
}

/// `text` (of `file`, named in a failure) with each `(from, to)` of `edits` replaced in turn;
/// an edit whose `from` is not there fails the test.
pub fn edited(file: &str, text: &str, edits: &[(&str, &str)]) -> String {
    let mut text = text.to_string();
    for (from, to) in edits {
        assert!(text.contains(from), "{file} no longer contains `{from}`");
        text = text.replace(from, to);
    }
    text
}

/// A participant file without its `fps:` line: one output row per window, whatever its size.
pub fn without_fps(text: &str) -> String {
    text.lines().filter(|l| !l.trim_start().starts_with("fps:")).map(|l| format!("{l}\n")).collect()
}

impl TempCopy {
    /// The XML `xml` of folder `from` (relative to the repository) with `edits`, as the case's
    /// `precice-config.xml`; its `{dir}` is the case folder.
    pub fn new(from: &str, xml: &str, edits: &[(&str, &str)]) -> TempCopy {
        let from = Path::new(env!("CARGO_MANIFEST_DIR")).join(from);
        let text = edited(xml, &read(&from, xml), edits);
        TempCopy { case: testing::temp_case(&text), from }
    }

    /// A shipped case's XML `xml`, its rendezvous files moved from `.` to the case folder (so
    /// that concurrent tests keep apart), with `edits`.
    pub fn shipped(from: &str, xml: &str, edits: &[(&str, &str)]) -> TempCopy {
        let all: Vec<(&str, &str)> = [(r#"exchange-directory=".""#, r#"exchange-directory="{dir}""#)]
            .into_iter()
            .chain(edits.iter().copied())
            .collect();
        TempCopy::new(from, xml, &all)
    }

    /// The text of the folder's file `name` with `edits`.
    pub fn text(&self, name: &str, edits: &[(&str, &str)]) -> String {
        edited(name, &read(&self.from, name), edits)
    }

    /// Writes `text` as the case's file `name`; its path.
    pub fn write(&self, name: &str, text: &str) -> PathBuf {
        self.case.write(name, text)
    }

    /// Copies the folder's file `name` to the same place in the case, with `edits`; its path.
    pub fn copy(&self, name: &str, edits: &[(&str, &str)]) -> PathBuf {
        self.write(name, &self.text(name, edits))
    }

    /// Copies each of the folder's files `names` unchanged.
    pub fn copy_all(&self, names: &[&str]) {
        for name in names {
            self.copy(name, &[]);
        }
    }
}

/// The file `name` of folder `dir`.
fn read(dir: &Path, name: &str) -> String {
    std::fs::read_to_string(dir.join(name)).unwrap_or_else(|e| panic!("read {}: {e}", dir.join(name).display()))
}
