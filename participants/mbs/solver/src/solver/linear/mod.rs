//! The linear solvers of the implicit integrators' Newton step: the saddle system
//! `[A Bᵀ; C 0] [x; y] = [f; g]` (`A` the mass-like Jacobian, `Bᵀ` and `C` the constraint
//! Jacobian `Φ_q` as the scheme scales it) solved by the method the solver file names:
//! dense LU for small systems, banded LU after a bandwidth-reducing ordering, block-tridiagonal
//! LU along a chain of bodies, sparse LU with a fill-reducing ordering, or component block
//! Gauss–Seidel; `auto` picks by size and structure (docs/design/linear-solvers.md).

mod banded;
mod block_gauss_seidel;
mod block_tridiagonal;
mod dense;
pub(crate) mod dense_kept;
mod ordering;
mod saddle;
mod sparse;
mod structure;
#[cfg(test)]
mod tests;
#[cfg(test)]
mod tests_block;

use nalgebra::{DMatrix, DVector};
use std::fmt;
use thiserror::Error;

pub use banded::{band_ordering, solve_banded};
pub use block_gauss_seidel::{solve_block_gauss_seidel, GS_MAX_SWEEPS, GS_TOLERANCE};
pub use block_tridiagonal::solve_block_tridiagonal;
pub use dense::solve_dense;
pub use ordering::reverse_cuthill_mckee;
pub use saddle::SparseSaddle;
pub use sparse::solve_sparse_lu;
pub use structure::Structure;

/// Unknowns (DOFs plus constraint rows) below which `auto` factors the saddle matrix densely:
/// dense LU's cost (n³/3) is then smaller than any ordering and its bookkeeping.
pub const AUTO_DENSE_BELOW: usize = 50;
/// Unknowns up to which `auto` takes banded LU for a system that is no chain but whose bodies
/// keep a narrow band (at most [`AUTO_BANDED_BODIES`] bodies apart) after reordering.
pub const AUTO_BANDED_MAX: usize = 200;
/// The widest coupling, in bodies after reverse Cuthill–McKee, that `auto` calls a narrow band.
pub const AUTO_BANDED_BODIES: usize = 2;

/// Which method solves the saddle system (the solver file's `solver.type`).
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default)]
pub enum LinearSolverKind {
    /// By size and structure ([`LinearSolverKind::choose`]).
    #[default]
    Auto,
    /// Dense LU with partial pivoting (nalgebra).
    DenseLu,
    /// Banded LU with partial pivoting after a reverse Cuthill–McKee ordering.
    Banded,
    /// Block-tridiagonal LU (block Thomas) along a chain of bodies.
    BlockTridiagonal,
    /// Sparse LU with partial pivoting and a COLAMD fill-reducing column ordering (faer).
    SparseLu,
    /// Component block Gauss–Seidel over the bodies (iterative).
    BlockGaussSeidel,
}

