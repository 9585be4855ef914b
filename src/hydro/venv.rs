//! The private Python virtual environment with pinned Capytaine, h5py and SciPy.
//!
//! Created on first use with `python3 -m venv` (or `$TIDELINK_PYTHON`), then `pip install`ed with every
//! transitive version fixed by `hydro/constraints.txt`; a stamp file holding the pins and the constraints
//! marks it complete, so an interrupted install is redone, and new pins or constraints rebuild it.

use anyhow::{anyhow, bail, Context, Result};
use std::path::{Path, PathBuf};
use std::process::Command;

/// The exact versions installed (capytaine 3.0.0 ships cp311+ manylinux wheels with its own runtime).
/// The same list is `dependencies` in hydro/pyproject.toml; a unit test below compares the two.
pub const REQUIREMENTS: &[&str] = &["capytaine==3.0.0", "h5py==3.16.0", "scipy==1.17.1"];

/// `hydro/constraints.txt`: the exact version of every transitive dependency (`pip freeze` of a fresh
/// install of REQUIREMENTS). Embedded, like the Python sources (runner.rs), so the binary needs no
/// checkout at run time; written into the environment's folder because pip reads `-c` from a file.
pub const CONSTRAINTS: &str = include_str!("../../hydro/constraints.txt");

const STAMP: &str = "tidelink-requirements.txt";
const CONSTRAINTS_FILE: &str = "tidelink-constraints.txt";

/// The Python interpreter of the environment at `dir`.
pub fn python(dir: &Path) -> PathBuf {
    dir.join("bin").join("python")
}

/// What the stamp of a complete environment holds: the pins, then the constraints they were installed with.
fn stamp_text() -> String {
    REQUIREMENTS.join("\n") + "\n# installed with -c constraints.txt:\n" + CONSTRAINTS
}

/// Whether the environment at `dir` has its interpreter and the stamp of the current pins and constraints.
fn is_complete(dir: &Path) -> bool {
    python(dir).is_file() && std::fs::read_to_string(dir.join(STAMP)).is_ok_and(|s| s == stamp_text())
}

/// The environment under `dir`, created and installed if it is missing or stale.
pub fn ensure(dir: &Path) -> Result<PathBuf> {
    if is_complete(dir) {
        return Ok(python(dir));
    }
    if dir.exists() {
        std::fs::remove_dir_all(dir).with_context(|| format!("cannot remove the stale {}", dir.display()))?;
    }
    let base = std::env::var("TIDELINK_PYTHON").unwrap_or_else(|_| "python3".into());
    println!("[hydro] first use: creating a Python environment in {} (about 380 MB)", dir.display());
    let out = Command::new(&base).args(["-m", "venv"]).arg(dir).output().map_err(|e| {
        anyhow!("cannot start `{base}` ({e}): tidelink hydro needs Python 3.11+ (set TIDELINK_PYTHON to choose one)")
    })?;
    if !out.status.success() {
        let _ = std::fs::remove_dir_all(dir);
        bail!(
            "`{base} -m venv` failed (on Debian/Ubuntu install python3-venv):\n{}",
            tail(&String::from_utf8_lossy(&out.stderr), 15)
        );
    }
    let constraints = dir.join(CONSTRAINTS_FILE);
    std::fs::write(&constraints, CONSTRAINTS).with_context(|| format!("cannot write {}", constraints.display()))?;
    println!(
        "[hydro] pip install {} with the versions of hydro/constraints.txt (about 75 MB from PyPI, under a minute)",
        REQUIREMENTS.join(" ")
    );
    let out = Command::new(python(dir))
        .args(["-m", "pip", "install", "--disable-pip-version-check", "--no-input", "--progress-bar", "off"])
        .arg("-c")
        .arg(&constraints)
        .args(REQUIREMENTS)
        .output()
        .context("cannot start the environment's pip")?;
    if !out.status.success() {
        let text = String::from_utf8_lossy(&out.stdout).to_string() + &String::from_utf8_lossy(&out.stderr);
        bail!("pip install failed; the end of its output:\n{}", tail(&text, 25));
    }
    let stamp = dir.join(STAMP);
    std::fs::write(&stamp, stamp_text()).with_context(|| format!("cannot write {}", stamp.display()))?;
    Ok(python(dir))
}

