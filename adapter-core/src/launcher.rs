//! What a participant learns from the `tidelink run` launcher that started it, through its
//! environment:
//!
//! - [`RUN_ID_ENV`]: the run's identity. The native engine writes it into its rendezvous files
//!   and its hello, and pairs only with partners of the same run, so two runs that share an
//!   exchange directory can never couple with each other's participants.
//! - [`LIFELINE_ENV`]: the number of an inherited file descriptor, the read end of a pipe whose
//!   write end only the launcher holds. The kernel closes it when the launcher dies, however it
//!   dies (SIGKILL included); [`watch_lifeline`] then stops the participant instead of letting
//!   it run on, unwatched, to its end time.
//!
//! - [`LAUNCHED_ENV`]: the launcher has printed the case's warnings and reads progress lines.
//! - `TIDELINK_RUN_SECRET` (`coupling::native::settings::RUN_SECRET_ENV`): the run's secret,
//!   which partners prove they hold in the handshake (docs/security.md); read by
//!   [`Settings::from_env`] with the other engine settings.
//!
//! A participant started by hand has neither: it has no run identity (it pairs with partners
//! that have none either) and no lifeline, and behaves as it always did.

use tidelink_coupling::native::settings::Interrupt;
pub use tidelink_coupling::native::settings::{is_valid_run_id, RUN_ID_ENV};
use tidelink_coupling::native::Settings;

/// The environment variable holding the lifeline's file descriptor number.
pub const LIFELINE_ENV: &str = "TIDELINK_LIFELINE_FD";

/// Set to `1` by `tidelink run` for the participants it starts: the launcher has already printed
/// every warning of the case's check (so the participant does not print them again) and reads
/// the `@progress` lines (which a participant started by hand does not print).
pub const LAUNCHED_ENV: &str = "TIDELINK_LAUNCHED";

/// Whether this participant was started by `tidelink run` ([`LAUNCHED_ENV`] is `1`).
pub fn launched() -> bool {
    std::env::var(LAUNCHED_ENV).is_ok_and(|v| v.trim() == "1")
}

/// The exit status of a participant that stopped because its launcher is gone.
pub const ORPHAN_EXIT: i32 = 1;

/// The native engine's settings for this process: the run identity, handshake timeout and
/// spin time from the environment ([`Settings::from_env`]), the XML's warnings logged only
/// when no launcher has printed them already, and waits that end on a stop signal.
pub fn engine_settings() -> tidelink_coupling::Result<Settings> {
    // A stop signal ends a wait for partners too (`signals`), not only the driver's loop.
    let interrupt = Interrupt(std::sync::Arc::new(|| crate::signals::requested().map(str::to_string)));
    Ok(Settings { log_config_warnings: !launched(), interrupt: Some(interrupt), ..Settings::from_env()? })
}

/// The exit status of a participant that stopped because a partner failed (its own message
/// names the partner): `tidelink run` then names that partner, not this one, as the culprit.
/// 75 is `EX_TEMPFAIL` of sysexits.h: nothing was wrong with this participant itself.
pub const PARTNER_EXIT: i32 = 75;

/// Logs `warnings` (each once per process) unless the launcher has printed them already.
pub fn log_warnings(warnings: &crate::diagnostics::Diagnostics) {
    if !launched() {
        warnings.log_warnings();
    }
}

/// Starts watching the lifeline the launcher passed in [`LIFELINE_ENV`], if any: a thread
/// blocks reading it and, once it closes (the launcher is gone), prints why and ends the
/// process with [`ORPHAN_EXIT`]. Returns whether a lifeline is watched. Without the variable
/// (a participant started by hand) nothing happens; a value that is not an open pipe is
/// ignored with a warning.
pub fn watch_lifeline() -> bool {
    let Ok(value) = std::env::var(LIFELINE_ENV) else { return false };
    match imp::adopt(&value) {
        Ok(pipe) => imp::watch(pipe),
        Err(why) => {
            log::warn!("ignoring {LIFELINE_ENV}={value}: {why}");
            false
        }
    }
}

