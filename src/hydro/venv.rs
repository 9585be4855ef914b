//! The private Python virtual environment with pinned Capytaine, h5py and SciPy.
//!
//! Created on first use with `python3 -m venv` (or `$TIDELINK_PYTHON`), then `pip install`ed; a stamp
//! file holding the pins marks it complete, so an interrupted install is redone, and new pins rebuild it.

use anyhow::{anyhow, bail, Context, Result};
use std::path::{Path, PathBuf};
use std::process::Command;

/// The exact versions installed (capytaine 3.0.0 ships cp311+ manylinux wheels with its own runtime).
pub const REQUIREMENTS: &[&str] = &["capytaine==3.0.0", "h5py==3.16.0", "scipy==1.17.1"];

const STAMP: &str = "tidelink-requirements.txt";

/// The Python interpreter of the environment at `dir`.
pub fn python(dir: &Path) -> PathBuf {
    dir.join("bin").join("python")
}

/// The environment under `dir`, created and installed if it is missing or stale.
pub fn ensure(dir: &Path) -> Result<PathBuf> {
    let wanted = REQUIREMENTS.join("\n") + "\n";
    let stamp = dir.join(STAMP);
    if python(dir).is_file() && std::fs::read_to_string(&stamp).is_ok_and(|s| s == wanted) {
        return Ok(python(dir));
    }
    if dir.exists() {
        std::fs::remove_dir_all(dir).with_context(|| format!("cannot remove the stale {}", dir.display()))?;
    }
    let base = std::env::var("TIDELINK_PYTHON").unwrap_or_else(|_| "python3".into());
    println!("[hydro] first use: creating a Python environment in {} (about 380 MB)", dir.display());
    let out = Command::new(&base).args(["-m", "venv"]).arg(dir).output().map_err(|e| {
        anyhow!("cannot start `{base}` ({e}): tidelink hydro needs Python 3.11+ (set TIDELINK_PYTHON to choose one)")
    })?;
    if !out.status.success() {
        let _ = std::fs::remove_dir_all(dir);
        bail!(
            "`{base} -m venv` failed (on Debian/Ubuntu install python3-venv):\n{}",
            tail(&String::from_utf8_lossy(&out.stderr), 15)
        );
    }
    println!("[hydro] pip install {} (about 75 MB from PyPI, under a minute)", REQUIREMENTS.join(" "));
    let out = Command::new(python(dir))
        .args(["-m", "pip", "install", "--disable-pip-version-check", "--no-input", "--progress-bar", "off"])
        .args(REQUIREMENTS)
        .output()
        .context("cannot start the environment's pip")?;
    if !out.status.success() {
        let text = String::from_utf8_lossy(&out.stdout).to_string() + &String::from_utf8_lossy(&out.stderr);
        bail!("pip install failed; the end of its output:\n{}", tail(&text, 25));
    }
    std::fs::write(&stamp, wanted).with_context(|| format!("cannot write {}", stamp.display()))?;
    Ok(python(dir))
}

/// The last `n` lines of `text`.
pub fn tail(text: &str, n: usize) -> String {
    let lines: Vec<&str> = text.lines().collect();
    lines[lines.len().saturating_sub(n)..].join("\n")
}
