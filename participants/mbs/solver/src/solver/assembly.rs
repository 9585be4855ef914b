//! Assembly of the equations of motion of a body set with joints and force elements:
//! the mass matrix, generalized forces, their stiffness and damping Jacobians, and the
//! constraint residuals and Jacobian, over 6 velocity coordinates `[v, ω]` per free body.
//!
//! Jacobians come per element by the Jacobian policy ([`crate::solver::jacobian`],
//! docs/design/jacobians.md): analytical where the element gives one (bodies, joints, TSDA,
//! RSDA), coloured finite differences otherwise, filling only entries still zero.

use crate::added_mass::AddedMass;
use crate::dynamics::body_set::{BodyHandle, BodySet};
use crate::dynamics::force_element::{ForceElement, ForceElementSet};
use crate::dynamics::joint::JointSet;
use crate::error::MbsError;
use crate::solver::jacobian::dependencies::Dependencies;
use crate::solver::jacobian::numerical::{columns_of, forward_differences, rows_of, Entry, Source};
use crate::solver::jacobian::{JacobianPolicy, JacobianStats, COMPRESSION_THRESHOLD};
use nalgebra::{DMatrix, DVector, UnitQuaternion, Vector3};
use std::collections::BTreeSet;

/// Where each free body's 6 coordinates start (fixed bodies have none).
#[derive(Debug, Clone, PartialEq)]
pub struct DofMap {
    offsets: Vec<Option<usize>>,
    /// Number of coordinates.
    pub n: usize,
}

impl DofMap {
    /// The layout of `bodies` (free bodies in handle order).
    pub fn new(bodies: &BodySet) -> Self {
        let mut n = 0;
        let offsets = bodies
            .iter()
            .map(|(_, b)| {
                (!b.is_fixed()).then(|| {
                    n += 6;
                    n - 6
                })
            })
            .collect();
        DofMap { offsets, n }
    }
    /// Lays out `bodies` again in place ([`Self::new`] without a new list once it has its length).
    pub(crate) fn refill(&mut self, bodies: &BodySet) {
        self.offsets.clear();
        self.n = 0;
        for (_, b) in bodies.iter() {
            let free = !b.is_fixed();
            self.offsets.push(free.then_some(self.n));
            if free {
                self.n += 6;
            }
        }
    }
    /// The first coordinate of body `h`, if it is free.
    pub fn offset(&self, h: BodyHandle) -> Option<usize> {
        self.offsets.get(h.index()).copied().flatten()
    }
    /// The coordinates of the bodies of an element, with the element's local index.
    fn columns(&self, bodies: [BodyHandle; 2]) -> Vec<(usize, usize)> {
        let mut out = Vec::new();
        for (slot, h) in bodies.iter().enumerate() {
            if let Some(o) = self.offset(*h) {
                out.extend((0..6).map(|k| (6 * slot + k, o + k)));
            }
        }
        out
    }
}

/// The assembled equations at one state.
#[derive(Debug, Clone)]
pub struct Assembled {
    /// Mass matrix: mass and world inertia per body (block-diagonal), plus `A∞` when
    /// assembled by [`System::assemble_with`].
    pub mass: DMatrix<f64>,
    /// Generalized forces: loads, gravity, force elements, minus the gyroscopic term.
    pub forces: DVector<f64>,
    /// `∂Q/∂q` (over virtual displacements `[δx, δθ]`).
    pub stiffness: DMatrix<f64>,
    /// `∂Q/∂v`.
    pub damping: DMatrix<f64>,
    /// Constraint residuals, joint by joint.
    pub phi: DVector<f64>,
    /// Constraint Jacobian `Φ_q`.
    pub phi_q: DMatrix<f64>,
    /// How the Jacobians were obtained.
    pub stats: JacobianStats,
}

/// Everything the integrators need besides the bodies themselves.
#[derive(Debug, Clone, Copy)]
pub struct System<'a> {
    /// The joints whose rows enter `Φ` and `Φ_q`.
    pub joints: &'a JointSet,
    /// The force elements whose wrenches and Jacobians enter `Q`, `K` and `C`.
    pub forces: &'a ForceElementSet,
    /// Makes [`System::assemble`] use the `numerical` policy rather than `auto` (the
    /// integrators pass their own policy to [`System::assemble_full`]).
    pub force_numerical: bool,
}

