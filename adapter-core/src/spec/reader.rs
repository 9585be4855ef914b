//! Typed, schema-checked access to a parsed YAML tree. Every problem becomes a
//! `Diagnostic` with the file and line of the offending node, and reading goes on, so one
//! pass reports all problems of a file.

use super::lines::{LineIndex, Seg};
use crate::diagnostics::{nearest, Diagnostics, Location};
use serde_yaml::Value;
use std::collections::HashSet;
use std::path::Path;

/// A node of the tree with the path that leads to it (for its line).
#[derive(Clone)]
pub(crate) struct Node<'v> {
    pub value: &'v Value,
    pub path: Vec<Seg>,
}

impl<'v> Node<'v> {
    pub fn root(value: &'v Value) -> Self {
        Node { value, path: Vec::new() }
    }
    fn child(&self, seg: Seg, value: &'v Value) -> Self {
        let mut path = self.path.clone();
        path.push(seg);
        Node { value, path }
    }
}

/// The known entries of a mapping after its keys were checked.
pub(crate) struct Fields<'v> {
    node: Node<'v>,
    entries: Vec<(String, &'v Value)>,
}

impl<'v> Fields<'v> {
    /// The value of `key`, if present.
    pub fn get(&self, key: &str) -> Option<Node<'v>> {
        self.entries.iter().find(|(k, _)| k == key).map(|(k, v)| self.node.child(Seg::Key(k.clone()), v))
    }
    /// The path of the mapping itself.
    pub fn path(&self) -> &[Seg] {
        &self.node.path
    }
}

/// Collects diagnostics while a file is read.
pub(crate) struct Reader<'a> {
    file: &'a Path,
    lines: LineIndex,
    pub diags: Diagnostics,
    ignored_seen: HashSet<String>,
}

/// "a list", "a number", ... for messages about wrong types.
pub(crate) fn describe(v: &Value) -> &'static str {
    match v {
        Value::Null => "nothing",
        Value::Bool(_) => "true/false",
        Value::Number(_) => "a number",
        Value::String(_) => "a string",
        Value::Sequence(_) => "a list",
        Value::Mapping(_) => "a mapping",
        Value::Tagged(_) => "a tagged value",
    }
}

/// A mapping key as text (YAML allows numbers and booleans as keys).
fn key_text(k: &Value) -> String {
    match k {
        Value::String(s) => s.clone(),
        Value::Bool(b) => b.to_string(),
        Value::Number(n) => n.to_string(),
        other => describe(other).to_string(),
    }
}

/// `a, b, c` with backticks, for "valid values" lists.
pub(crate) fn backticked(items: &[&str]) -> String {
    items.iter().map(|s| format!("`{s}`")).collect::<Vec<_>>().join(", ")
}

impl<'a> Reader<'a> {
    pub fn new(file: &'a Path, text: &str) -> Self {
        Reader { file, lines: LineIndex::build(text), diags: Diagnostics::default(), ignored_seen: HashSet::new() }
    }

    pub fn loc(&self, path: &[Seg]) -> Location {
        Location::new(self.file, self.lines.line(path))
    }

    pub fn error(&mut self, path: &[Seg], msg: impl Into<String>) {
        let loc = self.loc(path);
        self.diags.error(loc, msg);
    }

    pub fn warning(&mut self, path: &[Seg], msg: impl Into<String>) {
        let loc = self.loc(path);
        self.diags.warning(loc, msg);
    }

