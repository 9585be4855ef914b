//! The spatial index of one mesh (an R*-tree per kind of primitive, built on first use) and the
//! element queries of the geometric mappings and the watch-points: the nearest vertex, the
//! nearest projection onto edges or triangles, and the enclosing cell.
//!
//! The candidate rule is libprecice 3.4's: the four elements nearest the point (segments by
//! their true distance, triangles by their bounding box) are projected on; those whose
//! projection lies on the element compete by distance, and the nearest vertex wins over the
//! best of them when it is strictly closer. Triangles fall back to edges, edges to the vertex.

use super::geometry::{self, P3};
use crate::native::mesh::MeshState;
use crate::{CouplingError, Result};
use rstar::primitives::{CachedEnvelope, GeomWithData, Line, Rectangle};
use rstar::{RTree, AABB};
use std::sync::OnceLock;

/// How many nearest elements are projected on before the best is chosen (libprecice's value:
/// a margin against bounding boxes that rank a farther element first).
pub const CANDIDATES: usize = 4;

/// The interpolation of a point from the vertices of one element (or a single vertex).
#[derive(Debug, Clone, PartialEq)]
pub struct Polation {
    /// Vertex ids with their weights, which sum to one.
    pub weights: Vec<(usize, f64)>,
    /// Distance from the point to the interpolated (projected) point.
    pub distance: f64,
}

/// A vertex in the tree: its point and id.
pub type Vertex = GeomWithData<[f64; 3], usize>;
// Segments keep their box: a line computes it on every call, which makes bulk loading slow.
type Segment = GeomWithData<CachedEnvelope<Line<[f64; 3]>>, usize>;
type Boxed = GeomWithData<Rectangle<[f64; 3]>, usize>;

/// Lazily built R*-trees over one mesh's vertices and elements (shared by the threads that
/// query it).
pub struct MeshIndex<'a> {
    mesh: &'a MeshState,
    points: Vec<P3>,
    vertices: OnceLock<RTree<Vertex>>,
    edges: OnceLock<RTree<Segment>>,
    triangles: OnceLock<RTree<Boxed>>,
    tetrahedra: OnceLock<RTree<Boxed>>,
}

/// Refuses elements of `mesh` (named `name` in messages) whose vertex ids are not vertices of it.
pub fn check_elements(mesh: &MeshState, name: &str) -> Result<()> {
    let n = mesh.vertex_count();
    let c = &mesh.connectivity;
    let bad = |kind: &str, i: usize, ids: &[usize]| -> Result<()> {
        match ids.iter().find(|&&v| v >= n) {
            Some(v) => Err(CouplingError::misuse(format!(
                "mesh \"{name}\": {kind} {i} uses vertex id {v}, but the mesh has {n} vertices; \
                 define the vertices before the elements that use them"
            ))),
            None => Ok(()),
        }
    };
    c.edges.iter().enumerate().try_for_each(|(i, e)| bad("edge", i, e))?;
    c.triangles.iter().enumerate().try_for_each(|(i, t)| bad("triangle", i, t))?;
    c.tetrahedra.iter().enumerate().try_for_each(|(i, t)| bad("tetrahedron", i, t))
}

/// An R*-tree over vertex points (2D points with z = 0), each carrying its id.
pub fn vertex_tree(points: impl Iterator<Item = P3>) -> RTree<Vertex> {
    RTree::bulk_load(points.enumerate().map(|(i, p)| Vertex::new(arr(&p), i)).collect())
}

/// The nearest vertex of `tree` to `p` and its squared distance; among equally near vertices
/// the lowest id. `None` for an empty tree.
pub fn nearest_in(tree: &RTree<Vertex>, p: &[f64; 3]) -> Option<(usize, f64)> {
    let first = tree.nearest_neighbor(p)?;
    let d2 = rstar::PointDistance::distance_2(first.geom(), p);
    // Every vertex at distance d2 (none is nearer): the lowest id among them.
    let id = tree.locate_within_distance(*p, d2).map(|v| v.data).fold(first.data, usize::min);
    Some((id, d2))
}

