//! Test helpers shared by every crate's tests (feature `testing`): temporary case
//! folders and participants run in threads. Kept here so no test copies a fixture.

use std::path::{Path, PathBuf};
use std::thread::JoinHandle;

/// A temporary folder holding a preCICE XML file; removed when dropped.
pub struct TempCase {
    /// The case folder; owning it keeps it alive.
    pub dir: tempfile::TempDir,
    /// The XML file inside `dir`.
    pub config: PathBuf,
}

impl TempCase {
    /// The case folder, where the participants' other files go.
    pub fn path(&self) -> &Path {
        self.dir.path()
    }
    /// Writes another file into the case folder and returns its path.
    pub fn write(&self, name: &str, text: &str) -> PathBuf {
        let p = self.dir.path().join(name);
        if let Some(parent) = p.parent() {
            std::fs::create_dir_all(parent).expect("create case sub-folder");
        }
        std::fs::write(&p, text.replace("{dir}", &self.dir.path().display().to_string())).expect("write case file");
        p
    }
}

/// Writes `xml` as `precice-config.xml` into a fresh temporary folder. Every `{dir}` in the
/// text is replaced by that folder's path, so `exchange-directory="{dir}"` keeps concurrent
/// tests' rendezvous files apart.
pub fn temp_case(xml: &str) -> TempCase {
    let dir = tempfile::tempdir().expect("create temporary case folder");
    let config = dir.path().join("precice-config.xml");
    std::fs::write(&config, xml.replace("{dir}", &dir.path().display().to_string())).expect("write precice-config.xml");
    TempCase { dir, config }
}

/// A named job for [`run_in_threads`].
pub type Job<T> = (&'static str, Box<dyn FnOnce() -> T + Send>);

/// Runs each closure in its own named thread and returns their results in order.
pub fn run_in_threads<T: Send + 'static>(jobs: Vec<Job<T>>) -> Vec<T> {
    let handles: Vec<JoinHandle<T>> = jobs
        .into_iter()
        .map(|(name, job)| {
            std::thread::Builder::new().name(name.to_string()).spawn(job).expect("spawn participant thread")
        })
        .collect();
    handles.into_iter().map(|h| h.join().expect("participant thread panicked")).collect()
}

/// Runs participants in threads, each reporting the output files it wrote, and returns all
/// of those files; a participant that failed panics the test with its message.
pub fn run_participants(jobs: Vec<Job<Result<Vec<PathBuf>, String>>>) -> Vec<PathBuf> {
    let mut outputs = Vec::new();
    for r in run_in_threads(jobs) {
        outputs.extend(r.unwrap_or_else(|e| panic!("{e}")));
    }
    outputs
}

/// The shared reference-data folder (`../shared` next to the workspace), if present.
pub fn shared_dir() -> Option<PathBuf> {
    let p = Path::new(env!("CARGO_MANIFEST_DIR")).join("../../shared");
    p.is_dir().then(|| p.canonicalize().unwrap_or(p))
}

/// A file under the shared folder, or `None` after printing the skip notice naming it.
pub fn shared_file(rel: &str) -> Option<PathBuf> {
    match shared_dir().map(|d| d.join(rel)) {
        Some(p) if p.exists() => Some(p),
        _ => {
            println!("skipped: needs ../shared/{rel}");
            None
        }
    }
}
