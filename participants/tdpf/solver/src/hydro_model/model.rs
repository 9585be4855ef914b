//! [`HydroModel`]: hydrostatics + radiation + excitation of N bodies, evaluated once per fixed step.

use super::error::HydroError;
use super::excitation_set::ExcitationSet;
use super::options::HydroOptions;
use super::radiation_set::{Identifier, Radiation, RadiationChoice};
use super::state::{BodyLoad, BodyState};
use crate::hydrostatics;
use crate::radiation::RadiationState;
use nalgebra::{Matrix6, Vector3, Vector6};
use tidelink_hydro_data::HydroData;

/// Relative tolerance (of dt) on the state time of an evaluation.
const TIME_TOLERANCE: f64 = 1e-6;

/// Linear hydrostatics of one body: `F = f0 − K (q − q_eq)`, from [`hydrostatics::hydrostatic_force`].
#[derive(Debug, Clone)]
struct Hydrostatic {
    cg: Vector3<f64>,
    at_equilibrium: Vector6<f64>,
    stiffness: Matrix6<f64>,
}

/// The total linear hydrodynamic load on the model's bodies (see the module docs for the
/// conventions and the state-time rule).
#[derive(Debug, Clone)]
pub struct HydroModel {
    dt: f64,
    body_to_body: bool,
    hydrostatics: Vec<Hydrostatic>,
    radiation: Radiation,
    radiation_choice: RadiationChoice,
    excitation: ExcitationSet,
    /// Scratch for the 6N velocity and force vectors.
    v: Vec<f64>,
    f: Vec<f64>,
}

impl HydroModel {
    /// Builds the model of the first `options.bodies` bodies of `data`, identifying the radiation
    /// realisations (when the method asks for them) with [`crate::radiation::identify`].
    pub fn new(data: &HydroData, options: &HydroOptions) -> Result<Self, HydroError> {
        Self::with_identifier(data, options, &mut crate::radiation::identify)
    }

    /// As [`HydroModel::new`], with the identified realisations from `identify` (e.g. a cache of
    /// earlier identifications that gives the same bits): the same model for the same answers.
    pub fn with_identifier(
        data: &HydroData,
        options: &HydroOptions,
        identify: Identifier<'_>,
    ) -> Result<Self, HydroError> {
        let n = options.bodies;
        if n == 0 {
            return Err(HydroError::NoBodies);
        }
        if data.bodies.len() < n {
            return Err(HydroError::TooFewBodies { ours: n, in_file: data.bodies.len() });
        }
        let bodies = &data.bodies[..n];
        let hydrostatics = bodies
            .iter()
            .map(|b| {
                let f0 = hydrostatics::hydrostatic_force(data, b, &Vector6::zeros(), options.gravity);
                let mut stiffness = Matrix6::zeros();
                for j in 0..6 {
                    let unit = Vector6::from_fn(|i, _| if i == j { 1.0 } else { 0.0 });
                    let fj = hydrostatics::hydrostatic_force(data, b, &unit, options.gravity);
                    stiffness.set_column(j, &(f0 - fj));
                }
                Hydrostatic { cg: b.cg, at_equilibrium: f0, stiffness }
            })
            .collect();
        let (radiation, radiation_choice) =
            Radiation::new(bodies, options.dt, options.radiation, options.body_to_body, identify)?;
        let excitation = ExcitationSet::new(data, n, &options.waves)?;
        Ok(HydroModel {
            dt: options.dt,
            body_to_body: options.body_to_body,
            hydrostatics,
            radiation,
            radiation_choice,
            excitation,
            v: vec![0.0; 6 * n],
            f: vec![0.0; 6 * n],
        })
    }

    /// Which radiation model was built (and, for a fallback to the convolution, why).
    pub fn radiation_choice(&self) -> &RadiationChoice {
        &self.radiation_choice
    }

    /// Number of bodies N.
    pub fn bodies(&self) -> usize {
        self.hydrostatics.len()
    }

