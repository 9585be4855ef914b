//! Where a participant without a secret from its program finds its partner's: a key file that
//! the listener writes beside its connection file (`<file>.key`, readable by its user alone)
//! before it publishes, and removes with it; and the checks that keep another user out of
//! `precice-run/` (docs/security.md).
//!
//! - The exchange directory must not be writable by every user unless it has the sticky bit
//!   (as `/tmp` has): otherwise another user could rename `precice-run` away and put their own
//!   in its place.
//! - `precice-run` must belong to this participant's user. It is created `rwx------`; one of
//!   ours that others may write is tightened (`chmod go-w`).
//! - The key file must belong to the user and give others no access at all (`rw-------`).

use super::auth::{random_bytes, Secret, SECRET_LEN};
use std::fs::{self, OpenOptions};
use std::io::{self, Read, Write};
use std::os::unix::fs::{DirBuilderExt, MetadataExt, OpenOptionsExt, PermissionsExt};
use std::path::{Path, PathBuf};

/// What a connection file's key file adds to its name.
pub const KEY_SUFFIX: &str = ".key";

/// The largest secret file read (a secret is a few dozen bytes).
const MAX_SECRET_FILE: u64 = 4096;

/// The effective user id of this process.
pub(crate) fn euid() -> u32 {
    // SAFETY: geteuid has no preconditions and cannot fail.
    unsafe { libc::geteuid() }
}

/// The connection file name whose key file `name` is, if it is one (`<30 hex digits>.key`).
pub fn key_of(name: &str) -> Option<&str> {
    name.strip_suffix(KEY_SUFFIX).filter(|b| b.len() == 30 && b.bytes().all(|c| c.is_ascii_hexdigit()))
}

/// `precice-run/` under `exchange_dir`, created (`rwx------`) when missing, after the checks
/// above; the error says what is wrong and how to fix it.
pub fn prepare_run_dir(exchange_dir: &Path) -> Result<PathBuf, String> {
    fs::create_dir_all(exchange_dir).map_err(|e| {
        if e.kind() == io::ErrorKind::AlreadyExists || e.kind() == io::ErrorKind::NotADirectory {
            // create_dir_all says only "File exists" when a file stands where the folder must be.
            format!(
                "the exchange directory \"{}\" is a file, not a folder (or a file stands in its path): set \
                 exchange-directory to a folder, or move the file away",
                exchange_dir.display()
            )
        } else {
            format!("cannot create the exchange directory \"{}\": {e}", exchange_dir.display())
        }
    })?;
    let m = fs::metadata(exchange_dir)
        .map_err(|e| format!("cannot read the exchange directory \"{}\": {e}", exchange_dir.display()))?;
    if !m.is_dir() {
        return Err(format!(
            "the exchange directory \"{}\" is not a folder (move the file away)",
            exchange_dir.display()
        ));
    }
    if m.mode() & 0o002 != 0 && m.mode() & 0o1000 == 0 {
        return Err(format!(
            "the exchange directory \"{}\" is writable by every user and has no sticky bit (mode {:o}): another user \
             could replace its precice-run folder and intercept this run's connections. Use an exchange directory \
             only you can write, or protect this one (chmod o-w, or chmod +t as /tmp has)",
            exchange_dir.display(),
            m.mode() & 0o7777
        ));
    }
    let run_dir = exchange_dir.join("precice-run");
    match fs::DirBuilder::new().mode(0o700).create(&run_dir) {
        Ok(()) => {}
        Err(e) if e.kind() == io::ErrorKind::AlreadyExists => {}
        Err(e) => return Err(format!("cannot create \"{}\": {e}", run_dir.display())),
    }
    let m = fs::metadata(&run_dir).map_err(|e| format!("cannot read \"{}\": {e}", run_dir.display()))?;
    if !m.is_dir() {
        return Err(format!(
            "\"{}\" is not a folder, but the participants need one there (move it away)",
            run_dir.display()
        ));
    }
    if m.uid() != euid() {
        return Err(format!(
            "\"{}\" belongs to another user (uid {}), not to this participant's (uid {}): that user could plant or \
             read connection files there. Have it removed, or give this run an exchange directory of its own",
            run_dir.display(),
            m.uid(),
            euid()
        ));
    }
    if m.mode() & 0o022 != 0 {
        let mode = m.mode() & 0o7777 & !0o022;
        fs::set_permissions(&run_dir, fs::Permissions::from_mode(mode))
            .map_err(|e| format!("cannot make \"{}\" writable by its owner alone: {e}", run_dir.display()))?;
        log::info!("made \"{}\" writable by its owner alone (mode {mode:o})", run_dir.display());
    }
    Ok(run_dir)
}

