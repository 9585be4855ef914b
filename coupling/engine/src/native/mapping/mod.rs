//! Data mappings between meshes (preCICE's `mapping`), built once from the `<mapping:*>` tag
//! and the two meshes, then applied sample by sample (docs/design/coupling-semantics.md §7).
//!
//! Every method is a linear operator: consistent mappings interpolate (the output at a vertex is
//! a weighted sum of inputs whose weights sum to one), conservative ones apply the transpose of
//! the consistent operator built in the opposite direction (so sums are kept), scaled-consistent
//! ones scale a consistent result to keep the surface or volume integral.

pub mod geometry;
pub mod index;
pub mod integrate;
mod linear_cell;
mod nearest_neighbor;
mod nearest_neighbor_gradient;
mod nearest_projection;
pub mod rbf;
mod scaled;
#[cfg(test)]
mod test_meshes;
mod weights;

pub use integrate::Measure;
pub use nearest_neighbor::NearestNeighbor;
pub use nearest_neighbor_gradient::NearestNeighborGradient;
pub use scaled::ScaledConsistent;

use super::mesh::MeshState;
use crate::{CouplingError, Result};
use tidelink_precice_config::{MappingConstraint, MappingDecl, MappingMethod};

/// A mapping computed once for fixed input and output meshes, applied sample by sample.
pub trait Mapping: Send {
    /// Maps one sample of `components`-wide values from the input to the output mesh.
    fn map(&self, input: &[f64], components: usize) -> Vec<f64>;
    /// Maps one sample with the gradients of its values (row layout: per vertex, per
    /// component, the mesh dimension's partial derivatives; empty when the sample has none).
    /// Only nearest-neighbor-gradient reads them; every other method maps the values alone.
    fn map_with_gradients(&self, input: &[f64], gradients: &[f64], components: usize) -> Vec<f64> {
        let _ = gradients;
        self.map(input, components)
    }
}

/// Why the native engine cannot run `decl` between meshes of dimension `dim`, when it cannot
/// (checked on the configuration, before anything connects, so that `tidelink check` reports
/// it with the words a run would stop on).
pub fn unsupported(decl: &MappingDecl, dim: usize) -> Option<String> {
    use MappingConstraint::{ScaledConsistentSurface as Surface, ScaledConsistentVolume as Volume};
    match (&decl.method, decl.constraint) {
        (MappingMethod::NearestNeighbor, _) => None,
        // The configuration refuses it conservative already (libprecice's words).
        (MappingMethod::NearestNeighborGradient, _) => None,
        (MappingMethod::NearestProjection, Volume) => Some(format!(
            "mapping:nearest-projection does not take constraint \"{}\": nearest projection maps surfaces; use \
             scaled-consistent-surface.",
            constraint_name(Volume)
        )),
        (MappingMethod::LinearCellInterpolation, Surface) => Some(format!(
            "mapping:linear-cell-interpolation does not take constraint \"{}\": linear cell interpolation maps \
             volumes; use scaled-consistent-volume.",
            constraint_name(Surface)
        )),
        (MappingMethod::NearestProjection | MappingMethod::LinearCellInterpolation, _) => None,
        (m, _) if m.is_rbf() => rbf::check(decl, dim),
        (m, _) => Some(format!(
            "mapping:{} is not supported by the native engine; use mapping:nearest-neighbor (or another method it \
             runs: nearest-neighbor-gradient, nearest-projection, linear-cell-interpolation, the RBF methods), or run \
             with the precice backend.",
            m.tag()
        )),
    }
}

