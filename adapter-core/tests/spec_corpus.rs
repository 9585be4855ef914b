//! Table of broken participant files (tests/corpus/yaml). Each file's first line says what
//! must be reported: `# expect: line N: message fragment`. Reading must fail with an error
//! on that line whose message contains the fragment, and must never panic.

use std::path::{Path, PathBuf};
use tidelink_adapter_core::spec;

/// (line, fragment) from the first-line comment.
fn expectation(path: &Path, text: &str) -> (usize, String) {
    let first = text.lines().next().unwrap_or_default();
    let rest = first
        .strip_prefix("# expect: line ")
        .unwrap_or_else(|| panic!("{}: first line must be `# expect: line N: fragment`", path.display()));
    let (line, fragment) = rest.split_once(": ").expect("`: ` after the line number");
    (line.trim().parse().expect("line number"), fragment.trim().to_string())
}

/// The folder tests/corpus/`name` and its `.yaml` files, sorted.
fn corpus(name: &str) -> (PathBuf, Vec<PathBuf>) {
    let dir = Path::new(env!("CARGO_MANIFEST_DIR")).join("tests/corpus").join(name);
    let mut files: Vec<PathBuf> = std::fs::read_dir(&dir)
        .unwrap_or_else(|e| panic!("corpus folder {}: {e}", dir.display()))
        .map(|e| e.expect("corpus entry").path())
        .filter(|p| p.extension().is_some_and(|e| e == "yaml"))
        .collect();
    files.sort();
    (dir, files)
}

#[test]
fn every_broken_file_reports_its_error_and_line() {
    let (_, files) = corpus("yaml");
    assert!(files.len() >= 10, "the corpus needs at least 10 files, has {}", files.len());
    let mut failures = Vec::new();
    for path in &files {
        let text = std::fs::read_to_string(path).expect("read corpus file");
        let (line, fragment) = expectation(path, &text);
        match spec::load(path) {
            Ok((_, warnings)) => failures.push(format!("{}: read without error\n{warnings}", path.display())),
            Err(d) => {
                let hit = d.errors().any(|e| e.location.line == line && e.message.contains(&fragment));
                let printed = d.to_string();
                let names_file = printed.contains(&*path.to_string_lossy());
                if !hit || !names_file {
                    failures.push(format!("{}: expected line {line}: {fragment}\ngot:\n{printed}", path.display()));
                }
            }
        }
    }
    assert!(
        failures.is_empty(),
        "{} of {} corpus files failed:\n\n{}",
        failures.len(),
        files.len(),
        failures.join("\n\n")
    );
}

/// Cross-file corpus (tests/corpus/cross): participant files that read fine alone but break a
/// rule against their XML (named on a `# xml: FILE` first line; the expectation on the second).
#[test]
fn every_cross_file_problem_is_reported_with_its_line() {
    let (dir, files) = corpus("cross");
    assert!(files.len() >= 5, "the cross corpus has {} files", files.len());
    let mut failures = Vec::new();
    for path in &files {
        let text = std::fs::read_to_string(path).expect("read corpus file");
        let xml = text.lines().next().and_then(|l| l.strip_prefix("# xml: ")).expect("first line `# xml: FILE`");
        let (line, fragment) = expectation(path, text.lines().nth(1).unwrap_or_default());
        let (cfg, _) = tidelink_adapter_core::config::load(&dir.join(xml.trim())).expect("the corpus XML is valid");
        let (file, _) = spec::load(path).unwrap_or_else(|d| panic!("{}: must read alone:\n{d}", path.display()));
        let d = spec::check_against(&cfg, &file);
        let hit = d.errors().any(|e| e.location.line == line && e.message.contains(&fragment));
        if !hit {
            failures.push(format!("{}: expected line {line}: {fragment}\ngot:\n{d}", path.display()));
        }
    }
    assert!(failures.is_empty(), "{}", failures.join("\n\n"));
}