/// The order of `points` along a Morton (Z-order) curve over their bounding box: queries made
/// in this order visit the same tree nodes one after another, which keeps them in cache (about
/// twice as fast as random order for 10^5 points).
pub fn spatial_order(points: &[P3]) -> Vec<usize> {
    let lo = points.iter().fold(P3::repeat(f64::INFINITY), |a, p| a.inf(p));
    let hi = points.iter().fold(P3::repeat(f64::NEG_INFINITY), |a, p| a.sup(p));
    let span = (hi - lo).map(|s| if s > 0.0 { s } else { 1.0 });
    let key = |p: &P3| -> u64 {
        let spread = |x: f64| -> u64 {
            // 21 bits per axis, spread to every third bit.
            let mut v = ((x * 2_097_151.0) as u64).min(2_097_151);
            v = (v | v << 32) & 0x1f00000000ffff;
            v = (v | v << 16) & 0x1f0000ff0000ff;
            v = (v | v << 8) & 0x100f00f00f00f00f;
            v = (v | v << 4) & 0x10c30c30c30c30c3;
            (v | v << 2) & 0x1249249249249249
        };
        let q = (p - lo).component_div(&span);
        spread(q.x) | spread(q.y) << 1 | spread(q.z) << 2
    };
    let mut order: Vec<(u64, usize)> = points.iter().enumerate().map(|(i, p)| (key(p), i)).collect();
    order.sort_unstable();
    order.into_iter().map(|(_, i)| i).collect()
}

fn arr(p: &P3) -> [f64; 3] {
    [p.x, p.y, p.z]
}

impl<'a> MeshIndex<'a> {
    /// An index of `mesh` (named `name` in messages); refuses elements whose vertex ids are not
    /// vertices of the mesh.
    pub fn new(mesh: &'a MeshState, name: &str) -> Result<Self> {
        check_elements(mesh, name)?;
        let n = mesh.vertex_count();
        let points = (0..n).map(|i| geometry::point(mesh.vertex(i))).collect();
        Ok(MeshIndex {
            mesh,
            points,
            vertices: OnceLock::new(),
            edges: OnceLock::new(),
            triangles: OnceLock::new(),
            tetrahedra: OnceLock::new(),
        })
    }

    /// Builds the two trees every nearest projection queries (the vertices, and the edges in 2D
    /// or the triangles in 3D) side by side: each is one serial bulk load, and the placing of the
    /// vertices waits for both.
    pub fn prepare_projection(&self) {
        rayon::join(
            || {
                self.vertex_tree();
            },
            || {
                if self.mesh.dim == 2 {
                    self.edge_tree();
                } else {
                    self.triangle_tree();
                }
            },
        );
    }

    fn vertex_tree(&self) -> &RTree<Vertex> {
        self.vertices.get_or_init(|| vertex_tree(self.points.iter().copied()))
    }

    fn edge_tree(&self) -> &RTree<Segment> {
        self.edges.get_or_init(|| {
            let e = &self.mesh.connectivity.edges;
            RTree::bulk_load(
                e.iter()
                    .enumerate()
                    .map(|(i, &[a, b])| {
                        Segment::new(CachedEnvelope::new(Line::new(arr(&self.points[a]), arr(&self.points[b]))), i)
                    })
                    .collect(),
            )
        })
    }

    fn boxes<const N: usize>(&self, elements: &[[usize; N]]) -> RTree<Boxed> {
        RTree::bulk_load(
            elements
                .iter()
                .enumerate()
                .map(|(i, ids)| {
                    let corners: [[f64; 3]; N] = ids.map(|v| arr(&self.points[v]));
                    Boxed::new(Rectangle::from_aabb(AABB::from_points(corners.iter())), i)
                })
                .collect(),
        )
    }

    fn triangle_tree(&self) -> &RTree<Boxed> {
        self.triangles.get_or_init(|| self.boxes(&self.mesh.connectivity.triangles))
    }

    fn tetra_tree(&self) -> &RTree<Boxed> {
        self.tetrahedra.get_or_init(|| self.boxes(&self.mesh.connectivity.tetrahedra))
    }

    /// The nearest vertex of `p` and its squared distance; among equally near vertices the one
    /// with the lowest id. `None` for a mesh without vertices.
    pub fn nearest_vertex(&self, p: &P3) -> Option<(usize, f64)> {
        nearest_in(self.vertex_tree(), &arr(p))
    }

    /// The nearest vertex as an interpolation (weight one).
    pub fn vertex_projection(&self, p: &P3) -> Option<Polation> {
        self.nearest_vertex(p).map(|(id, d2)| Polation { weights: vec![(id, 1.0)], distance: d2.sqrt() })
    }

    fn polation<const N: usize>(&self, p: &P3, ids: &[usize; N], weights: [f64; N]) -> Option<Polation> {
        if !geometry::is_interpolation(&weights) {
            return None;
        }
        let corners: Vec<P3> = ids.iter().map(|&v| self.points[v]).collect();
        let distance = (p - geometry::combine(&corners, &weights)).norm();
        Some(Polation { weights: ids.iter().copied().zip(weights).collect(), distance })
    }

