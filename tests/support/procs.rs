//! Processes as Linux's /proc shows them, for the tests of what dies with what: the processes
//! below a process, whether one still runs, and waiting (with a generous deadline) for a
//! condition on them.

#![allow(dead_code)]

use std::time::{Duration, Instant};

/// One process as /proc shows it.
#[derive(Debug, Clone)]
pub struct Proc {
    /// Its process id.
    pub pid: u32,
    /// Its parent's.
    pub ppid: u32,
    /// Its start time (clock ticks after boot): with the pid, who it is.
    pub start: u64,
    /// The program's name (at most 15 characters).
    pub name: String,
}

fn stat(pid: u32) -> Option<(Proc, char)> {
    let text = std::fs::read_to_string(format!("/proc/{pid}/stat")).ok()?;
    let (head, rest) = text.rsplit_once(')')?;
    let name = head.split_once('(')?.1.to_string();
    let fields: Vec<&str> = rest.split_whitespace().collect();
    let state = fields.first()?.chars().next()?;
    let ppid = fields.get(1)?.parse().ok()?;
    let start = fields.get(19)?.parse().ok()?;
    Some((Proc { pid, ppid, start, name }, state))
}

/// Every living process below `root` (children, grandchildren, …).
pub fn descendants(root: u32) -> Vec<Proc> {
    let all: Vec<Proc> = std::fs::read_dir("/proc")
        .expect("/proc")
        .flatten()
        .filter_map(|e| e.file_name().to_str()?.parse().ok())
        .filter_map(|pid| stat(pid).filter(|(_, s)| *s != 'Z' && *s != 'X').map(|(p, _)| p))
        .collect();
    let mut out: Vec<Proc> = Vec::new();
    let mut parents = vec![root];
    while let Some(parent) = parents.pop() {
        for p in all.iter().filter(|p| p.ppid == parent) {
            parents.push(p.pid);
            out.push(p.clone());
        }
    }
    out
}

/// Whether `p` still runs: the same process (same start time), not a zombie.
pub fn running(p: &Proc) -> bool {
    stat(p.pid).is_some_and(|(now, state)| now.start == p.start && state != 'Z' && state != 'X')
}

/// Polls `condition` every 20 ms until it gives `Some`, for at most `secs` seconds (a deadline
/// far above the time it needs, so that a busy machine never fails the test); `what` names the
/// condition in the panic.
pub fn wait_until<T>(secs: u64, what: &str, mut condition: impl FnMut() -> Option<T>) -> T {
    let deadline = Instant::now() + Duration::from_secs(secs);
    loop {
        if let Some(v) = condition() {
            return v;
        }
        assert!(Instant::now() < deadline, "{what}: not within {secs} s");
        std::thread::sleep(Duration::from_millis(20));
    }
}
