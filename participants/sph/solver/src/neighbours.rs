//! Neighbour search on a uniform cell grid, rebuilt every step by a counting sort.
//!
//! Cells are numbered with the first axis fastest, so the cells of one row along that axis are
//! consecutive, and after the particles are reordered by cell, the candidates of a particle in
//! one row form one contiguous index range. A query visits the rows of cells that the ball of
//! the search radius touches, and in each row only the span of cells the ball's chord covers.
//! The grid has no fixed stencil: any cell size works, so a query can use a radius a little
//! above the support when particles have moved since the sort. Cells may be narrower along the
//! first axis than along the others: rows stay few, and the chord's span is cut finely.

use crate::error::{Result, SphError};

/// Receives the candidate ranges of a query. The pair loops implement it on small structs whose
/// `range` is always inlined: a closure would be a separate function, compiled without the
/// AVX2 features of the caller that dispatches on them. Closures implement it too, for the
/// cold paths.
pub(crate) trait RangeSink {
    /// Candidates `s..e` (binned indices).
    fn range(&mut self, s: usize, e: usize);
}

impl<F: FnMut(usize, usize)> RangeSink for F {
    #[inline(always)]
    fn range(&mut self, s: usize, e: usize) {
        self(s, e)
    }
}

/// Geometry of the grid: origin, cell size and cell counts along the internal axes.
#[derive(Debug, Clone)]
pub(crate) struct CellGrid {
    pub origin: [f64; 3],
    pub cell: [f64; 3],
    inv_cell: [f64; 3],
    pub n: [usize; 3],
}

impl CellGrid {
    /// A grid of cells of sides `cell` covering the box `[lo, hi]` (first `dim` axes); refuses
    /// more than `limit` cells.
    pub fn covering(dim: usize, lo: [f64; 3], hi: [f64; 3], cell: [f64; 3], limit: usize) -> Result<Self> {
        let mut n = [1usize; 3];
        let mut total = 1usize;
        for k in 0..dim {
            let span = (hi[k] - lo[k]).max(0.0);
            let cells = (span / cell[k]).floor() + 1.0;
            if !cells.is_finite() || cells > limit as f64 {
                return Err(SphError::DomainTooLarge { cells: usize::MAX, limit });
            }
            n[k] = cells as usize;
            total = total.saturating_mul(n[k]);
        }
        if total > limit {
            return Err(SphError::DomainTooLarge { cells: total, limit });
        }
        Ok(CellGrid { origin: lo, cell, inv_cell: cell.map(|c| 1.0 / c), n })
    }

    /// Number of cells.
    pub fn cells(&self) -> usize {
        self.n[0] * self.n[1] * self.n[2]
    }

    fn coord(&self, x: f64, k: usize) -> usize {
        let c = ((x - self.origin[k]) * self.inv_cell[k]).floor();
        (c.max(0.0) as usize).min(self.n[k] - 1)
    }

    /// The cell of a point (first `D` coordinates used).
    pub fn key<const D: usize>(&self, x: [f64; D]) -> usize {
        let mut key = 0;
        for k in (0..D).rev() {
            key = key * self.n[k] + self.coord(x[k], k);
        }
        key
    }

    /// Counting sort of the points `x` (first `D` arrays) by cell: `order[new] = old`, and the
    /// points of cell `c` are `starts[c]..starts[c + 1]` in the new order. Stable.
    pub fn bin<const D: usize>(&self, x: &[Vec<f64>; 3], starts: &mut Vec<u32>, order: &mut Vec<u32>) {
        let n = x[0].len();
        let cells = self.cells();
        starts.clear();
        starts.resize(cells + 1, 0);
        let keys: Vec<u32> = (0..n)
            .map(|i| {
                let key = self.key::<D>(std::array::from_fn(|k| x[k][i])) as u32;
                starts[key as usize + 1] += 1;
                key
            })
            .collect();
        for c in 0..cells {
            starts[c + 1] += starts[c];
        }
        order.clear();
        order.resize(n, 0);
        let mut next: Vec<u32> = starts[..cells].to_vec();
        for (i, &key) in keys.iter().enumerate() {
            let slot = &mut next[key as usize];
            order[*slot as usize] = i as u32;
            *slot += 1;
        }
    }

