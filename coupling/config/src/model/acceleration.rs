//! `<acceleration:*>` of implicit schemes and its children (filter, preconditioner, IMVJ restart).

use super::DataKey;
use crate::diagnostics::Location;

/// `<acceleration:TYPE>` of an implicit scheme (kept for implicit coupling, coupling-semantics.md §11.5).
///
/// Every optional field is `None` when the XML does not give it; the defaults are resolved in
/// one place, `coupling::native::acceleration::settings`, because several depend on the kind
/// (IQN-ILS and IQN-IMVJ differ) or on whether a tag is present at all (the filter limit).
#[derive(Debug, Clone, Default)]
pub struct AccelerationDecl {
    /// constant, aitken, IQN-ILS, IQN-IMVJ.
    pub kind: AccelerationKind,
    /// The `<data name mesh>` children, in document order.
    pub data: Vec<DataKey>,
    /// `scaling` of each `<data>` child, parallel to `data` (used by the constant preconditioner).
    pub scaling: Vec<Option<f64>>,
    /// `<relaxation value>` of constant relaxation, in (0, 1].
    pub relaxation: Option<f64>,
    /// `<initial-relaxation value>` of Aitken and the quasi-Newton methods, in (0, 1].
    pub initial_relaxation: Option<f64>,
    /// `<initial-relaxation enforce>` of the quasi-Newton methods: relax in the first iteration of every window.
    pub enforce_initial_relaxation: Option<bool>,
    /// `<max-used-iterations value>` (> 0): the most quasi-Newton columns kept.
    pub max_used_iterations: Option<usize>,
    /// `<time-windows-reused value>` (≥ 0): how many past windows' columns the quasi-Newton methods keep.
    pub time_windows_reused: Option<usize>,
    /// `<filter type limit>`: how nearly linearly dependent quasi-Newton columns are removed.
    pub filter: Option<FilterDecl>,
    /// `<preconditioner type update-on-threshold freeze-after>`: the weights of the primary data blocks.
    pub preconditioner: Option<PreconditionerDecl>,
    /// `reduced-time-grid` of the quasi-Newton methods: primary residuals use only the window-end sample.
    pub reduced_time_grid: Option<bool>,
    /// `on-bound-violation` of the quasi-Newton methods (the native engine supports only `ignore`).
    pub on_bound_violation: Option<BoundViolation>,
    /// `always-build-jacobian` of IQN-IMVJ: form the inverse Jacobian explicitly in every iteration.
    pub always_build_jacobian: Option<bool>,
    /// `<imvj-restart-mode>` of IQN-IMVJ.
    pub imvj_restart: Option<ImvjRestartDecl>,
    /// The tag.
    pub loc: Location,
}

impl AccelerationDecl {
    /// An acceleration of `kind` with nothing but its location set, as the parser starts it
    /// (and as tests build one by hand).
    pub fn new(kind: AccelerationKind, loc: Location) -> Self {
        AccelerationDecl { kind, loc, ..Default::default() }
    }
}

/// The `<acceleration:TYPE>` tag suffix: which method rewrites the iterates of an implicit window.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default)]
pub enum AccelerationKind {
    /// `constant`: underrelaxation by a fixed factor.
    #[default]
    Constant,
    /// `aitken`: underrelaxation by Aitken's dynamic factor.
    Aitken,
    /// `IQN-ILS`: interface quasi-Newton, inverse least squares.
    IqnIls,
    /// `IQN-IMVJ`: interface quasi-Newton, inverse multi-vector Jacobian.
    IqnImvj,
}

impl AccelerationKind {
    /// The kind a tag suffix names (`IQN-ILS`, ...), `None` for one preCICE does not have.
    pub fn from_tag(tag: &str) -> Option<Self> {
        Some(match tag {
            "constant" => AccelerationKind::Constant,
            "aitken" => AccelerationKind::Aitken,
            "IQN-ILS" => AccelerationKind::IqnIls,
            "IQN-IMVJ" => AccelerationKind::IqnImvj,
            _ => return None,
        })
    }

    /// The XML spelling, for messages.
    pub fn tag(self) -> &'static str {
        match self {
            AccelerationKind::Constant => "constant",
            AccelerationKind::Aitken => "aitken",
            AccelerationKind::IqnIls => "IQN-ILS",
            AccelerationKind::IqnImvj => "IQN-IMVJ",
        }
    }

    /// IQN-ILS or IQN-IMVJ: the methods with columns, filters and a quasi-Newton log.
    pub fn is_quasi_newton(self) -> bool {
        matches!(self, AccelerationKind::IqnIls | AccelerationKind::IqnImvj)
    }
}

