//! Typed view of a preCICE v3 XML configuration (docs/design/coupling-semantics.md §9.3). Every item keeps the
//! location it came from, so later checks can point at the right line.
//!
//! The declarations are grouped by topic: data and meshes (`mesh`), what a participant
//! declares (`participant`), m2n and coupling schemes (`scheme`), accelerations (`acceleration`).

mod acceleration;
mod connectivity;
mod gradients;
mod key;
mod mesh;
mod participant;
mod scheme;

pub use acceleration::*;
pub use key::DataKey;
pub use mesh::*;
pub use participant::*;
pub use scheme::*;

use std::path::PathBuf;

/// The whole `<precice-configuration>` file.
#[derive(Debug, Clone, Default)]
pub struct PreciceConfig {
    /// The file it was read from; every [`Location`](crate::diagnostics::Location) of the model points into it.
    pub path: PathBuf,
    /// Hex digest of the raw file bytes; partners compare it at connection time (coupling-semantics.md §8.4).
    pub hash: String,
    /// `experimental="true"`: unlocks experimental features (just-in-time mapping, remeshing, ...).
    pub experimental: bool,
    /// `allow-remeshing`: experimental in preCICE; parsed so it can be checked against `experimental`.
    pub allow_remeshing: bool,
    /// `wait-in-finalize`: in preCICE both sides of every connection meet before closing
    /// (coupling-semantics.md §2.11).
    pub wait_in_finalize: bool,
    /// The `<data:*>` tags, in document order.
    pub data: Vec<DataDecl>,
    /// The `<mesh>` tags, in document order.
    pub meshes: Vec<MeshDecl>,
    /// The `<participant>` tags, in document order.
    pub participants: Vec<ParticipantDecl>,
    /// The `<m2n:*>` tags: which pairs of participants connect, and how.
    pub m2ns: Vec<M2nDecl>,
    /// The `<coupling-scheme:*>` tags, in document order.
    pub schemes: Vec<CouplingSchemeDecl>,
}

impl PreciceConfig {
    /// The `<participant>` called `name`.
    pub fn participant(&self, name: &str) -> Option<&ParticipantDecl> {
        self.participants.iter().find(|p| p.name == name)
    }
    /// The `<mesh>` called `name`.
    pub fn mesh(&self, name: &str) -> Option<&MeshDecl> {
        self.meshes.iter().find(|m| m.name == name)
    }
    /// The `<data:*>` called `name`.
    pub fn data(&self, name: &str) -> Option<&DataDecl> {
        self.data.iter().find(|d| d.name == name)
    }
    /// Component count of `data` on `mesh`: 1 for scalar, the mesh dimension for vector.
    pub fn data_dimensions(&self, mesh: &str, data: &str) -> Option<usize> {
        let m = self.mesh(mesh)?;
        let d = self.data(data)?;
        Some(match d.kind {
            DataKind::Scalar => 1,
            DataKind::Vector => m.dimensions,
        })
    }
    /// The m2n between two participants, in either order.
    pub fn m2n_between(&self, a: &str, b: &str) -> Option<&M2nDecl> {
        self.m2ns.iter().find(|m| m.connects(a, b))
    }
    /// The schemes a participant takes part in, in configuration order.
    pub fn schemes_of<'a>(&'a self, participant: &'a str) -> impl Iterator<Item = &'a CouplingSchemeDecl> + 'a {
        self.schemes.iter().filter(move |s| s.involves(participant))
    }
}
