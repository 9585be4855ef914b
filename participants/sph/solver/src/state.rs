//! Save and restore of the whole dynamic state, for implicit coupling: restoring a state and
//! stepping again reproduces the first run bit for bit (every sum runs in a fixed order,
//! whatever the number of threads).

use crate::bodies::Body;
use crate::error::{Result, SphError};
use crate::particles::{Fluid, Markers};
use crate::pipeline::Simulation;

/// A copy of a simulation's particle arrays, bodies and clock.
#[derive(Clone, PartialEq)]
pub struct SphState {
    time: f64,
    steps: u64,
    fluid: Fluid,
    markers: Markers,
    bodies: Vec<Body>,
    lost: usize,
}

impl std::fmt::Debug for SphState {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("SphState")
            .field("time", &self.time)
            .field("steps", &self.steps)
            .field("fluid", &self.fluid.len())
            .field("markers", &self.markers.len())
            .field("bodies", &self.bodies.len())
            .finish_non_exhaustive()
    }
}

impl SphState {
    /// Simulated time of the state (s).
    pub fn time(&self) -> f64 {
        self.time
    }

    /// Fluid particles in the state.
    pub fn fluid_count(&self) -> usize {
        self.fluid.len()
    }
}

impl Simulation {
    /// A copy of the current state.
    pub fn save_state(&self) -> SphState {
        SphState {
            time: self.time,
            steps: self.steps,
            fluid: self.fluid.clone(),
            markers: self.markers.clone(),
            bodies: self.bodies.clone(),
            lost: self.lost,
        }
    }

    /// Goes back to `state`, which must come from this simulation (same bodies and markers).
    pub fn restore_state(&mut self, state: &SphState) -> Result<()> {
        let names = |b: &[Body]| b.iter().map(|b| b.name.clone()).collect::<Vec<_>>();
        if names(&state.bodies) != names(&self.bodies) {
            return Err(SphError::StateMismatch(format!(
                "bodies {:?}, this simulation has {:?}",
                names(&state.bodies),
                names(&self.bodies)
            )));
        }
        if state.markers.len() != self.markers.len() {
            return Err(SphError::StateMismatch(format!(
                "{} markers, this simulation has {}",
                state.markers.len(),
                self.markers.len()
            )));
        }
        self.time = state.time;
        self.steps = state.steps;
        self.fluid.clone_from(&state.fluid);
        self.markers.clone_from(&state.markers);
        self.bodies.clone_from(&state.bodies);
        self.lost = state.lost;
        self.invalidate();
        Ok(())
    }
}
