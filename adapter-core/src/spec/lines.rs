//! Line numbers for YAML nodes. serde_yaml's `Value` carries no positions, so the text is
//! scanned once and every key and sequence item is mapped to the line it starts on. The
//! scanner understands block mappings and sequences (including the compact `key:\n- item`
//! form), flow collections over several lines, block scalars and comments; anything it
//! does not follow falls back to the line of the nearest enclosing node.

use std::collections::HashMap;

/// One step of a path from the document root to a node.
#[derive(Debug, Clone, PartialEq, Eq, Hash)]
pub(crate) enum Seg {
    Key(String),
    Index(usize),
}

/// Path → 1-based line of every node the scanner recognised.
#[derive(Debug, Default)]
pub(crate) struct LineIndex {
    lines: HashMap<Vec<Seg>, usize>,
    first: usize,
}

impl LineIndex {
    /// Scans `text`; never fails (unrecognised constructs just get no entry).
    pub fn build(text: &str) -> Self {
        let mut s = Scanner::default();
        for (i, raw) in text.lines().enumerate() {
            s.line(i + 1, raw);
        }
        LineIndex { lines: s.lines, first: s.first.unwrap_or(1) }
    }

    /// The line of `path`, or of its nearest recorded ancestor (the first content line for the root).
    pub fn line(&self, path: &[Seg]) -> usize {
        (0..=path.len()).rev().find_map(|n| self.lines.get(&path[..n]).copied()).unwrap_or(self.first)
    }
}

/// A block collection being scanned: the column of its entries and its path.
struct Block {
    col: usize,
    path: Vec<Seg>,
    seq: bool,
    next: usize,
}

/// A flow collection (`[...]` / `{...}`) being scanned.
struct Flow {
    path: Vec<Seg>,
    seq: bool,
    idx: usize,
    expecting: bool,
    last: Option<Vec<Seg>>,
}

#[derive(Default)]
struct Scanner {
    lines: HashMap<Vec<Seg>, usize>,
    first: Option<usize>,
    blocks: Vec<Block>,
    /// A key or item whose value starts on a later line: (column, path).
    pending: Option<(usize, Vec<Seg>)>,
    /// Inside a block scalar of a node at this column: skip deeper lines.
    block_scalar: Option<usize>,
    flows: Vec<Flow>,
    /// A quoted scalar continues on the next line.
    open_quote: Option<char>,
}

impl Scanner {
    fn record(&mut self, path: Vec<Seg>, line: usize) {
        self.lines.entry(path).or_insert(line);
    }

    fn line(&mut self, no: usize, raw: &str) {
        let indent = raw.len() - raw.trim_start_matches(' ').len();
        if let Some(col) = self.block_scalar {
            if raw.trim().is_empty() || indent > col {
                return;
            }
            self.block_scalar = None;
        }
        if let Some(q) = self.open_quote {
            match find_quote_end(raw, q) {
                Some(_) => self.open_quote = None,
                None => return,
            }
            return;
        }
        if !self.flows.is_empty() {
            self.flow(no, raw);
            return;
        }
        let text = strip_comment(raw);
        let content = text.trim_start_matches(' ');
        if content.trim().is_empty()
            || content.starts_with("---")
            || content.starts_with("...")
            || content.starts_with('%')
        {
            return;
        }
        self.first.get_or_insert(no);
        self.entry(no, indent, content.trim_end());
    }

    /// One block entry starting at column `col` (a `- item`, a `key: value` or a scalar).
    fn entry(&mut self, no: usize, mut col: usize, mut s: &str) {
        loop {
            if s == "-" || s.starts_with("- ") {
                while self.blocks.last().is_some_and(|b| b.col > col) {
                    self.blocks.pop();
                }
                let continues = self.blocks.last().is_some_and(|b| b.seq && b.col == col);
                if !continues {
                    let path = self.take_pending(col, true);
                    self.blocks.push(Block { col, path, seq: true, next: 0 });
                }
                let Some(top) = self.blocks.last_mut() else { return };
                let mut path = top.path.clone();
                path.push(Seg::Index(top.next));
                top.next += 1;
                self.record(path.clone(), no);
                let rest = &s[1..];
                let trimmed = rest.trim_start_matches(' ');
                self.pending = Some((col, path));
                if trimmed.is_empty() {
                    return;
                }
                if trimmed.starts_with('|') || trimmed.starts_with('>') {
                    self.block_scalar = Some(col);
                    return;
                }
                col += 1 + rest.len() - trimmed.len();
                s = trimmed;
                continue;
            }
            if s.starts_with('[') || s.starts_with('{') {
                let path = self.take_pending(col, false);
                self.start_flow(no, path, s);
                return;
            }
            if let Some((key, rest)) = split_key(s) {
                while self.blocks.last().is_some_and(|b| b.col > col || (b.col == col && b.seq)) {
                    self.blocks.pop();
                }
                let same = self.blocks.last().is_some_and(|b| b.col == col && !b.seq);
                if !same {
                    let path = self.take_pending(col, false);
                    self.blocks.push(Block { col, path, seq: false, next: 0 });
                }
                let Some(top) = self.blocks.last() else { return };
                let mut path = top.path.clone();
                path.push(Seg::Key(key));
                self.record(path.clone(), no);
                self.pending = None;
                self.value(no, col, path, rest.trim());
                return;
            }
            // A plain or quoted scalar on its own line.
            self.pending = None;
            self.check_open_quote(s);
            return;
        }
    }