/// Moves body coordinates by `d` (translation and world rotation increment per free body).
pub fn displace(bodies: &mut BodySet, dofs: &DofMap, d: &DVector<f64>) {
    for (h, b) in bodies.iter_mut() {
        if let Some(o) = dofs.offset(h) {
            b.position += Vector3::new(d[o], d[o + 1], d[o + 2]);
            let turn = UnitQuaternion::from_scaled_axis(Vector3::new(d[o + 3], d[o + 4], d[o + 5]));
            b.orientation = UnitQuaternion::new_normalize((turn * b.orientation).into_inner());
        }
    }
}

/// The velocities `[v, ω]` of every free body.
pub fn velocities(bodies: &BodySet, dofs: &DofMap) -> DVector<f64> {
    let mut v = DVector::zeros(dofs.n);
    for (h, b) in bodies.iter() {
        if let Some(o) = dofs.offset(h) {
            v.fixed_rows_mut::<3>(o).copy_from(&b.linvel);
            v.fixed_rows_mut::<3>(o + 3).copy_from(&b.angvel);
        }
    }
    v
}

/// Sets the velocities `[v, ω]` of every free body.
pub fn set_velocities(bodies: &mut BodySet, dofs: &DofMap, v: &DVector<f64>) {
    for (h, b) in bodies.iter_mut() {
        if let Some(o) = dofs.offset(h) {
            b.linvel = v.fixed_rows::<3>(o).into_owned();
            b.angvel = v.fixed_rows::<3>(o + 3).into_owned();
        }
    }
}

/// Adds the generalized forces of `e` at `bodies` to `out` (both wrenches: a body listed twice
/// gets both).
pub(crate) fn element_forces(e: &dyn ForceElement, bodies: &BodySet, dofs: &DofMap, out: &mut DVector<f64>) {
    let w = e.wrenches(bodies);
    for (slot, h) in e.bodies().iter().enumerate() {
        if let Some(o) = dofs.offset(*h) {
            let mut f = out.fixed_rows_mut::<3>(o);
            f += w[slot].force;
            let mut t = out.fixed_rows_mut::<3>(o + 3);
            t += w[slot].torque;
        }
    }
}

/// Adds body `h`'s own generalized forces (its load, gravity, minus the gyroscopic term) at
/// rows `o..o + 6` of `q`.
pub(crate) fn body_forces(bodies: &BodySet, h: BodyHandle, o: usize, q: &mut DVector<f64>) {
    let Some(b) = bodies.get(h) else { return };
    let gyro = b.angvel.cross(&(b.inertia_world() * b.angvel));
    let mut f = q.fixed_rows_mut::<3>(o);
    f += b.force + b.mass * bodies.gravity;
    let mut t = q.fixed_rows_mut::<3>(o + 3);
    t += b.torque - gyro;
}

