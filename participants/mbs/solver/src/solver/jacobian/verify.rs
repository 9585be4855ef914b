//! Verification of the analytical Jacobian blocks: every element that gives one is compared
//! with central differences of its own generalized forces, column by column over the
//! displacements and velocities of its bodies, and the worst entries are reported.
//!
//! The relative error of an entry is `|a − n| / max(|a|, |n|, floor)`, where the floor is
//! 1e-6 of the largest entry of the element's two blocks: an entry that is zero up to
//! round-off in a block of order one is not reported as a 100 % error (central differences
//! with a step of 1e-6 carry round-off of order 1e-10 of the forces per unit step).

use crate::dynamics::body_set::BodySet;
use crate::dynamics::force_element::ForceElement;
use crate::solver::assembly::System;
use crate::solver::assembly::{displace, element_forces, set_velocities, velocities, DofMap};
use crate::solver::jacobian::numerical::rows_of;
use crate::solver::jacobian::JacobianOptions;
use nalgebra::{DMatrix, DVector};

/// Step of the central differences (m, rad, m/s, rad/s).
const H: f64 = 1e-6;

/// Fraction of the block's largest entry below which entries count as zero in the error.
const FLOOR: f64 = 1e-6;

/// Names of the displacement coordinates of a body.
const POSITION_NAMES: [&str; 6] = ["x", "y", "z", "θx", "θy", "θz"];
/// Names of the velocity coordinates of a body.
const VELOCITY_NAMES: [&str; 6] = ["vx", "vy", "vz", "ωx", "ωy", "ωz"];

/// One compared entry.
#[derive(Debug, Clone, PartialEq)]
pub struct EntryCheck {
    /// `"stiffness"` (`∂Q/∂q`) or `"damping"` (`∂Q/∂v`).
    pub matrix: &'static str,
    /// Row: global coordinate index.
    pub row: usize,
    /// Column: global coordinate index.
    pub col: usize,
    /// The row and column in words (`body 2 θz / body 1 x`).
    pub label: String,
    /// The analytical value.
    pub analytic: f64,
    /// The central-difference value.
    pub numeric: f64,
    /// `|analytic − numeric| / max(|analytic|, |numeric|, floor)`.
    pub rel_error: f64,
}

/// The check of one element.
#[derive(Debug, Clone, PartialEq)]
pub struct ElementCheck {
    /// The element's name.
    pub name: String,
    /// Its worst entries, worst first.
    pub worst: Vec<EntryCheck>,
}

impl ElementCheck {
    /// The largest relative error of the element (0 when it has no entry).
    pub fn max_rel_error(&self) -> f64 {
        self.worst.first().map_or(0.0, |e| e.rel_error)
    }
}

/// The check of every element with an analytical block at one state.
#[derive(Debug, Clone, PartialEq, Default)]
pub struct VerifyReport {
    /// The time of the state checked (s).
    pub time: f64,
    /// One entry per element with an analytical block acting on a free body.
    pub elements: Vec<ElementCheck>,
    /// The relative error above which an entry is reported as a warning.
    pub tolerance: f64,
}

impl VerifyReport {
    /// The largest relative error over all elements.
    pub fn max_rel_error(&self) -> f64 {
        self.elements.iter().map(ElementCheck::max_rel_error).fold(0.0, f64::max)
    }
    /// The check of the element called `name`.
    pub fn element(&self, name: &str) -> Option<&ElementCheck> {
        self.elements.iter().find(|e| e.name == name)
    }
    /// The report's first line: how many elements were checked and the largest error.
    pub fn headline(&self) -> String {
        format!(
            "Jacobian check at t = {} s: {} elements with analytical blocks, largest relative error {:.2e}",
            self.time,
            self.elements.len(),
            self.max_rel_error()
        )
    }
    /// Every element's worst entries, each with whether it is above [`Self::tolerance`] (the
    /// caller logs those as warnings, the rest at debug level).
    pub fn lines(&self) -> Vec<(bool, String)> {
        let mut out = Vec::new();
        for e in &self.elements {
            for w in &e.worst {
                let msg = format!(
                    "Jacobian check at t = {} s: `{}` {} [{}]: analytic {:e}, numeric {:e}, relative error {:.2e}",
                    self.time, e.name, w.matrix, w.label, w.analytic, w.numeric, w.rel_error
                );
                if w.rel_error > self.tolerance {
                    out.push((true, format!("{msg} (above {:e})", self.tolerance)));
                } else {
                    out.push((false, msg));
                }
            }
        }
        out
    }
}

