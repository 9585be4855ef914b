//! The coupling side of the adapter: which bodies of the model are coupled, the meshes built on
//! them ([`super::mesh`]) and the added-mass meshes ([`crate::added_mass::exchange`]); it
//! registers them all, reads each window's loads into the bodies and writes their motion back.

use super::mesh::{is_points_mesh, CouplingMesh, DatumIn, MeshIn};
use crate::added_mass::exchange::AddedMassExchange;
use crate::coupling_body::CouplingBody;
use crate::error::Error;
use nalgebra::Vector3;
use tidelink_adapter_core::config::{is_fluid_added_mass, is_solid_added_mass};
use tidelink_adapter_core::spec::{DataSpec, MeshType, ParticipantFile};
use tidelink_adapter_core::{mesh as mesh_file, AdapterError, AdapterResult, CouplingData};
use tidelink_mbs_solver::dynamics::body_set::{BodyHandle, BodySet};
use tidelink_mbs_solver::system::MultibodySystem;

/// Everything the adapter exchanges with the coupling, and on which bodies.
pub(super) struct Interfaces {
    /// The model's bodies by name: the ones a coupling body may name.
    names: Vec<(String, BodyHandle)>,
    coupled: Vec<CouplingBody>,
    meshes: Vec<CouplingMesh>,
    added_mass: AddedMassExchange,
}

impl Interfaces {
    /// No coupling bodies or meshes yet, on a model with the bodies `names`.
    pub(super) fn new(names: Vec<(String, BodyHandle)>) -> Self {
        Interfaces { names, coupled: Vec::new(), meshes: Vec::new(), added_mass: AddedMassExchange::default() }
    }

    /// The coupling bodies in the order they were added.
    pub(super) fn coupled(&self) -> &[CouplingBody] {
        &self.coupled
    }

    /// Adds the coupling bodies and the interfaces of participant file `file` (the added-mass
    /// meshes among them come from the XML instead), placed at their poses in `bodies`.
    pub(super) fn add_from_file(&mut self, file: &ParticipantFile, bodies: &BodySet) -> AdapterResult<()> {
        let cfg = &file.adapter;
        for b in &cfg.bodies {
            let bad = |e| AdapterError::config(format!("{}: the points of coupling body `{}`: {e}", b.loc, b.name));
            let (points, faces) = match &b.points {
                None => (None, Vec::new()),
                Some(spec) => (
                    Some(mesh_file::load_points(spec, |n| file.data_file(n)).map_err(bad)?),
                    mesh_file::load_point_faces(spec, |n| file.data_file(n)).map_err(bad)?,
                ),
            };
            self.add_body(&b.loc.to_string(), &b.name, points, bodies)?;
            if let Some(c) = self.coupled.last_mut() {
                c.faces = faces;
            }
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
            let list = |ds: &[DataSpec]| {
                ds.iter()
                    .map(|d| DatumIn { name: d.name.clone(), kind: d.data_type, at: d.loc.to_string() })
                    .collect::<Vec<_>>()
            };
            self.add_mesh(
                &iface.loc.to_string(),
                &iface.mesh_name,
                &iface.mesh_type,
                list(&iface.write_data),
                list(&iface.read_data),
                bodies,
            )?;
        }
        Ok(())
    }

    /// Couples body `name` of the model, through its reference frame (`points: None`) or through
    /// points fixed in it; `at` says where it was given.
    pub(super) fn add_body(
        &mut self,
        at: &str,
        name: &str,
        points: Option<Vec<[f64; 3]>>,
        bodies: &BodySet,
    ) -> AdapterResult<()> {
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
        bodies.get(handle).ok_or_else(|| Error::NoBody { name: name.to_string() })?;
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
        self.coupled.push(CouplingBody { name: name.to_string(), handle, points, faces: Vec::new() });
        Ok(())
    }

    /// Adds coupling mesh `mesh_name` with the data written and read on it, its vertices placed
    /// at the coupling bodies' poses in `bodies`; `at` says where it was given.
    pub(super) fn add_mesh(
        &mut self,
        at: &str,
        mesh_name: &str,
        mesh_type: &MeshType,
        writes: Vec<DatumIn>,
        reads: Vec<DatumIn>,
        bodies: &BodySet,
    ) -> AdapterResult<()> {
        if is_solid_added_mass(mesh_name) || is_fluid_added_mass(mesh_name) {
            return Err(AdapterError::config(format!(
                "{at}: `{mesh_name}` is an added-mass mesh (named SolidAddedMass.../FluidAddedMass...); couple it with \
                 add_added_mass_mesh, not as an interface"
            )));
        }
        let points = is_points_mesh(at, mesh_name, mesh_type)?;
        if self.meshes.iter().any(|m| m.name() == mesh_name) {
            return Err(AdapterError::config(format!("{at}: mesh `{mesh_name}` is listed twice")));
        }
        let mesh = MeshIn { at, name: mesh_name, points, writes, reads };
        self.meshes.push(CouplingMesh::new(mesh, &self.coupled, bodies)?);
        Ok(())
    }

    /// Couples `SolidAddedMass...` mesh `mesh_name`, reading the increments in `data` (or only
    /// registering its vertices); after the coupling bodies.
    pub(super) fn add_added_mass_mesh(&mut self, mesh_name: &str, data: Option<&str>) -> AdapterResult<()> {
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

    /// Registers the added-mass meshes (with a zero baseline in `system` if it has none) and
    /// every coupling mesh's vertices at the bodies' current poses.
    pub(super) fn register(
        &mut self,
        coupling: &mut dyn CouplingData,
        system: &mut MultibodySystem,
    ) -> AdapterResult<()> {
        if !self.added_mass.is_empty() {
            if system.added_mass.is_none() {
                let zero = crate::added_mass::source::zero(&self.coupled)?;
                system.set_added_mass(zero).map_err(crate::added_mass::SetupError::Refused)?;
            }
            let coupled: Vec<(String, BodyHandle)> = self.coupled.iter().map(|c| (c.name.clone(), c.handle)).collect();
            self.added_mass.register(coupling, system, &coupled)?;
        }
        for mesh in &mut self.meshes {
            mesh.register(coupling, &system.bodies)?;
        }
        Ok(())
    }

    /// Reads the loads (and added-mass increments) of the window that starts at `time`, sampled
    /// `relative_read_time` after it; the loads replace the last window's.
    pub(super) fn read(
        &mut self,
        coupling: &mut dyn CouplingData,
        system: &mut MultibodySystem,
        time: f64,
        relative_read_time: f64,
    ) -> AdapterResult<()> {
        // Loads replace the previous window's: empty the accumulators once, then add.
        for c in &self.coupled {
            if let Some(b) = system.bodies.get_mut(c.handle) {
                b.clear_accumulators();
            }
        }
        for mesh in &mut self.meshes {
            mesh.read(coupling, relative_read_time, &mut system.bodies)?;
        }
        // Same read time as the forces: a force and the added mass it was evaluated with
        // refer to the same instant.
        self.added_mass.read(coupling, relative_read_time, system, time)
    }

    /// Writes the motion data of every mesh.
    pub(super) fn write(&mut self, coupling: &mut dyn CouplingData, bodies: &BodySet) -> AdapterResult<()> {
        self.meshes.iter_mut().try_for_each(|mesh| mesh.write(coupling, bodies))
    }
}
