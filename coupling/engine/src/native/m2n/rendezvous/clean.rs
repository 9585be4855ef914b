//! Cleaning a `precice-run/` folder of what dead runs left (`tidelink run` does it before it
//! starts the participants): connection files whose owner's lock is free go, with their keys and
//! the layout folders they leave empty; everything else stays and is listed.

use std::path::{Path, PathBuf};

use super::{connection_file, owner_alive, read_published, Owner};

/// What [`clean_precice_run`] did in a `precice-run/` folder.
#[derive(Debug, Default)]
pub struct Cleaned {
    /// Connection files removed: their owners are gone.
    pub removed: Vec<PathBuf>,
    /// Files left in place because their owners are alive, with who they are.
    pub live: Vec<(PathBuf, Owner)>,
    /// Entries left in place because neither preCICE nor Tidelink wrote them: other files,
    /// folders of other names, symbolic links (never followed).
    pub foreign: Vec<PathBuf>,
    /// The folder itself is a symbolic link (to this target): nothing in it was looked at.
    pub link: Option<PathBuf>,
}

/// Removes what dead runs left in `run_dir` (a `precice-run/` folder): every connection file
/// whose owner is gone, then the folders of the connection-file layout left empty, `run_dir`
/// itself included. Files of live owners stay, whoever they are, and are listed; so is
/// anything that is not a connection file (see [`is_connection_file`]) or a connection file's
/// key (`<file>.key`, which goes with its file). Symbolic links are
/// never followed, `run_dir` included: a `precice-run` that is a link is left alone.
pub fn clean_precice_run(run_dir: &Path) -> Cleaned {
    let mut cleaned = Cleaned::default();
    match std::fs::symlink_metadata(run_dir) {
        Ok(m) if m.file_type().is_symlink() => {
            cleaned.link = Some(std::fs::read_link(run_dir).unwrap_or_default());
        }
        Ok(m) if m.is_dir() => clean_dir(run_dir, run_dir, 0, &mut cleaned),
        Ok(_) => cleaned.foreign.push(run_dir.to_path_buf()),
        Err(_) => {}
    }
    cleaned
}

/// `dir` lies `depth` levels below `run_dir` and is named as the layout
/// `<listener>-<requester>/<h[0:2]>/` wants at that depth.
fn clean_dir(run_dir: &Path, dir: &Path, depth: usize, cleaned: &mut Cleaned) {
    let Ok(entries) = std::fs::read_dir(dir) else { return };
    let mut keys = Vec::new();
    for entry in entries.flatten() {
        let path = entry.path();
        let name = entry.file_name().to_string_lossy().into_owned();
        // `DirEntry::file_type` does not follow symbolic links.
        let Ok(kind) = entry.file_type() else { continue };
        if kind.is_dir() && layout_dir(depth, &name) {
            clean_dir(run_dir, &path, depth + 1, cleaned);
        } else if kind.is_file() && depth == 2 && is_connection_file(run_dir, &path) {
            match read_published(&path) {
                Some(p) if owner_alive(&path, &p) => cleaned.live.push((path, p.owner)),
                _ => {
                    if std::fs::remove_file(&path).is_ok() {
                        cleaned.removed.push(path);
                    }
                }
            }
        } else if kind.is_file() && depth == 2 && super::super::keyfile::key_of(&name).is_some() {
            keys.push(path);
        } else {
            cleaned.foreign.push(path);
        }
    }
    // A connection file's key goes with it (it stays while its connection file does).
    for key in keys {
        let name = key.file_name().map(|n| n.to_string_lossy().into_owned()).unwrap_or_default();
        let conn = key.with_file_name(super::super::keyfile::key_of(&name).unwrap_or_default());
        if std::fs::symlink_metadata(&conn).is_err() && std::fs::remove_file(&key).is_ok() {
            cleaned.removed.push(key);
        }
    }
    // Fails (and is meant to) while anything is left in it.
    let _ = std::fs::remove_dir(dir);
}

/// A folder name of the connection-file layout at `depth` below `precice-run/`.
fn layout_dir(depth: usize, name: &str) -> bool {
    match depth {
        0 => name.contains('-'),
        1 => name.len() == 2 && name.bytes().all(|b| b.is_ascii_hexdigit()),
        _ => false,
    }
}

