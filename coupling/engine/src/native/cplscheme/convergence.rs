//! Convergence measures of implicit schemes (preCICE's `cplscheme/impl/*ConvergenceMeasure`):
//! each compares a datum's window-end value of the previous iteration with the current one
//! (docs/design/coupling-semantics.md §11.3).

use crate::{CouplingError, Result};
use tidelink_precice_config::{compact_number, ConvergenceMeasureDecl, ConvergenceMeasureKind, DataKey};

/// The criterion of one measure.
#[derive(Debug, Clone, Copy, PartialEq)]
pub enum Criterion {
    /// ‖new − old‖ ≤ limit.
    Absolute(f64),
    /// ‖new − old‖ ≤ limit · ‖new‖.
    Relative(f64),
    /// ‖new − old‖ < limit · (the window's first ‖new − old‖); never in a window's first iteration.
    ResidualRelative(f64),
    /// Absolute or relative.
    AbsoluteOrRelative(f64, f64),
}

/// One `<*-convergence-measure>` with its state inside the current window.
#[derive(Debug, Clone)]
pub struct Measure {
    /// (mesh, data) measured.
    pub key: DataKey,
    /// How it decides.
    pub criterion: Criterion,
    /// `suffices="true"`.
    pub suffices: bool,
    /// `strict="true"`.
    pub strict: bool,
    /// Result of the last [`Measure::measure`].
    pub converged: bool,
    /// The value written into the convergence log for the last measurement.
    pub logged: f64,
    /// ‖new − old‖ of the window's first iteration (residual-relative only).
    first_residual: f64,
    /// ‖new − old‖ and ‖new‖ of the last measurement, for the unconverged-window warnings.
    last: (f64, f64),
}

fn norm(v: impl Iterator<Item = f64>) -> f64 {
    v.map(|x| x * x).sum::<f64>().sqrt()
}

impl Measure {
    /// The measure a scheme's declaration describes.
    pub fn new(d: &ConvergenceMeasureDecl) -> Result<Measure> {
        let need = |v: Option<f64>, what: &str| {
            v.ok_or_else(|| CouplingError::config(format!("{}: the convergence measure has no {what}", d.loc)))
        };
        let criterion = match d.kind {
            ConvergenceMeasureKind::Absolute => Criterion::Absolute(need(d.limit, "limit")?),
            ConvergenceMeasureKind::Relative => Criterion::Relative(need(d.limit, "limit")?),
            ConvergenceMeasureKind::ResidualRelative => Criterion::ResidualRelative(need(d.limit, "limit")?),
            ConvergenceMeasureKind::AbsoluteOrRelative => {
                Criterion::AbsoluteOrRelative(need(d.abs_limit, "abs-limit")?, need(d.rel_limit, "rel-limit")?)
            }
        };
        Ok(Measure {
            key: DataKey::new(&d.mesh, &d.data),
            criterion,
            suffices: d.suffices,
            strict: d.strict,
            converged: false,
            logged: 0.0,
            first_residual: 0.0,
            last: (0.0, 0.0),
        })
    }

    /// The convergence-log column name: `ResAbs(Mesh:Data)` and so on.
    pub fn column(&self) -> String {
        let abbrev = match self.criterion {
            Criterion::Absolute(_) => "Abs",
            Criterion::Relative(_) => "Rel",
            Criterion::ResidualRelative(_) => "Drop",
            Criterion::AbsoluteOrRelative(..) => "AbsOrRel",
        };
        format!("Res{abbrev}({}:{})", self.key.mesh, self.key.data)
    }

    /// Compares `new` with `old` in iteration `iteration` (1-based) of a window.
    pub fn measure(&mut self, old: &[f64], new: &[f64], iteration: u32) -> bool {
        let diff = norm(new.iter().zip(old).map(|(n, o)| n - o));
        let size = norm(new.iter().copied());
        let ratio = |d: f64, n: f64| if n == 0.0 { f64::INFINITY } else { d / n };
        let (converged, logged) = match self.criterion {
            Criterion::Absolute(limit) => (diff <= limit, diff),
            Criterion::Relative(limit) => (diff <= limit * size, ratio(diff, size)),
            Criterion::ResidualRelative(limit) => {
                if iteration == 1 {
                    self.first_residual = diff;
                }
                (iteration > 1 && diff < limit * self.first_residual, ratio(diff, self.first_residual))
            }
            // preCICE logs 0 for this measure (it has no residual of its own).
            Criterion::AbsoluteOrRelative(abs, rel) => (diff <= abs || diff <= rel * size, 0.0),
        };
        self.converged = converged;
        self.logged = logged;
        self.last = (diff, size);
        converged
    }

