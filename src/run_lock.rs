//! One run at a time per case folder and per exchange directory.
//!
//! `tidelink run` holds an exclusive advisory lock on `<dir>/.tidelink-run.lock` for each of
//! them during the whole run. The kernel releases a lock when its holder dies, however it dies,
//! so liveness never rests on a process id that may have been reused, and a lock is never stale.
//! The file says who holds it, for the message a second run prints when it finds it taken; the
//! holder removes it at the end (a launcher killed with SIGKILL leaves it behind, unlocked). A
//! file of another user that nobody holds is removed where the folder allows, else named as a
//! stale lock of that user.

use anyhow::{bail, Context, Result};
use std::fs::{File, OpenOptions, TryLockError};
use std::io::{Read, Seek, Write};
use std::os::unix::fs::MetadataExt;
use std::path::{Path, PathBuf};
use std::time::{SystemTime, UNIX_EPOCH};
use tidelink_adapter_core::records::utc;

/// The lock file's name in each locked folder.
pub const LOCK_FILE: &str = ".tidelink-run.lock";

/// The locks of one run; dropping it removes the files and releases the locks.
pub struct Claim {
    held: Vec<(PathBuf, File)>,
}

impl Drop for Claim {
    fn drop(&mut self) {
        for (path, file) in self.held.drain(..) {
            // Removed while still locked; a run waiting on the old file notices (`lock_one`).
            let _ = std::fs::remove_file(&path);
            drop(file);
        }
    }
}

/// Locks every folder of `dirs` for run `run` of `case` (created when missing); fails at once,
/// naming the holder, when another run holds one of them.
pub fn claim(dirs: &[PathBuf], case: &Path, run: &str) -> Result<Claim> {
    let mut claim = Claim { held: Vec::new() };
    let note = format!(
        "pid={}\nstarted={}\nrun={run}\ncase={}\n",
        std::process::id(),
        SystemTime::now().duration_since(UNIX_EPOCH).unwrap_or_default().as_secs(),
        case.display()
    );
    let mut done = Vec::new();
    for dir in dirs {
        std::fs::create_dir_all(dir).with_context(|| format!("cannot create {}", dir.display()))?;
        let key = dir.canonicalize().unwrap_or_else(|_| dir.clone());
        if done.contains(&key) {
            continue;
        }
        done.push(key.clone());
        let path = key.join(LOCK_FILE);
        match lock_one(&path, &note)? {
            Lock::Held(file) => claim.held.push((path, file)),
            Lock::Busy => bail!("another run is using {} ({}); wait for it or stop it", key.display(), holder(&path)),
            Lock::Stale(uid) => bail!(
                "{} is a stale lock file of user {uid}, left by a dead process ({}): no run holds it, but this \
                 user may not replace it. Have it removed (by its owner or an administrator), or run the case from \
                 a folder of your own",
                path.display(),
                holder(&path)
            ),
            Lock::Free => unreachable!("lock_one tries again"),
            Lock::Impossible(why) => {
                log::warn!("cannot lock {} ({why}): a second run there would not be refused", path.display())
            }
        }
    }
    Ok(claim)
}

/// What became of one lock.
enum Lock {
    /// Taken: this run's until the file is dropped.
    Held(File),
    /// Nobody holds it (internal to `foreign`: the file was removed, try again).
    Free,
    /// Another process holds it.
    Busy,
    /// A file of another user (this uid) that nobody holds: its process died, and this user
    /// may neither write nor remove it.
    Stale(u32),
    /// Not possible here (a read-only folder, a file system without locks): the run goes on
    /// unprotected.
    Impossible(std::io::Error),
}

