//! Radiation memory force of the Cummins equation on the 6N DOFs of all bodies:
//! `F_rad(t) = −∫_0^T K(τ) v(t − τ) dτ`, with `K` the full 6N × 6N impulse response (body-to-body
//! coupling) and `v` the velocities of all bodies (`[vx, vy, vz, ωx, ωy, ωz]` per body, body order
//! of the file; angular velocities in the global frame, as the BEM blocks are).
//!
//! Two interchangeable models for a fixed step `dt` (the coupling window), both behind
//! [`RadiationModel`]: [`DirectConvolution`] (trapezoid sum over the resampled IRF, WEC-Sim's CIC
//! manner) and [`StateSpaceModel`] (per-entry realisations, discretised exactly with a
//! first-order hold; cost independent of the IRF length). The realisations are the file's or our
//! own, identified from the IRF by [`identify`] (ERA with order selection and a fit target).
//!
//! Time semantics, common to both: the k-th call of [`RadiationModel::push`] (k = 0, 1, …) records
//! the velocity at `t_k = k·dt`; [`RadiationModel::force`] then returns `F_rad(t_k)`, the force
//! belonging to that same instant (it uses `v(t_k)` itself). The velocity before `t = 0` is zero,
//! and between samples it is taken as linear (so the first sample is reached by a ramp from 0 at
//! `−dt`; that is what the trapezoid rule's end weights and the first-order hold both mean).

mod convolution;
mod dot;
mod error;
mod foh;
mod identify;
mod kernel;
mod logm;
mod state_space;
#[cfg(test)]
mod tests;

pub use convolution::DirectConvolution;
pub use error::RadiationError;
pub use foh::{discretise_foh, FohEntry};
pub use identify::{identify, EntryFit, FitOptions, Identified, IDENTIFY_VERSION};
pub use kernel::Irf;
pub use state_space::{Feedthrough, StateSpaceModel, StateSpaceSet};

/// A radiation memory model stepped at a fixed `dt`, so the load model can switch between the
/// convolution and the state space without knowing which it holds.
pub trait RadiationModel {
    /// The model's DOF count, step and push count (what every model keeps the same way).
    fn clock(&self) -> &PushClock;

    /// Number of DOFs `6N` of the velocity and force vectors.
    fn dofs(&self) -> usize {
        self.clock().dofs
    }

    /// The fixed step between two pushes (s).
    fn dt(&self) -> f64 {
        self.clock().dt
    }

    /// Number of velocities pushed since construction or the last [`RadiationModel::reset`].
    fn pushes(&self) -> usize {
        self.clock().pushes
    }

    /// Time `t_k = k·dt` of the last pushed velocity (the time [`RadiationModel::force`] belongs
    /// to), or `None` before the first push.
    fn time(&self) -> Option<f64> {
        self.pushes().checked_sub(1).map(|k| k as f64 * self.dt())
    }

    /// Records `v(t_k)`, `t_k = k·dt` with `k` the number of earlier pushes; `v.len()` must be `6N`.
    fn push(&mut self, v: &[f64]) -> Result<(), RadiationError>;

    /// Writes `F_rad(t_k)` for the last pushed `t_k` into `out` (`6N` long); the sign is that of a
    /// force on the bodies (it opposes the motion).
    fn force(&self, out: &mut [f64]) -> Result<(), RadiationError>;

    /// Forgets the whole history: the next push is at `t = 0` again.
    fn reset(&mut self);

    /// The memory as it is now (history or states, and the push count): what a checkpoint of an
    /// implicit coupling window saves, so the window can be repeated.
    fn save_state(&self) -> RadiationState;

    /// Puts back a memory saved from this model by [`RadiationModel::save_state`]; the next
    /// forces are then bit for bit those after the save. A state of another model is refused.
    fn restore_state(&mut self, state: &RadiationState) -> Result<(), RadiationError>;
}

/// The DOF count `6N`, the fixed step and the number of pushes of a radiation model, with the
/// checks of the vectors pushed and asked for (the same in every model).
#[derive(Debug, Clone, PartialEq)]
pub struct PushClock {
    dofs: usize,
    dt: f64,
    pushes: usize,
}

impl PushClock {
    /// A clock before the first push.
    fn new(dofs: usize, dt: f64) -> Self {
        PushClock { dofs, dt, pushes: 0 }
    }

    /// A velocity to push must have `6N` entries.
    fn check_velocity(&self, v: &[f64]) -> Result<(), RadiationError> {
        if v.len() == self.dofs {
            Ok(())
        } else {
            Err(RadiationError::VelocityLength { got: v.len(), expected: self.dofs })
        }
    }

    /// A force can be written into `out` if it has `6N` entries and a velocity was pushed.
    fn check_force(&self, out: &[f64]) -> Result<(), RadiationError> {
        if out.len() != self.dofs {
            return Err(RadiationError::ForceLength { got: out.len(), expected: self.dofs });
        }
        if self.pushes == 0 {
            return Err(RadiationError::NoVelocity);
        }
        Ok(())
    }
}

/// The mutable part of a radiation model (its push count and the numbers that carry the memory),
/// saved and restored for repeated coupling windows; the kernel is not part of it.
#[derive(Debug, Clone, PartialEq)]
pub struct RadiationState {
    pushes: usize,
    values: Vec<f64>,
}

impl RadiationState {
    /// A state of `pushes` pushes carried by `values`.
    fn new(pushes: usize, values: Vec<f64>) -> Self {
        RadiationState { pushes, values }
    }

    /// The values, if there are `expected` of them (a state of this model's shape).
    fn values(&self, expected: usize) -> Result<&[f64], RadiationError> {
        if self.values.len() == expected {
            Ok(&self.values)
        } else {
            Err(RadiationError::ForeignState { expected, got: self.values.len() })
        }
    }
}

/// Checks a step size once for every model.
fn check_dt(dt: f64) -> Result<(), RadiationError> {
    if dt > 0.0 && dt.is_finite() {
        Ok(())
    } else {
        Err(RadiationError::NonPositiveStep(dt))
    }
}