    /// Calls `f(start, end)` for each index range of binned particles (cell table `starts`)
    /// that may lie within `radius` of `p`; `p` is relative to the grid origin, in f32 as the
    /// pair loops hold it.
    #[inline(always)]
    pub fn for_each_range<const D: usize>(&self, starts: &[u32], p: [f32; D], radius: f32, f: &mut impl RangeSink) {
        self.for_each_range_after(starts, p, radius, 0, f)
    }

    /// [`CellGrid::for_each_range`] restricted to indices `≥ after`: rows that end before it
    /// are skipped before any arithmetic, and ranges are clipped.
    #[inline(always)]
    pub fn for_each_range_after<const D: usize>(
        &self,
        starts: &[u32],
        p: [f32; D],
        radius: f32,
        after: usize,
        f: &mut impl RangeSink,
    ) {
        let c = self.cell.map(|c| c as f32);
        let inv = self.inv_cell.map(|c| c as f32);
        let r2 = radius * radius;
        // Truncation of a non-negative value is its floor (and avoids a libm call without SSE4.1).
        let clamp = |x: f32, k: usize| -> usize { ((x * inv[k]).max(0.0) as usize).min(self.n[k] - 1) };
        // Squared distance from p[k] to the slab of cell index `i` along axis k.
        let gap = |i: usize, k: usize| -> f32 {
            let lo = i as f32 * c[k];
            let d = (lo - p[k]).max(p[k] - (lo + c[k])).max(0.0);
            d * d
        };
        let (lo2, hi2) = if D == 3 { (clamp(p[D - 1] - radius, 2), clamp(p[D - 1] + radius, 2)) } else { (0, 0) };
        let (lo1, hi1) = (clamp(p[1] - radius, 1), clamp(p[1] + radius, 1));
        let n0 = self.n[0];
        for c2 in lo2..=hi2 {
            let g2 = if D == 3 { gap(c2, 2) } else { 0.0 };
            for c1 in lo1..=hi1 {
                let base = (c2 * self.n[1] + c1) * n0;
                if (starts[base + n0] as usize) <= after {
                    continue;
                }
                let rem = r2 - g2 - gap(c1, 1);
                if rem < 0.0 {
                    continue;
                }
                let chord = rem.sqrt();
                let (x0, x1) = (clamp(p[0] - chord, 0), clamp(p[0] + chord, 0));
                let (s, e) = ((starts[base + x0] as usize).max(after), starts[base + x1 + 1] as usize);
                if e > s {
                    f.range(s, e);
                }
            }
        }
    }
}

/// Which cells of a coarse grid (cells at least the search radius wide) hold fluid: a cheap
/// test that lets a marker far from all fluid skip its neighbour query.
#[derive(Debug, Default)]
pub(crate) struct Occupancy {
    inv: [f32; 3],
    n: [usize; 3],
    cells: Vec<bool>,
}

impl Occupancy {
    /// Marks the cells of the points `x` (first `dim` arrays, `count` entries, relative to the
    /// grid origin) for a grid spanning `span` with cells of at least `radius`.
    pub fn build(&mut self, dim: usize, x: &[Vec<f32>; 3], count: usize, span: [f64; 3], radius: f64) {
        let mut total = 1;
        for (k, &extent) in span.iter().enumerate() {
            let cells = if k < dim { ((extent / radius).floor() as usize + 1).max(1) } else { 1 };
            self.n[k] = cells;
            self.inv[k] = if k < dim { (1.0 / radius) as f32 } else { 0.0 };
            total *= cells;
        }
        self.cells.clear();
        self.cells.resize(total, false);
        #[allow(clippy::needless_range_loop)]
        for i in 0..count {
            let c: [usize; 3] = std::array::from_fn(|k| if k < dim { self.coord(x[k][i], k) } else { 0 });
            self.cells[(c[2] * self.n[1] + c[1]) * self.n[0] + c[0]] = true;
        }
    }

    fn coord(&self, x: f32, k: usize) -> usize {
        ((x * self.inv[k]).max(0.0) as usize).min(self.n[k] - 1)
    }

