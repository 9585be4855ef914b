//! From the coefficients' velocities to ours: `T_i` per body (point shift `S_i`, then the
//! rotation into body axes for [`Frame::Body`]), the 6N × 6N matrix `T_iᵀ A_ij T_j` in the
//! hydrodynamic index space, and its scatter into the system mass matrix at the DOF offsets.

use super::{AddedMass, AddedMassError, Frame};
use crate::dynamics::body_set::BodySet;
use crate::solver::assembly::DofMap;
use nalgebra::{DMatrix, Matrix3, Matrix6, Point3, Vector3};

impl AddedMass {
    /// `T_i` of hydrodynamic body `i` at the current state: `[v_P; ω]` in the coefficients'
    /// axes is `T_i [v; ω]` (ours: COM velocity and angular velocity, world axes).
    pub fn velocity_transform(&self, i: usize, bodies: &BodySet) -> Result<Matrix6<f64>, AddedMassError> {
        let h = self.bodies.get(i).ok_or_else(|| AddedMassError::UnknownBody { body: self.label(i) })?;
        let body = bodies.get(*h).ok_or_else(|| AddedMassError::UnknownBody { body: self.label(i) })?;
        // r = p − x_com (world): v_P = v + ω × r = v − [r]× ω.
        let r = match self.points[i] {
            Some(p) => body.reference_pose().transform_point(&Point3::from(p)).coords - body.com_position(),
            None => Vector3::zeros(),
        };
        let mut t = Matrix6::identity();
        t.fixed_view_mut::<3, 3>(0, 3).copy_from(&(-r.cross_matrix()));
        if self.frame == Frame::Body {
            let qt: Matrix3<f64> = body.reference_orientation().to_rotation_matrix().matrix().transpose();
            let mut rot = Matrix6::zeros();
            rot.fixed_view_mut::<3, 3>(0, 0).copy_from(&qt);
            rot.fixed_view_mut::<3, 3>(3, 3).copy_from(&qt);
            t = rot * t;
        }
        Ok(t)
    }

    /// The added mass in our velocity coordinates, hydrodynamic index space: block `(i, j)`
    /// at `(6i, 6j)` is `T_iᵀ A_ij T_j` (fixed bodies included; [`Self::add_to`] drops them).
    pub fn matrix(&self, bodies: &BodySet) -> Result<DMatrix<f64>, AddedMassError> {
        let n = self.len();
        let t = (0..n).map(|i| self.velocity_transform(i, bodies)).collect::<Result<Vec<_>, _>>()?;
        let mut out = DMatrix::zeros(6 * n, 6 * n);
        for (i, block) in self.blocks.iter().enumerate() {
            for (j, tj) in t.iter().enumerate() {
                let aij: Matrix6<f64> = block.fixed_view::<6, 6>(0, 6 * j).into_owned();
                out.fixed_view_mut::<6, 6>(6 * i, 6 * j).copy_from(&(t[i].transpose() * aij * tj));
            }
        }
        Ok(out)
    }

    /// Adds the added mass to the system mass matrix `mass` (layout `dofs` of `bodies`): the
    /// block of hydrodynamic bodies `i, j` goes to rows `offset(i)`, columns `offset(j)`;
    /// rows and columns of fixed bodies are dropped. Allocates nothing (it runs in every
    /// Newton iteration): each block `T_iᵀ A_ij T_j` is formed as [`Self::matrix`] forms it.
    pub fn add_to(&self, mass: &mut DMatrix<f64>, bodies: &BodySet, dofs: &DofMap) -> Result<(), AddedMassError> {
        if mass.shape() != (dofs.n, dofs.n) {
            return Err(AddedMassError::InvalidSetting(format!(
                "the mass matrix is {} x {}, the body set has {} coordinates",
                mass.nrows(),
                mass.ncols(),
                dofs.n
            )));
        }
        // The transforms on the stack for the usual few bodies (a list beyond that).
        const ON_STACK: usize = 8;
        let n = self.len();
        if n <= ON_STACK {
            let mut t = [Matrix6::zeros(); ON_STACK];
            for (i, ti) in t.iter_mut().take(n).enumerate() {
                *ti = self.velocity_transform(i, bodies)?;
            }
            self.scatter(mass, dofs, &t[..n]);
        } else {
            let t = (0..n).map(|i| self.velocity_transform(i, bodies)).collect::<Result<Vec<_>, _>>()?;
            self.scatter(mass, dofs, &t);
        }
        Ok(())
    }

    /// Adds `T_iᵀ A_ij T_j` of every pair of free hydrodynamic bodies at their offsets (`A_ij`
    /// itself when every `T` is the identity: coefficients about the COM in world axes).
    fn scatter(&self, mass: &mut DMatrix<f64>, dofs: &DofMap, t: &[Matrix6<f64>]) {
        let identity = t.iter().all(|t| *t == Matrix6::identity());
        for (i, block) in self.blocks.iter().enumerate() {
            let Some(oi) = dofs.offset(self.bodies[i]) else { continue };
            for (j, tj) in t.iter().enumerate() {
                let Some(oj) = dofs.offset(self.bodies[j]) else { continue };
                if identity {
                    // Entry by entry on the columns (what `+=` of the block does, without
                    // copying the block first: it runs in every Newton iteration).
                    let n = mass.nrows();
                    let (from, to) = (block.as_slice(), mass.as_mut_slice());
                    for c in 0..6 {
                        let (f, t) = (6 * (6 * j + c), (oj + c) * n + oi);
                        for (x, y) in to[t..t + 6].iter_mut().zip(&from[f..f + 6]) {
                            *x += y;
                        }
                    }
                } else {
                    let aij: Matrix6<f64> = block.fixed_view::<6, 6>(0, 6 * j).into_owned();
                    let mut target = mass.fixed_view_mut::<6, 6>(oi, oj);
                    target += t[i].transpose() * aij * tj;
                }
            }
        }
    }
}

