//! The broken-file corpus: every `tests/corpus/xml/*.xml` breaks one rule and states, in
//! its first line, the error it must produce: `<!-- expect: line N: fragment -->`. The
//! files under `valid/` are the bases the broken ones derive from and must load cleanly.

use std::fs;
use std::path::{Path, PathBuf};
use tidelink_precice_config::load;

fn corpus_dir() -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR")).join("tests/corpus/xml")
}

fn xml_files(dir: &Path) -> Vec<PathBuf> {
    let mut v: Vec<PathBuf> = fs::read_dir(dir)
        .unwrap_or_else(|e| panic!("{}: {e}", dir.display()))
        .filter_map(|e| e.ok().map(|e| e.path()))
        .filter(|p| p.extension().is_some_and(|x| x == "xml"))
        .collect();
    v.sort();
    v
}

/// Parses `<!-- expect: line N: fragment -->`.
fn expectation(path: &Path) -> (usize, String) {
    let text = fs::read_to_string(path).unwrap_or_else(|e| panic!("{}: {e}", path.display()));
    let first = text.lines().next().unwrap_or_default();
    let rest = first
        .strip_prefix("<!-- expect: line ")
        .and_then(|r| r.strip_suffix(" -->"))
        .unwrap_or_else(|| panic!("{}: first line must be <!-- expect: line N: fragment -->", path.display()));
    let (line, fragment) = rest.split_once(": ").unwrap_or_else(|| panic!("{}: bad expect comment", path.display()));
    (line.parse().unwrap_or_else(|_| panic!("{}: bad line number", path.display())), fragment.to_string())
}

#[test]
fn every_broken_file_fails_with_its_expected_error_and_line() {
    let files = xml_files(&corpus_dir());
    assert!(files.len() >= 22, "the corpus needs at least 22 files, has {}", files.len());
    let mut failures = Vec::new();
    for f in &files {
        let (line, fragment) = expectation(f);
        let name = f.file_name().map(|n| n.to_string_lossy().into_owned()).unwrap_or_default();
        let diags = match load(f) {
            Ok((_, w)) => {
                failures.push(format!("{name}: loaded without errors (warnings: {w})"));
                continue;
            }
            Err(d) => d,
        };
        let hit = diags.errors().find(|d| d.message.contains(&fragment));
        match hit {
            None => failures.push(format!("{name}: no error contains {fragment:?}; got:\n{diags}")),
            Some(d) if d.location.line != line => {
                failures.push(format!("{name}: {fragment:?} reported at line {}, expected {line}", d.location.line))
            }
            Some(d) if d.location.file != *f => failures.push(format!("{name}: location names {:?}", d.location.file)),
            Some(d) => assert!(d.to_string().contains(&format!("{name}:{line}")), "{d}"),
        }
    }
    assert!(failures.is_empty(), "{}", failures.join("\n\n"));
}

#[test]
fn the_valid_bases_load_cleanly() {
    let files = xml_files(&corpus_dir().join("valid"));
    assert!(!files.is_empty());
    for f in files {
        if let Err(e) = load(&f) {
            panic!("{}:\n{e}", f.display());
        }
    }
}
