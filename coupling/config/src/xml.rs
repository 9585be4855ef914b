//! A small element tree read with quick-xml, where every tag and attribute keeps the line
//! it was written on, so that later checks can point at the exact place in the file.

use crate::diagnostics::{Diagnostic, Location};
use quick_xml::events::{BytesStart, Event};
use quick_xml::Reader;
use std::path::Path;

/// One attribute as written, with the line of its name.
#[derive(Debug, Clone)]
pub(crate) struct Attr {
    pub name: String,
    pub value: String,
    pub line: usize,
}

/// One XML element with its attributes and child elements (text and comments are dropped).
#[derive(Debug, Clone)]
pub(crate) struct Element {
    pub name: String,
    pub line: usize,
    pub attrs: Vec<Attr>,
    pub children: Vec<Element>,
}

impl Element {
    /// The attribute called `name`, if present.
    pub fn attr(&self, name: &str) -> Option<&Attr> {
        self.attrs.iter().find(|a| a.name == name)
    }
}

/// Maps byte offsets of the source text to 1-based line numbers.
struct Lines<'t> {
    text: &'t str,
    starts: Vec<usize>,
}

impl<'t> Lines<'t> {
    fn new(text: &'t str) -> Self {
        let mut starts = vec![0];
        starts.extend(text.bytes().enumerate().filter(|(_, b)| *b == b'\n').map(|(i, _)| i + 1));
        Lines { text, starts }
    }

    fn line_at(&self, offset: usize) -> usize {
        self.starts.partition_point(|&s| s <= offset).max(1)
    }

    /// Offset of a slice that borrows from the source text (None if it does not).
    fn offset_of(&self, s: &[u8]) -> Option<usize> {
        let base = self.text.as_ptr() as usize;
        let p = s.as_ptr() as usize;
        (p >= base && p <= base + self.text.len()).then(|| p - base)
    }

    fn line_of_slice(&self, s: &[u8], fallback: usize) -> usize {
        self.offset_of(s).map(|o| self.line_at(o)).unwrap_or(fallback)
    }
}

fn malformed(path: &Path, line: usize, what: impl std::fmt::Display) -> Diagnostic {
    Diagnostic::error(
        Location::new(path, line),
        format!(
            "The file is not well-formed XML: {what}. Fix the syntax here (an unclosed or \
             mismatched tag, a missing quote or '>' are the usual causes)."
        ),
    )
}

/// The deepest element nesting accepted. A preCICE configuration is at most six levels deep
/// (`<precice-configuration>`, scheme, acceleration, preconditioner…); 100 leaves room for any
/// future tag while keeping every recursive walk of the tree (and its drop) far from the stack's
/// limit, which a file nested 200 000 deep would otherwise overflow.
pub(crate) const MAX_DEPTH: usize = 100;

/// Parses `text` into its root element. Malformed XML gives one error with its line.
pub(crate) fn parse_tree(text: &str, path: &Path) -> Result<Element, Diagnostic> {
    let lines = Lines::new(text);
    let body = text.strip_prefix('\u{feff}').unwrap_or(text);
    let mut reader = Reader::from_str(body);
    reader.config_mut().check_end_names = true;
    let mut stack: Vec<Element> = Vec::new();
    let mut root: Option<Element> = None;
    // Offsets reported by the reader are relative to `body`.
    let shift = text.len() - body.len();
    loop {
        let before = reader.buffer_position() as usize + shift;
        let event = match reader.read_event() {
            Ok(ev) => ev,
            Err(e) => {
                let at = reader.error_position() as usize + shift;
                return Err(malformed(path, lines.line_at(at), e));
            }
        };
        match event {
            Event::Start(e) => {
                let el = element(&e, &lines, before, path)?;
                if stack.len() >= MAX_DEPTH {
                    return Err(Diagnostic::error(
                        Location::new(path, el.line),
                        format!(
                            "<{}> is nested {} elements deep, more than the {MAX_DEPTH} levels a configuration may \
                             have (a preCICE configuration needs about six): is this the right file?",
                            el.name,
                            stack.len() + 1
                        ),
                    ));
                }
                stack.push(el);
            }
            Event::Empty(e) => {
                let el = element(&e, &lines, before, path)?;
                attach(el, &mut stack, &mut root, path)?;
            }
            Event::End(_) => match stack.pop() {
                Some(el) => attach(el, &mut stack, &mut root, path)?,
                None => return Err(malformed(path, lines.line_at(before), "closing tag without opening tag")),
            },
            Event::Eof => break,
            // Text, comments, CDATA, the declaration, processing instructions: not configuration.
            _ => {}
        }
    }
    if let Some(open) = stack.last() {
        return Err(malformed(
            path,
            open.line,
            format_args!("tag <{}> is never closed (end of file reached)", open.name),
        ));
    }
    root.ok_or_else(|| {
        Diagnostic::error(
            Location::new(path, 1),
            "The file contains no XML element. A preCICE configuration needs a \
             <precice-configuration> root tag.",
        )
    })
}

fn attach(el: Element, stack: &mut [Element], root: &mut Option<Element>, path: &Path) -> Result<(), Diagnostic> {
    if let Some(parent) = stack.last_mut() {
        parent.children.push(el);
        return Ok(());
    }
    if root.is_some() {
        return Err(malformed(
            path,
            el.line,
            format_args!("a second root element <{}> follows the first one; a file has exactly one root", el.name),
        ));
    }
    *root = Some(el);
    Ok(())
}

fn element(e: &BytesStart<'_>, lines: &Lines<'_>, before: usize, path: &Path) -> Result<Element, Diagnostic> {
    let fallback = lines.line_at(before);
    let line = lines.line_of_slice(e.name().as_ref(), fallback);
    let name = String::from_utf8_lossy(e.name().as_ref()).into_owned();
    let mut attrs = Vec::new();
    for a in e.attributes().with_checks(true) {
        let a = a.map_err(|err| malformed(path, line, format_args!("in the attributes of <{name}>: {err}")))?;
        let aline = lines.line_of_slice(a.key.as_ref(), line);
        let value = a
            .unescape_value()
            .map_err(|err| malformed(path, aline, format_args!("in the value of an attribute of <{name}>: {err}")))?
            .into_owned();
        attrs.push(Attr { name: String::from_utf8_lossy(a.key.as_ref()).into_owned(), value, line: aline });
    }
    Ok(Element { name, line, attrs, children: Vec::new() })
}