    /// The nearest valid projection among `found` (element id, its vertices, the barycentric
    /// weights of the projection of `p`); among equally near ones the lowest element id. Kept
    /// in arrays until the winner is known: this runs four times per placed vertex.
    fn nearest_valid<const N: usize>(
        &self,
        p: &P3,
        found: impl Iterator<Item = (usize, [usize; N], [f64; N])>,
    ) -> Option<Polation> {
        let mut best: Option<(f64, usize, [usize; N], [f64; N])> = None;
        for (id, ids, w) in found.filter(|(_, _, w)| geometry::is_interpolation(w)) {
            let distance = (p - geometry::combine(&ids.map(|v| self.points[v]), &w)).norm();
            let better = best
                .as_ref()
                .is_none_or(|(d, i, ..)| distance.total_cmp(d).then(id.cmp(i)) == std::cmp::Ordering::Less);
            if better {
                best = Some((distance, id, ids, w));
            }
        }
        best.map(|(distance, _, ids, w)| Polation { weights: ids.into_iter().zip(w).collect(), distance })
    }

    /// The best projection onto the [`CANDIDATES`] nearest edges, if one lies on its edge.
    fn edge_candidates(&self, p: &P3) -> Option<Polation> {
        let edges = &self.mesh.connectivity.edges;
        let found = self.edge_tree().nearest_neighbor_iter(&arr(p)).take(CANDIDATES).map(|s| {
            let [a, b] = edges[s.data];
            (s.data, [a, b], geometry::segment_barycentric(&self.points[a], &self.points[b], p))
        });
        self.nearest_valid(p, found)
    }

    /// The best projection onto the [`CANDIDATES`] nearest triangles, if one lies on its triangle.
    fn triangle_candidates(&self, p: &P3) -> Option<Polation> {
        let triangles = &self.mesh.connectivity.triangles;
        let found = self.triangle_tree().nearest_neighbor_iter(&arr(p)).take(CANDIDATES).map(|t| {
            let [a, b, c] = triangles[t.data];
            (t.data, [a, b, c], geometry::triangle_barycentric(&self.points[a], &self.points[b], &self.points[c], p))
        });
        self.nearest_valid(p, found)
    }

    /// The nearest vertex, when one is strictly closer to `p` than `distance` (so that a
    /// projection at `distance` loses to it). A search of the ball of that radius instead of a
    /// nearest-vertex query: for a point on or near the surface the ball is tiny, and this is
    /// most of what placing a vertex costs.
    fn vertex_closer_than(&self, p: &P3, distance: f64) -> Option<Polation> {
        // A radius a little above distance², so that the ball holds every vertex whose rounded
        // distance is below `distance`: then it holds the nearest vertex and its ties.
        let q = arr(p);
        let r2 = distance * distance * (1.0 + 1e-12);
        let (id, d2) = self
            .vertex_tree()
            .locate_within_distance(q, r2)
            .map(|v| (v.data, rstar::PointDistance::distance_2(v.geom(), &q)))
            .min_by(|a, b| a.1.total_cmp(&b.1).then(a.0.cmp(&b.0)))?;
        let vertex = Polation { weights: vec![(id, 1.0)], distance: d2.sqrt() };
        (vertex.distance < distance).then_some(vertex)
    }

    /// `best` unless a vertex is strictly closer; then `otherwise` of the nearest vertex (also
    /// when there is no `best`). `None` only for a mesh without vertices.
    fn unless_a_vertex_is_closer(
        &self,
        p: &P3,
        best: Option<Polation>,
        otherwise: impl FnOnce(Polation) -> Polation,
    ) -> Option<Polation> {
        match best {
            Some(b) => Some(self.vertex_closer_than(p, b.distance).map_or(b, otherwise)),
            None => self.vertex_projection(p).map(otherwise),
        }
    }

    /// Projection onto the nearest edges, else the nearest vertex `vertex`.
    fn edge_projection(&self, p: &P3, vertex: Polation) -> Polation {
        self.edge_candidates(p).filter(|b| b.distance <= vertex.distance).unwrap_or(vertex)
    }

    /// The nearest projection of `p`: onto edges in 2D; onto triangles, then edges in 3D; the
    /// nearest vertex where no projection is valid or a vertex is closer. `None` only for a mesh
    /// without vertices.
    pub fn nearest_projection(&self, p: &P3) -> Option<Polation> {
        if self.mesh.dim == 2 {
            self.unless_a_vertex_is_closer(p, self.edge_candidates(p), |vertex| vertex)
        } else {
            self.unless_a_vertex_is_closer(p, self.triangle_candidates(p), |vertex| self.edge_projection(p, vertex))
        }
    }

