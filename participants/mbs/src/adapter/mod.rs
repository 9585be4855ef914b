//! The MBS participant's adapter: coupling bodies on RIGID_BODY_REFS meshes (one vertex
//! per body, at its reference frame) and RIGID_BODY_POINTS meshes (the points of every
//! body with `points`, fixed in its reference frame), loads read into the bodies'
//! accumulators (replaced every window), the whole system (bodies, joints, force elements)
//! advanced by one integrator, motion written back, output per coupling body and bitwise
//! checkpoints of the system and the integrator's history. Added mass: a baseline in the
//! system's mass matrix ([`MbsAdapter::set_added_mass`]) and, on `SolidAddedMass...` meshes,
//! per-window increments from fluid participants ([`crate::added_mass::exchange`]).
//!
//! The adapter is a composition: the system and its integrator (`stepper`), the coupling side
//! (`interfaces`: coupling bodies, meshes, added-mass meshes), the outputs (`sinks`), the
//! external modules in the system's links (`modules`), real-time pacing and the checkpoint.

mod checkpoint;
mod interfaces;
mod mesh;
mod modules;
mod pacing;
mod sinks;
mod stepper;

pub use crate::coupling_body::CouplingBody;
pub use sinks::{OutputFormat, OutputSettings, SinkError};
pub use stepper::StepHook;

use crate::io::solver_yaml::SolverSettings;
use checkpoint::Checkpoint;
use interfaces::Interfaces;
use mesh::DatumIn;
use modules::each_module;
use pacing::Pacer;
use sinks::Sinks;
use stepper::Stepper;
use tidelink_adapter_core::spec::{DataType, MeshType, ParticipantFile};
use tidelink_adapter_core::{Adapter, AdapterResult, CouplingData};
use tidelink_mbs_solver::added_mass::AddedMass;
use tidelink_mbs_solver::dynamics::body_set::BodySet;
use tidelink_mbs_solver::solver::integrator::Integrator;
use tidelink_mbs_solver::system::MultibodySystem;
use tidelink_mbs_solver::Model;

/// The rigid-body solver behind the `Adapter` trait.
///
/// Built from the participant's files ([`MbsAdapter::new`]) or in code from a model
/// ([`MbsAdapter::from_system`], then [`MbsAdapter::add_coupling_body`] for every coupling
/// body and [`MbsAdapter::add_interface`] for every mesh, in that order).
pub struct MbsAdapter {
    name: String,
    stepper: Stepper,
    interfaces: Interfaces,
    sinks: Sinks,
    pacer: Pacer,
    checkpoint: Option<Checkpoint>,
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
        a.sinks.set(output);
        a.pacer.realtime = file.simulation.enforce_realtime;
        a.interfaces.add_from_file(file, &a.stepper.system.bodies)?;
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
        let system = MultibodySystem::from_parts(model.bodies, model.joints, model.forces);
        let bodies = model.names.iter().map(|(_, h)| *h).collect();
        MbsAdapter {
            name: participant_name.into(),
            stepper: Stepper::new(system, integrator, time_step),
            interfaces: Interfaces::new(model.names),
            sinks: Sinks::new(model.shapes, bodies),
            pacer: Pacer::default(),
            checkpoint: None,
        }
    }

    /// Puts `added_mass` (hydrodynamic bodies in their own order, e.g. the coupling bodies')
    /// in the mass matrix, refused now if `M + A` is not positive definite; with added-mass
    /// meshes it is the baseline the received increments are added to.
    pub fn set_added_mass(&mut self, added_mass: AddedMass) -> AdapterResult<()> {
        self.stepper.system.set_added_mass(added_mass).map_err(|e| crate::added_mass::SetupError::Refused(e).into())
    }

    /// Couples `SolidAddedMass...` mesh `mesh_name` (provided by this participant): its
    /// `36·Nb` vertices are registered at start-up and, with `data`, one sender's increments
    /// of the coupling bodies' self blocks are read on it every window. Call after the
    /// coupling bodies are added; without a baseline, zero coefficients are used.
    pub fn add_added_mass_mesh(&mut self, mesh_name: &str, data: Option<&str>) -> AdapterResult<()> {
        self.interfaces.add_added_mass_mesh(mesh_name, data)
    }

    /// Couples body `name` of the model: through its reference frame (`points: None`,
    /// RIGID_BODY_REFS meshes) or through points fixed in its reference frame
    /// (RIGID_BODY_POINTS meshes). Call before [`Self::add_interface`].
    pub fn add_coupling_body(&mut self, name: &str, points: Option<Vec<[f64; 3]>>) -> AdapterResult<()> {
        self.interfaces.add_body("add_coupling_body", name, points, &self.stepper.system.bodies)
    }

    /// Adds a coupling mesh of the participant's preCICE configuration with the data written
    /// and read on it (preCICE name, meaning).
    pub fn add_interface(
        &mut self,
        mesh_name: &str,
        mesh_type: MeshType,
        write: &[(&str, DataType)],
        read: &[(&str, DataType)],
    ) -> AdapterResult<()> {
        let list = |ds: &[(&str, DataType)]| {
            ds.iter()
                .map(|(n, k)| DatumIn { name: n.to_string(), kind: *k, at: format!("add_interface(`{mesh_name}`)") })
                .collect::<Vec<_>>()
        };
        let bodies = &self.stepper.system.bodies;
        self.interfaces.add_mesh("add_interface", mesh_name, &mesh_type, list(write), list(read), bodies)
    }

    /// Runs `hook(bodies, t)` before every solver step (t: the step's start).
    pub fn on_before_step(&mut self, hook: StepHook) {
        self.stepper.add_hook(hook, false);
    }

    /// Runs `hook(bodies, t)` after every solver step (t: the step's end).
    pub fn on_after_step(&mut self, hook: StepHook) {
        self.stepper.add_hook(hook, true);
    }

    /// Paces every coupling window to the wall clock (`simulation.enforce_realtime`).
    pub fn set_enforce_realtime(&mut self, on: bool) {
        self.pacer.realtime = on;
    }

    /// Where and how often output is written (`None`: none).
    pub fn set_output(&mut self, output: Option<OutputSettings>) {
        self.sinks.set(output);
    }

    /// Replaces the integrator (one built with settings the solver file has no key for, e.g.
    /// HHT's general path as a benchmark's baseline); call it before the first step.
    pub fn set_integrator(&mut self, integrator: Box<dyn Integrator>) {
        self.stepper.set_integrator(integrator);
    }

    /// The bodies, as the solver has them now.
    pub fn bodies(&self) -> &BodySet {
        &self.stepper.system.bodies
    }

    /// The whole system (bodies, joints, force elements).
    pub fn system(&self) -> &MultibodySystem {
        &self.stepper.system
    }

    /// The system for changes between runs or windows (coefficients, loads).
    pub fn system_mut(&mut self) -> &mut MultibodySystem {
        &mut self.stepper.system
    }

    /// Starts the external modules of the model's links (spawn, connect, initialize with the
    /// solver's time step). A run spawns them when it registers its meshes
    /// ([`Self::launch_external_modules`]), so they start up while the coupling connects, and
    /// completes this before its first output, so that their errors come before the first step.
    pub fn start_external_modules(&mut self) -> AdapterResult<()> {
        let dt = self.stepper.time_step;
        Ok(each_module(&mut self.stepper.system, "starting the external module", |m| m.start(dt))?)
    }

    /// Spawns the external modules' processes without waiting for them.
    pub fn launch_external_modules(&mut self) -> AdapterResult<()> {
        let dt = self.stepper.time_step;
        Ok(each_module(&mut self.stepper.system, "starting the external module", |m| m.launch(dt))?)
    }

    /// The coupling bodies in the order of the participant file.
    pub fn coupling_bodies(&self) -> &[CouplingBody] {
        self.interfaces.coupled()
    }

    /// The body-state files written (CSV per body or the HDF5 file; empty when output is off
    /// or before the run started); `links.csv` is [`Self::links_path`].
    pub fn output_paths(&self) -> Vec<std::path::PathBuf> {
        self.sinks.paths()
    }

    /// The links' absorbed-power file, if written.
    pub fn links_path(&self) -> Option<std::path::PathBuf> {
        self.sinks.links_path()
    }

    /// The names of the links (TSDAs, RSDAs, with or without an external module) and their
    /// absorbed power `−F·v` now (W).
    pub fn link_powers(&self) -> (Vec<String>, Vec<f64>) {
        sinks::link_powers(&self.stepper.system)
    }
}

