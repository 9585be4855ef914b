//! A rigid body: mass properties about its centre of mass (COM), a reference frame that
//! the COM frame is attached to, its kinematic state and its load accumulators.
//!
//! The state is kept at the COM (where the equations of motion are simplest): the COM
//! position `x`, the orientation `q` of the COM frame, the COM velocity `v` and the angular
//! velocity `ω` (world axes). The reference frame is derived from them through the fixed
//! COM offset, so what users place (`location`, `orientation`) and what is exchanged
//! (vertex positions) is the reference frame, as in Chrono's `ChBodyAuxRef`.

use crate::error::MbsError;
use nalgebra::{Isometry3, Matrix3, Translation3, UnitQuaternion, Vector3};

/// One rigid body of a [`crate::BodySet`].
#[derive(Debug, Clone, PartialEq)]
pub struct RigidBody {
    pub(crate) mass: f64,
    /// Inertia tensor about the COM, in the COM frame.
    pub(crate) inertia: Matrix3<f64>,
    pub(crate) inv_inertia: Matrix3<f64>,
    /// The COM frame relative to the reference frame.
    pub(crate) com_offset: Isometry3<f64>,
    pub(crate) fixed: bool,
    pub(crate) position: Vector3<f64>,
    pub(crate) orientation: UnitQuaternion<f64>,
    pub(crate) linvel: Vector3<f64>,
    pub(crate) angvel: Vector3<f64>,
    pub(crate) force: Vector3<f64>,
    pub(crate) torque: Vector3<f64>,
}

impl RigidBody {
    /// Mass (kg); that of a fixed body is never used.
    pub fn mass(&self) -> f64 {
        self.mass
    }
    /// Fixed bodies never move (ground); the integrators skip them.
    pub fn is_fixed(&self) -> bool {
        self.fixed
    }
    /// Inertia about the COM in the COM frame, as given.
    pub fn inertia_local(&self) -> &Matrix3<f64> {
        &self.inertia
    }
    /// Inertia about the COM in world axes, `R I Rᵀ` for the current orientation.
    pub fn inertia_world(&self) -> Matrix3<f64> {
        let r = self.orientation.to_rotation_matrix();
        r.matrix() * self.inertia * r.matrix().transpose()
    }
    /// Inverse of [`Self::inertia_world`], from the stored local inverse.
    pub fn inv_inertia_world(&self) -> Matrix3<f64> {
        let r = self.orientation.to_rotation_matrix();
        r.matrix() * self.inv_inertia * r.matrix().transpose()
    }
    /// The COM frame relative to the reference frame (fixed for the body's life): how the
    /// reference pose that users place and exchange follows from the COM state.
    pub fn com_offset(&self) -> &Isometry3<f64> {
        &self.com_offset
    }

    /// COM position (world).
    pub fn com_position(&self) -> Vector3<f64> {
        self.position
    }
    /// Orientation of the COM frame (world).
    pub fn com_orientation(&self) -> UnitQuaternion<f64> {
        self.orientation
    }
    /// COM velocity (world).
    pub fn linvel(&self) -> Vector3<f64> {
        self.linvel
    }
    /// Angular velocity (world axes); the same for every point and frame of the body.
    pub fn angvel(&self) -> Vector3<f64> {
        self.angvel
    }

    /// Orientation of the reference frame: `q_com · q_offset⁻¹`.
    pub fn reference_orientation(&self) -> UnitQuaternion<f64> {
        self.orientation * self.com_offset.rotation.inverse()
    }
    /// Origin of the reference frame: `x_com + R_ref · (−com offset)`.
    pub fn reference_position(&self) -> Vector3<f64> {
        self.position - self.reference_orientation() * self.com_offset.translation.vector
    }
    /// The reference frame as an isometry (world).
    pub fn reference_pose(&self) -> Isometry3<f64> {
        Isometry3::from_parts(Translation3::from(self.reference_position()), self.reference_orientation())
    }
    /// Velocity of the material point at `point` (world): `v + ω × (p − x_com)`.
    pub fn point_velocity(&self, point: &Vector3<f64>) -> Vector3<f64> {
        self.linvel + self.angvel.cross(&(point - self.position))
    }
    /// Velocity of the reference frame's origin.
    pub fn reference_velocity(&self) -> Vector3<f64> {
        self.point_velocity(&self.reference_position())
    }

