//! A module never outlives its host, however the host ends, and neither does anything the module
//! started (a wrapper such as `sh -c '… python3 module.py'` and the interpreter below it).
//!
//! Three ties, each covering what the one before cannot:
//!
//! - the module leads its own process group, and the host ends it with SIGKILL to the whole
//!   group ([`kill_group`]): an orderly end reaches a wrapper's children too;
//! - on Linux the module gets SIGKILL from the kernel when the host dies (`PR_SET_PDEATHSIG`).
//!   This reaches the direct child only: the flag is not inherited by the processes it forks,
//!   so a wrapper's child would be orphaned;
//! - a guardian ([`Guard`]): a tiny `/bin/sh` in the module's process group, reading a pipe whose
//!   write end only the host holds. The kernel closes that end when the host dies (SIGKILL
//!   included), the read returns, and the guardian sends SIGKILL to its own group: the module,
//!   the wrapper's children, and itself. A module hung in an endless loop of user code cannot
//!   refuse it. While the guardian lives, the group's number cannot be given to another group,
//!   so the host's own SIGKILL to the group never reaches a stranger.
//!
//! Out of reach: a process that leaves the group on purpose (`setsid`, a daemon).

use std::io::{self, PipeWriter};
use std::os::unix::process::CommandExt;
use std::process::{Child, Command, Stdio};

/// What the guardian runs: wait for the host's end of the pipe to close, then kill the group.
/// (`read` returns at end of file; the host never writes.)
const GUARDIAN: &str = "read _ ; kill -KILL 0";

/// Makes `cmd` a module that dies with this process: its own process group and, on Linux,
/// SIGKILL from the kernel when the host dies (checked against the host dying before it was
/// set). The kernel sends it when the host's thread that started the module ends: a module
/// lives no longer than the participant thread that uses it.
pub(crate) fn tie_to_host(cmd: &mut Command) {
    cmd.process_group(0);
    #[cfg(target_os = "linux")]
    {
        let host = std::process::id();
        // SAFETY: the closure runs in the child between fork and exec and only makes system
        // calls (prctl, getppid); it allocates nothing.
        unsafe {
            cmd.pre_exec(move || {
                nix::sys::prctl::set_pdeathsig(nix::sys::signal::Signal::SIGKILL)?;
                if nix::unistd::getppid().as_raw() as u32 != host {
                    return Err(io::Error::from_raw_os_error(nix::libc::ESRCH));
                }
                Ok(())
            });
        }
    }
}

/// SIGKILL to the module's process group (it leads it), so its own children go too.
pub(crate) fn kill_group(child: &mut Child) {
    let pgid = nix::unistd::Pid::from_raw(child.id() as i32);
    if nix::sys::signal::killpg(pgid, nix::sys::signal::Signal::SIGKILL).is_err() {
        let _ = child.kill();
    }
}

/// The guardian of one module's process group (see the module's documentation). Dropped, it
/// kills what is left of the group and reaps the guardian.
#[derive(Debug)]
pub(crate) struct Guard {
    /// The guardian process (a member of the module's group).
    child: Child,
    /// The module's process group.
    pgid: i32,
    /// The host's end of the pipe: closed by the kernel when the host dies.
    _write: PipeWriter,
}

impl Guard {
    /// Starts the guardian of `module`'s process group; `None` (with a warning: the other two
    /// ties still hold) when it cannot be started.
    pub(crate) fn start(module: &Child) -> Option<Guard> {
        let pgid = module.id() as i32;
        match spawn(pgid) {
            Ok((child, write)) => Some(Guard { child, pgid, _write: write }),
            Err(e) => {
                log::warn!(
                    "cannot start the guardian of module process {pgid} ({e}): if this process is killed, what the \
                     module started may outlive it"
                );
                None
            }
        }
    }

    /// The guardian's process id (tests check it is gone).
    pub(crate) fn id(&self) -> u32 {
        self.child.id()
    }
}

