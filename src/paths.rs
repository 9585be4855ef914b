//! Finding participant programs and expressing paths relative to a participant's
//! working directory (what it is given on its command line).

use std::path::{Component, Path, PathBuf};

/// Where `program` would be started from: a path (relative to `wd`), a `tidelink-*` binary
/// next to the running `tidelink` (so a build tree works without installing), or PATH.
pub fn resolve_program(program: &str, wd: &Path) -> Option<PathBuf> {
    if program.contains('/') {
        let p = wd.join(program);
        return is_executable(&p).then_some(p);
    }
    if program.starts_with("tidelink-") {
        let sibling = std::env::current_exe().ok().and_then(|e| e.parent().map(|d| d.join(program)));
        if let Some(p) = sibling.filter(|p| is_executable(p)) {
            return Some(p);
        }
    }
    let path = std::env::var_os("PATH")?;
    std::env::split_paths(&path).map(|d| d.join(program)).find(|p| is_executable(p))
}

fn is_executable(p: &Path) -> bool {
    use std::os::unix::fs::PermissionsExt;
    p.metadata().is_ok_and(|m| m.is_file() && m.permissions().mode() & 0o111 != 0)
}

/// `p` without `.` components (`././case/./x` is `case/x`; `.` alone stays), for paths that are
/// printed: joining a case folder `.` with `.` otherwise shows as `././`. Only `.` is dropped:
/// removing `..` lexically could change which folder a path names.
pub fn tidy(p: &Path) -> PathBuf {
    let out: PathBuf = p.components().filter(|c| !matches!(c, Component::CurDir)).collect();
    if out.as_os_str().is_empty() {
        PathBuf::from(".")
    } else {
        out
    }
}

/// `target` as seen from directory `base` (`../xml/precice-config.xml`); absolute when
/// either cannot be resolved.
pub fn relative_to(target: &Path, base: &Path) -> PathBuf {
    let (Ok(t), Ok(b)) = (absolute(target), absolute(base)) else { return target.to_path_buf() };
    let tc: Vec<Component> = t.components().collect();
    let bc: Vec<Component> = b.components().collect();
    let common = tc.iter().zip(&bc).take_while(|(x, y)| x == y).count();
    let mut out = PathBuf::new();
    for _ in common..bc.len() {
        out.push("..");
    }
    for c in &tc[common..] {
        out.push(c);
    }
    if out.as_os_str().is_empty() {
        out.push(".");
    }
    out
}

/// Canonical form of `p`, or of its parent joined with its file name when `p` does not exist yet.
fn absolute(p: &Path) -> std::io::Result<PathBuf> {
    match p.canonicalize() {
        Ok(c) => Ok(c),
        Err(e) => match (p.parent(), p.file_name()) {
            (Some(dir), Some(name)) => Ok(dir.canonicalize()?.join(name)),
            _ => Err(e),
        },
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn relative_paths_between_case_folders() {
        let tmp = tempfile::tempdir().unwrap();
        let dir = tmp.path().to_path_buf();
        std::fs::create_dir_all(dir.join("solid")).unwrap();
        std::fs::write(dir.join("config.xml"), "").unwrap();
        assert_eq!(relative_to(&dir.join("config.xml"), &dir.join("solid")), PathBuf::from("../config.xml"));
        assert_eq!(relative_to(&dir.join("solid/./p.yaml"), &dir), PathBuf::from("solid/p.yaml"));
        assert_eq!(relative_to(&dir, &dir), PathBuf::from("."));
        assert_eq!(tidy(Path::new("./././precice-run")), PathBuf::from("precice-run"));
        assert_eq!(tidy(Path::new("./.")), PathBuf::from("."));
        assert_eq!(tidy(Path::new("/a/./b/../c")), PathBuf::from("/a/b/../c"));
    }
}
