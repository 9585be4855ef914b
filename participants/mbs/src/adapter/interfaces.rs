//! The coupling side of the adapter: coupling bodies, the meshes built on them (RIGID_BODY_REFS:
//! one vertex per body at its reference frame; RIGID_BODY_POINTS: points fixed in the body), the
//! data allowed on each, and the values of a vertex.

use super::MbsAdapter;
use crate::coupling_body::CouplingBody;
use nalgebra::{Point3, Vector3};
use tidelink_adapter_core::config::{is_fluid_added_mass, is_solid_added_mass};
use tidelink_adapter_core::spec::{DataType, MeshType};
use tidelink_adapter_core::{AdapterError, AdapterResult, CouplingData, VertexId};

/// One vertex of a coupling mesh: a point fixed in a coupling body's reference frame (its
/// origin on RIGID_BODY_REFS meshes) and where it was at the start.
#[derive(Debug, Clone)]
pub(super) struct MeshVertex {
    pub(super) body: usize,
    pub(super) local: Vector3<f64>,
    pub(super) initial: Vector3<f64>,
}

/// One coupling datum: its name, what it means and how many components it has.
#[derive(Debug, Clone)]
pub(super) struct Datum {
    pub(super) name: String,
    pub(super) kind: DataType,
    pub(super) components: usize,
}

/// One coupling mesh (RIGID_BODY_REFS or RIGID_BODY_POINTS) and what is exchanged on it.
#[derive(Debug, Clone)]
pub(super) struct CouplingMesh {
    pub(super) name: String,
    pub(super) vertices: Vec<MeshVertex>,
    pub(super) ids: Vec<VertexId>,
    pub(super) dims: usize,
    pub(super) writes: Vec<Datum>,
    pub(super) reads: Vec<Datum>,
}

/// One datum of an interface before it is checked, with where it was given.
pub(super) struct DatumIn {
    pub(super) name: String,
    pub(super) kind: DataType,
    pub(super) at: String,
}

const WRITABLE: &[DataType] = &[
    DataType::Positions,
    DataType::Rotations,
    DataType::Displacements,
    DataType::LinearVelocities,
    DataType::AngularVelocities,
];
const READABLE: &[DataType] = &[DataType::Forces, DataType::Torques];

pub(super) fn is_rotational(kind: DataType) -> bool {
    matches!(kind, DataType::Rotations | DataType::AngularVelocities | DataType::Torques)
}

fn names(kinds: &[DataType]) -> String {
    kinds.iter().map(|k| k.as_str()).collect::<Vec<_>>().join(", ")
}

/// The `components` of `v` that a datum carries: all three, x and y (2D), or z alone
/// (a scalar rotational datum on a 2D mesh).
pub(super) fn axes(components: usize, rotational: bool) -> &'static [usize] {
    match (components, rotational) {
        (1, true) => &[2],
        (2, _) => &[0, 1],
        _ => &[0, 1, 2],
    }
}

impl MbsAdapter {
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

    pub(super) fn add_body_at(&mut self, at: &str, name: &str, points: Option<Vec<[f64; 3]>>) -> AdapterResult<()> {
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

    pub(super) fn add_interface_at(
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
                    "{at}: mesh `{mesh_name}` has mesh_type {}: not implemented in the MBS participant; \
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

    /// Registers every mesh's vertices at the bodies' current poses, after checking each
    /// datum's components against the mesh's dimension.
    pub(super) fn register_meshes(&mut self, coupling: &mut dyn CouplingData) -> AdapterResult<()> {
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

    /// Where vertex `v` is now (world).
    pub(super) fn vertex_position(&self, v: &MeshVertex) -> Vector3<f64> {
        let Some(b) = self.system.bodies.get(self.coupled[v.body].handle) else { return v.initial };
        (b.reference_pose() * Point3::from(v.local)).coords
    }

    /// The value of `kind` at vertex `v`, in 3D.
    pub(super) fn value(&self, v: &MeshVertex, kind: DataType) -> Vector3<f64> {
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