    /// The fixed step of the radiation history (s).
    pub fn dt(&self) -> f64 {
        self.dt
    }

    /// Whether radiation couples the bodies (see the module docs).
    pub fn body_to_body(&self) -> bool {
        self.body_to_body
    }

    /// The file's CG of body `b` (the equilibrium position), if it exists.
    pub fn cg(&self, b: usize) -> Option<Vector3<f64>> {
        self.hydrostatics.get(b).map(|h| h.cg)
    }

    /// Number of evaluations recorded so far.
    pub fn evaluations(&self) -> usize {
        self.radiation.model().pushes()
    }

    /// The only time the next [`HydroModel::evaluate`] accepts: `evaluations() · dt`.
    pub fn next_time(&self) -> f64 {
        self.evaluations() as f64 * self.dt
    }

    /// Loads of `states` at `t`, recording their velocities as the history sample `v(t)`. `t` must be
    /// [`HydroModel::next_time`] (to 1e-6 dt); otherwise [`HydroError::StateTime`] and nothing changes.
    pub fn evaluate(&mut self, t: f64, states: &[BodyState]) -> Result<Vec<BodyLoad>, HydroError> {
        self.check(t, states)?;
        self.fill_velocities(states);
        self.radiation.model_mut().push(&self.v)?;
        self.radiation.model().force(&mut self.f)?;
        Ok(self.assemble(t, states, &self.f))
    }

    /// The model's memory now (the radiation history; everything else is a function of the
    /// state time): what a checkpoint of an implicit coupling window saves.
    pub fn save_state(&self) -> RadiationState {
        self.radiation.model().save_state()
    }

    /// Puts back a memory saved by [`HydroModel::save_state`]: the next evaluation is at the
    /// saved time again and gives, bit for bit, the loads it gave after the save.
    pub fn restore_state(&mut self, state: &RadiationState) -> Result<(), HydroError> {
        Ok(self.radiation.model_mut().restore_state(state)?)
    }

    /// As [`HydroModel::evaluate`] without recording anything: the loads the next evaluation would
    /// give for `states` (used for a participant's initial data). Costs a copy of the history.
    pub fn peek(&self, t: f64, states: &[BodyState]) -> Result<Vec<BodyLoad>, HydroError> {
        let mut copy = self.clone();
        copy.evaluate(t, states)
    }

    fn check(&self, t: f64, states: &[BodyState]) -> Result<(), HydroError> {
        if states.len() != self.bodies() {
            return Err(HydroError::StateCount { got: states.len(), expected: self.bodies() });
        }
        if let Some(body) = states.iter().position(|s| !s.is_finite()) {
            return Err(HydroError::NonFiniteState { body });
        }
        let expected = self.next_time();
        let on_time = (t - expected).abs() <= TIME_TOLERANCE * self.dt;
        if !on_time {
            return Err(HydroError::StateTime { t, expected, dt: self.dt });
        }
        Ok(())
    }

    fn fill_velocities(&mut self, states: &[BodyState]) {
        for (b, s) in states.iter().enumerate() {
            self.v[6 * b..6 * b + 6].copy_from_slice(s.velocity6().as_slice());
        }
    }

    fn assemble(&self, t: f64, states: &[BodyState], radiation: &[f64]) -> Vec<BodyLoad> {
        states
            .iter()
            .zip(&self.hydrostatics)
            .enumerate()
            .map(|(b, (s, h))| {
                let d = s.position - h.cg;
                let q = Vector6::new(d.x, d.y, d.z, s.rotation.x, s.rotation.y, s.rotation.z);
                BodyLoad {
                    hydrostatic: h.at_equilibrium - h.stiffness * q,
                    radiation: Vector6::from_column_slice(&radiation[6 * b..6 * b + 6]),
                    excitation: self.excitation.force(b, t),
                }
            })
            .collect()
    }
}
