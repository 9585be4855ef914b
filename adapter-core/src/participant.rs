//! The one participant entry point: a [`Participant`] says how its adapter is built from its
//! participant file and the preCICE XML; [`build`], [`run`] and [`check`] do the rest the same way
//! for every participant, and `cli::main` puts them behind one command line.
//!
//! Building reads and validates every file the participant needs (model, solver and
//! hydrodynamic files) without opening the coupling, so `--check` (and through it
//! `tidelink check`) finds every error a run would stop on, with file and line.

use crate::adapter::Adapter;
use crate::capabilities::Capabilities;
use crate::config::PreciceConfig;
use crate::coupling::{native, Backend};
use crate::diagnostics::{Diagnostic, Diagnostics, Location, Severity};
use crate::driver::{self, CoupleError, Progress, RunSummary};
use crate::spec::{self, ParticipantFile};
use std::error::Error as StdError;
use std::fmt;
use std::path::Path;

/// Any error a participant's own build step reports (its files, its solver's set-up); the
/// chain of sources is kept so that every cause is printed.
pub type BuildError = Box<dyn StdError + Send + Sync + 'static>;

/// A failed build as a participant reports it: the file-and-line findings found in its error
/// chain (kept as such for `--check`) and the whole chain as text (for a run's message).
#[derive(Debug)]
pub struct BuildFailure {
    /// The [`Diagnostics`] anywhere in the chain, in order.
    pub diagnostics: Diagnostics,
    /// Every cause, `outer: cause: root cause`.
    pub message: String,
}

impl BuildFailure {
    /// From an error chain (e.g. anyhow's `Error::chain()`) and its text.
    pub fn new<'a>(chain: impl IntoIterator<Item = &'a (dyn StdError + 'static)>, message: String) -> Self {
        let mut diagnostics = Diagnostics::default();
        for e in chain {
            if let Some(d) = e.downcast_ref::<Diagnostics>() {
                diagnostics.extend(d.clone());
            }
        }
        BuildFailure { diagnostics, message }
    }
}

impl fmt::Display for BuildFailure {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(&self.message)
    }
}

impl StdError for BuildFailure {}

/// A participant program: how its adapter is built from the files.
pub trait Participant {
    /// The adapter the driver runs.
    type Adapter: Adapter;

    /// The participant files' `type` values this program reads (e.g. `["MBS"]`); a file of
    /// another type is refused at its `type` line, so swapped manifest commands are caught.
    /// Empty: no check.
    const TYPES: &'static [&'static str] = &[];

    /// What the program can do (meshes, data, checkpoints, what it refuses): printed by
    /// `--capabilities` and compared with docs/design/participants.md by a test.
    const CAPABILITIES: Capabilities;

    /// Builds the adapter from the participant file and the XML (both already read and
    /// cross-checked): reads the participant's own files, returns the adapter ready to couple,
    /// its warnings, and the facts other participants' files are checked against.
    fn build(file: &ParticipantFile, config: &PreciceConfig) -> Result<Built<Self::Adapter>, BuildError>;
}

/// What a participant's build produced.
pub struct Built<A> {
    /// The adapter, ready to couple.
    pub adapter: A,
    /// Warnings about its files (errors stop the build instead).
    pub warnings: Diagnostics,
    /// Settings that must agree across participants, for `tidelink check`'s cross-file rules.
    pub facts: Vec<Fact>,
}

impl<A> Built<A> {
    /// An adapter with no warnings and no facts.
    pub fn new(adapter: A) -> Self {
        Built { adapter, warnings: Diagnostics::default(), facts: Vec::new() }
    }
}

/// A setting of one participant that another participant's must agree with (e.g. whether the
/// hydrodynamic body-to-body terms are used), with where it was set.
#[derive(Debug, Clone, PartialEq, serde::Serialize, serde::Deserialize)]
pub struct Fact {
    /// What it is, e.g. [`BODY_TO_BODY`].
    pub name: String,
    /// Its value, as text (`true`, `false`, a list joined by commas, ...).
    pub value: String,
    /// The file that set it (or the default), and the line.
    pub file: String,
    /// 1-based line; 0 when unknown.
    pub line: usize,
}

