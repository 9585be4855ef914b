//! A model: named bodies, the joints and force elements between them, and their shapes, however
//! it was built (from a model file or in code); what a multibody system is made from.

use crate::dynamics::body_set::{BodyHandle, BodySet};
use crate::dynamics::force_element::ForceElementSet;
use crate::dynamics::joint::JointSet;
use crate::geometry::shape::BodyShape;

/// Bodies under one gravity, with names, and the joints and force elements between them.
#[derive(Debug, Clone)]
pub struct Model {
    /// The model file's `name`, for output headers.
    pub name: Option<String>,
    /// The bodies in file order, under the model's gravity.
    pub bodies: BodySet,
    /// Joints, in file order.
    pub joints: JointSet,
    /// TSDAs then RSDAs, in file order.
    pub forces: ForceElementSet,
    /// Body names in file order, with their handles.
    pub names: Vec<(String, BodyHandle)>,
    /// The bodies' visualization and contact shapes, in file order.
    pub shapes: Vec<BodyShape>,
}

impl Model {
    /// The handle of body `name`, if the model has one.
    pub fn handle(&self, name: &str) -> Option<BodyHandle> {
        self.names.iter().find(|(n, _)| n == name).map(|(_, h)| *h)
    }
    /// All body names, for messages.
    pub fn body_names(&self) -> Vec<&str> {
        self.names.iter().map(|(n, _)| n.as_str()).collect()
    }
}
