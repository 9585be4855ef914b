//! File-and-line diagnostics shared by the XML and YAML readers, so every
//! configuration problem a user sees says what is wrong, where, and how to fix it.

use std::fmt;
use std::path::PathBuf;

/// How bad a finding is: errors stop a run, warnings are printed and the run goes on.
#[derive(Debug, Clone, Copy, PartialEq, Eq, PartialOrd, Ord)]
pub enum Severity {
    /// Suspicious but runnable (an ignored key, a setting the XML overrides).
    Warning,
    /// The run would fail or be wrong; loading stops after collecting all of them.
    Error,
}

/// A place in a configuration file (1-based line; 0 when the line is unknown).
#[derive(Debug, Clone, PartialEq, Eq, Default)]
pub struct Location {
    /// The file as given on the command line or resolved from another file.
    pub file: PathBuf,
    /// 1-based line; 0 when only the file is known (it cannot be read, say).
    pub line: usize,
}

impl Location {
    /// `file` at `line` (0 for the file as a whole).
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
    /// Whether it stops the run.
    pub severity: Severity,
    /// Where to look.
    pub location: Location,
    /// What is wrong and how to fix it, in one or two sentences.
    pub message: String,
}

impl Diagnostic {
    /// A finding that stops the run.
    pub fn error(location: Location, message: impl Into<String>) -> Self {
        Diagnostic { severity: Severity::Error, location, message: message.into() }
    }
    /// A finding that is printed while the run goes on.
    pub fn warning(location: Location, message: impl Into<String>) -> Self {
        Diagnostic { severity: Severity::Warning, location, message: message.into() }
    }
    /// True when it stops the run.
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
    /// Adds a finding built elsewhere.
    pub fn push(&mut self, d: Diagnostic) {
        self.0.push(d);
    }
    /// Adds an error at `location`.
    pub fn error(&mut self, location: Location, message: impl Into<String>) {
        self.0.push(Diagnostic::error(location, message));
    }
    /// Adds a warning at `location`.
    pub fn warning(&mut self, location: Location, message: impl Into<String>) {
        self.0.push(Diagnostic::warning(location, message));
    }
    /// True when any finding stops the run: the readers return `Err` then.
    pub fn has_errors(&self) -> bool {
        self.0.iter().any(Diagnostic::is_error)
    }
    /// The errors, in the order found.
    pub fn errors(&self) -> impl Iterator<Item = &Diagnostic> {
        self.0.iter().filter(|d| d.is_error())
    }
    /// The warnings, in the order found.
    pub fn warnings(&self) -> impl Iterator<Item = &Diagnostic> {
        self.0.iter().filter(|d| !d.is_error())
    }
    /// Appends the findings of another reader (the XML's after the participant file's, say).
    pub fn extend(&mut self, other: Diagnostics) {
        self.0.extend(other.0);
    }
    /// Logs the warnings through `log::warn!` (errors are returned to the caller instead), each
    /// once per process (the XML is read by the participant and again by its engine). Whoever
    /// knows that they were printed already (a participant started by `tidelink run`) does not call it.
    pub fn log_warnings(&self) {
        static LOGGED: std::sync::Mutex<Vec<String>> = std::sync::Mutex::new(Vec::new());
        let mut logged = LOGGED.lock().unwrap_or_else(|e| e.into_inner());
        for w in self.warnings() {
            let text = w.to_string();
            if !logged.contains(&text) {
                log::warn!("{text}");
                logged.push(text);
            }
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