/// Whether the hydrodynamic body-to-body (off-diagonal) terms are used: the Solid's
/// `added_mass.body_to_body` and the TDPF model's `body_to_body` must agree.
pub const BODY_TO_BODY: &str = "body_to_body";

impl Fact {
    /// A fact set at `loc`.
    pub fn new(name: &str, value: impl ToString, loc: &Location) -> Self {
        Fact { name: name.to_string(), value: value.to_string(), file: loc.file.display().to_string(), line: loc.line }
    }
    /// Where it was set.
    pub fn location(&self) -> Location {
        Location::new(&self.file, self.line)
    }
}

/// Why a participant did not run: its files, its build, or the coupled run.
#[derive(Debug)]
pub enum ParticipantError {
    /// The participant file or the XML (or their cross-check) has errors.
    Files(Diagnostics),
    /// The participant's own build failed (model, solver or data files; solver set-up).
    Build(BuildError),
    /// The coupling could not be opened or the run failed.
    Couple(CoupleError),
}

impl fmt::Display for ParticipantError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            ParticipantError::Files(d) => d.fmt(f),
            ParticipantError::Build(e) => e.fmt(f),
            ParticipantError::Couple(e) => e.fmt(f),
        }
    }
}

impl StdError for ParticipantError {
    fn source(&self) -> Option<&(dyn StdError + 'static)> {
        match self {
            ParticipantError::Files(_) => None,
            ParticipantError::Build(e) => e.source(),
            ParticipantError::Couple(e) => e.source(),
        }
    }
}

/// Reads the participant file and the XML, cross-checks them and builds the adapter; warnings
/// are returned, not logged.
pub fn build<P: Participant>(
    participant_file: &Path,
    precice_config: &Path,
) -> Result<(Built<P::Adapter>, ParticipantFile), ParticipantError> {
    let (file, cfg, mut warnings) =
        spec::load_checked(participant_file, precice_config).map_err(ParticipantError::Files)?;
    refuse_other_types::<P>(&file)?;
    let mut built = P::build(&file, &cfg).map_err(ParticipantError::Build)?;
    assert_eq!(
        built.adapter.can_checkpoint(),
        P::CAPABILITIES.checkpoints,
        "{}: the adapter's can_checkpoint disagrees with the declared capabilities",
        P::CAPABILITIES.program
    );
    refuse_implicit_without_checkpoints(&built.adapter, &file, &cfg)?;
    warnings.extend(std::mem::take(&mut built.warnings));
    built.warnings = warnings;
    Ok((built, file))
}

/// As [`build`], logging the warnings; the adapter and the participant file.
pub fn build_logged<P: Participant>(
    participant_file: &Path,
    precice_config: &Path,
) -> Result<(P::Adapter, ParticipantFile), ParticipantError> {
    let (built, file) = build::<P>(participant_file, precice_config)?;
    crate::launcher::log_warnings(&built.warnings);
    Ok((built.adapter, file))
}

/// A participant file of another `type` than the program reads (a manifest whose commands
/// are swapped between participants, say) is refused at its `type` line, naming both.
fn refuse_other_types<P: Participant>(file: &ParticipantFile) -> Result<(), ParticipantError> {
    let Some(t) = &file.participant_type else { return Ok(()) };
    if P::TYPES.is_empty() || P::TYPES.iter().any(|ok| ok.eq_ignore_ascii_case(t)) {
        return Ok(());
    }
    let program =
        std::env::args().next().and_then(|a| Path::new(&a).file_name().map(|n| n.to_string_lossy().into_owned()));
    let mut d = Diagnostics::default();
    d.error(
        file.participant_type_loc.clone(),
        format!(
            "this is a `type: {t}` participant file, but {} reads `type: {}` files: start participant `{}` with the \
             program for {t} (check the `command` of its entry in tidelink.yaml)",
            program.map_or_else(|| "this program".to_string(), |p| format!("`{p}`")),
            P::TYPES.join("` or `type: "),
            file.adapter.participant_name
        ),
    );
    Err(ParticipantError::Files(d))
}