impl System<'_> {
    /// Constraint residuals and Jacobian only (for projections).
    pub fn constraints(&self, bodies: &BodySet, dofs: &DofMap) -> (DVector<f64>, DMatrix<f64>) {
        let m = self.joints.equations();
        let mut phi = DVector::zeros(m);
        let mut phi_q = DMatrix::zeros(m, dofs.n);
        self.constraints_into(bodies, dofs, &mut phi, &mut phi_q);
        (phi, phi_q)
    }

    /// Generalized forces only.
    pub fn forces(&self, bodies: &BodySet, dofs: &DofMap) -> DVector<f64> {
        let mut q = DVector::zeros(dofs.n);
        self.forces_into(bodies, dofs, &mut q);
        q
    }

    /// The mass matrix alone.
    pub fn mass(&self, bodies: &BodySet, dofs: &DofMap) -> DMatrix<f64> {
        let mut mass = DMatrix::zeros(dofs.n, dofs.n);
        for (h, b) in bodies.iter() {
            if let Some(o) = dofs.offset(h) {
                for k in 0..3 {
                    mass[(o + k, o + k)] = b.mass;
                }
                mass.view_mut((o + 3, o + 3), (3, 3)).copy_from(&b.inertia_world());
            }
        }
        mass
    }

    /// The mass matrix plus the infinite-frequency added mass `A∞` of `added` (`M + A∞`, what
    /// the implicit integrators solve with; see [`crate::added_mass`]).
    pub fn mass_with(
        &self,
        bodies: &BodySet,
        dofs: &DofMap,
        added: Option<&AddedMass>,
    ) -> Result<DMatrix<f64>, MbsError> {
        let mut mass = self.mass(bodies, dofs);
        if let Some(a) = added {
            a.add_to(&mut mass, bodies, dofs)?;
        }
        Ok(mass)
    }

    /// [`Self::assemble`] with `M + A∞` as the mass matrix.
    pub fn assemble_with(
        &self,
        bodies: &BodySet,
        dofs: &DofMap,
        added: Option<&AddedMass>,
    ) -> Result<Assembled, MbsError> {
        let mut asm = self.assemble(bodies, dofs);
        if let Some(a) = added {
            a.add_to(&mut asm.mass, bodies, dofs)?;
        }
        Ok(asm)
    }

    /// Everything at the bodies' current state, the Jacobians by the `auto` policy (or
    /// `numerical` with [`System::force_numerical`]).
    pub fn assemble(&self, bodies: &BodySet, dofs: &DofMap) -> Assembled {
        let policy = if self.force_numerical { JacobianPolicy::Numerical } else { JacobianPolicy::Auto };
        let forces = self.forces(bodies, dofs);
        let (stiffness, damping, stats, _) = self.differentiate(bodies, dofs, policy.lenient(self.forces), false);
        let (phi, phi_q) = self.constraints(bodies, dofs);
        Assembled { mass: self.mass(bodies, dofs), forces, stiffness, damping, phi, phi_q, stats }
    }

    /// Everything at the bodies' current state, the force elements' Jacobians by `policy`
    /// (docs/design/jacobians.md); an error only for `analytical` with an element that gives
    /// no analytical block.
    pub fn assemble_as(&self, bodies: &BodySet, dofs: &DofMap, policy: JacobianPolicy) -> Result<Assembled, MbsError> {
        let forces = self.forces(bodies, dofs);
        let (stiffness, damping, stats) = self.jacobians(bodies, dofs, policy)?;
        let (phi, phi_q) = self.constraints(bodies, dofs);
        Ok(Assembled { mass: self.mass(bodies, dofs), forces, stiffness, damping, phi, phi_q, stats })
    }

    /// [`Self::assemble_as`] with `M + A∞` as the mass matrix.
    pub fn assemble_full(
        &self,
        bodies: &BodySet,
        dofs: &DofMap,
        added: Option<&AddedMass>,
        policy: JacobianPolicy,
    ) -> Result<Assembled, MbsError> {
        let mut asm = self.assemble_as(bodies, dofs, policy)?;
        if let Some(a) = added {
            a.add_to(&mut asm.mass, bodies, dofs)?;
        }
        Ok(asm)
    }

    /// `(∂Q/∂q, ∂Q/∂v)` by `policy`: analytical blocks first (bodies' gyroscopic terms and
    /// every element that gives one, entries below [`COMPRESSION_THRESHOLD`] dropped), then
    /// coloured forward differences of the remaining elements written only where the
    /// analytical assembly left zero. `numerical` differences the whole of `Q`.
    pub fn jacobians(
        &self,
        bodies: &BodySet,
        dofs: &DofMap,
        policy: JacobianPolicy,
    ) -> Result<(DMatrix<f64>, DMatrix<f64>, JacobianStats), MbsError> {
        let resolved = policy.resolve(self.forces)?;
        let strict = policy == JacobianPolicy::Analytical;
        let (k, c, stats, missing) = self.differentiate(bodies, dofs, resolved, strict);
        if !missing.is_empty() {
            return Err(MbsError::NoAnalyticalJacobian(missing));
        }
        Ok((k, c, stats))
    }

    /// The Jacobians by a resolved policy, dense; with `strict`, the elements that gave no
    /// block are listed instead of differenced.
    fn differentiate(
        &self,
        bodies: &BodySet,
        dofs: &DofMap,
        resolved: JacobianPolicy,
        strict: bool,
    ) -> (DMatrix<f64>, DMatrix<f64>, JacobianStats, Vec<String>) {
        let n = dofs.n;
        let mut parts = self.jacobian_parts(bodies, dofs, resolved, strict);
        let mut stiffness = DMatrix::zeros(n, n);
        let mut damping = DMatrix::zeros(n, n);
        for (target, analytic, numeric) in
            [(&mut stiffness, &parts.analytic_k, &parts.numeric_k), (&mut damping, &parts.analytic_c, &parts.numeric_c)]
        {
            for &(r, c, v) in analytic {
                target[(r, c)] += v;
            }
            for &(r, c, v) in numeric {
                if v == 0.0 {
                    continue;
                }
                if target[(r, c)] == 0.0 {
                    target[(r, c)] = v;
                } else {
                    parts.stats.overridden += 1;
                }
            }
        }
        (stiffness, damping, parts.stats, parts.missing)
    }

    /// The Jacobians' pieces by a resolved policy, before they are summed: analytical blocks
    /// first (bodies' gyroscopic terms and every element that gives one, entries below
    /// [`COMPRESSION_THRESHOLD`] dropped), then coloured forward differences of the rest
    /// (`numerical`: of the whole of `Q`). With `strict`, the elements that gave no block are
    /// listed instead of differenced.
    pub(crate) fn jacobian_parts(
        &self,
        bodies: &BodySet,
        dofs: &DofMap,
        resolved: JacobianPolicy,
        strict: bool,
    ) -> JacobianParts {
        let mut parts = JacobianParts {
            analytic_k: Vec::new(),
            analytic_c: Vec::new(),
            numeric_k: Vec::new(),
            numeric_c: Vec::new(),
            stats: JacobianStats { policy: resolved, ..JacobianStats::default() },
            missing: Vec::new(),
        };
        if resolved == JacobianPolicy::Numerical {
            let mut sources: Vec<Source> = bodies
                .iter()
                .filter_map(|(h, _)| dofs.offset(h).map(|o| (h, o)))
                .map(|(h, o)| {
                    // Load and gravity are held; the gyroscopic term depends on the body's
                    // orientation (its world inertia) and angular velocity only.
                    let turn: BTreeSet<usize> = (o + 3..o + 6).collect();
                    Source {
                        eval: Box::new(move |b: &BodySet, q: &mut DVector<f64>| body_forces(b, h, o, q)),
                        rows: (o..o + 6).collect(),
                        pos_cols: turn.clone(),
                        vel_cols: turn,
                    }
                })
                .collect();
            sources.extend(self.forces.iter_with_dependencies().map(|(e, deps)| element_source(e, deps, dofs)));
            parts.stats.numerical_elements = self.forces.len();
            let d = forward_differences(&sources, bodies, dofs);
            parts.stats.perturbations = d.perturbations;
            (parts.numeric_k, parts.numeric_c) = (d.k, d.c);
            return parts;
        }
        // Bodies: the gyroscopic term's derivative in ω (analytical).
        for (h, b) in bodies.iter() {
            if let Some(o) = dofs.offset(h) {
                let iw = b.inertia_world();
                let d = -(b.angvel.cross_matrix() * iw - (iw * b.angvel).cross_matrix());
                for i in 0..3 {
                    for j in 0..3 {
                        parts.analytic_c.push((o + 3 + i, o + 3 + j, d[(i, j)]));
                    }
                }
            }
        }
        let mut sources = Vec::new();
        for (e, deps) in self.forces.iter_with_dependencies() {
            match e.jacobian(bodies) {
                Some((k, c)) => {
                    let cols = dofs.columns(e.bodies());
                    for &(li, gi) in &cols {
                        for &(lj, gj) in &cols {
                            for (target, block) in [(&mut parts.analytic_k, &k), (&mut parts.analytic_c, &c)] {
                                let v = block[(li, lj)];
                                if v.abs() < COMPRESSION_THRESHOLD {
                                    parts.stats.compressed += usize::from(v != 0.0);
                                } else {
                                    target.push((gi, gj, v));
                                }
                            }
                        }
                    }
                }
                None if strict => parts.missing.push(format!("`{}`", e.name())),
                None => sources.push(element_source(e, deps, dofs)),
            }
        }
        if !sources.is_empty() {
            parts.stats.numerical_elements = sources.len();
            let d = forward_differences(&sources, bodies, dofs);
            parts.stats.perturbations = d.perturbations;
            (parts.numeric_k, parts.numeric_c) = (d.k, d.c);
        }
        parts
    }
}