    /// Checks the keys of a mapping: `known` are returned, `ignored` get one warning per
    /// key and section kind per file, anything else is an error with the nearest spelling.
    /// An empty value (`section:` with nothing below) reads as an empty mapping.
    pub fn fields<'v>(
        &mut self,
        node: &Node<'v>,
        section: &str,
        known: &[&str],
        ignored: &[&str],
    ) -> Option<Fields<'v>> {
        let map = match node.value {
            Value::Mapping(m) => Some(m),
            Value::Null => None,
            other => {
                let msg = format!("{section} must be a mapping of keys, found {}", describe(other));
                self.error(&node.path, msg);
                return None;
            }
        };
        let mut entries = Vec::new();
        for (k, v) in map.into_iter().flatten() {
            let key = key_text(k);
            let child = node.child(Seg::Key(key.clone()), v);
            if known.contains(&key.as_str()) {
                entries.push((key, v));
            } else if ignored.contains(&key.as_str()) {
                let once = format!("{}.{key}", section_kind(section));
                if self.ignored_seen.insert(once) {
                    let msg = format!("key `{key}` in {section} is accepted but not implemented yet; it is ignored");
                    self.warning(&child.path, msg);
                }
            } else {
                let all: Vec<&str> = known.iter().chain(ignored).copied().collect();
                let hint = match nearest(&key, all.iter().copied()) {
                    Some(n) => format!("did you mean `{n}`?"),
                    None => format!("valid keys are {}", backticked(&all)),
                };
                self.error(&child.path, format!("unknown key `{key}` in {section}; {hint}"));
            }
        }
        Some(Fields { node: node.clone(), entries })
    }

    /// A required entry: reports `missing required key` at the mapping when absent.
    pub fn require<'v>(&mut self, fields: &Fields<'v>, key: &str, section: &str) -> Option<Node<'v>> {
        let found = fields.get(key);
        if found.is_none() {
            let path = fields.path().to_vec();
            self.error(&path, format!("missing required key `{key}` in {section}"));
        }
        found
    }

    /// A string (numbers are accepted and kept as written, e.g. `chrono-version: 10.0`).
    pub fn string(&mut self, node: &Node, what: &str) -> Option<String> {
        match node.value {
            Value::String(s) => Some(s.clone()),
            Value::Number(n) => Some(n.to_string()),
            other => {
                self.error(&node.path, format!("`{what}` must be a string, found {}", describe(other)));
                None
            }
        }
    }

    /// A non-empty name (of a participant, mesh, datum or body).
    pub fn name(&mut self, node: &Node, what: &str) -> Option<String> {
        let s = self.string(node, what)?;
        if s.trim().is_empty() {
            self.error(&node.path, format!("`{what}` must not be empty"));
            return None;
        }
        Some(s)
    }

    pub fn number(&mut self, node: &Node, what: &str) -> Option<f64> {
        match node.value {
            Value::Number(n) => n.as_f64(),
            other => {
                self.error(&node.path, format!("`{what}` must be a number, found {}", describe(other)));
                None
            }
        }
    }

    /// A boolean; the YAML 1.1 spellings Chrono's reader (yaml-cpp) accepts count too.
    pub fn boolean(&mut self, node: &Node, what: &str) -> Option<bool> {
        match node.value {
            Value::Bool(b) => Some(*b),
            Value::String(s) if yaml11_bool(s).is_some() => yaml11_bool(s),
            other => {
                self.error(&node.path, format!("`{what}` must be true or false, found {}", describe(other)));
                None
            }
        }
    }

    /// A `[x, y, z]` triple of numbers.
    pub fn vec3(&mut self, node: &Node, what: &str) -> Option<[f64; 3]> {
        let Value::Sequence(items) = node.value else {
            let msg = format!("`{what}` must be a list of 3 numbers [x, y, z], found {}", describe(node.value));
            self.error(&node.path, msg);
            return None;
        };
        if items.len() != 3 {
            let msg = format!("`{what}` needs 3 coordinates [x, y, z], found {}", items.len());
            self.error(&node.path, msg);
            return None;
        }
        let mut out = [0.0; 3];
        for (i, v) in items.iter().enumerate() {
            let child = node.child(Seg::Index(i), v);
            out[i] = self.number(&child, what)?;
        }
        Some(out)
    }

    /// One of a fixed set of spellings, mapped to its value.
    pub fn choice<T: Clone>(&mut self, node: &Node, what: &str, options: &[(&str, T)]) -> Option<T> {
        let text = self.string(node, what)?;
        if let Some((_, v)) = options.iter().find(|(s, _)| *s == text) {
            return Some(v.clone());
        }
        let names: Vec<&str> = options.iter().map(|(s, _)| *s).collect();
        let near = nearest(&text, names.iter().copied())
            .or_else(|| names.iter().copied().find(|n| n.starts_with(&text) || text.starts_with(n)));
        let hint = near.map(|n| format!("did you mean `{n}`? ")).unwrap_or_default();
        self.error(&node.path, format!("invalid {what} `{text}`; {hint}valid values are {}", backticked(&names)));
        None
    }

    /// The items of a list (an empty value reads as an empty list).
    pub fn list<'v>(&mut self, node: &Node<'v>, what: &str) -> Vec<Node<'v>> {
        match node.value {
            Value::Sequence(items) => items.iter().enumerate().map(|(i, v)| node.child(Seg::Index(i), v)).collect(),
            Value::Null => Vec::new(),
            other => {
                self.error(
                    &node.path,
                    format!("`{what}` must be a list (entries starting with `- `), found {}", describe(other)),
                );
                Vec::new()
            }
        }
    }
}

/// `yes`/`no`, `on`/`off`, `y`/`n` in the case variants yaml-cpp reads as booleans.
fn yaml11_bool(s: &str) -> Option<bool> {
    const TRUE: &[&str] = &["y", "Y", "yes", "Yes", "YES", "on", "On", "ON", "True", "TRUE"];
    const FALSE: &[&str] = &["n", "N", "no", "No", "NO", "off", "Off", "OFF", "False", "FALSE"];
    if TRUE.contains(&s) {
        Some(true)
    } else if FALSE.contains(&s) {
        Some(false)
    } else {
        None
    }
}

/// The section label without list indices (`bodies[2]` → `bodies`), for once-per-file warnings.
fn section_kind(section: &str) -> String {
    let mut out = String::with_capacity(section.len());
    let mut depth = 0;
    for c in section.chars() {
        match c {
            '[' => depth += 1,
            ']' => depth -= 1,
            _ if depth == 0 => out.push(c),
            _ => {}
        }
    }
    out
}
