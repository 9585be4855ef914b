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

impl Connectivity {
    /// True when the mesh has no elements at all.
    pub fn is_empty(&self) -> bool {
        self.edges.is_empty() && self.triangles.is_empty() && self.tetrahedra.is_empty()
    }
}

/// Vertices of one mesh used by this participant, with its elements.
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

impl Connectivity {
    /// libprecice's preprocessing at `initialize`: vertex ids sorted within each element,
    /// duplicate elements removed, and the implicit elements added — the four faces of every
    /// tetrahedron as triangles, the three sides of every triangle as edges — so that a
    /// projection can fall back from cells to faces to edges.
    pub fn preprocess(&mut self) {
        fn normalise<const N: usize>(v: &mut Vec<[usize; N]>) {
            v.iter_mut().for_each(|e| e.sort_unstable());
            v.sort_unstable();
            v.dedup();
        }
        normalise(&mut self.tetrahedra);
        for &[a, b, c, d] in &self.tetrahedra {
            self.triangles.extend([[a, b, c], [a, b, d], [a, c, d], [b, c, d]]);
        }
        normalise(&mut self.triangles);
        for &[a, b, c] in &self.triangles {
            self.edges.extend([[a, b], [a, c], [b, c]]);
        }
        normalise(&mut self.edges);
    }

    /// The first element naming a vertex id not below `vertices` (a received mesh that does
    /// not hold together), as a message.
    pub fn invalid_id(&self, vertices: usize) -> Option<String> {
        let all =
            self.edges.iter().flatten().chain(self.triangles.iter().flatten()).chain(self.tetrahedra.iter().flatten());
        all.copied()
            .find(|&i| i >= vertices)
            .map(|i| format!("element vertex id {i} is not below the vertex count {vertices}"))
    }
}

/// Why a quad cannot be split into two triangles.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum QuadError {
    /// Two of its corners share coordinates.
    RepeatedCorner,
    /// Its corners do not lie in one plane (3D).
    NonPlanar,
    /// Not a strictly convex quadrilateral (one corner inside, or three on a line).
    NotConvex,
}

/// The two triangles of a planar convex quad with corners `ids` at `p` (any order), split
/// along its shorter diagonal as libprecice does (the diagonal through the first corner of
/// the cyclic order on a tie).
pub fn split_quad(ids: [usize; 4], p: [&[f64]; 4]) -> Result<[[usize; 3]; 2], QuadError> {
    for i in 0..4 {
        for j in i + 1..4 {
            if p[i] == p[j] {
                return Err(QuadError::RepeatedCorner);
            }
        }
    }
    let flat = plane_coordinates(p)?;
    // Cyclic order by angle around the centroid; a convex quad turns the same way at every corner.
    let c = [flat.iter().map(|q| q[0]).sum::<f64>() / 4.0, flat.iter().map(|q| q[1]).sum::<f64>() / 4.0];
    let mut order = [0usize, 1, 2, 3];
    order.sort_by(|&a, &b| {
        let angle = |k: usize| (flat[k][1] - c[1]).atan2(flat[k][0] - c[0]);
        angle(a).total_cmp(&angle(b))
    });
    let scale = flat.iter().map(|q| (q[0] - c[0]).hypot(q[1] - c[1])).fold(0.0, f64::max);
    for k in 0..4 {
        let (a, b, d) = (flat[order[k]], flat[order[(k + 1) % 4]], flat[order[(k + 2) % 4]]);
        let turn = (b[0] - a[0]) * (d[1] - b[1]) - (b[1] - a[1]) * (d[0] - b[0]);
        // Counter-clockwise by construction: a non-positive turn is a reflex or straight corner
        // (relative to the quad's size squared, so that round-off does not count as a turn).
        if turn <= 1e-12 * scale * scale {
            return Err(QuadError::NotConvex);
        }
    }
    // Start the cycle at the corner of smallest first plane coordinate, the first given on a
    // tie (libprecice's hull start; the first coordinate runs along the first side in both).
    let first = (0..4).fold(0, |best, k| if flat[k][0] < flat[best][0] { k } else { best });
    let start = order.iter().position(|&k| k == first).expect("a corner");
    let v: Vec<usize> = (0..4).map(|k| order[(start + k) % 4]).collect();
    let dist = |a: usize, b: usize| p[a].iter().zip(p[b]).map(|(x, y)| (x - y) * (x - y)).sum::<f64>();
    let id = |k: usize| ids[v[k]];
    Ok(if dist(v[0], v[2]) <= dist(v[1], v[3]) {
        [[id(0), id(2), id(1)], [id(0), id(2), id(3)]]
    } else {
        [[id(1), id(3), id(0)], [id(1), id(3), id(2)]]
    })
}

