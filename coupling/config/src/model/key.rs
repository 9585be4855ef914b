//! The one key of a datum on a mesh, shared by the model and the engine so that a (mesh, data)
//! pair can never be written the wrong way round.

use std::fmt;

/// A datum on a mesh: the key of everything stored, exchanged, measured or accelerated per datum.
#[derive(Debug, Clone, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub struct DataKey {
    /// The `<mesh>` name.
    pub mesh: String,
    /// The `<data:*>` name.
    pub data: String,
}

impl DataKey {
    /// The key of `data` on `mesh`.
    pub fn new(mesh: impl Into<String>, data: impl Into<String>) -> Self {
        DataKey { mesh: mesh.into(), data: data.into() }
    }
}

impl fmt::Display for DataKey {
    /// `data "D" on mesh "M"`, as messages name a datum.
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "data \"{}\" on mesh \"{}\"", self.data, self.mesh)
    }
}
