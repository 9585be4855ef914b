//! The MBS participant's solver file (`solver:` of its participant file), Chrono's format:
//!
//! ```yaml
//! chrono-version: 10.0
//! contact_method: SMC            # accepted, ignored (no contact yet)
//! integrator:
//!   type: HHT                    # or Euler_implicit_linearized, Euler_implicit, BDF; HHT when omitted
//!   order: 2                     # BDF only: 1 or 2 (default 2)
//!   time_step: 1e-3
//!   alpha: -0.2                  # HHT only, in [-1/3, 0]
//!   max_iterations: 20           # HHT Newton iterations
//!   abs_tolerance: 1e-10         # HHT position-update tolerance (or abs_tolerance_states)
//! solver:                        # the Newton saddle system's linear solver
//!   type: auto                   # auto (default) | dense | sparse, or Chrono's names (SPARSE_LU, ...)
//! jacobian:                      # ours, not Chrono's; all optional
//!   policy: auto                 # analytical | numerical | hybrid | auto
//!   verify: once                 # off (default) | once | N (every N steps)
//!   verify_tolerance: 1e-4       # relative error above which a checked entry is a warning
//!   verify_entries: 3            # worst entries reported per element
//! ```

use super::linear_solver_yaml::{linear_solver, SolverEntry};
use serde::de::IgnoredAny;
use serde::Deserialize;
use std::path::Path;
use tidelink_adapter_core::diagnostics::{Diagnostics, Location};
use tidelink_adapter_core::spec::{self, YamlLines};
use tidelink_mbs_solver::dynamics::force_element::ForceElementSet;
use tidelink_mbs_solver::solver::bdf::Bdf;
use tidelink_mbs_solver::solver::euler_implicit::LinearizedImplicitEuler;
use tidelink_mbs_solver::solver::hht::{Hht, DEFAULT_ALPHA};
use tidelink_mbs_solver::solver::integrator::Integrator;
use tidelink_mbs_solver::solver::jacobian::{JacobianOptions, JacobianPolicy, VerifySchedule};
use tidelink_mbs_solver::solver::linear::LinearSolverKind;

/// Integrator types this build can run, in Chrono's spelling (compared case-insensitively).
pub const SUPPORTED_INTEGRATORS: &[&str] = &["HHT", "Euler_implicit_linearized", "Euler_implicit", "BDF"];

#[derive(Debug, Deserialize)]
#[serde(deny_unknown_fields)]
struct SolverFile {
    #[serde(rename = "chrono-version")]
    _chrono_version: Option<IgnoredAny>,
    contact_method: Option<IgnoredAny>,
    integrator: IntegratorEntry,
    solver: Option<SolverEntry>,
    jacobian: Option<JacobianEntry>,
}

/// How the force elements' Jacobians are obtained and checked (docs/design/jacobians.md).
#[derive(Debug, Deserialize)]
#[serde(deny_unknown_fields)]
struct JacobianEntry {
    policy: Option<String>,
    verify: Option<VerifyEntry>,
    verify_tolerance: Option<f64>,
    verify_entries: Option<usize>,
}

