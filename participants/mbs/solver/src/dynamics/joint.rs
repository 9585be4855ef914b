//! Holonomic joints between two bodies (either may be fixed, as ground), kept in a
//! [`JointSet`] next to the [`BodySet`] as rapier does. Each joint is a list of
//! [`ConstraintRow`]s with analytical Jacobians.
//!
//! A joint frame is given in world coordinates at construction and attached to both
//! bodies; its z axis is the joint axis (revolute, prismatic, cylindrical, point-on-line),
//! and a universal joint crosses frame 1's x axis with frame 2's y axis, as in Chrono.

use crate::dynamics::body::RigidBody;
use crate::dynamics::body_set::{BodyHandle, BodySet};
use crate::dynamics::constraint::{self, ConstraintRow};
use crate::error::MbsError;
use nalgebra::{Isometry3, Matrix3, Vector3};

/// The joint families.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum JointKind {
    /// Welds the two frames together (6 equations).
    Lock,
    /// Rotation about the frame's z axis only (5).
    Revolute,
    /// Translation along the frame's z axis only (5).
    Prismatic,
    /// Coincident origins, free rotation (3).
    Spherical,
    /// Coincident origins, frame 1's x stays perpendicular to frame 2's y (4).
    Universal,
    /// Rotation about and translation along the z axis (4).
    Cylindrical,
    /// Frame 2's origin stays on frame 1's z axis (2).
    PointOnLine,
    /// Constant distance between the two frame origins (1).
    Distance,
}

impl JointKind {
    /// How many scalar equations the joint imposes.
    pub fn equations(self) -> usize {
        match self {
            JointKind::Lock => 6,
            JointKind::Revolute | JointKind::Prismatic => 5,
            JointKind::Universal | JointKind::Cylindrical => 4,
            JointKind::Spherical => 3,
            JointKind::PointOnLine => 2,
            JointKind::Distance => 1,
        }
    }
}

/// One joint: its family, its bodies and its frame on each body (relative to the COM frame).
#[derive(Debug, Clone, PartialEq)]
pub struct Joint {
    /// The model's name of the joint, for messages and output.
    pub name: String,
    /// Which equations the joint imposes.
    pub kind: JointKind,
    /// The body that carries frame 1 (for a point-on-line joint, the line).
    pub body1: BodyHandle,
    /// The body that carries frame 2.
    pub body2: BodyHandle,
    frame1: Isometry3<f64>,
    frame2: Isometry3<f64>,
    length: f64,
}

fn local_frame(body: &RigidBody, world: &Isometry3<f64>) -> Isometry3<f64> {
    Isometry3::from_parts(body.position.into(), body.orientation).inverse() * world
}

impl Joint {
    /// A joint of `kind` whose frame is `frame` (world) in the current configuration of
    /// both bodies; a distance joint is refused here (it needs two points, see
    /// [`Joint::distance`]).
    pub fn new(
        name: &str,
        kind: JointKind,
        bodies: &BodySet,
        body1: BodyHandle,
        body2: BodyHandle,
        frame: Isometry3<f64>,
    ) -> Result<Self, MbsError> {
        if kind == JointKind::Distance {
            return Err(MbsError::InvalidElement {
                name: name.into(),
                why: "is a distance joint: it needs two points (Joint::distance)".into(),
            });
        }
        Self::with_frames(name, kind, bodies, body1, body2, frame, frame)
    }

    /// A distance joint between `point1` of body 1 and `point2` of body 2 (world, now):
    /// their current distance is kept.
    pub fn distance(
        name: &str,
        bodies: &BodySet,
        body1: BodyHandle,
        body2: BodyHandle,
        point1: Vector3<f64>,
        point2: Vector3<f64>,
    ) -> Result<Self, MbsError> {
        let f = |p: Vector3<f64>| Isometry3::translation(p.x, p.y, p.z);
        let mut j = Self::with_frames(name, JointKind::Distance, bodies, body1, body2, f(point1), f(point2))?;
        j.length = (point2 - point1).norm();
        Ok(j)
    }

    fn with_frames(
        name: &str,
        kind: JointKind,
        bodies: &BodySet,
        body1: BodyHandle,
        body2: BodyHandle,
        world1: Isometry3<f64>,
        world2: Isometry3<f64>,
    ) -> Result<Self, MbsError> {
        let b1 = bodies.get(body1).ok_or(MbsError::UnknownHandle(body1.index()))?;
        let b2 = bodies.get(body2).ok_or(MbsError::UnknownHandle(body2.index()))?;
        if body1 == body2 {
            return Err(MbsError::InvalidElement { name: name.to_string(), why: "connects a body to itself".into() });
        }
        if b1.fixed && b2.fixed {
            return Err(MbsError::InvalidElement { name: name.to_string(), why: "connects two fixed bodies".into() });
        }
        let finite = world1
            .translation
            .vector
            .iter()
            .chain(world2.translation.vector.iter())
            .chain(world1.rotation.coords.iter())
            .all(|x| x.is_finite());
        if !finite {
            return Err(MbsError::NotFinite("the joint frame"));
        }
        Ok(Joint {
            name: name.to_string(),
            kind,
            body1,
            body2,
            frame1: local_frame(b1, &world1),
            frame2: local_frame(b2, &world2),
            length: 0.0,
        })
    }

