//! Runs the embedded Python package and streams its progress.
//!
//! The sources of `hydro/tidelink_hydro` are compiled into the binary (so the command works from any
//! folder and the cache key covers them) and written to the cache before each run.

use super::venv::tail;
use crate::progress_bar::{clock, rate_eta, Bar};
use anyhow::{bail, Context, Result};
use std::io::{BufRead, BufReader};
use std::path::Path;
use std::process::{Command, Stdio};
use std::sync::{Arc, Mutex};
use std::time::Instant;

/// (file name, contents) of every module of the Python package.
pub const SOURCES: &[(&str, &str)] = &[
    ("__init__.py", include_str!("../../hydro/tidelink_hydro/__init__.py")),
    ("__main__.py", include_str!("../../hydro/tidelink_hydro/__main__.py")),
    ("bemio_writer.py", include_str!("../../hydro/tidelink_hydro/bemio_writer.py")),
    ("bodies.py", include_str!("../../hydro/tidelink_hydro/bodies.py")),
    ("hydrostatics.py", include_str!("../../hydro/tidelink_hydro/hydrostatics.py")),
    ("irf.py", include_str!("../../hydro/tidelink_hydro/irf.py")),
    ("mesh_files.py", include_str!("../../hydro/tidelink_hydro/mesh_files.py")),
    ("meshes.py", include_str!("../../hydro/tidelink_hydro/meshes.py")),
    ("profiles.py", include_str!("../../hydro/tidelink_hydro/profiles.py")),
    ("shapes.py", include_str!("../../hydro/tidelink_hydro/shapes.py")),
    ("solve.py", include_str!("../../hydro/tidelink_hydro/solve.py")),
    ("wamit.py", include_str!("../../hydro/tidelink_hydro/wamit.py")),
];

/// Writes the package under `dir/tidelink_hydro/`.
pub fn install_sources(dir: &Path) -> Result<()> {
    let pkg = dir.join("tidelink_hydro");
    std::fs::create_dir_all(&pkg).with_context(|| format!("cannot create {}", pkg.display()))?;
    for (name, text) in SOURCES {
        std::fs::write(pkg.join(name), text).with_context(|| format!("cannot write {}", pkg.join(name).display()))?;
    }
    Ok(())
}

/// Runs `python -m tidelink_hydro <json> <out>` with the package in `src_dir`. Its `progress d t
/// text` lines drive a bar on a terminal (frequencies done of total, time left), or print as
/// `[hydro] [d/t] text, m:ss left` otherwise; other output is printed as `[hydro] …`.
pub fn run(python: &Path, src_dir: &Path, json: &Path, out: &Path) -> Result<()> {
    let mut cmd = Command::new(python);
    cmd.args(["-u", "-m", "tidelink_hydro"]).arg(json).arg(out).env("PYTHONPATH", src_dir);
    if std::env::var_os("OMP_NUM_THREADS").is_none() {
        cmd.env("OMP_NUM_THREADS", "2");
    }
    let mut child = cmd
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .spawn()
        .with_context(|| format!("cannot start {}", python.display()))?;
    let stderr = child.stderr.take().context("no stderr pipe")?;
    let kept = Arc::new(Mutex::new(String::new()));
    let keep = Arc::clone(&kept);
    let errors = std::thread::spawn(move || {
        for line in BufReader::new(stderr).lines().map_while(Result::ok) {
            eprintln!("[hydro] {line}");
            if let Ok(mut k) = keep.lock() {
                k.push_str(&line);
                k.push('\n');
            }
        }
    });
    let stdout = child.stdout.take().context("no stdout pipe")?;
    let bar = Bar::on_terminal();
    // The time left is measured from the first frequency on (the set-up before it is one-off).
    let mut first: Option<(f64, Instant)> = None;
    for line in BufReader::new(stdout).lines().map_while(Result::ok) {
        let Some((done, total, text)) = parse(&line) else {
            match &bar {
                Some(b) => b.suspend(|| println!("[hydro] {line}")),
                None => println!("[hydro] {line}"),
            }
            continue;
        };
        let (d0, t0) = *first.get_or_insert((done, Instant::now()));
        let left = rate_eta(done - d0, total - d0, t0.elapsed().as_secs_f64()).map(|(_, left)| clock(left));
        let message = format!("[{done}/{total}] {text}{}", left.map(|l| format!(", {l} left")).unwrap_or_default());
        match &bar {
            Some(b) => b.show(if total > 0.0 { done / total } else { 0.0 }, format!("frequencies {message}")),
            None => println!("[hydro] {message}"),
        }
    }
    if let Some(b) = &bar {
        b.finish();
    }
    let status = child.wait().context("waiting for the Python process")?;
    let _ = errors.join();
    if !status.success() {
        let text = kept.lock().map(|k| k.clone()).unwrap_or_default();
        bail!("the Capytaine run failed ({status}); the end of its error output:\n{}", tail(&text, 20));
    }
    Ok(())
}

/// Runs `python -m <module> <args>` with the package in `src_dir` (a short step such as the WAMIT
/// import): its output printed as `[hydro] …`, its failure with the end of its error output.
pub fn run_module(python: &Path, src_dir: &Path, module: &str, args: &[&std::ffi::OsStr]) -> Result<()> {
    let out = Command::new(python)
        .args(["-u", "-m", module])
        .args(args)
        .env("PYTHONPATH", src_dir)
        .output()
        .with_context(|| format!("cannot start {}", python.display()))?;
    for line in String::from_utf8_lossy(&out.stdout).lines() {
        println!("[hydro] {line}");
    }
    if !out.status.success() {
        bail!("python -m {module} failed ({}):\n{}", out.status, tail(&String::from_utf8_lossy(&out.stderr), 20));
    }
    Ok(())
}

/// `progress 3 261 omega = …` → (3, 261, `omega = …`); `None` for other lines.
fn parse(line: &str) -> Option<(f64, f64, &str)> {
    let mut parts = line.splitn(4, ' ');
    match (parts.next(), parts.next(), parts.next(), parts.next()) {
        (Some("progress"), Some(done), Some(total), rest) => {
            Some((done.parse().ok()?, total.parse().ok()?, rest.unwrap_or("")))
        }
        _ => None,
    }
}

#[cfg(test)]
mod tests {
    use super::parse;

    #[test]
    fn progress_lines_are_read_and_others_left_alone() {
        assert_eq!(parse("progress 3 261 omega = 0.1 rad/s"), Some((3.0, 261.0, "omega = 0.1 rad/s")));
        assert_eq!(parse("progress 0 5"), Some((0.0, 5.0, "")));
        assert_eq!(parse("note: 2 bodies"), None);
        assert_eq!(parse("progress x 5 y"), None);
    }
}