/// `verify: once`, `verify: off` or `verify: N`.
#[derive(Debug, Deserialize)]
#[serde(untagged)]
enum VerifyEntry {
    Every(usize),
    Word(String),
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
    order: Option<usize>,
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
    /// Chrono's `Euler_implicit`: Newton backward Euler with a line search ([`Bdf`] order 1).
    EulerImplicit,
    /// `BDF` with `order` 1 or 2, fixed step ([`Bdf`]).
    Bdf(usize),
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
    /// The Jacobian policy and verification (`jacobian:`).
    pub jacobian: JacobianOptions,
    /// Where `jacobian.policy` was given, for errors about the model it cannot serve.
    pub policy_at: Option<Location>,
    /// The Newton saddle system's linear solver (`solver.type`).
    pub linear_solver: LinearSolverKind,
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
            jacobian: JacobianOptions::default(),
            policy_at: None,
            linear_solver: LinearSolverKind::Auto,
        }
    }

    /// Refuses a model the policy cannot serve: `analytical` with force elements that give no
    /// analytical Jacobian (named, at the policy's line).
    pub fn check_model(&self, forces: &ForceElementSet) -> Result<(), Diagnostics> {
        match self.jacobian.policy.resolve(forces) {
            Ok(_) => Ok(()),
            Err(e) => {
                let mut d = Diagnostics::default();
                d.error(self.policy_at.clone().unwrap_or_default(), e.to_string());
                Err(d)
            }
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
                h.jacobian = self.jacobian;
                h.linear_solver = self.linear_solver;
                Box::new(h)
            }
            IntegratorKind::EulerImplicitLinearized => {
                let mut e = LinearizedImplicitEuler::new();
                e.jacobian = self.jacobian;
                e.linear_solver = self.linear_solver;
                Box::new(e)
            }
            IntegratorKind::EulerImplicit | IntegratorKind::Bdf(_) => {
                let order = match self.integrator {
                    IntegratorKind::Bdf(o) => o,
                    _ => 1,
                };
                // The order was checked when the file was read; a hand-built one out of range
                // falls back to backward Euler rather than panicking.
                let mut b = Bdf::new(order).unwrap_or_else(|_| Bdf::backward_euler());
                b.max_iterations = self.max_iterations.max(1);
                b.abs_tolerance = self.abs_tolerance;
                b.jacobian = self.jacobian;
                b.linear_solver = self.linear_solver;
                Box::new(b)
            }
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
    } else if kind.eq_ignore_ascii_case("Euler_implicit") {
        IntegratorKind::EulerImplicit
    } else if kind.eq_ignore_ascii_case("BDF") {
        match ig.order.unwrap_or(2) {
            o @ 1..=2 => IntegratorKind::Bdf(o),
            o => {
                d.error(lines.loc("integrator.order"), format!("BDF `order` must be 1 or 2, got {o}"));
                return Err(d);
            }
        }
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
    if !matches!(integrator, IntegratorKind::Bdf(_)) && ig.order.is_some() {
        d.warning(lines.loc("integrator.order"), format!("`order` is a BDF setting; {kind} ignores it"));
    }
    if integrator != IntegratorKind::Hht && ig.alpha.is_some() {
        d.warning(lines.loc("integrator.alpha"), format!("`alpha` is an HHT setting; {kind} ignores it"));
    }
    if integrator == IntegratorKind::EulerImplicitLinearized && ig.max_iterations.is_some() {
        d.warning(
            lines.loc("integrator.max_iterations"),
            "`max_iterations` is an HHT setting; Euler_implicit_linearized ignores it (one linear solve per step)",
        );
    }
    if !(ig.time_step.is_finite() && ig.time_step > 0.0) {
        d.error(lines.loc("integrator.time_step"), format!("`time_step` must be positive, got {}", ig.time_step));
        return Err(d);
    }
    if file.contact_method.is_some() {
        d.warning(lines.loc("contact_method"), "`contact_method` accepted but ignored: there is no contact model yet");
    }
    let linear_solver = linear_solver(file.solver.as_ref(), lines, &mut d)?;
    let _ = (&ig.rel_tolerance, &ig.abs_tolerance_multipliers);
    let _ = (&ig.use_stepsize_control, &ig.use_modified_newton);
    let (jacobian, policy_at) = jacobian_options(file.jacobian.as_ref(), lines, &mut d)?;
    Ok((
        SolverSettings {
            integrator,
            time_step: ig.time_step,
            alpha,
            max_iterations,
            abs_tolerance,
            jacobian,
            policy_at,
            linear_solver,
        },
        d,
    ))
}

