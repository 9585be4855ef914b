//! Test helpers shared by every crate's tests (feature `testing`): temporary case
//! folders, participants run in threads, and the one way to find the reference data of
//! ../shared ([`shared_path`]). Kept here so no test copies a fixture.

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

thread_local! {
    static LOG_DIR: std::cell::RefCell<Option<PathBuf>> = const { std::cell::RefCell::new(None) };
}

/// Where native participants built on this thread write their iteration and convergence logs
/// when a test chose a folder ([`run_in_threads`] does); `None`: the working directory, as in a run.
pub fn thread_log_directory() -> Option<PathBuf> {
    LOG_DIR.with(|d| d.borrow().clone())
}

/// Runs each closure in its own named thread and returns their results in order. Implicit
/// schemes' logs go to a temporary folder, not to the working directory of the test (the
/// repository).
pub fn run_in_threads<T: Send + 'static>(jobs: Vec<Job<T>>) -> Vec<T> {
    let logs = tempfile::tempdir().expect("a temporary folder for the coupling logs");
    let handles: Vec<JoinHandle<T>> = jobs
        .into_iter()
        .map(|(name, job)| {
            let dir = logs.path().to_path_buf();
            let job = move || {
                LOG_DIR.with(|d| *d.borrow_mut() = Some(dir));
                job()
            };
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

/// The reference-data folder: `../shared` beside the workspace root, or `$TIDELINK_SHARED`, as
/// this crate's build script saw it (tools/shared-data, docs/testing.md). It may not exist.
pub fn shared_dir() -> PathBuf {
    PathBuf::from(env!("TIDELINK_SHARED_DIR"))
}

/// The file or folder `rel` of the shared folder, or why it is not there (naming both).
pub fn find_shared(rel: &str) -> Result<PathBuf, String> {
    tidelink_shared_data::find(env!("TIDELINK_SHARED_DIR"), rel)
}

/// The file or folder `rel` of the shared folder; panics with [`find_shared`]'s message when it
/// is missing. Tests that call it carry
/// `#[cfg_attr(not(tidelink_shared), ignore = "needs ../shared/…")]`, so they are reported as
/// ignored where the folder is absent and fail here when `TIDELINK_REQUIRE_SHARED=1`.
#[track_caller]
pub fn shared_path(rel: &str) -> PathBuf {
    tidelink_shared_data::require(env!("TIDELINK_SHARED_DIR"), rel)
}