    /// The cell enclosing `p` (a triangle in 2D, a tetrahedron in 3D; the lowest id among several),
    /// else its nearest projection.
    pub fn cell_or_projection(&self, p: &P3) -> Option<Polation> {
        let c = &self.mesh.connectivity;
        let q = &self.points;
        let mut inside: Vec<(usize, Polation)> = if self.mesh.dim == 2 {
            self.triangle_tree()
                .locate_all_at_point(&arr(p))
                .filter_map(|t| {
                    let [a, b, d] = c.triangles[t.data];
                    let w = geometry::triangle_barycentric(&q[a], &q[b], &q[d], p);
                    self.polation(p, &[a, b, d], w).map(|pol| (t.data, pol))
                })
                .collect()
        } else {
            self.tetra_tree()
                .locate_all_at_point(&arr(p))
                .filter_map(|t| {
                    let [a, b, d, e] = c.tetrahedra[t.data];
                    let w = geometry::tetrahedron_barycentric(&q[a], &q[b], &q[d], &q[e], p);
                    // Inside a tetrahedron the point is its own interpolation point.
                    self.polation(p, &[a, b, d, e], w).map(|pol| (t.data, Polation { distance: 0.0, ..pol }))
                })
                .collect()
        };
        inside.sort_by_key(|(id, _)| *id);
        match inside.into_iter().next() {
            Some((_, pol)) => Some(pol),
            None => self.nearest_projection(p),
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::native::mesh::Connectivity;

    fn mesh(dim: usize, coords: &[f64], connectivity: Connectivity) -> MeshState {
        let mut m = MeshState::new(dim, true);
        m.coords = coords.to_vec();
        m.connectivity = connectivity;
        m
    }

    #[test]
    fn spatial_order_is_a_permutation_that_keeps_neighbors_together() {
        let pts: Vec<P3> = (0..64).map(|i| geometry::point(&[(i % 8) as f64, (i / 8) as f64, 0.0])).collect();
        let order = spatial_order(&pts);
        let mut sorted = order.clone();
        sorted.sort();
        assert_eq!(sorted, (0..64).collect::<Vec<_>>());
        // The first four of a Z-order curve are the lower-left 2 x 2 block.
        let mut first: Vec<usize> = order[..4].to_vec();
        first.sort();
        assert_eq!(first, vec![0, 1, 8, 9]);
    }

    #[test]
    fn nearest_vertex_ties_go_to_the_lowest_id() {
        let m = mesh(2, &[1.0, 0.0, -1.0, 0.0, 0.0, 1.0, 0.0, -1.0], Connectivity::default());
        let idx = MeshIndex::new(&m, "M").unwrap();
        assert_eq!(idx.nearest_vertex(&P3::zeros()), Some((0, 1.0)));
        assert_eq!(idx.nearest_vertex(&geometry::point(&[0.0, -0.5])).map(|v| v.0), Some(3));
    }

    #[test]
    fn elements_with_unknown_vertices_are_refused() {
        let c = Connectivity { edges: vec![[0, 5]], ..Default::default() };
        let m = mesh(2, &[0.0, 0.0, 1.0, 0.0], c);
        let err = MeshIndex::new(&m, "Fluid").err().expect("refused").to_string();
        assert!(err.contains("Fluid") && err.contains("edge 0") && err.contains("vertex id 5"), "{err}");
    }

    #[test]
    fn a_vertex_closer_than_every_valid_projection_wins() {
        // An L of two edges; the point beyond the corner projects onto neither edge (both
        // projections fall outside), so the corner vertex is taken.
        let c = Connectivity { edges: vec![[0, 1], [1, 2]], ..Default::default() };
        let m = mesh(2, &[0.0, 0.0, 1.0, 0.0, 1.0, 1.0], c);
        let idx = MeshIndex::new(&m, "M").unwrap();
        let p = idx.nearest_projection(&geometry::point(&[1.5, -0.5])).unwrap();
        assert_eq!(p.weights, vec![(1, 1.0)]);
        // Above the first edge the projection is on it, at distance 0.25.
        let p = idx.nearest_projection(&geometry::point(&[0.5, 0.25])).unwrap();
        assert_eq!(p.weights, vec![(0, 0.5), (1, 0.5)]);
        assert_eq!(p.distance, 0.25);
    }

    #[test]
    fn cells_enclose_or_fall_back_to_projection() {
        // Unit square of two triangles in 2D, with its boundary edges.
        let c = Connectivity {
            edges: vec![[0, 1], [1, 2], [2, 3], [3, 0]],
            triangles: vec![[0, 1, 2], [0, 2, 3]],
            tetrahedra: vec![],
        };
        let m = mesh(2, &[0.0, 0.0, 1.0, 0.0, 1.0, 1.0, 0.0, 1.0], c);
        let idx = MeshIndex::new(&m, "M").unwrap();
        let inside = idx.cell_or_projection(&geometry::point(&[0.25, 0.5])).unwrap();
        assert_eq!(inside.weights.len(), 3);
        assert_eq!(inside.distance, 0.0);
        let outside = idx.cell_or_projection(&geometry::point(&[0.5, -2.0])).unwrap();
        assert_eq!(outside.weights, vec![(0, 0.5), (1, 0.5)]);
        assert_eq!(outside.distance, 2.0);
    }
}
