//! A 6-DOF external body-force model: one law pushes a list of bodies with a force and a moment
//! each (a mooring, a wave-load model, a controller acting on a hull), world axes.
//!
//! The model gets, per body and concatenated, the COM position (m), the orientation as roll,
//! pitch, yaw (rad; `R = Rz(yaw) Ry(pitch) Rx(roll)`), the COM velocity (m/s) and the angular
//! velocity (rad/s), all world frame; it returns per body a force at the COM (N) and a moment
//! about it (N·m), world frame. As for links ([`super::ExternalLink`]) it is asked once per
//! time level, at the step's end with the predicted state, and its answer is held for the step.
//!
//! The force elements of the group are one per body (a [`ForceElement`] acts on two bodies).
//! The first, the *leader*, owns the law's cache and asks the law; the others copy their part
//! of its answer from a slot they share with it. The leader is inserted first, so its
//! `begin_step` runs first. A checkpoint clones the elements, the leader's cache with them, so
//! a repeated window asks the law again as a link does.

use super::cache::TimeCache;
use super::law::SharedLaw;
use crate::dynamics::body_set::{BodyHandle, BodySet};
use crate::dynamics::force_element::{Block12, ForceElement, StepStart, Wrench};
use crate::error::MbsError;
use nalgebra::Vector3;
use std::sync::{Arc, Mutex};

/// The channels sent per body, prefixed `<body>.` on the wire.
pub const BODY_CHANNELS: [&str; 12] =
    ["pos_x", "pos_y", "pos_z", "roll", "pitch", "yaw", "vel_x", "vel_y", "vel_z", "omega_x", "omega_y", "omega_z"];

/// The outputs per body: force then moment, world axes.
pub const BODY_OUTPUTS: [&str; 6] = ["force_x", "force_y", "force_z", "moment_x", "moment_y", "moment_z"];

/// The protocol's `kind` of a body-force model.
pub const BODY_FORCE_KIND: &str = "body_force";

/// The answer of the last evaluation, by body, and the time it is for.
#[derive(Debug, Default)]
struct Slot {
    time: Option<f64>,
    wrenches: Vec<Wrench>,
}

/// What the leader keeps: the law, its cache and every body of the group.
#[derive(Debug, Clone)]
struct Leader {
    law: SharedLaw,
    cache: TimeCache,
    bodies: Vec<BodyHandle>,
}

/// The force and moment an external body-force model puts on one body of its group.
#[derive(Debug, Clone)]
pub struct ExternalBodyForce {
    name: String,
    body: BodyHandle,
    index: usize,
    leader: Option<Leader>,
    slot: Arc<Mutex<Slot>>,
    wrench: Wrench,
}

impl ExternalBodyForce {
    /// The elements of model `name` on `bodies` (in the order the model sees them), the leader
    /// first: insert them in this order.
    pub fn group(name: &str, law: SharedLaw, bodies: &[(String, BodyHandle)]) -> Vec<ExternalBodyForce> {
        let slot = Arc::new(Mutex::new(Slot::default()));
        let handles: Vec<BodyHandle> = bodies.iter().map(|(_, h)| *h).collect();
        bodies
            .iter()
            .enumerate()
            .map(|(i, (body_name, h))| ExternalBodyForce {
                name: format!("{name}:{body_name}"),
                body: *h,
                index: i,
                leader: (i == 0).then(|| Leader { law: law.clone(), cache: TimeCache::new(), bodies: handles.clone() }),
                slot: slot.clone(),
                wrench: Wrench::default(),
            })
            .collect()
    }

    /// The channel names the model is told about, `<body>.<channel>` for every body.
    pub fn in_names(bodies: &[(String, BodyHandle)]) -> Vec<String> {
        bodies.iter().flat_map(|(b, _)| BODY_CHANNELS.iter().map(move |c| format!("{b}.{c}"))).collect()
    }

    /// The law, on the leader only (the one to start, commit, roll back and shut down).
    pub fn law(&self) -> Option<&SharedLaw> {
        self.leader.as_ref().map(|l| &l.law)
    }
    /// The leader's cache (calls and hits); `None` on the other elements.
    pub fn cache(&self) -> Option<&TimeCache> {
        self.leader.as_ref().map(|l| &l.cache)
    }
    /// The wrench held for the current step.
    pub fn wrench(&self) -> Wrench {
        self.wrench
    }

