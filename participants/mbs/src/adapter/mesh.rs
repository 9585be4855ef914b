//! One coupling mesh: RIGID_BODY_REFS (one vertex per body at its reference frame) or
//! RIGID_BODY_POINTS (points fixed in the bodies), the data allowed on it, its vertices
//! registered with the coupling, the loads it reads into the bodies and the motion it writes.

use crate::coupling_body::CouplingBody;
use nalgebra::{Point3, Vector3};
use tidelink_adapter_core::spec::{DataType, MeshType};
use tidelink_adapter_core::{AdapterError, AdapterResult, CouplingData, VertexId};
use tidelink_mbs_solver::dynamics::body_set::{BodyHandle, BodySet};

/// One vertex of a coupling mesh: a point fixed in a coupling body's reference frame (its
/// origin on RIGID_BODY_REFS meshes) and where it was at the start.
#[derive(Debug, Clone)]
struct MeshVertex {
    body: BodyHandle,
    local: Vector3<f64>,
    initial: Vector3<f64>,
}

impl MeshVertex {
    /// Where the vertex is now (world).
    fn position(&self, bodies: &BodySet) -> Vector3<f64> {
        let Some(b) = bodies.get(self.body) else { return self.initial };
        (b.reference_pose() * Point3::from(self.local)).coords
    }

    /// The value of `kind` at the vertex, in 3D.
    fn value(&self, bodies: &BodySet, kind: DataType) -> Vector3<f64> {
        let Some(b) = bodies.get(self.body) else { return Vector3::zeros() };
        let at = self.position(bodies);
        match kind {
            DataType::Positions => at,
            DataType::Displacements => at - self.initial,
            DataType::Rotations => b.reference_orientation().scaled_axis(),
            DataType::LinearVelocities => b.point_velocity(&at),
            DataType::AngularVelocities => b.angvel(),
            _ => Vector3::zeros(),
        }
    }
}

/// One coupling datum: its name, what it means and how many components it has.
#[derive(Debug, Clone)]
struct Datum {
    name: String,
    kind: DataType,
    components: usize,
}

/// One datum of an interface before it is checked, with where it was given.
pub(super) struct DatumIn {
    /// Its preCICE name.
    pub(super) name: String,
    /// What it means.
    pub(super) kind: DataType,
    /// Where it was given, for messages.
    pub(super) at: String,
}

/// One coupling mesh (RIGID_BODY_REFS or RIGID_BODY_POINTS) and what is exchanged on it.
#[derive(Debug, Clone)]
pub(super) struct CouplingMesh {
    name: String,
    vertices: Vec<MeshVertex>,
    /// Triangles over `vertices` (the coupling bodies' surface files' faces).
    triangles: Vec<[usize; 3]>,
    ids: Vec<VertexId>,
    writes: Vec<Datum>,
    reads: Vec<Datum>,
    /// The values of one datum on the way to or from the coupling, kept so that an exchange
    /// allocates nothing after the first.
    buffer: Vec<f64>,
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

/// The `components` of `v` that a datum carries: all three, x and y (2D), or z alone
/// (a scalar rotational datum on a 2D mesh).
fn axes(components: usize, rotational: bool) -> &'static [usize] {
    match (components, rotational) {
        (1, true) => &[2],
        (2, _) => &[0, 1],
        _ => &[0, 1, 2],
    }
}

/// Whether a mesh of `mesh_type` is RIGID_BODY_POINTS (`false`: RIGID_BODY_REFS); any other
/// type is refused, naming the mesh and where it was given (`at`).
pub(super) fn is_points_mesh(at: &str, mesh_name: &str, mesh_type: &MeshType) -> AdapterResult<bool> {
    match mesh_type {
        MeshType::RigidBodyRefs => Ok(false),
        MeshType::RigidBodyPoints => Ok(true),
        other => Err(AdapterError::Unsupported(format!(
            "{at}: mesh `{mesh_name}` has mesh_type {}: not implemented in the MBS participant; \
             use a RIGID_BODY_REFS mesh (one vertex per coupling body) or RIGID_BODY_POINTS",
            other.as_str()
        ))),
    }
}

/// A mesh as given, before its vertices are placed and its data checked.
pub(super) struct MeshIn<'a> {
    /// Where it was given, for messages.
    pub(super) at: &'a str,
    /// Its preCICE name.
    pub(super) name: &'a str,
    /// RIGID_BODY_POINTS (`true`) or RIGID_BODY_REFS ([`is_points_mesh`]).
    pub(super) points: bool,
    /// The data written on it.
    pub(super) writes: Vec<DatumIn>,
    /// The data read on it.
    pub(super) reads: Vec<DatumIn>,
}

