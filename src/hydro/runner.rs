//! Runs the embedded Python package and streams its progress.
//!
//! The sources of `hydro/tidelink_hydro` are compiled into the binary (so the command works from any
//! folder and the cache key covers them) and written to the cache before each run.

use super::venv::tail;
use anyhow::{bail, Context, Result};
use std::io::{BufRead, BufReader};
use std::path::Path;
use std::process::{Command, Stdio};
use std::sync::{Arc, Mutex};

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

/// Runs `python -m tidelink_hydro <json> <out>` with the package in `src_dir`, printing each
/// `progress d t text` line as `[hydro] [d/t] text` and other output as `[hydro] …`.
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
    for line in BufReader::new(stdout).lines().map_while(Result::ok) {
        println!("[hydro] {}", pretty(&line));
    }
    let status = child.wait().context("waiting for the Python process")?;
    let _ = errors.join();
    if !status.success() {
        let text = kept.lock().map(|k| k.clone()).unwrap_or_default();
        bail!("the Capytaine run failed ({status}); the end of its error output:\n{}", tail(&text, 20));
    }
    Ok(())
}

/// `progress 3 261 omega = …` → `[3/261] omega = …`; other lines unchanged.
fn pretty(line: &str) -> String {
    let mut parts = line.splitn(4, ' ');
    match (parts.next(), parts.next(), parts.next(), parts.next()) {
        (Some("progress"), Some(done), Some(total), rest) => format!("[{done}/{total}] {}", rest.unwrap_or("")),
        _ => line.to_string(),
    }
}
