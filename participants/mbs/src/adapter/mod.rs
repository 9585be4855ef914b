//! The MBS participant's adapter: coupling bodies on RIGID_BODY_REFS meshes (one vertex
//! per body, at its reference frame) and RIGID_BODY_POINTS meshes (the points of every
//! body with `points`, fixed in its reference frame), loads read into the bodies'
//! accumulators (replaced every window), the whole system (bodies, joints, force elements)
//! advanced by one integrator, motion written back, output per coupling body and bitwise
//! checkpoints of the system and the integrator's history. Added mass: a baseline in the
//! system's mass matrix ([`MbsAdapter::set_added_mass`]) and, on `SolidAddedMass...` meshes,
//! per-window increments from fluid participants ([`crate::added_mass::exchange`]).

mod checkpoint;
mod exchange;
mod interfaces;
mod modules;
mod pacing;
mod sinks;

pub use crate::coupling_body::CouplingBody;
pub use sinks::{OutputFormat, OutputSettings};

use crate::added_mass::exchange::AddedMassExchange;
use crate::io::hdf5_output::Hdf5Output;
use crate::io::output::CsvOutput;
use crate::io::solver_yaml::SolverSettings;
use checkpoint::Checkpoint;
use interfaces::{CouplingMesh, DatumIn};
use pacing::Pacer;
use tidelink_adapter_core::config::{is_fluid_added_mass, is_solid_added_mass};
use tidelink_adapter_core::spec::ParticipantFile;
use tidelink_adapter_core::{mesh, Adapter, AdapterError, AdapterResult, CouplingData};
use tidelink_mbs_solver::added_mass::AddedMass;
use tidelink_mbs_solver::dynamics::body_set::{BodyHandle, BodySet};
use tidelink_mbs_solver::solver::integrator::Integrator;
use tidelink_mbs_solver::system::MultibodySystem;
use tidelink_mbs_solver::Model;

/// A callback run around every solver step with the system and the time (before the step:
/// its start; after: its end): it may add loads or change force-element coefficients.
pub type StepHook = Box<dyn FnMut(&mut MultibodySystem, f64) + Send>;

/// The rigid-body solver behind the `Adapter` trait.
///
/// Built from the participant's files ([`MbsAdapter::new`]) or in code from a model
/// ([`MbsAdapter::from_system`], then [`MbsAdapter::add_coupling_body`] for every coupling
/// body and [`MbsAdapter::add_interface`] for every mesh, in that order).
pub struct MbsAdapter {
    name: String,
    system: MultibodySystem,
    names: Vec<(String, BodyHandle)>,
    integrator: Box<dyn Integrator>,
    time_step: f64,
    coupled: Vec<CouplingBody>,
    meshes: Vec<CouplingMesh>,
    checkpoint: Option<Checkpoint>,
    output_settings: Option<OutputSettings>,
    output: Option<CsvOutput>,
    links: Option<crate::io::link_output::LinkCsv>,
    hdf5: Option<Hdf5Output>,
    scene: Option<crate::io::scene::Scene>,
    /// The model's shapes, drawn in the ParaView scene.
    shapes: Vec<tidelink_mbs_solver::geometry::shape::BodyShape>,
    before_step: Vec<StepHook>,
    after_step: Vec<StepHook>,
    pacer: Pacer,
    added_mass: AddedMassExchange,
}

