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

    /// The id of the point closest to `p` (`None` for an empty index); of equally close ones,
    /// the lowest id, so that symmetric meshes cluster the same way every time.
    pub fn nearest(&self, p: &Point) -> Option<usize> {
        let mut it = self.tree.nearest_neighbor_iter(p);
        let first = it.next()?;
        let d = sq(first.geom(), p);
        std::iter::once(first).chain(it.take_while(|g| sq(g.geom(), p) == d)).map(|g| g.data).min()
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

#[cfg(test)]
mod tests {
    use super::*;

    /// A vertex whose distance from the centre *is* the radius lies on the rim and stays out,
    /// whichever way `radius²` rounds (here the radius is the distance between two vertices
    /// of a curved grid, as the partition of unity's radius estimate produces it).
    #[test]
    fn a_vertex_exactly_on_the_rim_is_outside() {
        let (h, z) = (2.0 / 7.0, |x: f64, y: f64| 0.2 * x * y);
        let mut hits = 0;
        for j in 0..8 {
            let y = j as f64 / 7.0;
            let (a, b) = ([4.0 / 7.0, y, z(4.0 / 7.0, y)], [4.0 / 7.0 + h, y, z(4.0 / 7.0 + h, y)]);
            let r = sq(&a, &b).sqrt();
            let idx = PointIndex::new(&[a, b]);
            assert_eq!(idx.within(&a, r), vec![0], "row {j}");
            assert!(idx.any_within(&a, r));
            assert_eq!(idx.within(&a, r * (1.0 + 1e-15)), vec![0, 1], "row {j}: just inside");
            hits += usize::from(r * r > sq(&a, &b));
        }
        // The squared comparison would have taken the rim vertex in on some rows.
        assert!(hits > 0, "no row where r² rounds above d²: the test does not exercise the rim");
    }

    /// Of equally close points the lowest id is the nearest, whatever the tree's order.
    #[test]
    fn ties_go_to_the_lowest_id() {
        let pts: Vec<Point> =
            [[1.0, 0.0, 0.0], [0.0, 1.0, 0.0], [-1.0, 0.0, 0.0], [0.0, -1.0, 0.0], [3.0, 3.0, 0.0]].to_vec();
        for shift in 0..4 {
            let mut rotated = pts.clone();
            rotated[..4].rotate_left(shift);
            assert_eq!(PointIndex::new(&rotated).nearest(&[0.0; 3]), Some(0));
        }
        assert_eq!(PointIndex::new(&pts).nearest(&[2.9, 3.0, 0.0]), Some(4));
    }
}
