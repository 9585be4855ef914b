//! The TDPF participant's adapter (docs/design/participants.md §6): it reads the poses and velocities of the
//! hydrodynamic bodies on one RIGID_BODY_REFS mesh, evaluates [`HydroModel`] and writes the forces
//! and torques back; it advances the whole coupling window in one call, and checkpoints its
//! radiation memory, the states read and the loads (for implicit schemes).
//!
//! * Bodies: by name and initial pose only (`bodies[].location`, optional `orientation`), one vertex
//!   per body at `location`, in the participant file's order: the i-th body is `/body{i+1}` of the
//!   hydrodynamic file (checked by name with [`tidelink_bemio::check_body_names`]).
//! * Reads POSITIONS and LINEAR_VELOCITIES (required), ROTATIONS (rotation vectors, absolute) and
//!   ANGULAR_VELOCITIES (world axes) (optional: without them the body keeps its initial orientation
//!   and has no angular velocity). Writes FORCES and TORQUES (world axes).
//! * Reference point: the vertex is the body's reference point as the solid sends it. When the
//!   initial `location` is not the file's cg, the offset `d = cg − location` (world axes at zero
//!   rotation) is carried with the body: the CG is at `p + R(θ) d`, moves at `v + ω × R(θ) d`, and the
//!   moment written is the moment about the reference point, `M_cg + R(θ) d × F`. With
//!   `location` = cg (the RM3 case) nothing is shifted.
//! * Added mass: on every `FluidAddedMass...` mesh the XML has this participant write on, 36·Nb
//!   vertices (vertex `36 b + 6 r + c` at coordinates (b, r, c): body b in file order, row r and
//!   column c of its 6 × 6 self block) receive the increment of A∞ over the solid's baseline every
//!   window: zero, because a TDPF solver's A∞ is constant (docs/design/added-mass.md §6.4).
//!
//! State time. The coupling window Δ is the radiation model's step. In window k (from t_k = kΔ to
//! t_k + Δ) the states are read once, at `relative_read_time` = 0 (`read_data_time: WINDOW_START`, the
//! default) or Δ (`WINDOW_END`), and the loads are evaluated for the state time **t_k + relative read
//! time** — the time at which preCICE samples what was read — so waves and radiation history carry the
//! state's own time:
//!
//! * TDPF first in a serial-explicit scheme (read at WINDOW_START): it reads the solid's state at
//!   t_k, the loads are those of t_k, and a solid reading at WINDOW_END applies them over
//!   [t_k, t_k + Δ]: the force over a window is the load of the state at its start, with no lag.
//! * TDPF second in a serial scheme with WINDOW_END: it reads the state the solid has just computed
//!   for t_k + Δ, and evaluates the loads at t_k + Δ (not at its clock t_k: that would be the
//!   one-window offset of tdpf-loads.md §7.3); the solid applies them over the next window, again to the state
//!   they belong to. The velocity history sample at t = 0 is then taken from the window-start value
//!   read in the first window (the solid's initial data, or zero without it).
//! * Parallel-explicit, or second with WINDOW_START: the state read is t_k's (one window old for the
//!   solid), loads at t_k; the solid applies them one window late (the lag preCICE imposes there).
//!
//! Initial data (forces exchanged with `initialize="yes"`) are the loads of the initial poses at rest
//! at t = 0, computed without recording a history sample.

use crate::error::Error;
use nalgebra::{Rotation3, Vector3};
use tidelink_adapter_core::body_interface::{BodyInterface, Needs, RigidMotion, RigidNeeds};
use tidelink_adapter_core::config::{is_fluid_added_mass, DataKey, PreciceConfig};
use tidelink_adapter_core::spec::ParticipantFile;
use tidelink_adapter_core::{Adapter, AdapterError, AdapterResult, CouplingData, VertexId};
use tidelink_tdpf_solver::hydro_model::{BodyLoad, BodyState, HydroModel};
use tidelink_tdpf_solver::radiation::RadiationState;

