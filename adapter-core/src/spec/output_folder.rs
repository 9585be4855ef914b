//! The participant file's output folder, checked where `tidelink check` and a run's start both
//! look (the participant's build), so that a folder the run could not write is refused before
//! the coupling opens rather than after the first window.

use super::ParticipantFile;
use crate::diagnostics::{Diagnostics, Location};
use std::path::{Path, PathBuf};

/// The output folder of `file` (`output.directory`, default `output`, next to the file), or an
/// error at the `output` key when it is a file, or the folder (or, when it does not exist yet,
/// its nearest existing parent) cannot be written.
pub fn output_folder(file: &ParticipantFile) -> Result<PathBuf, Diagnostics> {
    let dir = file.dir().join(file.output.directory.as_deref().unwrap_or("output"));
    match why_unwritable(&dir) {
        None => Ok(dir),
        Some(why) => {
            let loc = file.output.loc.clone().unwrap_or_else(|| Location::new(&file.path, 1));
            let mut d = Diagnostics::default();
            d.error(
                loc,
                format!(
                    "output folder `{}`: {why}; choose another `output.directory` (or `output.format: NONE` to \
                     write nothing)",
                    dir.display()
                ),
            );
            Err(d)
        }
    }
}

/// Why the run could not create or write `dir`, if it could not.
fn why_unwritable(dir: &Path) -> Option<String> {
    let mut existing = dir;
    loop {
        match std::fs::metadata(existing) {
            Ok(m) if m.is_dir() => break,
            Ok(_) if existing == dir => return Some("it is a file, not a folder".into()),
            Ok(_) => return Some(format!("`{}` is a file, so the folder cannot be created", existing.display())),
            // Not there (or below a file, which the parent's turn reports): look one folder up.
            Err(e) if !matches!(e.kind(), std::io::ErrorKind::NotFound | std::io::ErrorKind::NotADirectory) => {
                return Some(e.to_string())
            }
            Err(_) => match existing.parent() {
                Some(p) if !p.as_os_str().is_empty() => existing = p,
                _ => {
                    existing = Path::new(".");
                    break;
                }
            },
        }
    }
    let flags = nix::unistd::AccessFlags::W_OK | nix::unistd::AccessFlags::X_OK;
    match nix::unistd::access(existing, flags) {
        Ok(()) => None,
        Err(_) if existing == dir => Some("the folder is not writable (permission denied)".into()),
        Err(_) => Some(format!("cannot create it: `{}` is not writable (permission denied)", existing.display())),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_file_in_the_way_and_a_missing_folder_are_told_apart() {
        let dir = tempfile::tempdir().unwrap();
        let file = dir.path().join("out");
        std::fs::write(&file, "x").unwrap();
        assert_eq!(why_unwritable(&file).as_deref(), Some("it is a file, not a folder"));
        assert!(why_unwritable(&file.join("sub")).unwrap().contains("is a file, so the folder cannot be created"));
        assert_eq!(why_unwritable(&dir.path().join("new/deeper")), None);
        assert_eq!(why_unwritable(dir.path()), None);
    }

    #[test]
    fn a_read_only_folder_is_refused_unless_we_are_root() {
        use std::os::unix::fs::PermissionsExt;
        let dir = tempfile::tempdir().unwrap();
        let ro = dir.path().join("ro");
        std::fs::create_dir(&ro).unwrap();
        std::fs::set_permissions(&ro, std::fs::Permissions::from_mode(0o555)).unwrap();
        // Root may write anywhere: then the folder is usable and nothing is refused.
        let root = {
            use std::os::unix::fs::MetadataExt;
            // /proc/self belongs to the process's user.
            std::fs::metadata("/proc/self").is_ok_and(|m| m.uid() == 0)
        };
        assert_eq!(why_unwritable(&ro).is_some(), !root);
        assert_eq!(why_unwritable(&ro.join("new")).is_some(), !root);
    }
}
