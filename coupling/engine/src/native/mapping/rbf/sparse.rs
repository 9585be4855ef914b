//! Kernel matrices in compressed rows: only pairs within the support radius for compactly
//! supported bases (found with the spatial index), every pair otherwise.

use super::basis::Basis;
use super::index::PointIndex;
use super::system::{dist2, Point};

/// A matrix in compressed sparse rows.
pub struct Csr {
    ncols: usize,
    starts: Vec<usize>,
    cols: Vec<usize>,
    vals: Vec<f64>,
}

impl Csr {
    /// `φ(|yₖ - xⱼ|)` for evaluation points `ys` and centres `xs`, skipping zero entries of
    /// compact bases. `Err(count)` when it would hold more than `max_entries` entries.
    pub fn kernel(
        basis: &Basis,
        ys: &[Point],
        xs: &[Point],
        active: &[bool; 3],
        max_entries: usize,
    ) -> Result<Csr, usize> {
        let mut m = Csr { ncols: xs.len(), starts: vec![0], cols: Vec::new(), vals: Vec::new() };
        match basis.support_radius() {
            Some(r) => {
                // Dead axes do not count: index the points with those coordinates zeroed.
                let proj = |p: &Point| [0, 1, 2].map(|d| if active[d] { p[d] } else { 0.0 });
                let xp: Vec<Point> = xs.iter().map(proj).collect();
                let index = PointIndex::new(&xp);
                for y in ys {
                    let yp = proj(y);
                    for j in index.within(&yp, r) {
                        let v = basis.eval_sq(dist2(&yp, &xp[j], active));
                        if v != 0.0 {
                            m.cols.push(j);
                            m.vals.push(v);
                        }
                    }
                    if m.cols.len() > max_entries {
                        return Err(m.cols.len());
                    }
                    m.starts.push(m.cols.len());
                }
            }
            None => {
                let total = ys.len().saturating_mul(xs.len());
                if total > max_entries {
                    return Err(total);
                }
                m.cols.reserve(total);
                m.vals.reserve(total);
                for y in ys {
                    for (j, x) in xs.iter().enumerate() {
                        m.cols.push(j);
                        m.vals.push(basis.eval_sq(dist2(y, x, active)));
                    }
                    m.starts.push(m.cols.len());
                }
            }
        }
        Ok(m)
    }

    /// Number of stored entries.
    pub fn entries(&self) -> usize {
        self.vals.len()
    }

    /// `out = M x`.
    pub fn mul(&self, x: &[f64], out: &mut [f64]) {
        for (k, o) in out.iter_mut().enumerate() {
            let (a, b) = (self.starts[k], self.starts[k + 1]);
            *o = self.cols[a..b].iter().zip(&self.vals[a..b]).map(|(&j, &v)| v * x[j]).sum();
        }
    }

    /// `out = Mᵀ y`.
    pub fn tr_mul(&self, y: &[f64], out: &mut [f64]) {
        out.iter_mut().for_each(|o| *o = 0.0);
        debug_assert_eq!(out.len(), self.ncols);
        for (k, &yk) in y.iter().enumerate() {
            for e in self.starts[k]..self.starts[k + 1] {
                out[self.cols[e]] += self.vals[e] * yk;
            }
        }
    }
}
