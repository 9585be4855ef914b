//! The MBS participant's adapter: coupling bodies on RIGID_BODY_REFS meshes (one vertex
//! per body, at its reference frame) and RIGID_BODY_POINTS meshes (the points of every
//! body with `points`, fixed in its reference frame), loads read into the bodies'
//! accumulators (replaced every window), the whole system (bodies, joints, force elements)
//! advanced by one integrator, motion written back, output per coupling body and bitwise
//! checkpoints of the system and the integrator's history. Added mass: a baseline in the
//! system's mass matrix ([`MbsAdapter::set_added_mass`]) and, on `SolidAddedMass...` meshes,
//! per-window increments from fluid participants ([`crate::added_mass_exchange`]).

use crate::added_mass::AddedMass;
use crate::added_mass_exchange::AddedMassExchange;
use crate::body_set::{BodyHandle, BodySet};
use crate::force_element::ForceElementSet;
use crate::hdf5_output::Hdf5Output;
use crate::integrator::Integrator;
use crate::model_yaml::Model;
use crate::output::{CsvOutput, Row};
use crate::solver_yaml::SolverSettings;
use crate::state::{BodySetState, IntegratorHistory};
use crate::system::MultibodySystem;
use nalgebra::{Point3, Vector3};
use std::path::PathBuf;
use tidelink_adapter_core::config::{is_fluid_added_mass, is_solid_added_mass};
use tidelink_adapter_core::spec::{DataType, MeshType, ParticipantFile};
use tidelink_adapter_core::{mesh, Adapter, AdapterError, AdapterResult, Coupling, VertexId};

/// A body of the model that takes part in the coupling, with its initial pose (the
/// reference of DISPLACEMENTS).
#[derive(Debug, Clone)]
pub struct CouplingBody {
    pub name: String,
    pub handle: BodyHandle,
    /// The coupling points in the body's reference frame (empty: the body is coupled
    /// through its reference frame on RIGID_BODY_REFS meshes).
    pub points: Vec<Vector3<f64>>,
}

/// One vertex of a coupling mesh: a point fixed in a coupling body's reference frame (its
/// origin on RIGID_BODY_REFS meshes) and where it was at the start.
#[derive(Debug, Clone)]
struct MeshVertex {
    body: usize,
    local: Vector3<f64>,
    initial: Vector3<f64>,
}

/// One coupling datum: its name, what it means and how many components it has.
#[derive(Debug, Clone)]
struct Datum {
    name: String,
    kind: DataType,
    components: usize,
}

/// One coupling mesh (RIGID_BODY_REFS or RIGID_BODY_POINTS) and what is exchanged on it.
#[derive(Debug, Clone)]
struct CouplingMesh {
    name: String,
    vertices: Vec<MeshVertex>,
    ids: Vec<VertexId>,
    dims: usize,
    writes: Vec<Datum>,
    reads: Vec<Datum>,
}

/// Where and how often the CSV series is written.
#[derive(Debug, Clone)]
pub struct OutputSettings {
    pub directory: PathBuf,
    /// Rows per second of coupled time; `None` writes one row per window.
    pub fps: Option<f64>,
    pub format: OutputFormat,
}

/// The file format of the body states (`output.format`; NONE is no [`OutputSettings`]).
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default)]
pub enum OutputFormat {
    /// One CSV file per coupling body.
    #[default]
    Csv,
    /// One `bodies.h5` file, one group per coupling body ([`crate::hdf5_output`]).
    Hdf5,
}

/// A callback run around every solver step with the system and the time (before the step:
/// its start; after: its end): it may add loads or change force-element coefficients.
pub type StepHook = Box<dyn FnMut(&mut MultibodySystem, f64) + Send>;

/// What a checkpoint holds: the whole system state, bit for bit, and the time.
#[derive(Debug, Clone)]
struct Checkpoint {
    bodies: BodySetState,
    forces: ForceElementSet,
    history: IntegratorHistory,
    time: f64,
}

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
    hdf5: Option<Hdf5Output>,
    time: f64,
    before_step: Vec<StepHook>,
    after_step: Vec<StepHook>,
    realtime: bool,
    clock: Option<std::time::Instant>,
    added_mass: AddedMassExchange,
}

/// One datum of an interface before it is checked, with where it was given.
struct DatumIn {
    name: String,
    kind: DataType,
    at: String,
}