/// The corners in two coordinates of their common plane (the coordinates themselves in 2D).
fn plane_coordinates(p: [&[f64]; 4]) -> Result<[[f64; 2]; 4], QuadError> {
    if p[0].len() == 2 {
        return Ok([[p[0][0], p[0][1]], [p[1][0], p[1][1]], [p[2][0], p[2][1]], [p[3][0], p[3][1]]]);
    }
    let sub = |a: &[f64], b: &[f64]| [a[0] - b[0], a[1] - b[1], a[2] - b[2]];
    let cross =
        |a: [f64; 3], b: [f64; 3]| [a[1] * b[2] - a[2] * b[1], a[2] * b[0] - a[0] * b[2], a[0] * b[1] - a[1] * b[0]];
    let dot = |a: [f64; 3], b: [f64; 3]| a[0] * b[0] + a[1] * b[1] + a[2] * b[2];
    let e = [sub(p[1], p[0]), sub(p[2], p[0]), sub(p[3], p[0])];
    // The best-conditioned normal of the three corner pairs (robust when three corners are nearly in line).
    let n = [cross(e[0], e[1]), cross(e[0], e[2]), cross(e[1], e[2])]
        .into_iter()
        .max_by(|a, b| dot(*a, *a).total_cmp(&dot(*b, *b)))
        .expect("three normals");
    let nn = dot(n, n).sqrt();
    let size = e.iter().map(|v| dot(*v, *v).sqrt()).fold(0.0, f64::max);
    if nn <= 1e-12 * size * size {
        return Err(QuadError::NotConvex);
    }
    let n = [n[0] / nn, n[1] / nn, n[2] / nn];
    // Relative tolerance: out-of-plane offsets below 1e-10 of the quad's size are round-off.
    if e.iter().any(|v| dot(n, *v).abs() > 1e-10 * size) {
        return Err(QuadError::NonPlanar);
    }
    let l = dot(e[0], e[0]).sqrt();
    let u = [e[0][0] / l, e[0][1] / l, e[0][2] / l];
    let w = cross(n, u);
    let at = |k: usize| if k == 0 { [0.0, 0.0] } else { [dot(e[k - 1], u), dot(e[k - 1], w)] };
    Ok([at(0), at(1), at(2), at(3)])
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn preprocessing_sorts_dedupes_and_adds_the_implicit_faces_and_edges() {
        let mut c = Connectivity { edges: vec![[1, 0]], triangles: vec![[2, 1, 0], [0, 1, 2]], tetrahedra: vec![] };
        c.preprocess();
        assert_eq!(c.triangles, vec![[0, 1, 2]]);
        assert_eq!(c.edges, vec![[0, 1], [0, 2], [1, 2]]);
        let mut t = Connectivity { tetrahedra: vec![[3, 2, 1, 0], [0, 1, 2, 3]], ..Default::default() };
        t.preprocess();
        assert_eq!(t.tetrahedra, vec![[0, 1, 2, 3]]);
        assert_eq!(t.triangles, vec![[0, 1, 2], [0, 1, 3], [0, 2, 3], [1, 2, 3]]);
        assert_eq!(t.edges.len(), 6);
        assert_eq!(t.invalid_id(4), None);
        assert!(t.invalid_id(3).expect("id 3 of 3 vertices").contains("vertex id 3"));
    }

    #[test]
    fn a_quad_splits_along_its_shorter_diagonal_whatever_the_corner_order() {
        // A rhombus with diagonals 0-2 (length 4, along x) and 1-3 (length 2, along y), given out of order.
        let p: [&[f64]; 4] = [&[-2.0, 0.0, 1.0], &[2.0, 0.0, 1.0], &[0.0, 1.0, 1.0], &[0.0, -1.0, 1.0]];
        let tris = split_quad([10, 11, 12, 13], p).unwrap();
        for t in tris {
            assert!(t.contains(&12) && t.contains(&13), "split along the short diagonal 12-13: {tris:?}");
        }
        let mut corners: Vec<usize> = tris.iter().flatten().copied().collect();
        corners.sort();
        assert_eq!(corners, [10, 11, 12, 12, 13, 13]);
        // The same in 2D.
        let p2: [&[f64]; 4] = [&[-2.0, 0.0], &[0.0, 1.0], &[2.0, 0.0], &[0.0, -1.0]];
        assert!(split_quad([0, 1, 2, 3], p2).unwrap().iter().all(|t| t.contains(&1) && t.contains(&3)));
    }

    #[test]
    fn degenerate_quads_are_refused_by_kind() {
        let dup: [&[f64]; 4] = [&[0.0, 0.0], &[1.0, 0.0], &[1.0, 0.0], &[0.0, 1.0]];
        assert_eq!(split_quad([0, 1, 2, 3], dup), Err(QuadError::RepeatedCorner));
        let dart: [&[f64]; 4] = [&[0.0, 0.0], &[2.0, 0.0], &[0.5, 0.5], &[0.0, 2.0]];
        assert_eq!(split_quad([0, 1, 2, 3], dart), Err(QuadError::NotConvex));
        let line: [&[f64]; 4] = [&[0.0, 0.0], &[1.0, 0.0], &[2.0, 0.0], &[1.0, 1.0]];
        assert_eq!(split_quad([0, 1, 2, 3], line), Err(QuadError::NotConvex));
        let bent: [&[f64]; 4] = [&[0.0, 0.0, 0.0], &[1.0, 0.0, 0.0], &[1.0, 1.0, 0.0], &[0.0, 1.0, 0.1]];
        assert_eq!(split_quad([0, 1, 2, 3], bent), Err(QuadError::NonPlanar));
    }
}