/// Locks `path` and writes `note` into it.
fn lock_one(path: &Path, note: &str) -> Result<Lock> {
    loop {
        let mut file = match OpenOptions::new().read(true).write(true).create(true).truncate(false).open(path) {
            Ok(f) => f,
            Err(e) if e.kind() == std::io::ErrorKind::PermissionDenied => match foreign(path) {
                Some(Lock::Free) => continue,
                Some(lock) => return Ok(lock),
                None => return Ok(Lock::Impossible(e)),
            },
            Err(e) => return Ok(Lock::Impossible(e)),
        };
        match file.try_lock() {
            Ok(()) => {}
            Err(TryLockError::WouldBlock) => return Ok(Lock::Busy),
            Err(TryLockError::Error(e)) => return Ok(Lock::Impossible(e)),
        }
        // The previous holder removes the file before it lets go: then this lock is on a file
        // nobody else will look at, and the one at `path` (if any) is the one to take.
        let here = std::fs::metadata(path).ok();
        let mine = file.metadata().ok();
        let same = matches!((here, mine), (Some(a), Some(b)) if a.dev() == b.dev() && a.ino() == b.ino());
        if !same {
            continue;
        }
        file.set_len(0)?;
        file.rewind()?;
        file.write_all(note.as_bytes())?;
        return Ok(Lock::Held(file));
    }
}

/// A lock file this user cannot write (another user's): `Busy` while its holder lives (a lock
/// needs no write permission to test); once it is dead the file is removed where the folder
/// allows (`Free`: try again), else `Stale` naming its owner. `None`: not even readable.
fn foreign(path: &Path) -> Option<Lock> {
    let file = File::open(path).ok()?;
    let uid = file.metadata().ok()?.uid();
    match file.try_lock() {
        Err(TryLockError::WouldBlock) => Some(Lock::Busy),
        Err(TryLockError::Error(_)) => None,
        Ok(()) => {
            drop(file);
            match std::fs::remove_file(path) {
                Ok(()) => {
                    log::info!("removed {}: a stale lock file of a dead process of uid {uid}", path.display());
                    Some(Lock::Free)
                }
                Err(_) => Some(Lock::Stale(uid)),
            }
        }
    }
}

/// Who holds the lock at `path`, from its note: `started by pid N at <time>, case <dir>`.
/// The holder writes its note just after it takes the lock, so an empty note is read again for
/// a moment before it is given up on.
fn holder(path: &Path) -> String {
    let mut text = String::new();
    for _ in 0..50 {
        text.clear();
        let _ = File::open(path).and_then(|mut f| f.read_to_string(&mut text));
        if text.ends_with('\n') && text.contains("pid=") {
            break;
        }
        std::thread::sleep(std::time::Duration::from_millis(10));
    }
    let field = |k: &str| text.lines().find_map(|l| l.strip_prefix(k).and_then(|v| v.strip_prefix('=')));
    let mut parts = Vec::new();
    match field("pid") {
        Some(pid) => {
            let at = field("started").and_then(|s| s.parse().ok()).map(utc).map(|t| format!(" at {t}"));
            parts.push(format!("started by pid {pid}{}", at.unwrap_or_default()));
        }
        None => parts.push("started a moment ago".to_string()),
    }
    if let Some(case) = field("case") {
        parts.push(format!("case {case}"));
    }
    parts.join(", ")
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_second_claim_fails_naming_the_first_and_succeeds_once_it_is_gone() {
        let dir = tempfile::tempdir().expect("a folder");
        let dirs = [dir.path().to_path_buf(), dir.path().join(".")];
        let first = claim(&dirs, Path::new("/cases/a"), "r1").expect("a free folder");
        let e = claim(&dirs, Path::new("/cases/b"), "r2").err().expect("taken").to_string();
        assert!(
            e.starts_with(&format!("another run is using {}", dir.path().canonicalize().unwrap().display())),
            "{e}"
        );
        assert!(e.contains(&format!("started by pid {} at ", std::process::id())), "{e}");
        assert!(e.contains("case /cases/a") && e.ends_with("wait for it or stop it"), "{e}");
        drop(first);
        assert!(!dir.path().join(LOCK_FILE).exists(), "the holder removes its file");
        let _second = claim(&dirs, Path::new("/cases/b"), "r2").expect("free again");
    }

    #[test]
    fn a_file_left_unlocked_is_taken_over() {
        let dir = tempfile::tempdir().expect("a folder");
        std::fs::write(dir.path().join(LOCK_FILE), "pid=1\n").expect("a left-over file");
        let _claim = claim(&[dir.path().to_path_buf()], Path::new("c"), "r").expect("unlocked");
    }
}