    /// The joint's equations at the bodies' current configuration.
    pub fn rows(&self, bodies: &BodySet) -> Vec<ConstraintRow> {
        let mut rows: Vec<ConstraintRow> = Vec::with_capacity(self.kind.equations());
        self.visit_rows(bodies, |r| rows.push(r));
        rows
    }

    /// [`Self::rows`] one by one, in the same order, without a list (the allocation-free
    /// assembly of the dense HHT step).
    pub fn visit_rows(&self, bodies: &BodySet, mut row: impl FnMut(ConstraintRow)) {
        let (Some(b1), Some(b2)) = (bodies.get(self.body1), bodies.get(self.body2)) else { return };
        let world = |b: &RigidBody, f: &Isometry3<f64>| {
            let r = b.orientation * f.translation.vector;
            let axes: Matrix3<f64> = (b.orientation * f.rotation).to_rotation_matrix().into_inner();
            (b.position + r, r, axes)
        };
        let (p1, r1, a1) = world(b1, &self.frame1);
        let (p2, r2, a2) = world(b2, &self.frame2);
        let (x1, y1, z2) = (a1.column(0).into_owned(), a1.column(1).into_owned(), a2.column(2).into_owned());
        let (y2, z1) = (a2.column(1).into_owned(), a1.column(2).into_owned());
        let point = || (0..3).map(move |k| constraint::point_component(p1, r1, p2, r2, Vector3::ith(k, 1.0)));
        let axis = || [constraint::perpendicular(x1, z2), constraint::perpendicular(y1, z2)];
        let line = || [constraint::offset_along(p1, r1, p2, r2, x1), constraint::offset_along(p1, r1, p2, r2, y1)];
        let _ = z1;
        match self.kind {
            JointKind::Lock => {
                point().for_each(&mut row);
                [
                    constraint::perpendicular(x1, y2),
                    constraint::perpendicular(x1, z2),
                    constraint::perpendicular(y1, z2),
                ]
                .into_iter()
                .for_each(&mut row);
            }
            JointKind::Revolute => {
                point().for_each(&mut row);
                axis().into_iter().for_each(&mut row);
            }
            JointKind::Spherical => point().for_each(&mut row),
            JointKind::Universal => {
                point().for_each(&mut row);
                row(constraint::perpendicular(x1, y2));
            }
            JointKind::Cylindrical => {
                axis().into_iter().for_each(&mut row);
                line().into_iter().for_each(&mut row);
            }
            JointKind::Prismatic => {
                axis().into_iter().for_each(&mut row);
                line().into_iter().for_each(&mut row);
                row(constraint::perpendicular(x1, y2));
            }
            JointKind::PointOnLine => line().into_iter().for_each(&mut row),
            JointKind::Distance => row(constraint::distance(p1, r1, p2, r2, self.length)),
        }
    }
}

/// Identifies a joint of a [`JointSet`].
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub struct JointHandle(pub(crate) usize);

/// All joints of a system, addressed by handles (joints are never removed).
#[derive(Debug, Clone, Default, PartialEq)]
pub struct JointSet {
    joints: Vec<Joint>,
}

impl JointSet {
    /// An empty set.
    pub fn new() -> Self {
        Self::default()
    }
    /// Adds a joint and returns its handle.
    pub fn insert(&mut self, joint: Joint) -> JointHandle {
        self.joints.push(joint);
        JointHandle(self.joints.len() - 1)
    }
    /// The joint of `h`; `None` for a handle of another set.
    pub fn get(&self, h: JointHandle) -> Option<&Joint> {
        self.joints.get(h.0)
    }
    /// Number of joints.
    pub fn len(&self) -> usize {
        self.joints.len()
    }
    /// Whether the set has no joint (a system of free bodies).
    pub fn is_empty(&self) -> bool {
        self.joints.is_empty()
    }
    /// Every joint in insertion order.
    pub fn iter(&self) -> impl Iterator<Item = &Joint> {
        self.joints.iter()
    }
    /// Total number of constraint equations.
    pub fn equations(&self) -> usize {
        self.joints.iter().map(|j| j.kind.equations()).sum()
    }
}
