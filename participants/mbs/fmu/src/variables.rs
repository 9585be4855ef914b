//! The FMU's variables and their value references, derived from the model: one block of inputs
//! (force and torque at the reference point) and outputs (reference point position, rotation
//! vector, velocity, angular velocity) per free body, then the force elements' coefficients as
//! tunable parameters, then the integrator's step. The same table writes `modelDescription.xml`.

use tidelink_mbs_solver::{BodyHandle, ForceElementSet, Rsda, Tsda};

/// What a variable is, and where its value lives.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Kind {
    /// The independent variable `time`.
    Time,
    /// Input channel `axis` (0..3) of a force (`torque == false`) or torque on free body `body`.
    Load {
        /// Index into the free bodies.
        body: usize,
        /// A torque rather than a force.
        torque: bool,
        /// World axis.
        axis: usize,
    },
    /// Output channel `axis` of quantity `what` (0 position, 1 rotation vector, 2 velocity,
    /// 3 angular velocity) of free body `body`.
    Motion {
        /// Index into the free bodies.
        body: usize,
        /// Which quantity.
        what: usize,
        /// World axis.
        axis: usize,
    },
    /// A force element's coefficient: `parameter` indexes [`Variables::parameters`].
    Parameter(usize),
    /// The integrator's largest sub-step (s).
    TimeStep,
    /// The communication step the derivatives are of (s; 0: the last one).
    DerivativeStep,
}

/// One variable of the model description.
#[derive(Debug, Clone)]
pub struct Variable {
    /// Its name (`float.fz`, `pto.damping`).
    pub name: String,
    /// Its value reference (its index in [`Variables::list`]).
    pub vr: u32,
    /// What it is.
    pub kind: Kind,
    /// Its start value.
    pub start: f64,
    /// One line for the model description.
    pub description: String,
}

/// A coefficient of a spring-damper: which element and which field.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Coefficient {
    /// The element's name in the model file.
    pub element: String,
    /// A rotational element (RSDA) rather than a translational one (TSDA).
    pub rotational: bool,
    /// `damping` rather than `stiffness`.
    pub damping: bool,
}

/// All variables, by value reference.
#[derive(Debug, Clone)]
pub struct Variables {
    /// Index = value reference.
    pub list: Vec<Variable>,
    /// The free bodies, with their names, in model file order.
    pub bodies: Vec<(String, BodyHandle)>,
    /// The coefficients behind [`Kind::Parameter`].
    pub parameters: Vec<Coefficient>,
    /// A group number per body of [`Self::bodies`]: a body's outputs depend on the inputs of
    /// the bodies of its group only ([`crate::dependencies`]).
    pub groups: Vec<usize>,
}

const AXES: [&str; 3] = ["x", "y", "z"];
/// Output quantities: name prefix and description.
pub const MOTIONS: [(&str, &str); 4] = [
    ("", "position of the reference point (m, world)"),
    ("r", "rotation vector of the reference frame (rad, world)"),
    ("v", "velocity of the reference point (m/s, world)"),
    ("w", "angular velocity (rad/s, world)"),
];

/// The default largest integrator sub-step (s) when no solver file says.
pub const DEFAULT_TIME_STEP: f64 = 0.01;

