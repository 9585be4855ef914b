//! Infinite-frequency added mass `A∞` of the hydrodynamic bodies (docs/design/added-mass.md).
//!
//! In the Cummins equation `(M + A∞) ẍ + ∫K ẋ + C x = f_exc`, `A∞` multiplies the current
//! acceleration, so it belongs in the mass matrix of the implicit step: applied as a force it
//! would need the very acceleration it produces (and an explicit lag makes heavy-fluid bodies
//! unstable). The integrators therefore solve with `M + A∞` ([`crate::solver::assembly::System::mass_with`]).
//!
//! **Blocks and index spaces.** The bodies are an ordered list of [`BodyHandle`]s; the
//! *hydrodynamic index* `i` is the position in this list (the order of the BEM file's
//! `body{i+1}` and of the coupling bodies), never the handle index nor the creation order.
//! Body `i` carries a 6 × 6N row block `[A_i1 … A_iN]` (self term and the coupling to every
//! other hydrodynamic body). [`AddedMass::matrix`] works in the hydrodynamic index space
//! (6N × 6N); [`AddedMass::add_to`] scatters it into the system matrix at each body's
//! [`crate::solver::assembly::DofMap::offset`], so hydrodynamic bodies may be anywhere among the system bodies.
//!
//! **Velocity transforms.** Our coordinates per free body are `u = [v; ω]`: the COM velocity
//! and the angular velocity, world axes. The coefficients refer to `u_P = [v_P; ω]` of a
//! reference point `P` (default: the COM) in the axes of [`Frame`]. For `P` at `r = p − x_com`
//! (world), `v_P = v + ω × r = v − [r]× ω`, so
//!
//! ```text
//! u_P = S u,   S = [ I  −[r]× ]      T_inertial = S,   T_body = diag(Qᵀ, Qᵀ) S
//!                  [ 0    I   ]
//! ```
//!
//! with `Q` the orientation of the body reference frame. The kinetic energy of the fluid,
//! `½ Σ_ij u_Pᵢᵀ A_ij u_Pⱼ`, is then `½ Σ_ij uᵢᵀ (T_iᵀ A_ij T_j) u_j`, and the wrench
//! `[F; M_P]` at `P` does the virtual work of the generalized force `Sᵀ [F; M_P]` (force at
//! the COM, moment `M_P + r × F` about it): the block of bodies `i, j` in our mass matrix is
//! `T_iᵀ A_ij T_j` (`Sᵀ A S` for one body). `T` is evaluated at the current state (the
//! reference point is a material point, `r` turns with the body); the velocity-dependent
//! terms from its rate (Munk moment and the like) are left out, as in Chrono and in linear
//! potential-flow theory. Chrono freezes the inertial-axes point shift at the initial
//! orientation; both agree to first order in the rotation amplitude. In BODY axes the shift is
//! a constant `S(r_body)`: exact.
//!
//! **Fixed bodies** have no velocity coordinates: their rows and columns are dropped (their
//! acceleration is zero, so their coupling adds no inertia to the others, and the loads on
//! them are not solved for).
//!
//! **Positive definiteness.** `M + A∞` over the hydrodynamic bodies must be symmetric
//! positive definite, or the step is singular or diverges without a clear message;
//! [`AddedMass::check`] refuses it with the smallest eigenvalue and the bodies involved.

mod check;
pub mod error;
mod transform;

pub use error::AddedMassError;

use crate::dynamics::body_set::{BodyHandle, BodySet};
use nalgebra::{DMatrix, Point3, Vector3};

/// The axes the coefficients are expressed in.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default)]
pub enum Frame {
    /// World axes (BEM coefficients, computed at the reference position and orientation).
    #[default]
    Inertial,
    /// The axes of each body's reference frame (coefficients that turn with the body).
    Body,
}

/// The point whose velocity a body's coefficients refer to.
#[derive(Debug, Clone, Copy, PartialEq, Default)]
pub enum ReferencePoint {
    /// The body's centre of mass (no shift).
    #[default]
    Com,
    /// A point given in the body reference frame (`Body(zeros)` is its origin).
    Body(Vector3<f64>),
    /// A point given in world coordinates for the bodies' pose when it is set (normally the
    /// initial one, e.g. a BEM file's cg); it then moves with the body.
    World(Vector3<f64>),
}

