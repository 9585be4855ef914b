//! The MBS participant's solver file (`solver:` of its participant file), Chrono's format:
//!
//! ```yaml
//! chrono-version: 10.0
//! contact_method: SMC            # accepted, ignored (no contact yet)
//! integrator:
//!   type: HHT                    # or Euler_implicit_linearized; HHT when omitted
//!   time_step: 1e-3
//!   alpha: -0.2                  # HHT only, in [-1/3, 0]
//!   max_iterations: 20           # HHT Newton iterations
//!   abs_tolerance: 1e-10         # HHT position-update tolerance (or abs_tolerance_states)
//! solver: {type: Barzilai_Borwein, ...}   # accepted, ignored (our Newton solves directly)
//! ```

use serde::de::IgnoredAny;
use serde::Deserialize;
use std::path::Path;
use tidelink_adapter_core::diagnostics::Diagnostics;
use tidelink_adapter_core::spec::{self, YamlLines};
use tidelink_mbs_solver::solver::euler_implicit::LinearizedImplicitEuler;
use tidelink_mbs_solver::solver::hht::{Hht, DEFAULT_ALPHA};
use tidelink_mbs_solver::solver::integrator::Integrator;

/// Integrator types this build can run, in Chrono's spelling (compared case-insensitively).
pub const SUPPORTED_INTEGRATORS: &[&str] = &["HHT", "Euler_implicit_linearized"];

#[derive(Debug, Deserialize)]
#[serde(deny_unknown_fields)]
struct SolverFile {
    #[serde(rename = "chrono-version")]
    _chrono_version: Option<IgnoredAny>,
    contact_method: Option<IgnoredAny>,
    integrator: IntegratorEntry,
    solver: Option<IgnoredAny>,
}

/// Chrono's integrator keys; `alpha`, `max_iterations` and the absolute tolerance drive
/// HHT, the rest are accepted so Chrono's files read unchanged.
#[derive(Debug, Deserialize)]
#[serde(deny_unknown_fields)]
struct IntegratorEntry {
    #[serde(rename = "type")]
    kind: Option<String>,
    time_step: f64,
    alpha: Option<f64>,
    abs_tolerance: Option<f64>,
    rel_tolerance: Option<IgnoredAny>,
    abs_tolerance_states: Option<f64>,
    abs_tolerance_multipliers: Option<IgnoredAny>,
    max_iterations: Option<usize>,
    use_stepsize_control: Option<IgnoredAny>,
    use_modified_newton: Option<IgnoredAny>,
}

/// Which integrator the solver file selects.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum IntegratorKind {
    /// Chrono's `HHT`: [`Hht`], the default.
    Hht,
    /// Chrono's `Euler_implicit_linearized`: [`LinearizedImplicitEuler`].
    EulerImplicitLinearized,
}

/// The solver settings the participant uses.
#[derive(Debug, Clone, PartialEq)]
pub struct SolverSettings {
    /// `integrator.type`, HHT when absent.
    pub integrator: IntegratorKind,
    /// The integrator step; the participant advances by `min(time_step, rest of window)`.
    pub time_step: f64,
    /// HHT's α (checked in [−1/3, 0] when read).
    pub alpha: f64,
    /// HHT's Newton iteration limit.
    pub max_iterations: usize,
    /// HHT's position-update tolerance.
    pub abs_tolerance: f64,
}

impl SolverSettings {
    /// HHT with Chrono's hydrodynamics defaults and `time_step`.
    pub fn hht(time_step: f64) -> Self {
        SolverSettings {
            integrator: IntegratorKind::Hht,
            time_step,
            alpha: DEFAULT_ALPHA,
            max_iterations: 20,
            abs_tolerance: 1e-10,
        }
    }

    /// A fresh integrator of the selected kind.
    pub fn make_integrator(&self) -> Box<dyn Integrator> {
        match self.integrator {
            IntegratorKind::Hht => {
                // α was checked when the file was read; a hand-built setting out of range
                // falls back to the default rather than panicking.
                let mut h = Hht::new(self.alpha).unwrap_or_default();
                h.max_iterations = self.max_iterations.max(1);
                h.abs_tolerance = self.abs_tolerance;
                Box::new(h)
            }
            IntegratorKind::EulerImplicitLinearized => Box::new(LinearizedImplicitEuler::new()),
        }
    }
}

/// Reads `path`. Ok carries one warning for the keys accepted but ignored.
pub fn load(path: &Path) -> Result<(SolverSettings, Diagnostics), Diagnostics> {
    let (file, lines) = spec::load_yaml_with_lines::<SolverFile>(path)?;
    build(file, &lines)
}

/// As [`load`], from text (`path` names it in messages).
pub fn parse_str(text: &str, path: &Path) -> Result<(SolverSettings, Diagnostics), Diagnostics> {
    let file: SolverFile = spec::parse_yaml_str(text, path)?;
    build(file, &YamlLines::new(text, path))
}

