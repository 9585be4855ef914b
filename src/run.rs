//! `tidelink run`: check the case, take the case folder and its exchange directories for this
//! run, clear what dead runs left there, start every participant and supervise them until they
//! all finish (or one fails, or the launcher is told to stop).

use crate::check;
use crate::exchange;
use crate::launch;
use crate::lifeline::Lifeline;
use crate::manifest::{Case, ParticipantEntry};
use crate::run_lock;
use crate::supervise::{self, Outcome};
use anyhow::{bail, Context, Result};
use std::fmt;
use std::io::Write;
use std::path::{Path, PathBuf};
use std::sync::atomic::{AtomicUsize, Ordering};
use std::sync::mpsc;
use std::sync::Arc;
use tidelink_adapter_core::config::{PreciceConfig, TimeWindowSize};
use tidelink_adapter_core::launcher::{self, RUN_ID_ENV};

/// One line on stderr. Unlike `eprintln!` it cannot panic: after SIGHUP the terminal is gone,
/// and the launcher must still stop everyone and exit.
fn say(args: fmt::Arguments) {
    let _ = writeln!(std::io::stderr(), "{args}");
}

/// Runs the case at `path`; the exit code: 0 when every participant exited 0, 1 when one
/// failed, 130 after SIGINT, SIGTERM or SIGHUP.
pub fn run(path: &Path) -> Result<u8> {
    if check::is_xml_file(path) {
        bail!(
            "{} is a preCICE configuration, not a case: `tidelink run` needs a case folder whose tidelink.yaml says \
             how to start each participant (docs/user-guide.md); `tidelink check {}` validates the file alone",
            path.display(),
            path.display()
        );
    }
    // First of all, so that a signal during the check is not lost (nothing is started then).
    let interrupts = Arc::new(AtomicUsize::new(0));
    {
        let flag = Arc::clone(&interrupts);
        if let Err(e) = ctrlc::set_handler(move || {
            flag.fetch_add(1, Ordering::SeqCst);
            // A check in progress stops at once (its program is killed).
            crate::participant_check::cancel();
        }) {
            log::warn!("Ctrl-C, SIGTERM and SIGHUP will not stop the participants cleanly: {e}");
        }
    }
    let checked = check::check_case(path);
    if interrupts.load(Ordering::SeqCst) > 0 {
        say(format_args!("interrupted during the check; nothing was started"));
        return Ok(130);
    }
    for d in &checked.diags.0 {
        say(format_args!("{d}"));
    }
    let (Some(case), Some(cfg)) = (checked.case, checked.config) else {
        bail!("the case does not check; nothing was started")
    };
    if checked.diags.has_errors() {
        bail!("the case does not check ({} errors); nothing was started", checked.diags.errors().count());
    }
    let run = run_id()?;
    let exchange_dirs = exchange::directories(&case, &cfg);
    let case_dir = if case.dir.as_os_str().is_empty() { PathBuf::from(".") } else { case.dir.clone() };
    let mut locked = vec![case_dir.clone()];
    locked.extend(exchange_dirs.iter().cloned());
    let case_abs = case_dir.canonicalize().unwrap_or(case_dir);
    // Held until this function returns: no second run can use these folders meanwhile.
    let _claim = run_lock::claim(&locked, &case_abs, &run).context("nothing was started")?;
    for line in exchange::clean(&exchange_dirs, &run).context("nothing was started")? {
        say(format_args!("{line}"));
    }
    for p in case.manifest.participants.iter().filter(|p| p.external) {
        say(format_args!("{}", external_note(&case, p, &run)));
    }
    if interrupts.load(Ordering::SeqCst) > 0 {
        say(format_args!("interrupted; nothing was started"));
        return Ok(130);
    }
    let secret = launch::run_secret(&case)?;
    let lifeline = Lifeline::new().context("cannot create the pipe that ties participants to the launcher")?;
    let (tx, rx) = mpsc::channel();
    let mut runs = Vec::new();
    for (who, (_, p)) in case.launched().enumerate() {
        match launch::start(&case, who, p, &tx, &run, secret.as_ref(), &lifeline) {
            Ok(r) => runs.push(r),
            Err(e) => {
                for r in &mut runs {
                    crate::stop::signal_group(&mut r.child, "KILL");
                    let _ = r.child.wait();
                }
                return Err(e);
            }
        }
    }
    drop(tx);
    let names: Vec<String> = runs.iter().map(|r| r.name.clone()).collect();
    say(format_args!("started {} participant(s) of `{}`: {}", runs.len(), case.name(), names.join(", ")));
    let outcome = supervise::supervise(runs, rx, total_time(&cfg), interrupts);
    exchange::remove_empty(&exchange_dirs);
    match outcome {
        Outcome::Success => {
            say(format_args!("all participants exited 0"));
            Ok(0)
        }
        Outcome::Failed { who, status, tail, partners, stopped } => {
            say(format_args!("error: participant `{}` {}", names[who], supervise::describe(&status)));
            for p in partners {
                say(format_args!("`{p}` stopped because `{}` failed", names[who]));
            }
            if !stopped.is_empty() {
                say(format_args!("stopped: {}", stopped.join(", ")));
            }
            if tail.is_empty() {
                say(format_args!("`{}` printed nothing", names[who]));
            } else {
                say(format_args!("last {} output lines of `{}`:", tail.len(), names[who]));
                for l in tail {
                    say(format_args!("  {l}"));
                }
            }
            Ok(1)
        }
        Outcome::Interrupted { stopped } => {
            let stopped = if stopped.is_empty() { "none".into() } else { stopped.join(", ") };
            say(format_args!("interrupted; stopped: {stopped}"));
            Ok(130)
        }
    }
}