/// Default relative tolerance of the symmetry check ([`AddedMass::with_symmetry_tolerance`]).
pub const DEFAULT_SYMMETRY_TOLERANCE: f64 = 1e-2;

/// The infinite-frequency added mass of an ordered list of hydrodynamic bodies: one 6 × 6N
/// row block per body, the frame of the coefficients and a reference point per body.
#[derive(Debug, Clone)]
pub struct AddedMass {
    bodies: Vec<BodyHandle>,
    blocks: Vec<DMatrix<f64>>,
    frame: Frame,
    /// Reference points in the body reference frame; `None` is the COM.
    points: Vec<Option<Vector3<f64>>>,
    names: Option<Vec<String>>,
    symmetry_tolerance: f64,
    /// Whether [`AddedMass::check`] passed for these coefficients (reset by any change).
    pub(crate) checked: bool,
}

impl PartialEq for AddedMass {
    /// Equal descriptions (whether they have been checked yet does not count).
    fn eq(&self, other: &Self) -> bool {
        self.bodies == other.bodies
            && self.blocks == other.blocks
            && self.frame == other.frame
            && self.points == other.points
            && self.names == other.names
            && self.symmetry_tolerance == other.symmetry_tolerance
    }
}

impl AddedMass {
    /// Coefficients `blocks[i]` (6 × 6N, kg, kg·m, kg·m²) for hydrodynamic body `bodies[i]`,
    /// inertial axes, about the COMs. Refuses a count or shape mismatch, a body listed twice
    /// and non-finite coefficients.
    pub fn new(bodies: Vec<BodyHandle>, blocks: Vec<DMatrix<f64>>) -> Result<Self, AddedMassError> {
        if blocks.len() != bodies.len() {
            return Err(AddedMassError::BlockCount { bodies: bodies.len(), blocks: blocks.len() });
        }
        let n = bodies.len();
        let mut am = AddedMass {
            bodies,
            blocks: Vec::new(),
            frame: Frame::Inertial,
            points: vec![None; n],
            names: None,
            symmetry_tolerance: DEFAULT_SYMMETRY_TOLERANCE,
            checked: false,
        };
        for (second, h) in am.bodies.iter().enumerate() {
            if let Some(first) = am.bodies[..second].iter().position(|b| b == h) {
                return Err(AddedMassError::Duplicate { body: am.label(first), first, second });
            }
        }
        for (i, b) in blocks.iter().enumerate() {
            am.validate_block(i, b)?;
        }
        am.blocks = blocks;
        Ok(am)
    }

    /// The same coefficients expressed in `frame`.
    pub fn with_frame(mut self, frame: Frame) -> Self {
        self.frame = frame;
        self.checked = false;
        self
    }

    /// Names of the hydrodynamic bodies (one per body), used in messages.
    pub fn with_names(mut self, names: Vec<String>) -> Result<Self, AddedMassError> {
        if names.len() != self.bodies.len() {
            return Err(AddedMassError::ListLength { what: "the name list", got: names.len(), expected: self.len() });
        }
        self.names = Some(names);
        Ok(self)
    }

    /// The points the coefficients are given about, one per hydrodynamic body; world points
    /// are attached to the bodies at their pose in `bodies` now.
    pub fn with_reference_points(
        mut self,
        bodies: &BodySet,
        points: &[ReferencePoint],
    ) -> Result<Self, AddedMassError> {
        if points.len() != self.bodies.len() {
            return Err(AddedMassError::ListLength {
                what: "the reference point list",
                got: points.len(),
                expected: self.len(),
            });
        }
        let mut local = Vec::with_capacity(points.len());
        for (i, p) in points.iter().enumerate() {
            let body = bodies.get(self.bodies[i]).ok_or_else(|| AddedMassError::UnknownBody { body: self.label(i) })?;
            if let ReferencePoint::Body(v) | ReferencePoint::World(v) = p {
                if !v.iter().all(|x| x.is_finite()) {
                    return Err(AddedMassError::InvalidSetting(format!(
                        "the reference point of {} is not finite",
                        self.label(i)
                    )));
                }
            }
            local.push(match p {
                ReferencePoint::Com => None,
                ReferencePoint::Body(v) => Some(*v),
                ReferencePoint::World(v) => {
                    Some(body.reference_pose().inverse_transform_point(&Point3::from(*v)).coords)
                }
            });
        }
        self.points = local;
        self.checked = false;
        Ok(self)
    }

