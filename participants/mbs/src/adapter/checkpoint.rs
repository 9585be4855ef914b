//! Checkpoints: the whole system state bit for bit (bodies, force-element coefficients a callback
//! changed, the integrator's history), so a repeated window gives the same result.

use crate::error::Error;
use tidelink_mbs_solver::dynamics::force_element::ForceElementSet;
use tidelink_mbs_solver::solver::integrator::Integrator;
use tidelink_mbs_solver::state::{BodySetState, IntegratorHistory};
use tidelink_mbs_solver::system::MultibodySystem;

/// What a checkpoint holds: the whole system state, bit for bit (the driver keeps the time).
#[derive(Debug, Clone)]
pub(super) struct Checkpoint {
    bodies: BodySetState,
    forces: ForceElementSet,
    history: IntegratorHistory,
}

impl Checkpoint {
    /// The state of `system` and `integrator` now.
    pub(super) fn save(system: &MultibodySystem, integrator: &dyn Integrator) -> Self {
        Checkpoint {
            bodies: system.bodies.save_state(),
            forces: system.forces.clone(),
            history: integrator.save_history(),
        }
    }

    /// Puts the saved state back.
    pub(super) fn restore(&self, system: &mut MultibodySystem, integrator: &mut dyn Integrator) -> Result<(), Error> {
        system.bodies.restore_state(&self.bodies).map_err(|e| Error::Restore(Box::new(e)))?;
        system.forces = self.forces.clone();
        integrator.restore_history(&self.history);
        Ok(())
    }
}
