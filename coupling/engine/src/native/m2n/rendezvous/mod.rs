//! Rendezvous files in `<exchange-directory>/precice-run/` (docs/design/coupling-semantics.md §8.3): the listening
//! side (the XML *connector*) publishes its address atomically; the other side polls.
//!
//! Tidelink adds who wrote a file: an `Owner:` line with the process, its start time and its
//! run identity, and an exclusive advisory lock that the publisher holds on the file while it
//! waits for its partner. The lock is the liveness test: the kernel drops it when the process
//! dies, whatever later becomes of its pid. So, unlike preCICE, a file left by a crashed run is
//! recognised and replaced with a warning instead of failing or hanging, and a requester never
//! connects to a file of a dead owner or of another run.

use super::auth::Secret;
use std::fmt;
use std::fs::{File, OpenOptions, TryLockError};
use std::io::{self, Write};
use std::net::{SocketAddr, TcpStream};
use std::path::{Path, PathBuf};
use std::time::Duration;
use uuid::Uuid;

mod clean;
pub use clean::{clean_precice_run, Cleaned};

/// preCICE's namespace for connection-file names.
const NAMESPACE: Uuid =
    Uuid::from_bytes([0xaf, 0x7c, 0xe8, 0xf2, 0xa9, 0xee, 0x46, 0xcb, 0x38, 0xee, 0x71, 0xc3, 0x18, 0xaa, 0x35, 0x80]);

/// `precice-run/<listener>-<requester>/` under the exchange directory.
pub fn pair_dir(exchange_dir: &Path, listener: &str, requester: &str) -> PathBuf {
    exchange_dir.join("precice-run").join(format!("{listener}-{requester}"))
}

/// The connection file for one tag and rank: `<pair dir>/<h[0:2]>/<h[2:32]>`.
pub fn connection_file(exchange_dir: &Path, listener: &str, requester: &str, tag: &str, rank: i32) -> PathBuf {
    let name = format!("{listener}{tag}{requester}{rank}");
    let h = Uuid::new_v5(&NAMESPACE, name.as_bytes()).simple().to_string();
    pair_dir(exchange_dir, listener, requester).join(&h[0..2]).join(&h[2..32])
}

fn hostname() -> String {
    std::fs::read_to_string("/proc/sys/kernel/hostname").map(|s| s.trim().to_string()).unwrap_or_default()
}

/// When process `pid` started (clock ticks since boot), or `None` when there is no such process
/// (or no `/proc` to ask).
fn process_start(pid: u32) -> Option<u64> {
    let stat = std::fs::read_to_string(format!("/proc/{pid}/stat")).ok()?;
    // Field 22, counted after the command name in parentheses (which may hold spaces).
    stat.rsplit_once(')')?.1.split_whitespace().nth(19)?.parse().ok()
}

/// Who wrote a connection file: its `Owner:` line.
#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub struct Owner {
    /// The process id.
    pub pid: Option<u32>,
    /// The host it ran on.
    pub host: Option<String>,
    /// When the process started (Linux: clock ticks since boot), so that a reused pid is not
    /// taken for the owner.
    pub start: Option<u64>,
    /// Whether the owner holds the file's lock while it lives (else liveness falls back to
    /// pid and start time, or to a connection attempt).
    pub locked: bool,
    /// The run identity; `None` for a participant started by hand.
    pub run: Option<String>,
}

impl Owner {
    fn line(&self) -> String {
        let mut s = format!("Owner: pid={} host={}", self.pid.unwrap_or(0), self.host.as_deref().unwrap_or(""));
        if let Some(t) = self.start {
            s += &format!(" start={t}");
        }
        s += if self.locked { " lock=1" } else { " lock=0" };
        s += &format!(" run={}", self.run.as_deref().unwrap_or("-"));
        s
    }

    fn parse(rest: &str) -> Owner {
        let mut o = Owner::default();
        for part in rest.split_whitespace() {
            match part.split_once('=') {
                Some(("pid", v)) => o.pid = v.parse().ok(),
                Some(("host", v)) => o.host = Some(v.to_string()),
                Some(("start", v)) => o.start = v.parse().ok(),
                Some(("lock", v)) => o.locked = v == "1",
                Some(("run", v)) => o.run = (v != "-" && !v.is_empty()).then(|| v.to_string()),
                _ => {}
            }
        }
        o
    }
}