    /// The measure with its limits, e.g. `absolute measure of "D" on "M" (limit 1e-300)`.
    pub fn label(&self) -> String {
        let limits = match self.criterion {
            Criterion::Absolute(l) | Criterion::Relative(l) | Criterion::ResidualRelative(l) => {
                format!("limit {}", compact_number(l))
            }
            Criterion::AbsoluteOrRelative(a, r) => {
                format!("abs-limit {}, rel-limit {}", compact_number(a), compact_number(r))
            }
        };
        format!("{} measure of \"{}\" on \"{}\" ({limits})", self.kind_name(), self.key.data, self.key.mesh)
    }

    /// Why the last measurement did not converge: its residual against its limit.
    pub fn shortfall(&self) -> String {
        let (diff, size) = self.last;
        let what = match self.criterion {
            Criterion::Absolute(l) => format!("|new - old| = {diff:.3e} > limit {}", compact_number(l)),
            Criterion::Relative(l) => {
                format!("|new - old| / |new| = {:.3e} > limit {}", self.logged, compact_number(l))
            }
            Criterion::ResidualRelative(l) => format!(
                "|new - old| / (the window's first |new - old|) = {:.3e}, not below limit {}",
                self.logged,
                compact_number(l)
            ),
            Criterion::AbsoluteOrRelative(a, r) => format!(
                "|new - old| = {diff:.3e} > abs-limit {} and |new - old| / |new| = {:.3e} > rel-limit {}",
                compact_number(a),
                if size == 0.0 { f64::INFINITY } else { diff / size },
                compact_number(r)
            ),
        };
        format!("{} measure of \"{}\" on \"{}\": {what}", self.kind_name(), self.key.data, self.key.mesh)
    }

    fn kind_name(&self) -> &'static str {
        match self.criterion {
            Criterion::Absolute(_) => "absolute",
            Criterion::Relative(_) => "relative",
            Criterion::ResidualRelative(_) => "residual-relative",
            Criterion::AbsoluteOrRelative(..) => "absolute-or-relative",
        }
    }
}

/// The decision over all measures of a scheme in `iteration` (coupling-semantics.md §11.2),
/// before forced acceptance at `max-iterations`. No measure: never converged.
pub fn all_converged(measures: &[Measure], iteration: u32, min_iterations: u32) -> bool {
    if measures.is_empty() || iteration < min_iterations {
        return false;
    }
    let all = measures.iter().all(|m| m.converged);
    let sufficient = measures.iter().any(|m| m.suffices && m.converged);
    let strict_open = measures.iter().any(|m| m.strict && !m.converged);
    all || (sufficient && !strict_open)
}

#[cfg(test)]
mod tests {
    use super::*;

    fn measure(criterion: Criterion) -> Measure {
        Measure {
            key: DataKey::new("M", "D"),
            criterion,
            suffices: false,
            strict: false,
            converged: false,
            logged: 0.0,
            first_residual: 0.0,
            last: (0.0, 0.0),
        }
    }

    #[test]
    fn absolute_and_relative_limits_are_inclusive() {
        let mut a = measure(Criterion::Absolute(0.5));
        assert!(a.measure(&[0.0], &[0.5], 1));
        assert!(!a.measure(&[0.0], &[0.50001], 1));
        let mut r = measure(Criterion::Relative(0.1));
        assert!(r.measure(&[0.9], &[1.0], 1), "0.1 ≤ 0.1 · 1");
        assert!((r.logged - 0.1).abs() < 1e-15);
    }

    #[test]
    fn residual_relative_never_converges_in_the_first_iteration() {
        let mut m = measure(Criterion::ResidualRelative(0.5));
        assert!(!m.measure(&[0.0], &[1e-30], 1));
        assert!(!m.measure(&[0.0], &[0.5e-30], 2), "strict less-than");
        assert!(m.measure(&[0.0], &[0.4e-30], 3));
    }

    #[test]
    fn suffices_accepts_unless_a_strict_measure_is_open() {
        let mut a = measure(Criterion::Absolute(1.0));
        a.suffices = true;
        a.converged = true;
        let mut b = measure(Criterion::Absolute(1.0));
        b.converged = false;
        assert!(all_converged(&[a.clone(), b.clone()], 1, 1));
        b.strict = true;
        assert!(!all_converged(&[a.clone(), b], 1, 1));
        assert!(!all_converged(&[a], 1, 2), "min-iterations");
        assert!(!all_converged(&[], 5, 1), "no measures: never");
    }
}
