//! `command: [python, …]` where no `python` is on PATH: the host starts `python3` instead and
//! says so in a log line (the document's portable convention: a stock Python 3 that installs
//! only `python3` runs modules written for `python`). In a test binary of its own because it
//! changes this process's PATH.

use serde_json::json;
use std::path::{Path, PathBuf};
use std::sync::Mutex;
use std::time::Duration;
use tidelink_mbs_solver::ExternalLaw;
use tidelink_pto::{ModuleClient, ModuleSpec};

/// Keeps every log line.
struct Capture(Mutex<Vec<String>>);

impl log::Log for Capture {
    fn enabled(&self, _: &log::Metadata) -> bool {
        true
    }
    fn log(&self, record: &log::Record) {
        self.0.lock().unwrap().push(record.args().to_string());
    }
    fn flush(&self) {}
}

static LINES: Capture = Capture(Mutex::new(Vec::new()));

/// The interpreter `python3` runs as (a shim such as pyenv's is a script that needs the
/// original PATH; its interpreter does not).
fn python3() -> PathBuf {
    let out = std::process::Command::new("python3")
        .args(["-c", "import sys; print(sys.executable)"])
        .output()
        .expect("python3 on PATH (the module host's tests need it)");
    PathBuf::from(String::from_utf8_lossy(&out.stdout).trim())
}

#[test]
fn python_missing_falls_back_to_python3_with_a_log_line() {
    log::set_logger(&LINES).unwrap();
    log::set_max_level(log::LevelFilter::Info);
    let python3 = python3();
    assert!(python3.is_file(), "{}", python3.display());
    // A PATH with a `python3` and no `python`.
    let bin = tempfile::tempdir().unwrap();
    std::os::unix::fs::symlink(&python3, bin.path().join("python3")).unwrap();
    std::env::set_var("PATH", bin.path());
    let modules = Path::new(env!("CARGO_MANIFEST_DIR")).join("tests/modules");
    let mut c = ModuleClient::new(ModuleSpec {
        label: "TSDA `pto`".into(),
        command: vec!["python".into(), "faulty_module.py".into()],
        dir: modules,
        kind: "pto".into(),
        in_names: vec!["displacement".into(), "velocity".into()],
        n_outputs: 1,
        timeout: Duration::from_secs(20),
        config: json!({"fault": "none"}),
    });
    c.start(0.01).unwrap();
    // The module's law, out = −2 v: it runs.
    assert_eq!(c.evaluate(0.0, 0.01, &[0.0, 0.5]).unwrap(), vec![-1.0]);
    c.shutdown().unwrap();
    let lines = LINES.0.lock().unwrap();
    assert!(
        lines.iter().any(|l| l.contains("`python` is not found on PATH; starting the module with `python3`")),
        "{lines:?}"
    );
}