/// Describes a run identity for messages: `run 1a2b` or `no run (started by hand)`.
pub fn describe_run(run: Option<&str>) -> String {
    match run {
        Some(r) => format!("run {r}"),
        None => "no run identity (started by hand)".to_string(),
    }
}

impl fmt::Display for Owner {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self.pid {
            Some(pid) => write!(f, "pid {pid}")?,
            None => write!(f, "unknown process")?,
        }
        if let Some(h) = self.host.as_deref().filter(|h| !h.is_empty() && *h != hostname()) {
            write!(f, " on host {h}")?;
        }
        write!(f, ", {}", describe_run(self.run.as_deref()))
    }
}

/// What a connection file says.
struct Published {
    addr: Option<SocketAddr>,
    owner: Owner,
}

fn read_published(path: &Path) -> Option<Published> {
    let text = std::fs::read_to_string(path).ok()?;
    let mut lines = text.lines();
    let addr = lines.next().and_then(|l| l.trim_end().parse().ok());
    let owner = lines.find_map(|l| l.strip_prefix("Owner: ")).map(Owner::parse).unwrap_or_default();
    Some(Published { addr, owner })
}

/// The state of a file's advisory lock.
enum Lock {
    /// Someone holds it: the owner is alive.
    Held,
    /// Nobody holds it.
    Free,
    /// The file is gone or cannot be locked (a file system without locks).
    Unknown,
}

fn probe_lock(path: &Path) -> Lock {
    let Ok(f) = File::open(path) else { return Lock::Unknown };
    match f.try_lock_shared() {
        Ok(()) => Lock::Free,
        Err(TryLockError::WouldBlock) => Lock::Held,
        Err(TryLockError::Error(_)) => Lock::Unknown,
    }
}

/// Whether the process that wrote the file at `path` is alive. Its lock decides; without one
/// (a file system without locks, or a file of another program), the pid together with its start
/// time on this host, else a connection attempt to the published address.
fn owner_alive(path: &Path, p: &Published) -> bool {
    match probe_lock(path) {
        Lock::Held => return true,
        Lock::Free if p.owner.locked => return false,
        _ => {}
    }
    if let (Some(pid), Some(host)) = (p.owner.pid, &p.owner.host) {
        if *host == hostname() && Path::new("/proc/self/stat").exists() {
            return match process_start(pid) {
                None => false,
                Some(started) => p.owner.start.is_none_or(|s| s == started),
            };
        }
    }
    match p.addr {
        Some(addr) => !TcpStream::connect_timeout(&addr, Duration::from_millis(300))
            .is_err_and(|e| e.kind() == io::ErrorKind::ConnectionRefused),
        None => false,
    }
}

/// A published connection file: holds its lock (the sign that its owner is alive) until dropped.
pub struct Hold {
    _file: File,
}

fn in_use(path: &Path, owner: Option<&Owner>) -> String {
    format!(
        "Unable to establish connection as a connection file already exists at \"{}\" and the participant that \
         wrote it is still running{}. Another run is using the same exchange directory: stop it, or give this run \
         its own directory.",
        path.display(),
        owner.map(|o| format!(" ({o})")).unwrap_or_default()
    )
}

/// Publishes `addr` at `path` for `run` (write `path~`, lock it, then link it into place). A
/// file whose owner is dead is replaced with a warning; one whose owner is alive is an error.
/// With `key`, a fresh key file is written beside it once it is placed (`keyfile::create_key`) and returned.
pub fn publish(
    path: &Path,
    addr: SocketAddr,
    listener: &str,
    requester: &str,
    tag: &str,
    run: Option<&str>,
    key: bool,
) -> Result<(Hold, Option<Secret>), String> {
    // Another run's participant may remove the folders (once empty) or a `~` file it took for
    // stale between our steps; then the file to link is gone, and publishing again is safe.
    let mut attempts = 0;
    loop {
        match publish_once(path, addr, listener, requester, tag, run, key) {
            Err(Publish::Vanished(_)) if attempts < 10 => attempts += 1,
            Err(Publish::Vanished(e) | Publish::Failed(e)) => return Err(e),
            Ok(hold) => return Ok(hold),
        }
    }
}