/// Relative tolerance on the step being the whole window.
const STEP_TOLERANCE: f64 = 1e-9;

/// What the TDPF participant needs of its RIGID_BODY_REFS mesh, in its messages' words.
const NEEDS: Needs<RigidNeeds> = Needs {
    who: "the TDPF participant",
    three_d: "the TDPF participant needs a 3D mesh",
    motion: RigidNeeds {
        positions: "the bodies' reference points",
        velocities: "radiation needs the velocity history",
    },
    without_torques: Some("the hydrodynamic moments are dropped"),
};

/// The coupling data of the RIGID_BODY_REFS mesh, found through their types in the participant file,
/// and the added-mass data the XML has this participant write.
#[derive(Debug, Clone)]
pub struct Interface {
    /// The RIGID_BODY_REFS mesh: one vertex per body; POSITIONS and LINEAR_VELOCITIES (the
    /// radiation history needs them) read, ROTATIONS and ANGULAR_VELOCITIES optional; FORCES
    /// written, TORQUES optional (without them the moments are dropped).
    pub bodies: BodyInterface<RigidMotion>,
    /// `(mesh, data)` of each FluidAddedMass write.
    pub added_mass: Vec<DataKey>,
}

impl Interface {
    /// Checks the interfaces of `file` against what this participant supports, before any connection.
    pub fn from_file(file: &ParticipantFile, cfg: &PreciceConfig) -> AdapterResult<Self> {
        let a = &file.adapter;
        let refs: Vec<_> = a.interfaces.iter().filter(|i| !is_fluid_added_mass(&i.mesh_name)).collect();
        let bodies = BodyInterface::find(a, &refs, NEEDS)?;
        let added_mass = cfg
            .participant(&a.participant_name)
            .map(|p| {
                p.write_data
                    .iter()
                    .filter(|u| is_fluid_added_mass(&u.mesh))
                    .map(|u| DataKey::new(&u.mesh, &u.name))
                    .collect()
            })
            .unwrap_or_default();
        Ok(Interface { bodies, added_mass })
    }
}

/// One coupling body: its initial pose and the offset from its reference point to the file's cg.
#[derive(Debug, Clone)]
pub struct CouplingBody {
    /// The participant file's body name, compared with the hydrodynamic file's.
    pub name: String,
    /// Initial reference point (m): the vertex.
    pub location: Vector3<f64>,
    /// Initial orientation as a rotation vector (rad).
    pub rotation: Vector3<f64>,
    /// `cg − location` at zero rotation (m).
    pub offset: Vector3<f64>,
}

impl CouplingBody {
    /// The CG state of this body from its reference-point state.
    fn cg_state(&self, p: Vector3<f64>, rotation: Vector3<f64>, v: Vector3<f64>, w: Vector3<f64>) -> BodyState {
        let r = Rotation3::new(rotation) * self.offset;
        BodyState { position: p + r, rotation, velocity: v + w.cross(&r), angular_velocity: w }
    }
}

/// The TDPF solver behind the `Adapter` trait.
pub struct TdpfAdapter {
    name: String,
    model: HydroModel,
    bodies: Vec<CouplingBody>,
    iface: Interface,
    window: f64,
    am_ids: Vec<Vec<VertexId>>,
    /// The states read for this window and their time.
    pending: Option<(f64, Vec<BodyState>)>,
    /// Last loads, as written: force and moment about each reference point.
    loads: Option<Vec<(Vector3<f64>, Vector3<f64>)>>,
    /// What `write_checkpoint` saved: the radiation memory, the states read and the loads.
    checkpoint: Option<Checkpoint>,
}

/// The adapter's state at a window start, for implicit schemes: repeating the window from it
/// gives the same loads bit for bit.
#[derive(Debug, Clone)]
struct Checkpoint {
    memory: RadiationState,
    pending: Option<(f64, Vec<BodyState>)>,
    loads: Option<Vec<(Vector3<f64>, Vector3<f64>)>>,
}