    /// The inputs for `handles` at `bodies`: 12 channels per body ([`BODY_CHANNELS`]).
    fn inputs(handles: &[BodyHandle], bodies: &BodySet) -> Vec<f64> {
        let mut v = Vec::with_capacity(12 * handles.len());
        for h in handles {
            match bodies.get(*h) {
                Some(b) => {
                    let (roll, pitch, yaw) = b.com_orientation().euler_angles();
                    v.extend(b.com_position().iter());
                    v.extend([roll, pitch, yaw]);
                    v.extend(b.linvel().iter().chain(b.angvel().iter()));
                }
                None => v.extend([0.0; 12]),
            }
        }
        v
    }

    fn fail(&self, message: String) -> MbsError {
        MbsError::External { name: self.name.clone(), message }
    }
}

impl ForceElement for ExternalBodyForce {
    fn name(&self) -> &str {
        &self.name
    }
    /// The body twice: the element's second wrench is always zero.
    fn bodies(&self) -> [BodyHandle; 2] {
        [self.body, self.body]
    }
    fn wrenches(&self, _bodies: &BodySet) -> [Wrench; 2] {
        [self.wrench, Wrench::default()]
    }
    /// Held constant over the step: no dependence on the state.
    fn jacobian(&self, _bodies: &BodySet) -> Option<(Block12, Block12)> {
        Some((Block12::zeros(), Block12::zeros()))
    }
    fn has_jacobian(&self) -> bool {
        true
    }
    /// At the step's end `t + dt` with the predicted state, as [`crate::ExternalLink`].
    fn begin_step(&mut self, step: &StepStart<'_>) -> Result<(), MbsError> {
        let (t, dt, bodies) = (step.t + step.dt, step.dt, step.predicted);
        if let Some(leader) = &mut self.leader {
            let inputs = Self::inputs(&leader.bodies, bodies);
            let n = leader.bodies.len();
            let mut law = leader.law.lock().map_err(|_| MbsError::External {
                name: self.name.clone(),
                message: "its model failed earlier (lock poisoned)".into(),
            })?;
            let out = leader
                .cache
                .evaluate(&mut *law, t, dt, &inputs)
                .map_err(|e| MbsError::External { name: self.name.clone(), message: e.0 })?
                .to_vec();
            drop(law);
            if out.len() != 6 * n {
                return Err(self.fail(format!("the model returned {} outputs; {n} bodies take {}", out.len(), 6 * n)));
            }
            if let Some(bad) = out.iter().position(|x| !x.is_finite()) {
                let what = BODY_OUTPUTS[bad % 6];
                return Err(self.fail(format!(
                    "the model returned {what} = {} for body {} at t = {t} s",
                    out[bad],
                    bad / 6
                )));
            }
            let wrenches = out
                .chunks(6)
                .map(|c| Wrench { force: Vector3::new(c[0], c[1], c[2]), torque: Vector3::new(c[3], c[4], c[5]) })
                .collect();
            let mut slot = self.slot.lock().map_err(|_| self.fail("its model failed earlier".into()))?;
            *slot = Slot { time: Some(t), wrenches };
        }
        let slot = self.slot.lock().map_err(|_| self.fail("its model failed earlier".into()))?;
        match (slot.time, slot.wrenches.get(self.index)) {
            (Some(time), Some(w)) if time == t => self.wrench = *w,
            _ => {
                return Err(self
                    .fail(format!("no answer of its model for t = {t} s (the group's first element must come first)")))
            }
        }
        Ok(())
    }
    fn wants_prediction(&self) -> bool {
        true
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::dynamics::body::RigidBodyBuilder;
    use crate::dynamics::joint::JointSet;
    use crate::external::law::FnLaw;
    use crate::solver::hht::Hht;
    use crate::system::MultibodySystem;
    use crate::ForceElementSet;
    use nalgebra::{Isometry3, UnitQuaternion};

    /// Two free bodies without gravity: one displaced 0.1 m in z, one rolled 0.05 rad. Each
    /// oscillates with the period of its spring, z = 0.1 cos(√(k/m) t) and roll =
    /// 0.05 cos(√(kr/Ixx) t); the model is asked once per step for both.
    #[test]
    fn two_bodies_one_call_per_step_and_the_analytic_oscillations() {
        let (m, ixx, k, kr) = (10.0, 2.0, 1000.0, 50.0);
        let mut bodies = crate::BodySet::new(Vector3::zeros());
        let a = bodies.insert(
            RigidBodyBuilder::dynamic(m, Vector3::repeat(ixx))
                .reference_pose(Isometry3::translation(0.0, 0.0, 0.1))
                .build()
                .unwrap(),
        );
        let rolled = Isometry3::from_parts(
            nalgebra::Translation3::new(3.0, 0.0, 0.0),
            UnitQuaternion::from_euler_angles(0.05, 0.0, 0.0),
        );
        let b =
            bodies.insert(RigidBodyBuilder::dynamic(m, Vector3::repeat(ixx)).reference_pose(rolled).build().unwrap());
        // Per body a linear spring to the origin on z (`F_z = −k z`) and a torque `−kr · roll`
        // about x; it keeps the inputs it got.
        let inputs = Arc::new(Mutex::new(Vec::<Vec<f64>>::new()));
        let seen = inputs.clone();
        let shared: SharedLaw = Arc::new(Mutex::new(FnLaw(move |_: f64, _: f64, x: &[f64]| {
            seen.lock().unwrap().push(x.to_vec());
            Ok(x.chunks(12).flat_map(|b| [0.0, 0.0, -k * b[2], -kr * b[3], 0.0, 0.0]).collect())
        })));
        let mut forces = ForceElementSet::new();
        for e in ExternalBodyForce::group("springs", shared, &[("a".into(), a), ("b".into(), b)]) {
            forces.insert(Box::new(e));
        }
        let mut sys = MultibodySystem::from_parts(bodies, JointSet::new(), forces);
        let mut hht = Hht::default();
        let (dt, steps) = (1e-4, 10_000);
        for n in 0..steps {
            sys.step_at(&mut hht, n as f64 * dt, dt).unwrap();
            assert_eq!(inputs.lock().unwrap().len(), n + 1, "one call per step for both bodies");
        }
        let t = steps as f64 * dt;
        let z = sys.bodies.get(a).unwrap().com_position().z;
        let roll = sys.bodies.get(b).unwrap().com_orientation().euler_angles().0;
        let (wz, wr) = ((k / m).sqrt(), (kr / ixx).sqrt());
        // The force is held over each step at its value for the predicted end state: an
        // O(dt²) error per step, below HHT's own period error, (ω dt)² ω t / 12 of the
        // amplitude (times |sin ω t|): 4.5e-8 m in z (measured 6.4e-8) and 5e-9 rad in roll
        // (measured 7e-9). A force held at the step-start state would be off by 4e-4 m. Bounds:
        // about 5 times the measured differences.
        assert!((z - 0.1 * (wz * t).cos()).abs() < 3e-7, "z {z} vs {}", 0.1 * (wz * t).cos());
        assert!((roll - 0.05 * (wr * t).cos()).abs() < 4e-8, "roll {roll} vs {}", 0.05 * (wr * t).cos());
        let inputs = &inputs.lock().unwrap()[0];
        assert_eq!(inputs.len(), 24);
        assert_eq!(&inputs[0..3], &[0.0, 0.0, 0.1]);
        assert!((inputs[12] - 3.0).abs() < 1e-15 && (inputs[15] - 0.05).abs() < 1e-12, "{inputs:?}");
        assert_eq!(
            ExternalBodyForce::in_names(&[("a".into(), a)])[3..6],
            ["a.roll".to_string(), "a.pitch".into(), "a.yaw".into()]
        );
    }

    #[test]
    fn a_wrong_output_count_names_the_model() {
        let mut bodies = crate::BodySet::new(Vector3::zeros());
        let a = bodies.insert(RigidBodyBuilder::dynamic(1.0, Vector3::repeat(1.0)).build().unwrap());
        let mut g = ExternalBodyForce::group(
            "m",
            Arc::new(Mutex::new(FnLaw(|_: f64, _: f64, _: &[f64]| Ok(vec![0.0; 5])))),
            &[("hull".into(), a)],
        );
        let e = g[0]
            .begin_step(&StepStart { t: 0.0, dt: 0.1, bodies: &bodies, predicted: &bodies })
            .unwrap_err()
            .to_string();
        assert!(e.contains("`m:hull`") && e.contains("5 outputs") && e.contains("take 6"), "{e}");
    }
}