/// Why one attempt to publish failed.
enum Publish {
    /// A folder or the `~` file disappeared under us: worth another attempt.
    Vanished(String),
    /// Anything else: the error to report.
    Failed(String),
}

fn publish_once(
    path: &Path,
    addr: SocketAddr,
    listener: &str,
    requester: &str,
    tag: &str,
    run: Option<&str>,
    key: bool,
) -> Result<(Hold, Option<Secret>), Publish> {
    let failed = |e: io::Error, what: String| {
        if e.kind() == io::ErrorKind::NotFound {
            Publish::Vanished(what)
        } else {
            Publish::Failed(what)
        }
    };
    let tmp = path
        .with_file_name(format!("{}~", path.file_name().map(|n| n.to_string_lossy().into_owned()).unwrap_or_default()));
    for p in [path, tmp.as_path()] {
        if let Some(old) = read_published(p) {
            if owner_alive(p, &old) {
                return Err(Publish::Failed(in_use(p, Some(&old.owner))));
            }
            log::warn!(
                "replacing the stale connection file \"{}\" left by a run that is no longer alive ({})",
                p.display(),
                old.owner
            );
            let _ = std::fs::remove_file(p);
            // Its key too, so that a requester of ours never reads the dead run's key.
            let _ = std::fs::remove_file(super::keyfile::key_path(p));
        }
    }
    let parent =
        path.parent().ok_or_else(|| Publish::Failed(format!("invalid connection file path {}", path.display())))?;
    std::fs::create_dir_all(parent).map_err(|e| {
        let what = if e.kind() == io::ErrorKind::AlreadyExists || e.kind() == io::ErrorKind::NotADirectory {
            // create_dir_all says only "File exists" when a file stands where a folder must be.
            format!(
                "cannot create the rendezvous directory \"{}\": a file stands in its path (the exchange-directory \
                 or its precice-run is a file, not a folder); set exchange-directory to a folder",
                parent.display()
            )
        } else {
            format!("cannot create the rendezvous directory \"{}\": {e}", parent.display())
        };
        failed(e, what)
    })?;
    let mut file = match OpenOptions::new().write(true).create_new(true).open(&tmp) {
        Ok(f) => f,
        Err(e) if e.kind() == io::ErrorKind::AlreadyExists => return Err(Publish::Failed(in_use(&tmp, None))),
        Err(e) => {
            let what = format!("cannot write \"{}\": {e}", tmp.display());
            return Err(failed(e, what));
        }
    };
    let locked = match file.try_lock() {
        Ok(()) => true,
        Err(TryLockError::WouldBlock) => return Err(Publish::Failed(in_use(&tmp, None))),
        Err(TryLockError::Error(e)) => {
            log::debug!("no lock on \"{}\" ({e}): liveness falls back to the process id", tmp.display());
            false
        }
    };
    let pid = std::process::id();
    let owner = Owner {
        pid: Some(pid),
        host: Some(hostname()),
        start: process_start(pid),
        locked,
        run: run.map(str::to_string),
    };
    let text =
        format!("{addr}\nAcceptor: {listener}, Requester: {requester}, Tag: {tag}, Rank: -1\n{}\n", owner.line());
    if let Err(e) = file.write_all(text.as_bytes()) {
        let _ = std::fs::remove_file(&tmp);
        return Err(Publish::Failed(format!("cannot write \"{}\": {e}", tmp.display())));
    }
    // A link fails where a file appeared meanwhile (rename would replace it): the file of a
    // participant that published at the same moment is never overwritten.
    let placed = match std::fs::hard_link(&tmp, path) {
        Ok(()) => Ok(()),
        Err(e) if e.kind() == io::ErrorKind::AlreadyExists => {
            Err(Publish::Failed(in_use(path, read_published(path).map(|p| p.owner).as_ref())))
        }
        Err(e) if e.kind() == io::ErrorKind::NotFound => {
            Err(Publish::Vanished(format!("cannot publish \"{}\": {e}", path.display())))
        }
        // A file system without hard links.
        Err(_) => std::fs::rename(&tmp, path).map_err(|e| {
            let what = format!("cannot publish \"{}\": {e}", path.display());
            failed(e, what)
        }),
    };
    let _ = std::fs::remove_file(&tmp);
    placed?;
    // The key only once the file is ours: a participant whose file could not be placed (another
    // run's is there) never touches that run's key. A requester that finds the file before its
    // key waits for the key.
    let secret = if key {
        match super::keyfile::create_key(path) {
            Ok(s) => Some(s),
            Err(e) => {
                let _ = std::fs::remove_file(path);
                return Err(Publish::Failed(e));
            }
        }
    } else {
        None
    };
    Ok((Hold { _file: file }, secret))
}

