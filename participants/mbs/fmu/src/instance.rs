//! One FMU instance: its own model, integrator, variable values and mode (no global state), and
//! the work behind each fmi3 call as safe Rust returning a message on error.

use crate::setup::Source;
use crate::types::{Fmi3InstanceEnvironment, Fmi3LogMessageCallback, Fmi3Status};
use crate::variables::{set_coefficient, Kind, Variables, DEFAULT_TIME_STEP};
use nalgebra::{DMatrix, Matrix3, Point3, Vector3};
use std::ffi::CString;
use tidelink_mbs_solver::derivatives::rotation::left_jacobian;
use tidelink_mbs_solver::derivatives::{chain, StepTransition};
use tidelink_mbs_solver::{Bdf, BodySetState, Input, Integrator, IntegratorHistory, MultibodySystem, Output};

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
    last_step: Option<f64>,
    values: Vec<f64>,
    mode: Mode,
}

/// One instance.
pub struct Instance {
    /// Its name, for the logger.
    pub name: String,
    initial: MultibodySystem,
    system: MultibodySystem,
    /// The integrator as set up (reset restores it).
    fresh: Bdf,
    integrator: Bdf,
    /// The variable table.
    pub vars: Variables,
    /// Current values of inputs, parameters and the time step (outputs are computed).
    values: Vec<f64>,
    time: f64,
    /// The last communication step (what derivatives are of unless `derivative.step` says).
    last_step: Option<f64>,
    /// The mode.
    pub mode: Mode,
    logger: Fmi3LogMessageCallback,
    env: Fmi3InstanceEnvironment,
    /// Whether the importer wants messages of status OK.
    pub logging_on: bool,
}

