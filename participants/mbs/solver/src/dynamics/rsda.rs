//! Rotational spring-damper-actuator (Chrono's RSDA) about an axis fixed in body 1.
//!
//! With `θ` the rotation of body 2 relative to body 1 about the axis (opening positive)
//! and `θ̇` its rate, the torque on body 2 is `T = P − k (θ − θ0) − c θ̇` about the axis
//! (body 1 gets the reaction): the spring and damper resist the motion (docs/design/participants.md §5.2).

use crate::dynamics::body_set::{BodyHandle, BodySet};
use crate::dynamics::force_element::{Block12, ForceElement, StepStart, Wrench};
use crate::error::MbsError;
use nalgebra::{Matrix3, Unit, Vector3};

/// An RSDA; the angle is measured between two reference directions perpendicular to the
/// axis, one in each body, equal when it is created (`θ = 0` there). It is meant to sit on
/// a revolute joint; the angle is continuous within (−π, π] of the start.
#[derive(Debug, Clone, PartialEq)]
pub struct Rsda {
    /// The model's name, by which a controller finds it ([`crate::ForceElementSet::find_mut`]).
    pub name: String,
    /// The body that carries the axis; it gets the reaction torque.
    pub body1: BodyHandle,
    /// The body whose rotation relative to body 1 is `θ`.
    pub body2: BodyHandle,
    axis1: Vector3<f64>,
    ref1: Vector3<f64>,
    ref2: Vector3<f64>,
    /// Spring coefficient `k` (N m/rad).
    pub stiffness: f64,
    /// Damping coefficient `c` (N m s/rad).
    pub damping: f64,
    /// Preload torque `P` (N m).
    pub preload: f64,
    /// Free angle `θ0` (rad).
    pub free_angle: f64,
    /// Spring coefficients that take over during a run, `(from time s, k N m/rad)` in
    /// increasing time: a step starting at or after `from` uses that `k` (a stiffening spring).
    pub stiffness_schedule: Vec<(f64, f64)>,
}

impl Rsda {
    /// An RSDA about `axis` (world, current configuration).
    // One argument per key of Chrono's `rsdas` entry; a builder would only rename them.
    #[allow(clippy::too_many_arguments)]
    pub fn new(
        name: &str,
        bodies: &BodySet,
        body1: BodyHandle,
        body2: BodyHandle,
        axis: Vector3<f64>,
        stiffness: f64,
        damping: f64,
        preload: f64,
        free_angle: f64,
    ) -> Result<Self, MbsError> {
        let b1 = bodies.get(body1).ok_or(MbsError::UnknownHandle(body1.index()))?;
        let b2 = bodies.get(body2).ok_or(MbsError::UnknownHandle(body2.index()))?;
        if body1 == body2 {
            return Err(crate::dynamics::tsda::self_connection(name));
        }
        if ![stiffness, damping, preload, free_angle].iter().chain(axis.iter()).all(|x| x.is_finite()) {
            return Err(MbsError::NotFinite("an RSDA parameter"));
        }
        let Some(a) = Unit::try_new(axis, 1e-12) else {
            return Err(MbsError::InvalidElement { name: name.into(), why: "its axis is zero".into() });
        };
        let trial = if a.x.abs() < 0.9 { Vector3::x() } else { Vector3::y() };
        let reference = (trial - a.into_inner() * a.dot(&trial)).normalize();
        Ok(Rsda {
            name: name.into(),
            body1,
            body2,
            axis1: b1.orientation.inverse() * a.into_inner(),
            ref1: b1.orientation.inverse() * reference,
            ref2: b2.orientation.inverse() * reference,
            stiffness,
            damping,
            preload,
            free_angle,
            stiffness_schedule: Vec::new(),
        })
    }

    /// The same RSDA with `schedule` (`(from s, k N m/rad)`, times strictly increasing, all finite).
    pub fn with_stiffness_schedule(mut self, schedule: Vec<(f64, f64)>) -> Result<Self, MbsError> {
        if schedule.iter().any(|(t, k)| !t.is_finite() || !k.is_finite()) {
            return Err(MbsError::NotFinite("an RSDA stiffness schedule entry"));
        }
        if schedule.windows(2).any(|w| w[1].0 <= w[0].0) {
            let why = "its stiffness schedule's times must increase strictly".to_string();
            return Err(MbsError::InvalidElement { name: self.name.clone(), why });
        }
        self.stiffness_schedule = schedule;
        Ok(self)
    }

    /// The world axis, the angle `θ` and its rate `θ̇`.
    pub fn angle_and_rate(&self, bodies: &BodySet) -> Option<(Vector3<f64>, f64, f64)> {
        let (b1, b2) = (bodies.get(self.body1)?, bodies.get(self.body2)?);
        let z = b1.orientation * self.axis1;
        let (u1, u2) = (b1.orientation * self.ref1, b2.orientation * self.ref2);
        let theta = z.dot(&u1.cross(&u2)).atan2(u1.dot(&u2));
        Some((z, theta, z.dot(&(b2.angvel - b1.angvel))))
    }
}

