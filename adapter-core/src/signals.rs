//! A participant stops at a window boundary when asked to: SIGINT (Ctrl-C), SIGTERM (what
//! `tidelink run` and batch schedulers send) and SIGHUP (a closed terminal) set a flag instead of
//! ending the process at once. The driver looks at the flag before every step and the native
//! engine asks it while waiting for partners, so the run ends through the ordinary error path:
//! the partners are told, and every output file is closed whole at the last finished window.
//! A second signal ends the process at once (exit 130) for a solver step that does not return.

use std::sync::atomic::{AtomicUsize, Ordering};

/// The exit status of a participant stopped by a signal (128 + SIGINT, as shells report Ctrl-C).
pub const INTERRUPTED_EXIT: i32 = 130;

/// Signals received so far.
static RECEIVED: AtomicUsize = AtomicUsize::new(0);

/// Catches SIGINT, SIGTERM and SIGHUP for the rest of the process (once; later calls and a
/// failure to install are logged and leave the default behaviour: the signal ends the process).
pub fn catch() {
    let installed = ctrlc::set_handler(|| {
        if RECEIVED.fetch_add(1, Ordering::SeqCst) > 0 {
            // The handler runs on its own thread: exiting here is safe, and every output file
            // was flushed at its last window (docs/reading-results.md).
            std::process::exit(INTERRUPTED_EXIT);
        }
    });
    if let Err(e) = installed {
        log::debug!("stop signals not caught: {e}");
    }
}

/// Why the participant must stop (`Some` once a stop signal arrived).
pub fn requested() -> Option<&'static str> {
    if RECEIVED.load(Ordering::SeqCst) > 0 {
        Some("stopped by a signal (SIGINT, SIGTERM or SIGHUP)")
    } else {
        None
    }
}
