//! The buoyancy participant's adapter: one vertex (the sphere's centre) on a
//! RIGID_BODY_REFS mesh; it reads the sphere's position and velocity and writes the force
//! (and a zero torque) computed from the last state read.

use nalgebra::Vector3;
use tidelink_adapter_core::spec::{BodyRefs, DataType, ParticipantFile};
use tidelink_adapter_core::{Adapter, AdapterError, AdapterResult, CouplingData, VertexId};
use tidelink_buoyancy_solver::SphereInWater;

/// Names of the coupling data, found through their types in the participant file.
#[derive(Debug, Clone)]
struct Exchange {
    mesh: String,
    positions: String,
    velocities: Option<String>,
    forces: String,
    torques: Option<String>,
}

/// The stand-in fluid solver behind the `Adapter` trait.
pub struct BuoyancyAdapter {
    name: String,
    sphere: SphereInWater,
    exchange: Exchange,
    ids: [VertexId; 1],
    initial_position: Vector3<f64>,
    position: Vector3<f64>,
    velocity: Vector3<f64>,
    /// The motion read last, saved at a window start (implicit schemes).
    checkpoint: Option<(Vector3<f64>, Vector3<f64>)>,
}

impl BuoyancyAdapter {
    /// Checks the interface of `file` (one RIGID_BODY_REFS mesh reading POSITIONS and
    /// optionally LINEAR_VELOCITIES, writing FORCES and optionally TORQUES) before any
    /// connection is made, so configuration errors come out at start-up.
    pub fn new(file: &ParticipantFile, sphere: SphereInWater, initial_position: Vector3<f64>) -> AdapterResult<Self> {
        let cfg = &file.adapter;
        let reads = [DataType::Positions, DataType::LinearVelocities];
        let refs = BodyRefs::find("the buoyancy participant", cfg, &cfg.interfaces.iter().collect::<Vec<_>>(), &reads)?;
        let positions = refs.need(&refs.positions, "read POSITIONS (the sphere's centre)")?;
        let forces = refs.need(&refs.forces, "write FORCES")?;
        refs.warn_without(&refs.velocities, "reads no LINEAR_VELOCITIES: the drag stays zero");
        let BodyRefs { mesh, velocities, torques, .. } = refs;
        Ok(BuoyancyAdapter {
            name: cfg.participant_name.clone(),
            sphere,
            exchange: Exchange { mesh, positions, velocities, forces, torques },
            ids: [0],
            initial_position,
            position: initial_position,
            velocity: Vector3::zeros(),
            checkpoint: None,
        })
    }

    /// The state the next force is computed from (the last one read).
    pub fn state(&self) -> (Vector3<f64>, Vector3<f64>) {
        (self.position, self.velocity)
    }

    fn read_vec(&self, coupling: &mut dyn CouplingData, data: &str, rel: f64) -> AdapterResult<Vector3<f64>> {
        let mut v = [0.0; 3];
        coupling.read_data(&self.exchange.mesh, data, &self.ids, rel, &mut v)?;
        Ok(Vector3::from(v))
    }
}

impl Adapter for BuoyancyAdapter {
    fn name(&self) -> &str {
        &self.name
    }

    fn initialize_participant(&mut self, coupling: &mut dyn CouplingData) -> AdapterResult<()> {
        let mesh = &self.exchange.mesh;
        let dims = coupling.get_mesh_dimensions(mesh)?;
        if dims != 3 {
            return Err(AdapterError::Unsupported(format!(
                "mesh `{mesh}` has {dims} dimensions; the buoyancy participant needs a 3D mesh (the free surface is the plane z = water_level)"
            )));
        }
        let ex = self.exchange.clone();
        for data in
            [Some(&ex.positions), ex.velocities.as_ref(), Some(&ex.forces), ex.torques.as_ref()].into_iter().flatten()
        {
            let n = coupling.get_data_dimensions(mesh, data)?;
            if n != 3 {
                return Err(AdapterError::config(format!(
                    "data `{data}` on mesh `{mesh}` has {n} component(s); the buoyancy participant exchanges 3D vectors (declare it <data:vector>)"
                )));
            }
        }
        let p = self.initial_position;
        coupling.set_mesh_vertices(mesh, &[p.x, p.y, p.z], &mut self.ids)?;
        Ok(())
    }

    fn read_data(&mut self, coupling: &mut dyn CouplingData, _time: f64, relative_read_time: f64) -> AdapterResult<()> {
        let positions = self.exchange.positions.clone();
        self.position = self.read_vec(coupling, &positions, relative_read_time)?;
        if let Some(v) = self.exchange.velocities.clone() {
            self.velocity = self.read_vec(coupling, &v, relative_read_time)?;
        }
        Ok(())
    }

    fn write_data(&mut self, coupling: &mut dyn CouplingData) -> AdapterResult<()> {
        let f = self.sphere.force(&self.position, &self.velocity);
        coupling.write_data(&self.exchange.mesh, &self.exchange.forces, &self.ids, f.as_slice())?;
        if let Some(t) = &self.exchange.torques {
            coupling.write_data(&self.exchange.mesh, t, &self.ids, &[0.0; 3])?;
        }
        Ok(())
    }

    /// Nothing to integrate: the force is a function of the state read.
    fn advance(&mut self, _time: f64, _dt: f64) -> AdapterResult<()> {
        Ok(())
    }

    fn can_checkpoint(&self) -> bool {
        true
    }

    /// The loads are a function of the motion read: the checkpoint is that motion.
    fn write_checkpoint(&mut self) -> AdapterResult<()> {
        self.checkpoint = Some((self.position, self.velocity));
        Ok(())
    }

    fn read_checkpoint(&mut self) -> AdapterResult<()> {
        let (p, v) =
            self.checkpoint.ok_or_else(|| AdapterError::solver("a checkpoint was restored before one was written"))?;
        (self.position, self.velocity) = (p, v);
        Ok(())
    }
}
