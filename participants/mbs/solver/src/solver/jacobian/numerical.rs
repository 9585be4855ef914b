//! Coloured forward differences of the generalized forces that have no analytical block.
//!
//! Each differenced source (a force element, or a body's own terms under the `numerical`
//! policy) names the rows it writes and the columns it depends on (its declared
//! [`Dependencies`]). Per row, the columns of every source writing it form the row's pattern;
//! columns that share no row get one colour ([`colour_columns`]) and are perturbed together,
//! so a colour costs one evaluation of the summed forces. Each row's difference belongs to the
//! one perturbed column of its pattern. Rows and columns are sets: an element that lists a
//! body twice (a one-body element) has each of them once.

use crate::dynamics::body_set::{BodyHandle, BodySet};
use crate::solver::assembly::{displace, set_velocities, velocities, DofMap};
use crate::solver::colouring::colour_columns;
use crate::solver::jacobian::dependencies::Dependencies;
use nalgebra::DVector;
use std::collections::BTreeSet;

/// Step of the forward differences (m, rad, m/s, rad/s): near the square root of the machine
/// epsilon for quantities of order one, which balances truncation and round-off.
const EPS: f64 = 1e-7;

/// Adds a contribution to the generalized forces at a state.
pub(crate) type Eval<'a> = Box<dyn Fn(&BodySet, &mut DVector<f64>) + 'a>;

/// A differenced contribution to the generalized forces.
pub(crate) struct Source<'a> {
    /// Adds the contribution at a state to a vector over all coordinates.
    pub eval: Eval<'a>,
    /// The coordinates it writes.
    pub rows: BTreeSet<usize>,
    /// The displacement coordinates it depends on.
    pub pos_cols: BTreeSet<usize>,
    /// The velocity coordinates it depends on.
    pub vel_cols: BTreeSet<usize>,
}

/// The coordinates of `own`'s free bodies, each once.
pub(crate) fn rows_of(own: &[BodyHandle], dofs: &DofMap) -> BTreeSet<usize> {
    own.iter().filter_map(|h| dofs.offset(*h)).flat_map(|o| o..o + 6).collect()
}

/// The displacement and velocity coordinates of `deps` (over `own` when it is `All`), each once.
pub(crate) fn columns_of(
    deps: &Dependencies,
    own: [BodyHandle; 2],
    dofs: &DofMap,
) -> (BTreeSet<usize>, BTreeSet<usize>) {
    let (mut pos, mut vel) = (BTreeSet::new(), BTreeSet::new());
    for (h, mask) in deps.per_body(own) {
        let Some(o) = dofs.offset(h) else { continue };
        for k in 0..6 {
            if mask[k] {
                pos.insert(o + k);
            }
            if mask[6 + k] {
                vel.insert(o + k);
            }
        }
    }
    (pos, vel)
}

/// An entry `(row, column, value)` of a Jacobian over the coordinates.
pub(crate) type Entry = (usize, usize, f64);

/// The differenced Jacobians (as entries, each position once, so that a sparse assembly
/// never holds an `n × n` array) and how many perturbed evaluations they took.
pub(crate) struct Differences {
    /// `∂Q/∂q` of the sources.
    pub k: Vec<Entry>,
    /// `∂Q/∂v` of the sources.
    pub c: Vec<Entry>,
    /// Perturbed evaluations (colours of both kinds).
    pub perturbations: usize,
}

/// Forward differences of the sum of `sources` at `bodies`.
pub(crate) fn forward_differences(sources: &[Source], bodies: &BodySet, dofs: &DofMap) -> Differences {
    let n = dofs.n;
    let eval = |b: &BodySet| {
        let mut q = DVector::zeros(n);
        sources.iter().for_each(|s| (s.eval)(b, &mut q));
        q
    };
    let base = eval(bodies);
    let v0 = velocities(bodies, dofs);
    let mut out = Differences { k: Vec::new(), c: Vec::new(), perturbations: 0 };
    for velocity in [false, true] {
        let mut pattern = vec![BTreeSet::new(); n];
        for s in sources {
            let cols = if velocity { &s.vel_cols } else { &s.pos_cols };
            for &r in &s.rows {
                pattern[r].extend(cols.iter().copied());
            }
        }
        let rows: Vec<Vec<usize>> = pattern.iter().map(|p| p.iter().copied().collect()).collect();
        let groups = colour_columns(n, &rows);
        for group in &groups {
            let mut d = DVector::zeros(n);
            group.iter().for_each(|&g| d[g] = EPS);
            let mut pert = bodies.clone();
            if velocity {
                set_velocities(&mut pert, dofs, &(&v0 + &d));
            } else {
                displace(&mut pert, dofs, &d);
            }
            let q = eval(&pert);
            out.perturbations += 1;
            let target = if velocity { &mut out.c } else { &mut out.k };
            for (r, cols) in pattern.iter().enumerate() {
                if let Some(&col) = cols.iter().find(|c| d[**c] != 0.0) {
                    target.push((r, col, (q[r] - base[r]) / EPS));
                }
            }
        }
    }
    out
}