/// Whether the file at `path` is a connection file as preCICE and Tidelink write them: named
/// `<run_dir>/<listener>-<requester>/<h[0:2]>/<h[2:32]>` where `h` hashes the file's own
/// `Acceptor: …, Requester: …, Tag: …, Rank: …` line (libprecice's `ConnectionInfoPublisher`
/// format). A `~` beside that name is a publication caught between its steps: recognised by
/// the same line, or by its name alone while it is still empty.
fn is_connection_file(run_dir: &Path, path: &Path) -> bool {
    let Some(name) = path.file_name().map(|n| n.to_string_lossy().into_owned()) else { return false };
    let (base, tmp) = match name.strip_suffix('~') {
        Some(b) => (b.to_string(), true),
        None => (name.clone(), false),
    };
    let Ok(rel) = path.with_file_name(&base).strip_prefix(run_dir).map(Path::to_path_buf) else { return false };
    // A connection file is a few hundred bytes; anything larger is not one.
    let text = match std::fs::metadata(path) {
        Ok(m) if m.len() <= 4096 => std::fs::read_to_string(path).unwrap_or_default(),
        _ => return false,
    };
    if tmp && text.is_empty() {
        return base.len() == 30 && base.bytes().all(|b| b.is_ascii_hexdigit());
    }
    let Some(info) = text.lines().nth(1) else { return false };
    let parse = || {
        let rest = info.strip_prefix("Acceptor: ")?;
        let (acceptor, rest) = rest.split_once(", Requester: ")?;
        let (requester, rest) = rest.split_once(", Tag: ")?;
        let (tag, rank) = rest.split_once(", Rank: ")?;
        Some((acceptor, requester, tag, rank.trim_end().parse::<i32>().ok()?))
    };
    let Some((acceptor, requester, tag, rank)) = parse() else { return false };
    let expected = connection_file(Path::new(""), acceptor, requester, tag, rank);
    expected.strip_prefix("precice-run").is_ok_and(|e| e == rel)
}

#[cfg(test)]
mod tests {
    use super::super::publish;
    use super::*;
    use std::net::SocketAddr;

    fn addr() -> SocketAddr {
        "127.0.0.1:5555".parse().unwrap()
    }

    /// Only connection files (named after their own content) are removed; anything else in
    /// `precice-run/` is named and left, and symbolic links are never followed.
    #[test]
    fn cleaning_removes_only_connection_files_and_never_follows_links() {
        let dir = tempfile::tempdir().unwrap();
        let run_dir = dir.path().join("precice-run");
        let p = connection_file(dir.path(), "L", "C", "PRIMARYCOM", -1);
        drop(publish(&p, addr(), "L", "C", "PRIMARYCOM", Some("a"), false).map(|(h, _)| h).unwrap()); // stale: its owner let go
        let empty_tmp = connection_file(dir.path(), "L", "C", "OTHER", -1);
        let empty_tmp = empty_tmp.with_file_name(format!("{}~", empty_tmp.file_name().unwrap().to_string_lossy()));
        std::fs::create_dir_all(empty_tmp.parent().unwrap()).unwrap();
        std::fs::write(&empty_tmp, "").unwrap();
        // A copy of a connection file under another name is not one: its content names `p`.
        let renamed = p.with_file_name("0".repeat(30));
        std::fs::copy(&p, &renamed).unwrap();
        let notes = run_dir.join("notes.txt");
        std::fs::write(&notes, "mine").unwrap();
        let stale_key = super::super::super::keyfile::key_path(&p);
        super::super::super::keyfile::create_key(&p).unwrap();
        let user = tempfile::tempdir().unwrap();
        std::fs::write(user.path().join("data.csv"), "1,2").unwrap();
        let sub_link = run_dir.join("L-D");
        std::os::unix::fs::symlink(user.path(), &sub_link).unwrap();
        let cleaned = clean_precice_run(&run_dir);
        let mut removed = cleaned.removed.clone();
        removed.sort();
        let mut want = vec![p.clone(), empty_tmp.clone(), stale_key.clone()];
        want.sort();
        assert_eq!(removed, want);
        let mut foreign = cleaned.foreign.clone();
        foreign.sort();
        let mut want = vec![renamed.clone(), notes.clone(), sub_link.clone()];
        want.sort();
        assert_eq!(foreign, want);
        assert!(renamed.exists() && notes.exists() && sub_link.exists());
        assert!(user.path().join("data.csv").exists(), "the link's target is untouched");
        assert!(cleaned.link.is_none());

        // `precice-run` itself a link to the user's folder: nothing in it is looked at.
        let other = tempfile::tempdir().unwrap();
        std::fs::create_dir_all(user.path().join("L-C/3b")).unwrap();
        std::os::unix::fs::symlink(user.path(), other.path().join("precice-run")).unwrap();
        let cleaned = clean_precice_run(&other.path().join("precice-run"));
        assert_eq!(cleaned.link.as_deref(), Some(user.path()));
        assert!(cleaned.removed.is_empty() && cleaned.foreign.is_empty() && cleaned.live.is_empty(), "{cleaned:?}");
        assert!(user.path().join("data.csv").exists() && user.path().join("L-C/3b").is_dir(), "empty folders too");
    }
}