impl ForceElement for Rsda {
    fn name(&self) -> &str {
        &self.name
    }
    fn bodies(&self) -> [BodyHandle; 2] {
        [self.body1, self.body2]
    }
    fn wrenches(&self, bodies: &BodySet) -> [Wrench; 2] {
        let Some((z, th, rate)) = self.angle_and_rate(bodies) else { return [Wrench::default(); 2] };
        let t = (self.preload - self.stiffness * (th - self.free_angle) - self.damping * rate) * z;
        [Wrench { force: Vector3::zeros(), torque: -t }, Wrench { force: Vector3::zeros(), torque: t }]
    }
    /// With `T2 = τ z`, `T1 = −τ z`, `τ = P − k (θ − θ0) − c θ̇` and rotation increments `φ_j`:
    ///
    /// - `θ = atan2(z·(u1 × u2), u1·u2)` with `z`, `u1` turning with body 1 and `u2` with body 2:
    ///   `∂θ/∂φ_j = g_j` from `δ(a·b) = φ·(…)` identities (on a revolute joint `g_2 = −g_1 = z`);
    /// - `θ̇ = z·(ω2 − ω1)`: `∂θ̇/∂φ1 = z × (ω2 − ω1)` (the axis turns), `∂θ̇/∂ω_j = s_j z`;
    /// - the torque's axis turns with body 1: `∂z/∂φ1 = −[z]×`.
    fn jacobian(&self, bodies: &BodySet) -> Option<(Block12, Block12)> {
        let (b1, b2) = (bodies.get(self.body1)?, bodies.get(self.body2)?);
        let (z, th, rate) = self.angle_and_rate(bodies)?;
        let (u1, u2) = (b1.orientation * self.ref1, b2.orientation * self.ref2);
        let (sn, cs) = (z.dot(&u1.cross(&u2)), u1.dot(&u2));
        let r2 = sn * sn + cs * cs;
        if r2 == 0.0 {
            return None;
        }
        // ∂(sin-like)/∂φ and ∂(cos-like)/∂φ per body, then θ = atan2.
        let ds1 = z.cross(&u1.cross(&u2)) + u1.cross(&u2.cross(&z));
        let ds2 = u2.cross(&z.cross(&u1));
        let dc1 = u1.cross(&u2);
        let dc2 = u2.cross(&u1);
        let g = [(ds1 * cs - dc1 * sn) / r2, (ds2 * cs - dc2 * sn) / r2];
        let h = [z.cross(&(b2.angvel - b1.angvel)), Vector3::zeros()];
        let tau = self.preload - self.stiffness * (th - self.free_angle) - self.damping * rate;
        let (mut k, mut c) = (Block12::zeros(), Block12::zeros());
        let signs = [-1.0, 1.0];
        for (i, si) in signs.iter().enumerate() {
            for (j, sj) in signs.iter().enumerate() {
                let dtau = -(g[j] * self.stiffness) - h[j] * self.damping;
                let mut blk: Matrix3<f64> = z * dtau.transpose();
                if j == 0 {
                    blk -= z.cross_matrix() * tau;
                }
                k.fixed_view_mut::<3, 3>(6 * i + 3, 6 * j + 3).copy_from(&(blk * *si));
                let zz: Matrix3<f64> = z * z.transpose();
                c.fixed_view_mut::<3, 3>(6 * i + 3, 6 * j + 3).copy_from(&(zz * (-self.damping * si * sj)));
            }
        }
        Some((k, c))
    }
    fn has_jacobian(&self) -> bool {
        true
    }
    fn link_power(&self, bodies: &BodySet) -> Option<f64> {
        let (_, th, rate) = self.angle_and_rate(bodies)?;
        Some(-(self.preload - self.stiffness * (th - self.free_angle) - self.damping * rate) * rate)
    }
    /// The last schedule entry whose time has come sets `k` for the step (times within
    /// 1e-9 s count as reached, so a switch at a window boundary is not lost to round-off).
    fn begin_step(&mut self, step: &StepStart<'_>) -> Result<(), MbsError> {
        if let Some(&(_, k)) = self.stiffness_schedule.iter().rev().find(|(from, _)| step.t >= from - 1e-9) {
            self.stiffness = k;
        }
        Ok(())
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::dynamics::body::RigidBodyBuilder;

    fn spring() -> (BodySet, Rsda) {
        let mut bodies = BodySet::new(Vector3::zeros());
        let a = bodies.insert(RigidBodyBuilder::fixed().build().unwrap());
        let b = bodies.insert(RigidBodyBuilder::dynamic(1.0, Vector3::new(1.0, 1.0, 1.0)).build().unwrap());
        let r = Rsda::new("s", &bodies, a, b, Vector3::z(), 25.0, 0.0, 0.0, 0.0).unwrap();
        (bodies, r)
    }

    #[test]
    fn schedule_switches_the_spring_at_its_times() {
        let (bodies, r) = spring();
        let mut r = r.with_stiffness_schedule(vec![(1.5, 200.0), (2.0, 50.0)]).unwrap();
        let k_at = |r: &mut Rsda, t: f64| {
            r.begin_step(&StepStart { t, dt: 1e-3, bodies: &bodies, predicted: &bodies }).unwrap();
            r.stiffness
        };
        assert_eq!(k_at(&mut r, 0.0), 25.0);
        assert_eq!(k_at(&mut r, 1.499), 25.0);
        // A window boundary summed to just below 1.5 still switches.
        assert_eq!(k_at(&mut r, 1.5 - 1e-12), 200.0);
        assert_eq!(k_at(&mut r, 1.9), 200.0);
        assert_eq!(k_at(&mut r, 2.0), 50.0);
    }

    #[test]
    fn schedule_refuses_unordered_or_infinite_entries() {
        let (_, r) = spring();
        let e = r.clone().with_stiffness_schedule(vec![(2.0, 1.0), (1.0, 2.0)]).unwrap_err();
        assert!(e.to_string().contains("increase strictly"), "{e}");
        assert!(r.with_stiffness_schedule(vec![(f64::NAN, 1.0)]).is_err());
    }
}
