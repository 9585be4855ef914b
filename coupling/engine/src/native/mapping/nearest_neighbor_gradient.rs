//! Nearest-neighbor-gradient mapping (preCICE's `NearestNeighborGradientMapping`,
//! docs/design/coupling-semantics.md §7.6): consistent only. Every output vertex takes the
//! value of its nearest input vertex corrected to first order by that vertex's gradient,
//! `out = v(x_in) + ∇v(x_in) · (x_out − x_in)`, so a linear field is mapped exactly and a
//! smooth one with an error of second order in the distance (plain nearest-neighbor: first).
//! The gradients come with the input sample (the writer's `write_gradient_data`).

use super::nearest_neighbor::nearest_indices;
use super::Mapping;

/// The neighbor table and, per output vertex, its offset from its neighbor.
pub struct NearestNeighborGradient {
    /// For each output vertex its nearest input vertex (ties to the lowest id).
    table: Vec<usize>,
    /// Per output vertex, `dim` coordinates: x_out − x_in (libprecice's `_offsetsMatched`).
    offsets: Vec<f64>,
    dim: usize,
    n_out: usize,
}

impl NearestNeighborGradient {
    /// The mapping from vertices `input` to `output` (flat, `dim` per vertex). A side without
    /// vertices maps nothing (zeros).
    pub fn new(input: &[f64], output: &[f64], dim: usize) -> Self {
        let table = nearest_indices(output, input, dim);
        let mut offsets = Vec::with_capacity(output.len());
        for (j, &i) in table.iter().enumerate() {
            offsets.extend((0..dim).map(|d| output[j * dim + d] - input[i * dim + d]));
        }
        NearestNeighborGradient { table, offsets, dim, n_out: output.len() / dim }
    }
}

impl Mapping for NearestNeighborGradient {
    /// Without gradients (all zero): the nearest value, as plain nearest-neighbor maps it.
    fn map(&self, input: &[f64], c: usize) -> Vec<f64> {
        self.map_with_gradients(input, &[], c)
    }

