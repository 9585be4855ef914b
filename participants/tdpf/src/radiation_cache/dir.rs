//! Where the realisation cache lives, and whether that folder may be trusted.
//!
//! The per-user cache root is `$TIDELINK_CACHE_DIR` (the word `off` turns the cache off), else
//! `$XDG_CACHE_HOME/tidelink` (an absolute path, as the XDG base directory specification asks),
//! else `$HOME/.cache/tidelink` (the root `tidelink hydro` uses too). The cache's folder in it is
//! created `rwx------`; one that belongs to another user or that other users may write is not
//! used (another user could plant a realisation there).

use std::ffi::OsString;
use std::fs;
use std::os::unix::fs::{DirBuilderExt, MetadataExt};
use std::path::{Path, PathBuf};

/// The variable that names the cache folder, or turns the cache off.
pub const ENV: &str = "TIDELINK_CACHE_DIR";
/// The value of [`ENV`] that turns the cache off.
pub const OFF: &str = "off";

/// Where the cache is, or why there is none.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum Location {
    /// The root folder (not yet checked).
    At(PathBuf),
    /// No cache, and why.
    Off(String),
}

/// The cache root that the environment `var` names (see the module docs).
pub fn locate(var: impl Fn(&str) -> Option<OsString>) -> Location {
    let set = |name: &str| var(name).filter(|v| !v.is_empty());
    if let Some(dir) = set(ENV) {
        if dir == OFF {
            return Location::Off(format!("{ENV}={OFF}"));
        }
        return Location::At(PathBuf::from(dir));
    }
    if let Some(xdg) = set("XDG_CACHE_HOME").map(PathBuf::from).filter(|p| p.is_absolute()) {
        return Location::At(xdg.join("tidelink"));
    }
    match set("HOME") {
        Some(home) => Location::At(PathBuf::from(home).join(".cache").join("tidelink")),
        None => Location::Off(format!("neither {ENV}, XDG_CACHE_HOME nor HOME is set")),
    }
}

/// The effective user id of this process.
pub fn euid() -> u32 {
    // SAFETY: geteuid has no preconditions and cannot fail.
    unsafe { libc::geteuid() }
}

/// Creates `dir` (`rwx------`, with its missing parents) and checks that it is a folder of this
/// user that no other user may write; the error says why it is not used.
pub fn prepare(dir: &Path) -> Result<(), String> {
    fs::DirBuilder::new()
        .recursive(true)
        .mode(0o700)
        .create(dir)
        .map_err(|e| format!("cannot create \"{}\": {e}", dir.display()))?;
    let m = fs::metadata(dir).map_err(|e| format!("cannot read \"{}\": {e}", dir.display()))?;
    if !m.is_dir() {
        return Err(format!("\"{}\" is not a folder", dir.display()));
    }
    if m.uid() != euid() {
        return Err(format!(
            "\"{}\" belongs to another user (uid {}, this program runs as uid {})",
            dir.display(),
            m.uid(),
            euid()
        ));
    }
    if m.mode() & 0o022 != 0 {
        return Err(format!(
            "\"{}\" may be written by other users (mode {:o}); make it private (chmod 700) to use it",
            dir.display(),
            m.mode() & 0o7777
        ));
    }
    Ok(())
}

#[cfg(test)]
mod tests {
    use super::*;
    use std::os::unix::fs::PermissionsExt;

    fn env<'a>(vars: &'a [(&'a str, &'a str)]) -> impl Fn(&str) -> Option<OsString> + 'a {
        move |name| vars.iter().find(|(k, _)| *k == name).map(|(_, v)| OsString::from(v))
    }

    #[test]
    fn the_folder_is_the_variable_then_xdg_then_home() {
        let at = |p: &str| Location::At(PathBuf::from(p));
        let all = [(ENV, "/c"), ("XDG_CACHE_HOME", "/x"), ("HOME", "/h")];
        assert_eq!(locate(env(&all)), at("/c"));
        assert_eq!(locate(env(&all[1..])), at("/x/tidelink"));
        assert_eq!(locate(env(&all[2..])), at("/h/.cache/tidelink"));
        // An empty variable counts as unset; a relative XDG_CACHE_HOME is ignored (XDG's rule).
        assert_eq!(locate(env(&[(ENV, ""), ("XDG_CACHE_HOME", "rel"), ("HOME", "/h")])), at("/h/.cache/tidelink"));
        assert!(matches!(locate(env(&[(ENV, "off"), ("HOME", "/h")])), Location::Off(_)));
        assert!(matches!(locate(env(&[])), Location::Off(_)));
    }

    #[test]
    fn the_folder_is_created_private_and_refused_when_others_may_write_it() {
        let tmp = tempfile::tempdir().expect("a temporary folder");
        let dir = tmp.path().join("a").join("tidelink");
        prepare(&dir).expect("created");
        assert_eq!(fs::metadata(&dir).expect("exists").mode() & 0o777, 0o700);
        fs::set_permissions(&dir, fs::Permissions::from_mode(0o777)).expect("chmod");
        let why = prepare(&dir).expect_err("refused");
        assert!(why.contains("other users"), "{why}");
        let file = tmp.path().join("file");
        fs::write(&file, b"x").expect("written");
        assert!(prepare(&file).is_err(), "a file is not a folder");
    }
}