impl Adapter for MbsAdapter {
    fn name(&self) -> &str {
        &self.name
    }

    fn initialize_participant(&mut self, coupling: &mut dyn CouplingData) -> AdapterResult<()> {
        self.stepper.check()?;
        self.interfaces.register(coupling, &mut self.stepper.system)?;
        self.launch_external_modules()
    }

    fn read_data(&mut self, coupling: &mut dyn CouplingData, time: f64, relative_read_time: f64) -> AdapterResult<()> {
        self.interfaces.read(coupling, &mut self.stepper.system, time, relative_read_time)
    }

    fn write_data(&mut self, coupling: &mut dyn CouplingData) -> AdapterResult<()> {
        self.interfaces.write(coupling, &self.stepper.system.bodies)
    }

    fn advance(&mut self, time: f64, dt: f64) -> AdapterResult<()> {
        Ok(self.stepper.step(time, dt)?)
    }

    fn own_time_step(&self) -> f64 {
        self.stepper.time_step
    }

    fn can_checkpoint(&self) -> bool {
        true
    }

    fn write_checkpoint(&mut self) -> AdapterResult<()> {
        self.checkpoint = Some(self.stepper.save());
        Ok(())
    }

    fn read_checkpoint(&mut self) -> AdapterResult<()> {
        let c = self.checkpoint.as_ref().ok_or(crate::error::Error::NoCheckpoint)?;
        self.stepper.restore(c)?;
        Ok(each_module(&mut self.stepper.system, "rolling back the external module", |m| m.rollback())?)
    }

    fn write_output(&mut self, time: f64) -> AdapterResult<()> {
        // Called at t = 0 and at every window end: pace the windows to the wall clock.
        self.pacer.pace(time);
        // Once started (the first output, at t = 0) this is a check per module.
        self.start_external_modules()?;
        each_module(&mut self.stepper.system, "committing the external module", |m| m.commit())?;
        Ok(self.sinks.write(time, &self.stepper.system, self.interfaces.coupled())?)
    }

    fn finish(&mut self) -> AdapterResult<()> {
        each_module(&mut self.stepper.system, "shutting down the external module", |m| m.shutdown())?;
        Ok(self.sinks.finish()?)
    }
}