impl TdpfAdapter {
    /// `bodies` in file order (as many as the model has), `window` the fixed coupling window (s).
    pub fn new(
        name: &str,
        model: HydroModel,
        bodies: Vec<CouplingBody>,
        iface: Interface,
        window: f64,
    ) -> Result<Self, Error> {
        if bodies.len() != model.bodies() {
            return Err(Error::BodyCount { coupling: bodies.len(), model: model.bodies() });
        }
        if (model.dt() - window).abs() > STEP_TOLERANCE * window {
            return Err(Error::ModelStep { model: model.dt(), window });
        }
        Ok(TdpfAdapter {
            name: name.to_string(),
            model,
            bodies,
            iface,
            window,
            am_ids: Vec::new(),
            pending: None,
            loads: None,
            checkpoint: None,
        })
    }

    /// The last loads written: per body the force and the moment about its reference point (world).
    pub fn loads(&self) -> Option<&[(Vector3<f64>, Vector3<f64>)]> {
        self.loads.as_deref()
    }

    /// The CG states of all bodies sampled at `rel`.
    fn read_states(&self, coupling: &mut dyn CouplingData, rel: f64) -> AdapterResult<Vec<BodyState>> {
        let n = self.bodies.len();
        let read = self.iface.bodies.read(coupling, rel)?;
        let vectors = |v: Vec<[f64; 3]>| -> Vec<Vector3<f64>> { v.into_iter().map(Vector3::from).collect() };
        let (p, v) = (vectors(read.positions), vectors(read.velocities));
        let q = match read.rotations {
            Some(q) => vectors(q),
            None => self.bodies.iter().map(|b| b.rotation).collect(),
        };
        let w = match read.angular_velocities {
            Some(w) => vectors(w),
            None => vec![Vector3::zeros(); n],
        };
        Ok((0..n).map(|i| self.bodies[i].cg_state(p[i], q[i], v[i], w[i])).collect())
    }

    fn initial_states(&self) -> Vec<BodyState> {
        self.bodies.iter().map(|b| b.cg_state(b.location, b.rotation, Vector3::zeros(), Vector3::zeros())).collect()
    }

    /// Moments shifted from the CG to each reference point.
    fn at_reference_points(&self, states: &[BodyState], loads: &[BodyLoad]) -> Vec<(Vector3<f64>, Vector3<f64>)> {
        states
            .iter()
            .zip(loads)
            .zip(&self.bodies)
            .map(|((s, l), b)| {
                let r = Rotation3::new(s.rotation) * b.offset;
                (l.force(), l.torque() + r.cross(&l.force()))
            })
            .collect()
    }

    fn solver_error(&self, source: tidelink_tdpf_solver::hydro_model::HydroError) -> AdapterError {
        Error::Solver { participant: self.name.clone(), source }.into()
    }
}

impl Adapter for TdpfAdapter {
    fn name(&self) -> &str {
        &self.name
    }

    fn initialize_participant(&mut self, coupling: &mut dyn CouplingData) -> AdapterResult<()> {
        let points: Vec<[f64; 3]> = self.bodies.iter().map(|b| b.location.into()).collect();
        self.iface.bodies.register(coupling, &points)?;
        let nb = self.bodies.len();
        let mut registered: Vec<(String, Vec<VertexId>)> = Vec::new();
        for DataKey { mesh: am_mesh, data } in self.iface.added_mass.clone() {
            if coupling.get_data_dimensions(&am_mesh, &data)? != 1 {
                return Err(AdapterError::config(format!(
                    "added-mass data `{data}` on mesh `{am_mesh}` must be scalar (one value per coefficient)"
                )));
            }
            if let Some((_, ids)) = registered.iter().find(|(m, _)| *m == am_mesh) {
                self.am_ids.push(ids.clone());
                continue;
            }
            let am_dims = coupling.get_mesh_dimensions(&am_mesh)?;
            if am_dims != 3 {
                return Err(AdapterError::config(format!(
                    "added-mass mesh `{am_mesh}` has {am_dims} dimensions; its vertices are (body, row, column): use 3"
                )));
            }
            let coords: Vec<f64> =
                (0..36 * nb).flat_map(|k| [(k / 36) as f64, ((k % 36) / 6) as f64, (k % 6) as f64]).collect();
            let mut ids = vec![0; 36 * nb];
            coupling.set_mesh_vertices(&am_mesh, &coords, &mut ids)?;
            registered.push((am_mesh, ids.clone()));
            self.am_ids.push(ids);
        }
        Ok(())
    }