/// Why a key or secret file cannot be used, or `None`: it must be a file of this user that
/// others can neither read nor write.
fn unsafe_file(path: &Path, m: &fs::Metadata) -> Option<String> {
    if !m.is_file() {
        return Some(format!("\"{}\" is not a file", path.display()));
    }
    if m.uid() != euid() {
        return Some(format!(
            "\"{}\" belongs to another user (uid {}, this participant runs as uid {}): a secret must be the user's own",
            path.display(),
            m.uid(),
            euid()
        ));
    }
    if m.mode() & 0o077 != 0 {
        return Some(format!(
            "\"{}\" can be read or written by other users (mode {:o}): whoever read it could pose as a partner. Make \
             it private (chmod 600) and, if others may have read it, replace it",
            path.display(),
            m.mode() & 0o777
        ));
    }
    None
}

/// The secret in the file at `path` (its bytes as they are, at least 16), after checking that
/// it is this user's and private.
pub fn read_secret_file(path: &Path) -> Result<Secret, String> {
    let m = fs::metadata(path).map_err(|e| format!("cannot read the secret file \"{}\": {e}", path.display()))?;
    if let Some(why) = unsafe_file(path, &m) {
        return Err(why);
    }
    let mut bytes = Vec::new();
    fs::File::open(path)
        .and_then(|f| f.take(MAX_SECRET_FILE + 1).read_to_end(&mut bytes))
        .map_err(|e| format!("cannot read the secret file \"{}\": {e}", path.display()))?;
    if bytes.len() as u64 > MAX_SECRET_FILE {
        return Err(format!("the secret file \"{}\" is larger than {MAX_SECRET_FILE} bytes", path.display()));
    }
    Secret::from_bytes(&bytes).ok_or_else(|| {
        format!(
            "the secret file \"{}\" holds {} bytes; a secret has at least {} (e.g. head -c 32 /dev/urandom > FILE)",
            path.display(),
            bytes.len(),
            super::auth::MIN_SECRET_LEN
        )
    })
}

/// The key file beside connection file `conn_file`: `<conn_file>.key`.
pub fn key_path(conn_file: &Path) -> PathBuf {
    let mut name = conn_file.file_name().map(|n| n.to_os_string()).unwrap_or_default();
    name.push(KEY_SUFFIX);
    conn_file.with_file_name(name)
}

/// A fresh key of [`SECRET_LEN`] random bytes written beside `conn_file` (private to the user),
/// once the listener's file is placed (a requester that finds the file first waits for its key).
/// A key left by a dead publisher is replaced.
pub fn create_key(conn_file: &Path) -> Result<Secret, String> {
    let path = key_path(conn_file);
    if let Some(parent) = path.parent() {
        fs::create_dir_all(parent).map_err(|e| format!("cannot create \"{}\": {e}", parent.display()))?;
    }
    match fs::remove_file(&path) {
        Ok(()) => {}
        Err(e) if e.kind() == io::ErrorKind::NotFound => {}
        Err(e) => return Err(format!("cannot replace the stale key file \"{}\": {e}", path.display())),
    }
    let bytes = random_bytes(SECRET_LEN).map_err(|e| e.to_string())?;
    // Written whole under a name of its own, then linked to its place in one step: a requester
    // polling for the key never opens it half written (it would read 0 bytes and give up), and
    // linking fails, as creating would, when another run's key is already there.
    let mut tmp_name = path.file_name().map(|n| n.to_os_string()).unwrap_or_default();
    tmp_name.push(format!(".{}.tmp", std::process::id()));
    let tmp = path.with_file_name(tmp_name);
    let _ = fs::remove_file(&tmp);
    let written = OpenOptions::new()
        .write(true)
        .create_new(true)
        .mode(0o600)
        .open(&tmp)
        .and_then(|mut f| f.write_all(&bytes).and_then(|()| f.sync_all()))
        .and_then(|()| fs::hard_link(&tmp, &path));
    let _ = fs::remove_file(&tmp);
    if let Err(e) = written {
        let why = if e.kind() == io::ErrorKind::AlreadyExists {
            " (another run is using the same exchange directory: give each run its own)".to_string()
        } else {
            String::new()
        };
        return Err(format!("cannot write the connection's key file \"{}\": {e}{why}", path.display()));
    }
    Ok(Secret::from_bytes(&bytes).expect("32 bytes"))
}

