//! The MBS participant's solver file (`solver:` of its participant file), Chrono's format:
//!
//! ```yaml
//! chrono-version: 10.0
//! contact_method: SMC            # accepted, ignored (no contact yet)
//! integrator:
//!   type: Euler_implicit_linearized
//!   time_step: 1e-3
//! solver: {type: Barzilai_Borwein, ...}   # accepted, ignored (no constraints yet)
//! ```
//!
//! Only `Euler_implicit_linearized` is available for now; it runs as our semi-implicit
//! Euler integrator (same order, no constraints to linearize). HHT comes with a later issue.

use crate::integrator::{Integrator, SemiImplicitEuler};
use serde::de::IgnoredAny;
use serde::Deserialize;
use std::path::Path;
use tidelink_adapter_core::diagnostics::Diagnostics;
use tidelink_adapter_core::spec::{self, YamlLines};

/// Integrator types this build can run, in Chrono's spelling (compared case-insensitively).
pub const SUPPORTED_INTEGRATORS: &[&str] = &["Euler_implicit_linearized"];

#[derive(Debug, Deserialize)]
#[serde(deny_unknown_fields)]
struct SolverFile {
    #[serde(rename = "chrono-version")]
    _chrono_version: Option<IgnoredAny>,
    contact_method: Option<IgnoredAny>,
    integrator: IntegratorEntry,
    solver: Option<IgnoredAny>,
}

/// Chrono's integrator keys; the tolerances and iteration settings belong to the implicit
/// integrators of later issues and are accepted now so Chrono's files read unchanged.
#[derive(Debug, Deserialize)]
#[serde(deny_unknown_fields)]
struct IntegratorEntry {
    #[serde(rename = "type")]
    kind: String,
    time_step: f64,
    rel_tolerance: Option<IgnoredAny>,
    abs_tolerance_states: Option<IgnoredAny>,
    abs_tolerance_multipliers: Option<IgnoredAny>,
    max_iterations: Option<IgnoredAny>,
    use_stepsize_control: Option<IgnoredAny>,
    use_modified_newton: Option<IgnoredAny>,
}

/// Which integrator the solver file selects.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum IntegratorKind {
    /// Chrono's `Euler_implicit_linearized`, run as [`SemiImplicitEuler`].
    EulerImplicitLinearized,
}

/// The solver settings the participant uses.
#[derive(Debug, Clone, PartialEq)]
pub struct SolverSettings {
    pub integrator: IntegratorKind,
    /// The integrator step; the participant advances by `min(time_step, rest of window)`.
    pub time_step: f64,
}

impl SolverSettings {
    /// A fresh integrator of the selected kind.
    pub fn make_integrator(&self) -> Box<dyn Integrator> {
        match self.integrator {
            IntegratorKind::EulerImplicitLinearized => Box::new(SemiImplicitEuler),
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
    let integrator = if ig.kind.eq_ignore_ascii_case("Euler_implicit_linearized") {
        IntegratorKind::EulerImplicitLinearized
    } else {
        d.error(
            lines.loc("integrator.type"),
            format!(
                "integrator type `{}` is not supported yet; supported: {} (run as semi-implicit Euler). \
                 HHT comes with a later issue",
                ig.kind,
                SUPPORTED_INTEGRATORS.join(", ")
            ),
        );
        return Err(d);
    };
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
                "{} accepted but ignored: free rigid bodies need no contact model and no constraint solver yet",
                ignored.iter().map(|k| format!("`{k}`")).collect::<Vec<_>>().join(" and ")
            ),
        );
    }
    let _ = (&ig.rel_tolerance, &ig.abs_tolerance_states, &ig.abs_tolerance_multipliers);
    let _ = (&ig.max_iterations, &ig.use_stepsize_control, &ig.use_modified_newton);
    Ok((SolverSettings { integrator, time_step: ig.time_step }, d))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn reads_chrono_solver_files() {
        let text = "chrono-version: 10.0\ncontact_method: SMC\nintegrator:\n  type: Euler_implicit_linearized\n  time_step: 1e-2\nsolver:\n  type: Barzilai_Borwein\n";
        let (s, w) = parse_str(text, Path::new("s.yaml")).unwrap();
        assert_eq!(s, SolverSettings { integrator: IntegratorKind::EulerImplicitLinearized, time_step: 1e-2 });
        assert_eq!(w.0.len(), 1);
        assert!(
            w.to_string().starts_with("s.yaml:2: warning: `contact_method` and `solver` accepted but ignored"),
            "{w}"
        );
    }

    #[test]
    fn rejects_other_integrators_and_bad_steps() {
        let e =
            parse_str("integrator:\n  type: HHT\n  time_step: 1e-3\n", Path::new("s.yaml")).unwrap_err().to_string();
        assert!(
            e.starts_with(
                "s.yaml:2: error: integrator type `HHT` is not supported yet; supported: Euler_implicit_linearized"
            ),
            "{e}"
        );
        let e = parse_str("integrator:\n  type: EULER_IMPLICIT_LINEARIZED\n  time_step: 0\n", Path::new("s.yaml"))
            .unwrap_err()
            .to_string();
        assert!(e.starts_with("s.yaml:3: error: `time_step` must be positive"), "{e}");
        let e =
            parse_str("integrator:\n  type: HHT\n  time_stpe: 1e-3\n", Path::new("s.yaml")).unwrap_err().to_string();
        assert!(e.contains("s.yaml:3: error: unknown key `time_stpe` in integrator; did you mean `time_step`?"), "{e}");
    }
}
