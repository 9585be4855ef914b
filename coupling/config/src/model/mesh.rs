//! `<data:*>` and `<mesh>`: what is exchanged, and where.

use crate::diagnostics::Location;

/// Whether a datum has one component or one per mesh dimension.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum DataKind {
    /// `<data:scalar>`: one value per vertex.
    Scalar,
    /// `<data:vector>`: as many values per vertex as the mesh has dimensions.
    Vector,
}

/// `<data:scalar>` / `<data:vector>`.
#[derive(Debug, Clone)]
pub struct DataDecl {
    /// The name meshes, participants and exchanges refer to.
    pub name: String,
    /// Scalar or vector.
    pub kind: DataKind,
    /// `waveform-degree`, default 1.
    pub waveform_degree: u32,
    /// The tag.
    pub loc: Location,
}

/// `<mesh name dimensions>` with its `<use-data>` children.
#[derive(Debug, Clone)]
pub struct MeshDecl {
    /// The name participants and exchanges refer to.
    pub name: String,
    /// Spatial dimension, 2 or 3 (also the size of vector data on it).
    pub dimensions: usize,
    /// The data that may live on it (`<use-data name>`), in order.
    pub use_data: Vec<String>,
    /// The tag.
    pub loc: Location,
}