impl Variables {
    /// The table of a model with inputs and outputs on `bodies` (in order), its parameters
    /// read from the TSDAs and RSDAs of `forces`, and `time_step` the default sub-step.
    pub fn new(bodies: Vec<(String, BodyHandle)>, forces: &mut ForceElementSet, time_step: f64) -> Self {
        let mut list = Vec::new();
        let mut push = |name: String, kind: Kind, start: f64, description: String| {
            let vr = list.len() as u32;
            list.push(Variable { name, vr, kind, start, description });
        };
        push("time".into(), Kind::Time, 0.0, "simulation time (s)".into());
        for (i, (name, _)) in bodies.iter().enumerate() {
            for torque in [false, true] {
                for (axis, a) in AXES.iter().enumerate() {
                    let (p, what) = if torque {
                        ("t", "torque (N m, world)")
                    } else {
                        ("f", "force at the reference point (N, world)")
                    };
                    push(
                        format!("{name}.{p}{a}"),
                        Kind::Load { body: i, torque, axis },
                        0.0,
                        format!("{what}, held over each step"),
                    );
                }
            }
        }
        for (i, (name, _)) in bodies.iter().enumerate() {
            for (what, (p, d)) in MOTIONS.iter().enumerate() {
                for (axis, a) in AXES.iter().enumerate() {
                    push(format!("{name}.{p}{a}"), Kind::Motion { body: i, what, axis }, 0.0, d.to_string());
                }
            }
        }
        let names: Vec<String> = forces.iter().map(|e| e.name().to_string()).collect();
        let mut parameters = Vec::new();
        for name in names {
            let coefficients = if let Some(t) = forces.find_mut::<Tsda>(&name) {
                Some((false, t.stiffness, t.damping))
            } else {
                forces.find_mut::<Rsda>(&name).map(|r| (true, r.stiffness, r.damping))
            };
            let Some((rotational, k, c)) = coefficients else { continue };
            let unit = if rotational { ("N m/rad", "N m s/rad") } else { ("N/m", "N s/m") };
            for (damping, value) in [(false, k), (true, c)] {
                let field = if damping { "damping" } else { "stiffness" };
                let u = if damping { unit.1 } else { unit.0 };
                push(
                    format!("{name}.{field}"),
                    Kind::Parameter(parameters.len()),
                    value,
                    format!("{field} coefficient of `{name}` ({u})"),
                );
                parameters.push(Coefficient { element: name.clone(), rotational, damping });
            }
        }
        push(
            "solver.time_step".into(),
            Kind::TimeStep,
            time_step,
            "largest backward-Euler sub-step of fmi3DoStep (s)".into(),
        );
        push(
            "derivative.step".into(),
            Kind::DerivativeStep,
            0.0,
            "communication step the directional and adjoint derivatives are of (s); 0: the last fmi3DoStep's \
             (solver.time_step before the first)"
                .into(),
        );
        let groups = vec![0; bodies.len()];
        Variables { list, bodies, parameters, groups }
    }

    /// The table of `setup`, with its bodies' dependency groups.
    pub fn of(setup: &mut crate::setup::Setup) -> Self {
        let mut v = Self::new(setup.bodies.clone(), &mut setup.system.forces, setup.time_step);
        v.groups = crate::dependencies::groups(&setup.system, &setup.bodies);
        v
    }

    /// Whether output `output` may depend on input `input` (both value references of this
    /// table): their bodies are in one group.
    pub fn depends(&self, output: &Variable, input: &Variable) -> bool {
        match (output.kind, input.kind) {
            (Kind::Motion { body: a, .. }, Kind::Load { body: b, .. }) => self.groups[a] == self.groups[b],
            _ => false,
        }
    }

    /// The variable of value reference `vr`.
    pub fn get(&self, vr: u32) -> Option<&Variable> {
        self.list.get(vr as usize)
    }
    /// Input value references, in order.
    pub fn inputs(&self) -> impl Iterator<Item = &Variable> {
        self.list.iter().filter(|v| matches!(v.kind, Kind::Load { .. }))
    }
    /// Output value references, in order.
    pub fn outputs(&self) -> impl Iterator<Item = &Variable> {
        self.list.iter().filter(|v| matches!(v.kind, Kind::Motion { .. }))
    }
}

/// Sets coefficient `c` of `model`'s force elements to `value`; false if the element is gone.
pub fn set_coefficient(forces: &mut tidelink_mbs_solver::ForceElementSet, c: &Coefficient, value: f64) -> bool {
    if c.rotational {
        forces
            .find_mut::<Rsda>(&c.element)
            .map(|r| if c.damping { r.damping = value } else { r.stiffness = value })
            .is_some()
    } else {
        forces
            .find_mut::<Tsda>(&c.element)
            .map(|t| if c.damping { t.damping = value } else { t.stiffness = value })
            .is_some()
    }
}