    /// Sets the COM velocity (ignored for fixed bodies).
    pub fn set_linvel(&mut self, v: Vector3<f64>) {
        if !self.fixed {
            self.linvel = v;
        }
    }
    /// Sets the angular velocity in world axes (ignored for fixed bodies).
    pub fn set_angvel(&mut self, w: Vector3<f64>) {
        if !self.fixed {
            self.angvel = w;
        }
    }

    /// Angular momentum about the COM (world): `I_w ω`.
    pub fn angular_momentum(&self) -> Vector3<f64> {
        self.inertia_world() * self.angvel
    }
    /// Kinetic energy, translational plus rotational.
    pub fn kinetic_energy(&self) -> f64 {
        0.5 * self.mass * self.linvel.norm_squared() + 0.5 * self.angvel.dot(&self.angular_momentum())
    }

    /// The force accumulated for the next steps (acting at the COM, world).
    pub fn force(&self) -> Vector3<f64> {
        self.force
    }
    /// The torque accumulated for the next steps (about the COM, world axes).
    pub fn torque(&self) -> Vector3<f64> {
        self.torque
    }
    /// Adds a force acting at the COM.
    pub fn add_force(&mut self, f: Vector3<f64>) {
        self.force += f;
    }
    /// Adds a torque (world axes).
    pub fn add_torque(&mut self, t: Vector3<f64>) {
        self.torque += t;
    }
    /// Adds a force acting at `point` (world): the force plus its moment `(p − x_com) × f`.
    pub fn add_force_at_point(&mut self, f: Vector3<f64>, point: &Vector3<f64>) {
        self.force += f;
        self.torque += (point - self.position).cross(&f);
    }
    /// Empties the accumulators; loads then act until they are replaced.
    pub fn clear_accumulators(&mut self) {
        self.force = Vector3::zeros();
        self.torque = Vector3::zeros();
    }
}

/// Builds a [`RigidBody`] from what a model file gives (reference pose, COM offset, mass,
/// moments and products of inertia) and checks it.
#[derive(Debug, Clone)]
pub struct RigidBodyBuilder {
    mass: f64,
    moments: Vector3<f64>,
    products: Vector3<f64>,
    com_offset: Isometry3<f64>,
    fixed: bool,
    reference_pose: Isometry3<f64>,
    linvel: Vector3<f64>,
    angvel: Vector3<f64>,
}

impl RigidBodyBuilder {
    /// A free body of mass `mass` with principal moments `moments`, at the origin, at rest.
    pub fn dynamic(mass: f64, moments: Vector3<f64>) -> Self {
        RigidBodyBuilder {
            mass,
            moments,
            products: Vector3::zeros(),
            com_offset: Isometry3::identity(),
            fixed: false,
            reference_pose: Isometry3::identity(),
            linvel: Vector3::zeros(),
            angvel: Vector3::zeros(),
        }
    }
    /// A fixed body (ground); mass properties do not matter and are not checked.
    pub fn fixed() -> Self {
        RigidBodyBuilder { fixed: true, ..Self::dynamic(1.0, Vector3::repeat(1.0)) }
    }
    /// Products of inertia `[Ixy, Ixz, Iyz]`, the tensor's off-diagonal entries (Chrono's
    /// `SetInertiaXY` convention).
    pub fn products(mut self, p: Vector3<f64>) -> Self {
        self.products = p;
        self
    }
    /// The COM frame relative to the reference frame.
    pub fn com_offset(mut self, offset: Isometry3<f64>) -> Self {
        self.com_offset = offset;
        self
    }
    /// The initial reference frame (world).
    pub fn reference_pose(mut self, pose: Isometry3<f64>) -> Self {
        self.reference_pose = pose;
        self
    }
    /// Initial COM velocity (world).
    pub fn linvel(mut self, v: Vector3<f64>) -> Self {
        self.linvel = v;
        self
    }
    /// Initial angular velocity (world axes).
    pub fn angvel(mut self, w: Vector3<f64>) -> Self {
        self.angvel = w;
        self
    }