/// The `jacobian:` section, checked.
fn jacobian_options(
    entry: Option<&JacobianEntry>,
    lines: &YamlLines,
    d: &mut Diagnostics,
) -> Result<(JacobianOptions, Option<Location>), Diagnostics> {
    let mut o = JacobianOptions::default();
    let Some(j) = entry else { return Ok((o, None)) };
    if let Some(p) = &j.policy {
        o.policy = match JacobianPolicy::parse(p) {
            Some(p) => p,
            None => {
                d.error(
                    lines.loc("jacobian.policy"),
                    format!("Jacobian policy `{p}` is not one of analytical, numerical, hybrid, auto"),
                );
                return Err(std::mem::take(d));
            }
        };
    }
    o.verify = match &j.verify {
        None => VerifySchedule::Off,
        Some(VerifyEntry::Every(0)) => {
            d.error(
                lines.loc("jacobian.verify"),
                "`verify` every 0 steps: give `once`, `off` or a step count of at least 1",
            );
            return Err(std::mem::take(d));
        }
        Some(VerifyEntry::Every(n)) => VerifySchedule::Every(*n),
        Some(VerifyEntry::Word(w)) if w.eq_ignore_ascii_case("once") => VerifySchedule::Once,
        Some(VerifyEntry::Word(w)) if w.eq_ignore_ascii_case("off") => VerifySchedule::Off,
        Some(VerifyEntry::Word(w)) => {
            d.error(
                lines.loc("jacobian.verify"),
                format!("`verify: {w}`: give `once`, `off` or a step count N (every N steps)"),
            );
            return Err(std::mem::take(d));
        }
    };
    if let Some(t) = j.verify_tolerance {
        if !(t.is_finite() && t > 0.0) {
            d.error(lines.loc("jacobian.verify_tolerance"), format!("`verify_tolerance` must be positive, got {t}"));
            return Err(std::mem::take(d));
        }
        o.verify_tolerance = t;
    }
    if let Some(n) = j.verify_entries {
        if n == 0 {
            d.error(lines.loc("jacobian.verify_entries"), "`verify_entries` must be at least 1");
            return Err(std::mem::take(d));
        }
        o.verify_worst = n;
    }
    let at = j.policy.as_ref().map(|_| lines.loc("jacobian.policy"));
    Ok((o, at))
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
        assert_eq!(w.0.len(), 2, "{w}");
        let w = w.to_string();
        assert!(w.starts_with("s.yaml:2: warning: `contact_method` accepted but ignored"), "{w}");
        assert!(
            w.contains(
                "s.yaml:7: warning: solver `Barzilai_Borwein` (Chrono's solver for contact, NSC) is read as `auto`"
            ),
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

    #[test]
    fn reads_the_jacobian_section() {
        let (s, w) = parse_str("integrator:\n  time_step: 1e-3\n", Path::new("s.yaml")).unwrap();
        assert!(w.0.is_empty());
        assert_eq!(s.jacobian, JacobianOptions::default());
        let text = "integrator:\n  time_step: 1e-3\njacobian:\n  policy: Hybrid\n  verify: 10\n  verify_tolerance: 1e-5\n  verify_entries: 2\n";
        let (s, _) = parse_str(text, Path::new("s.yaml")).unwrap();
        assert_eq!(s.jacobian.policy, JacobianPolicy::Hybrid);
        assert_eq!(s.jacobian.verify, VerifySchedule::Every(10));
        assert_eq!((s.jacobian.verify_tolerance, s.jacobian.verify_worst), (1e-5, 2));
        assert_eq!(s.policy_at.as_ref().map(|l| l.line), Some(4));
        let text = "integrator:\n  type: Euler_implicit_linearized\n  time_step: 1e-3\njacobian: {verify: once}\n";
        let (s, _) = parse_str(text, Path::new("s.yaml")).unwrap();
        assert_eq!(s.jacobian.verify, VerifySchedule::Once);
        assert_eq!(s.make_integrator().name(), "linearized implicit Euler");
    }

    #[test]
    fn rejects_bad_jacobian_settings_at_their_line() {
        for (entry, line, words) in [
            ("  policy: exact\n", 4, "Jacobian policy `exact` is not one of analytical, numerical, hybrid, auto"),
            ("  verify: always\n", 4, "`verify: always`: give `once`, `off` or a step count"),
            ("  verify: 0\n", 4, "`verify` every 0 steps"),
            ("  policy: auto\n  verify_tolerance: -1\n", 5, "`verify_tolerance` must be positive"),
            ("  polcy: auto\n", 4, "unknown key `polcy`"),
        ] {
            let text = format!("integrator:\n  time_step: 1e-3\njacobian:\n{entry}");
            let e = parse_str(&text, Path::new("s.yaml")).unwrap_err().to_string();
            assert!(e.contains(&format!("s.yaml:{line}: error:")) && e.contains(words), "{e}");
        }
    }

    #[test]
    fn analytical_policy_names_the_elements_without_a_jacobian_at_its_line() {
        use tidelink_mbs_solver::dynamics::body_set::{BodyHandle, BodySet};
        use tidelink_mbs_solver::{ForceElement, Wrench};
        #[derive(Debug, Clone)]
        struct Plain(BodyHandle);
        impl ForceElement for Plain {
            fn name(&self) -> &str {
                "plain"
            }
            fn bodies(&self) -> [BodyHandle; 2] {
                [self.0, self.0]
            }
            fn wrenches(&self, _: &BodySet) -> [Wrench; 2] {
                [Wrench::default(); 2]
            }
        }
        let mut bodies = BodySet::new(nalgebra::Vector3::zeros());
        let h = bodies.insert(tidelink_mbs_solver::RigidBodyBuilder::fixed().build().unwrap());
        let mut forces = ForceElementSet::new();
        forces.insert(Box::new(Plain(h)));
        let text = "integrator:\n  time_step: 1e-3\njacobian:\n  policy: analytical\n";
        let (s, _) = parse_str(text, Path::new("s.yaml")).unwrap();
        let e = s.check_model(&forces).unwrap_err().to_string();
        assert!(e.starts_with("s.yaml:4: error: the Jacobian policy `analytical` needs an analytical Jacobian of every force element; `plain` give none"), "{e}");
        let (s, _) = parse_str("integrator:\n  time_step: 1e-3\n", Path::new("s.yaml")).unwrap();
        assert!(s.check_model(&forces).is_ok());
    }

    #[test]
    fn reads_newton_backward_euler_and_bdf() {
        let text = "integrator:\n  type: Euler_implicit\n  time_step: 1e-3\n  max_iterations: 12\n";
        let (s, w) = parse_str(text, Path::new("s.yaml")).unwrap();
        assert!(w.0.is_empty(), "{w}");
        assert_eq!((s.integrator, s.max_iterations), (IntegratorKind::EulerImplicit, 12));
        assert_eq!(s.make_integrator().name(), "backward Euler (Newton)");
        let (s, _) = parse_str("integrator:\n  type: bdf\n  time_step: 1e-3\n", Path::new("s.yaml")).unwrap();
        assert_eq!(s.integrator, IntegratorKind::Bdf(2));
        assert_eq!(s.make_integrator().name(), "BDF2");
        let text = "integrator:\n  type: BDF\n  order: 1\n  time_step: 1e-3\n";
        assert_eq!(parse_str(text, Path::new("s.yaml")).unwrap().0.integrator, IntegratorKind::Bdf(1));
        let text = "integrator:\n  type: BDF\n  order: 3\n  time_step: 1e-3\n";
        let e = parse_str(text, Path::new("s.yaml")).unwrap_err().to_string();
        assert!(e.starts_with("s.yaml:3: error: BDF `order` must be 1 or 2, got 3"), "{e}");
        let text = "integrator:\n  type: HHT\n  order: 2\n  time_step: 1e-3\n";
        let (_, w) = parse_str(text, Path::new("s.yaml")).unwrap();
        assert!(w.to_string().contains("s.yaml:3: warning: `order` is a BDF setting"), "{w}");
    }

    #[test]
    fn reads_the_linear_solver_by_our_names_and_chrono_s() {
        let base = "integrator:\n  time_step: 1e-3\n";
        for (entry, kind, warnings) in [
            ("", LinearSolverKind::Auto, 0),
            ("solver:\n  type: dense\n", LinearSolverKind::DenseLu, 0),
            ("solver:\n  type: Sparse\n", LinearSolverKind::SparseLu, 0),
            ("solver:\n  type: SPARSE_LU\n", LinearSolverKind::SparseLu, 0),
            ("solver:\n  type: MUMPS\n", LinearSolverKind::SparseLu, 1),
            ("solver:\n  type: GMRES\n  max_iterations: 100\n", LinearSolverKind::Auto, 2),
            ("solver:\n  type: banded\n", LinearSolverKind::Banded, 0),
            ("solver:\n  type: Block_Tridiagonal\n", LinearSolverKind::BlockTridiagonal, 0),
            ("solver:\n  type: block_gauss_seidel\n  tolerance: 1e-8\n", LinearSolverKind::BlockGaussSeidel, 1),
            ("solver:\n  type: component\n", LinearSolverKind::BlockGaussSeidel, 0),
        ] {
            let (s, w) = parse_str(&format!("{base}{entry}"), Path::new("s.yaml")).unwrap();
            assert_eq!((s.linear_solver, w.0.len()), (kind, warnings), "{entry}: {w}");
        }
        let (_, w) = parse_str(&format!("{base}solver:\n  type: MUMPS\n"), Path::new("s.yaml")).unwrap();
        assert!(w.to_string().starts_with("s.yaml:4: warning: solver `MUMPS` is read as `sparse`"), "{w}");
        let e = parse_str(&format!("{base}solver:\n  type: cholesky\n"), Path::new("s.yaml")).unwrap_err().to_string();
        assert!(
            e.starts_with("s.yaml:4: error: linear solver `cholesky` is unknown: give one of auto, dense, banded, block_tridiagonal, sparse, block_gauss_seidel"),
            "{e}"
        );
    }
}
