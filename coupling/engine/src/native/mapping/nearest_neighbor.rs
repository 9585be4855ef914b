//! Nearest-neighbor mapping (docs/design/coupling-semantics.md §7.3): consistent — every output vertex takes the value
//! of the closest input vertex; conservative — every input value is added to its closest
//! output vertex (so sums are kept). Ties go to the lowest vertex id.

use super::geometry::point;
use super::index::{nearest_in, spatial_order, vertex_tree};
use super::Mapping;
use rayon::prelude::*;
use tidelink_precice_config::MappingConstraint;

/// Index of the nearest vertex of `to` for each vertex of `from` (an R*-tree over `to`, so
/// O((n + m) log m)); ties to the lowest id. Empty when `to` has no vertices.
pub(super) fn nearest_indices(from: &[f64], to: &[f64], dim: usize) -> Vec<usize> {
    if to.is_empty() {
        return Vec::new();
    }
    let tree = vertex_tree(to.chunks_exact(dim).map(point));
    let queries: Vec<_> = from.chunks_exact(dim).map(point).collect();
    let order = spatial_order(&queries);
    // Consecutive queries along the curve go to the same thread, so each keeps its locality.
    let found: Vec<usize> =
        order.par_iter().map(|&i| nearest_in(&tree, &queries[i].into()).map_or(0, |(id, _)| id)).collect();
    let mut table = vec![0; queries.len()];
    for (&i, id) in order.iter().zip(found) {
        table[i] = id;
    }
    table
}

/// A nearest-neighbor mapping with its precomputed neighbor table.
pub struct NearestNeighbor {
    conservative: bool,
    /// consistent: for each output vertex its input vertex; conservative: for each input its output vertex.
    table: Vec<usize>,
    n_out: usize,
}

impl NearestNeighbor {
    /// The mapping from vertices `input` to `output` (flat, `dim` per vertex); consistent
    /// unless `constraint` is conservative. A side without vertices maps nothing (zeros).
    pub fn new(input: &[f64], output: &[f64], dim: usize, constraint: MappingConstraint) -> Self {
        let conservative = constraint == MappingConstraint::Conservative;
        let table =
            if conservative { nearest_indices(input, output, dim) } else { nearest_indices(output, input, dim) };
        NearestNeighbor { conservative, table, n_out: output.len() / dim }
    }
}

impl Mapping for NearestNeighbor {
    fn map(&self, input: &[f64], c: usize) -> Vec<f64> {
        let mut out = vec![0.0; self.n_out * c];
        if self.conservative {
            for (i, &j) in self.table.iter().enumerate() {
                for k in 0..c {
                    out[j * c + k] += input[i * c + k];
                }
            }
        } else {
            for (j, &i) in self.table.iter().enumerate() {
                out[j * c..(j + 1) * c].copy_from_slice(&input[i * c..(i + 1) * c]);
            }
        }
        out
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// Scenario A21 (NN part).
    #[test]
    fn scenario_a21() {
        let input = [0.0, 0.0, 1.0, 0.0, 2.0, 0.0];
        let output = [0.4, 0.0, 1.6, 0.0];
        let m = NearestNeighbor::new(&input, &output, 2, MappingConstraint::Consistent);
        assert_eq!(m.map(&[10.0, 20.0, 30.0], 1), vec![10.0, 30.0]);
        // Conservative back from the output-side mesh onto the three vertices.
        let back = NearestNeighbor::new(&output, &input, 2, MappingConstraint::Conservative);
        assert_eq!(back.map(&[5.0, 7.0], 1), vec![5.0, 0.0, 7.0]);
    }

    #[test]
    fn ties_go_to_the_lowest_vertex_id() {
        // (0, 0) is at distance 1 from all four input vertices: the first wins; (0, -0.5) is
        // nearest to vertex 2 alone.
        let input = [0.0, 1.0, 1.0, 0.0, 0.0, -1.0, -1.0, 0.0];
        let m = NearestNeighbor::new(&input, &[0.0, 0.0, 0.0, -0.5], 2, MappingConstraint::Consistent);
        assert_eq!(m.map(&[1.0, 2.0, 3.0, 4.0], 1), vec![1.0, 3.0]);
    }

    #[test]
    fn conservative_keeps_the_sum_of_vectors() {
        let input = [0.0, 0.0, 0.1, 0.0, 0.9, 0.0];
        let output = [0.0, 0.0, 1.0, 0.0];
        let m = NearestNeighbor::new(&input, &output, 2, MappingConstraint::Conservative);
        let v = m.map(&[1.0, 2.0, 3.0, 4.0, 5.0, 6.0], 2);
        assert_eq!(v, vec![4.0, 6.0, 5.0, 6.0]);
    }

    /// Points of the unit cube from a fixed linear congruential sequence.
    fn cloud(n: usize, seed: u64) -> Vec<f64> {
        let mut x = seed;
        (0..3 * n)
            .map(|_| {
                x = x.wrapping_mul(6364136223846793005).wrapping_add(1442695040888963407);
                (x >> 11) as f64 / (1u64 << 53) as f64
            })
            .collect()
    }

    #[test]
    fn the_index_finds_what_a_full_search_finds() {
        let (input, output) = (cloud(2000, 1), cloud(300, 2));
        let table = nearest_indices(&output, &input, 3);
        for (j, p) in output.chunks_exact(3).enumerate() {
            let d = |i: usize| (0..3).map(|k| (input[3 * i + k] - p[k]).powi(2)).sum::<f64>();
            let best = (0..2000).fold(0, |b, i| if d(i) < d(b) { i } else { b });
            assert_eq!(table[j], best);
        }
    }

    /// Run in release: `cargo test --release -p tidelink-coupling --lib hundred_thousand -- --ignored`.
    #[test]
    #[ignore = "a timing, meaningful in release builds only"]
    fn hundred_thousand_vertices_each_way_in_well_under_a_second() {
        let (input, output) = (cloud(100_000, 3), cloud(100_000, 4));
        let start = std::time::Instant::now();
        let tree = vertex_tree(input.chunks_exact(3).map(point));
        eprintln!("R*-tree of 1e5 vertices: {:?}", start.elapsed());
        drop(tree);
        let start = std::time::Instant::now();
        let m = NearestNeighbor::new(&input, &output, 3, MappingConstraint::Consistent);
        let built = start.elapsed();
        let out = m.map(&vec![1.0; 100_000], 1);
        eprintln!("nearest-neighbor 1e5 x 1e5: built in {built:?}, mapped in {:?}", start.elapsed() - built);
        assert_eq!(out.len(), 100_000);
        assert!(built.as_secs_f64() < 0.5, "{built:?}");
    }
}
