//! Saved kinematic states, for checkpoints: restoring one gives back exactly (bit for bit)
//! the state that was saved, so a repeated window starts from the same numbers.

use nalgebra::{UnitQuaternion, Vector3};

/// The kinematic state of one body (COM position and orientation, velocities).
#[derive(Debug, Clone, PartialEq)]
pub struct BodyState {
    /// COM position (m, world).
    pub position: Vector3<f64>,
    /// Orientation of the COM frame (world).
    pub orientation: UnitQuaternion<f64>,
    /// COM velocity (m/s, world).
    pub linvel: Vector3<f64>,
    /// Angular velocity (rad/s, world axes).
    pub angvel: Vector3<f64>,
}

/// The states of every body of a set, in handle order.
#[derive(Debug, Clone, PartialEq)]
pub struct BodySetState {
    /// One state per body; restoring checks that the count matches.
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
    /// Generalized accelerations of the last step, 6 per free body (HHT's predictor needs them).
    pub accelerations: Vec<f64>,
    /// Constraint multipliers of the last step, one per joint equation.
    pub multipliers: Vec<f64>,
    /// The last step's force residual, which HHT's α weighting carries into the next step.
    pub residual: Vec<f64>,
    /// A multistep scheme's memory of the step before (BDF2: its start velocities and its
    /// displacement increment, 6 + 6 per free body); empty before the first step.
    pub previous: Vec<f64>,
    /// The factored Newton matrix an integrator carries from step to step (HHT's modified
    /// Newton), saved so that a repeated window starts from the same factors; empty when none.
    pub newton: NewtonFactors,
}

/// An LU factorisation of a Newton matrix with what it was made for: restored with the history,
/// it makes the next step's iterations the same bit for bit as the first time through.
#[derive(Debug, Clone, PartialEq, Default)]
pub struct NewtonFactors {
    /// `L` (unit diagonal, below) and `U` (on and above), column by column; empty: no factors.
    pub(crate) lu: Vec<f64>,
    /// The row swaps, in order.
    pub(crate) swaps: Vec<(usize, usize)>,
    /// The bits of what the matrix was made with besides the state (HHT: `h` and `α`).
    pub(crate) key: [u64; 2],
}

impl NewtonFactors {
    /// All the numbers as bit patterns (the entries, the swaps, the key).
    fn bits(&self) -> impl Iterator<Item = u64> + '_ {
        self.lu
            .iter()
            .map(|x| x.to_bits())
            .chain(self.swaps.iter().flat_map(|&(i, j)| [i as u64, j as u64]))
            .chain(self.key)
    }
}

impl IntegratorHistory {
    /// All the numbers as their bit patterns.
    pub fn to_bits(&self) -> Vec<u64> {
        std::iter::once(self.time)
            .chain(self.accelerations.iter().copied())
            .chain(self.multipliers.iter().copied())
            .chain(self.residual.iter().copied())
            .chain(self.previous.iter().copied())
            .map(f64::to_bits)
            .chain(self.newton.bits())
            .collect()
    }
}
