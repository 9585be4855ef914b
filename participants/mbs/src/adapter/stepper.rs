//! The solver side of the adapter: the multibody system, the integrator that advances it with
//! its own time step, and the callbacks run around every step.

use super::checkpoint::Checkpoint;
use crate::error::Error;
use tidelink_adapter_core::{AdapterError, AdapterResult};
use tidelink_mbs_solver::solver::integrator::Integrator;
use tidelink_mbs_solver::system::MultibodySystem;

/// A callback run around every solver step with the system and the time (before the step:
/// its start; after: its end): it may add loads or change force-element coefficients.
pub type StepHook = Box<dyn FnMut(&mut MultibodySystem, f64) + Send>;

/// The system, how it is stepped, and what runs around each step.
pub(super) struct Stepper {
    /// The whole system (bodies, joints, force elements, added mass).
    pub(super) system: MultibodySystem,
    integrator: Box<dyn Integrator>,
    /// The solver's own step (s).
    pub(super) time_step: f64,
    before_step: Vec<StepHook>,
    after_step: Vec<StepHook>,
    /// The time of the last Jacobian verification logged (a report is logged once).
    last_verify_time: Option<f64>,
}

impl Stepper {
    /// `system` advanced by `integrator` in steps of at most `time_step`, no callbacks yet.
    pub(super) fn new(system: MultibodySystem, integrator: Box<dyn Integrator>, time_step: f64) -> Self {
        Stepper {
            system,
            integrator,
            time_step,
            before_step: Vec::new(),
            after_step: Vec::new(),
            last_verify_time: None,
        }
    }

    /// Replaces the integrator (before the first step).
    pub(super) fn set_integrator(&mut self, integrator: Box<dyn Integrator>) {
        self.integrator = integrator;
    }

    /// Runs `hook` before every step (`after: false`) or after it.
    pub(super) fn add_hook(&mut self, hook: StepHook, after: bool) {
        if after {
            self.after_step.push(hook);
        } else {
            self.before_step.push(hook);
        }
    }

    /// Refuses a model the integrator cannot step: joints and force elements, or added mass,
    /// need an integrator that keeps them.
    pub(super) fn check(&self) -> AdapterResult<()> {
        let sys = &self.system;
        let has_elements = !(sys.joints.is_empty() && sys.forces.is_empty());
        if has_elements && !self.integrator.handles_constraints() {
            return Err(AdapterError::config(format!(
                "the model has {} joints and {} force elements, which the {} integrator cannot keep; \
                 set the solver file's integrator type to HHT or Euler_implicit_linearized",
                sys.joints.len(),
                sys.forces.len(),
                self.integrator.name()
            )));
        }
        if self.system.added_mass.is_some() && !self.integrator.handles_added_mass() {
            return Err(AdapterError::config(format!(
                "the model has added mass, which the {} integrator cannot take (it belongs in the mass matrix of an \
                 implicit step); set the solver file's integrator type to HHT or Euler_implicit_linearized",
                self.integrator.name()
            )));
        }
        Ok(())
    }

    /// The integrator's Jacobian figures of the step just taken: what the assembly differenced
    /// (debug), and a new verification report (its headline at info, entries above the solver
    /// file's `verify_tolerance` as warnings, the rest at debug). The solver crate logs nothing.
    fn log_jacobians(&mut self) {
        // The summary is a formatted line: made only when debug lines are written (it ran every
        // step for a model with compressed entries, RM3's PTO among them).
        if log::log_enabled!(log::Level::Debug) {
            if let Some(line) = self.integrator.jacobian_stats().and_then(|s| s.summary()) {
                log::debug!("{line}");
            }
        }
        if let Some(linear) = self.integrator.linear_stats() {
            log::debug!("{linear}");
        }
        let Some(report) = self.integrator.jacobian_report() else { return };
        if self.last_verify_time == Some(report.time) {
            return;
        }
        self.last_verify_time = Some(report.time);
        log::info!("{}", report.headline());
        for (above, line) in report.lines() {
            if above {
                log::warn!("{line}");
            } else {
                log::debug!("{line}");
            }
        }
    }

    /// Advances the system from `time` by `dt`, the callbacks around the step.
    pub(super) fn step(&mut self, time: f64, dt: f64) -> Result<(), Error> {
        for hook in &mut self.before_step {
            hook(&mut self.system, time);
        }
        self.system.step_at(self.integrator.as_mut(), time, dt).map_err(|source| Error::Step {
            integrator: self.integrator.name().to_string(),
            dt,
            time,
            source: Box::new(source),
        })?;
        self.log_jacobians();
        for hook in &mut self.after_step {
            hook(&mut self.system, time + dt);
        }
        Ok(())
    }

    /// The whole state now, bit for bit.
    pub(super) fn save(&self) -> Checkpoint {
        Checkpoint::save(&self.system, self.integrator.as_ref())
    }

    /// Puts `checkpoint` back.
    pub(super) fn restore(&mut self, checkpoint: &Checkpoint) -> Result<(), Error> {
        checkpoint.restore(&mut self.system, self.integrator.as_mut())
    }
}