/// This run's identity: `TIDELINK_RUN_ID` when set (so that external participants can be
/// started with it beforehand), else a new one from the time, the process id and the
/// standard library's per-process random hash keys.
fn run_id() -> Result<String> {
    if let Ok(id) = std::env::var(RUN_ID_ENV) {
        let id = id.trim();
        if !id.is_empty() {
            if !launcher::is_valid_run_id(id) {
                bail!("{RUN_ID_ENV}=\"{id}\" is not a run identity (1 to 64 letters, digits, `-`, `_` or `.`)");
            }
            return Ok(id.to_string());
        }
    }
    use std::hash::{BuildHasher, Hasher};
    let nanos = std::time::SystemTime::now().duration_since(std::time::UNIX_EPOCH).unwrap_or_default().as_nanos();
    let mut h = std::collections::hash_map::RandomState::new().build_hasher();
    h.write_u128(nanos);
    h.write_u32(std::process::id());
    Ok(format!("{:016x}", h.finish()))
}

/// The simulated duration the XML declares (max-time, or max-time-windows × fixed window size).
pub fn total_time(cfg: &PreciceConfig) -> Option<f64> {
    cfg.schemes
        .iter()
        .filter_map(|s| {
            let by_windows = match (s.max_time_windows, s.time_window_size) {
                (Some(n), TimeWindowSize::Fixed(dt)) => Some(n as f64 * dt),
                _ => None,
            };
            match (s.max_time, by_windows) {
                (Some(a), Some(b)) => Some(a.min(b)),
                (a, b) => a.or(b),
            }
        })
        .reduce(f64::max)
}

/// What `run` says about a participant it does not start: with the native engine, the run
/// identity to start it with; with libprecice (whose connection files carry no identity), only
/// that it is to be started.
fn external_note(case: &Case, p: &ParticipantEntry, run: &str) -> String {
    if case.backend_for(p) == Some("precice") {
        format!(
            "note: `{}` is external; start it yourself (with the precice backend it connects through the XML's \
             exchange directory; no run identity applies)",
            p.name
        )
    } else {
        format!(
            "note: `{}` is external; start it yourself, with {RUN_ID_ENV}={run} in its environment (it pairs only \
             with participants of this run)",
            p.name
        )
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_note_on_an_external_participant_fits_its_backend() {
        let notes = |backend: &str| {
            let dir = tempfile::tempdir().expect("temporary case");
            let manifest = format!(
                "precice_config: p.xml\n{backend}participants:\n  - name: Solid\n    command: tidelink-mbs\n  \
                 - name: Fluid\n    external: true\n"
            );
            std::fs::write(dir.path().join("tidelink.yaml"), manifest).expect("manifest");
            let case = Case::load(dir.path()).unwrap_or_else(|d| panic!("{d}"));
            external_note(&case, &case.manifest.participants[1], "run-1")
        };
        let native = notes("");
        assert!(native.contains("`Fluid` is external") && native.contains("TIDELINK_RUN_ID=run-1"), "{native}");
        let precice = notes("backend: precice\n");
        assert!(precice.contains("`Fluid` is external") && !precice.contains("TIDELINK_RUN_ID"), "{precice}");
    }
}
