//! `<m2n:*>` and `<coupling-scheme:*>`: who connects, and how windows, exchanges and convergence are declared.

use super::AccelerationDecl;
use crate::diagnostics::Location;

/// The transport of an `<m2n:*>`; the native engine speaks sockets only (coupling-semantics.md §10).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum M2nKind {
    /// `m2n:sockets`: TCP, with rendezvous files in the exchange directory.
    Sockets,
    /// `m2n:mpi` (refused by the native engine).
    Mpi,
    /// `m2n:mpi-multiple-ports` (refused by the native engine).
    MpiMultiplePorts,
}

/// `<m2n:sockets acceptor connector ...>` (coupling-semantics.md §8.1). Note the role inversion of
/// §8.2 there: the *connector* listens and publishes the rendezvous file.
#[derive(Debug, Clone)]
pub struct M2nDecl {
    /// The transport.
    pub kind: M2nKind,
    /// The participant that reads the rendezvous file and connects.
    pub acceptor: String,
    /// The participant that listens and publishes the rendezvous file.
    pub connector: String,
    /// 0 = ephemeral.
    pub port: u16,
    /// Interface name; default "lo".
    pub network: String,
    /// Default ".".
    pub exchange_directory: String,
    /// `enforce-gather-scatter`: route all data through the primary ranks (parallel runs only).
    pub enforce_gather_scatter: bool,
    /// `use-two-level-initialization` (parallel runs only; a warning for serial ones).
    pub use_two_level_initialization: bool,
    /// The tag.
    pub loc: Location,
}

impl M2nDecl {
    /// Whether it joins `a` and `b`, in either role.
    pub fn connects(&self, a: &str, b: &str) -> bool {
        (self.acceptor == a && self.connector == b) || (self.acceptor == b && self.connector == a)
    }
}

/// The `<coupling-scheme:*>` tag suffix: order (serial or parallel) and iteration (explicit or implicit).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum SchemeKind {
    /// First then second, once per window.
    SerialExplicit,
    /// Both at once, once per window.
    ParallelExplicit,
    /// First then second, windows repeated until converged.
    SerialImplicit,
    /// Both at once, windows repeated until converged.
    ParallelImplicit,
    /// Several participants in one implicit scheme, one of them the controller.
    Multi,
}

impl SchemeKind {
    /// True when the second participant runs after the first in each window (what
    /// `read_data_time: WINDOW_END` needs, coupling-semantics.md §6.3).
    pub fn is_serial(self) -> bool {
        matches!(self, SchemeKind::SerialExplicit | SchemeKind::SerialImplicit)
    }
    /// True when windows can be repeated, so participants must checkpoint.
    pub fn is_implicit(self) -> bool {
        matches!(self, SchemeKind::SerialImplicit | SchemeKind::ParallelImplicit | SchemeKind::Multi)
    }
    /// The tag suffix, for messages.
    pub fn tag(self) -> &'static str {
        match self {
            SchemeKind::SerialExplicit => "serial-explicit",
            SchemeKind::ParallelExplicit => "parallel-explicit",
            SchemeKind::SerialImplicit => "serial-implicit",
            SchemeKind::ParallelImplicit => "parallel-implicit",
            SchemeKind::Multi => "multi",
        }
    }
}

/// `<time-window-size value method>`: how long a coupling window is (coupling-semantics.md §3.4).
#[derive(Debug, Clone, Copy, PartialEq)]
pub enum TimeWindowSize {
    /// `method="fixed"` (default) with its `value`.
    Fixed(f64),
    /// `method="first-participant"`: the first participant's step sizes define the windows.
    FirstParticipant,
}

/// `<exchange data mesh from to initialize substeps>`.
#[derive(Debug, Clone)]
pub struct ExchangeDecl {
    /// The datum sent.
    pub data: String,
    /// The mesh it is sent on (provided by one side, received by the other).
    pub mesh: String,
    /// The sending participant.
    pub from: String,
    /// The receiving participant.
    pub to: String,
    /// `initialize`: the sender writes initial data, sent in `initialize` (coupling-semantics.md §5.4).
    pub initialize: bool,
    /// Resolved default: false for explicit schemes, true for implicit and multi.
    pub substeps: bool,
    /// The tag.
    pub loc: Location,
}