    /// The path a new collection at `col` belongs to: the pending key or item above it.
    fn take_pending(&mut self, col: usize, seq: bool) -> Vec<Seg> {
        match self.pending.take() {
            Some((pcol, path)) if pcol < col || (seq && pcol == col) => path,
            _ => self.blocks.last().map(|b| b.path.clone()).unwrap_or_default(),
        }
    }

    /// What follows `key:` on the same line.
    fn value(&mut self, no: usize, col: usize, path: Vec<Seg>, rest: &str) {
        let rest = skip_properties(rest);
        if rest.is_empty() {
            self.pending = Some((col, path));
        } else if rest.starts_with('|') || rest.starts_with('>') {
            self.block_scalar = Some(col);
        } else if rest.starts_with('[') || rest.starts_with('{') {
            self.start_flow(no, path, rest);
        } else {
            self.check_open_quote(rest);
        }
    }

    fn check_open_quote(&mut self, s: &str) {
        if let Some(q) = s.chars().next().filter(|c| *c == '"' || *c == '\'') {
            if find_quote_end(&s[1..], q).is_none() {
                self.open_quote = Some(q);
            }
        }
    }

    fn start_flow(&mut self, no: usize, path: Vec<Seg>, s: &str) {
        self.flows.push(Flow { path, seq: s.starts_with('['), idx: 0, expecting: true, last: None });
        self.flow(no, &s[1..]);
    }

    /// Feeds flow-collection text; records every element and key it starts.
    fn flow(&mut self, no: usize, s: &str) {
        let chars: Vec<char> = s.chars().collect();
        let mut i = 0;
        while i < chars.len() {
            let c = chars[i];
            if self.flows.is_empty() {
                return;
            }
            if let Some(q) = self.open_quote {
                let rest: String = chars[i..].iter().collect();
                match find_quote_end(&rest, q) {
                    Some(end) => {
                        self.open_quote = None;
                        i += rest[..end].chars().count() + 1;
                        continue;
                    }
                    None => return,
                }
            }
            match c {
                ' ' | '\t' => {}
                '#' if i == 0 || chars[i - 1] == ' ' => return,
                '[' | '{' => {
                    let path = self.flow_element(no);
                    self.flows.push(Flow { path, seq: c == '[', idx: 0, expecting: true, last: None });
                }
                ']' | '}' => {
                    self.flows.pop();
                }
                ',' => {
                    if let Some(f) = self.flows.last_mut() {
                        if f.seq {
                            f.idx += 1;
                        }
                        f.expecting = true;
                        f.last = None;
                    }
                }
                ':' => {}
                _ => {
                    let is_map_key = self.flows.last().is_some_and(|f| !f.seq && f.expecting);
                    if is_map_key {
                        let start = i;
                        while i < chars.len()
                            && !matches!(chars[i], ',' | '}' | ']')
                            && !(chars[i] == ':' && chars.get(i + 1).is_none_or(|n| matches!(n, ' ' | ',' | '}' | ']')))
                        {
                            i += 1;
                        }
                        let key: String = chars[start..i].iter().collect();
                        let key = key.trim().trim_matches(|q| q == '"' || q == '\'').to_string();
                        if let Some(f) = self.flows.last_mut() {
                            let mut path = f.path.clone();
                            path.push(Seg::Key(key));
                            f.expecting = false;
                            f.last = Some(path.clone());
                            self.record(path, no);
                        }
                        continue;
                    }
                    self.flow_element(no);
                    if c == '"' || c == '\'' {
                        self.open_quote = Some(c);
                    }
                }
            }
            i += 1;
        }
    }

    /// Marks the start of an element in the innermost flow collection; returns its path.
    fn flow_element(&mut self, no: usize) -> Vec<Seg> {
        let Some(f) = self.flows.last_mut() else { return Vec::new() };
        let path = if f.seq {
            let mut p = f.path.clone();
            p.push(Seg::Index(f.idx));
            p
        } else {
            f.last.clone().unwrap_or_else(|| f.path.clone())
        };
        let first = f.expecting;
        f.expecting = false;
        if first && f.seq {
            self.record(path.clone(), no);
        }
        path
    }
}

