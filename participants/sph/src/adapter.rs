//! The SPH participant's adapter: one vertex per body on a RIGID_BODY_REFS mesh. At the first
//! sub-step of each window it reads the bodies' poses and velocities and prescribes them on the
//! body markers (carried forward at those velocities through the window) and starts a new load
//! window; it advances the fluid by the step the driver gives, `min(own step, rest of the
//! window)`, in as many solver steps as the stability limit needs; after every sub-step it
//! writes each body's loads averaged over the window so far, so the value sent at the window's
//! end is the average over the whole window (the impulse the fluid gave, divided by the window).
//!
//! In 2D the solver's loads are per metre of depth; they are multiplied by the model's
//! `depth` before they are written, so the solid receives whole-body loads.
//!
//! Marker accelerations (they enter the marker pressure) are the change of the velocities read
//! between two windows divided by the time between them; zero in the first window.

use crate::error::{solver, Error};
use crate::interface::Interface;
use crate::output::{Output, OutputSettings};
use nalgebra::{Isometry3, Point3, Translation3, UnitQuaternion, Vector3};
use tidelink_adapter_core::{Adapter, AdapterResult, CouplingData};
use tidelink_sph_solver::{BodyId, Motion, Simulation, SphError, SphState};

/// A coupling body: vertex i of the mesh is body i of the participant file.
#[derive(Debug, Clone)]
pub struct CouplingBody {
    /// The participant file's name.
    pub name: String,
    /// Its index in the simulation.
    pub id: BodyId,
    /// Initial pose (the vertex is its translation).
    pub initial: Isometry3<f64>,
}

/// Velocities read at one time, for the accelerations of the next window.
#[derive(Debug, Clone)]
struct Read {
    time: f64,
    velocities: Vec<(Vector3<f64>, Vector3<f64>)>,
}

/// What a window start saves for implicit schemes: restoring it repeats the window bit for bit.
#[derive(Debug, Clone)]
struct Checkpoint {
    state: SphState,
    previous: Option<Read>,
    own_step: f64,
    written: Vec<(Vector3<f64>, Vector3<f64>)>,
}

/// The SPH solver behind the `Adapter` trait.
pub struct SphAdapter {
    name: String,
    sim: Simulation,
    iface: Interface,
    bodies: Vec<CouplingBody>,
    /// Multiplier of the solver's loads (2D: the depth along y; 3D: 1).
    depth: f64,
    /// Cap on the solver's own step (s).
    step_cap: f64,
    /// The stability limit at the current state, capped (the driver asks through `&self`).
    own_step: f64,
    previous: Option<Read>,
    /// Loads last written, per body (force, torque), whole-body values.
    written: Vec<(Vector3<f64>, Vector3<f64>)>,
    output_settings: Option<OutputSettings>,
    output: Option<Output>,
    checkpoint: Option<Checkpoint>,
    /// Whether the first loss of fluid out of the domain has been warned about.
    lost_warned: bool,
}

impl SphAdapter {
    /// The adapter around a built simulation; `depth` multiplies the loads (2D), `step_cap`
    /// limits the solver's step, `output` is none for `output.format: NONE`. Fails when the
    /// solver has no stable step at the initial state.
    pub fn new(
        name: &str,
        mut sim: Simulation,
        iface: Interface,
        bodies: Vec<CouplingBody>,
        depth: f64,
        step_cap: Option<f64>,
        output: Option<OutputSettings>,
    ) -> Result<Self, SphError> {
        let step_cap = step_cap.unwrap_or(f64::INFINITY);
        let own_step = sim.stable_time_step()?.min(step_cap);
        let written = vec![(Vector3::zeros(), Vector3::zeros()); bodies.len()];
        Ok(SphAdapter {
            name: name.to_string(),
            sim,
            iface,
            bodies,
            depth,
            step_cap,
            own_step,
            previous: None,
            written,
            output_settings: output,
            output: None,
            checkpoint: None,
            lost_warned: false,
        })
    }

    /// The simulation (for tests and summaries).
    pub fn simulation(&self) -> &Simulation {
        &self.sim
    }

    /// The files written so far.
    pub fn output_paths(&self) -> Vec<std::path::PathBuf> {
        self.output.as_ref().map(Output::paths).unwrap_or_default()
    }

    fn refresh_step(&mut self, time: f64) -> AdapterResult<()> {
        self.own_step = self.sim.stable_time_step().map_err(solver(time))?.min(self.step_cap);
        Ok(())
    }
}

impl Adapter for SphAdapter {
    fn name(&self) -> &str {
        &self.name
    }

    fn initialize_participant(&mut self, coupling: &mut dyn CouplingData) -> AdapterResult<()> {
        let points: Vec<[f64; 3]> = self.bodies.iter().map(|b| b.initial.translation.vector.into()).collect();
        self.iface.register(coupling, &points)?;
        if let Some(settings) = self.output_settings.clone() {
            let names: Vec<String> = self.bodies.iter().map(|b| b.name.clone()).collect();
            self.output = Some(Output::create(settings, &names)?);
        }
        Ok(())
    }