    /// Whether any marked point may lie within the radius of `p` (never a false "no").
    #[inline(always)]
    pub fn near<const D: usize>(&self, p: [f32; D]) -> bool {
        let mut lo = [0usize; 3];
        let mut hi = [0usize; 3];
        for k in 0..D {
            let c = self.coord(p[k], k);
            lo[k] = c.saturating_sub(1);
            hi[k] = (c + 1).min(self.n[k] - 1);
        }
        for c2 in lo[2]..=hi[2] {
            for c1 in lo[1]..=hi[1] {
                let base = (c2 * self.n[1] + c1) * self.n[0];
                if self.cells[base + lo[0]..=base + hi[0]].iter().any(|&b| b) {
                    return true;
                }
            }
        }
        false
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// A small deterministic generator (no dependency needed for test data).
    fn lcg(seed: &mut u64) -> f64 {
        *seed = seed.wrapping_mul(6364136223846793005).wrapping_add(1442695040888963407);
        (*seed >> 11) as f64 / (1u64 << 53) as f64
    }

    fn check<const D: usize>(cell: [f64; 3], radius: f64) {
        let mut seed = 7;
        let n = 600;
        let mut x: [Vec<f64>; 3] = Default::default();
        for k in 0..D {
            x[k] = (0..n).map(|_| 0.3 + lcg(&mut seed) * [1.0, 0.7, 0.5][k]).collect();
        }
        let mut lo = [0.0; 3];
        let mut hi = [0.0; 3];
        for k in 0..D {
            lo[k] = x[k].iter().cloned().fold(f64::INFINITY, f64::min);
            hi[k] = x[k].iter().cloned().fold(f64::NEG_INFINITY, f64::max);
        }
        let grid = CellGrid::covering(D, lo, hi, cell, 1 << 20).unwrap();
        let (mut starts, mut order) = (Vec::new(), Vec::new());
        grid.bin::<D>(&x, &mut starts, &mut order);
        // Sorted by cell, every cell's range holds exactly its points.
        let sorted: Vec<[f64; D]> = order.iter().map(|&o| std::array::from_fn(|k| x[k][o as usize])).collect();
        for c in 0..grid.cells() {
            for p in &sorted[starts[c] as usize..starts[c + 1] as usize] {
                assert_eq!(grid.key(*p), c);
            }
        }
        let packed: [Vec<f32>; 3] = std::array::from_fn(|k| {
            if k < D {
                sorted.iter().map(|p| (p[k] - grid.origin[k]) as f32).collect()
            } else {
                Vec::new()
            }
        });
        let mut occ = Occupancy::default();
        occ.build(D, &packed, n, std::array::from_fn(|k| hi[k] - lo[k]), radius);
        for (i, p) in sorted.iter().enumerate() {
            let rel: [f32; D] = std::array::from_fn(|k| (p[k] - grid.origin[k]) as f32);
            let mut found = Vec::new();
            grid.for_each_range(&starts, rel, radius as f32, &mut |s, e| found.extend(s..e));
            let dist2 = |j: usize| (0..D).map(|k| (p[k] - sorted[j][k]).powi(2)).sum::<f64>();
            let mut near: Vec<usize> = found.iter().copied().filter(|&j| dist2(j) < radius * radius).collect();
            let brute: Vec<usize> = (0..n).filter(|&j| dist2(j) < radius * radius).collect();
            near.sort();
            let unique = found.len();
            found.sort();
            found.dedup();
            assert_eq!(found.len(), unique, "a candidate visited twice");
            assert_eq!(near, brute, "particle {i}");
            if !brute.iter().all(|&j| j == i) {
                assert!(occ.near(rel), "occupancy misses a neighbour of {i}");
            }
        }
    }

    #[test]
    fn finds_what_brute_force_finds() {
        for cells_per_support in [1.0, 2.0, 3.3] {
            check::<2>([0.1 / cells_per_support; 3], 0.1);
            check::<3>([0.12 / cells_per_support; 3], 0.12);
            check::<3>([0.03, 0.12 / cells_per_support, 0.12 / cells_per_support], 0.12);
        }
        // A radius bigger than the cells the grid was sized for.
        check::<3>([0.05; 3], 0.13);
    }

    #[test]
    fn refuses_too_many_cells() {
        let e = CellGrid::covering(3, [0.0; 3], [1e3, 1e3, 1e3], [0.01; 3], 1 << 24).unwrap_err();
        assert!(matches!(e, SphError::DomainTooLarge { .. }));
    }
}
