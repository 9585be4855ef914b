//! Participants end with the launcher, however the launcher ends.
//!
//! SIGINT, SIGTERM and SIGHUP are caught (`run.rs`) and stop the participants the orderly way.
//! SIGKILL cannot be caught, so each participant also gets two parent-death mechanisms:
//!
//! - the lifeline: the read end of a pipe whose write end only the launcher holds. The kernel
//!   closes the write end when the launcher dies; `tidelink-*` participants watch the read end
//!   (`tidelink_adapter_core::launcher::watch_lifeline`) and stop. It is inherited through
//!   wrappers such as `sh -c`, and works on every Unix.
//! - on Linux, `PR_SET_PDEATHSIG` = SIGKILL, for any program (also one that does not watch the
//!   lifeline). It is checked against the race where the launcher died before it was set.
//!   The kernel sends it when the launcher's *thread* that started the participant ends, so
//!   participants are started from the main thread only. It reaches the participant only,
//!   not what a wrapper started below it;
//! - a guardian per participant ([`Lifeline::guard`]): a tiny `/bin/sh` in the participant's
//!   process group that reads the lifeline and, when it closes, sends SIGKILL to its whole group:
//!   a program behind a wrapper (`sh -c '… python3 solver.py; …'`) that does not watch the
//!   lifeline dies too. While it lives, the group's number cannot go to another group, so the
//!   launcher's signals to the group never reach a stranger.

use std::io::{self, PipeReader, PipeWriter};
use std::os::fd::{AsRawFd, BorrowedFd, RawFd};
use std::os::unix::process::CommandExt;
use std::process::{Child, Command, Stdio};
use tidelink_adapter_core::launcher::LIFELINE_ENV;

/// The launcher's end of the lifeline: dropping it (or the launcher's death) tells every
/// participant to stop.
pub struct Lifeline {
    read: PipeReader,
    _write: PipeWriter,
}

impl Lifeline {
    pub fn new() -> io::Result<Lifeline> {
        // Both ends are close-on-exec: no program gets them unless `attach` lets it.
        let (read, write) = io::pipe()?;
        // Above the standard streams, which a child's stdio setup would replace (a launcher
        // started with a closed stdin gets descriptor 0 here); a clone is always 3 or more.
        let read = if read.as_raw_fd() < 3 { read.try_clone()? } else { read };
        Ok(Lifeline { read, _write: write })
    }

    /// Makes `cmd` a participant that ends with this launcher: it inherits the read end
    /// (named in `TIDELINK_LIFELINE_FD`) and, on Linux, gets SIGKILL when the launcher dies.
    pub fn attach(&self, cmd: &mut Command) {
        let fd = self.read.as_raw_fd();
        let launcher = std::process::id();
        cmd.env(LIFELINE_ENV, fd.to_string());
        // SAFETY: the closure runs in the child between fork and exec; it only makes system
        // calls (fcntl, prctl, getppid) and allocates nothing.
        unsafe {
            cmd.pre_exec(move || in_child(fd, launcher));
        }
    }
}

/// What a guardian runs: ignore the launcher's orderly signals to the group (SIGKILL follows
/// them), wait for the lifeline to close, then kill the group, itself included.
const GUARDIAN: &str = "trap '' TERM INT HUP ; read _ ; kill -KILL 0";

impl Lifeline {
    /// Starts the guardian of `participant`'s process group (see above); `None`, with a
    /// warning, when it cannot be started (the participant itself still dies with the launcher).
    /// The guardian is reaped when the launcher exits.
    pub fn guard(&self, participant: &Child) -> Option<Child> {
        let pgid = participant.id() as i32;
        let spawn = || -> io::Result<Child> {
            let mut cmd = Command::new("/bin/sh");
            cmd.args(["-c", GUARDIAN]).stdin(Stdio::from(self.read.try_clone()?));
            cmd.stdout(Stdio::null()).stderr(Stdio::null()).process_group(pgid);
            cmd.spawn()
        };
        spawn()
            .inspect_err(|e| {
                log::warn!(
                    "cannot start the guardian of participant process {pgid} ({e}): if `tidelink run` is killed, what a \
                     wrapper started may outlive it"
                )
            })
            .ok()
    }
}

/// Makes `cmd` (a participant's `--check`) get SIGKILL when this process dies, on Linux: a
/// check has no lifeline to watch, and must not run on when `tidelink` is killed. Call from the
/// main thread (see above).
pub fn die_with_launcher(cmd: &mut Command) {
    let launcher = std::process::id();
    // SAFETY: as in `attach`: system calls only, no allocation.
    unsafe {
        cmd.pre_exec(move || pdeathsig(launcher));
    }
}

/// The participant's side, between fork and exec.
fn in_child(fd: RawFd, launcher: u32) -> io::Result<()> {
    use nix::fcntl::{fcntl, FcntlArg, FdFlag};
    // SAFETY: `fd` is the lifeline's read end, open in the launcher when it forked and so in
    // this child, which closes nothing before exec.
    let read = unsafe { BorrowedFd::borrow_raw(fd) };
    fcntl(read, FcntlArg::F_SETFD(FdFlag::empty()))?;
    pdeathsig(launcher)
}

/// SIGKILL when `launcher` (the parent) dies, on Linux; fails if it is gone already.
fn pdeathsig(launcher: u32) -> io::Result<()> {
    #[cfg(target_os = "linux")]
    {
        nix::sys::prctl::set_pdeathsig(nix::sys::signal::Signal::SIGKILL)?;
        // Died before the line above: the signal will never come, so do not start at all.
        if nix::unistd::getppid().as_raw() as u32 != launcher {
            return Err(io::Error::from_raw_os_error(nix::libc::ESRCH));
        }
    }
    #[cfg(not(target_os = "linux"))]
    let _ = launcher;
    Ok(())
}
