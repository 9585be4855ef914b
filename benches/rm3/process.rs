//! The shipped case as a user runs it: `tidelink run <case>` with the release binaries, two
//! participant processes, timed from launch to exit. Every line the launcher prints is stamped on
//! arrival, so the start-up (launch to the participants' "coupling initialized" lines, after
//! which they step the first window) can be told apart from the stepping.

use std::io::{BufRead, BufReader};
use std::path::{Path, PathBuf};
use std::process::{Command, Stdio};
use std::time::Instant;

/// What a `tidelink run` did.
pub struct ProcessRun {
    /// Launch to exit, s.
    pub wall: f64,
    /// Launch to the launcher's "started" line: its check of the case, which runs every
    /// participant program with `--check` (models built, radiation identified), s.
    pub checked: Option<f64>,
    /// Launch to the last participant's "coupling initialized" line: the start-up, after which
    /// the participants step the first window, s.
    pub initialized: Option<f64>,
    /// The Fluid's own figure for building its model (the radiation identification), s.
    pub tdpf_model: Option<f64>,
    /// The launcher's lines with their arrival times (s after launch).
    pub lines: Vec<(f64, String)>,
}

/// The `tidelink` binary of this build and its participant programs beside it, or why not.
pub fn binaries() -> Result<PathBuf, String> {
    let tidelink = PathBuf::from(env!("CARGO_BIN_EXE_tidelink"));
    let dir = tidelink.parent().ok_or("the tidelink binary has no folder")?;
    for p in ["tidelink-tdpf", "tidelink-mbs"] {
        if !dir.join(p).is_file() {
            return Err(format!(
                "{} is not built beside {}: run `cargo build --release -p tidelink-tdpf -p tidelink-mbs` first",
                p,
                tidelink.display()
            ));
        }
    }
    Ok(tidelink)
}

/// The arrival of the first line containing `what`, if any.
fn first(lines: &[(f64, String)], what: &str) -> Option<f64> {
    lines.iter().find(|(_, l)| l.contains(what)).map(|(t, _)| *t)
}

/// The arrival of the last line containing `what`, if any.
fn last(lines: &[(f64, String)], what: &str) -> Option<f64> {
    lines.iter().rev().find(|(_, l)| l.contains(what)).map(|(t, _)| *t)
}

/// Runs `tidelink run case_dir` and waits for it.
pub fn run(tidelink: &Path, case_dir: &Path) -> Result<ProcessRun, String> {
    let start = Instant::now();
    let mut child = Command::new(tidelink)
        .arg("run")
        .arg(case_dir)
        .stdin(Stdio::null())
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .spawn()
        .map_err(|e| format!("cannot start {}: {e}", tidelink.display()))?;
    let (tx, rx) = std::sync::mpsc::channel::<(f64, String)>();
    let readers: Vec<_> = [
        child.stdout.take().map(|o| Box::new(o) as Box<dyn std::io::Read + Send>),
        child.stderr.take().map(|e| Box::new(e) as Box<dyn std::io::Read + Send>),
    ]
    .into_iter()
    .flatten()
    .map(|stream| {
        let tx = tx.clone();
        std::thread::spawn(move || {
            for line in BufReader::new(stream).lines().map_while(Result::ok) {
                let _ = tx.send((start.elapsed().as_secs_f64(), line));
            }
        })
    })
    .collect();
    drop(tx);
    let status = child.wait().map_err(|e| format!("waiting for tidelink run: {e}"))?;
    let wall = start.elapsed().as_secs_f64();
    for r in readers {
        let _ = r.join();
    }
    let mut lines: Vec<(f64, String)> = rx.into_iter().collect();
    lines.sort_by(|a, b| a.0.total_cmp(&b.0));
    if !status.success() {
        let tail: Vec<&str> = lines.iter().rev().take(20).rev().map(|(_, l)| l.as_str()).collect();
        return Err(format!("tidelink run failed ({status}):\n{}", tail.join("\n")));
    }
    let checked = first(&lines, "started 2 participant(s)").or_else(|| first(&lines, "participant(s) of"));
    let initialized = last(&lines, "coupling initialized");
    let tdpf_model = lines.iter().find_map(|(_, l)| {
        let at = l.find("model built in ")? + "model built in ".len();
        l[at..].split_whitespace().next()?.parse().ok()
    });
    Ok(ProcessRun { wall, checked, initialized, tdpf_model, lines })
}