impl std::fmt::Display for AccelerationKind {
    /// The XML spelling, as messages name the tag (`acceleration:IQN-ILS`).
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str(self.tag())
    }
}

/// `<filter type>` of the quasi-Newton methods: which QR filter drops nearly dependent columns.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum FilterKind {
    /// `QR1`: delete columns whose diagonal entry of R is small relative to ‖R‖_F.
    Qr1,
    /// `QR1-absolute`: delete columns whose diagonal entry of R is small in absolute terms.
    Qr1Absolute,
    /// `QR2`: rebuild the QR by Gram–Schmidt, deleting columns that are mostly in the span of newer ones.
    Qr2,
    /// `QR3`: QR2, but only when a newly added column fails the QR2 test.
    Qr3,
}

impl FilterKind {
    /// The XML spelling, for messages.
    pub fn tag(self) -> &'static str {
        match self {
            FilterKind::Qr1 => "QR1",
            FilterKind::Qr1Absolute => "QR1-absolute",
            FilterKind::Qr2 => "QR2",
            FilterKind::Qr3 => "QR3",
        }
    }
}

/// `<filter>` as written: the limit is kept optional because its default depends on the tag's presence.
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct FilterDecl {
    /// `type`.
    pub kind: FilterKind,
    /// `limit` (> 0), absent when not written.
    pub limit: Option<f64>,
}

/// `<preconditioner type>`: how the primary data blocks are weighted in the residual.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum PreconditionerKind {
    /// `constant`: 1 / `scaling` of the `<data>` tag.
    Constant,
    /// `value`: 1 / norm of the block's values.
    Value,
    /// `residual`: 1 / norm of the block's residual.
    Residual,
    /// `residual-sum`: 1 / sum over the window's iterations of the block's share of the residual norm.
    ResidualSum,
}

/// `<preconditioner>` as written.
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct PreconditionerDecl {
    /// `type`.
    pub kind: PreconditionerKind,
    /// `update-on-threshold`: residual-sum weights change after the first window only by more than a factor 10.
    pub update_on_threshold: Option<bool>,
    /// `freeze-after`: weights stop changing after this many windows (−1: never).
    pub freeze_after: Option<i64>,
}

/// `on-bound-violation` of the quasi-Newton methods.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum BoundViolation {
    /// `ignore`: the update is sent as computed.
    Ignore,
    /// `clamp`: values outside the data's bounds are clamped.
    Clamp,
    /// `discard`: an update that violates the bounds is discarded.
    Discard,
    /// `scale`: the update is scaled to stay within the bounds.
    Scale,
}

impl BoundViolation {
    /// The XML spelling, for messages.
    pub fn tag(self) -> &'static str {
        match self {
            BoundViolation::Ignore => "ignore",
            BoundViolation::Clamp => "clamp",
            BoundViolation::Discard => "discard",
            BoundViolation::Scale => "scale",
        }
    }
}

/// `<imvj-restart-mode type>`: how IQN-IMVJ limits what its inverse Jacobian remembers
/// (Scheufele & Mehl 2017).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum ImvjRestartKind {
    /// `no-restart`: the Jacobian keeps everything.
    NoRestart,
    /// `RS-0`: every chunk the Jacobian is reset to zero.
    Rs0,
    /// `RS-LS`: every chunk the Jacobian is rebuilt by least squares from the last windows' columns.
    RsLs,
    /// `RS-SVD`: every chunk the Jacobian is replaced by its truncated SVD.
    RsSvd,
    /// `RS-SLIDE`: every window the Jacobian is rebuilt from the last chunk of windows.
    RsSlide,
}

/// `<imvj-restart-mode>` as written.
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct ImvjRestartDecl {
    /// `type`.
    pub kind: ImvjRestartKind,
    /// `chunk-size` (> 0): windows per restart chunk.
    pub chunk_size: Option<usize>,
    /// `reused-time-windows-at-restart` (≥ 0): windows whose columns RS-LS rebuilds from.
    pub reused_time_windows_at_restart: Option<usize>,
    /// `truncation-threshold` (> 0): RS-SVD drops singular values below it times the largest.
    pub truncation_threshold: Option<f64>,
}