/// Builds the mapping `decl` asks for from mesh `from` (its input) to mesh `to` (its output).
/// Both meshes have their vertices (and the elements the method needs) by now.
pub fn build(decl: &MappingDecl, from: &MeshState, to: &MeshState) -> Result<Box<dyn Mapping>> {
    let names = (decl.from.as_str(), decl.to.as_str());
    let refuse = |why: &str| {
        Err(CouplingError::config(format!(
            "{}: mapping:{} does not take constraint \"{}\"{why}",
            decl.loc,
            decl.method.tag(),
            constraint_name(decl.constraint)
        )))
    };
    match decl.method {
        MappingMethod::NearestNeighbor => with_constraint(decl, from, to, |conservative| {
            let constraint = if conservative { MappingConstraint::Conservative } else { MappingConstraint::Consistent };
            check_search_side(from, to, names, conservative)?;
            Ok(Box::new(NearestNeighbor::new(&from.coords, &to.coords, from.dim, constraint)))
        }),
        MappingMethod::NearestNeighborGradient => with_constraint(decl, from, to, |conservative| {
            if conservative {
                return refuse(": nearest-neighbor-gradient maps consistently; use constraint consistent");
            }
            check_search_side(from, to, names, false)?;
            Ok(Box::new(NearestNeighborGradient::new(&from.coords, &to.coords, from.dim)))
        }),
        MappingMethod::NearestProjection => {
            if decl.constraint == MappingConstraint::ScaledConsistentVolume {
                return refuse(": nearest projection maps surfaces; use scaled-consistent-surface");
            }
            with_constraint(decl, from, to, |conservative| {
                Ok(Box::new(nearest_projection::build(from, to, names, conservative)?))
            })
        }
        MappingMethod::LinearCellInterpolation => {
            if decl.constraint == MappingConstraint::ScaledConsistentSurface {
                return refuse(": linear cell interpolation maps volumes; use scaled-consistent-volume");
            }
            with_constraint(decl, from, to, |conservative| {
                Ok(Box::new(linear_cell::build(from, to, names, conservative)?))
            })
        }
        _ if decl.method.is_rbf() => rbf::build(decl, from, to),
        _ => Err(CouplingError::config(format!(
            "{}: mapping:{} with constraint {:?} is not supported by the native engine",
            decl.loc,
            decl.method.tag(),
            decl.constraint
        ))),
    }
}

/// Builds the consistent or conservative mapping with `make` (its argument: conservative), and
/// wraps a consistent one in the scaling the scaled-consistent constraints ask for. Public in
/// the crate so every method (the RBF ones too) gets the scaled constraints the same way.
pub fn with_constraint(
    decl: &MappingDecl,
    from: &MeshState,
    to: &MeshState,
    make: impl FnOnce(bool) -> Result<Box<dyn Mapping>>,
) -> Result<Box<dyn Mapping>> {
    let measure = match decl.constraint {
        MappingConstraint::Consistent => return make(false),
        MappingConstraint::Conservative => return make(true),
        MappingConstraint::ScaledConsistentSurface => Measure::Surface,
        MappingConstraint::ScaledConsistentVolume => Measure::Volume,
    };
    let inner = make(false)?;
    Ok(Box::new(ScaledConsistent::new(inner, from, to, (&decl.from, &decl.to), measure)?))
}

/// Refuses a mapping whose searched mesh (the input of a consistent mapping, the output of a
/// conservative one) has no vertices while the other side has some.
fn check_search_side(from: &MeshState, to: &MeshState, names: (&str, &str), conservative: bool) -> Result<()> {
    let ((search, search_name), (origins, origin_name)) =
        if conservative { ((to, names.1), (from, names.0)) } else { ((from, names.0), (to, names.1)) };
    if origins.vertex_count() > 0 && search.vertex_count() == 0 {
        return Err(CouplingError::misuse(format!(
            "mesh \"{search_name}\" has no vertices, so its {} vertices of mesh \"{origin_name}\" cannot be mapped; \
             define the vertices of \"{search_name}\" before initialize",
            origins.vertex_count()
        )));
    }
    Ok(())
}

/// The constraint as the configuration writes it.
fn constraint_name(c: MappingConstraint) -> &'static str {
    match c {
        MappingConstraint::Consistent => "consistent",
        MappingConstraint::Conservative => "conservative",
        MappingConstraint::ScaledConsistentSurface => "scaled-consistent-surface",
        MappingConstraint::ScaledConsistentVolume => "scaled-consistent-volume",
    }
}

#[cfg(test)]
mod tests {
    use super::test_meshes::*;
    use super::*;
    use tidelink_precice_config::diagnostics::Location;
    use tidelink_precice_config::{MappingDirection, RbfOptions};

    fn decl(method: MappingMethod, constraint: MappingConstraint) -> MappingDecl {
        MappingDecl {
            method,
            direction: MappingDirection::Read,
            from: "Solid".into(),
            to: "Fluid".into(),
            constraint,
            basis_functions: vec![],
            rbf: RbfOptions::default(),
            loc: Location::new("c.xml", 7),
        }
    }

