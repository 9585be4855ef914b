//! The inputs and outputs a derivative is taken between, and how each maps onto the body
//! coordinates: an input to generalized forces (the map `B`), an output from position
//! increments and velocities (the map `C`), through the real lever arms of their points.
//!
//! Points are given in the body's reference frame (where users place them and where coupling
//! meshes live), `[0, 0, 0]` being the reference point. Rotations are world rotation
//! increments `δθ` (the end orientation is `exp(δθ) R`), as everywhere in the solver.

use crate::derivatives::error::DerivativeError;
use crate::derivatives::rotation::skew;
use crate::dynamics::body::RigidBody;
use crate::dynamics::body_set::{BodyHandle, BodySet};
use crate::solver::assembly::DofMap;
use nalgebra::{DMatrix, Matrix3, Point3, Vector3};

/// An input: a load added to a body's accumulators for the step (held over it, as the coupling
/// applies loads). Three channels each: the world x, y, z components.
#[derive(Debug, Clone, Copy, PartialEq)]
pub enum Input {
    /// A force (N) at a point of the body (reference frame); its moment about the centre of
    /// mass is taken with the lever arm of the step's start, as the coupling does.
    Force {
        /// The body.
        body: BodyHandle,
        /// The point, in the body's reference frame.
        point: Point3<f64>,
    },
    /// A torque (N m, world axes).
    Torque {
        /// The body.
        body: BodyHandle,
    },
}

/// An output: a quantity of the state after the step (or of the linear model's state). Three
/// channels each (world x, y, z), except [`Output::State`] (one).
#[derive(Debug, Clone, Copy, PartialEq)]
pub enum Output {
    /// The world position of a point of the body (reference frame coordinates).
    Position {
        /// The body.
        body: BodyHandle,
        /// The point, in the body's reference frame.
        point: Point3<f64>,
    },
    /// The world rotation increment of the body's orientation.
    Rotation {
        /// The body.
        body: BodyHandle,
    },
    /// The world velocity of a point of the body.
    Velocity {
        /// The body.
        body: BodyHandle,
        /// The point, in the body's reference frame.
        point: Point3<f64>,
    },
    /// The angular velocity (world).
    AngularVelocity {
        /// The body.
        body: BodyHandle,
    },
    /// Entry `index` of the plain state `[δq; v]` (6 position increments, then 6 velocities,
    /// per free body in handle order; `δq` as translations and world rotation increments):
    /// a selection with no lever arm.
    State(usize),
}

impl Input {
    /// Channels (3).
    pub const CHANNELS: usize = 3;
    /// The body the input acts on.
    pub fn body(&self) -> BodyHandle {
        match *self {
            Input::Force { body, .. } | Input::Torque { body } => body,
        }
    }
}

impl Output {
    /// Channels of this output (3, or 1 for a state entry).
    pub fn channels(&self) -> usize {
        match self {
            Output::State(_) => 1,
            _ => 3,
        }
    }
    fn body(&self) -> Option<BodyHandle> {
        match *self {
            Output::Position { body, .. }
            | Output::Rotation { body }
            | Output::Velocity { body, .. }
            | Output::AngularVelocity { body } => Some(body),
            Output::State(_) => None,
        }
    }
}

/// Checks every channel names a body of `bodies` (and a state entry within `[δq; v]`).
pub fn check(bodies: &BodySet, dofs: &DofMap, inputs: &[Input], outputs: &[Output]) -> Result<(), DerivativeError> {
    let known = |what: String, h: BodyHandle| {
        if bodies.get(h).is_some() {
            Ok(())
        } else {
            Err(DerivativeError::UnknownBody { what, index: h.index(), bodies: bodies.len() })
        }
    };
    for (i, inp) in inputs.iter().enumerate() {
        known(format!("input {i}"), inp.body())?;
    }
    for (i, out) in outputs.iter().enumerate() {
        if let Some(h) = out.body() {
            known(format!("output {i}"), h)?;
        }
        if let Output::State(k) = *out {
            if k >= 2 * dofs.n {
                return Err(DerivativeError::StateOutOfRange { what: format!("{i}"), index: k, len: 2 * dofs.n });
            }
        }
    }
    Ok(())
}

