//! `tidelink hydro`: a BEMIO-layout hydrodynamic file generated with Capytaine from a YAML description.
//!
//! Steps: check the description, look the result up in the cache, else make sure the private Python
//! environment exists, run the embedded `tidelink_hydro` package, and store the file in the cache.
//! docs/hydro.md describes the keys, the solver settings and the validation.

mod cache;
mod description;
mod runner;
mod venv;

use anyhow::{Context, Result};
use description::{Description, Kind};
use std::path::{Path, PathBuf};

/// Generates (or finds in the cache) the file for `description`; copies it to `output` (or the
/// description's `output:`) when given. Returns the path of the file to use.
pub fn generate(description: &Path, output: Option<&Path>) -> Result<PathBuf> {
    let desc = Description::load(description)?;
    let json = desc.to_json()?;
    let root = cache::root()?;
    let key = result_key(&desc, &json)?;
    let results = root.join("hydro-results");
    let cached = results.join(format!("{key}.h5"));
    if cached.is_file() {
        println!("[hydro] cached result (same description, package and scripts): {}", cached.display());
    } else {
        std::fs::create_dir_all(&results).with_context(|| format!("cannot create {}", results.display()))?;
        let python = venv::ensure(&root.join("hydro-venv"))?;
        let work = root.join("hydro-work").join(&key);
        runner::install_sources(&work)?;
        let json_path = work.join("description.json");
        std::fs::write(&json_path, &json).with_context(|| format!("cannot write {}", json_path.display()))?;
        let partial = results.join(format!("{key}.h5.partial"));
        let start = std::time::Instant::now();
        runner::run(&python, &work, &json_path, &partial)?;
        std::fs::rename(&partial, &cached)
            .with_context(|| format!("cannot move the result to {}", cached.display()))?;
        let _ = std::fs::remove_dir_all(&work);
        println!("[hydro] generated in {:.0} s: {}", start.elapsed().as_secs_f64(), cached.display());
    }
    let target = output.map(Path::to_path_buf).or_else(|| desc.output_path(description));
    match target {
        Some(out) => {
            if let Some(dir) = out.parent().filter(|d| !d.as_os_str().is_empty()) {
                std::fs::create_dir_all(dir).with_context(|| format!("cannot create {}", dir.display()))?;
            }
            std::fs::copy(&cached, &out).with_context(|| format!("cannot copy the result to {}", out.display()))?;
            println!("[hydro] wrote {}", out.display());
            Ok(out)
        }
        None => Ok(cached),
    }
}

/// Imports the WAMIT run `stem` (`stem.1`, `.hst`, `.mmx`, `.pot`) into the BEMIO file `output`:
/// radiation and hydrostatics only, the radiation IRF over `irf_t_end` s (no BEM run, no cache:
/// it takes seconds). Returns `output`.
pub fn import_wamit(stem: &Path, output: &Path, irf_t_end: f64) -> Result<PathBuf> {
    let missing: Vec<String> = ["1", "hst", "mmx", "pot"]
        .iter()
        .map(|ext| stem.with_extension(ext))
        .filter(|p| !p.is_file())
        .map(|p| p.display().to_string())
        .collect();
    if !missing.is_empty() {
        anyhow::bail!(
            "--wamit {}: no {} (give the run's path without extension, e.g. wamit/oswec for wamit/oswec.1)",
            stem.display(),
            missing.join(", ")
        );
    }
    if !(irf_t_end.is_finite() && irf_t_end > 0.0) {
        anyhow::bail!("--irf-t-end must be a positive number of seconds, not {irf_t_end}");
    }
    let root = cache::root()?;
    let python = venv::ensure(&root.join("hydro-venv"))?;
    let work = root.join("hydro-work").join(format!("wamit-{}", std::process::id()));
    runner::install_sources(&work)?;
    if let Some(dir) = output.parent().filter(|d| !d.as_os_str().is_empty()) {
        std::fs::create_dir_all(dir).with_context(|| format!("cannot create {}", dir.display()))?;
    }
    let t_end = irf_t_end.to_string();
    let args = [stem.as_os_str(), output.as_os_str(), "--irf-t-end".as_ref(), t_end.as_ref()];
    let result = runner::run_module(&python, &work, "tidelink_hydro.wamit", &args);
    let _ = std::fs::remove_dir_all(&work);
    result?;
    println!("[hydro] wrote {}", output.display());
    Ok(output.to_path_buf())
}

/// The cache key: tool version, pinned requirements and their constraints, every embedded script, the
/// description as the Python side sees it, and the content of any mesh file.
fn result_key(desc: &Description, json: &str) -> Result<String> {
    let mut parts: Vec<Vec<u8>> =
        vec![env!("CARGO_PKG_VERSION").into(), venv::REQUIREMENTS.join(" ").into(), venv::CONSTRAINTS.into()];
    for (name, text) in runner::SOURCES {
        parts.push(name.as_bytes().to_vec());
        parts.push(text.as_bytes().to_vec());
    }
    parts.push(json.as_bytes().to_vec());
    for body in desc.bodies.iter().filter(|b| b.kind == Kind::Mesh) {
        if let Some(file) = &body.file {
            parts.push(cache::file_key(file)?.into_bytes());
        }
    }
    let refs: Vec<&[u8]> = parts.iter().map(Vec::as_slice).collect();
    Ok(cache::key(&refs))
}

