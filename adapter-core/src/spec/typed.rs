//! Schema-checked reading of any YAML file into a serde type. Declare the schema as a
//! struct with `#[serde(deny_unknown_fields)]`; keys to accept but not use can be fields of
//! type `Option<serde::de::IgnoredAny>`. serde_yaml's error (with its line) is rewritten
//! into a `Diagnostic` that names the key, where it is, and the nearest valid spelling.

use super::lines::{LineIndex, Seg};
use super::parse::malformed;
use crate::diagnostics::{nearest, Diagnostics, Location};
use serde::de::DeserializeOwned;
use std::path::{Path, PathBuf};

/// Line numbers of the keys of a YAML file, for messages about values that deserialized
/// fine but are wrong in context (a name that does not exist elsewhere, say).
pub struct YamlLines {
    index: LineIndex,
    path: PathBuf,
}

impl YamlLines {
    /// Scans `text` (the contents of `path`).
    pub fn new(text: &str, path: &Path) -> Self {
        YamlLines { index: LineIndex::build(text), path: path.to_path_buf() }
    }

    /// Where a node is, by its serde-style path such as `participants[1].name`; a path
    /// that does not exist gives the line of its nearest existing parent.
    pub fn loc(&self, node: &str) -> Location {
        let mut segs = Vec::new();
        for part in node.split('.').filter(|p| !p.is_empty()) {
            let mut pieces = part.split('[');
            if let Some(key) = pieces.next().filter(|k| !k.is_empty()) {
                segs.push(Seg::Key(key.to_string()));
            }
            segs.extend(pieces.filter_map(|p| p.trim_end_matches(']').parse().ok()).map(Seg::Index));
        }
        Location::new(&self.path, self.index.line(&segs))
    }
}

/// As `load_yaml`, also returning the file's key lines.
pub fn load_yaml_with_lines<T: DeserializeOwned>(path: &Path) -> Result<(T, YamlLines), Diagnostics> {
    let text = read(path)?;
    let value = parse_yaml_str(&text, path)?;
    Ok((value, YamlLines::new(&text, path)))
}

/// Reads and deserializes `path`; see the module docs for how to declare the schema.
pub fn load_yaml<T: DeserializeOwned>(path: &Path) -> Result<T, Diagnostics> {
    parse_yaml_str(&read(path)?, path)
}

fn read(path: &Path) -> Result<String, Diagnostics> {
    crate::config::files::read_text(path).map_err(|e| {
        let mut d = Diagnostics::default();
        d.error(Location::new(path, 0), format!("cannot read the file: {e}"));
        d
    })
}

/// As `load_yaml`, for text already in memory (`path` is used in messages only).
pub fn parse_yaml_str<T: DeserializeOwned>(text: &str, path: &Path) -> Result<T, Diagnostics> {
    super::nesting::check(text, path)?;
    // Syntax errors first, with the wording of the participant-file reader.
    if let Err(e) = serde_yaml::from_str::<serde_yaml::Value>(text) {
        return Err(malformed(&e, text, path));
    }
    serde_yaml::from_str::<T>(text).map_err(|e| {
        let line = e.location().map(|l| l.line()).unwrap_or(1);
        let mut d = Diagnostics::default();
        d.error(Location::new(path, line), translate(&e.to_string()));
        d
    })
}

/// Rewrites a serde message (`a.b[0]: unknown field `x`, expected one of ...`) in our words.
fn translate(raw: &str) -> String {
    let text = raw.find(" at line ").map(|i| &raw[..i]).unwrap_or(raw);
    let (section, msg) = split_path(text);
    let place = section.map(|s| format!("in {s}")).unwrap_or_else(|| "at the top level".to_string());
    let quoted = backticked_words(msg);
    if let Some(rest) = msg.strip_prefix("unknown field ") {
        let key = quoted.first().cloned().unwrap_or_default();
        let valid: Vec<&str> = quoted.iter().skip(1).map(String::as_str).collect();
        let hint = match nearest(&key, valid.iter().copied()) {
            Some(n) => format!("; did you mean `{n}`?"),
            None if rest.contains("there are no fields") || valid.is_empty() => {
                "; no keys are allowed here".to_string()
            }
            None => format!("; valid keys are {}", super::reader::backticked(&valid)),
        };
        return format!("unknown key `{key}` {place}{hint}");
    }
    if msg.starts_with("unknown variant ") {
        let value = quoted.first().cloned().unwrap_or_default();
        let valid: Vec<&str> = quoted.iter().skip(1).map(String::as_str).collect();
        let near = nearest(&value, valid.iter().copied()).map(|n| format!("did you mean `{n}`? ")).unwrap_or_default();
        let what = section.map(|s| format!("for {s}")).unwrap_or_default();
        return format!("invalid value `{value}` {what}; {near}valid values are {}", super::reader::backticked(&valid));
    }
    if msg.starts_with("missing field ") {
        let key = quoted.first().cloned().unwrap_or_default();
        return format!("missing required key `{key}` {place}");
    }
    let msg = plain_types(msg);
    match section {
        Some(s) => format!("{s}: {msg}"),
        None => msg,
    }
}

