//! The sparse operator of the element-based mappings (nearest-projection, linear-cell
//! interpolation): for each origin vertex the weights of the search-mesh vertices of its
//! element. Consistent mappings gather (output = Σ weight · input), conservative ones scatter
//! the same weights transposed, so every input value is split among vertices with weights
//! summing to one and sums are kept.

use super::geometry;
use super::index::{spatial_order, MeshIndex, Polation};
use super::Mapping;
use crate::native::mesh::MeshState;
use crate::{CouplingError, Result};
use rayon::prelude::*;

/// A linear mapping given by the interpolation of every origin vertex on the search mesh,
/// stored as compressed rows (one row per origin vertex, in vertex order): applying it streams
/// three flat arrays once, which is what its cost is at 10⁵ vertices (memory traffic).
pub struct WeightedMapping {
    conservative: bool,
    /// Row `r` holds the entries `offsets[r]..offsets[r + 1]`.
    offsets: Vec<usize>,
    /// Search-mesh vertex of each entry.
    search: Vec<usize>,
    /// Weight of each entry.
    weights: Vec<f64>,
    n_out: usize,
}

/// Which side of a mapping is searched: the input mesh for consistent, the output for
/// conservative. `names` are the (input, output) mesh names for messages.
pub struct Sides<'a> {
    /// The mesh whose vertices are placed (output of consistent, input of conservative).
    pub origins: &'a MeshState,
    /// The mesh whose elements are searched.
    pub search: &'a MeshState,
    /// Name of the searched mesh.
    pub search_name: &'a str,
    /// Name of the origin mesh.
    pub origin_name: &'a str,
}

impl<'a> Sides<'a> {
    /// The sides of a mapping from `from` to `to` with the given constraint.
    pub fn new(from: &'a MeshState, to: &'a MeshState, names: (&'a str, &'a str), conservative: bool) -> Self {
        if conservative {
            Sides { origins: from, search: to, search_name: names.1, origin_name: names.0 }
        } else {
            Sides { origins: to, search: from, search_name: names.0, origin_name: names.1 }
        }
    }
}

impl WeightedMapping {
    /// Places every origin vertex on the search mesh with `locate` (a query of the index),
    /// after `prepare` (which builds the trees every query will use, before the queries share them).
    pub fn build(
        sides: &Sides,
        conservative: bool,
        prepare: impl FnOnce(&MeshIndex),
        locate: impl Fn(&MeshIndex, usize) -> Option<Polation> + Sync,
    ) -> Result<Self> {
        let n_origins = sides.origins.vertex_count();
        if n_origins > 0 && sides.search.vertex_count() == 0 {
            return Err(CouplingError::misuse(format!(
                "mesh \"{}\" has no vertices, so its {} vertices of mesh \"{}\" cannot be mapped; \
                 define the vertices of \"{}\" before initialize",
                sides.search_name, n_origins, sides.origin_name, sides.search_name
            )));
        }
        let index = MeshIndex::new(sides.search, sides.search_name)?;
        prepare(&index);
        let points: Vec<_> = (0..n_origins).map(|v| geometry::point(sides.origins.vertex(v))).collect();
        let order = spatial_order(&points);
        // Placed in parallel, in curve order (each thread keeps its locality in the trees).
        let placed: Vec<Option<Polation>> = order.par_iter().map(|&v| locate(&index, v)).collect();
        let mut by_origin: Vec<Option<Polation>> = vec![None; n_origins];
        for (&v, pol) in order.iter().zip(placed) {
            by_origin[v] = pol;
        }
        let capacity = n_origins * (sides.search.dim + 1);
        let (mut offsets, mut search, mut weights) =
            (Vec::with_capacity(n_origins + 1), Vec::with_capacity(capacity), Vec::with_capacity(capacity));
        offsets.push(0);
        for pol in by_origin {
            let pol = pol
                .ok_or_else(|| CouplingError::new(format!("mesh \"{}\": no vertex to map onto", sides.search_name)))?;
            // Zero weights (a point on an element's edge or vertex) carry nothing.
            for &(s, w) in pol.weights.iter().filter(|(_, w)| *w != 0.0) {
                search.push(s);
                weights.push(w);
            }
            offsets.push(search.len());
        }
        let n_out = if conservative { sides.search.vertex_count() } else { n_origins };
        Ok(WeightedMapping { conservative, offsets, search, weights, n_out })
    }
}

impl Mapping for WeightedMapping {
    fn map(&self, input: &[f64], c: usize) -> Vec<f64> {
        let mut out = vec![0.0; self.n_out * c];
        let rows = self.offsets.windows(2).map(|r| r[0]..r[1]);
        if self.conservative {
            // Scatter: origin vertex `o`'s value split among its search-mesh vertices.
            for (o, row) in rows.enumerate() {
                let from = &input[o * c..(o + 1) * c];
                for (&s, &w) in self.search[row.clone()].iter().zip(&self.weights[row]) {
                    out[s * c..(s + 1) * c].iter_mut().zip(from).for_each(|(y, x)| *y += w * x);
                }
            }
        } else if c == 1 {
            // Gather, the common scalar case without the component loop.
            for (y, row) in out.iter_mut().zip(rows) {
                *y = self.search[row.clone()].iter().zip(&self.weights[row]).fold(0.0, |a, (&s, &w)| a + w * input[s]);
            }
        } else {
            for (to, row) in out.chunks_exact_mut(c).zip(rows) {
                for (&s, &w) in self.search[row.clone()].iter().zip(&self.weights[row]) {
                    to.iter_mut().zip(&input[s * c..(s + 1) * c]).for_each(|(y, x)| *y += w * x);
                }
            }
        }
        out
    }
}