/// Splits `key: rest` (plain or quoted key); `None` when `s` is not a mapping entry.
fn split_key(s: &str) -> Option<(String, &str)> {
    if s.starts_with('?') || s.starts_with('[') || s.starts_with('{') {
        return None;
    }
    if let Some(q) = s.chars().next().filter(|c| *c == '"' || *c == '\'') {
        let end = find_quote_end(&s[1..], q)? + 1;
        let after = s[end + 1..].trim_start();
        let rest = after.strip_prefix(':')?;
        if !rest.is_empty() && !rest.starts_with(' ') {
            return None;
        }
        return Some((s[1..end].to_string(), rest));
    }
    let bytes = s.as_bytes();
    for (i, b) in bytes.iter().enumerate() {
        if *b == b':' && (i + 1 == bytes.len() || bytes[i + 1] == b' ' || bytes[i + 1] == b'\t') {
            let key = s[..i].trim_end();
            return (!key.is_empty()).then(|| (key.to_string(), &s[i + 1..]));
        }
    }
    None
}

/// Skips an anchor (`&a`) or tag (`!t`) before a value.
fn skip_properties(mut s: &str) -> &str {
    while s.starts_with('&') || s.starts_with('!') {
        s = s.find(' ').map(|i| s[i..].trim_start()).unwrap_or("");
    }
    s
}

/// Byte index of the closing quote `q` in `s` (which starts after the opening quote).
fn find_quote_end(s: &str, q: char) -> Option<usize> {
    let mut escaped = false;
    let mut iter = s.char_indices().peekable();
    while let Some((i, c)) = iter.next() {
        if q == '"' {
            if escaped {
                escaped = false;
            } else if c == '\\' {
                escaped = true;
            } else if c == '"' {
                return Some(i);
            }
        } else if c == '\'' {
            if iter.peek().is_some_and(|(_, n)| *n == '\'') {
                iter.next();
            } else {
                return Some(i);
            }
        }
    }
    None
}

/// Removes a trailing comment (`#` at the start or after a space, outside quotes).
fn strip_comment(line: &str) -> &str {
    let mut quote: Option<char> = None;
    let mut prev = ' ';
    let mut token_start = true;
    let mut iter = line.char_indices().peekable();
    while let Some((i, c)) = iter.next() {
        match quote {
            Some('"') if c == '\\' => {
                iter.next();
            }
            Some(q) if c == q => {
                if q == '\'' && iter.peek().is_some_and(|(_, n)| *n == '\'') {
                    iter.next();
                } else {
                    quote = None;
                }
            }
            Some(_) => {}
            None => {
                if c == '#' && prev.is_whitespace() {
                    return &line[..i];
                }
                if (c == '"' || c == '\'') && token_start {
                    quote = Some(c);
                }
                token_start = matches!(c, ' ' | '\t' | ':' | '-' | '[' | '{' | ',');
            }
        }
        prev = c;
    }
    line
}

#[cfg(test)]
mod tests {
    use super::*;

    fn k(s: &str) -> Seg {
        Seg::Key(s.into())
    }

    #[test]
    fn block_and_compact_sequences() {
        let text = "a: 1 # c\n\nb:\n  c:\n  - name: x\n    v: [1,\n      2]\n  - name: y\n  d: |\n    e: no\n  f: 2\n";
        let ix = LineIndex::build(text);
        assert_eq!(ix.line(&[k("a")]), 1);
        assert_eq!(ix.line(&[k("b"), k("c"), Seg::Index(0)]), 5);
        assert_eq!(ix.line(&[k("b"), k("c"), Seg::Index(0), k("v"), Seg::Index(1)]), 7);
        assert_eq!(ix.line(&[k("b"), k("c"), Seg::Index(1), k("name")]), 8);
        assert_eq!(ix.line(&[k("b"), k("d")]), 9);
        assert_eq!(ix.line(&[k("b"), k("f")]), 11);
        assert_eq!(ix.line(&[k("b"), k("e")]), 3);
    }

    #[test]
    fn nested_items_and_flow_maps() {
        let text = "p:\n  - - 1\n    - 2\n  - {x: 1,\n     y: 2}\nq: \"a: #b\"\nr: 3\n";
        let ix = LineIndex::build(text);
        assert_eq!(ix.line(&[k("p"), Seg::Index(0), Seg::Index(1)]), 3);
        assert_eq!(ix.line(&[k("p"), Seg::Index(1), k("y")]), 5);
        assert_eq!(ix.line(&[k("r")]), 7);
    }
}