/// The Jacobians `∂Q/∂q` and `∂Q/∂v` as entries before summation: analytical ones add up,
/// differenced ones fill only positions whose analytical sum is zero.
pub(crate) struct JacobianParts {
    /// Analytical entries of `∂Q/∂q` (repeated positions add).
    pub analytic_k: Vec<Entry>,
    /// Analytical entries of `∂Q/∂v`.
    pub analytic_c: Vec<Entry>,
    /// Differenced entries of `∂Q/∂q` (each position once).
    pub numeric_k: Vec<Entry>,
    /// Differenced entries of `∂Q/∂v`.
    pub numeric_c: Vec<Entry>,
    /// How they were obtained.
    pub stats: JacobianStats,
    /// Elements without an analytical block under the strict policy.
    pub missing: Vec<String>,
}

/// A force element as a differenced source: its bodies' rows, its declared columns.
fn element_source<'a>(e: &'a dyn ForceElement, deps: &Dependencies, dofs: &'a DofMap) -> Source<'a> {
    let (pos_cols, vel_cols) = columns_of(deps, e.bodies(), dofs);
    Source {
        eval: Box::new(move |b: &BodySet, q: &mut DVector<f64>| element_forces(e, b, dofs, q)),
        rows: rows_of(&e.bodies(), dofs),
        pos_cols,
        vel_cols,
    }
}
