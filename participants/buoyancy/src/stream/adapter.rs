//! The stream participant's adapter: the plate's points on one RIGID_BODY_POINTS mesh
//! (2D or 3D); it reads where they are (DISPLACEMENTS from the initial points, or
//! POSITIONS), estimates their velocities from the last two reads, and writes the drag
//! load at every point (FORCES).

use crate::stand_in::{Exchange, StandIn};
use nalgebra::Vector3;
use tidelink_adapter_core::spec::{DataType, MeshType, ParticipantFile};
use tidelink_adapter_core::{AdapterError, AdapterResult, CouplingData, VertexId};
use tidelink_buoyancy_solver::PlateInStream;

/// How the received motion is given.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
enum Motion {
    Displacements,
    Positions,
}

/// The stand-in fluid behind the `Adapter` trait.
pub type StreamAdapter = StandIn<Plate>;

/// The plate's side of the coupling: its mesh, the motion read and the velocities estimated.
pub struct Plate {
    plate: PlateInStream,
    mesh: String,
    motion: (String, Motion),
    forces: String,
    initial: Vec<Vector3<f64>>,
    ids: Vec<VertexId>,
    dims: usize,
    /// The points and the time of the last read, and the velocities estimated then.
    last: Option<(f64, Vec<Vector3<f64>>)>,
    points: Vec<Vector3<f64>>,
    velocities: Vec<Vector3<f64>>,
}

/// What the stream adapter's loads depend on: the motion read and the velocity estimate.
type Saved = (Option<(f64, Vec<Vector3<f64>>)>, Vec<Vector3<f64>>, Vec<Vector3<f64>>);

impl StreamAdapter {
    /// Checks the interface of `file` (one RIGID_BODY_POINTS mesh reading DISPLACEMENTS or
    /// POSITIONS, writing FORCES) before any connection is made.
    pub fn new(file: &ParticipantFile, plate: PlateInStream, points: Vec<[f64; 3]>) -> AdapterResult<Self> {
        let cfg = &file.adapter;
        let [iface] = cfg.interfaces.as_slice() else {
            return Err(AdapterError::config(format!(
                "{}: the stream participant needs exactly one interface (a RIGID_BODY_POINTS mesh); {} listed",
                cfg.loc,
                cfg.interfaces.len()
            )));
        };
        if iface.mesh_type != MeshType::RigidBodyPoints {
            return Err(AdapterError::Unsupported(format!(
                "{}: mesh `{}` has mesh_type {}; the stream participant loads the points of a plate: use RIGID_BODY_POINTS",
                iface.loc,
                iface.mesh_name,
                iface.mesh_type.as_str()
            )));
        }
        let motion = match iface.read_data.as_slice() {
            [d] if d.data_type == DataType::Displacements => (d.name.clone(), Motion::Displacements),
            [d] if d.data_type == DataType::Positions => (d.name.clone(), Motion::Positions),
            _ => {
                return Err(AdapterError::config(format!(
                    "{}: mesh `{}` must read one datum, DISPLACEMENTS or POSITIONS of the plate's points",
                    iface.loc, iface.mesh_name
                )))
            }
        };
        let forces = match iface.write_data.as_slice() {
            [d] if d.data_type == DataType::Forces => d.name.clone(),
            _ => {
                return Err(AdapterError::config(format!(
                    "{}: mesh `{}` must write one datum, FORCES at the plate's points",
                    iface.loc, iface.mesh_name
                )))
            }
        };
        if points.len() < 2 {
            return Err(AdapterError::config(format!(
                "{}: the plate needs at least two points (bodies[0].points); {} given",
                cfg.loc,
                points.len()
            )));
        }
        let initial: Vec<Vector3<f64>> = points.into_iter().map(Vector3::from).collect();
        let exchange = Plate {
            plate,
            mesh: iface.mesh_name.clone(),
            motion,
            forces,
            ids: vec![0; initial.len()],
            points: initial.clone(),
            velocities: vec![Vector3::zeros(); initial.len()],
            initial,
            dims: 3,
            last: None,
        };
        Ok(StandIn::with_exchange(&cfg.participant_name, exchange))
    }

    /// The points and velocities the next load is computed from.
    pub fn state(&self) -> (&[Vector3<f64>], &[Vector3<f64>]) {
        (&self.exchange.points, &self.exchange.velocities)
    }
}

impl Exchange for Plate {
    type State = Saved;

    fn initialize(&mut self, coupling: &mut dyn CouplingData) -> AdapterResult<()> {
        let mesh = self.mesh.clone();
        self.dims = coupling.get_mesh_dimensions(&mesh)?;
        for data in [&self.motion.0, &self.forces] {
            let n = coupling.get_data_dimensions(&mesh, data)?;
            if n != self.dims {
                return Err(AdapterError::config(format!(
                    "data `{data}` on mesh `{mesh}` has {n} component(s), the {}D mesh needs {} (declare it <data:vector>)",
                    self.dims, self.dims
                )));
            }
        }
        let coords: Vec<f64> = self.initial.iter().flat_map(|p| p.as_slice()[..self.dims].to_vec()).collect();
        coupling.set_mesh_vertices(&mesh, &coords, &mut self.ids)?;
        Ok(())
    }

    fn read(&mut self, coupling: &mut dyn CouplingData, time: f64, relative_read_time: f64) -> AdapterResult<()> {
        let d = self.dims;
        let mut values = vec![0.0; self.ids.len() * d];
        coupling.read_data(&self.mesh, &self.motion.0, &self.ids, relative_read_time, &mut values)?;
        let points: Vec<Vector3<f64>> = (0..self.ids.len())
            .map(|k| {
                let mut v = Vector3::zeros();
                v.as_mut_slice()[..d].copy_from_slice(&values[k * d..(k + 1) * d]);
                match self.motion.1 {
                    Motion::Displacements => self.initial[k] + v,
                    Motion::Positions => v,
                }
            })
            .collect();
        let t = time + relative_read_time;
        if let Some((t0, p0)) = &self.last {
            if t > *t0 {
                self.velocities = points.iter().zip(p0).map(|(p, q)| (p - q) / (t - t0)).collect();
            }
        }
        self.last = Some((t, points.clone()));
        self.points = points;
        Ok(())
    }

    fn write(&mut self, coupling: &mut dyn CouplingData) -> AdapterResult<()> {
        let loads = self.plate.loads(&self.points, &self.velocities, self.dims == 2);
        let values: Vec<f64> = loads.iter().flat_map(|f| f.as_slice()[..self.dims].to_vec()).collect();
        coupling.write_data(&self.mesh, &self.forces, &self.ids, &values)?;
        Ok(())
    }

    fn save(&self) -> Saved {
        (self.last.clone(), self.points.clone(), self.velocities.clone())
    }

    fn restore(&mut self, (last, points, velocities): Saved) {
        (self.last, self.points, self.velocities) = (last, points, velocities);
    }
}