#[cfg(test)]
mod tests {
    use super::description::{Depth, Description};
    use std::path::Path;

    const GOOD: &str = concat!(
        "frequencies: {min: 0.1, max: 2.0, count: 5}\n",
        "bodies:\n",
        "  - name: ball\n",
        "    kind: sphere\n",
        "    radius: 5\n",
        "    cg: [0, 0, 0]\n",
    );

    #[test]
    fn parses_a_sphere_with_defaults() {
        let d = Description::parse(GOOD, Path::new("d.yaml")).unwrap();
        assert_eq!(d.depth, Depth::Infinite);
        assert_eq!(d.headings, vec![0.0]);
        assert!(d.to_json().unwrap().contains("\"depth\": \"infinite\""));
    }

    #[test]
    fn unknown_key_names_its_line() {
        let text = GOOD.replace("    radius: 5\n", "    radius: 5\n    colour: red\n");
        let e = Description::parse(&text, Path::new("d.yaml")).unwrap_err().to_string();
        assert!(e.starts_with("d.yaml:6:"), "{e}");
        assert!(e.contains("colour"), "{e}");
    }

    #[test]
    fn kind_checks_name_the_body_line() {
        let text = GOOD.replace("    radius: 5\n", "    draft: 5\n");
        let e = Description::parse(&text, Path::new("d.yaml")).unwrap_err().to_string();
        assert!(e.starts_with("d.yaml:3:") && e.contains("needs the key `radius`"), "{e}");
    }

    #[test]
    fn finite_depth_and_bad_depth() {
        let d = Description::parse(&format!("depth: 70\n{GOOD}"), Path::new("d.yaml")).unwrap();
        assert_eq!(d.depth, Depth::Finite(70.0));
        let e = Description::parse(&format!("depth: deep\n{GOOD}"), Path::new("d.yaml")).unwrap_err().to_string();
        assert!(e.starts_with("d.yaml:1:"), "{e}");
    }

    /// What a description must not ask for, each refused at its line before any Python runs:
    /// `(edit of GOOD, line, fragment)`.
    #[test]
    fn impossible_descriptions_are_refused_at_their_line() {
        let cases: &[(&str, usize, &str)] = &[
            ("sectors: 0\n", 1, "sectors must be 3 to 720"),
            ("irf: {steps: 0}\n", 1, "irf: `steps` must be at least 2"),
            ("excitation_irf: {t_end: -1}\n", 1, "excitation_irf: `t_end` must be a positive number"),
            ("depth: 3\n", 4, "body `ball`: the body reaches z = -5 m, at or below the sea floor (depth 3 m)"),
        ];
        for (head, line, says) in cases {
            let e = Description::parse(&format!("{head}{GOOD}"), Path::new("d.yaml")).unwrap_err().to_string();
            assert!(e.starts_with(&format!("d.yaml:{line}: error: ")) && e.contains(says), "{head:?}: {e}");
        }
        let above = GOOD.replace("    cg: [0, 0, 0]\n", "    center_z: 6\n    cg: [0, 0, 6]\n");
        let e = Description::parse(&above, Path::new("d.yaml")).unwrap_err().to_string();
        assert!(e.starts_with("d.yaml:3: error: ") && e.contains("entirely above the water"), "{e}");
        for (count, says) in [("1", "the impulse response needs at least 2"), ("1000000000", "use at most 5000")] {
            let text = GOOD.replace("count: 5", &format!("count: {count}"));
            let e = Description::parse(&text, Path::new("d.yaml")).unwrap_err().to_string();
            assert!(e.starts_with("d.yaml:1: error: frequencies: ") && e.contains(says), "{e}");
        }
        let one = GOOD.replace("{min: 0.1, max: 2.0, count: 5}", "{values: [0.5]}");
        let e = Description::parse(&one, Path::new("d.yaml")).unwrap_err().to_string();
        assert!(e.contains("1 frequency given"), "{e}");
        // The RM3 spar's plate is 29 m down: a 25 m sea is too shallow, 70 m is fine.
        let rm3 = concat!(
            "frequencies: {min: 0.1, max: 2.0, count: 5}\n",
            "bodies:\n",
            "  - {name: float, kind: rm3_float, cg: [0, 0, -0.72]}\n",
            "  - {name: spar, kind: rm3_spar, cg: [0, 0, -21.29]}\n",
        );
        let e = Description::parse(&format!("depth: 25\n{rm3}"), Path::new("d.yaml")).unwrap_err().to_string();
        assert!(e.starts_with("d.yaml:5: error: body `spar`: the body reaches z = -29 m"), "{e}");
        assert!(Description::parse(&format!("depth: 70\n{rm3}"), Path::new("d.yaml")).is_ok());
    }

    #[test]
    fn rm3_needs_both_bodies() {
        let text = concat!(
            "frequencies: {min: 0.1, max: 2.0, count: 5}\n",
            "bodies:\n",
            "  - {name: float, kind: rm3_float, cg: [0, 0, -0.72]}\n",
        );
        let e = Description::parse(text, Path::new("d.yaml")).unwrap_err().to_string();
        assert!(e.contains("describe both"), "{e}");
    }
}