impl CouplingMesh {
    /// Mesh `mesh` on the coupling bodies `coupled` (at their poses in `bodies` now), with its
    /// data checked against what the MBS can write and read.
    pub(super) fn new(mesh: MeshIn, coupled: &[CouplingBody], bodies: &BodySet) -> AdapterResult<Self> {
        let MeshIn { at, name: mesh_name, points: points_mesh, writes, reads } = mesh;
        let mut vertices = Vec::new();
        let mut triangles = Vec::new();
        for c in coupled {
            if points_mesh == c.points.is_empty() {
                continue;
            }
            let base = vertices.len();
            triangles.extend(c.faces.iter().map(|t| t.map(|i| base + i)));
            let pose = bodies.get(c.handle).map(|b| b.reference_pose()).unwrap_or_default();
            let origin = [Vector3::zeros()];
            let locals: &[Vector3<f64>] = if points_mesh { &c.points } else { &origin };
            vertices.extend(locals.iter().map(|p| MeshVertex {
                body: c.handle,
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
        Ok(CouplingMesh {
            name: mesh_name.to_string(),
            vertices,
            triangles,
            ids: Vec::new(),
            writes,
            reads,
            buffer: Vec::new(),
        })
    }

    /// The mesh's preCICE name.
    pub(super) fn name(&self) -> &str {
        &self.name
    }

    /// Registers the vertices at the bodies' current poses, after checking each datum's
    /// components against the mesh's dimension.
    pub(super) fn register(&mut self, coupling: &mut dyn CouplingData, bodies: &BodySet) -> AdapterResult<()> {
        let mesh_name = self.name.as_str();
        let dims = coupling.get_mesh_dimensions(mesh_name)?;
        for d in self.writes.iter_mut().chain(self.reads.iter_mut()) {
            let n = coupling.get_data_dimensions(mesh_name, &d.name)?;
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
        let mut coords = Vec::with_capacity(self.vertices.len() * dims);
        for v in &self.vertices {
            coords.extend_from_slice(&v.position(bodies).as_slice()[..dims]);
        }
        self.ids = vec![0; self.vertices.len()];
        coupling.set_mesh_vertices(mesh_name, &coords, &mut self.ids)?;
        // Faces are surface elements of a 3D mesh (a 2D mesh's elements would be its edges).
        if dims == 3 && !self.triangles.is_empty() && coupling.requires_mesh_connectivity_for(mesh_name)? {
            let ids: Vec<_> = self.triangles.iter().flatten().map(|&i| self.ids[i]).collect();
            coupling.set_mesh_triangles(mesh_name, &ids)?;
        }
        Ok(())
    }

    /// Reads the mesh's loads at `relative_read_time` and adds them to the bodies'
    /// accumulators (forces at the vertices, torques on the bodies).
    pub(super) fn read(
        &mut self,
        coupling: &mut dyn CouplingData,
        relative_read_time: f64,
        bodies: &mut BodySet,
    ) -> AdapterResult<()> {
        for d in &self.reads {
            let values = &mut self.buffer;
            values.clear();
            values.resize(self.ids.len() * d.components, 0.0);
            coupling.read_data(&self.name, &d.name, &self.ids, relative_read_time, values)?;
            let comps = axes(d.components, is_rotational(d.kind));
            for (k, vertex) in self.vertices.iter().enumerate() {
                let mut v = Vector3::zeros();
                for (j, &c) in comps.iter().enumerate() {
                    v[c] = values[k * d.components + j];
                }
                let at = vertex.position(bodies);
                let Some(b) = bodies.get_mut(vertex.body) else { continue };
                match d.kind {
                    DataType::Forces => b.add_force_at_point(v, &at),
                    DataType::Torques => b.add_torque(v),
                    _ => {}
                }
            }
        }
        Ok(())
    }

    /// Writes the mesh's motion data from the bodies' state now.
    pub(super) fn write(&mut self, coupling: &mut dyn CouplingData, bodies: &BodySet) -> AdapterResult<()> {
        for d in &self.writes {
            let comps = axes(d.components, is_rotational(d.kind));
            let values = &mut self.buffer;
            values.clear();
            for vertex in &self.vertices {
                let v = vertex.value(bodies, d.kind);
                values.extend(comps.iter().map(|&c| v[c]));
            }
            coupling.write_data(&self.name, &d.name, &self.ids, values)?;
        }
        Ok(())
    }
}
