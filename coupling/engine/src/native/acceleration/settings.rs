//! The settings of the acceleration methods with every default resolved, in one place.
//!
//! [`AccelerationDecl`] keeps the XML as written (`None` where an attribute or tag is
//! absent); this module turns it into what the methods run with. The defaults are those of
//! preCICE v3's configuration reference (docs/design/coupling-semantics.md §11.5):
//!
//! | setting | aitken | IQN-ILS | IQN-IMVJ |
//! |---|---|---|---|
//! | `<relaxation value>` (constant) | required | – | – |
//! | `<initial-relaxation value>` | 0.5 | 0.1 | 0.1 |
//! | `<initial-relaxation enforce>` | – | false | false |
//! | `<max-used-iterations>` | – | 100 | 20 |
//! | `<time-windows-reused>` | – | 10 | 0 |
//! | `<data scaling>` | 1 | 1 | 1 |
//! | `<filter>` absent | – | QR3, limit 1e-2 | QR3, limit 1e-2 |
//! | `<filter type>` without `limit` | – | limit 1e-16 | limit 1e-16 |
//! | `<preconditioner>` absent | residual-sum | residual-sum | residual-sum |
//! | `update-on-threshold` | true | true | true |
//! | `freeze-after` | −1 (never) | −1 (never) | −1 (never) |
//! | `reduced-time-grid` | – | true | true |
//! | `on-bound-violation` | – | ignore (the only one supported) | ignore |
//! | `always-build-jacobian` | – | – | false |
//! | `<imvj-restart-mode>` absent | – | – | RS-SVD |
//! | `chunk-size` / `reused-time-windows-at-restart` / `truncation-threshold` | – | – | 8 / 8 / 1e-4 |
//!
//! Aitken uses its preconditioner only with more than one primary datum (with one, the
//! weights cancel in its factor).

use crate::{CouplingError, Result};
use tidelink_precice_config::{
    AccelerationDecl, AccelerationKind, BoundViolation, FilterKind, ImvjRestartKind, PreconditionerKind,
};

/// Initial relaxation of Aitken when `<initial-relaxation>` is absent.
pub const AITKEN_INITIAL_RELAXATION: f64 = 0.5;
/// Initial relaxation of the quasi-Newton methods when `<initial-relaxation>` is absent.
pub const QN_INITIAL_RELAXATION: f64 = 0.1;
/// Filter limit when no `<filter>` tag is given (with the QR3 filter).
pub const DEFAULT_FILTER_LIMIT: f64 = 1e-2;
/// Filter limit when a `<filter>` tag is given without `limit`.
pub const FILTER_LIMIT_WITHOUT_ATTRIBUTE: f64 = 1e-16;

/// A datum's key as [`super::AccData::key`] spells it: (mesh, data).
pub use tidelink_precice_config::DataKey;

/// The preconditioner of Aitken and the quasi-Newton methods.
#[derive(Debug, Clone, PartialEq)]
pub struct PreconditionerSettings {
    /// How the weights are computed.
    pub kind: PreconditionerKind,
    /// Residual-sum weights change after the first window only by more than a factor 10.
    pub update_on_threshold: bool,
    /// Weights stop changing once this many windows have completed (`None`: never).
    pub freeze_after: Option<usize>,
    /// `scaling` of each primary datum, by key (1 where not given).
    pub scaling: Vec<(DataKey, f64)>,
}

impl PreconditionerSettings {
    /// The `scaling` of one primary datum (1 when the datum has no `<data>` tag).
    pub fn scaling_of(&self, key: &DataKey) -> f64 {
        self.scaling.iter().find(|(k, _)| k == key).map(|(_, s)| *s).unwrap_or(1.0)
    }
}

/// What the quasi-Newton methods share.
#[derive(Debug, Clone, PartialEq)]
pub struct QnSettings {
    /// Relaxation factor of the first iteration(s).
    pub initial_relaxation: f64,
    /// Relax in the first iteration of every window, not only of the first one.
    pub enforce_initial_relaxation: bool,
    /// The most columns kept.
    pub max_used_iterations: usize,
    /// How many past windows' columns are kept.
    pub time_windows_reused: usize,
    /// Primary residuals use only the window-end sample (else all samples).
    pub reduced_time_grid: bool,
    /// The QR filter.
    pub filter: FilterKind,
    /// Its limit.
    pub filter_limit: f64,
    /// The preconditioner.
    pub preconditioner: PreconditionerSettings,
}

