//! The buoyancy participant's adapter: one vertex (the sphere's centre) on a
//! RIGID_BODY_REFS mesh; it reads the sphere's position and velocity and writes the force
//! (and a zero torque) computed from the last state read.

use crate::stand_in::{Exchange, StandIn};
use nalgebra::Vector3;
use tidelink_adapter_core::body_interface::{BodyInterface, Needs, Translation, TranslationNeeds};
use tidelink_adapter_core::spec::ParticipantFile;
use tidelink_adapter_core::{AdapterResult, CouplingData};
use tidelink_buoyancy_solver::SphereInWater;

/// What the buoyancy participant needs of its mesh, in its messages' words.
const NEEDS: Needs<TranslationNeeds> = Needs {
    who: "the buoyancy participant",
    three_d: "the buoyancy participant needs a 3D mesh (the free surface is the plane z = water_level)",
    motion: TranslationNeeds { positions: "the sphere's centre", without_velocities: "the drag stays zero" },
    without_torques: None,
};

/// The stand-in fluid solver behind the `Adapter` trait.
pub type BuoyancyAdapter = StandIn<Sphere>;

/// The sphere's side of the coupling: its mesh and the state its force is computed from.
pub struct Sphere {
    sphere: SphereInWater,
    interface: BodyInterface<Translation>,
    initial_position: Vector3<f64>,
    position: Vector3<f64>,
    velocity: Vector3<f64>,
}

impl BuoyancyAdapter {
    /// Checks the interface of `file` (one RIGID_BODY_REFS mesh reading POSITIONS and
    /// optionally LINEAR_VELOCITIES, writing FORCES and optionally TORQUES) before any
    /// connection is made, so configuration errors come out at start-up.
    pub fn new(file: &ParticipantFile, sphere: SphereInWater, initial_position: Vector3<f64>) -> AdapterResult<Self> {
        let cfg = &file.adapter;
        let interface = BodyInterface::find(cfg, &cfg.interfaces.iter().collect::<Vec<_>>(), NEEDS)?;
        let exchange =
            Sphere { sphere, interface, initial_position, position: initial_position, velocity: Vector3::zeros() };
        Ok(StandIn::with_exchange(&cfg.participant_name, exchange))
    }

    /// The state the next force is computed from (the last one read).
    pub fn state(&self) -> (Vector3<f64>, Vector3<f64>) {
        self.exchange.save()
    }
}

impl Exchange for Sphere {
    /// The position and velocity read last.
    type State = (Vector3<f64>, Vector3<f64>);

    fn initialize(&mut self, coupling: &mut dyn CouplingData) -> AdapterResult<()> {
        self.interface.register(coupling, &[self.initial_position.into()])
    }

    fn read(&mut self, coupling: &mut dyn CouplingData, _time: f64, relative_read_time: f64) -> AdapterResult<()> {
        let read = self.interface.read(coupling, relative_read_time)?;
        self.position = Vector3::from(read.positions[0]);
        if let Some(v) = read.velocities {
            self.velocity = Vector3::from(v[0]);
        }
        Ok(())
    }

    fn write(&mut self, coupling: &mut dyn CouplingData) -> AdapterResult<()> {
        let f = self.sphere.force(&self.position, &self.velocity);
        self.interface.write_loads(coupling, &[(f.into(), [0.0; 3])])
    }

    fn save(&self) -> Self::State {
        (self.position, self.velocity)
    }

    fn restore(&mut self, (position, velocity): Self::State) {
        (self.position, self.velocity) = (position, velocity);
    }
}
