//! Data mappings between meshes (preCICE's `mapping`). Only nearest-neighbor runs in
//! the native engine so far; other methods are refused at construction.

mod nearest_neighbor;

pub use nearest_neighbor::NearestNeighbor;

use tidelink_precice_config::MappingConstraint;

/// A mapping computed once for fixed input and output vertices, applied sample by sample.
pub trait Mapping: Send {
    /// Maps one sample of `components`-wide values from the input to the output mesh.
    fn map(&self, input: &[f64], components: usize) -> Vec<f64>;
}

/// Builds the mapping of `constraint` between two vertex sets of dimension `dim`.
pub fn nearest_neighbor(input: &[f64], output: &[f64], dim: usize, constraint: MappingConstraint) -> Box<dyn Mapping> {
    Box::new(NearestNeighbor::new(input, output, dim, constraint))
}
