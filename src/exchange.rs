//! Stale rendezvous files: a `precice-run` folder left by a failed run makes the next
//! handshake hang (docs/design/participants.md §10), so `run` removes it wherever an exchange-directory resolves.

use crate::manifest::Case;
use std::collections::HashSet;
use tidelink_adapter_core::config::PreciceConfig;

/// Removes `<working dir>/<exchange-directory>/precice-run` for every launched participant
/// and each of its m2n connections; returns one line per folder removed or not removable.
pub fn remove_stale(case: &Case, cfg: &PreciceConfig) -> Vec<String> {
    let mut done = HashSet::new();
    let mut report = Vec::new();
    for (_, p) in case.launched() {
        let wd = case.working_dir(p);
        for m2n in cfg.m2ns.iter().filter(|m| m.acceptor == p.name || m.connector == p.name) {
            let dir = wd.join(&m2n.exchange_directory).join("precice-run");
            let key = dir.canonicalize().unwrap_or_else(|_| dir.clone());
            if !done.insert(key) || !dir.is_dir() {
                continue;
            }
            match std::fs::remove_dir_all(&dir) {
                Ok(()) => report.push(format!("removed stale {}", dir.display())),
                Err(e) => report.push(format!("warning: cannot remove stale {}: {e}", dir.display())),
            }
        }
    }
    report
}
