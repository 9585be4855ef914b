//! What an FMU instance simulates, read as `tidelink-mbs` reads it: a model file alone (every
//! free body coupled, gravity `[0, 0, −9.81]`, the default step), or a participant file with
//! its preCICE configuration (the coupling bodies, the participant's gravity, the solver file's
//! step and Newton settings, `mass: equilibrium` and the added mass of its `added_mass` entry).

use crate::instance::GRAVITY;
use crate::variables::DEFAULT_TIME_STEP;
use nalgebra::Vector3;
use std::path::{Path, PathBuf};
use tidelink_mbs::io::solver_yaml::{self, IntegratorKind};
use tidelink_mbs_solver::{Bdf, BodyHandle, MultibodySystem};

/// Where a model comes from.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum Source {
    /// A model file (the `model:` format).
    Model(PathBuf),
    /// A participant file of type MBS and the preCICE configuration it runs with.
    Participant {
        /// The participant file.
        participant: PathBuf,
        /// Its preCICE configuration (it decides whether the added mass is on).
        config: PathBuf,
    },
}

/// A model ready to step: the system, the bodies the FMU's inputs and outputs are on, the
/// integrator (backward Euler with the solver file's Newton settings) and its step.
#[derive(Clone)]
pub struct Setup {
    /// The model's name (the model file's `name`, or the participant's).
    pub name: String,
    /// Bodies, joints, force elements, added mass.
    pub system: MultibodySystem,
    /// Bodies with inputs and outputs, by name, in order.
    pub bodies: Vec<(String, BodyHandle)>,
    /// Backward Euler (`Bdf` of order 1).
    pub integrator: Bdf,
    /// The largest sub-step (s).
    pub time_step: f64,
    /// What the FMU does differently from a `tidelink-mbs` run of the same files.
    pub notes: Vec<String>,
}

/// Reads `source` as `tidelink-mbs` would.
pub fn load(source: &Source) -> Result<Setup, String> {
    match source {
        Source::Model(path) => from_model(path),
        Source::Participant { participant, config } => from_participant(participant, config),
    }
}

fn from_model(model: &Path) -> Result<Setup, String> {
    let (parsed, _warnings) = tidelink_mbs::io::model_yaml::load(model, Vector3::from(GRAVITY))
        .map_err(|d| format!("cannot read the model file {}: {d}", model.display()))?;
    let bodies: Vec<(String, BodyHandle)> =
        parsed.names.iter().filter(|(_, h)| parsed.bodies.get(*h).is_some_and(|b| !b.is_fixed())).cloned().collect();
    if bodies.is_empty() {
        return Err(format!("the model file {} has no free body: nothing to simulate", model.display()));
    }
    let name = parsed.name.clone().unwrap_or_else(|| "tidelink_mbs".into());
    let system = MultibodySystem::from_parts(parsed.bodies, parsed.joints, parsed.forces);
    Ok(Setup {
        name,
        system,
        bodies,
        integrator: Bdf::backward_euler(),
        time_step: DEFAULT_TIME_STEP,
        notes: Vec::new(),
    })
}

fn from_participant(participant: &Path, config: &Path) -> Result<Setup, String> {
    let (adapter, file) = tidelink_mbs::participant::build(participant, config)
        .map_err(|e| format!("cannot build the MBS participant {}: {e:#}", participant.display()))?;
    let bodies: Vec<(String, BodyHandle)> =
        adapter.coupling_bodies().iter().map(|c| (c.name.clone(), c.handle)).collect();
    if bodies.is_empty() {
        return Err(format!("the participant file {} couples no body", participant.display()));
    }
    if let Some(c) = adapter.coupling_bodies().iter().find(|c| !c.points.is_empty()) {
        return Err(format!(
            "{}: body `{}` is coupled through a mesh of points; the FMU takes loads at the bodies' reference \
             points only (RIGID_BODY_REFS meshes)",
            participant.display(),
            c.name
        ));
    }
    let solver_name = file.solver.as_deref().ok_or("the participant file has no solver file")?;
    let (settings, _) = solver_yaml::load(&file.dir().join(solver_name))
        .map_err(|d| format!("cannot read the solver file {solver_name}: {d}"))?;
    let mut notes = Vec::new();
    if !matches!(settings.integrator, IntegratorKind::EulerImplicit | IntegratorKind::Bdf(1)) {
        notes.push(format!(
            "the solver file selects {:?}; the FMU steps backward Euler (BDF order 1) with its time_step and Newton \
             settings, the integrator its derivatives are exact for",
            settings.integrator
        ));
    }
    let mut integrator = Bdf::backward_euler();
    integrator.max_iterations = settings.max_iterations.max(1);
    integrator.abs_tolerance = settings.abs_tolerance;
    integrator.jacobian = settings.jacobian;
    integrator.linear_solver = settings.linear_solver;
    Ok(Setup {
        name: file.adapter.participant_name.clone(),
        system: adapter.system().clone(),
        bodies,
        integrator,
        time_step: settings.time_step,
        notes,
    })
}

/// Whether `path` reads as a participant file (a YAML mapping with `precice_adapter_config` or
/// `type`) rather than a model file; false when it cannot be read (the model reader says why).
pub fn looks_like_participant(path: &Path) -> bool {
    let Ok(text) = std::fs::read_to_string(path) else { return false };
    let Ok(serde_yaml::Value::Mapping(m)) = serde_yaml::from_str::<serde_yaml::Value>(&text) else { return false };
    m.contains_key("precice_adapter_config") || m.contains_key("type")
}