fn label(dofs: &DofMap, bodies: &BodySet, index: usize, velocity: bool) -> String {
    let names = if velocity { VELOCITY_NAMES } else { POSITION_NAMES };
    let body = bodies.iter().map(|(h, _)| h).find(|h| dofs.offset(*h).is_some_and(|o| (o..o + 6).contains(&index)));
    match body {
        Some(h) => format!("body {} {}", h.index(), names[index - dofs.offset(h).unwrap_or(0)]),
        None => format!("coordinate {index}"),
    }
}

/// Compares the analytical blocks of `elements` with central differences at `bodies`,
/// keeping the `worst` largest relative errors per element.
pub fn verify_elements<'e>(
    elements: impl Iterator<Item = &'e dyn ForceElement>,
    bodies: &BodySet,
    dofs: &DofMap,
    time: f64,
    worst: usize,
) -> VerifyReport {
    let mut report = VerifyReport { time, elements: Vec::new(), tolerance: f64::INFINITY };
    let v0 = velocities(bodies, dofs);
    for e in elements {
        let Some((k, c)) = e.jacobian(bodies) else { continue };
        let own = e.bodies();
        let rows: Vec<usize> = rows_of(&own, dofs).into_iter().collect();
        if rows.is_empty() {
            continue;
        }
        // The analytical blocks in global coordinates (a body listed twice sums its slots).
        let (mut ka, mut ca) = (DMatrix::<f64>::zeros(dofs.n, dofs.n), DMatrix::<f64>::zeros(dofs.n, dofs.n));
        let local: Vec<(usize, usize)> = own
            .iter()
            .enumerate()
            .filter_map(|(slot, h)| dofs.offset(*h).map(|o| (slot, o)))
            .flat_map(|(slot, o)| (0..6).map(move |i| (6 * slot + i, o + i)))
            .collect();
        for &(li, gi) in &local {
            for &(lj, gj) in &local {
                ka[(gi, gj)] += k[(li, lj)];
                ca[(gi, gj)] += c[(li, lj)];
            }
        }
        let forces = |b: &BodySet| {
            let mut q = DVector::zeros(dofs.n);
            element_forces(e, b, dofs, &mut q);
            q
        };
        let scale = ka.amax().max(ca.amax());
        let floor = (FLOOR * scale).max(f64::MIN_POSITIVE);
        let mut entries = Vec::new();
        for (matrix, analytic, velocity) in [("stiffness", &ka, false), ("damping", &ca, true)] {
            for &col in &rows {
                let mut d = DVector::zeros(dofs.n);
                d[col] = H;
                let at = |sign: f64| {
                    let mut b = bodies.clone();
                    if velocity {
                        set_velocities(&mut b, dofs, &(&v0 + &d * sign));
                    } else {
                        displace(&mut b, dofs, &(&d * sign));
                    }
                    forces(&b)
                };
                let (plus, minus) = (at(1.0), at(-1.0));
                for &row in &rows {
                    let numeric = (plus[row] - minus[row]) / (2.0 * H);
                    let a = analytic[(row, col)];
                    let rel_error = (a - numeric).abs() / a.abs().max(numeric.abs()).max(floor);
                    entries.push(EntryCheck {
                        matrix,
                        row,
                        col,
                        label: format!("{} / {}", label(dofs, bodies, row, false), label(dofs, bodies, col, velocity)),
                        analytic: a,
                        numeric,
                        rel_error,
                    });
                }
            }
        }
        entries.sort_by(|a, b| b.rel_error.total_cmp(&a.rel_error));
        entries.truncate(worst);
        report.elements.push(ElementCheck { name: e.name().to_string(), worst: entries });
    }
    report
}

/// The verification of step number `step` (0 for the first) if `opts` schedules one: run on
/// `sys`'s force elements at `bodies`, with the options' tolerance (the caller logs it).
pub fn verify_due(
    opts: &JacobianOptions,
    step: usize,
    sys: &System,
    bodies: &BodySet,
    dofs: &DofMap,
    time: f64,
) -> Option<VerifyReport> {
    if !opts.verify.due(step) {
        return None;
    }
    let mut report = verify_elements(sys.forces.iter(), bodies, dofs, time, opts.verify_worst.max(1));
    report.tolerance = opts.verify_tolerance;
    Some(report)
}
