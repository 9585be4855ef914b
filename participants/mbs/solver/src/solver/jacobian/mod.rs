//! How the stiffness and damping Jacobians of the force elements are obtained (the Jacobian
//! policy), which body states each element's outputs depend on ([`dependencies`]), coloured
//! finite differences where no analytical block is used ([`numerical`]) and the check of the
//! analytical blocks against central differences ([`verify`]). docs/design/jacobians.md
//! explains the scheme.

pub mod dependencies;
pub mod numerical;
pub mod verify;

use crate::dynamics::force_element::ForceElementSet;
use crate::error::MbsError;

/// Analytical entries whose magnitude is below this are set to zero before assembly, so that
/// round-off noise neither fills the matrix nor blocks a numerical entry (absolute, in the
/// units of the entry).
pub const COMPRESSION_THRESHOLD: f64 = 1e-15;

/// Where the force elements' Jacobian blocks come from.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default)]
pub enum JacobianPolicy {
    /// Every element's analytical block; an element without one is an error.
    Analytical,
    /// Finite differences of the whole generalized force vector (bodies' own terms included):
    /// nothing analytical.
    Numerical,
    /// Analytical blocks where elements give them, finite differences of the others filling
    /// only the entries still zero after the analytical assembly.
    Hybrid,
    /// [`Self::Analytical`] when every element gives a block, [`Self::Hybrid`] otherwise.
    #[default]
    Auto,
}

impl JacobianPolicy {
    /// The spelling of the solver file's `jacobian.policy`.
    pub fn name(self) -> &'static str {
        match self {
            JacobianPolicy::Analytical => "analytical",
            JacobianPolicy::Numerical => "numerical",
            JacobianPolicy::Hybrid => "hybrid",
            JacobianPolicy::Auto => "auto",
        }
    }
    /// The policy spelt `name` (case-insensitive), if any.
    pub fn parse(name: &str) -> Option<Self> {
        [JacobianPolicy::Analytical, JacobianPolicy::Numerical, JacobianPolicy::Hybrid, JacobianPolicy::Auto]
            .into_iter()
            .find(|p| p.name().eq_ignore_ascii_case(name))
    }
    /// The policy `forces` is assembled with, never refusing: `Auto` resolved, `Analytical`
    /// unchecked (what [`crate::solver::assembly::System::assemble`] uses).
    pub fn lenient(self, forces: &ForceElementSet) -> JacobianPolicy {
        match self {
            JacobianPolicy::Auto if forces.iter().all(|e| e.has_jacobian()) => JacobianPolicy::Analytical,
            JacobianPolicy::Auto => JacobianPolicy::Hybrid,
            p => p,
        }
    }
    /// The policy `forces` is assembled with: `Auto` resolved, `Analytical` checked.
    pub fn resolve(self, forces: &ForceElementSet) -> Result<JacobianPolicy, MbsError> {
        let missing: Vec<String> =
            forces.iter().filter(|e| !e.has_jacobian()).map(|e| format!("`{}`", e.name())).collect();
        match self {
            JacobianPolicy::Analytical if !missing.is_empty() => Err(MbsError::NoAnalyticalJacobian(missing)),
            JacobianPolicy::Auto if missing.is_empty() => Ok(JacobianPolicy::Analytical),
            JacobianPolicy::Auto => Ok(JacobianPolicy::Hybrid),
            p => Ok(p),
        }
    }
}

/// When the analytical blocks are compared with central differences ([`verify`]).
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default)]
pub enum VerifySchedule {
    /// Never (the default).
    #[default]
    Off,
    /// At the start of the first step.
    Once,
    /// At the start of every `n`-th step, the first included (`n ≥ 1`).
    Every(usize),
}

impl VerifySchedule {
    /// Whether step number `step` (0 for the first) is checked.
    pub fn due(self, step: usize) -> bool {
        match self {
            VerifySchedule::Off => false,
            VerifySchedule::Once => step == 0,
            VerifySchedule::Every(n) => step.is_multiple_of(n.max(1)),
        }
    }
}

/// The Jacobian settings an implicit integrator carries (the solver file's `jacobian:`).
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct JacobianOptions {
    /// Where the blocks come from.
    pub policy: JacobianPolicy,
    /// When the analytical blocks are verified.
    pub verify: VerifySchedule,
    /// Relative error above which a verified entry is logged as a warning.
    pub verify_tolerance: f64,
    /// Worst entries reported per element.
    pub verify_worst: usize,
}

impl Default for JacobianOptions {
    /// `auto`, no verification; when verifying, 1e-4 relative and the 3 worst entries.
    fn default() -> Self {
        JacobianOptions {
            policy: JacobianPolicy::Auto,
            verify: VerifySchedule::Off,
            verify_tolerance: 1e-4,
            verify_worst: 3,
        }
    }
}

/// What one assembly of the Jacobians did, for logs and tests.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default)]
pub struct JacobianStats {
    /// The policy used (`Auto` resolved).
    pub policy: JacobianPolicy,
    /// Evaluations of perturbed forces (colours of the position columns plus colours of the
    /// velocity columns); 0 when everything is analytical.
    pub perturbations: usize,
    /// Elements whose block came from finite differences.
    pub numerical_elements: usize,
    /// Analytical entries set to zero by [`COMPRESSION_THRESHOLD`].
    pub compressed: usize,
    /// Non-zero numerical entries not written because the analytical assembly had already
    /// filled their position.
    pub overridden: usize,
}

impl JacobianStats {
    /// One line for the participant's debug log, when the assembly differenced or compressed
    /// anything (the solver crate logs nothing itself: its caller decides what to report).
    pub fn summary(&self) -> Option<String> {
        (self.perturbations > 0 || self.compressed > 0).then(|| {
            format!(
                "Jacobian assembly ({}): {} perturbed force evaluations for {} differenced elements, {} analytical entries compressed, {} numerical entries under analytical ones",
                self.policy.name(),
                self.perturbations,
                self.numerical_elements,
                self.compressed,
                self.overridden
            )
        })
    }
}

#[cfg(test)]
mod tests;