/// What IQN-IMVJ adds to [`QnSettings`].
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct ImvjSettings {
    /// Form the inverse Jacobian explicitly in every iteration (same result, more work).
    pub always_build_jacobian: bool,
    /// The restart mode (Scheufele & Mehl 2017).
    pub restart: ImvjRestartKind,
    /// Windows per restart chunk.
    pub chunk_size: usize,
    /// Windows whose columns RS-LS rebuilds the Jacobian from.
    pub reused_time_windows_at_restart: usize,
    /// RS-SVD drops singular values below this times the largest one.
    pub truncation_threshold: f64,
}

/// `<relaxation value>` of constant relaxation (required).
pub fn constant(decl: &AccelerationDecl) -> Result<f64> {
    decl.relaxation.ok_or_else(|| {
        CouplingError::config(format!(
            "{}: <acceleration:constant> needs a <relaxation value=\"...\"/> tag with a factor in (0, 1].",
            decl.loc
        ))
    })
}

/// Initial relaxation and preconditioner of Aitken.
pub fn aitken(decl: &AccelerationDecl) -> Result<(f64, PreconditionerSettings)> {
    Ok((decl.initial_relaxation.unwrap_or(AITKEN_INITIAL_RELAXATION), preconditioner(decl)?))
}

/// The shared quasi-Newton settings of IQN-ILS or IQN-IMVJ (`decl.kind` picks the defaults).
pub fn qn(decl: &AccelerationDecl) -> Result<QnSettings> {
    let imvj = decl.kind == AccelerationKind::IqnImvj;
    if let Some(b) = decl.on_bound_violation.filter(|b| *b != BoundViolation::Ignore) {
        return Err(CouplingError::config(format!(
            "{}: on-bound-violation=\"{}\" of <acceleration:{}> is not supported by the native coupling engine; \
             remove the attribute or set it to \"ignore\".",
            decl.loc,
            b.tag(),
            decl.kind
        )));
    }
    let (filter, filter_limit) = match decl.filter {
        None => (FilterKind::Qr3, DEFAULT_FILTER_LIMIT),
        Some(f) => (f.kind, f.limit.unwrap_or(FILTER_LIMIT_WITHOUT_ATTRIBUTE)),
    };
    Ok(QnSettings {
        initial_relaxation: decl.initial_relaxation.unwrap_or(QN_INITIAL_RELAXATION),
        enforce_initial_relaxation: decl.enforce_initial_relaxation.unwrap_or(false),
        max_used_iterations: decl.max_used_iterations.unwrap_or(if imvj { 20 } else { 100 }).max(1),
        time_windows_reused: decl.time_windows_reused.unwrap_or(if imvj { 0 } else { 10 }),
        reduced_time_grid: decl.reduced_time_grid.unwrap_or(true),
        filter,
        filter_limit,
        preconditioner: preconditioner(decl)?,
    })
}

/// The IQN-IMVJ additions.
pub fn imvj(decl: &AccelerationDecl) -> ImvjSettings {
    let r = decl.imvj_restart;
    ImvjSettings {
        always_build_jacobian: decl.always_build_jacobian.unwrap_or(false),
        restart: r.map(|r| r.kind).unwrap_or(ImvjRestartKind::RsSvd),
        chunk_size: r.and_then(|r| r.chunk_size).unwrap_or(8).max(1),
        reused_time_windows_at_restart: r.and_then(|r| r.reused_time_windows_at_restart).unwrap_or(8),
        truncation_threshold: r.and_then(|r| r.truncation_threshold).unwrap_or(1e-4),
    }
}

/// The preconditioner; a zero `scaling` is an error for the constant preconditioner (its weight is 1/scaling).
fn preconditioner(decl: &AccelerationDecl) -> Result<PreconditionerSettings> {
    let p = decl.preconditioner;
    let kind = p.map(|p| p.kind).unwrap_or(PreconditionerKind::ResidualSum);
    let scaling: Vec<(DataKey, f64)> = decl
        .data
        .iter()
        .enumerate()
        .map(|(i, k)| (k.clone(), decl.scaling.get(i).copied().flatten().unwrap_or(1.0)))
        .collect();
    if kind == PreconditionerKind::Constant {
        if let Some((DataKey { mesh: m, data: d }, _)) = scaling.iter().find(|(_, s)| *s == 0.0 || !s.is_finite()) {
            return Err(CouplingError::config(format!(
                "{}: the constant preconditioner of <acceleration:{}> divides by the scaling of data \"{d}\" on mesh \
                 \"{m}\", which is zero; give it a non-zero scaling=\"...\".",
                decl.loc, decl.kind
            )));
        }
    }
    Ok(PreconditionerSettings {
        kind,
        update_on_threshold: p.and_then(|p| p.update_on_threshold).unwrap_or(true),
        freeze_after: p.and_then(|p| p.freeze_after).and_then(|n| usize::try_from(n).ok()),
        scaling,
    })
}
