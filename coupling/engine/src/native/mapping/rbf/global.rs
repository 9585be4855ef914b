//! `rbf-global-direct`: one interpolation system over all input vertices, factorised once
//! (Cholesky for SPD bases, pivoted QR otherwise) into a dense operator applied per sample.

use super::operator::DenseOperator;
use super::system::{consistent_operator, Point};
use super::{singular, Setup};
use crate::native::mapping::Mapping;
use crate::{CouplingError, Result};
use nalgebra::DMatrix;

/// Largest system assembled densely: 20 000 centres need 3.2 GB for the matrix alone.
const MAX_CENTRES: usize = 20_000;

/// Largest stored operator (input × output vertices): 3.2 GB.
const MAX_ENTRIES: u128 = 400_000_000;

/// Builds the operator from `src` (the system's centres) to `dst`.
pub fn build(s: &Setup, src: &[Point], dst: &[Point]) -> Result<Box<dyn Mapping>> {
    if src.len() > MAX_CENTRES || (src.len() as u128) * (dst.len() as u128) > MAX_ENTRIES {
        return Err(CouplingError::config(format!(
            "{}: {} × {} vertices are too many for a dense global RBF system (at most {MAX_CENTRES} \
             centres and {MAX_ENTRIES} operator entries); use rbf-pum-direct (or the rbf alias) for large meshes.",
            s.what,
            src.len(),
            dst.len()
        )));
    }
    let m = if src.is_empty() || dst.is_empty() {
        DMatrix::zeros(dst.len(), src.len())
    } else {
        consistent_operator(&s.basis, src, dst, &s.active, s.polynomial).map_err(|_| singular(&s.what))?
    };
    Ok(Box::new(DenseOperator::new(m, s.conservative)))
}
