//! File-and-line diagnostics shared by the XML and YAML readers, so every
//! configuration problem a user sees says what is wrong, where, and how to fix it.

use std::fmt;
use std::path::PathBuf;

/// How bad a finding is: errors stop a run, warnings are printed and the run goes on.
#[derive(Debug, Clone, Copy, PartialEq, Eq, PartialOrd, Ord)]
pub enum Severity {
    Warning,
    Error,
}

/// A place in a configuration file (1-based line; 0 when the line is unknown).
#[derive(Debug, Clone, PartialEq, Eq, Default)]
pub struct Location {
    pub file: PathBuf,
    pub line: usize,
}

impl Location {
    pub fn new(file: impl Into<PathBuf>, line: usize) -> Self {
        Location { file: file.into(), line }
    }
}

impl fmt::Display for Location {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        if self.line > 0 {
            write!(f, "{}:{}", self.file.display(), self.line)
        } else {
            write!(f, "{}", self.file.display())
        }
    }
}

/// One finding about a configuration file.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Diagnostic {
    pub severity: Severity,
    pub location: Location,
    pub message: String,
}

impl Diagnostic {
    pub fn error(location: Location, message: impl Into<String>) -> Self {
        Diagnostic { severity: Severity::Error, location, message: message.into() }
    }
    pub fn warning(location: Location, message: impl Into<String>) -> Self {
        Diagnostic { severity: Severity::Warning, location, message: message.into() }
    }
    pub fn is_error(&self) -> bool {
        self.severity == Severity::Error
    }
}

impl fmt::Display for Diagnostic {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        let tag = match self.severity {
            Severity::Error => "error",
            Severity::Warning => "warning",
        };
        write!(f, "{}: {}: {}", self.location, tag, self.message)
    }
}

/// A list of findings; `Display` prints one per line.
#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub struct Diagnostics(pub Vec<Diagnostic>);

impl Diagnostics {
    pub fn push(&mut self, d: Diagnostic) {
        self.0.push(d);
    }
    pub fn error(&mut self, location: Location, message: impl Into<String>) {
        self.0.push(Diagnostic::error(location, message));
    }
    pub fn warning(&mut self, location: Location, message: impl Into<String>) {
        self.0.push(Diagnostic::warning(location, message));
    }
    pub fn has_errors(&self) -> bool {
        self.0.iter().any(Diagnostic::is_error)
    }
    pub fn errors(&self) -> impl Iterator<Item = &Diagnostic> {
        self.0.iter().filter(|d| d.is_error())
    }
    pub fn warnings(&self) -> impl Iterator<Item = &Diagnostic> {
        self.0.iter().filter(|d| !d.is_error())
    }
    pub fn extend(&mut self, other: Diagnostics) {
        self.0.extend(other.0);
    }
    /// Logs the warnings through `log::warn!` (errors are returned to the caller instead).
    pub fn log_warnings(&self) {
        for w in self.warnings() {
            log::warn!("{w}");
        }
    }
}

impl fmt::Display for Diagnostics {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        for (i, d) in self.0.iter().enumerate() {
            if i > 0 {
                writeln!(f)?;
            }
            write!(f, "{d}")?;
        }
        Ok(())
    }
}

impl std::error::Error for Diagnostics {}

/// The candidate closest to `word` (Levenshtein distance below 3, as preCICE hints), if any.
pub fn nearest<'a>(word: &str, candidates: impl IntoIterator<Item = &'a str>) -> Option<&'a str> {
    candidates
        .into_iter()
        .map(|c| (strsim::levenshtein(word, c), c))
        .filter(|(d, _)| *d < 3)
        .min_by_key(|(d, _)| *d)
        .map(|(_, c)| c)
}

/// " Did you mean "x"?" or " Expected one of: a, b, c." for an unknown name.
pub fn suggestion(word: &str, candidates: &[&str]) -> String {
    match nearest(word, candidates.iter().copied()) {
        Some(n) => format!(" Did you mean \"{n}\"?"),
        None if candidates.is_empty() => String::new(),
        None => format!(" Expected one of: {}.", candidates.join(", ")),
    }
}