impl LinearSolverKind {
    /// Our names, as the solver file spells them (compared case-insensitively).
    pub const NAMES: &'static [&'static str] =
        &["auto", "dense", "banded", "block_tridiagonal", "sparse", "block_gauss_seidel"];

    /// The kind our `name` means (also `dense_lu`, `band`, `sparse_lu` and `component`).
    pub fn parse(name: &str) -> Option<Self> {
        match name.to_ascii_lowercase().replace('-', "_").as_str() {
            "auto" => Some(LinearSolverKind::Auto),
            "dense" | "dense_lu" => Some(LinearSolverKind::DenseLu),
            "banded" | "band" => Some(LinearSolverKind::Banded),
            "block_tridiagonal" => Some(LinearSolverKind::BlockTridiagonal),
            "sparse" | "sparse_lu" => Some(LinearSolverKind::SparseLu),
            "block_gauss_seidel" | "component" => Some(LinearSolverKind::BlockGaussSeidel),
            _ => None,
        }
    }

    /// The concrete method for a saddle system of `unknowns` unknowns whose structure is not
    /// known: `auto` is dense below [`AUTO_DENSE_BELOW`], sparse LU above.
    pub fn resolve(self, unknowns: usize) -> LinearSolverKind {
        match self {
            LinearSolverKind::Auto if unknowns < AUTO_DENSE_BELOW => LinearSolverKind::DenseLu,
            LinearSolverKind::Auto => LinearSolverKind::SparseLu,
            k => k,
        }
    }

    /// The concrete method for `unknowns` unknowns of `structure`: `auto` takes dense LU
    /// below [`AUTO_DENSE_BELOW`], block-tridiagonal LU for a chain of bodies, banded LU up to
    /// [`AUTO_BANDED_MAX`] unknowns when the bodies keep a narrow band, sparse LU otherwise.
    /// Block Gauss–Seidel, being iterative, is never picked by `auto`.
    pub fn choose(self, unknowns: usize, structure: &Structure) -> LinearSolverKind {
        if self != LinearSolverKind::Auto {
            return self;
        }
        if unknowns < AUTO_DENSE_BELOW {
            LinearSolverKind::DenseLu
        } else if structure.chain().is_ok() {
            LinearSolverKind::BlockTridiagonal
        } else if unknowns <= AUTO_BANDED_MAX && body_bandwidth(structure) <= AUTO_BANDED_BODIES {
            LinearSolverKind::Banded
        } else {
            LinearSolverKind::SparseLu
        }
    }
}

/// How many bodies apart, at most, two coupled bodies lie after reverse Cuthill–McKee.
fn body_bandwidth(s: &Structure) -> usize {
    let adj: Vec<Vec<usize>> = s.neighbours().into_iter().map(|b| b.into_iter().collect()).collect();
    let order = reverse_cuthill_mckee(&adj);
    let mut position = vec![0; adj.len()];
    for (p, &b) in order.iter().enumerate() {
        position[b] = p;
    }
    adj.iter()
        .enumerate()
        .flat_map(|(a, nb)| nb.iter().map(move |&b| (a, b)))
        .fold(0, |w, (a, b)| w.max(position[a].abs_diff(position[b])))
}

impl fmt::Display for LinearSolverKind {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(match self {
            LinearSolverKind::Auto => "auto",
            LinearSolverKind::DenseLu => "dense",
            LinearSolverKind::Banded => "banded",
            LinearSolverKind::BlockTridiagonal => "block_tridiagonal",
            LinearSolverKind::SparseLu => "sparse",
            LinearSolverKind::BlockGaussSeidel => "block_gauss_seidel",
        })
    }
}

/// Why a saddle system was not solved.
#[derive(Debug, Error, Clone, PartialEq)]
pub enum LinearError {
    /// The matrix is singular (or the solution not finite).
    #[error("the saddle matrix is singular")]
    Singular,
    /// Block-tridiagonal LU was asked for a system whose bodies form no chain.
    #[error("the linear solver `block_tridiagonal` needs the bodies to form a chain, but {0}; use `banded`, `sparse` or `auto`")]
    NotChain(String),
    /// Block Gauss–Seidel did not reach its tolerance.
    #[error("the linear solver `block_gauss_seidel` did not converge in {sweeps} sweeps (relative residual {residual:e} above {tolerance:e}): the bodies are coupled too strongly for it at this step; use `sparse` or `auto`")]
    NotConverged {
        /// Sweeps taken.
        sweeps: usize,
        /// `|b − K x|∞ / |b|∞` after the last sweep.
        residual: f64,
        /// The tolerance it had to reach.
        tolerance: f64,
    },
    /// A block method without the bodies' structure to group the unknowns by.
    #[error("the linear solver `{0}` needs the bodies' structure (which unknowns are whose)")]
    NoStructure(LinearSolverKind),
}

/// The saddle matrix as the integrators hold it.
#[derive(Debug, Clone, Copy)]
pub enum Saddle<'a> {
    /// Dense blocks `A`, `Bᵀ`, `C` (small systems).
    Dense {
        /// `A` (n × n).
        a: &'a DMatrix<f64>,
        /// `Bᵀ` (n × m).
        bt: &'a DMatrix<f64>,
        /// `C` (m × n).
        c: &'a DMatrix<f64>,
    },
    /// The whole matrix as entries (large systems, assembled sparsely).
    Sparse(&'a SparseSaddle),
}

