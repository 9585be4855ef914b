//! Assembly of the equations of motion of a body set with joints and force elements:
//! the mass matrix, generalized forces, their stiffness and damping Jacobians, and the
//! constraint residuals and Jacobian, over 6 velocity coordinates `[v, ω]` per free body.
//!
//! Jacobians come per element (docs/design/participants.md §5.3): analytical where the element gives one (bodies,
//! joints, TSDA, RSDA), finite differences otherwise, with the differenced columns grouped
//! by greedy largest-first colouring so all numerical elements cost one evaluation per colour.

use crate::added_mass::AddedMass;
use crate::dynamics::body_set::{BodyHandle, BodySet};
use crate::dynamics::force_element::{ForceElement, ForceElementSet};
use crate::dynamics::joint::JointSet;
use crate::error::MbsError;
use crate::solver::colouring::colour_columns;
use nalgebra::{DMatrix, DVector, UnitQuaternion, Vector3};

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
}

/// Everything the integrators need besides the bodies themselves.
#[derive(Debug, Clone, Copy)]
pub struct System<'a> {
    /// The joints whose rows enter `Φ` and `Φ_q`.
    pub joints: &'a JointSet,
    /// The force elements whose wrenches and Jacobians enter `Q`, `K` and `C`.
    pub forces: &'a ForceElementSet,
    /// Difference force elements even where they give an analytical Jacobian (tests).
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

fn element_forces(e: &dyn ForceElement, bodies: &BodySet, dofs: &DofMap, out: &mut DVector<f64>) {
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

impl System<'_> {
    /// Constraint residuals and Jacobian only (for projections).
    pub fn constraints(&self, bodies: &BodySet, dofs: &DofMap) -> (DVector<f64>, DMatrix<f64>) {
        let m = self.joints.equations();
        let mut phi = DVector::zeros(m);
        let mut phi_q = DMatrix::zeros(m, dofs.n);
        let mut row = 0;
        for j in self.joints.iter() {
            for r in j.rows(bodies) {
                phi[row] = r.value;
                for (h, jac) in [(j.body1, r.jac1), (j.body2, r.jac2)] {
                    if let Some(o) = dofs.offset(h) {
                        for k in 0..6 {
                            phi_q[(row, o + k)] += jac[k];
                        }
                    }
                }
                row += 1;
            }
        }
        (phi, phi_q)
    }

    /// Generalized forces only.
    pub fn forces(&self, bodies: &BodySet, dofs: &DofMap) -> DVector<f64> {
        let mut q = DVector::zeros(dofs.n);
        for (h, b) in bodies.iter() {
            if let Some(o) = dofs.offset(h) {
                let gyro = b.angvel.cross(&(b.inertia_world() * b.angvel));
                q.fixed_rows_mut::<3>(o).copy_from(&(b.force + b.mass * bodies.gravity));
                q.fixed_rows_mut::<3>(o + 3).copy_from(&(b.torque - gyro));
            }
        }
        for e in self.forces.iter() {
            element_forces(e, bodies, dofs, &mut q);
        }
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

    /// Everything at the bodies' current state.
    pub fn assemble(&self, bodies: &BodySet, dofs: &DofMap) -> Assembled {
        let n = dofs.n;
        let forces = self.forces(bodies, dofs);
        let mut stiffness = DMatrix::zeros(n, n);
        let mut damping = DMatrix::zeros(n, n);
        // Bodies: the gyroscopic term's derivative in ω (analytical).
        for (h, b) in bodies.iter() {
            if let Some(o) = dofs.offset(h) {
                let iw = b.inertia_world();
                let d = -(b.angvel.cross_matrix() * iw - (iw * b.angvel).cross_matrix());
                damping.view_mut((o + 3, o + 3), (3, 3)).copy_from(&d);
            }
        }
        let mut numerical: Vec<&dyn ForceElement> = Vec::new();
        for e in self.forces.iter() {
            let jac = if self.force_numerical { None } else { e.jacobian(bodies) };
            match jac {
                Some((k, c)) => {
                    let cols = dofs.columns(e.bodies());
                    for &(li, gi) in &cols {
                        for &(lj, gj) in &cols {
                            stiffness[(gi, gj)] += k[(li, lj)];
                            damping[(gi, gj)] += c[(li, lj)];
                        }
                    }
                }
                None => numerical.push(e),
            }
        }
        if !numerical.is_empty() {
            self.difference(bodies, dofs, &numerical, &mut stiffness, &mut damping);
        }
        let (phi, phi_q) = self.constraints(bodies, dofs);
        Assembled { mass: self.mass(bodies, dofs), forces, stiffness, damping, phi, phi_q }
    }

    /// Forward differences of the numerical elements, one evaluation per colour for
    /// positions and one per colour for velocities.
    fn difference(
        &self,
        bodies: &BodySet,
        dofs: &DofMap,
        elements: &[&dyn ForceElement],
        k: &mut DMatrix<f64>,
        c: &mut DMatrix<f64>,
    ) {
        let cols: Vec<Vec<(usize, usize)>> = elements.iter().map(|e| dofs.columns(e.bodies())).collect();
        let pattern: Vec<Vec<usize>> = cols.iter().map(|c| c.iter().map(|p| p.1).collect()).collect();
        let groups = colour_columns(dofs.n, &pattern);
        let eval = |b: &BodySet| {
            elements
                .iter()
                .map(|e| {
                    let mut q = DVector::zeros(dofs.n);
                    element_forces(*e, b, dofs, &mut q);
                    q
                })
                .collect::<Vec<_>>()
        };
        let base = eval(bodies);
        let eps = 1e-7;
        let v0 = velocities(bodies, dofs);
        for group in &groups {
            for velocity in [false, true] {
                let mut pert = bodies.clone();
                let mut d = DVector::zeros(dofs.n);
                group.iter().for_each(|&g| d[g] = eps);
                if velocity {
                    set_velocities(&mut pert, dofs, &(&v0 + &d));
                } else {
                    displace(&mut pert, dofs, &d);
                }
                let out = eval(&pert);
                for (ei, ecols) in cols.iter().enumerate() {
                    let Some(&(_, col)) = ecols.iter().find(|(_, g)| group.contains(g)) else { continue };
                    let target = if velocity { &mut *c } else { &mut *k };
                    for &(_, row) in ecols {
                        target[(row, col)] += (out[ei][row] - base[ei][row]) / eps;
                    }
                }
            }
        }
    }
}