impl MbsAdapter {
    /// Matches the coupling bodies of `file` with the model's bodies and checks the
    /// interfaces, so every configuration error comes out before any connection is made.
    pub fn new(
        file: &ParticipantFile,
        model: Model,
        solver: &SolverSettings,
        output: Option<OutputSettings>,
    ) -> AdapterResult<Self> {
        let cfg = &file.adapter;
        let integrator = solver.make_integrator();
        log::info!(
            "integrator: {} (solver file: {:?}), time step {} s",
            integrator.name(),
            solver.integrator,
            solver.time_step
        );
        let mut a = MbsAdapter::from_system(cfg.participant_name.clone(), model, integrator, solver.time_step);
        a.output_settings = output;
        a.pacer.realtime = file.simulation.enforce_realtime;
        for b in &cfg.bodies {
            let points = match &b.points {
                None => None,
                Some(spec) => Some(mesh::load_points(spec, |n| file.data_file(n)).map_err(|e| {
                    AdapterError::config(format!("{}: the points of coupling body `{}`: {e}", b.loc, b.name))
                })?),
            };
            a.add_body_at(&b.loc.to_string(), &b.name, points)?;
        }
        for iface in &cfg.interfaces {
            if is_solid_added_mass(&iface.mesh_name) || is_fluid_added_mass(&iface.mesh_name) {
                log::info!(
                    "{}: added-mass mesh `{}` is set up from the preCICE XML, not from this interfaces entry",
                    iface.loc,
                    iface.mesh_name
                );
                continue;
            }
            let list = |ds: &[tidelink_adapter_core::spec::DataSpec]| {
                ds.iter()
                    .map(|d| DatumIn { name: d.name.clone(), kind: d.data_type, at: d.loc.to_string() })
                    .collect::<Vec<_>>()
            };
            a.add_interface_at(
                &iface.loc.to_string(),
                &iface.mesh_name,
                &iface.mesh_type,
                list(&iface.write_data),
                list(&iface.read_data),
            )?;
        }
        Ok(a)
    }

    /// An adapter around a model built in code (no coupling bodies or meshes yet, no
    /// output, no real-time pacing).
    pub fn from_system(
        participant_name: impl Into<String>,
        model: Model,
        integrator: Box<dyn Integrator>,
        time_step: f64,
    ) -> Self {
        MbsAdapter {
            name: participant_name.into(),
            system: MultibodySystem::from_parts(model.bodies, model.joints, model.forces),
            names: model.names,
            shapes: model.shapes,
            integrator,
            time_step,
            coupled: Vec::new(),
            meshes: Vec::new(),
            checkpoint: None,
            output_settings: None,
            output: None,
            links: None,
            hdf5: None,
            scene: None,
            before_step: Vec::new(),
            after_step: Vec::new(),
            pacer: Pacer::default(),
            added_mass: AddedMassExchange::default(),
        }
    }

    /// Puts `added_mass` (hydrodynamic bodies in their own order, e.g. the coupling bodies')
    /// in the mass matrix, refused now if `M + A` is not positive definite; with added-mass
    /// meshes it is the baseline the received increments are added to.
    pub fn set_added_mass(&mut self, added_mass: AddedMass) -> AdapterResult<()> {
        self.system.set_added_mass(added_mass).map_err(|e| AdapterError::config(e.to_string()))
    }

    /// Couples `SolidAddedMass...` mesh `mesh_name` (provided by this participant): its
    /// `36·Nb` vertices are registered at start-up and, with `data`, one sender's increments
    /// of the coupling bodies' self blocks are read on it every window. Call after the
    /// coupling bodies are added; without a baseline, zero coefficients are used.
    pub fn add_added_mass_mesh(&mut self, mesh_name: &str, data: Option<&str>) -> AdapterResult<()> {
        if !is_solid_added_mass(mesh_name) {
            return Err(AdapterError::config(format!(
                "mesh `{mesh_name}` is not an added-mass mesh: the Solid reads added mass on meshes whose names start                  with SolidAddedMass"
            )));
        }
        if self.coupled.is_empty() {
            return Err(AdapterError::config(format!(
                "added-mass mesh `{mesh_name}` added before any coupling body; add the coupling bodies first"
            )));
        }
        self.added_mass.add(mesh_name, data)
    }

    /// Runs `hook(bodies, t)` before every solver step (t: the step's start).
    pub fn on_before_step(&mut self, hook: StepHook) {
        self.before_step.push(hook);
    }

    /// Runs `hook(bodies, t)` after every solver step (t: the step's end).
    pub fn on_after_step(&mut self, hook: StepHook) {
        self.after_step.push(hook);
    }

    /// Paces every coupling window to the wall clock (`simulation.enforce_realtime`).
    pub fn set_enforce_realtime(&mut self, on: bool) {
        self.pacer.realtime = on;
    }

