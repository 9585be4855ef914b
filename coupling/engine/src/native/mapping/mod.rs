//! Data mappings between meshes (preCICE's `mapping`), built once from the `<mapping:*>` tag
//! and the two meshes, then applied sample by sample (docs/design/coupling-semantics.md §7).
//!
//! Every method is a linear operator: consistent mappings interpolate (the output at a vertex is
//! a weighted sum of inputs whose weights sum to one), conservative ones apply the transpose of
//! the consistent operator built in the opposite direction (so sums are kept).

mod nearest_neighbor;
pub mod rbf;

pub use nearest_neighbor::NearestNeighbor;

use super::mesh::MeshState;
use crate::{CouplingError, Result};
use tidelink_precice_config::{MappingConstraint, MappingDecl, MappingMethod};

/// A mapping computed once for fixed input and output meshes, applied sample by sample.
pub trait Mapping: Send {
    /// Maps one sample of `components`-wide values from the input to the output mesh.
    fn map(&self, input: &[f64], components: usize) -> Vec<f64>;
}

/// Builds the mapping `decl` asks for from mesh `from` (its input) to mesh `to` (its output).
/// Both meshes have their vertices (and the elements the method needs) by now.
pub fn build(decl: &MappingDecl, from: &MeshState, to: &MeshState) -> Result<Box<dyn Mapping>> {
    match decl.method {
        MappingMethod::NearestNeighbor if plain(decl.constraint) => {
            Ok(Box::new(NearestNeighbor::new(&from.coords, &to.coords, from.dim, decl.constraint)))
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

/// Consistent or conservative (not scaled).
fn plain(c: MappingConstraint) -> bool {
    matches!(c, MappingConstraint::Consistent | MappingConstraint::Conservative)
}