    /// `gradients`: per input vertex and component, `dim` partial derivatives (row layout,
    /// libprecice's column `vertex × c + component` of its gradient matrix); empty means zero.
    fn map_with_gradients(&self, input: &[f64], gradients: &[f64], c: usize) -> Vec<f64> {
        let mut out = vec![0.0; self.n_out * c];
        let dim = self.dim;
        for (j, &i) in self.table.iter().enumerate() {
            let offset = &self.offsets[j * dim..(j + 1) * dim];
            for k in 0..c {
                let column = i * c + k;
                // The dot product first, then the value, in libprecice's order.
                let correction = if gradients.is_empty() {
                    0.0
                } else {
                    offset.iter().zip(&gradients[column * dim..(column + 1) * dim]).map(|(o, g)| o * g).sum()
                };
                out[j * c + k] = input[column] + correction;
            }
        }
        out
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// Points of the unit cube (its first `dim` coordinates) from a fixed linear congruential sequence.
    fn cloud(n: usize, dim: usize, seed: u64) -> Vec<f64> {
        let mut x = seed;
        (0..dim * n)
            .map(|_| {
                x = x.wrapping_mul(6364136223846793005).wrapping_add(1442695040888963407);
                (x >> 11) as f64 / (1u64 << 53) as f64
            })
            .collect()
    }

    /// The values and exact gradients (row layout) of the affine field `a + B x` (`c`
    /// components) at `points`.
    fn affine(points: &[f64], dim: usize, c: usize) -> (Vec<f64>, Vec<f64>) {
        let a = |k: usize| 0.5 + k as f64;
        let b = |k: usize, d: usize| (1.0 + k as f64) * [1.5, -2.25, 0.75][d];
        let mut values = Vec::new();
        let mut gradients = Vec::new();
        for p in points.chunks_exact(dim) {
            for k in 0..c {
                values.push(a(k) + (0..dim).map(|d| b(k, d) * p[d]).sum::<f64>());
                gradients.extend((0..dim).map(|d| b(k, d)));
            }
        }
        (values, gradients)
    }

    #[test]
    fn a_linear_field_with_its_gradient_is_mapped_exactly_in_2d_and_3d_scalar_and_vector() {
        for dim in [2, 3] {
            for c in [1, dim] {
                let (input, output) = (cloud(40, dim, 1), cloud(300, dim, 2));
                let (values, gradients) = affine(&input, dim, c);
                let (exact, _) = affine(&output, dim, c);
                let m = NearestNeighborGradient::new(&input, &output, dim);
                let mapped = m.map_with_gradients(&values, &gradients, c);
                // Values of order 10 on the unit cube: a few ulps of round-off per operation.
                let worst = mapped.iter().zip(&exact).map(|(a, b)| (a - b).abs()).fold(0.0, f64::max);
                assert!(worst < 1e-13, "dim {dim}, {c} components: {worst:e}");
                // Without the gradients it is plain nearest-neighbor: far from exact here.
                let plain = m.map(&values, c);
                let worst = plain.iter().zip(&exact).map(|(a, b)| (a - b).abs()).fold(0.0, f64::max);
                assert!(worst > 1e-2, "dim {dim}: {worst:e}");
            }
        }
    }

    #[test]
    fn the_gradient_layout_is_libprecices_one_row_per_component() {
        // libprecice's integration test (serial mapping-nearest-neighbor-gradient, read vector):
        // inputs at 0 and 1 (3D), outputs shifted by 0.1, gradients 1..18 in write order.
        let input = [0.0, 0.0, 0.0, 1.0, 1.0, 1.0];
        let output = [0.1, 0.1, 0.1, 1.1, 1.1, 1.1];
        let gradients: Vec<f64> = (1..=18).map(f64::from).collect();
        let m = NearestNeighborGradient::new(&input, &output, 3);
        let out = m.map_with_gradients(&[1.0, 2.0, 3.0, 4.0, 5.0, 6.0], &gradients, 3);
        // x of vertex 0: 1 + 0.1 (1 + 2 + 3); its y takes gradients 4..6, and so on.
        let expected = [1.6, 3.5, 5.4, 7.3, 9.2, 11.1];
        for (a, b) in out.iter().zip(expected) {
            assert!((a - b).abs() < 1e-14, "{out:?}");
        }
    }

    /// The largest error mapping `f` (with its exact gradient `df` when `gradients`) from a
    /// uniform `n`-point grid of [0, 1]² onto points between the grid's vertices.
    fn max_error(n: usize, gradients: bool, f: impl Fn(f64, f64) -> f64, df: impl Fn(f64, f64) -> [f64; 2]) -> f64 {
        let h = 1.0 / (n - 1) as f64;
        let grid: Vec<f64> = (0..n * n).flat_map(|v| [(v % n) as f64 * h, (v / n) as f64 * h]).collect();
        // Output vertices a third of a cell off the grid: every distance scales with h.
        let output: Vec<f64> = (0..(n - 1) * (n - 1))
            .flat_map(|v| [((v % (n - 1)) as f64 + 0.3) * h, ((v / (n - 1)) as f64 + 0.2) * h])
            .collect();
        let values: Vec<f64> = grid.chunks_exact(2).map(|p| f(p[0], p[1])).collect();
        let grads: Vec<f64> =
            if gradients { grid.chunks_exact(2).flat_map(|p| df(p[0], p[1])).collect() } else { vec![] };
        let m = NearestNeighborGradient::new(&grid, &output, 2);
        let mapped = m.map_with_gradients(&values, &grads, 1);
        output.chunks_exact(2).zip(mapped).map(|(p, v)| (v - f(p[0], p[1])).abs()).fold(0.0, f64::max)
    }

    #[test]
    fn a_quadratic_field_converges_at_second_order_where_nearest_neighbor_does_at_first() {
        let f = |x: f64, y: f64| x * x + 3.0 * x * y - 2.0 * y * y + x;
        let df = |x: f64, y: f64| [2.0 * x + 3.0 * y + 1.0, 3.0 * x - 4.0 * y];
        let sizes = [11, 21, 41, 81];
        let rate = |gradients: bool| -> Vec<f64> {
            let errors: Vec<f64> = sizes.iter().map(|&n| max_error(n, gradients, f, df)).collect();
            eprintln!("gradients {gradients}: errors {errors:?}");
            errors.windows(2).map(|e| (e[0] / e[1]).log2()).collect()
        };
        let (with, without) = (rate(true), rate(false));
        eprintln!("observed orders: nearest-neighbor-gradient {with:?}, nearest-neighbor {without:?}");
        // The output vertices sit at fixed fractions of h from their neighbors, so the
        // gradient-corrected error is exactly ½ offsetᵀ H offset ∝ h² (H constant): order 2 up
        // to round-off in the ratios (errors of 1e-3..1e-5 with 1e-16 round-off: 1e-9).
        // Plain nearest-neighbor misses the first-order term ∇f · offset: its worst error is
        // a h + b h², so its observed order tends to 1 from below (0.947, 0.974, 0.987):
        // within 0.06 of 1 and rising.
        for r in &with {
            assert!((r - 2.0).abs() < 1e-9, "with gradients: order {r}");
        }
        for r in &without {
            assert!((r - 1.0).abs() < 0.06, "without gradients: order {r}");
        }
        assert!(without.windows(2).all(|w| (w[1] - 1.0).abs() < (w[0] - 1.0).abs()), "{without:?}");
    }

    #[test]
    fn an_empty_side_maps_nothing() {
        let m = NearestNeighborGradient::new(&[], &[0.0, 0.0], 2);
        assert_eq!(m.map_with_gradients(&[], &[], 1), vec![0.0]);
        let m = NearestNeighborGradient::new(&[0.0, 0.0], &[], 2);
        assert!(m.map_with_gradients(&[1.0], &[1.0, 1.0], 1).is_empty());
    }
}
