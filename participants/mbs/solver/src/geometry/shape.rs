//! Geometric shapes attached to a body (Chrono's `visualization.shapes` and `contact.shapes`):
//! kept with the model for plots and, later, for placing SPH boundary markers. They carry
//! no mass: the body's mass and inertia are given separately.

use crate::dynamics::body_set::BodyHandle;
use nalgebra::{Isometry3, Vector3};
use std::path::PathBuf;

/// A shape primitive, in its own frame (centre at the origin; axes as documented).
#[derive(Debug, Clone, PartialEq)]
pub enum ShapeKind {
    /// A sphere centred on the origin.
    Sphere {
        /// Radius (m).
        radius: f64,
    },
    /// A box centred on the origin, edges along the shape frame's axes.
    Box {
        /// Full edge lengths along the shape frame's x, y, z (m).
        dimensions: Vector3<f64>,
    },
    /// Axis along the shape frame's `axis` (unit), centred on the origin.
    Cylinder {
        /// Radius (m).
        radius: f64,
        /// Full length along the axis (m).
        length: f64,
        /// Unit axis direction in the shape frame.
        axis: Vector3<f64>,
    },
    /// A convex hull or a triangle mesh read from a file, scaled.
    Mesh {
        /// The mesh file as the model names it; the solver never reads it.
        filename: PathBuf,
        /// Uniform scale applied to the file's coordinates.
        scale: f64,
        /// `true` for the convex hull of the mesh (Chrono's `HULL`), `false` for the mesh itself (`MESH`).
        convex_hull: bool,
    },
}

/// A shape placed on a body: where it sits in the body's reference frame, and what for.
#[derive(Debug, Clone, PartialEq)]
pub struct BodyShape {
    /// The body the shape moves with.
    pub body: BodyHandle,
    /// The primitive or mesh.
    pub kind: ShapeKind,
    /// Pose of the shape frame in the body's reference frame.
    pub pose: Isometry3<f64>,
    /// RGB in [0, 1], if given.
    pub color: Option<[f64; 3]>,
    /// `true` for `contact.shapes` (collision geometry), `false` for visualization.
    pub contact: bool,
}

impl ShapeKind {
    /// The enclosed volume (m³); `None` for meshes, whose volume needs the file.
    pub fn volume(&self) -> Option<f64> {
        use std::f64::consts::PI;
        match self {
            ShapeKind::Sphere { radius } => Some(4.0 / 3.0 * PI * radius.powi(3)),
            ShapeKind::Box { dimensions } => Some(dimensions.x * dimensions.y * dimensions.z),
            ShapeKind::Cylinder { radius, length, .. } => Some(PI * radius * radius * length),
            ShapeKind::Mesh { .. } => None,
        }
    }
}