fn spawn(pgid: i32) -> io::Result<(Child, PipeWriter)> {
    // Both ends are close-on-exec: no other child of the host inherits the write end (which
    // would keep the pipe open after the host's death).
    let (read, write) = io::pipe()?;
    let mut cmd = Command::new("/bin/sh");
    cmd.args(["-c", GUARDIAN]).stdin(Stdio::from(read)).stdout(Stdio::null()).stderr(Stdio::null());
    // Joins the module's group (the module is not reaped yet, so the group exists).
    cmd.process_group(pgid);
    Ok((cmd.spawn()?, write))
}

impl Drop for Guard {
    fn drop(&mut self) {
        // The group still exists (the guardian, alive or not yet reaped, is in it): SIGKILL
        // reaches only what the module left behind, and the guardian itself.
        let _ = nix::sys::signal::killpg(nix::unistd::Pid::from_raw(self.pgid), nix::sys::signal::Signal::SIGKILL);
        let _ = self.child.kill();
        let _ = self.child.wait();
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use std::time::{Duration, Instant};

    fn alive(pid: u32) -> bool {
        std::fs::read_to_string(format!("/proc/{pid}/stat"))
            .ok()
            .and_then(|s| s.rsplit_once(')').map(|(_, rest)| !rest.trim_start().starts_with('Z')))
            .unwrap_or(false)
    }

    /// Polls for at most `secs` seconds (far above the milliseconds it takes) until `pid` is gone.
    fn gone(pid: u32, secs: u64) -> bool {
        let deadline = Instant::now() + Duration::from_secs(secs);
        while Instant::now() < deadline {
            if !alive(pid) {
                return true;
            }
            std::thread::sleep(Duration::from_millis(20));
        }
        false
    }

    /// The guardian kills a wrapper's child when the host's end of the pipe closes (what the
    /// kernel does when the host dies): here the pipe is closed by hand, the module left alone.
    #[test]
    fn closing_the_hosts_end_kills_the_whole_group_wrapper_children_included() {
        let mut cmd = Command::new("sh");
        // `; exit` keeps sh from exec'ing sleep: sh stays the wrapper, sleep its child.
        cmd.args(["-c", "sleep 1000 & echo $! ; wait ; exit 0"]).stdout(Stdio::piped()).stdin(Stdio::null());
        tie_to_host(&mut cmd);
        let mut module = cmd.spawn().expect("sh");
        let mut line = String::new();
        io::BufRead::read_line(&mut io::BufReader::new(module.stdout.take().expect("stdout")), &mut line).expect("pid");
        let grandchild: u32 = line.trim().parse().expect("the child's pid");
        let (guardian, write) = spawn(module.id() as i32).expect("guardian");
        let guardian_pid = guardian.id();
        assert!(alive(grandchild) && alive(guardian_pid));
        drop(write);
        assert!(gone(grandchild, 30), "the wrapper's child {grandchild} survived");
        let status = module.wait().expect("the wrapper is reaped");
        assert_eq!(std::os::unix::process::ExitStatusExt::signal(&status), Some(9), "killed by the guardian");
        let mut guardian = guardian;
        let status = guardian.wait().expect("reaped");
        assert_eq!(std::os::unix::process::ExitStatusExt::signal(&status), Some(9), "the guardian killed itself too");
    }

    /// Dropping the guard (the host's orderly end) also leaves nothing of the group.
    #[test]
    fn dropping_the_guard_kills_what_the_module_left_and_reaps_the_guardian() {
        let mut cmd = Command::new("sh");
        cmd.args(["-c", "sleep 1000 & echo $! ; exit 0"]).stdout(Stdio::piped()).stdin(Stdio::null());
        tie_to_host(&mut cmd);
        let mut module = cmd.spawn().expect("sh");
        let mut line = String::new();
        io::BufRead::read_line(&mut io::BufReader::new(module.stdout.take().expect("stdout")), &mut line).expect("pid");
        let left: u32 = line.trim().parse().expect("the child's pid");
        let guard = Guard::start(&module).expect("guardian");
        let guardian_pid = guard.id();
        // The module exits by itself and is reaped; its child lives on in the group.
        assert!(module.wait().expect("wait").success());
        assert!(alive(left));
        drop(guard);
        assert!(gone(left, 30), "{left} survived the guard");
        assert!(!alive(guardian_pid), "the guardian is reaped");
    }
}