/// Number of input channels.
pub fn input_len(inputs: &[Input]) -> usize {
    inputs.len() * Input::CHANNELS
}

/// Number of output channels.
pub fn output_len(outputs: &[Output]) -> usize {
    outputs.iter().map(Output::channels).sum()
}

/// The lever arm from the centre of mass to `point` (reference frame), world axes.
pub fn lever(b: &RigidBody, point: &Point3<f64>) -> Vector3<f64> {
    (b.reference_pose() * point).coords - b.position
}

/// `B` (n × 3 per input): the generalized forces `[f; r × f]` or `[0; τ]` of unit loads, lever
/// arms at `bodies` (the step's start). Inputs on fixed bodies give zero columns.
pub fn input_map(bodies: &BodySet, dofs: &DofMap, inputs: &[Input]) -> DMatrix<f64> {
    let mut b = DMatrix::zeros(dofs.n, input_len(inputs));
    for (i, inp) in inputs.iter().enumerate() {
        let (Some(o), Some(body)) = (dofs.offset(inp.body()), bodies.get(inp.body())) else { continue };
        let c = 3 * i;
        match inp {
            Input::Force { point, .. } => {
                b.view_mut((o, c), (3, 3)).copy_from(&Matrix3::identity());
                b.view_mut((o + 3, c), (3, 3)).copy_from(&skew(&lever(body, point)));
            }
            Input::Torque { .. } => b.view_mut((o + 3, c), (3, 3)).copy_from(&Matrix3::identity()),
        }
    }
    b
}

/// The output rows split by what they read: `P` on the position increments `δq` and `V` on
/// the velocities `v` (each rows × n), at the state `bodies`:
///
/// - point position `x + R r`: `δx − [r]× δθ`;
/// - rotation: `δθ`;
/// - point velocity `v + ω × r`: `v − [r]× ω` and `−[ω]× [r]× δθ` (the lever arm turns);
/// - angular velocity: `ω`; state entry: a one.
pub fn output_maps(bodies: &BodySet, dofs: &DofMap, outputs: &[Output]) -> (DMatrix<f64>, DMatrix<f64>) {
    let rows = output_len(outputs);
    let (mut p, mut v) = (DMatrix::zeros(rows, dofs.n), DMatrix::zeros(rows, dofs.n));
    let mut row = 0;
    for out in outputs {
        if let Output::State(k) = *out {
            if k < dofs.n {
                p[(row, k)] = 1.0;
            } else {
                v[(row, k - dofs.n)] = 1.0;
            }
            row += 1;
            continue;
        }
        let h = out.body().expect("every other output names a body");
        if let (Some(o), Some(b)) = (dofs.offset(h), bodies.get(h)) {
            let eye = Matrix3::identity();
            match out {
                Output::Position { point, .. } => {
                    p.view_mut((row, o), (3, 3)).copy_from(&eye);
                    p.view_mut((row, o + 3), (3, 3)).copy_from(&-skew(&lever(b, point)));
                }
                Output::Rotation { .. } => p.view_mut((row, o + 3), (3, 3)).copy_from(&eye),
                Output::Velocity { point, .. } => {
                    let r = skew(&lever(b, point));
                    v.view_mut((row, o), (3, 3)).copy_from(&eye);
                    v.view_mut((row, o + 3), (3, 3)).copy_from(&-r);
                    p.view_mut((row, o + 3), (3, 3)).copy_from(&(-skew(&b.angvel) * r));
                }
                Output::AngularVelocity { .. } => v.view_mut((row, o + 3), (3, 3)).copy_from(&eye),
                Output::State(_) => unreachable!("handled above"),
            }
        }
        row += 3;
    }
    (p, v)
}