const WRITABLE: &[DataType] = &[
    DataType::Positions,
    DataType::Rotations,
    DataType::Displacements,
    DataType::LinearVelocities,
    DataType::AngularVelocities,
];
const READABLE: &[DataType] = &[DataType::Forces, DataType::Torques];

fn is_rotational(kind: DataType) -> bool {
    matches!(kind, DataType::Rotations | DataType::AngularVelocities | DataType::Torques)
}

fn names(kinds: &[DataType]) -> String {
    kinds.iter().map(|k| k.as_str()).collect::<Vec<_>>().join(", ")
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
        a.realtime = file.simulation.enforce_realtime;
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
            integrator,
            time_step,
            coupled: Vec::new(),
            meshes: Vec::new(),
            checkpoint: None,
            output_settings: None,
            output: None,
            hdf5: None,
            time: 0.0,
            before_step: Vec::new(),
            after_step: Vec::new(),
            realtime: false,
            clock: None,
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

    /// Couples body `name` of the model: through its reference frame (`points: None`,
    /// RIGID_BODY_REFS meshes) or through points fixed in its reference frame
    /// (RIGID_BODY_POINTS meshes). Call before [`Self::add_interface`].
    pub fn add_coupling_body(&mut self, name: &str, points: Option<Vec<[f64; 3]>>) -> AdapterResult<()> {
        self.add_body_at("add_coupling_body", name, points)
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
        self.add_interface_at("add_interface", mesh_name, &mesh_type, list(write), list(read))
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
        self.realtime = on;
    }
    /// Where and how often output is written (`None`: none).
    pub fn set_output(&mut self, output: Option<OutputSettings>) {
        self.output_settings = output;
    }

    fn add_body_at(&mut self, at: &str, name: &str, points: Option<Vec<[f64; 3]>>) -> AdapterResult<()> {
        if !self.meshes.is_empty() {
            return Err(AdapterError::config(format!(
                "{at}: coupling body `{name}` added after an interface; add every coupling body first"
            )));
        }
        let Some(handle) = self.names.iter().find(|(n, _)| n == name).map(|(_, h)| *h) else {
            return Err(AdapterError::config(format!(
                "{at}: coupling body `{name}` is not a body of the model; the model's bodies are: {}",
                self.names.iter().map(|(n, _)| n.as_str()).collect::<Vec<_>>().join(", ")
            )));
        };
        if self.coupled.iter().any(|c| c.name == name) {
            return Err(AdapterError::config(format!("{at}: coupling body `{name}` is listed twice")));
        }
        self.system.bodies.get(handle).ok_or_else(|| AdapterError::solver(format!("no body `{name}`")))?;
        let points = match points {
            Some(list) if list.is_empty() => {
                return Err(AdapterError::config(format!(
                    "{at}: coupling body `{name}` has an empty `points` list; give at least one [x, y, z] \
                     or remove the key to couple the body through its reference frame"
                )))
            }
            Some(list) => list.into_iter().map(Vector3::from).collect(),
            None => Vec::new(),
        };
        self.coupled.push(CouplingBody { name: name.to_string(), handle, points });
        Ok(())
    }

    fn add_interface_at(
        &mut self,
        at: &str,
        mesh_name: &str,
        mesh_type: &MeshType,
        writes: Vec<DatumIn>,
        reads: Vec<DatumIn>,
    ) -> AdapterResult<()> {
        if is_solid_added_mass(mesh_name) || is_fluid_added_mass(mesh_name) {
            return Err(AdapterError::config(format!(
                "{at}: `{mesh_name}` is an added-mass mesh (named SolidAddedMass.../FluidAddedMass...); couple it with \
                 add_added_mass_mesh, not as an interface"
            )));
        }
        let points_mesh = match mesh_type {
            MeshType::RigidBodyRefs => false,
            MeshType::RigidBodyPoints => true,
            other => {
                return Err(AdapterError::Unsupported(format!(
                    "{at}: mesh `{mesh_name}` has mesh_type {}: not implemented yet (issue: MBS participant); \
                     use a RIGID_BODY_REFS mesh (one vertex per coupling body) or RIGID_BODY_POINTS",
                    other.as_str()
                )))
            }
        };
        if self.meshes.iter().any(|m| m.name == mesh_name) {
            return Err(AdapterError::config(format!("{at}: mesh `{mesh_name}` is listed twice")));
        }
        let mut vertices = Vec::new();
        for (i, c) in self.coupled.iter().enumerate() {
            if points_mesh == c.points.is_empty() {
                continue;
            }
            let pose = self.system.bodies.get(c.handle).map(|b| b.reference_pose()).unwrap_or_default();
            let origin = [Vector3::zeros()];
            let locals: &[Vector3<f64>] = if points_mesh { &c.points } else { &origin };
            vertices.extend(locals.iter().map(|p| MeshVertex {
                body: i,
                local: *p,
                initial: (pose * Point3::from(*p)).coords,
            }));
        }
        if vertices.is_empty() && points_mesh {
            return Err(AdapterError::config(format!(
                "{at}: RIGID_BODY_POINTS mesh `{mesh_name}` has no points: give the coupling bodies under \
                 precice_adapter_config.bodies a `points` list or file"
            )));
        }
        if vertices.is_empty() {
            return Err(AdapterError::config(format!(
                "{at}: RIGID_BODY_REFS mesh `{mesh_name}` has no bodies: list the coupling bodies under \
                 precice_adapter_config.bodies (bodies with `points` go on a RIGID_BODY_POINTS mesh)"
            )));
        }
        let datum = |d: DatumIn, allowed: &[DataType], verb: &str| {
            if points_mesh && is_rotational(d.kind) {
                Err(AdapterError::Unsupported(format!(
                    "{}: {} (`{}`) on RIGID_BODY_POINTS mesh `{mesh_name}`: rotational data exist only on \
                     RIGID_BODY_REFS meshes; exchange FORCES at the points (summed into a force and a \
                     moment about the COM) or move the datum to a RIGID_BODY_REFS mesh",
                    d.at,
                    d.kind.as_str(),
                    d.name
                )))
            } else if allowed.contains(&d.kind) {
                Ok(Datum { name: d.name, kind: d.kind, components: 0 })
            } else {
                Err(AdapterError::Unsupported(format!(
                    "{}: the MBS participant cannot {verb} {} (`{}`) on mesh `{mesh_name}`; it can {verb} {}",
                    d.at,
                    d.kind.as_str(),
                    d.name,
                    names(allowed)
                )))
            }
        };
        let writes = writes.into_iter().map(|d| datum(d, WRITABLE, "write")).collect::<AdapterResult<Vec<_>>>()?;
        let reads = reads.into_iter().map(|d| datum(d, READABLE, "read")).collect::<AdapterResult<Vec<_>>>()?;
        self.meshes.push(CouplingMesh {
            name: mesh_name.to_string(),
            vertices,
            ids: Vec::new(),
            dims: 0,
            writes,
            reads,
        });
        Ok(())
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
    /// The coupling bodies in the order of the participant file.
    pub fn coupling_bodies(&self) -> &[CouplingBody] {
        &self.coupled
    }
    /// The CSV files written (empty when output is off or before the run started).
    pub fn output_paths(&self) -> Vec<PathBuf> {
        let mut paths = self.output.as_ref().map(CsvOutput::paths).unwrap_or_default();
        paths.extend(self.hdf5.as_ref().map(|h| h.path().to_path_buf()));
        paths
    }

    /// Where vertex `v` is now (world).
    fn vertex_position(&self, v: &MeshVertex) -> Vector3<f64> {
        let Some(b) = self.system.bodies.get(self.coupled[v.body].handle) else { return v.initial };
        (b.reference_pose() * Point3::from(v.local)).coords
    }

    /// The value of `kind` at vertex `v`, in 3D.
    fn value(&self, v: &MeshVertex, kind: DataType) -> Vector3<f64> {
        let Some(b) = self.system.bodies.get(self.coupled[v.body].handle) else { return Vector3::zeros() };
        let at = self.vertex_position(v);
        match kind {
            DataType::Positions => at,
            DataType::Displacements => at - v.initial,
            DataType::Rotations => b.reference_orientation().scaled_axis(),
            DataType::LinearVelocities => b.point_velocity(&at),
            DataType::AngularVelocities => b.angvel(),
            _ => Vector3::zeros(),
        }
    }
}

/// The output row of body `b` at `time`: its reference frame's pose and velocity, the
/// angular velocity and the coupling load applied now.
fn row(time: f64, b: &crate::body::RigidBody) -> Row {
    Row {
        time,
        position: b.reference_position(),
        rotation: b.reference_orientation().scaled_axis(),
        linvel: b.reference_velocity(),
        angvel: b.angvel(),
        force: b.force(),
        torque: b.torque(),
    }
}

/// The `components` of `v` that a datum carries: all three, x and y (2D), or z alone
/// (a scalar rotational datum on a 2D mesh).
fn axes(components: usize, rotational: bool) -> &'static [usize] {
    match (components, rotational) {
        (1, true) => &[2],
        (2, _) => &[0, 1],
        _ => &[0, 1, 2],
    }
}

