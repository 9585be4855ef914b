//! `tidelink run`: check the case, clear stale rendezvous files, start every participant
//! and supervise them until they all finish (or one fails).

use crate::check;
use crate::exchange;
use crate::launch;
use crate::supervise::{self, Outcome};
use anyhow::{bail, Result};
use std::path::Path;
use std::sync::atomic::{AtomicUsize, Ordering};
use std::sync::mpsc;
use std::sync::Arc;
use tidelink_adapter_core::config::{PreciceConfig, TimeWindowSize};

/// Runs the case at `path`; the exit code: 0 when every participant exited 0, 1 when one
/// failed, 130 after Ctrl-C.
pub fn run(path: &Path) -> Result<u8> {
    if check::is_xml_file(path) {
        bail!(
            "{} is a preCICE configuration, not a case: `tidelink run` needs a case folder whose tidelink.yaml says \
             how to start each participant (docs/user-guide.md); `tidelink check {}` validates the file alone",
            path.display(),
            path.display()
        );
    }
    let checked = check::check_case(path);
    for d in &checked.diags.0 {
        eprintln!("{d}");
    }
    let (Some(case), Some(cfg)) = (checked.case, checked.config) else {
        bail!("the case does not check; nothing was started")
    };
    if checked.diags.has_errors() {
        bail!("the case does not check ({} errors); nothing was started", checked.diags.errors().count());
    }
    for line in exchange::remove_stale(&case, &cfg) {
        eprintln!("{line}");
    }
    for p in case.manifest.participants.iter().filter(|p| p.external) {
        eprintln!("note: `{}` is external; start it yourself", p.name);
    }
    let interrupts = Arc::new(AtomicUsize::new(0));
    {
        let flag = Arc::clone(&interrupts);
        if let Err(e) = ctrlc::set_handler(move || {
            flag.fetch_add(1, Ordering::SeqCst);
        }) {
            log::warn!("Ctrl-C will not stop the participants cleanly: {e}");
        }
    }
    let (tx, rx) = mpsc::channel();
    let mut runs = Vec::new();
    for (who, (_, p)) in case.launched().enumerate() {
        match launch::start(&case, who, p, &tx) {
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
    eprintln!("started {} participant(s) of `{}`: {}", runs.len(), case.name(), names.join(", "));
    match supervise::supervise(runs, rx, total_time(&cfg), interrupts) {
        Outcome::Success => {
            eprintln!("all participants exited 0");
            Ok(0)
        }
        Outcome::Failed { who, status, tail, stopped } => {
            eprintln!("error: participant `{}` {}", names[who], supervise::describe(&status));
            if !stopped.is_empty() {
                eprintln!("stopped: {}", stopped.join(", "));
            }
            if tail.is_empty() {
                eprintln!("`{}` printed nothing", names[who]);
            } else {
                eprintln!("last {} output lines of `{}`:", tail.len(), names[who]);
                for l in tail {
                    eprintln!("  {l}");
                }
            }
            Ok(1)
        }
        Outcome::Interrupted { stopped } => {
            eprintln!("interrupted; stopped: {}", if stopped.is_empty() { "none".into() } else { stopped.join(", ") });
            Ok(130)
        }
    }
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
