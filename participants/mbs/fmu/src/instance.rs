//! One FMU instance: its own model, integrator, variable values and mode (no global state), and
//! the work behind each fmi3 call as safe Rust returning a message on error.

use crate::types::{Fmi3InstanceEnvironment, Fmi3LogMessageCallback, Fmi3Status};
use crate::variables::{set_coefficient, Kind, Variables};
use nalgebra::{DMatrix, Matrix3, Point3, Vector3};
use std::ffi::CString;
use std::path::Path;
use tidelink_mbs_solver::derivatives::rotation::left_jacobian;
use tidelink_mbs_solver::{
    Bdf, BodySetState, Input, Integrator, IntegratorHistory, MultibodySystem, Output, StepDerivative,
};

/// Gravity of the FMU's model (m/s²): the model file has none of its own; a run reads it from
/// the participant file, whose default this is.
pub const GRAVITY: [f64; 3] = [0.0, 0.0, -9.81];

/// The FMI state machine, as far as co-simulation needs it.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Mode {
    /// After instantiation or reset: parameters and start values may be set.
    Instantiated,
    /// Between fmi3EnterInitializationMode and fmi3ExitInitializationMode.
    Initialization,
    /// Stepping.
    Step,
    /// After fmi3Terminate.
    Terminated,
    /// After an error or a caught panic: only reset or free.
    Failed,
}

/// A checkpoint (`fmi3FMUState`): everything a step depends on, restored bit for bit.
#[derive(Debug, Clone)]
pub struct Checkpoint {
    bodies: BodySetState,
    history: IntegratorHistory,
    time: f64,
    values: Vec<f64>,
    mode: Mode,
}

/// One instance.
pub struct Instance {
    /// Its name, for the logger.
    pub name: String,
    initial: MultibodySystem,
    system: MultibodySystem,
    integrator: Bdf,
    /// The variable table.
    pub vars: Variables,
    /// Current values of inputs, parameters and the time step (outputs are computed).
    values: Vec<f64>,
    time: f64,
    /// The mode.
    pub mode: Mode,
    logger: Fmi3LogMessageCallback,
    env: Fmi3InstanceEnvironment,
    /// Whether the importer wants messages of status OK.
    pub logging_on: bool,
}

impl Instance {
    /// Reads the model file `model` and sets up the instance.
    pub fn new(
        name: &str,
        model: &Path,
        logger: Fmi3LogMessageCallback,
        env: Fmi3InstanceEnvironment,
        logging_on: bool,
    ) -> Result<Self, String> {
        let (mut parsed, _warnings) = tidelink_mbs::io::model_yaml::load(model, Vector3::from(GRAVITY))
            .map_err(|d| format!("cannot read the model file {}: {d}", model.display()))?;
        let vars = Variables::new(&mut parsed);
        if vars.bodies.is_empty() {
            return Err(format!("the model file {} has no free body: nothing to simulate", model.display()));
        }
        let system = MultibodySystem::from_parts(parsed.bodies, parsed.joints, parsed.forces);
        let values = vars.list.iter().map(|v| v.start).collect();
        Ok(Instance {
            name: name.to_string(),
            initial: system.clone(),
            system,
            integrator: Bdf::backward_euler(),
            vars,
            values,
            time: 0.0,
            mode: Mode::Instantiated,
            logger,
            env,
            logging_on,
        })
    }

    /// Sends `message` to the importer's logger (status OK only if logging is on).
    pub fn log(&self, status: Fmi3Status, category: &str, message: &str) {
        if status == Fmi3Status::Ok && !self.logging_on {
            return;
        }
        // SAFETY: the importer's callback and environment, valid while the instance lives.
        unsafe { log_to(self.logger, self.env, status, category, &format!("{}: {message}", self.name)) };
    }

    /// Back to the state after instantiation.
    pub fn reset(&mut self) {
        self.system = self.initial.clone();
        self.integrator = Bdf::backward_euler();
        self.values = self.vars.list.iter().map(|v| v.start).collect();
        self.time = 0.0;
        self.mode = Mode::Instantiated;
    }

    /// fmi3EnterInitializationMode.
    pub fn enter_initialization(&mut self, start: f64) -> Result<(), String> {
        self.expect(&[Mode::Instantiated], "fmi3EnterInitializationMode")?;
        if !start.is_finite() {
            return Err(format!("the start time {start} is not finite"));
        }
        self.time = start;
        self.integrator.restore_history(&IntegratorHistory { time: start, ..Default::default() });
        self.mode = Mode::Initialization;
        Ok(())
    }