#[cfg(unix)]
mod imp {
    use nix::fcntl::{fcntl, FcntlArg, FdFlag};
    use std::fs::File;
    use std::io::{Read, Write};
    use std::os::fd::{FromRawFd, RawFd};

    /// Takes ownership of inherited descriptor `value` after checking that it is an open pipe,
    /// and makes it close-on-exec so that programs this participant starts do not hold it.
    pub(super) fn adopt(value: &str) -> Result<File, String> {
        let fd: RawFd = value.trim().parse().map_err(|_| "not a file descriptor number".to_string())?;
        if fd < 3 {
            return Err("not a descriptor above the standard streams".into());
        }
        let mut st = std::mem::MaybeUninit::<nix::libc::stat>::uninit();
        // SAFETY: fstat only writes the buffer it is given; a closed or invalid descriptor
        // makes it fail with EBADF, which is checked before the buffer is read.
        if unsafe { nix::libc::fstat(fd, st.as_mut_ptr()) } != 0 {
            return Err(format!("descriptor {fd} is not open"));
        }
        // SAFETY: fstat succeeded, so it filled the buffer.
        let mode = unsafe { st.assume_init() }.st_mode;
        if mode & nix::libc::S_IFMT != nix::libc::S_IFIFO {
            return Err(format!("descriptor {fd} is not a pipe"));
        }
        // SAFETY: the descriptor is open (fstat succeeded) and was inherited for this purpose
        // only: nothing else in this process owns or closes it.
        let pipe = unsafe { File::from_raw_fd(fd) };
        fcntl(&pipe, FcntlArg::F_SETFD(FdFlag::FD_CLOEXEC)).map_err(|e| format!("descriptor {fd}: {e}"))?;
        Ok(pipe)
    }

    pub(super) fn watch(mut pipe: File) -> bool {
        let started = std::thread::Builder::new().name("lifeline".into()).spawn(move || {
            let mut buf = [0u8; 64];
            loop {
                match pipe.read(&mut buf) {
                    // The launcher never writes: only the end of the pipe (or an error) matters.
                    Ok(n) if n > 0 => continue,
                    Err(e) if e.kind() == std::io::ErrorKind::Interrupted => continue,
                    _ => break,
                }
            }
            // The launcher read our stderr; it is gone, so this line may go nowhere, and a
            // failed write must not keep the process alive.
            let _ = writeln!(
                std::io::stderr(),
                "error: the launcher (tidelink run) that started this participant is gone; stopping"
            );
            std::process::exit(super::ORPHAN_EXIT);
        });
        match started {
            Ok(_) => true,
            Err(e) => {
                log::warn!("cannot watch the launcher's lifeline: {e}");
                false
            }
        }
    }
}

#[cfg(not(unix))]
mod imp {
    pub(super) fn adopt(_value: &str) -> Result<std::convert::Infallible, String> {
        Err("lifelines are supported on Unix only".into())
    }

    pub(super) fn watch(pipe: std::convert::Infallible) -> bool {
        match pipe {}
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn run_ids_are_short_plain_words() {
        assert!(is_valid_run_id("1a2b-c_d.e"));
        assert!(!is_valid_run_id(""));
        assert!(!is_valid_run_id("a b"));
        assert!(!is_valid_run_id("a\nOwner: pid=1"));
        assert!(!is_valid_run_id(&"x".repeat(65)));
    }

    #[cfg(unix)]
    #[test]
    fn only_an_open_pipe_is_adopted() {
        assert!(imp::adopt("x").is_err());
        assert!(imp::adopt("1").is_err(), "stdout is never a lifeline");
        assert!(imp::adopt("100000").unwrap_err().contains("not open"));
        let file = tempfile::tempfile().expect("a temporary file");
        let fd = std::os::fd::AsRawFd::as_raw_fd(&file).to_string();
        assert!(imp::adopt(&fd).unwrap_err().contains("not a pipe"));
    }
}
