//! Radial-basis-function mappings (docs/design/coupling-semantics.md §7.4): `rbf-global-direct`
//! (one dense system, factorised once), `rbf-global-iterative` (the same system solved by a
//! Krylov method per sample, sparse for compact bases), `rbf-pum-direct` (a partition of unity
//! of small local systems, near O(n)) and the `rbf` alias (a partition of unity with 100
//! vertices per cluster and overlap 0.3).
//!
//! Conservative mappings apply the transpose of the consistent operator built from the output
//! mesh to the input mesh, so sums (and, with a polynomial, first moments) are kept.

mod basis;
mod clustering;
mod global;
mod index;
mod iterative;
mod krylov;
mod pum;
mod sparse;
mod system;
#[cfg(test)]
mod test_support;
#[cfg(test)]
mod tests_errors;
#[cfg(test)]
mod tests_global;
#[cfg(test)]
mod tests_iterative;
#[cfg(test)]
mod tests_pum;

pub use basis::Basis;

use super::super::mesh::MeshState;
use super::Mapping;
use crate::{CouplingError, Result};
use system::Point;
use tidelink_precice_config::{MappingDecl, MappingMethod, Polynomial};

/// What every RBF method needs, resolved from the `<mapping:…>` tag.
#[derive(Debug, Clone)]
pub struct Setup {
    /// The basis function.
    pub basis: Basis,
    /// How the linear polynomial is handled.
    pub polynomial: Polynomial,
    /// Axes that count in distances and in the polynomial (z is never active in 2D).
    pub active: [bool; 3],
    /// Apply the transpose of the operator built from `to` to `from` (conservative).
    pub conservative: bool,
    /// Names the mapping and its meshes in errors.
    pub what: String,
}

/// The partition-of-unity parameters `rbf-pum-direct` and the alias use.
#[derive(Debug, Clone, Copy)]
pub struct PumParams {
    /// Target number of input vertices per cluster.
    pub vertices_per_cluster: usize,
    /// Relative overlap of neighbouring clusters, in [0, 1).
    pub relative_overlap: f64,
    /// Move the cluster centres onto their closest input vertex.
    pub project_to_input: bool,
}

/// Builds the RBF mapping `decl` asks for (one of the RBF methods) from `from` to `to`.
pub fn build(decl: &MappingDecl, from: &MeshState, to: &MeshState) -> Result<Box<dyn Mapping>> {
    super::with_constraint(decl, from, to, |conservative| build_plain(decl, from, to, conservative))
}

/// How the system of a resolved RBF mapping is solved.
enum Solver {
    Direct,
    Iterative { rtol: f64, max_iter: usize },
    Pum(PumParams),
}

/// What `decl` asks for, checked without the meshes' vertices.
struct Resolved {
    basis: Basis,
    polynomial: Polynomial,
    active: [bool; 3],
    solver: Solver,
}

/// The mapping's name in messages: tag location, method and meshes.
fn what(decl: &MappingDecl) -> String {
    format!("{}: <mapping:{}> from mesh \"{}\" to mesh \"{}\"", decl.loc, decl.method.tag(), decl.from, decl.to)
}

/// Why the native engine refuses RBF mapping `decl` on meshes of dimension `dim`, found on
/// the configuration alone (what `tidelink check` reports); `None` when it runs.
pub fn check(decl: &MappingDecl, dim: usize) -> Option<String> {
    // The caller reports at the tag's line: the name without the location.
    let what = format!("<mapping:{}> from mesh \"{}\" to mesh \"{}\"", decl.method.tag(), decl.from, decl.to);
    resolve(decl, dim, &what).err().map(|e| e.message)
}