fn build(file: SolverFile, lines: &YamlLines) -> Result<(SolverSettings, Diagnostics), Diagnostics> {
    let mut d = Diagnostics::default();
    let ig = &file.integrator;
    let kind = ig.kind.as_deref().unwrap_or("HHT");
    let integrator = if kind.eq_ignore_ascii_case("HHT") {
        IntegratorKind::Hht
    } else if kind.eq_ignore_ascii_case("Euler_implicit_linearized") {
        IntegratorKind::EulerImplicitLinearized
    } else {
        d.error(
            lines.loc("integrator.type"),
            format!("integrator type `{kind}` is not implemented; implemented: {}", SUPPORTED_INTEGRATORS.join(", ")),
        );
        return Err(d);
    };
    let alpha = ig.alpha.unwrap_or(DEFAULT_ALPHA);
    if !(alpha.is_finite() && (-1.0 / 3.0..=0.0).contains(&alpha)) {
        d.error(lines.loc("integrator.alpha"), format!("HHT `alpha` must lie in [-1/3, 0], got {alpha}"));
        return Err(d);
    }
    let abs_tolerance = ig.abs_tolerance.or(ig.abs_tolerance_states).unwrap_or(1e-10);
    if !(abs_tolerance.is_finite() && abs_tolerance > 0.0) {
        let key =
            if ig.abs_tolerance.is_some() { "integrator.abs_tolerance" } else { "integrator.abs_tolerance_states" };
        d.error(lines.loc(key), format!("the absolute tolerance must be positive, got {abs_tolerance}"));
        return Err(d);
    }
    let max_iterations = ig.max_iterations.unwrap_or(20);
    if max_iterations == 0 {
        d.error(lines.loc("integrator.max_iterations"), "`max_iterations` must be at least 1");
        return Err(d);
    }
    if integrator == IntegratorKind::EulerImplicitLinearized {
        for (key, present) in [("alpha", ig.alpha.is_some()), ("max_iterations", ig.max_iterations.is_some())] {
            if present {
                d.warning(
                    lines.loc(&format!("integrator.{key}")),
                    format!("`{key}` is an HHT setting; Euler_implicit_linearized ignores it"),
                );
            }
        }
    }
    if !(ig.time_step.is_finite() && ig.time_step > 0.0) {
        d.error(lines.loc("integrator.time_step"), format!("`time_step` must be positive, got {}", ig.time_step));
        return Err(d);
    }
    let ignored: Vec<&str> = [("contact_method", file.contact_method.is_some()), ("solver", file.solver.is_some())]
        .into_iter()
        .filter_map(|(k, present)| present.then_some(k))
        .collect();
    if let Some(first) = ignored.first() {
        d.warning(
            lines.loc(first),
            format!(
                "{} accepted but ignored: there is no contact model yet, and the integrators solve their Newton systems directly",
                ignored.iter().map(|k| format!("`{k}`")).collect::<Vec<_>>().join(" and ")
            ),
        );
    }
    let _ = (&ig.rel_tolerance, &ig.abs_tolerance_multipliers);
    let _ = (&ig.use_stepsize_control, &ig.use_modified_newton);
    Ok((SolverSettings { integrator, time_step: ig.time_step, alpha, max_iterations, abs_tolerance }, d))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn reads_chrono_solver_files() {
        let text = "chrono-version: 10.0\ncontact_method: SMC\nintegrator:\n  type: Euler_implicit_linearized\n  time_step: 1e-2\nsolver:\n  type: Barzilai_Borwein\n";
        let (s, w) = parse_str(text, Path::new("s.yaml")).unwrap();
        assert_eq!(
            s,
            SolverSettings { integrator: IntegratorKind::EulerImplicitLinearized, ..SolverSettings::hht(1e-2) }
        );
        assert_eq!(w.0.len(), 1);
        assert!(
            w.to_string().starts_with("s.yaml:2: warning: `contact_method` and `solver` accepted but ignored"),
            "{w}"
        );
    }

    #[test]
    fn hht_is_the_default_and_reads_its_settings() {
        let (s, _) = parse_str("integrator:\n  time_step: 1e-3\n", Path::new("s.yaml")).unwrap();
        assert_eq!(s, SolverSettings::hht(1e-3));
        assert_eq!(s.make_integrator().name(), "HHT-alpha");
        let text =
            "integrator:\n  type: hht\n  time_step: 1e-3\n  alpha: -0.1\n  max_iterations: 8\n  abs_tolerance: 1e-9\n";
        let (s, w) = parse_str(text, Path::new("s.yaml")).unwrap();
        assert!(w.0.is_empty());
        assert_eq!((s.alpha, s.max_iterations, s.abs_tolerance), (-0.1, 8, 1e-9));
    }

    #[test]
    fn rejects_other_integrators_and_bad_steps() {
        let e = parse_str("integrator:\n  type: RUNGEKUTTA45\n  time_step: 1e-3\n", Path::new("s.yaml"))
            .unwrap_err()
            .to_string();
        assert!(
            e.starts_with(
                "s.yaml:2: error: integrator type `RUNGEKUTTA45` is not implemented; implemented: HHT, Euler_implicit_linearized"
            ),
            "{e}"
        );
        let e = parse_str("integrator:\n  type: HHT\n  time_step: 1e-3\n  alpha: 0.2\n", Path::new("s.yaml"))
            .unwrap_err()
            .to_string();
        assert!(e.starts_with("s.yaml:4: error: HHT `alpha` must lie in [-1/3, 0], got 0.2"), "{e}");
        let e = parse_str("integrator:\n  type: EULER_IMPLICIT_LINEARIZED\n  time_step: 0\n", Path::new("s.yaml"))
            .unwrap_err()
            .to_string();
        assert!(e.starts_with("s.yaml:3: error: `time_step` must be positive"), "{e}");
        let e =
            parse_str("integrator:\n  type: HHT\n  time_stpe: 1e-3\n", Path::new("s.yaml")).unwrap_err().to_string();
        assert!(e.contains("s.yaml:3: error: unknown key `time_stpe` in integrator; did you mean `time_step`?"), "{e}");
    }
}