/// An implicit scheme repeats windows, which needs the adapter's checkpoints: refused at the
/// scheme's line when the adapter has none, before any connection is made.
fn refuse_implicit_without_checkpoints(
    adapter: &dyn Adapter,
    file: &ParticipantFile,
    cfg: &PreciceConfig,
) -> Result<(), ParticipantError> {
    let name = &file.adapter.participant_name;
    let Some(s) = cfg.schemes_of(name).find(|s| s.kind.is_implicit()).filter(|_| !adapter.can_checkpoint()) else {
        return Ok(());
    };
    let mut d = Diagnostics::default();
    d.error(
        s.loc.clone(),
        format!(
            "<coupling-scheme:{}> is implicit, but participant `{name}` cannot save and restore its state, which \
             repeating a window needs; use a serial-explicit or parallel-explicit scheme",
            s.kind.tag()
        ),
    );
    Err(ParticipantError::Files(d))
}

/// Builds the participant, logs its warnings, opens the coupling on `backend` and runs the
/// driver to the end; returns the summary and the adapter (for its output paths).
pub fn run<P: Participant>(
    participant_file: &Path,
    precice_config: &Path,
    backend: Backend,
    progress: &mut dyn Progress,
) -> Result<(RunSummary, P::Adapter), ParticipantError> {
    let (built, file) = build::<P>(participant_file, precice_config)?;
    crate::launcher::log_warnings(&built.warnings);
    if backend == Backend::Native {
        refuse_what_the_engine_refuses(precice_config, &file.adapter.participant_name)?;
    }
    let mut adapter = built.adapter;
    let (name, read_time) = (&file.adapter.participant_name, file.adapter.read_data_time);
    let summary = driver::couple(&mut adapter, name, precice_config, backend, read_time, progress)
        .map_err(ParticipantError::Couple)?;
    Ok((summary, adapter))
}

/// What the native engine refuses for participant `name` (`native::check`, which `--check`
/// reports), refused before the coupling opens with the same findings, file and line.
fn refuse_what_the_engine_refuses(precice_config: &Path, name: &str) -> Result<(), ParticipantError> {
    let Ok((cfg, _)) = crate::config::load(precice_config) else { return Ok(()) };
    let found = native::check(&cfg, name);
    if found.has_errors() {
        return Err(ParticipantError::Files(found));
    }
    Ok(())
}

/// What `--check` found: every diagnostic with file and line, and the facts.
#[derive(Debug, Clone, Default)]
pub struct CheckReport {
    /// Errors and warnings, in the order found.
    pub diagnostics: Diagnostics,
    /// The participant's facts (empty when the build failed).
    pub facts: Vec<Fact>,
}

/// Builds the participant without running it and reports what a run on `backend` would stop
/// on: its files, and on the native backend also what the engine refuses in the XML for this
/// participant, as `coupling::native::check`.
pub fn check<P: Participant>(participant_file: &Path, precice_config: &Path, backend: Backend) -> CheckReport {
    let mut report = match build::<P>(participant_file, precice_config) {
        Ok((built, _)) => CheckReport { diagnostics: built.warnings, facts: built.facts },
        Err(ParticipantError::Files(d)) => return CheckReport { diagnostics: d, facts: Vec::new() },
        Err(ParticipantError::Build(e)) => {
            CheckReport { diagnostics: error_diagnostics(e.as_ref(), participant_file), facts: Vec::new() }
        }
        Err(e) => CheckReport { diagnostics: error_diagnostics(&e, participant_file), facts: Vec::new() },
    };
    if backend == Backend::Native {
        if let Ok((file, cfg, _)) = spec::load_checked(participant_file, precice_config) {
            for d in native::check(&cfg, &file.adapter.participant_name).0 {
                if !report.diagnostics.0.contains(&d) {
                    report.diagnostics.push(d);
                }
            }
        }
    }
    report
}

/// What a participant that did not start reports, as `--check` reports it: the findings of its
/// files or its build, each with file and line; `None` for an error of the coupled run.
pub fn findings(e: &ParticipantError, participant_file: &Path) -> Option<Diagnostics> {
    match e {
        ParticipantError::Files(d) => Some(d.clone()),
        ParticipantError::Build(b) => Some(error_diagnostics(b.as_ref(), participant_file)),
        ParticipantError::Couple(_) => None,
    }
}