    /// Checks the mass properties (free bodies) and finiteness, then places the COM frame.
    pub fn build(self) -> Result<RigidBody, MbsError> {
        let finite3 = |v: &Vector3<f64>, what| {
            if v.iter().all(|x| x.is_finite()) {
                Ok(())
            } else {
                Err(MbsError::NotFinite(what))
            }
        };
        finite3(&self.reference_pose.translation.vector, "the location")?;
        finite3(&self.com_offset.translation.vector, "the COM location")?;
        finite3(&self.linvel, "the initial linear velocity")?;
        finite3(&self.angvel, "the initial angular velocity")?;
        if !self
            .reference_pose
            .rotation
            .coords
            .iter()
            .chain(self.com_offset.rotation.coords.iter())
            .all(|x| x.is_finite())
        {
            return Err(MbsError::NotFinite("the orientation"));
        }
        let (m, p) = (self.moments, self.products);
        let inertia = Matrix3::new(m.x, p.x, p.y, p.x, m.y, p.z, p.y, p.z, m.z);
        let (mass, inv_inertia) = if self.fixed {
            (self.mass, Matrix3::zeros())
        } else {
            if !(self.mass.is_finite() && self.mass > 0.0) {
                return Err(MbsError::InvalidMass(self.mass));
            }
            finite3(&m, "the moments of inertia")?;
            finite3(&p, "the products of inertia")?;
            let eig = inertia.symmetric_eigenvalues();
            if eig.iter().any(|e| *e <= 0.0) {
                return Err(MbsError::InvalidInertia([eig[0], eig[1], eig[2]]));
            }
            let inv = inertia.try_inverse().ok_or(MbsError::InvalidInertia([eig[0], eig[1], eig[2]]))?;
            (self.mass, inv)
        };
        let com = self.reference_pose * self.com_offset;
        let (linvel, angvel) =
            if self.fixed { (Vector3::zeros(), Vector3::zeros()) } else { (self.linvel, self.angvel) };
        Ok(RigidBody {
            mass,
            inertia,
            inv_inertia,
            com_offset: self.com_offset,
            fixed: self.fixed,
            position: com.translation.vector,
            orientation: com.rotation,
            linvel,
            angvel,
            force: Vector3::zeros(),
            torque: Vector3::zeros(),
        })
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn checks_mass_properties() {
        assert_eq!(
            RigidBodyBuilder::dynamic(0.0, Vector3::repeat(1.0)).build().unwrap_err(),
            MbsError::InvalidMass(0.0)
        );
        let e =
            RigidBodyBuilder::dynamic(1.0, Vector3::new(1.0, 1.0, 1.0)).products(Vector3::new(2.0, 0.0, 0.0)).build();
        assert!(matches!(e, Err(MbsError::InvalidInertia(_))));
        assert!(RigidBodyBuilder::fixed().build().unwrap().is_fixed());
        let e = RigidBodyBuilder::dynamic(1.0, Vector3::repeat(1.0)).linvel(Vector3::new(f64::NAN, 0.0, 0.0)).build();
        assert_eq!(e.unwrap_err(), MbsError::NotFinite("the initial linear velocity"));
    }

    #[test]
    fn products_go_off_diagonal() {
        let b = RigidBodyBuilder::dynamic(1.0, Vector3::new(3.0, 4.0, 5.0))
            .products(Vector3::new(0.1, 0.2, 0.3))
            .build()
            .unwrap();
        let i = b.inertia_local();
        assert_eq!((i[(0, 1)], i[(0, 2)], i[(1, 2)]), (0.1, 0.2, 0.3));
        assert_eq!(i, &i.transpose());
    }

    #[test]
    fn com_offset_places_the_com() {
        let rot = UnitQuaternion::from_axis_angle(&Vector3::z_axis(), std::f64::consts::FRAC_PI_2);
        let pose = Isometry3::from_parts(Translation3::new(1.0, 2.0, 3.0), rot);
        let b = RigidBodyBuilder::dynamic(2.0, Vector3::repeat(1.0))
            .com_offset(Isometry3::translation(0.5, 0.0, 0.0))
            .reference_pose(pose)
            .build()
            .unwrap();
        // The offset along the reference x axis points along world y after the 90° turn.
        assert!((b.com_position() - Vector3::new(1.0, 2.5, 3.0)).norm() < 1e-15);
        assert!((b.reference_position() - Vector3::new(1.0, 2.0, 3.0)).norm() < 1e-15);
        let mut f = b.clone();
        f.add_force_at_point(Vector3::new(0.0, 0.0, 1.0), &b.reference_position());
        assert!((f.torque() - Vector3::new(-0.5, 0.0, 0.0)).norm() < 1e-15);
        f.clear_accumulators();
        assert_eq!((f.force(), f.torque()), (Vector3::zeros(), Vector3::zeros()));
    }
}