    /// Relative tolerance of the symmetry check: `|A_kl − A_lk| ≤ tol · max(|A_kl|, |A_lk|,
    /// √|A_kk A_ll|)` (BEM coefficients are symmetric only to the accuracy of the solution).
    pub fn with_symmetry_tolerance(mut self, tolerance: f64) -> Result<Self, AddedMassError> {
        if !(tolerance.is_finite() && tolerance >= 0.0) {
            return Err(AddedMassError::InvalidSetting(format!(
                "the symmetry tolerance must be finite and non-negative, got {tolerance}"
            )));
        }
        self.symmetry_tolerance = tolerance;
        self.checked = false;
        Ok(self)
    }

    /// Whether [`Self::add_to`] reads the bodies' positions (reference points other than the
    /// COM); otherwise it reads only their orientations.
    pub fn reads_positions(&self) -> bool {
        self.points.iter().any(Option::is_some)
    }

    /// Replaces the row blocks of some or all bodies (per-window updates); all or nothing.
    pub fn set_blocks(&mut self, updates: &[(BodyHandle, DMatrix<f64>)]) -> Result<(), AddedMassError> {
        let mut targets = Vec::with_capacity(updates.len());
        for (h, block) in updates {
            let i = self.hydro_index(*h).ok_or(AddedMassError::NotHydrodynamic { handle: h.index() })?;
            self.validate_block(i, block)?;
            targets.push(i);
        }
        for (i, (_, block)) in targets.into_iter().zip(updates) {
            self.blocks[i] = block.clone();
        }
        self.checked = false;
        Ok(())
    }

    /// The hydrodynamic bodies, in hydrodynamic index order.
    pub fn bodies(&self) -> &[BodyHandle] {
        &self.bodies
    }
    /// The row blocks as given (6 × 6N each, in the axes of [`Self::frame`]).
    pub fn blocks(&self) -> &[DMatrix<f64>] {
        &self.blocks
    }
    /// The axes of the coefficients.
    pub fn frame(&self) -> Frame {
        self.frame
    }
    /// The reference point of hydrodynamic body `i` in its body reference frame (`None`: COM).
    pub fn reference_point(&self, i: usize) -> Option<Vector3<f64>> {
        self.points.get(i).copied().flatten()
    }
    /// Number of hydrodynamic bodies N.
    pub fn len(&self) -> usize {
        self.bodies.len()
    }
    /// Whether there are no hydrodynamic bodies.
    pub fn is_empty(&self) -> bool {
        self.bodies.is_empty()
    }
    /// The hydrodynamic index of body `h`, if it has added mass.
    pub fn hydro_index(&self, h: BodyHandle) -> Option<usize> {
        self.bodies.iter().position(|b| *b == h)
    }
    /// Hydrodynamic body `i` for messages: its name if given, else its index and handle.
    pub fn label(&self, i: usize) -> String {
        match self.names.as_ref().and_then(|n| n.get(i)) {
            Some(name) => format!("body `{name}`"),
            None => match self.bodies.get(i) {
                Some(h) => format!("hydrodynamic body {i} (handle {})", h.index()),
                None => format!("hydrodynamic body {i}"),
            },
        }
    }

    /// The coefficients as one 6N × 6N matrix, rows of body `i` at `6i` (hydrodynamic index
    /// space, the frame and reference points as given).
    pub fn coefficients(&self) -> DMatrix<f64> {
        let n = self.len();
        let mut a = DMatrix::zeros(6 * n, 6 * n);
        for (i, b) in self.blocks.iter().enumerate() {
            a.view_mut((6 * i, 0), (6, 6 * n)).copy_from(b);
        }
        a
    }

