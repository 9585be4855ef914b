//! Exchange directories and what earlier runs left in them. A `precice-run` folder left by a
//! failed run makes the next handshake hang in preCICE (docs/design/participants.md §10), so
//! `run` removes the connection files of dead owners wherever an exchange-directory resolves; files
//! whose owners are alive are never removed, and those of another run stop this one before it
//! starts. Anything else there (other files, symbolic links, `precice-run` itself a link) is left
//! and named.

use crate::manifest::Case;
use anyhow::{bail, Result};
use std::path::PathBuf;
use tidelink_adapter_core::config::PreciceConfig;
use tidelink_adapter_core::coupling::native::clean_precice_run;
use tidelink_adapter_core::diagnostics::Diagnostics;

/// `<working dir>/<exchange-directory>` of every m2n connection of a launched participant,
/// each folder once.
pub fn directories(case: &Case, cfg: &PreciceConfig) -> Vec<PathBuf> {
    let mut out: Vec<PathBuf> = Vec::new();
    let mut keys = Vec::new();
    for (_, p) in case.launched() {
        let wd = case.working_dir(p);
        for m2n in cfg.m2ns.iter().filter(|m| m.acceptor == p.name || m.connector == p.name) {
            let dir = crate::paths::tidy(&wd.join(&m2n.exchange_directory));
            let key = dir.canonicalize().unwrap_or_else(|_| dir.clone());
            if !keys.contains(&key) {
                keys.push(key);
                out.push(dir);
            }
        }
    }
    out
}

/// Exchange directories the participants could not use: a file where the folder (or its
/// `precice-run`) must be. Errors at the `<m2n:…>` tag, for `tidelink check`; the engine would
/// otherwise stop at the handshake on "File exists".
pub fn unusable(case: &Case, cfg: &PreciceConfig) -> Diagnostics {
    let mut d = Diagnostics::default();
    for (_, p) in case.launched() {
        let wd = case.working_dir(p);
        for m2n in cfg.m2ns.iter().filter(|m| m.acceptor == p.name || m.connector == p.name) {
            let dir = crate::paths::tidy(&wd.join(&m2n.exchange_directory));
            let is_file = |p: &std::path::Path| std::fs::metadata(p).is_ok_and(|m| !m.is_dir());
            let why = if is_file(&dir) {
                format!("exchange-directory \"{}\" ({}) is a file, not a folder", m2n.exchange_directory, dir.display())
            } else if is_file(&dir.join("precice-run")) {
                format!(
                    "{} is a file, where the participants put their connection files",
                    dir.join("precice-run").display()
                )
            } else {
                continue;
            };
            let msg = format!("{why}: set exchange-directory to a folder (or remove the file)");
            if !d.0.iter().any(|x| x.message == msg) {
                d.error(m2n.loc.clone(), msg);
            }
        }
    }
    d
}

/// Cleans `<dir>/precice-run` for every exchange directory: removes the connection files dead
/// runs left and returns the lines to print: what was removed, and what was left because it is
/// not Tidelink's. A live connection file of another run than `run` (a
/// participant started by hand, or one of another launcher's run) is an error: that run is
/// using the directory. Live files of `run` itself (external participants started with its
/// identity) stay.
pub fn clean(dirs: &[PathBuf], run: &str) -> Result<Vec<String>> {
    let mut report = Vec::new();
    for dir in dirs {
        let run_dir = crate::paths::tidy(&dir.join("precice-run"));
        // `symlink_metadata`: a `precice-run` that is a link (dangling or not) is reported, never followed.
        if std::fs::symlink_metadata(&run_dir).is_err() {
            continue;
        }
        let cleaned = clean_precice_run(&run_dir);
        // A live `name~` beside a live `name` is a publication caught between its two steps (the
        // link into place, then the removal of the `~` file): `name` says whose it is.
        let in_progress = |file: &PathBuf| {
            let name = file.file_name().map(|n| n.to_string_lossy().into_owned()).unwrap_or_default();
            name.strip_suffix('~').is_some_and(|done| cleaned.live.iter().any(|(f, _)| *f == file.with_file_name(done)))
        };
        if let Some((file, owner)) = cleaned.live.iter().find(|(f, o)| o.run.as_deref() != Some(run) && !in_progress(f))
        {
            bail!(
                "another run is using {}: the connection file {} belongs to a running participant ({owner}); wait for \
                 it or stop it",
                dir.canonicalize().unwrap_or_else(|_| dir.clone()).display(),
                file.display()
            );
        }
        if let Some(target) = &cleaned.link {
            report.push(format!(
                "left {} alone: it is a symbolic link (to {}), and Tidelink never cleans through links; if a run \
                 hangs at its start, remove stale connection files there yourself",
                run_dir.display(),
                target.display()
            ));
        }
        if !cleaned.removed.is_empty() {
            report.push(format!("removed stale {} ({} file(s))", run_dir.display(), cleaned.removed.len()));
        } else if std::fs::symlink_metadata(&run_dir).is_err() {
            report.push(format!("removed stale {}", run_dir.display()));
        }
        if cleaned.foreign == [run_dir.clone()] {
            report.push(format!(
                "left {} alone: it is not a folder, but the participants will need a folder there (move it away)",
                run_dir.display()
            ));
        } else if !cleaned.foreign.is_empty() {
            report.push(foreign(&run_dir, &cleaned.foreign));
        }
    }
    Ok(report)
}

/// At most this many entries that are not Tidelink's are named one by one.
const FOREIGN_SHOWN: usize = 5;

/// The line naming what was left in `run_dir` because neither preCICE nor Tidelink wrote it.
fn foreign(run_dir: &std::path::Path, left: &[PathBuf]) -> String {
    let mut names: Vec<String> =
        left.iter().take(FOREIGN_SHOWN).map(|p| p.strip_prefix(run_dir).unwrap_or(p).display().to_string()).collect();
    if left.len() > FOREIGN_SHOWN {
        names.push(format!("and {} more", left.len() - FOREIGN_SHOWN));
    }
    format!(
        "left {} item(s) in {} that are not connection files of preCICE or Tidelink (symbolic links are never \
         followed): {}",
        left.len(),
        run_dir.display(),
        names.join(", ")
    )
}

/// Removes `<dir>/precice-run` of every exchange directory when the run left it empty (its
/// participants remove their own files when they end); a folder with anything in it stays.
pub fn remove_empty(dirs: &[PathBuf]) {
    for dir in dirs {
        let _ = std::fs::remove_dir(dir.join("precice-run"));
    }
}
