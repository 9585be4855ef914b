//! A spatial index of points (an R*-tree from `rstar`): the neighbours within a radius, the
//! closest point and the k closest, each in O(log n + answers).

use super::system::Point;
use rstar::primitives::GeomWithData;
use rstar::RTree;

/// Points indexed by their position in the slice they were built from.
pub struct PointIndex {
    tree: RTree<GeomWithData<Point, usize>>,
}

impl PointIndex {
    /// Indexes `pts` (bulk loading: O(n log n)).
    pub fn new(pts: &[Point]) -> Self {
        let items = pts.iter().enumerate().map(|(i, p)| GeomWithData::new(*p, i)).collect();
        PointIndex { tree: RTree::bulk_load(items) }
    }

    /// Ids of the points strictly closer than `radius` to `p`, in ascending order. The test
    /// is `√d² < radius`, not `d² < radius²`: the cluster radius is itself a distance between
    /// two vertices, so on regular meshes many vertices lie exactly on a cluster's rim, and
    /// only the same comparison as libprecice's decides them the same way.
    pub fn within(&self, p: &Point, radius: f64) -> Vec<usize> {
        let mut ids: Vec<usize> =
            self.candidates(p, radius).filter(|g| inside(g.geom(), p, radius)).map(|g| g.data).collect();
        ids.sort_unstable();
        ids
    }

    /// Whether any point lies strictly closer than `radius` to `p` (the test of [`Self::within`]).
    pub fn any_within(&self, p: &Point, radius: f64) -> bool {
        self.candidates(p, radius).any(|g| inside(g.geom(), p, radius))
    }

    /// The points within a slightly larger ball (a superset of those [`inside`] accepts, whatever
    /// the rounding of `radius²`).
    fn candidates(&self, p: &Point, radius: f64) -> impl Iterator<Item = &GeomWithData<Point, usize>> {
        let r2 = radius * radius * (1.0 + 1e-12);
        self.tree.locate_within_distance(*p, r2)
    }

    /// The id of the point closest to `p` (`None` for an empty index).
    pub fn nearest(&self, p: &Point) -> Option<usize> {
        self.tree.nearest_neighbor(p).map(|g| g.data)
    }

    /// The distance from `p` to the farthest of its `k` closest points (0 when empty).
    pub fn kth_distance(&self, p: &Point, k: usize) -> f64 {
        self.tree.nearest_neighbor_iter(p).take(k).map(|g| sq(g.geom(), p)).fold(0.0, f64::max).sqrt()
    }
}

/// Whether `a` lies strictly closer than `radius` to `b`, the distance rounded as a square root.
fn inside(a: &Point, b: &Point, radius: f64) -> bool {
    sq(a, b).sqrt() < radius
}

/// The squared Euclidean distance.
fn sq(a: &Point, b: &Point) -> f64 {
    (0..3).map(|d| (a[d] - b[d]) * (a[d] - b[d])).sum()
}
