//! A participant stops at a window boundary when asked to: SIGINT (Ctrl-C), SIGTERM (what
//! `tidelink run` and batch schedulers send) and SIGHUP (a closed terminal) set a flag instead of
//! ending the process at once. The driver looks at the flag before every step and the native
//! engine asks it while waiting for partners, so the run ends through the ordinary error path:
//! the partners are told, and every output file is closed whole at the last finished window.
//! A second signal ends the process at once (exit 130) for a solver step that does not return.
//!
//! libprecice's waits for partners cannot be interrupted, and a partner stopped by the same
//! signal never sends what the other waits for. With `backend: precice` ([`catch_for`]) the first
//! signal therefore also starts a watchdog: a participant that has not ended [`PRECICE_GRACE`]
//! later exits with 130 at once (`_exit`: no library destructors run under a thread blocked in
//! libprecice). Its files then hold what a SIGKILL leaves (every row written is whole: they are
//! flushed at every output window; docs/reading-results.md, "After a stop").

use crate::coupling::Backend;
use std::sync::atomic::{AtomicUsize, Ordering};
use std::time::Duration;

/// The exit status of a participant stopped by a signal (128 + SIGINT, as shells report Ctrl-C).
pub const INTERRUPTED_EXIT: i32 = 130;

/// Signals received so far.
static RECEIVED: AtomicUsize = AtomicUsize::new(0);

/// How long a participant on libprecice gets after a stop signal to reach a window boundary
/// and end by itself before the watchdog ends it (under `tidelink run`'s 2 s between its
/// SIGTERM and its SIGKILL, so that the participant still says it was stopped, with 130).
pub const PRECICE_GRACE: Duration = Duration::from_secs(1);

/// Catches SIGINT, SIGTERM and SIGHUP for the rest of the process (once; later calls and a
/// failure to install are logged and leave the default behaviour: the signal ends the process).
pub fn catch() {
    install(None);
}

/// [`catch`] for a participant on `backend`: with libprecice, whose waits do not end on a
/// signal, the first signal also starts the watchdog of [`PRECICE_GRACE`].
pub fn catch_for(backend: Backend) {
    install(match backend {
        Backend::Native => None,
        Backend::Precice => Some(PRECICE_GRACE),
    });
}

fn install(watchdog: Option<Duration>) {
    let installed = ctrlc::set_handler(move || {
        if RECEIVED.fetch_add(1, Ordering::SeqCst) > 0 {
            // The handler runs on its own thread: exiting here is safe, and every output file
            // was flushed at its last window (docs/reading-results.md).
            match watchdog {
                None => std::process::exit(INTERRUPTED_EXIT),
                Some(_) => exit_at_once(),
            }
        }
        if let Some(grace) = watchdog {
            std::thread::spawn(move || {
                std::thread::sleep(grace);
                eprintln!(
                    "error: stopped by a signal: no window boundary within {} s (libprecice was still waiting); \
                     output files end at the last window written",
                    grace.as_secs_f64()
                );
                exit_at_once();
            });
        }
    });
    if let Err(e) = installed {
        log::debug!("stop signals not caught: {e}");
    }
}

/// Exit 130 without running exit handlers or C++ static destructors, which could hang or crash
/// under the main thread blocked inside libprecice.
fn exit_at_once() -> ! {
    use std::io::Write;
    let _ = std::io::stdout().flush();
    let _ = std::io::stderr().flush();
    // SAFETY: `_exit` ends the process; it touches no memory of ours.
    unsafe { nix::libc::_exit(INTERRUPTED_EXIT) }
}

/// Why the participant must stop (`Some` once a stop signal arrived).
pub fn requested() -> Option<&'static str> {
    if RECEIVED.load(Ordering::SeqCst) > 0 {
        Some("stopped by a signal (SIGINT, SIGTERM or SIGHUP)")
    } else {
        None
    }
}