/// The key beside `conn_file`, after the checks of a secret file (never through a link);
/// `Ok(None)` while there is none.
pub fn read_key(conn_file: &Path) -> Result<Option<Secret>, String> {
    let path = key_path(conn_file);
    match fs::symlink_metadata(&path) {
        Ok(m) if m.file_type().is_symlink() => {
            Err(format!("\"{}\" is a symbolic link; a key file is never followed", path.display()))
        }
        Ok(_) => read_secret_file(&path).map(Some),
        Err(e) if e.kind() == io::ErrorKind::NotFound => Ok(None),
        Err(e) => Err(format!("cannot read \"{}\": {e}", path.display())),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn mode(p: &Path) -> u32 {
        fs::metadata(p).unwrap().mode() & 0o7777
    }

    #[test]
    fn the_key_is_written_private_beside_the_connection_file_and_read_back() {
        let dir = tempfile::tempdir().unwrap();
        let run = prepare_run_dir(dir.path()).unwrap();
        assert_eq!(mode(&run), 0o700);
        let conn = run.join("L-R/3b/0f28d9a0065c6f8af0a23dfa1ca307");
        assert_eq!(read_key(&conn).unwrap(), None);
        let a = create_key(&conn).unwrap();
        let path = key_path(&conn);
        assert_eq!(path, run.join("L-R/3b/0f28d9a0065c6f8af0a23dfa1ca307.key"));
        assert_eq!(key_of("0f28d9a0065c6f8af0a23dfa1ca307.key"), Some("0f28d9a0065c6f8af0a23dfa1ca307"));
        assert_eq!(key_of("notes.key"), None);
        assert_eq!(mode(&path), 0o600);
        assert_eq!(fs::read(&path).unwrap().len(), SECRET_LEN);
        assert_eq!(read_key(&conn).unwrap(), Some(a.clone()));
        let b = create_key(&conn).unwrap();
        assert_ne!(a, b, "a stale key is replaced by a fresh one");
    }

    #[test]
    fn keys_others_could_read_are_refused() {
        let dir = tempfile::tempdir().unwrap();
        let conn = prepare_run_dir(dir.path()).unwrap().join("f");
        create_key(&conn).unwrap();
        fs::set_permissions(key_path(&conn), fs::Permissions::from_mode(0o640)).unwrap();
        let e = read_key(&conn).unwrap_err();
        assert!(e.contains("can be read or written by other users (mode 640)") && e.contains("chmod 600"), "{e}");
        fs::remove_file(key_path(&conn)).unwrap();
        std::os::unix::fs::symlink("/etc/hostname", key_path(&conn)).unwrap();
        assert!(read_key(&conn).unwrap_err().contains("symbolic link"));
    }

    #[test]
    fn a_folder_every_user_can_write_without_sticky_bit_is_refused() {
        let dir = tempfile::tempdir().unwrap();
        fs::set_permissions(dir.path(), fs::Permissions::from_mode(0o777)).unwrap();
        let e = prepare_run_dir(dir.path()).unwrap_err();
        assert!(e.contains("writable by every user and has no sticky bit (mode 777)"), "{e}");
        fs::set_permissions(dir.path(), fs::Permissions::from_mode(0o1777)).unwrap();
        let run = prepare_run_dir(dir.path()).expect("sticky, as /tmp");
        // A precice-run of ours that others may write is tightened.
        fs::set_permissions(&run, fs::Permissions::from_mode(0o777)).unwrap();
        prepare_run_dir(dir.path()).unwrap();
        assert_eq!(mode(&run), 0o755);
        // A file where the folder should be.
        let f = tempfile::tempdir().unwrap();
        fs::write(f.path().join("precice-run"), "").unwrap();
        assert!(prepare_run_dir(f.path()).unwrap_err().contains("is not a folder"));
        fs::write(f.path().join("x"), "").unwrap();
        assert!(prepare_run_dir(&f.path().join("x")).unwrap_err().contains("is a file, not a folder"));
    }

    #[test]
    fn secret_files_must_be_private_and_long_enough() {
        let dir = tempfile::tempdir().unwrap();
        let p = dir.path().join("s");
        fs::write(&p, [1u8; 20]).unwrap();
        fs::set_permissions(&p, fs::Permissions::from_mode(0o644)).unwrap();
        assert!(read_secret_file(&p).unwrap_err().contains("mode 644"));
        fs::set_permissions(&p, fs::Permissions::from_mode(0o600)).unwrap();
        assert_eq!(read_secret_file(&p).unwrap(), Secret::from_bytes(&[1u8; 20]).unwrap());
        fs::write(&p, [1u8; 8]).unwrap();
        assert!(read_secret_file(&p).unwrap_err().contains("holds 8 bytes"));
        assert!(read_secret_file(&dir.path().join("none")).unwrap_err().contains("cannot read the secret file"));
    }
}
