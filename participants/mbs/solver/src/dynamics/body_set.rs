//! The set of bodies one integration pipeline advances, addressed by handles (the
//! rapier layout): handles stay valid for the life of the set, since bodies are never removed.

use crate::dynamics::body::RigidBody;
use crate::error::MbsError;
use crate::state::{BodySetState, BodyState};
use nalgebra::Vector3;

/// Identifies a body of a [`BodySet`].
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub struct BodyHandle(pub(crate) usize);

impl BodyHandle {
    /// The position of the body in insertion order (for messages and output).
    pub fn index(self) -> usize {
        self.0
    }
}

/// All bodies of a system, plus the gravity that acts on every free one.
#[derive(Debug, Clone, PartialEq)]
pub struct BodySet {
    bodies: Vec<RigidBody>,
    /// Gravitational acceleration (world), applied to every free body at each step.
    pub gravity: Vector3<f64>,
}

impl BodySet {
    /// An empty set under `gravity`.
    pub fn new(gravity: Vector3<f64>) -> Self {
        BodySet { bodies: Vec::new(), gravity }
    }
    /// Adds a body and returns its handle.
    pub fn insert(&mut self, body: RigidBody) -> BodyHandle {
        self.bodies.push(body);
        BodyHandle(self.bodies.len() - 1)
    }
    /// The body of `h`; `None` for a handle of another set.
    pub fn get(&self, h: BodyHandle) -> Option<&RigidBody> {
        self.bodies.get(h.0)
    }
    /// The body of `h` for changing its velocity or loads.
    pub fn get_mut(&mut self, h: BodyHandle) -> Option<&mut RigidBody> {
        self.bodies.get_mut(h.0)
    }
    /// Number of bodies, fixed ones included.
    pub fn len(&self) -> usize {
        self.bodies.len()
    }
    /// Whether the set has no body.
    pub fn is_empty(&self) -> bool {
        self.bodies.is_empty()
    }
    /// Every body with its handle, in insertion order.
    pub fn iter(&self) -> impl Iterator<Item = (BodyHandle, &RigidBody)> {
        self.bodies.iter().enumerate().map(|(i, b)| (BodyHandle(i), b))
    }
    /// As [`Self::iter`], for changing velocities or loads.
    pub fn iter_mut(&mut self) -> impl Iterator<Item = (BodyHandle, &mut RigidBody)> {
        self.bodies.iter_mut().enumerate().map(|(i, b)| (BodyHandle(i), b))
    }
    /// Makes `self` equal to `other`, reusing `self`'s list (no allocation when it has the
    /// length already: what the HHT step copies its trial states with).
    pub fn copy_from(&mut self, other: &BodySet) {
        self.bodies.clone_from(&other.bodies);
        self.gravity = other.gravity;
    }
    /// Copies the kinematic state (positions, orientations, velocities) of `other`'s bodies
    /// into the bodies at the same places, for sets otherwise equal (HHT's trial states within
    /// one step differ in nothing else): a fraction of [`Self::copy_from`]'s bytes.
    pub(crate) fn copy_motion_from(&mut self, other: &BodySet) {
        debug_assert_eq!(self.bodies.len(), other.bodies.len());
        for (a, b) in self.bodies.iter_mut().zip(&other.bodies) {
            a.position = b.position;
            a.orientation = b.orientation;
            a.linvel = b.linvel;
            a.angvel = b.angvel;
        }
    }
    /// Empties every body's force and torque accumulator.
    pub fn clear_accumulators(&mut self) {
        self.bodies.iter_mut().for_each(RigidBody::clear_accumulators);
    }

    /// A bitwise copy of every body's kinematic state (checkpoints of implicit coupling).
    pub fn save_state(&self) -> BodySetState {
        BodySetState {
            bodies: self
                .bodies
                .iter()
                .map(|b| BodyState {
                    position: b.position,
                    orientation: b.orientation,
                    linvel: b.linvel,
                    angvel: b.angvel,
                })
                .collect(),
        }
    }
    /// Restores a state saved from this set, bit for bit; loads are left as they are.
    pub fn restore_state(&mut self, state: &BodySetState) -> Result<(), MbsError> {
        if state.bodies.len() != self.bodies.len() {
            return Err(MbsError::StateMismatch { saved: state.bodies.len(), actual: self.bodies.len() });
        }
        for (b, s) in self.bodies.iter_mut().zip(&state.bodies) {
            b.position = s.position;
            b.orientation = s.orientation;
            b.linvel = s.linvel;
            b.angvel = s.angvel;
        }
        Ok(())
    }
}
