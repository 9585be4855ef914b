//! Stopping participants: SIGTERM to each one's process group (so a `sh -c` wrapper's
//! children go too), SIGKILL for whatever is still running after a grace period.

use std::process::{Child, Command, Stdio};

/// How long participants get to exit after SIGTERM.
pub const GRACE: std::time::Duration = std::time::Duration::from_secs(2);

/// Sends `signal` (TERM, KILL) to the process group led by `child` (started with `process_group(0)`).
pub fn signal_group(child: &mut Child, signal: &str) {
    let sent = signal_pgid(child.id(), signal);
    if !sent && signal == "KILL" {
        // No `kill` program (or the group is gone): at least the direct child.
        let _ = child.kill();
    } else if !sent {
        log::debug!("kill -{signal} -{} failed", child.id());
    }
}

/// Sends `signal` to process group `pgid`; whether `kill` said it did.
pub fn signal_pgid(pgid: u32, signal: &str) -> bool {
    Command::new("kill")
        .arg(format!("-{signal}"))
        .arg("--")
        .arg(format!("-{pgid}"))
        .stdout(Stdio::null())
        .stderr(Stdio::null())
        .status()
        .is_ok_and(|s| s.success())
}
