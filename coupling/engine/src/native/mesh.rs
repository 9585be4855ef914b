//! A participant's view of one mesh: its vertices and, where a mapping or an output needs
//! them, its elements (preCICE's `mesh::Mesh`). Vertex ids are the positions in `coords`, in
//! creation order; received meshes keep their provider's order.

/// The elements of a mesh, as vertex ids. Quads are stored as their two triangles (split
/// along the shorter diagonal, as libprecice does); duplicates are removed at `initialize`.
#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub struct Connectivity {
    /// Line segments (2D surfaces, or the edges of 3D surfaces).
    pub edges: Vec<[usize; 2]>,
    /// Triangles (3D surfaces, or the cells of 2D volumes).
    pub triangles: Vec<[usize; 3]>,
    /// Tetrahedra (the cells of 3D volumes).
    pub tetrahedra: Vec<[usize; 4]>,
}

#[allow(dead_code)]
impl Connectivity {
    /// True when the mesh has no elements at all.
    pub fn is_empty(&self) -> bool {
        self.edges.is_empty() && self.triangles.is_empty() && self.tetrahedra.is_empty()
    }
}

/// Vertices of one mesh used by this participant, with its elements.
#[allow(dead_code)] // `connectivity` and `vertex` are filled and read by the mapping work under way.
#[derive(Debug, Clone)]
pub struct MeshState {
    /// Spatial dimension, 2 or 3.
    pub dim: usize,
    /// Defined by this participant (`<provide-mesh>`), as opposed to received.
    pub provided: bool,
    /// Flat coordinates; for received meshes filled during `initialize`.
    pub coords: Vec<f64>,
    /// For a received mesh: whether it has arrived.
    pub received: bool,
    /// Elements, stored only where some mapping of the run needs them.
    pub connectivity: Connectivity,
}

impl MeshState {
    /// An empty mesh of dimension `dim`.
    pub fn new(dim: usize, provided: bool) -> Self {
        MeshState { dim, provided, coords: Vec::new(), received: false, connectivity: Connectivity::default() }
    }

    /// Number of vertices.
    pub fn vertex_count(&self) -> usize {
        self.coords.len() / self.dim
    }

    /// The coordinates of vertex `i`.
    pub fn vertex(&self, i: usize) -> &[f64] {
        &self.coords[i * self.dim..(i + 1) * self.dim]
    }
}