    #[test]
    fn each_method_takes_the_scaled_constraints_libprecice_allows() {
        use MappingConstraint::*;
        let from = grid_surface(4, 4, |x, y| [x, y, 0.0]);
        let to = grid_surface(3, 5, |x, y| [x, y, 0.0]);
        let err = build(&decl(MappingMethod::NearestProjection, ScaledConsistentVolume), &from, &to).err().unwrap();
        let msg = err.to_string();
        assert!(
            msg.contains("c.xml:7")
                && msg.contains("mapping:nearest-projection does not take constraint \"scaled-consistent-volume\""),
            "{msg}"
        );
        let err =
            build(&decl(MappingMethod::LinearCellInterpolation, ScaledConsistentSurface), &from, &to).err().unwrap();
        assert!(err.to_string().contains("use scaled-consistent-volume"), "{err}");
        // Nearest-neighbor with the surface integral kept: ∫ of a constant over the same unit
        // square is the same on both meshes, so the scaled output is the constant again.
        let m = build(&decl(MappingMethod::NearestNeighbor, ScaledConsistentSurface), &from, &to).unwrap();
        assert_close(&m.map(&[2.0; 16], 1), &[2.0; 15], 1e-14);
        // Volume on 3D surface meshes: no tetrahedra, a clear error.
        let err = build(&decl(MappingMethod::NearestNeighbor, ScaledConsistentVolume), &from, &to).err().unwrap();
        assert!(err.to_string().contains("tetrahedra"), "{err}");
        for c in [Consistent, Conservative, ScaledConsistentSurface] {
            assert!(build(&decl(MappingMethod::NearestProjection, c), &from, &to).is_ok(), "{c:?}");
        }
    }

    #[test]
    fn nearest_neighbor_gradient_is_consistent_or_scaled_and_the_scaling_follows_the_gradients() {
        use MappingConstraint::*;
        let from = grid_surface(4, 4, |x, y| [x, y, 0.0]);
        let to = grid_surface(3, 5, |x, y| [0.9 * x + 0.05, 0.9 * y + 0.05, 0.0]);
        // T = 1 + x + 2y with its gradient (1, 2, 0) at every input vertex.
        let values: Vec<f64> = from.coords.chunks(3).map(|p| 1.0 + p[0] + 2.0 * p[1]).collect();
        let gradients: Vec<f64> = (0..16).flat_map(|_| [1.0, 2.0, 0.0]).collect();
        let nng = build(&decl(MappingMethod::NearestNeighborGradient, Consistent), &from, &to).unwrap();
        let consistent = nng.map_with_gradients(&values, &gradients, 1);
        let exact: Vec<f64> = to.coords.chunks(3).map(|p| 1.0 + p[0] + 2.0 * p[1]).collect();
        assert_close(&consistent, &exact, 1e-14);
        // Scaled: the consistent result with the gradients, times ∫ input / ∫ output.
        let scaled = build(&decl(MappingMethod::NearestNeighborGradient, ScaledConsistentSurface), &from, &to).unwrap();
        let got = scaled.map_with_gradients(&values, &gradients, 1);
        let measure =
            |m: &MeshState, v: &[f64]| integrate::integrate(&integrate::vertex_weights(m, Measure::Surface), v, 1)[0];
        let factor = measure(&from, &values) / measure(&to, &consistent);
        let want: Vec<f64> = consistent.iter().map(|v| v * factor).collect();
        assert_close(&got, &want, 1e-13);
        assert!((measure(&to, &got) - measure(&from, &values)).abs() < 1e-13);
        // Conservative: refused (the configuration refuses it first, with libprecice's words).
        let err = build(&decl(MappingMethod::NearestNeighborGradient, Conservative), &from, &to).err().unwrap();
        assert!(err.to_string().contains("nearest-neighbor-gradient maps consistently"), "{err}");
    }

    #[test]
    fn nearest_neighbor_refuses_an_empty_searched_mesh() {
        let err = build(
            &decl(MappingMethod::NearestNeighbor, MappingConstraint::Consistent),
            &points(2, &[]),
            &points(2, &[0.0, 0.0]),
        )
        .err()
        .unwrap();
        assert!(err.to_string().contains("mesh \"Solid\" has no vertices"), "{err}");
    }
}