    fn read_data(&mut self, coupling: &mut dyn CouplingData, time: f64, rel: f64) -> AdapterResult<()> {
        let read = self.iface.read(coupling, rel)?;
        let vectors = |v: Vec<[f64; 3]>| -> Vec<Vector3<f64>> { v.into_iter().map(Vector3::from).collect() };
        let positions = vectors(read.positions);
        let velocities = vectors(read.velocities);
        let rotations = read.rotations.map(vectors);
        let angular = match read.angular_velocities {
            Some(w) => vectors(w),
            None => vec![Vector3::zeros(); self.bodies.len()],
        };
        let now =
            Read { time: time + rel, velocities: velocities.iter().copied().zip(angular.iter().copied()).collect() };
        for (k, body) in self.bodies.iter().enumerate() {
            let rotation = match &rotations {
                Some(r) => UnitQuaternion::from_scaled_axis(r[k]),
                None => body.initial.rotation,
            };
            let (linacc, angacc) = match &self.previous {
                Some(p) if now.time > p.time => {
                    let dt = now.time - p.time;
                    ((now.velocities[k].0 - p.velocities[k].0) / dt, (now.velocities[k].1 - p.velocities[k].1) / dt)
                }
                _ => (Vector3::zeros(), Vector3::zeros()),
            };
            let motion = Motion {
                pose: Isometry3::from_parts(Translation3::from(positions[k]), rotation),
                linvel: velocities[k],
                angvel: angular[k],
                linacc,
                angacc,
            };
            self.sim.set_body_motion(body.id, motion).map_err(solver(time))?;
        }
        self.previous = Some(now);
        self.sim.start_load_window();
        self.refresh_step(time)
    }

    fn write_data(&mut self, coupling: &mut dyn CouplingData) -> AdapterResult<()> {
        let mut loads = Vec::with_capacity(self.bodies.len());
        for (k, b) in self.bodies.iter().enumerate() {
            let l = self.sim.body_loads(b.id).map_err(solver(self.sim.time()))?;
            let (f, t) = (l.force * self.depth, l.torque * self.depth);
            loads.push((f.into(), t.into()));
            self.written[k] = (f, t);
        }
        self.iface.write_loads(coupling, &loads)
    }

    /// `dt` in solver steps at the stability limit, the last one shortened to land on `time + dt`.
    fn advance(&mut self, time: f64, dt: f64) -> AdapterResult<()> {
        self.sim.advance(dt).map_err(solver(time))?;
        let lost = self.sim.lost_particles();
        if lost > 0 && !self.lost_warned {
            self.lost_warned = true;
            log::warn!(
                "SPH participant `{}`: by t = {} s, {lost} fluid particles left the domain (the tank with a margin) \
                 and were dropped; the loads miss that water. Make the tank hold the fluid and the bodies' motion",
                self.name,
                time + dt
            );
        }
        self.refresh_step(time + dt)
    }

    fn own_time_step(&self) -> f64 {
        self.own_step
    }

    fn can_checkpoint(&self) -> bool {
        true
    }

    fn write_checkpoint(&mut self) -> AdapterResult<()> {
        self.checkpoint = Some(Checkpoint {
            state: self.sim.save_state(),
            previous: self.previous.clone(),
            own_step: self.own_step,
            written: self.written.clone(),
        });
        Ok(())
    }

    fn read_checkpoint(&mut self) -> AdapterResult<()> {
        let c = self.checkpoint.clone().ok_or(Error::NoCheckpoint)?;
        self.sim.restore_state(&c.state).map_err(solver(c.state.time()))?;
        (self.previous, self.own_step, self.written) = (c.previous, c.own_step, c.written);
        Ok(())
    }

    fn write_output(&mut self, time: f64) -> AdapterResult<()> {
        let Some(out) = self.output.as_mut() else { return Ok(()) };
        let mut rows = Vec::with_capacity(self.bodies.len());
        for (k, b) in self.bodies.iter().enumerate() {
            let pose = self.sim.body_motion(b.id).map_err(solver(time))?.pose;
            rows.push((Point3::from(pose.translation.vector), self.written[k].0, self.written[k].1));
        }
        out.loads_row(time, &rows)?;
        out.frame_if_due(time, &mut self.sim)
    }

    fn finish(&mut self) -> AdapterResult<()> {
        let (lost, left) = (self.sim.lost_particles(), self.sim.fluid_count());
        if lost > 0 {
            log::warn!(
                "SPH participant `{}`: {lost} of {} fluid particles ({:.1} %) left the domain during the run and were \
                 dropped",
                self.name,
                lost + left,
                100.0 * lost as f64 / (lost + left) as f64
            );
        }
        log::info!(
            "SPH participant `{}`: {} solver steps, {} fluid particles at the end ({} left the domain)",
            self.name,
            self.sim.steps(),
            self.sim.fluid_count(),
            self.sim.lost_particles()
        );
        match self.output.as_mut() {
            Some(out) => out.flush(),
            None => Ok(()),
        }
    }
}
