//! The MBS participant's adapter: coupling bodies on RIGID_BODY_REFS meshes (one vertex
//! per body, at its reference frame) and RIGID_BODY_POINTS meshes (the points of every
//! body with `points`, fixed in its reference frame), loads read into the bodies'
//! accumulators (replaced every window), motion written back, CSV output per coupling body
//! and bitwise checkpoints.

use crate::body_set::{BodyHandle, BodySet};
use crate::integrator::Integrator;
use crate::model_yaml::Model;
use crate::output::{CsvOutput, Row};
use crate::solver_yaml::SolverSettings;
use crate::state::BodySetState;
use nalgebra::{Point3, Vector3};
use std::path::PathBuf;
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
}

/// The rigid-body solver behind the `Adapter` trait.
pub struct MbsAdapter {
    name: String,
    bodies: BodySet,
    integrator: Box<dyn Integrator>,
    time_step: f64,
    coupled: Vec<CouplingBody>,
    meshes: Vec<CouplingMesh>,
    checkpoint: Option<(BodySetState, f64)>,
    output_settings: Option<OutputSettings>,
    output: Option<CsvOutput>,
    time: f64,
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
        let mut coupled = Vec::new();
        let mut with_points = Vec::new();
        for b in &cfg.bodies {
            let Some(handle) = model.handle(&b.name) else {
                return Err(AdapterError::config(format!(
                    "{}: coupling body `{}` is not a body of the model; the model's bodies are: {}",
                    b.loc,
                    b.name,
                    model.body_names().join(", ")
                )));
            };
            if coupled.iter().any(|c: &CouplingBody| c.name == b.name) {
                return Err(AdapterError::config(format!("{}: coupling body `{}` is listed twice", b.loc, b.name)));
            }
            model.bodies.get(handle).ok_or_else(|| AdapterError::solver(format!("no body `{}`", b.name)))?;
            let mut points = Vec::new();
            if let Some(spec) = &b.points {
                let list = mesh::load_points(spec, |n| file.data_file(n)).map_err(|e| {
                    AdapterError::config(format!("{}: the points of coupling body `{}`: {e}", b.loc, b.name))
                })?;
                if list.is_empty() {
                    return Err(AdapterError::config(format!(
                        "{}: coupling body `{}` has an empty `points` list; give at least one [x, y, z] \
                         or remove the key to couple the body through its reference frame",
                        b.loc, b.name
                    )));
                }
                points = list.into_iter().map(Vector3::from).collect();
                with_points.push(coupled.len());
            }
            coupled.push(CouplingBody { name: b.name.clone(), handle, points });
        }
        let initial = |c: &CouplingBody, local: &Vector3<f64>| {
            model.bodies.get(c.handle).map(|b| (b.reference_pose() * Point3::from(*local)).coords).unwrap_or_default()
        };
        let mut meshes = Vec::new();
        for iface in &cfg.interfaces {
            let points_mesh = match &iface.mesh_type {
                MeshType::RigidBodyRefs => false,
                MeshType::RigidBodyPoints => true,
                other => {
                    return Err(AdapterError::Unsupported(format!(
                        "{}: mesh `{}` has mesh_type {}: not implemented yet (issue: MBS participant); \
                         use a RIGID_BODY_REFS mesh (one vertex per coupling body)",
                        iface.loc,
                        iface.mesh_name,
                        other.as_str()
                    )))
                }
            };
            let mut vertices = Vec::new();
            for (i, c) in coupled.iter().enumerate() {
                if points_mesh != with_points.contains(&i) {
                    continue;
                }
                if points_mesh {
                    vertices.extend(c.points.iter().map(|p| MeshVertex { body: i, local: *p, initial: initial(c, p) }));
                } else {
                    let origin = Vector3::zeros();
                    vertices.push(MeshVertex { body: i, local: origin, initial: initial(c, &origin) });
                }
            }
            if vertices.is_empty() && points_mesh {
                return Err(AdapterError::config(format!(
                    "{}: RIGID_BODY_POINTS mesh `{}` has no points: give the coupling bodies under \
                     precice_adapter_config.bodies a `points` list or file",
                    iface.loc, iface.mesh_name
                )));
            }
            if vertices.is_empty() {
                return Err(AdapterError::config(format!(
                    "{}: RIGID_BODY_REFS mesh `{}` has no bodies: list the coupling bodies under \
                     precice_adapter_config.bodies (bodies with `points` go on a RIGID_BODY_POINTS mesh)",
                    iface.loc, iface.mesh_name
                )));
            }
            let datum = |d: &tidelink_adapter_core::spec::DataSpec, allowed: &[DataType], verb: &str| {
                if points_mesh && is_rotational(d.data_type) {
                    Err(AdapterError::Unsupported(format!(
                        "{}: {} (`{}`) on RIGID_BODY_POINTS mesh `{}`: rotational data exist only on \
                         RIGID_BODY_REFS meshes; exchange FORCES at the points (summed into a force and a \
                         moment about the COM) or move the datum to a RIGID_BODY_REFS mesh",
                        d.loc,
                        d.data_type.as_str(),
                        d.name,
                        iface.mesh_name
                    )))
                } else if allowed.contains(&d.data_type) {
                    Ok(Datum { name: d.name.clone(), kind: d.data_type, components: 0 })
                } else {
                    Err(AdapterError::Unsupported(format!(
                        "{}: the MBS participant cannot {verb} {} (`{}`) on mesh `{}`; it can {verb} {}",
                        d.loc,
                        d.data_type.as_str(),
                        d.name,
                        iface.mesh_name,
                        names(allowed)
                    )))
                }
            };
            let writes =
                iface.write_data.iter().map(|d| datum(d, WRITABLE, "write")).collect::<AdapterResult<Vec<_>>>()?;
            let reads =
                iface.read_data.iter().map(|d| datum(d, READABLE, "read")).collect::<AdapterResult<Vec<_>>>()?;
            meshes.push(CouplingMesh {
                name: iface.mesh_name.clone(),
                vertices,
                ids: Vec::new(),
                dims: 0,
                writes,
                reads,
            });
        }
        let integrator = solver.make_integrator();
        log::info!(
            "integrator: {} (solver file: {:?}), time step {} s",
            integrator.name(),
            solver.integrator,
            solver.time_step
        );
        Ok(MbsAdapter {
            name: cfg.participant_name.clone(),
            bodies: model.bodies,
            integrator,
            time_step: solver.time_step,
            coupled,
            meshes,
            checkpoint: None,
            output_settings: output,
            output: None,
            time: 0.0,
        })
    }

    /// The bodies, as the solver has them now.
    pub fn bodies(&self) -> &BodySet {
        &self.bodies
    }
    /// The coupling bodies in the order of the participant file.
    pub fn coupling_bodies(&self) -> &[CouplingBody] {
        &self.coupled
    }
    /// The CSV files written (empty when output is off or before the run started).
    pub fn output_paths(&self) -> Vec<PathBuf> {
        self.output.as_ref().map(CsvOutput::paths).unwrap_or_default()
    }

    /// Where vertex `v` is now (world).
    fn vertex_position(&self, v: &MeshVertex) -> Vector3<f64> {
        let Some(b) = self.bodies.get(self.coupled[v.body].handle) else { return v.initial };
        (b.reference_pose() * Point3::from(v.local)).coords
    }

    /// The value of `kind` at vertex `v`, in 3D.
    fn value(&self, v: &MeshVertex, kind: DataType) -> Vector3<f64> {
        let Some(b) = self.bodies.get(self.coupled[v.body].handle) else { return Vector3::zeros() };
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
            if let Some(b) = self.bodies.get_mut(c.handle) {
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
                    let Some(b) = self.bodies.get_mut(self.coupled[vertex.body].handle) else { continue };
                    match d.kind {
                        DataType::Forces => b.add_force_at_point(v, &at),
                        DataType::Torques => b.add_torque(v),
                        _ => {}
                    }
                }
            }
        }
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
        self.integrator.step(&mut self.bodies, dt).map_err(|e| {
            AdapterError::solver(format!(
                "the {} step of {dt} s at t = {} failed: {e}",
                self.integrator.name(),
                self.time
            ))
        })?;
        self.time += dt;
        Ok(())
    }

    fn own_time_step(&self) -> f64 {
        self.time_step
    }

    fn write_checkpoint(&mut self) -> AdapterResult<()> {
        self.checkpoint = Some((self.bodies.save_state(), self.time));
        Ok(())
    }

    fn read_checkpoint(&mut self) -> AdapterResult<()> {
        let (state, time) = self
            .checkpoint
            .as_ref()
            .ok_or_else(|| AdapterError::solver("asked to restore a checkpoint that was never written"))?;
        self.bodies.restore_state(state).map_err(|e| AdapterError::solver(e.to_string()))?;
        self.time = *time;
        Ok(())
    }

    fn write_output(&mut self, time: f64) -> AdapterResult<()> {
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
            let Some(b) = self.bodies.get(c.handle) else { continue };
            let row = Row {
                time,
                position: b.reference_position(),
                rotation: b.reference_orientation().scaled_axis(),
                linvel: b.reference_velocity(),
                angvel: b.angvel(),
                force: b.force(),
                torque: b.torque(),
            };
            out.write(i, &row).map_err(|e| AdapterError::io(format!("writing the output of body `{}`", c.name), e))?;
        }
        Ok(())
    }

    fn finish(&mut self) -> AdapterResult<()> {
        if let Some(out) = self.output.as_mut() {
            out.flush().map_err(|e| AdapterError::io("flushing the output files", e))?;
            for p in out.paths() {
                log::info!("output written to {}", p.display());
            }
        }
        Ok(())
    }
}