impl Saddle<'_> {
    fn dims(&self) -> (usize, usize) {
        match self {
            Saddle::Dense { a, c, .. } => (a.nrows(), c.nrows()),
            Saddle::Sparse(k) => (k.n, k.m),
        }
    }
}

/// A solution and how it was obtained.
#[derive(Debug, Clone, PartialEq)]
pub struct Solution {
    /// The first `n` unknowns.
    pub x: DVector<f64>,
    /// The `m` constraint unknowns.
    pub y: DVector<f64>,
    /// The method that ran (`auto` resolved).
    pub method: LinearSolverKind,
    /// Sweeps of block Gauss–Seidel (0 for direct methods).
    pub sweeps: usize,
}

/// Solves `k [x; y] = [f; g]` by `kind` (`auto` resolved by size and, when given, `structure`).
pub fn solve_saddle(
    kind: LinearSolverKind,
    k: Saddle,
    structure: Option<&Structure>,
    f: &DVector<f64>,
    g: &DVector<f64>,
) -> Result<Solution, LinearError> {
    let (n, m) = k.dims();
    let method = match structure {
        Some(s) => kind.choose(n + m, s),
        None => kind.resolve(n + m),
    };
    if n + m == 0 {
        // Every body fixed: nothing to factor (nalgebra's LU of a 0 × 0 matrix would panic).
        return Ok(Solution { x: DVector::zeros(0), y: DVector::zeros(0), method, sweeps: 0 });
    }
    let owned;
    let sparse = match k {
        Saddle::Sparse(s) => s,
        Saddle::Dense { a, bt, c } if method != LinearSolverKind::DenseLu => {
            owned = SparseSaddle::from_dense(a, bt, c);
            &owned
        }
        Saddle::Dense { .. } => &SparseSaddle::default(),
    };
    let rhs = || dense::stack(f, g);
    let blocks = |order: Vec<usize>| structure.map(|s| s.blocks(&order, n)).ok_or(LinearError::NoStructure(method));
    let mut sweeps = 0;
    let sol = match method {
        LinearSolverKind::DenseLu | LinearSolverKind::Auto => match k {
            Saddle::Dense { a, bt, c } => solve_dense(a, bt, c, f, g),
            Saddle::Sparse(s) => s.to_dense().lu().solve(&rhs()),
        }
        .ok_or(LinearError::Singular)?,
        LinearSolverKind::SparseLu => solve_sparse_lu(sparse, &rhs())?,
        LinearSolverKind::Banded => solve_banded(sparse, &rhs())?,
        LinearSolverKind::BlockTridiagonal => {
            let order = structure.ok_or(LinearError::NoStructure(method))?.chain().map_err(LinearError::NotChain)?;
            solve_block_tridiagonal(sparse, &blocks(order)?, &rhs())?
        }
        LinearSolverKind::BlockGaussSeidel => {
            let bodies = structure.map_or(0, |s| s.bodies.len());
            let (x, s) =
                solve_block_gauss_seidel(sparse, &blocks((0..bodies).collect())?, &rhs(), GS_TOLERANCE, GS_MAX_SWEEPS)?;
            sweeps = s;
            x
        }
    };
    if !sol.iter().all(|v| v.is_finite()) {
        return Err(LinearError::Singular);
    }
    Ok(Solution { x: sol.rows(0, n).into_owned(), y: sol.rows(n, m).into_owned(), method, sweeps })
}

/// Solves `[A Bᵀ; C 0] [x; y] = [f; g]` by `kind`, the structure unknown (so the block methods
/// are not available); `None` when the matrix is singular or the solution not finite.
pub fn solve_saddle_with(
    kind: LinearSolverKind,
    a: &DMatrix<f64>,
    bt: &DMatrix<f64>,
    c: &DMatrix<f64>,
    f: &DVector<f64>,
    g: &DVector<f64>,
) -> Option<(DVector<f64>, DVector<f64>)> {
    solve_saddle(kind, Saddle::Dense { a, bt, c }, None, f, g).ok().map(|s| (s.x, s.y))
}