impl Instance {
    /// Reads the model of `source` and sets up the instance.
    pub fn new(
        name: &str,
        source: &Source,
        logger: Fmi3LogMessageCallback,
        env: Fmi3InstanceEnvironment,
        logging_on: bool,
    ) -> Result<Self, String> {
        let mut setup = crate::setup::load(source)?;
        let vars = Variables::of(&mut setup);
        let values = vars.list.iter().map(|v| v.start).collect();
        let system = setup.system.clone();
        let instance = Instance {
            name: name.to_string(),
            initial: system.clone(),
            system,
            fresh: setup.integrator.clone(),
            integrator: setup.integrator,
            vars,
            values,
            time: 0.0,
            last_step: None,
            mode: Mode::Instantiated,
            logger,
            env,
            logging_on,
        };
        for note in &setup.notes {
            instance.log(Fmi3Status::Warning, "logStatusWarning", note);
        }
        Ok(instance)
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
        self.integrator = self.fresh.clone();
        self.values = self.vars.list.iter().map(|v| v.start).collect();
        self.time = 0.0;
        self.last_step = None;
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
            Kind::DerivativeStep => {
                if value < 0.0 {
                    return Err(format!("derivative.step = {value}: give a positive step, or 0 for the last one"));
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

    /// Puts the inputs into `system`'s accumulators at its current state.
    fn load_into(&self, system: &mut MultibodySystem) {
        apply_loads(&self.vars, &self.values, system);
    }

    fn time_step(&self) -> f64 {
        self.vars.list.iter().position(|v| v.kind == Kind::TimeStep).map_or(DEFAULT_TIME_STEP, |vr| self.values[vr])
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
        let (n, dt) = self.sub_steps(h);
        for i in 0..n {
            apply_loads(&self.vars, &self.values, &mut self.system);
            let at = t + dt * i as f64;
            self.system
                .step_at(&mut self.integrator, at, dt)
                .map_err(|e| format!("the step at t = {at} (of {dt} s) failed: {e}"))?;
        }
        self.time = t + h;
        self.last_step = Some(h);
        Ok(())
    }

    /// The sub-steps of a communication step `h`: `ceil(h / solver.time_step)` equal ones.
    fn sub_steps(&self, h: f64) -> (usize, f64) {
        let n = (h / self.time_step() * (1.0 - 1e-12)).ceil().max(1.0) as usize;
        (n, h / n as f64)
    }

    /// A checkpoint of the current state.
    pub fn checkpoint(&self) -> Checkpoint {
        Checkpoint {
            bodies: self.system.bodies.save_state(),
            history: self.integrator.save_history(),
            time: self.time,
            last_step: self.last_step,
            values: self.values.clone(),
            mode: self.mode,
        }
    }

    /// Restores `c` bit for bit (the parameters too).
    pub fn restore(&mut self, c: &Checkpoint) -> Result<(), String> {
        self.system.bodies.restore_state(&c.bodies).map_err(|e| format!("cannot restore the FMU state: {e}"))?;
        self.integrator.restore_history(&c.history);
        self.time = c.time;
        self.last_step = c.last_step;
        self.values.clone_from(&c.values);
        self.mode = c.mode;
        if self.mode == Mode::Step {
            self.apply_parameters()?;
        }
        Ok(())
    }

    /// The length of the interval the derivatives are of: `derivative.step`, or when it is 0 the
    /// last communication step (`solver.time_step` before the first).
    fn derivative_interval(&self) -> f64 {
        let set = self.vars.list.iter().position(|v| v.kind == Kind::DerivativeStep).map_or(0.0, |vr| self.values[vr]);
        if set > 0.0 {
            set
        } else {
            self.last_step.unwrap_or_else(|| self.time_step())
        }
    }

    /// The derivative of the outputs after an `fmi3DoStep` of [`Self::derivative_interval`]
    /// from the current state (its backward-Euler sub-steps chained, inputs held at their
    /// values), between `knowns` (inputs) and `unknowns` (outputs): a matrix unknowns × knowns.
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
        // The current loads, in the order of `inputs` (force, torque per body).
        let mut loads = vec![0.0; 6 * self.vars.bodies.len()];
        for v in &self.vars.list {
            if let Kind::Load { body, torque, axis } = v.kind {
                loads[6 * body + 3 * usize::from(torque) + axis] = self.values[v.vr as usize];
            }
        }
        let h = self.derivative_interval();
        let (n, dt) = self.sub_steps(h);
        let mut sys = self.system.clone();
        let mut steps = Vec::with_capacity(n);
        for i in 0..n {
            self.load_into(&mut sys);
            let at = self.time + dt * i as f64;
            let s = StepTransition::new(&sys, &self.integrator, at, dt, &inputs, &loads)
                .map_err(|e| format!("cannot differentiate the sub-step at t = {at}: {e}"))?;
            sys.bodies = s.end_state().clone();
            steps.push(s);
        }
        let full = chain(&steps, &sys.bodies, &outputs).map_err(|e| format!("cannot chain the sub-steps: {e}"))?;
        // Rotation rows: from world increments δθ to the rotation vector φ: dφ = J_l(φ)⁻¹ δθ.
        let mut rows = Vec::with_capacity(unknowns.len());
        for &u in unknowns {
            let v = self.vars.get(u).ok_or_else(|| self.unknown(u))?;
            let Kind::Motion { body, what, axis } = v.kind else {
                return Err(format!("{} is not an output: derivatives are of outputs", v.name));
            };
            let base = 12 * body + 3 * what;
            let row = if what == 1 {
                let end = sys.bodies.get(self.vars.bodies[body].1).ok_or("a body of the model is missing")?;
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

/// Puts the input values `values` of `vars` into `system`'s accumulators at its current state
/// (forces at the reference points, torques).
fn apply_loads(vars: &Variables, values: &[f64], system: &mut MultibodySystem) {
    system.bodies.clear_accumulators();
    for v in &vars.list {
        if let Kind::Load { body, torque, axis } = v.kind {
            let x = values[v.vr as usize];
            let Some(b) = system.bodies.get_mut(vars.bodies[body].1) else { continue };

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