/// Every check of `decl` that needs no vertices: executor, basis function and its
/// parameters, polynomial, dead axes, solver and cluster parameters.
fn resolve(decl: &MappingDecl, dim: usize, what: &str) -> Result<Resolved> {
    if decl.rbf.executor != "cpu" {
        return Err(CouplingError::config(format!(
            "{what}: <executor:{}> is not available in the native engine, which maps on the CPU. \
             Remove the executor tag or use <executor:cpu/>.",
            decl.rbf.executor
        )));
    }
    let [bf] = decl.basis_functions.as_slice() else {
        return Err(CouplingError::config(format!(
            "{what}: an RBF mapping needs exactly one <basis-function:…> (e.g. <basis-function:thin-plate-splines/>)."
        )));
    };
    let basis = Basis::from_decl(bf).map_err(|e| CouplingError::config(format!("{}: {e}.", bf.loc)))?;
    let alias = decl.method == MappingMethod::Rbf;
    let pum = alias || decl.method == MappingMethod::RbfPumDirect;
    let polynomial = if alias { Polynomial::Separate } else { decl.rbf.polynomial };
    // The partition of unity has no dead axes (the alias accepts them and, as libprecice does,
    // does not use them).
    let active = if pum { [true, true, dim == 3] } else { active_axes(what, decl.rbf.dead_axes, dim)? };
    if polynomial == Polynomial::On && (pum || basis.is_spd()) {
        return Err(CouplingError::config(format!(
            "{what}: the integrated polynomial (polynomial=\"on\") is not supported for {}. \
             Select a basis function that is not strictly positive definite (thin-plate-splines, \
             multiquadrics, volume-splines) or set polynomial=\"separate\".",
            if pum { "the partition of unity".to_string() } else { format!("<basis-function:{}>", bf.name) }
        )));
    }
    let solver = match decl.method {
        MappingMethod::RbfGlobalDirect => Solver::Direct,
        MappingMethod::RbfGlobalIterative => {
            let max_iter = iterative::DEFAULT_MAX_ITERATIONS;
            let rtol = decl.rbf.solver_rtol;
            if !(rtol > 0.0 && rtol < 1.0) {
                return Err(CouplingError::config(format!(
                    "{what}: solver-rtol is {rtol}; it has to lie between 0 and 1 (default 1e-9)."
                )));
            }
            Solver::Iterative { rtol, max_iter }
        }
        _ if alias => {
            Solver::Pum(PumParams { vertices_per_cluster: 100, relative_overlap: 0.3, project_to_input: true })
        }
        _ => Solver::Pum(pum_params(what, &decl.rbf)?),
    };
    Ok(Resolved { basis, polynomial, active, solver })
}

/// The consistent (or, with `conservative`, the transposed) operator of `decl`; the scaled
/// constraints wrap the consistent one.
fn build_plain(decl: &MappingDecl, from: &MeshState, to: &MeshState, conservative: bool) -> Result<Box<dyn Mapping>> {
    let what = what(decl);
    if from.dim != to.dim {
        return Err(CouplingError::config(format!(
            "{what}: the meshes have dimensions {} and {}; a mapping needs both the same.",
            from.dim, to.dim
        )));
    }
    let Resolved { basis, polynomial, active, solver } = resolve(decl, from.dim, &what)?;
    let setup = Setup { basis, polynomial, active, conservative, what };
    let (src, dst) = if conservative { (points(to), points(from)) } else { (points(from), points(to)) };
    match solver {
        Solver::Direct => global::build(&setup, &src, &dst),
        Solver::Iterative { rtol, max_iter } => iterative::build(&setup, &src, &dst, rtol, max_iter),
        Solver::Pum(params) => pum::build(&setup, &src, &dst, params),
    }
}

/// The active axes from `x-dead`/`y-dead`/`z-dead`; at least one must stay.
fn active_axes(what: &str, dead: [bool; 3], dim: usize) -> Result<[bool; 3]> {
    if dim == 2 && dead[2] {
        log::warn!("{what}: z-dead has no effect on a 2D mesh; remove the attribute.");
    }
    let active = [!dead[0], !dead[1], dim == 3 && !dead[2]];
    if !active.iter().any(|&a| a) {
        return Err(CouplingError::config(format!(
            "{what}: every axis is dead; an RBF mapping needs at least one. Remove one of x-dead, y-dead, z-dead."
        )));
    }
    Ok(active)
}

/// `vertices-per-cluster`, `relative-overlap`, `project-to-input`, checked.
fn pum_params(what: &str, o: &tidelink_precice_config::RbfOptions) -> Result<PumParams> {
    if o.vertices_per_cluster <= 0 || o.vertices_per_cluster > 100_000 {
        return Err(CouplingError::config(format!(
            "{what}: vertices-per-cluster is {}; it has to be a positive count (default 50, at most 100000).",
            o.vertices_per_cluster
        )));
    }
    if !(0.0..1.0).contains(&o.relative_overlap) {
        return Err(CouplingError::config(format!(
            "{what}: relative-overlap is {}; it has to lie in [0, 1) (default 0.15).",
            o.relative_overlap
        )));
    }
    Ok(PumParams {
        vertices_per_cluster: o.vertices_per_cluster as usize,
        relative_overlap: o.relative_overlap,
        project_to_input: o.project_to_input,
    })
}

/// The mesh's vertices as three-coordinate points (z = 0 in 2D).
fn points(m: &MeshState) -> Vec<Point> {
    m.coords
        .chunks_exact(m.dim)
        .map(|c| {
            let mut p = [0.0; 3];
            p[..m.dim].copy_from_slice(c);
            p
        })
        .collect()
}

/// The error for a singular interpolation matrix, with what usually causes it.
fn singular(what: &str) -> CouplingError {
    CouplingError::config(format!(
        "{what}: the interpolation matrix is not invertible, so the mapping problem is not well-posed. \
         Check the coupling meshes (duplicated vertices, a mesh too flat for the polynomial) or \
         reconfigure the basis function (a support radius or shape parameter that makes the matrix \
         ill-conditioned, e.g. a support radius much larger than the mesh spacing)."
    ))
}
