//! The scaled-consistent constraints (docs/design/coupling-semantics.md §7.2): a consistent
//! mapping whose output is then scaled, component by component, by ∫ input / ∫ output, so the
//! integral over the mesh is kept — over the surface elements (`scaled-consistent-surface`) or
//! the cells (`scaled-consistent-volume`). A wrapper over any consistent mapping.

use super::integrate::{integrate, vertex_weights, Measure};
use super::Mapping;
use crate::native::mesh::MeshState;
use crate::{CouplingError, Result};

/// A consistent mapping followed by the integral-keeping scaling.
pub struct ScaledConsistent {
    inner: Box<dyn Mapping>,
    from_weights: Vec<f64>,
    to_weights: Vec<f64>,
    names: (String, String),
}

impl ScaledConsistent {
    /// Wraps the consistent mapping `inner` from `from` to `to` (`names`: their names). Both
    /// meshes, where they have vertices, need the elements of `measure`.
    pub fn new(
        inner: Box<dyn Mapping>,
        from: &MeshState,
        to: &MeshState,
        names: (&str, &str),
        measure: Measure,
    ) -> Result<Self> {
        for (mesh, name) in [(from, names.0), (to, names.1)] {
            if mesh.vertex_count() > 0 && !measure.has_elements(mesh) {
                let elements = measure.elements(mesh.dim);
                return Err(CouplingError::config(format!(
                    "the scaled-consistent mapping from mesh \"{}\" to mesh \"{}\" integrates over {elements}, \
                     but mesh \"{name}\" has none; define its {elements} (set_mesh_{elements}) or use constraint consistent",
                    names.0, names.1
                )));
            }
            super::index::check_elements(mesh, name)?;
        }
        Ok(ScaledConsistent {
            inner,
            from_weights: vertex_weights(from, measure),
            to_weights: vertex_weights(to, measure),
            names: (names.0.to_string(), names.1.to_string()),
        })
    }
}

impl Mapping for ScaledConsistent {
    fn map(&self, input: &[f64], c: usize) -> Vec<f64> {
        self.scale(input, self.inner.map(input, c), c)
    }

    /// The inner mapping with the input's gradients (nearest-neighbor-gradient), then the
    /// scaling by the integrals of the values, as libprecice scales it.
    fn map_with_gradients(&self, input: &[f64], gradients: &[f64], c: usize) -> Vec<f64> {
        self.scale(input, self.inner.map_with_gradients(input, gradients, c), c)
    }
}

impl ScaledConsistent {
    /// Scales the consistent result `out` of `input`, component by component, to keep the integral.
    fn scale(&self, input: &[f64], mut out: Vec<f64>, c: usize) -> Vec<f64> {
        if input.is_empty() || out.is_empty() {
            return out;
        }
        let before = integrate(&self.from_weights, input, c);
        let after = integrate(&self.to_weights, &out, c);
        for k in 0..c {
            // An output integral of zero cannot be scaled to a non-zero one: factor one.
            let factor = if after[k] == 0.0 { 1.0 } else { before[k] / after[k] };
            for v in out.iter_mut().skip(k).step_by(c) {
                *v *= factor;
            }
            let difference = factor * after[k] - before[k];
            // Relative to the integral: the ratio itself leaves round-off of a few ulps.
            if difference.abs() > 1e-14 * before[k].abs().max(1.0) {
                log::warn!(
                    "Failed to fulfill consistency constraint of component {k} for scaled-consistent mapping \
                     from mesh \"{}\" to mesh \"{}\". Consistency difference between input and scaled output is \"{difference}\".",
                    self.names.0,
                    self.names.1
                );
            }
        }
        out
    }
}

#[cfg(test)]
mod tests {
    use super::super::test_meshes::*;
    use super::super::{nearest_projection, NearestNeighbor};
    use super::*;
    use tidelink_precice_config::MappingConstraint;

    #[test]
    fn surface_integrals_are_kept_per_component() {
        // Two different discretisations of a curved surface: nearest projection alone does not
        // keep the integral; the scaled output does, to round-off (sums of ~100 O(1) terms).
        let from = grid_surface(7, 5, |x, y| [x, y, 0.2 * x * x]);
        let to = grid_surface(4, 6, |x, y| [x, y, 0.2 * x * x]);
        let inner = Box::new(nearest_projection::build(&from, &to, ("F", "T"), false).unwrap());
        let m = ScaledConsistent::new(inner, &from, &to, ("F", "T"), Measure::Surface).unwrap();
        let f = |p: &[f64]| vec![(3.0 * p[0]).sin() + 2.0, p[1] * p[1]];
        let out = m.map(&vector_field(&from, f), 2);
        let before = integrate(&vertex_weights(&from, Measure::Surface), &vector_field(&from, f), 2);
        let after = integrate(&vertex_weights(&to, Measure::Surface), &out, 2);
        assert_close(&after, &before, 1e-13);
    }

    #[test]
    fn volume_integrals_are_kept_and_zero_outputs_are_left() {
        let from = cube_tetrahedra(3);
        let to = cube_tetrahedra(2);
        let inner = Box::new(NearestNeighbor::new(&from.coords, &to.coords, 3, MappingConstraint::Consistent));
        let m = ScaledConsistent::new(inner, &from, &to, ("F", "T"), Measure::Volume).unwrap();
        let input = field(&from, |p| 1.0 + p[0] * p[1]);
        let after = integrate(&vertex_weights(&to, Measure::Volume), &m.map(&input, 1), 1);
        let before = integrate(&vertex_weights(&from, Measure::Volume), &input, 1);
        assert_close(&after, &before, 1e-13);
        // Zero field: factor one, output zero (no division by zero).
        assert!(m.map(&vec![0.0; from.vertex_count()], 1).iter().all(|&v| v == 0.0));
    }

    /// A consistent mapping whose output is always zero.
    struct Zeros(usize);
    impl Mapping for Zeros {
        fn map(&self, _: &[f64], c: usize) -> Vec<f64> {
            vec![0.0; self.0 * c]
        }
    }

    #[test]
    fn a_zero_output_integral_keeps_the_factor_one() {
        // ∫ input = 1 over the unit square, ∫ output = 0: no finite factor keeps the integral,
        // so the output is left as it is (and a warning says the integral was not kept).
        let from = grid_surface(3, 3, |x, y| [x, y, 0.0]);
        let to = grid_surface(2, 2, |x, y| [x, y, 0.0]);
        let m = ScaledConsistent::new(Box::new(Zeros(4)), &from, &to, ("F", "T"), Measure::Surface).unwrap();
        assert_eq!(m.map(&[1.0; 9], 1), vec![0.0; 4]);
    }

    #[test]
    fn missing_elements_are_a_clear_error() {
        let from = grid_surface(3, 3, |x, y| [x, y, 0.0]);
        let to = points(3, &[0.5, 0.5, 0.0]);
        let inner = Box::new(NearestNeighbor::new(&from.coords, &to.coords, 3, MappingConstraint::Consistent));
        let err = ScaledConsistent::new(inner, &from, &to, ("Solid", "Probe"), Measure::Surface).err().unwrap();
        let msg = err.to_string();
        assert!(msg.contains("\"Probe\" has none") && msg.contains("triangles"), "{msg}");
    }
}
