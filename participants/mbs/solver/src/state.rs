//! Saved kinematic states, for checkpoints: restoring one gives back exactly (bit for bit)
//! the state that was saved, so a repeated window starts from the same numbers.

use nalgebra::{UnitQuaternion, Vector3};

/// The kinematic state of one body (COM position and orientation, velocities).
#[derive(Debug, Clone, PartialEq)]
pub struct BodyState {
    pub position: Vector3<f64>,
    pub orientation: UnitQuaternion<f64>,
    pub linvel: Vector3<f64>,
    pub angvel: Vector3<f64>,
}

/// The states of every body of a set, in handle order.
#[derive(Debug, Clone, PartialEq)]
pub struct BodySetState {
    pub bodies: Vec<BodyState>,
}

impl BodySetState {
    /// All the numbers as their bit patterns, to compare states exactly (NaN included).
    pub fn to_bits(&self) -> Vec<u64> {
        self.bodies
            .iter()
            .flat_map(|b| {
                b.position
                    .iter()
                    .chain(b.orientation.coords.iter())
                    .chain(b.linvel.iter())
                    .chain(b.angvel.iter())
                    .copied()
                    .collect::<Vec<f64>>()
            })
            .map(f64::to_bits)
            .collect()
    }
}

/// What a multistep-like integrator carries between steps (HHT: accelerations,
/// multipliers and the previous step's force residual), saved bit for bit.
#[derive(Debug, Clone, PartialEq, Default)]
pub struct IntegratorHistory {
    /// The integrator's time (for messages).
    pub time: f64,
    pub accelerations: Vec<f64>,
    pub multipliers: Vec<f64>,
    pub residual: Vec<f64>,
}

impl IntegratorHistory {
    /// All the numbers as their bit patterns.
    pub fn to_bits(&self) -> Vec<u64> {
        std::iter::once(self.time)
            .chain(self.accelerations.iter().copied())
            .chain(self.multipliers.iter().copied())
            .chain(self.residual.iter().copied())
            .map(f64::to_bits)
            .collect()
    }
}
