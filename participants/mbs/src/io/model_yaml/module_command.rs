//! What a module's `command` needs to start, checked when the model is read (by `tidelink
//! check` and by a run's start alike), so that a missing program or script is refused at the
//! entry's line rather than when the first step starts the module.
//!
//! The rules are the module host's (`tidelink_pto`): the program is found as `Command` finds it
//! (a path with a `/` against the working folder, a bare name on `PATH`; `python` may fall back
//! to `python3`), and a relative `.py` argument is looked up next to the model file first, then
//! in the working folder.

use std::os::unix::fs::PermissionsExt;
use std::path::{Path, PathBuf};

/// Why `command` (non-empty) cannot start from the model file's folder `dir`, if it cannot.
pub(super) fn problem(command: &[String], dir: &Path) -> Option<String> {
    let program = &command[0];
    if let Some(why) = program_problem(program) {
        return Some(why);
    }
    for a in &command[1..] {
        let p = Path::new(a);
        if a.ends_with(".py") && !(p.is_file() || (p.is_relative() && dir.join(p).is_file())) {
            return Some(format!(
                "the script `{a}` does not exist (looked for next to the model file, in {}, and in the working \
                 folder)",
                dir.display()
            ));
        }
    }
    spin_problem()
}

/// Why `program` cannot be run, if it cannot.
fn program_problem(program: &str) -> Option<String> {
    if program.contains('/') {
        return match std::fs::metadata(program) {
            Err(_) => Some(format!("the program `{program}` does not exist")),
            Ok(m) if !m.is_file() => Some(format!("the program `{program}` is not a file")),
            Ok(m) if m.permissions().mode() & 0o111 == 0 => Some(format!(
                "the program `{program}` is not executable (chmod +x it, or start it with its interpreter)"
            )),
            Ok(_) => None,
        };
    }
    let found = on_path(program) || (program == "python" && on_path("python3"));
    (!found).then(|| format!("the program `{program}` is not found on PATH"))
}

/// Whether an executable file `name` is in a folder of `PATH`.
fn on_path(name: &str) -> bool {
    let path = std::env::var_os("PATH").unwrap_or_default();
    std::env::split_paths(&path)
        .map(|d: PathBuf| d.join(name))
        .any(|p| std::fs::metadata(&p).is_ok_and(|m| m.is_file() && m.permissions().mode() & 0o111 != 0))
}

/// The module host's poll-time variable, if set to something it refuses.
fn spin_problem() -> Option<String> {
    tidelink_pto::reply_spin_setting().err().map(|e| e.to_string())
}

#[cfg(test)]
mod tests {
    use super::*;

    fn cmd(parts: &[&str]) -> Vec<String> {
        parts.iter().map(|s| s.to_string()).collect()
    }

    #[test]
    fn missing_programs_and_scripts_are_named() {
        let dir = tempfile::tempdir().unwrap();
        assert!(problem(&cmd(&["sh"]), dir.path()).is_none());
        let e = problem(&cmd(&["no-such-program-xyz"]), dir.path()).unwrap();
        assert!(e.contains("`no-such-program-xyz` is not found on PATH"), "{e}");
        let e = problem(&cmd(&["sh", "missing.py"]), dir.path()).unwrap();
        assert!(e.contains("the script `missing.py` does not exist"), "{e}");
        std::fs::write(dir.path().join("there.py"), "").unwrap();
        assert!(problem(&cmd(&["sh", "there.py"]), dir.path()).is_none());
        let script = dir.path().join("run.sh");
        std::fs::write(&script, "#!/bin/sh\n").unwrap();
        let e = problem(&cmd(&[script.to_str().unwrap()]), dir.path()).unwrap();
        assert!(e.contains("is not executable"), "{e}");
        let e = problem(&cmd(&[dir.path().join("gone").to_str().unwrap()]), dir.path()).unwrap();
        assert!(e.contains("does not exist"), "{e}");
    }
}