    /// Where and how often output is written (`None`: none).
    pub fn set_output(&mut self, output: Option<OutputSettings>) {
        self.output_settings = output;
    }

    /// The bodies, as the solver has them now.
    pub fn bodies(&self) -> &BodySet {
        &self.system.bodies
    }

    /// The whole system (bodies, joints, force elements).
    pub fn system(&self) -> &MultibodySystem {
        &self.system
    }

    /// The system for changes between runs or windows (coefficients, loads).
    pub fn system_mut(&mut self) -> &mut MultibodySystem {
        &mut self.system
    }

    /// Starts the external modules of the model's links (spawn, connect, initialize with the
    /// solver's time step). A run spawns them when it registers its meshes
    /// ([`Self::launch_external_modules`]), so they start up while the coupling connects, and
    /// completes this before its first output, so that their errors come before the first step.
    pub fn start_external_modules(&mut self) -> AdapterResult<()> {
        let dt = self.time_step;
        self.each_module("starting the external module", |m| m.start(dt))
    }

    /// Spawns the external modules' processes without waiting for them.
    pub fn launch_external_modules(&mut self) -> AdapterResult<()> {
        let dt = self.time_step;
        self.each_module("starting the external module", |m| m.launch(dt))
    }

    /// The coupling bodies in the order of the participant file.
    pub fn coupling_bodies(&self) -> &[CouplingBody] {
        &self.coupled
    }
}

impl Adapter for MbsAdapter {
    fn name(&self) -> &str {
        &self.name
    }

    fn initialize_participant(&mut self, coupling: &mut dyn CouplingData) -> AdapterResult<()> {
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
        if !self.added_mass.is_empty() {
            if self.system.added_mass.is_none() {
                self.set_added_mass(crate::added_mass::source::zero(&self.coupled)?)?;
            }
            let coupled: Vec<(String, BodyHandle)> = self.coupled.iter().map(|c| (c.name.clone(), c.handle)).collect();
            self.added_mass.register(coupling, &self.system, &coupled)?;
        }
        self.register_meshes(coupling)?;
        self.launch_external_modules()
    }

    fn read_data(&mut self, coupling: &mut dyn CouplingData, time: f64, relative_read_time: f64) -> AdapterResult<()> {
        self.read_loads(coupling, time, relative_read_time)
    }

    fn write_data(&mut self, coupling: &mut dyn CouplingData) -> AdapterResult<()> {
        self.write_motion(coupling)
    }

    fn advance(&mut self, time: f64, dt: f64) -> AdapterResult<()> {
        for hook in &mut self.before_step {
            hook(&mut self.system, time);
        }
        self.system.step_at(self.integrator.as_mut(), time, dt).map_err(|e| {
            AdapterError::solver(format!("the {} step of {dt} s at t = {} failed: {e}", self.integrator.name(), time))
        })?;
        for hook in &mut self.after_step {
            hook(&mut self.system, time + dt);
        }
        Ok(())
    }

    fn own_time_step(&self) -> f64 {
        self.time_step
    }

    fn can_checkpoint(&self) -> bool {
        true
    }

    fn write_checkpoint(&mut self) -> AdapterResult<()> {
        self.checkpoint = Some(Checkpoint::save(&self.system, self.integrator.as_ref()));
        Ok(())
    }

    fn read_checkpoint(&mut self) -> AdapterResult<()> {
        let c = self
            .checkpoint
            .as_ref()
            .ok_or_else(|| AdapterError::solver("asked to restore a checkpoint that was never written"))?;
        c.restore(&mut self.system, self.integrator.as_mut())?;
        self.each_module("rolling back the external module", |m| m.rollback())
    }

    fn write_output(&mut self, time: f64) -> AdapterResult<()> {
        // Called at t = 0 and at every window end: pace the windows to the wall clock.
        self.pacer.pace(time);
        // Once started (the first output, at t = 0) this is a check per module.
        self.start_external_modules()?;
        self.each_module("committing the external module", |m| m.commit())?;
        self.write_rows(time)
    }

    fn finish(&mut self) -> AdapterResult<()> {
        self.each_module("shutting down the external module", |m| m.shutdown())?;
        self.flush_outputs()
    }
}