    fn read_data(&mut self, coupling: &mut dyn CouplingData, time: f64, relative_read_time: f64) -> AdapterResult<()> {
        let start = time;
        let states = self.read_states(coupling, relative_read_time)?;
        if self.model.evaluations() == 0 && relative_read_time > 0.5 * self.window {
            // Reading at the window end: the history still needs its sample at t = 0.
            let first = self.read_states(coupling, 0.0)?;
            self.model.evaluate(0.0, &first).map_err(|e| self.solver_error(e))?;
        }
        self.pending = Some((start + relative_read_time, states));
        Ok(())
    }

    fn write_data(&mut self, coupling: &mut dyn CouplingData) -> AdapterResult<()> {
        if self.loads.is_none() {
            let states = self.initial_states();
            let loads = self.model.peek(0.0, &states).map_err(|e| self.solver_error(e))?;
            self.loads = Some(self.at_reference_points(&states, &loads));
        }
        let loads: Vec<([f64; 3], [f64; 3])> =
            self.loads.iter().flatten().map(|(f, m)| ((*f).into(), (*m).into())).collect();
        self.iface.bodies.write_loads(coupling, &loads)?;
        for (key, ids) in self.iface.added_mass.iter().zip(&self.am_ids) {
            coupling.write_data(&key.mesh, &key.data, ids, &vec![0.0; ids.len()])?;
        }
        Ok(())
    }

    /// Evaluates the loads of the states read for this window at their state time.
    fn advance(&mut self, _time: f64, dt: f64) -> AdapterResult<()> {
        if (dt - self.window).abs() > STEP_TOLERANCE * self.window {
            return Err(AdapterError::Unsupported(format!(
                "participant `{}`: a step of {dt} s, but the TDPF participant steps its radiation memory at the fixed \
                 coupling window {} s (is the last window cut short by max-time? make max-time a multiple of the window)",
                self.name, self.window
            )));
        }
        let (t, states) = self.pending.take().ok_or_else(|| Error::NotRead { participant: self.name.clone() })?;
        let loads = self.model.evaluate(t, &states).map_err(|e| self.solver_error(e))?;
        self.loads = Some(self.at_reference_points(&states, &loads));
        Ok(())
    }

    fn can_checkpoint(&self) -> bool {
        true
    }

    fn write_checkpoint(&mut self) -> AdapterResult<()> {
        let memory = self.model.save_state();
        self.checkpoint = Some(Checkpoint { memory, pending: self.pending.clone(), loads: self.loads.clone() });
        Ok(())
    }

    fn read_checkpoint(&mut self) -> AdapterResult<()> {
        let c = self.checkpoint.as_ref().ok_or_else(|| Error::NoCheckpoint { participant: self.name.clone() })?;
        self.model.restore_state(&c.memory).map_err(|e| self.solver_error(e))?;
        self.pending = c.pending.clone();
        self.loads = c.loads.clone();
        Ok(())
    }

    /// The whole remaining window: a TDPF solver has no internal step to sub-cycle.
    fn solver_time_step(&self, max_step: f64) -> f64 {
        max_step
    }
}