    fn validate_block(&self, i: usize, block: &DMatrix<f64>) -> Result<(), AddedMassError> {
        let n = self.len();
        if block.shape() != (6, 6 * n) {
            return Err(AddedMassError::BlockShape {
                body: self.label(i),
                rows: block.nrows(),
                cols: block.ncols(),
                expected_rows: 6,
                expected_cols: 6 * n,
                n,
            });
        }
        for c in 0..block.ncols() {
            for r in 0..6 {
                let value = block[(r, c)];
                if !value.is_finite() {
                    return Err(AddedMassError::NotFinite { body: self.label(i), row: r, col: c, value });
                }
            }
        }
        Ok(())
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::dynamics::body::RigidBodyBuilder;

    fn two_bodies() -> (BodySet, BodyHandle, BodyHandle) {
        let mut bodies = BodySet::new(Vector3::zeros());
        let a = bodies.insert(RigidBodyBuilder::dynamic(1.0, Vector3::repeat(1.0)).build().unwrap());
        let b = bodies.insert(RigidBodyBuilder::dynamic(1.0, Vector3::repeat(1.0)).build().unwrap());
        (bodies, a, b)
    }

    #[test]
    fn refuses_bad_shapes_duplicates_and_non_finite_entries() {
        let (_, a, b) = two_bodies();
        let e = AddedMass::new(vec![a, b], vec![DMatrix::zeros(6, 12), DMatrix::zeros(6, 6)]).unwrap_err();
        assert_eq!(
            e,
            AddedMassError::BlockShape {
                body: "hydrodynamic body 1 (handle 1)".into(),
                rows: 6,
                cols: 6,
                expected_rows: 6,
                expected_cols: 12,
                n: 2
            }
        );
        assert!(e.to_string().contains("6 x 6, expected 6 x 12"), "{e}");
        let e = AddedMass::new(vec![a, b], vec![DMatrix::zeros(6, 12)]).unwrap_err();
        assert_eq!(e, AddedMassError::BlockCount { bodies: 2, blocks: 1 });
        let e = AddedMass::new(vec![a, a], vec![DMatrix::zeros(6, 12); 2]).unwrap_err();
        assert!(matches!(e, AddedMassError::Duplicate { first: 0, second: 1, .. }));
        let mut nan = DMatrix::zeros(6, 12);
        nan[(3, 7)] = f64::NAN;
        let e = AddedMass::new(vec![a, b], vec![DMatrix::zeros(6, 12), nan]).unwrap_err();
        assert!(matches!(e, AddedMassError::NotFinite { row: 3, col: 7, .. }));
    }

    #[test]
    fn names_label_the_bodies_and_unknown_handles_are_refused() {
        let (bodies, a, b) = two_bodies();
        let mut other = BodySet::new(Vector3::zeros());
        other.insert(RigidBodyBuilder::dynamic(1.0, Vector3::repeat(1.0)).build().unwrap());
        let am = AddedMass::new(vec![a, b], vec![DMatrix::zeros(6, 12); 2])
            .unwrap()
            .with_names(vec!["float".into(), "plate".into()])
            .unwrap();
        assert_eq!(am.label(1), "body `plate`");
        assert!(am.matrix(&bodies).is_ok());
        assert_eq!(am.matrix(&other).unwrap_err(), AddedMassError::UnknownBody { body: "body `plate`".into() });
        assert!(matches!(am.clone().with_names(vec![]), Err(AddedMassError::ListLength { got: 0, expected: 2, .. })));
    }

    #[test]
    fn set_blocks_replaces_all_or_nothing() {
        let (_, a, b) = two_bodies();
        let mut am = AddedMass::new(vec![b, a], vec![DMatrix::zeros(6, 12); 2]).unwrap();
        let new_a = DMatrix::from_element(6, 12, 2.0);
        am.set_blocks(&[(a, new_a.clone())]).unwrap();
        assert_eq!(am.blocks()[1], new_a);
        assert_eq!(am.blocks()[0], DMatrix::zeros(6, 12));
        let before = am.clone();
        let e = am.set_blocks(&[(b, DMatrix::from_element(6, 12, 1.0)), (a, DMatrix::zeros(6, 11))]).unwrap_err();
        assert!(matches!(e, AddedMassError::BlockShape { cols: 11, .. }));
        assert_eq!(am, before);
        let mut bodies = BodySet::new(Vector3::zeros());
        for _ in 0..3 {
            bodies.insert(RigidBodyBuilder::dynamic(1.0, Vector3::repeat(1.0)).build().unwrap());
        }
        let third = bodies.iter().nth(2).map(|(h, _)| h).unwrap();
        assert_eq!(
            am.set_blocks(&[(third, DMatrix::zeros(6, 12))]).unwrap_err(),
            AddedMassError::NotHydrodynamic { handle: 2 }
        );
    }
}