/// serde's Rust type names (`expected u32`) in words a user of the file knows.
fn plain_types(msg: &str) -> String {
    const WORDS: &[(&str, &str)] = &[
        ("expected u8", "expected a whole number from 0 to 255"),
        ("expected u16", "expected a whole number from 0 to 65535"),
        ("expected u32", "expected a whole number from 0 to 4294967295"),
        ("expected u64", "expected a whole number of at least 0"),
        ("expected usize", "expected a whole number of at least 0"),
        ("expected i32", "expected a whole number"),
        ("expected i64", "expected a whole number"),
        ("expected f64", "expected a number"),
        ("expected f32", "expected a number"),
        ("expected a boolean", "expected true or false"),
    ];
    let mut out = msg.to_string();
    for (rust, words) in WORDS {
        // Whole words only: `expected u32` must not rewrite `expected u320`.
        if let Some(at) = out.find(rust) {
            let end = at + rust.len();
            if !out[end..].starts_with(|c: char| c.is_ascii_alphanumeric()) {
                out.replace_range(at..end, words);
            }
        }
    }
    out.replace("integer `", "`").replace("floating point `", "`")
}

/// Splits serde_yaml's `path: message` prefix (a path has no spaces).
fn split_path(text: &str) -> (Option<&str>, &str) {
    match text.split_once(": ") {
        Some((p, m)) if !p.is_empty() && !p.contains(' ') && p != "." => (Some(p), m),
        _ => (None, text),
    }
}

/// The words between backticks, in order.
fn backticked_words(s: &str) -> Vec<String> {
    s.split('`').skip(1).step_by(2).map(str::to_string).collect()
}

#[cfg(test)]
mod tests {
    use super::*;
    use serde::Deserialize;

    #[derive(Deserialize, Debug)]
    #[serde(deny_unknown_fields)]
    #[allow(dead_code)]
    struct Inner {
        time_step: f64,
        kind: Option<Kind>,
        visualization: Option<serde::de::IgnoredAny>,
    }
    #[derive(Deserialize, Debug)]
    enum Kind {
        #[serde(rename = "SMC")]
        Smc,
        #[serde(rename = "NSC")]
        Nsc,
    }
    #[derive(Deserialize, Debug)]
    #[serde(deny_unknown_fields)]
    #[allow(dead_code)]
    struct Outer {
        integrator: Inner,
    }

    #[derive(Deserialize, Debug)]
    #[allow(dead_code)]
    struct Counted {
        count: u32,
    }

    fn err(text: &str) -> String {
        parse_yaml_str::<Outer>(text, Path::new("s.yaml")).unwrap_err().to_string()
    }

    #[test]
    fn messages_name_key_line_and_spelling() {
        let e = err("integrator:\n  time_stp: 1\n");
        assert_eq!(e, "s.yaml:2: error: unknown key `time_stp` in integrator; did you mean `time_step`?");
        let e = err("integrator:\n  time_step: 1\n  kind: SMCC\n");
        assert!(e.starts_with("s.yaml:3: error: invalid value `SMCC` for integrator.kind; did you mean `SMC`?"), "{e}");
        let e = err("integrator:\n  kind: NSC\n");
        assert!(e.contains("missing required key `time_step` in integrator"), "{e}");
        let e = err("integrator: [\n");
        assert!(e.starts_with("s.yaml:2: error: malformed YAML"), "{e}");
        let e = parse_yaml_str::<Counted>("count: -5\n", Path::new("c.yaml")).unwrap_err().to_string();
        assert_eq!(e, "c.yaml:1: error: count: invalid type: `-5`, expected a whole number from 0 to 4294967295");
        let e = parse_yaml_str::<Counted>("count: 2.5\n", Path::new("c.yaml")).unwrap_err().to_string();
        assert!(e.ends_with("invalid type: `2.5`, expected a whole number from 0 to 4294967295"), "{e}");
        let text = "integrator:\n  time_step: 1\n  visualization: {a: 1}\n";
        assert!(parse_yaml_str::<Outer>(text, Path::new("s.yaml")).is_ok());
        let lines = YamlLines::new(text, Path::new("s.yaml"));
        assert_eq!(lines.loc("integrator.visualization.a").line, 3);
        assert_eq!(lines.loc("integrator.nothing[2]").line, 1);
    }
}