/// What a requester finds at a connection file.
pub enum Lookup {
    /// No file yet (or one still being written).
    Nothing,
    /// A file whose owner is gone: waiting for the partner to replace it.
    Stale,
    /// A live file of another run (or of a participant started without one): not our partner.
    Other(Owner),
    /// Our partner's address.
    Partner(SocketAddr),
}

/// What the file at `path` offers a requester of `run`.
pub fn lookup(path: &Path, run: Option<&str>) -> Lookup {
    let Some(p) = read_published(path) else { return Lookup::Nothing };
    let Some(addr) = p.addr else { return Lookup::Nothing };
    if !owner_alive(path, &p) {
        Lookup::Stale
    } else if p.owner.run.as_deref() != run {
        Lookup::Other(p.owner)
    } else {
        Lookup::Partner(addr)
    }
}

/// Removes the connection file and then its folders up to the pair directory where they are
/// empty, leaving an empty `precice-run/` as preCICE does; then releases the file's lock.
/// Only empty folders go: another run's participant may be publishing in the same place.
pub fn unpublish(path: &Path, pair_dir: &Path, hold: Hold) {
    let _ = std::fs::remove_file(super::keyfile::key_path(path));
    if std::fs::remove_file(path).is_err() {
        log::warn!(
            "the connection file \"{}\" disappeared or could not be deleted. Make sure to delete the \"precice-run\" \
             directory before restarting the simulation.",
            path.display()
        );
    }
    let mut dir = path.parent();
    while let Some(d) = dir.filter(|d| d.starts_with(pair_dir)) {
        if std::fs::remove_dir(d).is_err() {
            break;
        }
        dir = d.parent();
    }
    drop(hold);
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn file_name_matches_the_uuid_v5_scheme() {
        let p = connection_file(Path::new("."), "SolverTwo", "SolverOne", "PRIMARYCOM", -1);
        assert_eq!(p, Path::new("./precice-run/SolverTwo-SolverOne/3b/0f28d9a0065c6f8af0a23dfa1ca307"));
    }

    fn addr() -> SocketAddr {
        "127.0.0.1:5555".parse().unwrap()
    }

    #[test]
    fn stale_file_of_a_dead_owner_is_replaced() {
        let dir = tempfile::tempdir().unwrap();
        let p = connection_file(dir.path(), "L", "C", "PRIMARYCOM", -1);
        std::fs::create_dir_all(p.parent().unwrap()).unwrap();
        // No such pid; port 1 is closed.
        std::fs::write(&p, format!("127.0.0.1:1\nx\nOwner: pid=4000000 host={}\n", hostname())).unwrap();
        let _hold = publish(&p, addr(), "L", "C", "PRIMARYCOM", None, false).map(|(h, _)| h).unwrap();
        assert!(matches!(lookup(&p, None), Lookup::Partner(a) if a == addr()));
    }

    /// The pid in a stale file may since belong to another process (here: this test's own, which
    /// is certainly alive): the free lock says the writer is gone all the same.
    #[test]
    fn stale_file_whose_pid_was_reused_is_replaced() {
        let dir = tempfile::tempdir().unwrap();
        let p = connection_file(dir.path(), "L", "C", "PRIMARYCOM", -1);
        std::fs::create_dir_all(p.parent().unwrap()).unwrap();
        let me = std::process::id();
        std::fs::write(&p, format!("127.0.0.1:1\nx\nOwner: pid={me} host={} lock=1 run=-\n", hostname())).unwrap();
        assert!(matches!(lookup(&p, None), Lookup::Stale));
        let _hold = publish(&p, addr(), "L", "C", "PRIMARYCOM", None, false).map(|(h, _)| h).unwrap();
        // Without a lock, a start time that is not the process's own tells the same.
        let q = connection_file(dir.path(), "L", "D", "PRIMARYCOM", -1);
        std::fs::create_dir_all(q.parent().unwrap()).unwrap();
        if let Some(start) = process_start(me) {
            let text = format!("127.0.0.1:1\nx\nOwner: pid={me} host={} start={} lock=0\n", hostname(), start + 1);
            std::fs::write(&q, text).unwrap();
            assert!(matches!(lookup(&q, None), Lookup::Stale));
        }
    }

    #[test]
    fn live_owner_is_an_error_and_its_file_survives_cleaning() {
        let dir = tempfile::tempdir().unwrap();
        let p = connection_file(dir.path(), "L", "C", "PRIMARYCOM", -1);
        let hold = publish(&p, addr(), "L", "C", "PRIMARYCOM", Some("run-a"), false).map(|(h, _)| h).unwrap();
        let e = publish(&p, addr(), "L", "C", "PRIMARYCOM", Some("run-b"), false)
            .map(|(h, _)| h)
            .err()
            .expect("a live file");
        assert!(e.contains("connection file already exists") && e.contains("run run-a"), "{e}");
        let cleaned = clean_precice_run(&dir.path().join("precice-run"));
        assert!(cleaned.removed.is_empty(), "{cleaned:?}");
        assert_eq!(cleaned.live.len(), 1);
        assert_eq!(cleaned.live[0].1.run.as_deref(), Some("run-a"));
        assert!(p.exists());
        drop(hold);
        let cleaned = clean_precice_run(&dir.path().join("precice-run"));
        assert_eq!(cleaned.removed, vec![p.clone()]);
        assert!(!dir.path().join("precice-run").exists(), "emptied folders go");
    }

    #[test]
    fn a_requester_uses_only_a_live_file_of_its_own_run() {
        let dir = tempfile::tempdir().unwrap();
        let p = connection_file(dir.path(), "L", "C", "PRIMARYCOM", -1);
        assert!(matches!(lookup(&p, Some("a")), Lookup::Nothing));
        let hold = publish(&p, addr(), "L", "C", "PRIMARYCOM", Some("a"), false).map(|(h, _)| h).unwrap();
        assert!(matches!(lookup(&p, Some("a")), Lookup::Partner(_)));
        assert!(matches!(lookup(&p, Some("b")), Lookup::Other(o) if o.run.as_deref() == Some("a")));
        assert!(matches!(lookup(&p, None), Lookup::Other(_)));
        drop(hold);
        assert!(matches!(lookup(&p, Some("a")), Lookup::Stale), "the owner's lock is gone");
    }

    /// Unpublishing removes its own file and only the folders it leaves empty: a `~` file that
    /// another run's participant is writing in the same pair folder survives.
    #[test]
    fn unpublish_leaves_other_files_in_the_pair_folder() {
        let dir = tempfile::tempdir().unwrap();
        let p = connection_file(dir.path(), "L", "C", "PRIMARYCOM", -1);
        let pair = pair_dir(dir.path(), "L", "C");
        let hold = publish(&p, addr(), "L", "C", "PRIMARYCOM", Some("a"), false).map(|(h, _)| h).unwrap();
        let other = p.with_file_name("other~");
        std::fs::write(&other, "").unwrap();
        unpublish(&p, &pair, hold);
        assert!(!p.exists() && other.exists(), "only the own file goes");
        std::fs::remove_file(&other).unwrap();
        let hold = publish(&p, addr(), "L", "C", "PRIMARYCOM", Some("a"), false).map(|(h, _)| h).unwrap();
        unpublish(&p, &pair, hold);
        assert!(!pair.exists() && dir.path().join("precice-run").exists(), "emptied folders go up to the pair's");
    }

    #[test]
    fn owner_lines_round_trip_and_old_ones_parse() {
        let o = Owner { pid: Some(7), host: Some("h".into()), start: Some(9), locked: true, run: Some("r".into()) };
        assert_eq!(Owner::parse(o.line().strip_prefix("Owner: ").unwrap()), o);
        let old = Owner::parse("pid=7 host=h");
        assert_eq!((old.pid, old.locked, old.run), (Some(7), false, None));
    }
}