    /// fmi3ExitInitializationMode: the parameters take effect.
    pub fn exit_initialization(&mut self) -> Result<(), String> {
        self.expect(&[Mode::Initialization], "fmi3ExitInitializationMode")?;
        self.apply_parameters()?;
        self.mode = Mode::Step;
        Ok(())
    }

    fn expect(&self, modes: &[Mode], call: &str) -> Result<(), String> {
        if modes.contains(&self.mode) {
            Ok(())
        } else {
            Err(format!("{call} is not allowed in mode {:?} (allowed: {modes:?})", self.mode))
        }
    }

    fn apply_parameters(&mut self) -> Result<(), String> {
        for v in &self.vars.list {
            if let Kind::Parameter(p) = v.kind {
                let c = &self.vars.parameters[p];
                if !set_coefficient(&mut self.system.forces, c, self.values[v.vr as usize]) {
                    return Err(format!("the force element `{}` of parameter {} is missing", c.element, v.name));
                }
            }
        }
        Ok(())
    }

    /// The value of `vr`.
    pub fn get(&self, vr: u32) -> Result<f64, String> {
        let v = self.vars.get(vr).ok_or_else(|| self.unknown(vr))?;
        Ok(match v.kind {
            Kind::Time => self.time,
            Kind::Motion { body, what, axis } => {
                let b = self.system.bodies.get(self.vars.bodies[body].1).ok_or("a body of the model is missing")?;
                let q = match what {
                    0 => b.reference_position(),
                    1 => b.reference_orientation().scaled_axis(),
                    2 => b.reference_velocity(),
                    _ => b.angvel(),
                };
                q[axis]
            }
            _ => self.values[vr as usize],
        })
    }

    fn unknown(&self, vr: u32) -> String {
        format!("unknown value reference {vr} (this FMU has 0..{})", self.vars.list.len())
    }

    /// Sets `vr` to `value`: inputs in any mode but terminated; parameters and the time step
    /// before stepping, parameters (tunable) also between steps.
    pub fn set(&mut self, vr: u32, value: f64) -> Result<(), String> {
        let v = self.vars.get(vr).ok_or_else(|| self.unknown(vr))?;
        if !value.is_finite() {
            return Err(format!("{} = {value}: values must be finite", v.name));
        }
        if self.mode == Mode::Terminated || self.mode == Mode::Failed {
            return Err(format!("cannot set {} in mode {:?}", v.name, self.mode));
        }
        match v.kind {
            Kind::Time | Kind::Motion { .. } => {
                return Err(format!("{} is not settable (an output or the time)", v.name))
            }
            Kind::Load { .. } => {}
            Kind::TimeStep => {
                self.expect(&[Mode::Instantiated, Mode::Initialization], "setting solver.time_step")?;
                if value <= 0.0 {
                    return Err(format!("solver.time_step = {value}: the step must be positive"));
                }
            }
            Kind::Parameter(p) => {
                if self.mode == Mode::Step {
                    let c = self.vars.parameters[p].clone();
                    set_coefficient(&mut self.system.forces, &c, value);
                }
            }
        }
        self.values[vr as usize] = value;
        Ok(())
    }

    /// Puts the inputs into the bodies' accumulators at the current state.
    fn load(&mut self) {
        self.system.bodies.clear_accumulators();
        for v in &self.vars.list {
            if let Kind::Load { body, torque, axis } = v.kind {
                let x = self.values[v.vr as usize];
                let Some(b) = self.system.bodies.get_mut(self.vars.bodies[body].1) else { continue };
                let mut f = Vector3::zeros();
                f[axis] = x;
                if torque {
                    b.add_torque(f);
                } else {
                    let p = b.reference_position();
                    b.add_force_at_point(f, &p);
                }
            }
        }
    }

    fn time_step(&self) -> f64 {
        let vr = self.vars.list.iter().position(|v| v.kind == Kind::TimeStep).expect("the table has a time step");
        self.values[vr]
    }

    /// fmi3DoStep: `ceil(H / time_step)` equal backward-Euler sub-steps with the inputs held.
    pub fn do_step(&mut self, t: f64, h: f64) -> Result<(), String> {
        self.expect(&[Mode::Step], "fmi3DoStep")?;
        if !(h > 0.0 && h.is_finite()) {
            return Err(format!("the communication step {h} must be positive"));
        }
        // A master's time may differ from ours by round-off; more is its mistake.
        if (t - self.time).abs() > 1e-9 * (1.0 + t.abs()) {
            return Err(format!("fmi3DoStep at t = {t}, but the FMU is at t = {}", self.time));
        }
        let n = (h / self.time_step() * (1.0 - 1e-12)).ceil().max(1.0) as usize;
        let dt = h / n as f64;
        for i in 0..n {
            self.load();
            let at = t + dt * i as f64;
            self.system
                .step_at(&mut self.integrator, at, dt)
                .map_err(|e| format!("the step at t = {at} (of {dt} s) failed: {e}"))?;
        }
        self.time = t + h;
        Ok(())
    }