impl Adapter for MbsAdapter {
    fn name(&self) -> &str {
        &self.name
    }

    fn initialize_participant(&mut self, coupling: &mut dyn Coupling) -> AdapterResult<()> {
        let sys = &self.system;
        if !(sys.joints.is_empty() && sys.forces.is_empty()) && !self.integrator.handles_constraints() {
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
                self.set_added_mass(crate::added_mass_source::zero(&self.coupled)?)?;
            }
            let coupled: Vec<(String, BodyHandle)> = self.coupled.iter().map(|c| (c.name.clone(), c.handle)).collect();
            self.added_mass.register(coupling, &self.system, &coupled)?;
        }
        for mi in 0..self.meshes.len() {
            let mesh_name = self.meshes[mi].name.clone();
            let dims = coupling.get_mesh_dimensions(&mesh_name)?;
            let mesh = &mut self.meshes[mi];
            mesh.dims = dims;
            for d in mesh.writes.iter_mut().chain(mesh.reads.iter_mut()) {
                let n = coupling.get_data_dimensions(&mesh_name, &d.name)?;
                let ok = n == dims || (dims == 2 && n == 1 && is_rotational(d.kind));
                if !ok {
                    let hint = if dims == 2 && is_rotational(d.kind) {
                        " (on a 2D mesh, declare rotational data as <data:scalar>: its z component)"
                    } else {
                        " (declare it <data:vector>)"
                    };
                    return Err(AdapterError::config(format!(
                        "data `{}` ({}) on mesh `{mesh_name}` has {n} component(s), the {dims}D mesh needs {dims}{hint}",
                        d.name,
                        d.kind.as_str()
                    )));
                }
                d.components = n;
            }
            let vertices = mesh.vertices.clone();
            let positions: Vec<Vector3<f64>> = vertices.iter().map(|v| self.vertex_position(v)).collect();
            let mut coords = Vec::with_capacity(positions.len() * dims);
            for p in &positions {
                coords.extend_from_slice(&p.as_slice()[..dims]);
            }
            let mesh = &mut self.meshes[mi];
            mesh.ids = vec![0; mesh.vertices.len()];
            coupling.set_mesh_vertices(&mesh_name, &coords, &mut mesh.ids)?;
        }
        Ok(())
    }

    fn read_data(&mut self, coupling: &mut dyn Coupling, relative_read_time: f64) -> AdapterResult<()> {
        // Loads replace the previous window's: empty the accumulators once, then add.
        for c in &self.coupled {
            if let Some(b) = self.system.bodies.get_mut(c.handle) {
                b.clear_accumulators();
            }
        }
        for mesh in &self.meshes {
            for d in &mesh.reads {
                let mut values = vec![0.0; mesh.ids.len() * d.components];
                coupling.read_data(&mesh.name, &d.name, &mesh.ids, relative_read_time, &mut values)?;
                let comps = axes(d.components, is_rotational(d.kind));
                for (k, vertex) in mesh.vertices.iter().enumerate() {
                    let mut v = Vector3::zeros();
                    for (j, &c) in comps.iter().enumerate() {
                        v[c] = values[k * d.components + j];
                    }
                    let at = self.vertex_position(vertex);
                    let Some(b) = self.system.bodies.get_mut(self.coupled[vertex.body].handle) else { continue };
                    match d.kind {
                        DataType::Forces => b.add_force_at_point(v, &at),
                        DataType::Torques => b.add_torque(v),
                        _ => {}
                    }
                }
            }
        }
        // Same read time as the forces: a force and the added mass it was evaluated with
        // refer to the same instant.
        self.added_mass.read(coupling, relative_read_time, &mut self.system, self.time)?;
        Ok(())
    }

    fn write_data(&mut self, coupling: &mut dyn Coupling) -> AdapterResult<()> {
        for mesh in &self.meshes {
            for d in &mesh.writes {
                let comps = axes(d.components, is_rotational(d.kind));
                let mut values = Vec::with_capacity(mesh.ids.len() * d.components);
                for vertex in &mesh.vertices {
                    let v = self.value(vertex, d.kind);
                    values.extend(comps.iter().map(|&c| v[c]));
                }
                coupling.write_data(&mesh.name, &d.name, &mesh.ids, &values)?;
            }
        }
        Ok(())
    }

    fn advance(&mut self, dt: f64) -> AdapterResult<()> {
        for hook in &mut self.before_step {
            hook(&mut self.system, self.time);
        }
        self.system.step(self.integrator.as_mut(), dt).map_err(|e| {
            AdapterError::solver(format!(
                "the {} step of {dt} s at t = {} failed: {e}",
                self.integrator.name(),
                self.time
            ))
        })?;
        self.time += dt;
        for hook in &mut self.after_step {
            hook(&mut self.system, self.time);
        }
        Ok(())
    }

    fn own_time_step(&self) -> f64 {
        self.time_step
    }

    fn write_checkpoint(&mut self) -> AdapterResult<()> {
        self.checkpoint = Some(Checkpoint {
            bodies: self.system.bodies.save_state(),
            forces: self.system.forces.clone(),
            history: self.integrator.save_history(),
            time: self.time,
        });
        Ok(())
    }

    fn read_checkpoint(&mut self) -> AdapterResult<()> {
        let c = self
            .checkpoint
            .as_ref()
            .ok_or_else(|| AdapterError::solver("asked to restore a checkpoint that was never written"))?;
        self.system.bodies.restore_state(&c.bodies).map_err(|e| AdapterError::solver(e.to_string()))?;
        self.system.forces = c.forces.clone();
        self.integrator.restore_history(&c.history);
        self.time = c.time;
        Ok(())
    }

    fn write_output(&mut self, time: f64) -> AdapterResult<()> {
        // Called at t = 0 and at every window end: pace the windows to the wall clock.
        if self.realtime {
            let start = *self.clock.get_or_insert_with(std::time::Instant::now);
            let ahead = time - start.elapsed().as_secs_f64();
            if ahead > 0.0 {
                std::thread::sleep(std::time::Duration::from_secs_f64(ahead));
            }
        }
        if let Some(settings) = self.output_settings.take_if(|s| s.format == OutputFormat::Hdf5) {
            let names: Vec<&str> = self.coupled.iter().map(|c| c.name.as_str()).collect();
            self.hdf5 = Some(Hdf5Output::new(&settings.directory.join("bodies.h5"), &names, settings.fps));
        }
        if let Some(h) = self.hdf5.as_mut() {
            if h.due(time) {
                for (i, c) in self.coupled.iter().enumerate() {
                    let Some(b) = self.system.bodies.get(c.handle) else { continue };
                    h.push(i, row(time, b));
                }
            }
            return Ok(());
        }
        if self.output.is_none() {
            let Some(settings) = self.output_settings.take() else { return Ok(()) };
            let names: Vec<&str> = self.coupled.iter().map(|c| c.name.as_str()).collect();
            let out = CsvOutput::create(&settings.directory, &names, settings.fps).map_err(|e| {
                AdapterError::io(format!("creating the output files in {}", settings.directory.display()), e)
            })?;
            self.output = Some(out);
        }
        let Some(out) = self.output.as_mut() else { return Ok(()) };
        if !out.due(time) {
            return Ok(());
        }
        for (i, c) in self.coupled.iter().enumerate() {
            let Some(b) = self.system.bodies.get(c.handle) else { continue };
            out.write(i, &row(time, b))
                .map_err(|e| AdapterError::io(format!("writing the output of body `{}`", c.name), e))?;
        }
        Ok(())
    }

    fn finish(&mut self) -> AdapterResult<()> {
        if let Some(h) = self.hdf5.as_mut() {
            h.flush().map_err(|e| {
                AdapterError::io(format!("writing {}", h.path().display()), std::io::Error::other(e.to_string()))
            })?;
            log::info!("output written to {}", h.path().display());
        }
        if let Some(out) = self.output.as_mut() {
            out.flush().map_err(|e| AdapterError::io("flushing the output files", e))?;
            for p in out.paths() {
                log::info!("output written to {}", p.display());
            }
        }
        Ok(())
    }
}