/// The diagnostics inside an error's chain, or one error at `file` with the whole chain.
fn error_diagnostics(e: &(dyn StdError + 'static), file: &Path) -> Diagnostics {
    let mut found = Diagnostics::default();
    let mut cur: Option<&(dyn StdError + 'static)> = Some(e);
    while let Some(err) = cur {
        if let Some(d) = err.downcast_ref::<Diagnostics>() {
            found.extend(d.clone());
        } else if let Some(b) = err.downcast_ref::<BuildFailure>() {
            found.extend(b.diagnostics.clone());
        }
        cur = err.source();
    }
    if found.has_errors() {
        return found;
    }
    let text = chain(e);
    found.push(match located(&text) {
        Some((location, message)) => Diagnostic::error(location, message),
        None => Diagnostic::error(Location::new(file, 0), text),
    });
    found
}

/// A message that starts with `file:line: ` (as the participants' own errors do), split there.
fn located(text: &str) -> Option<(Location, String)> {
    let (head, rest) = text.split_once(": ")?;
    let (path, line) = head.rsplit_once(':')?;
    let line: usize = line.parse().ok()?;
    (!path.is_empty() && !path.contains(' ')).then(|| (Location::new(path, line), rest.to_string()))
}

/// `outer: cause: root cause`, as anyhow prints an error chain with `{:#}`.
pub fn chain(e: &dyn StdError) -> String {
    let mut text = e.to_string();
    let mut cur = e.source();
    while let Some(s) = cur {
        let next = s.to_string();
        if !text.ends_with(&next) {
            text.push_str(": ");
            text.push_str(&next);
        }
        cur = s.source();
    }
    text
}

/// The prefix of a check line on a participant's standard output (`--check=lines`).
pub const CHECK_PREFIX: &str = "@check ";
/// The prefix of a fact line on a participant's standard output (`--check=lines`).
pub const FACT_PREFIX: &str = "@fact ";

/// One diagnostic as it travels from a participant's `--check=lines` to `tidelink check`.
#[derive(Debug, Clone, PartialEq, serde::Serialize, serde::Deserialize)]
pub struct CheckLine {
    /// `error` or `warning`.
    pub severity: String,
    /// The file it is about.
    pub file: String,
    /// 1-based line; 0 when unknown.
    pub line: usize,
    /// What is wrong and how to fix it.
    pub message: String,
}

impl CheckReport {
    /// The report as `@check` and `@fact` lines (one JSON object each), for `tidelink check`.
    pub fn to_lines(&self) -> Vec<String> {
        let mut out = Vec::new();
        for d in &self.diagnostics.0 {
            let line = CheckLine {
                severity: if d.is_error() { "error" } else { "warning" }.to_string(),
                file: d.location.file.display().to_string(),
                line: d.location.line,
                message: d.message.clone(),
            };
            out.push(format!("{CHECK_PREFIX}{}", serde_json::to_string(&line).unwrap_or_default()));
        }
        for f in &self.facts {
            out.push(format!("{FACT_PREFIX}{}", serde_json::to_string(f).unwrap_or_default()));
        }
        out
    }

    /// Reads the `@check` and `@fact` lines of a participant's output; other lines are ignored.
    pub fn from_lines(text: &str) -> CheckReport {
        let mut report = CheckReport::default();
        for line in text.lines() {
            if let Some(json) = line.strip_prefix(CHECK_PREFIX) {
                if let Ok(c) = serde_json::from_str::<CheckLine>(json) {
                    let severity = if c.severity == "error" { Severity::Error } else { Severity::Warning };
                    let location = Location::new(c.file, c.line);
                    report.diagnostics.push(Diagnostic { severity, location, message: c.message });
                }
            } else if let Some(json) = line.strip_prefix(FACT_PREFIX) {
                if let Ok(f) = serde_json::from_str::<Fact>(json) {
                    report.facts.push(f);
                }
            }
        }
        report
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// A participant whose adapter can checkpoint or not.
    struct Probe<const CAN: bool>;
    struct ProbeAdapter(bool);

    impl Adapter for ProbeAdapter {
        fn name(&self) -> &str {
            "A"
        }
        fn initialize_participant(&mut self, _: &mut dyn crate::CouplingData) -> crate::AdapterResult<()> {
            Ok(())
        }
        fn read_data(&mut self, _: &mut dyn crate::CouplingData, _: f64, _: f64) -> crate::AdapterResult<()> {
            Ok(())
        }
        fn write_data(&mut self, _: &mut dyn crate::CouplingData) -> crate::AdapterResult<()> {
            Ok(())
        }
        fn advance(&mut self, _: f64, _: f64) -> crate::AdapterResult<()> {
            Ok(())
        }
        fn can_checkpoint(&self) -> bool {
            self.0
        }
    }

    impl<const CAN: bool> Participant for Probe<CAN> {
        type Adapter = ProbeAdapter;
        const CAPABILITIES: Capabilities = Capabilities {
            program: "probe",
            meshes: &[],
            dimensions: &[3],
            reads: &[],
            writes: &[],
            checkpoints: CAN,
            sub_steps: false,
            refuses: &[],
        };
        fn build(_: &ParticipantFile, _: &PreciceConfig) -> Result<Built<ProbeAdapter>, BuildError> {
            Ok(Built::new(ProbeAdapter(CAN)))
        }
    }

    /// The corpus' valid base case with its scheme made serial-implicit (still at line 20).
    fn implicit_xml() -> String {
        include_str!("../../coupling/config/tests/corpus/xml/valid/base.xml")
            .replace("coupling-scheme:serial-explicit", "coupling-scheme:serial-implicit")
            .replace(
                r#"<time-window-size value="0.1"/>"#,
                r#"<time-window-size value="0.1"/><max-iterations value="3"/>"#,
            )
    }

    #[test]
    fn an_implicit_scheme_is_refused_at_start_up_without_checkpoints() {
        let case = crate::testing::temp_case(&implicit_xml());
        let file = case.write("a.yaml", "precice_adapter_config:\n  participant_name: A\n");
        let report = check::<Probe<false>>(&file, &case.config, Backend::Native);
        let text = report.diagnostics.to_string();
        assert!(report.diagnostics.has_errors(), "{text}");
        assert!(
            text.contains(":20: error: <coupling-scheme:serial-implicit> is implicit, but participant `A` cannot save"),
            "{text}"
        );
        let report = check::<Probe<true>>(&file, &case.config, Backend::Native);
        assert!(!report.diagnostics.has_errors(), "{}", report.diagnostics);
    }

    #[test]
    fn check_lines_round_trip() {
        let mut diagnostics = Diagnostics::default();
        diagnostics.error(Location::new("a/model.yaml", 3), "bad\nthing: \"quoted\"");
        diagnostics.warning(Location::new("b.yaml", 0), "careful");
        let facts = vec![Fact::new(BODY_TO_BODY, true, &Location::new("m.yaml", 7))];
        let report = CheckReport { diagnostics, facts };
        let text = format!("noise\n{}\n@progress 1\n", report.to_lines().join("\n"));
        let back = CheckReport::from_lines(&text);
        assert_eq!(back.diagnostics, report.diagnostics);
        assert_eq!(back.facts, report.facts);
    }

    #[test]
    fn an_error_chain_keeps_its_diagnostics_or_prints_every_cause() {
        let mut d = Diagnostics::default();
        d.error(Location::new("m.yaml", 2), "no mass");
        let boxed: BuildError = Box::new(d.clone());
        assert_eq!(error_diagnostics(boxed.as_ref(), Path::new("p.yaml")), d);

        let failure: BuildError = Box::new(BuildFailure::new([&d as &(dyn StdError + 'static)], "wrapped".into()));
        assert_eq!(error_diagnostics(failure.as_ref(), Path::new("p.yaml")), d);

        let io: BuildError = Box::new(std::io::Error::other("disk on fire"));
        let found = error_diagnostics(io.as_ref(), Path::new("p.yaml"));
        assert_eq!(found.to_string(), "p.yaml: error: disk on fire");

        let named: BuildError = Box::new(std::io::Error::other("fluid/p.yaml:7: body `a` needs a `location`"));
        let found = error_diagnostics(named.as_ref(), Path::new("p.yaml"));
        assert_eq!(found.to_string(), "fluid/p.yaml:7: error: body `a` needs a `location`");
    }
}