#[cfg(test)]
mod tests {
    use super::super::ReferencePoint;
    use super::*;
    use crate::dynamics::body::RigidBodyBuilder;
    use nalgebra::{DVector, Isometry3, Translation3, UnitQuaternion};

    fn turned_body(bodies: &mut BodySet, offset: Vector3<f64>) -> crate::dynamics::body_set::BodyHandle {
        let rot = UnitQuaternion::from_euler_angles(0.3, -0.5, 1.1);
        let pose = Isometry3::from_parts(Translation3::new(1.0, -2.0, 0.5), rot);
        bodies.insert(
            RigidBodyBuilder::dynamic(2.0, Vector3::new(1.0, 2.0, 3.0))
                .com_offset(Isometry3::translation(offset.x, offset.y, offset.z))
                .reference_pose(pose)
                .linvel(Vector3::new(0.3, -0.1, 0.7))
                .angvel(Vector3::new(-0.4, 0.9, 0.2))
                .build()
                .unwrap(),
        )
    }

    fn spd(seed: f64) -> DMatrix<f64> {
        let g = DMatrix::from_fn(6, 6, |r, c| ((r * 7 + c * 3) as f64 * seed).sin());
        &g * g.transpose() + DMatrix::identity(6, 6)
    }

    /// The kinetic energy with the point velocity from the body itself equals `½ uᵀ A' u`.
    #[test]
    fn shifted_energy_matches_point_kinematics() {
        let mut bodies = BodySet::new(Vector3::zeros());
        let h = turned_body(&mut bodies, Vector3::new(0.2, 0.1, -0.3));
        let p_local = Vector3::new(-0.5, 0.4, 0.25);
        for frame in [Frame::Inertial, Frame::Body] {
            let a = spd(0.37);
            let am = AddedMass::new(vec![h], vec![a.clone()])
                .unwrap()
                .with_frame(frame)
                .with_reference_points(&bodies, &[ReferencePoint::Body(p_local)])
                .unwrap();
            let b = bodies.get(h).unwrap();
            let p = b.reference_pose().transform_point(&Point3::from(p_local)).coords;
            let (mut vp, mut w) = (b.point_velocity(&p), b.angvel());
            if frame == Frame::Body {
                let q = b.reference_orientation();
                vp = q.inverse() * vp;
                w = q.inverse() * w;
            }
            let up = DVector::from_iterator(6, vp.iter().chain(w.iter()).copied());
            let u = DVector::from_iterator(6, b.linvel().iter().chain(b.angvel().iter()).copied());
            let m = am.matrix(&bodies).unwrap();
            let e_point = (up.transpose() * &a * &up)[0];
            let e_ours = (u.transpose() * &m * &u)[0];
            assert!((e_point - e_ours).abs() < 1e-12 * e_point.abs(), "{frame:?}: {e_point} vs {e_ours}");
        }
    }

    /// A world reference point equals the same point given in the body reference frame.
    #[test]
    fn world_points_attach_to_the_body() {
        let mut bodies = BodySet::new(Vector3::zeros());
        let h = turned_body(&mut bodies, Vector3::new(0.0, 0.3, 0.0));
        let local = Vector3::new(0.1, 0.2, 0.3);
        let world = bodies.get(h).unwrap().reference_pose().transform_point(&Point3::from(local)).coords;
        let a = AddedMass::new(vec![h], vec![spd(0.9)]).unwrap();
        let by_body = a.clone().with_reference_points(&bodies, &[ReferencePoint::Body(local)]).unwrap();
        let by_world = a.with_reference_points(&bodies, &[ReferencePoint::World(world)]).unwrap();
        let d = by_body.matrix(&bodies).unwrap() - by_world.matrix(&bodies).unwrap();
        assert!(d.amax() < 1e-12);
    }

    /// Fixed bodies' rows and columns are dropped; the others land at their offsets.
    #[test]
    fn scatter_follows_offsets_and_drops_fixed_bodies() {
        let mut bodies = BodySet::new(Vector3::zeros());
        let free1 = bodies.insert(RigidBodyBuilder::dynamic(1.0, Vector3::repeat(1.0)).build().unwrap());
        let ground = bodies.insert(RigidBodyBuilder::fixed().build().unwrap());
        let free2 = bodies.insert(RigidBodyBuilder::dynamic(1.0, Vector3::repeat(1.0)).build().unwrap());
        let full = DMatrix::from_fn(18, 18, |r, c| (1 + r * 18 + c) as f64);
        let blocks = (0..3).map(|i| full.rows(6 * i, 6).into_owned()).collect();
        // Hydro order: free2, ground, free1.
        let am = AddedMass::new(vec![free2, ground, free1], blocks).unwrap();
        let dofs = DofMap::new(&bodies);
        let mut m = DMatrix::zeros(dofs.n, dofs.n);
        am.add_to(&mut m, &bodies, &dofs).unwrap();
        let (o1, o2) = (dofs.offset(free1).unwrap(), dofs.offset(free2).unwrap());
        assert_eq!(m.view((o2, o2), (6, 6)), full.view((0, 0), (6, 6)));
        assert_eq!(m.view((o2, o1), (6, 6)), full.view((0, 12), (6, 6)));
        assert_eq!(m.view((o1, o2), (6, 6)), full.view((12, 0), (6, 6)));
        assert_eq!(m.view((o1, o1), (6, 6)), full.view((12, 12), (6, 6)));
    }
}
