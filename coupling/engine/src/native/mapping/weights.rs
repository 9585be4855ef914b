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

/// One term: origin vertex, search-mesh vertex, weight.
#[derive(Debug, Clone, Copy, PartialEq)]
struct Term {
    origin: usize,
    search: usize,
    weight: f64,
}

/// A linear mapping given by the interpolation of every origin vertex on the search mesh.
pub struct WeightedMapping {
    conservative: bool,
    terms: Vec<Term>,
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
    /// Places every origin vertex on the search mesh with `locate` (a query of the index).
    pub fn build(
        sides: &Sides,
        conservative: bool,
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
        let points: Vec<_> = (0..n_origins).map(|v| geometry::point(sides.origins.vertex(v))).collect();
        let order = spatial_order(&points);
        // Placed in parallel, in curve order (each thread keeps its locality in the trees).
        let placed: Vec<Option<Polation>> = order.par_iter().map(|&v| locate(&index, v)).collect();
        let mut by_origin: Vec<Option<Polation>> = vec![None; n_origins];
        for (&v, pol) in order.iter().zip(placed) {
            by_origin[v] = pol;
        }
        let mut terms = Vec::with_capacity(n_origins * (sides.search.dim + 1));
        for (origin, pol) in by_origin.into_iter().enumerate() {
            let pol = pol
                .ok_or_else(|| CouplingError::new(format!("mesh \"{}\": no vertex to map onto", sides.search_name)))?;
            // Zero weights (a point on an element's edge or vertex) carry nothing.
            terms.extend(pol.weights.iter().filter(|(_, w)| *w != 0.0).map(|&(search, weight)| Term {
                origin,
                search,
                weight,
            }));
        }
        let n_out = if conservative { sides.search.vertex_count() } else { n_origins };
        Ok(WeightedMapping { conservative, terms, n_out })
    }
}

impl Mapping for WeightedMapping {
    fn map(&self, input: &[f64], c: usize) -> Vec<f64> {
        let mut out = vec![0.0; self.n_out * c];
        for t in &self.terms {
            let (from, to) = if self.conservative { (t.origin, t.search) } else { (t.search, t.origin) };
            for k in 0..c {
                out[to * c + k] += t.weight * input[from * c + k];
            }
        }
        out
    }
}