/// The `<KIND-convergence-measure>` tag prefix: what is compared with the limit.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum ConvergenceMeasureKind {
    /// `absolute`: the residual norm against `limit`.
    Absolute,
    /// `relative`: the residual norm relative to the values' norm against `limit`.
    Relative,
    /// `residual-relative`: the residual norm relative to the window's first residual.
    ResidualRelative,
    /// `absolute-or-relative`: converged when either `abs-limit` or `rel-limit` is met.
    AbsoluteOrRelative,
}

impl ConvergenceMeasureKind {
    /// The kind a tag prefix names (`residual-relative`, ...), `None` for one preCICE does not have.
    pub fn from_tag(tag: &str) -> Option<Self> {
        Some(match tag {
            "absolute" => ConvergenceMeasureKind::Absolute,
            "relative" => ConvergenceMeasureKind::Relative,
            "residual-relative" => ConvergenceMeasureKind::ResidualRelative,
            "absolute-or-relative" => ConvergenceMeasureKind::AbsoluteOrRelative,
            _ => return None,
        })
    }

    /// The XML spelling, for messages.
    pub fn tag(self) -> &'static str {
        match self {
            ConvergenceMeasureKind::Absolute => "absolute",
            ConvergenceMeasureKind::Relative => "relative",
            ConvergenceMeasureKind::ResidualRelative => "residual-relative",
            ConvergenceMeasureKind::AbsoluteOrRelative => "absolute-or-relative",
        }
    }
}

impl std::fmt::Display for ConvergenceMeasureKind {
    /// The XML spelling, as messages name the tag (`<relative-convergence-measure>`).
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str(self.tag())
    }
}

/// `<*-convergence-measure>` of an implicit scheme (coupling-semantics.md §11.3).
#[derive(Debug, Clone)]
pub struct ConvergenceMeasureDecl {
    /// absolute, relative, residual-relative, absolute-or-relative.
    pub kind: ConvergenceMeasureKind,
    /// The datum measured.
    pub data: String,
    /// The mesh it is measured on.
    pub mesh: String,
    /// `limit` of the single-limit measures.
    pub limit: Option<f64>,
    /// `abs-limit` of `absolute-or-relative`.
    pub abs_limit: Option<f64>,
    /// `rel-limit` of `absolute-or-relative`.
    pub rel_limit: Option<f64>,
    /// `strict`: still unconverged at `max-iterations` is an error instead of forced convergence
    /// (coupling-semantics.md §11.2).
    pub strict: bool,
    /// `suffices`: this measure alone converging accepts the window (unless a strict one is unconverged).
    pub suffices: bool,
    /// The tag.
    pub loc: Location,
}

/// One `<coupling-scheme:*>`.
#[derive(Debug, Clone)]
pub struct CouplingSchemeDecl {
    /// The tag suffix.
    pub kind: SchemeKind,
    /// Bi-schemes: `<participants first second>`; empty for multi.
    pub first: String,
    /// Bi-schemes: the participant that runs second in serial schemes; empty for multi.
    pub second: String,
    /// Multi: `(name, control)` of each `<participant>`.
    pub multi_participants: Vec<(String, bool)>,
    /// `<max-time value>`: the coupling ends at this time.
    pub max_time: Option<f64>,
    /// `<max-time-windows value>`: the coupling ends after this many windows.
    pub max_time_windows: Option<u64>,
    /// `<time-window-size>`.
    pub time_window_size: TimeWindowSize,
    /// The `<exchange>`s, in document order.
    pub exchanges: Vec<ExchangeDecl>,
    /// Implicit schemes: `<min-iterations value>`.
    pub min_iterations: Option<u32>,
    /// Implicit schemes: `<max-iterations value>`.
    pub max_iterations: Option<u32>,
    /// Implicit schemes: the `<*-convergence-measure>`s that decide when a window has converged.
    pub convergence_measures: Vec<ConvergenceMeasureDecl>,
    /// Implicit schemes: the `<acceleration:*>`, at most one.
    pub acceleration: Option<AccelerationDecl>,
    /// The tag.
    pub loc: Location,
}

impl CouplingSchemeDecl {
    /// The participants taking part, in declaration order.
    pub fn participant_names(&self) -> Vec<&str> {
        if self.kind == SchemeKind::Multi {
            self.multi_participants.iter().map(|(n, _)| n.as_str()).collect()
        } else {
            vec![self.first.as_str(), self.second.as_str()]
        }
    }
    /// Whether `participant` takes part in it.
    pub fn involves(&self, participant: &str) -> bool {
        self.participant_names().contains(&participant)
    }
}