/// The last `n` lines of `text`.
pub fn tail(text: &str, n: usize) -> String {
    let lines: Vec<&str> = text.lines().collect();
    lines[lines.len().saturating_sub(n)..].join("\n")
}

#[cfg(test)]
mod tests {
    use super::*;

    /// The strings of the `dependencies = [...]` array of the `[project]` table of a pyproject.toml
    /// (enough TOML for that file: one array of plain double-quoted strings, possibly over several lines).
    fn pyproject_dependencies(text: &str) -> Vec<String> {
        let mut table = "";
        let mut array: Option<String> = None;
        for line in text.lines() {
            let line = line.split('#').next().unwrap_or("").trim();
            if let Some(acc) = array.as_mut() {
                acc.push_str(line);
                acc.push(' ');
            } else if line.starts_with('[') {
                table = line;
            } else if table == "[project]" && line.replace(' ', "").starts_with("dependencies=[") {
                array = Some(line.split_once('[').map(|(_, rest)| rest.to_string()).unwrap_or_default() + " ");
            }
            if let Some(acc) = &array {
                if let Some((items, _)) = acc.split_once(']') {
                    return items
                        .split(',')
                        .map(|s| s.trim().trim_matches('"').to_string())
                        .filter(|s| !s.is_empty())
                        .collect();
                }
            }
        }
        panic!("no `dependencies = [...]` in the [project] table");
    }

    /// The `name==version` lines of a constraints file (comments and blank lines left out).
    fn constraint_lines(text: &str) -> Vec<&str> {
        text.lines().map(|l| l.split('#').next().unwrap_or("").trim()).filter(|l| !l.is_empty()).collect()
    }

    #[test]
    fn requirements_are_the_dependencies_of_pyproject_toml() {
        let deps = pyproject_dependencies(include_str!("../../hydro/pyproject.toml"));
        assert_eq!(deps, REQUIREMENTS, "hydro/pyproject.toml and venv::REQUIREMENTS disagree");
    }

    #[test]
    fn the_parser_reads_a_one_line_array_in_the_project_table_only() {
        let text =
            "[tool.x]\ndependencies = [\"no==1\"]\n[project]\nname = \"p\"\ndependencies = [\"a==1\", \"b==2\"]\n";
        assert_eq!(pyproject_dependencies(text), ["a==1", "b==2"]);
    }

    #[test]
    fn constraints_pin_every_requirement_and_only_exact_versions() {
        let lines = constraint_lines(CONSTRAINTS);
        for r in REQUIREMENTS {
            assert!(lines.contains(r), "hydro/constraints.txt has no line `{r}`");
        }
        for l in &lines {
            let (name, version) = l.split_once("==").unwrap_or_else(|| panic!("`{l}` is not name==version"));
            assert!(!name.is_empty() && !version.is_empty() && !version.contains(['<', '>', '=', ',', ';']), "{l}");
        }
    }

    #[test]
    fn the_stamp_covers_pins_and_constraints() {
        let dir = tempfile::tempdir().unwrap();
        let env = dir.path();
        std::fs::create_dir_all(env.join("bin")).unwrap();
        std::fs::write(python(env), "").unwrap();
        assert!(!is_complete(env), "no stamp: incomplete");
        // The stamp of the tool before constraints existed: only the pins.
        std::fs::write(env.join(STAMP), REQUIREMENTS.join("\n") + "\n").unwrap();
        assert!(!is_complete(env), "a stamp without the constraints is stale");
        std::fs::write(env.join(STAMP), stamp_text().replace("numpy==", "numpy==0")).unwrap();
        assert!(!is_complete(env), "other constraints: stale");
        std::fs::write(env.join(STAMP), stamp_text()).unwrap();
        assert!(is_complete(env));
        std::fs::remove_file(python(env)).unwrap();
        assert!(!is_complete(env), "no interpreter: incomplete");
    }
}
