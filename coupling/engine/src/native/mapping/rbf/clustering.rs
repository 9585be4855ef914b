//! The cluster centres of the partition of unity: a Cartesian grid over the input mesh's
//! bounding box whose spacing follows from a radius that holds about `vertices-per-cluster`
//! input vertices and from `relative-overlap`; centres with no input or no output vertex within
//! the radius are dropped, and with `project-to-input` the others move onto their closest input
//! vertex (near-duplicates after the move are dropped).

use super::index::PointIndex;
use super::system::Point;
use super::PumParams;

/// Grids beyond this many candidate centres are refused (a few isolated far-away vertices make
/// the bounding box huge compared to the cluster radius).
pub const MAX_CANDIDATES: usize = 20_000_000;

/// The clustering: a radius and the surviving centres.
pub struct Clustering {
    /// Radius of every (spherical) cluster.
    pub radius: f64,
    /// The cluster centres.
    pub centres: Vec<Point>,
}

/// Axis-aligned bounds of `pts` over the first `dim` axes.
fn bounds(pts: &[Point], dim: usize) -> ([f64; 3], [f64; 3]) {
    let (mut lo, mut hi) = ([0.0; 3], [0.0; 3]);
    for d in 0..dim {
        lo[d] = pts.iter().map(|p| p[d]).fold(f64::INFINITY, f64::min);
        hi[d] = pts.iter().map(|p| p[d]).fold(f64::NEG_INFINITY, f64::max);
    }
    (lo, hi)
}

/// The radius holding about `k` vertices: the median, over the vertex closest to the box
/// centre and the vertices closest to the points a quarter box length either side of it on
/// each axis, of the distance to the k-th closest vertex.
fn estimate_radius(src: &[Point], index: &PointIndex, k: usize, lo: &[f64; 3], hi: &[f64; 3], dim: usize) -> f64 {
    let centre: Point = [0, 1, 2].map(|d| 0.5 * (lo[d] + hi[d]));
    let mut samples = vec![centre];
    for d in 0..dim {
        let (mut below, mut above) = (centre, centre);
        below[d] -= 0.25 * (hi[d] - lo[d]);
        above[d] += 0.25 * (hi[d] - lo[d]);
        samples.push(below);
        samples.push(above);
    }
    let mut radii: Vec<f64> =
        samples.iter().filter_map(|s| index.nearest(s)).map(|i| index.kth_distance(&src[i], k)).collect();
    radii.sort_by(f64::total_cmp);
    radii[radii.len() / 2]
}

/// The input points `src` and the outputs `dst` (both non-empty) with their spatial indexes,
/// which the caller goes on to use for the clusters' members.
pub struct Indexed<'a> {
    /// The input vertices.
    pub src: &'a [Point],
    /// The index of `src`.
    pub in_index: &'a PointIndex,
    /// The index of the output vertices.
    pub out_index: &'a PointIndex,
}

/// Clusters the input points for the outputs. `Err(count)` when the grid would have more than
/// [`MAX_CANDIDATES`] candidates.
pub fn cluster(pts: &Indexed, dim: usize, p: &PumParams) -> Result<Clustering, usize> {
    let Indexed { src, in_index, out_index } = *pts;
    let (lo, hi) = bounds(src, dim);
    let len: [f64; 3] = [0, 1, 2].map(|d| hi[d] - lo[d]);
    // Few vertices: a single cluster covering everything.
    if src.len() < 2 * p.vertices_per_cluster {
        let longest = len.iter().cloned().fold(0.0, f64::max);
        let radius = if longest == 0.0 { 1.0 } else { longest };
        let centre = [0, 1, 2].map(|d| 0.5 * (lo[d] + hi[d]));
        return Ok(Clustering { radius: 2.0 * radius, centres: vec![centre] });
    }
    let radius = estimate_radius(src, in_index, p.vertices_per_cluster, &lo, &hi, dim);
    // Diagonal neighbours of a grid of this spacing still overlap by the relative overlap.
    let max_spacing = (4.0 / dim as f64).sqrt() * radius * (1.0 - p.relative_overlap);
    let mut n = [1usize; 3];
    let mut spacing = [0.0; 3];
    let mut start = lo;
    for d in 0..dim {
        let cells = (len[d] / max_spacing).max(1.0).ceil();
        if !cells.is_finite() || cells > MAX_CANDIDATES as f64 {
            return Err(MAX_CANDIDATES.saturating_add(1));
        }
        spacing[d] = len[d] / cells;
        // Without projection the grid starts half a spacing inside the box.
        if !p.project_to_input {
            start[d] += 0.5 * spacing[d];
        }
        // One centre at the start and one per spacing that fits in the box (with projection,
        // the grid starts on the box's faces and so has one more layer).
        if spacing[d] > 0.0 {
            n[d] = 1 + ((hi[d] - start[d]) / spacing[d] + 1e-14).floor() as usize;
        }
    }
    let total = n[0].saturating_mul(n[1]).saturating_mul(n[2]);
    if total > MAX_CANDIDATES {
        return Err(total);
    }
    // Centres in x-major order: id = (ix · ny + iy) · nz + iz.
    let mut centres = Vec::with_capacity(total);
    for ix in 0..n[0] {
        for iy in 0..n[1] {
            for iz in 0..n[2] {
                let i = [ix, iy, iz];
                centres.push([0, 1, 2].map(|d| start[d] + i[d] as f64 * spacing[d]));
            }
        }
    }
    let mut dropped = vec![false; total];
    let empty = |c: &Point| !in_index.any_within(c, radius) || !out_index.any_within(c, radius);
    for (c, t) in centres.iter().zip(dropped.iter_mut()) {
        *t = empty(c);
    }
    if p.project_to_input {
        for (c, &t) in centres.iter_mut().zip(&dropped) {
            if !t {
                if let Some(i) = in_index.nearest(c) {
                    *c = src[i];
                }
            }
        }
        let threshold = 0.4 * spacing[..dim].iter().cloned().fold(f64::INFINITY, f64::min);
        drop_duplicates(&centres, &mut dropped, n, threshold);
        for (c, t) in centres.iter().zip(dropped.iter_mut()) {
            if !*t && !out_index.any_within(c, radius) {
                *t = true;
            }
        }
    }
    let centres = centres.into_iter().zip(dropped).filter(|(_, t)| !t).map(|(c, _)| c).collect();
    Ok(Clustering { radius, centres })
}

/// Drops, in grid order, every centre with a kept grid neighbour closer than `threshold` (the
/// later one of two near-duplicates survives). Neighbours are the ±1 offsets of the flat grid
/// index, as a grid walk would find them.
fn drop_duplicates(centres: &[Point], dropped: &mut [bool], n: [usize; 3], threshold: f64) {
    let planar = n[2] == 1;
    let mut offsets = Vec::new();
    for dx in -1i64..=1 {
        for dy in -1i64..=1 {
            for dz in if planar { 0..=0 } else { -1i64..=1 } {
                let off = (dx * n[1] as i64 + dy) * n[2] as i64 + dz;
                if off != 0 {
                    offsets.push(off);
                }
            }
        }
    }
    let t2 = threshold * threshold;
    for i in 0..centres.len() {
        if dropped[i] {
            continue;
        }
        let close = offsets.iter().any(|&off| {
            let j = i as i64 + off;
            j >= 0
                && (j as usize) < centres.len()
                && !dropped[j as usize]
                && (0..3).map(|d| (centres[i][d] - centres[j as usize][d]).powi(2)).sum::<f64>() < t2
        });
        if close {
            dropped[i] = true;
        }
    }
}