    /// A checkpoint of the current state.
    pub fn checkpoint(&self) -> Checkpoint {
        Checkpoint {
            bodies: self.system.bodies.save_state(),
            history: self.integrator.save_history(),
            time: self.time,
            values: self.values.clone(),
            mode: self.mode,
        }
    }

    /// Restores `c` bit for bit (the parameters too).
    pub fn restore(&mut self, c: &Checkpoint) -> Result<(), String> {
        self.system.bodies.restore_state(&c.bodies).map_err(|e| format!("cannot restore the FMU state: {e}"))?;
        self.integrator.restore_history(&c.history);
        self.time = c.time;
        self.values.clone_from(&c.values);
        self.mode = c.mode;
        if self.mode == Mode::Step {
            self.apply_parameters()?;
        }
        Ok(())
    }

    /// The derivative of one backward-Euler step of `solver.time_step` from the current state,
    /// inputs held at their values, between `knowns` (inputs) and `unknowns` (outputs):
    /// a matrix unknowns × knowns.
    pub fn derivative(&mut self, unknowns: &[u32], knowns: &[u32]) -> Result<DMatrix<f64>, String> {
        self.expect(&[Mode::Step, Mode::Initialization], "a derivative")?;
        let mut inputs = Vec::new();
        let mut outputs = Vec::new();
        let origin = Point3::origin();
        for &(_, body) in &self.vars.bodies {
            inputs.extend([Input::Force { body, point: origin }, Input::Torque { body }]);
            outputs.extend([
                Output::Position { body, point: origin },
                Output::Rotation { body },
                Output::Velocity { body, point: origin },
                Output::AngularVelocity { body },
            ]);
        }
        self.load();
        let d = StepDerivative::new(&self.system, &self.integrator, self.time, self.time_step(), &inputs, &outputs)
            .map_err(|e| format!("cannot differentiate the step: {e}"))?;
        let full = d.matrix();
        // Rotation rows: from world increments δθ to the rotation vector φ: dφ = J_l(φ)⁻¹ δθ.
        let mut rows = Vec::with_capacity(unknowns.len());
        for &u in unknowns {
            let v = self.vars.get(u).ok_or_else(|| self.unknown(u))?;
            let Kind::Motion { body, what, axis } = v.kind else {
                return Err(format!("{} is not an output: derivatives are of outputs", v.name));
            };
            let base = 12 * body + 3 * what;
            let row = if what == 1 {
                let end = d.end_state().get(self.vars.bodies[body].1).ok_or("a body of the model is missing")?;
                let phi = end.reference_orientation().scaled_axis();
                let inv: Matrix3<f64> =
                    left_jacobian(&phi).try_inverse().ok_or("the rotation vector is at π: no derivative")?;
                let block = full.rows(base, 3);
                (inv.row(axis) * block).transpose()
            } else {
                full.row(base + axis).transpose()
            };
            rows.push(row);
        }
        let mut cols = Vec::with_capacity(knowns.len());
        for &k in knowns {
            let v = self.vars.get(k).ok_or_else(|| self.unknown(k))?;
            let Kind::Load { body, torque, axis } = v.kind else {
                return Err(format!("{} is not an input: derivatives are with respect to inputs", v.name));
            };
            cols.push(6 * body + 3 * usize::from(torque) + axis);
        }
        Ok(DMatrix::from_fn(unknowns.len(), knowns.len(), |i, j| rows[i][cols[j]]))
    }
}

/// Sends one message through `logger` (nothing if the importer gave none).
///
/// # Safety
/// `logger` and `env` as the importer gave them to an instantiate function, still valid.
pub unsafe fn log_to(
    logger: Fmi3LogMessageCallback,
    env: Fmi3InstanceEnvironment,
    status: Fmi3Status,
    category: &str,
    msg: &str,
) {
    let Some(f) = logger else { return };
    let clean = |s: &str| CString::new(s.replace('\0', " ")).expect("no NUL left");
    let (c, m) = (clean(category), clean(msg));
    // SAFETY: the importer gave this callback for this environment; the strings live across the call.
    unsafe { f(env, status, c.as_ptr(), m.as_ptr()) };
}
