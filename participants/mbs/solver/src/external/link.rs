//! A TSDA or RSDA whose force law is (or is added to) an external model's output.
//!
//! Before every step ([`ForceElement::begin_step`]) the link measures itself in the state the
//! integrator predicts for the step's end (HHT's first Newton iterate, as an HHT integrator
//! that queries its forces at the new time would), sends that state with the step's end time to
//! the model once per time level ([`TimeCache`]) and holds the answer for the whole step, so
//! the Newton iterations see one constant external force. Evaluated at the prediction, the
//! held force differs from the implicit law's by O(dt²) per step, not O(dt). The force
//! enters as an extra preload of the underlying element, which keeps its wrenches, Jacobian
//! (the geometric term of a force along a turning line) and absorbed power. Without
//! `combine_native` the element's own stiffness, damping and preload are zeroed; with it they
//! act as well (`F = P − k Δx − c v + F_ext`).

use super::cache::TimeCache;
use super::law::SharedLaw;
use super::state::LinkKind;
use crate::dynamics::body_set::{BodyHandle, BodySet};
use crate::dynamics::force_element::{Block12, ForceElement, StepStart, Wrench};
use crate::dynamics::rsda::Rsda;
use crate::dynamics::tsda::Tsda;
use crate::error::MbsError;

#[derive(Debug, Clone)]
enum Inner {
    Tsda(Tsda),
    Rsda(Rsda),
}

/// What the link measures at one state: displacement, velocity, absolute measure, rest value.
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct LinkMeasure {
    /// Extension (m) or opening angle (rad) from rest.
    pub displacement: f64,
    /// Its rate, extending or opening positive.
    pub velocity: f64,
    /// Length (m) or angle (rad).
    pub absolute: f64,
    /// Free length (m) or free angle (rad).
    pub rest: f64,
}

/// A link driven by an external law.
#[derive(Debug, Clone)]
pub struct ExternalLink {
    inner: Inner,
    native: [f64; 3],
    combine_native: bool,
    rich: bool,
    law: SharedLaw,
    cache: TimeCache,
    previous: Option<(f64, f64)>,
    rel_accel: f64,
    external: f64,
}

impl ExternalLink {
    /// The external law on `tsda`; `combine_native` keeps its own law too, `rich` sends the
    /// 17-channel state instead of the lean pair.
    pub fn on_tsda(tsda: Tsda, law: SharedLaw, combine_native: bool, rich: bool) -> Self {
        let native = [tsda.stiffness, tsda.damping, tsda.preload];
        Self::with(Inner::Tsda(tsda), native, law, combine_native, rich)
    }

    /// The external law on `rsda` (torque about its axis); as [`Self::on_tsda`].
    pub fn on_rsda(rsda: Rsda, law: SharedLaw, combine_native: bool, rich: bool) -> Self {
        let native = [rsda.stiffness, rsda.damping, rsda.preload];
        Self::with(Inner::Rsda(rsda), native, law, combine_native, rich)
    }

    fn with(inner: Inner, native: [f64; 3], law: SharedLaw, combine_native: bool, rich: bool) -> Self {
        let mut link = ExternalLink {
            inner,
            native,
            combine_native,
            rich,
            law,
            cache: TimeCache::new(),
            previous: None,
            rel_accel: 0.0,
            external: 0.0,
        };
        link.apply();
        link
    }

    /// TSDA or RSDA.
    pub fn kind(&self) -> LinkKind {
        match self.inner {
            Inner::Tsda(_) => LinkKind::Tsda,
            Inner::Rsda(_) => LinkKind::Rsda,
        }
    }
    /// Whether the rich 17-channel state is sent.
    pub fn rich(&self) -> bool {
        self.rich
    }
    /// Whether the element's own spring-damper law acts too.
    pub fn combine_native(&self) -> bool {
        self.combine_native
    }
    /// The external model's output held for the current step (N or N·m).
    pub fn external_force(&self) -> f64 {
        self.external
    }
    /// The relative acceleration sent last (finite difference across accepted steps).
    pub fn rel_accel(&self) -> f64 {
        self.rel_accel
    }
    /// The cache in front of the law (its counts of calls and hits).
    pub fn cache(&self) -> &TimeCache {
        &self.cache
    }
    /// The law (shared with its owner).
    pub fn law(&self) -> &SharedLaw {
        &self.law
    }

    /// The link's measure at `bodies`.
    pub fn measure(&self, bodies: &BodySet) -> LinkMeasure {
        match &self.inner {
            Inner::Tsda(t) => {
                let (len, rate) = t.length_and_rate(bodies);
                LinkMeasure { displacement: len - t.free_length, velocity: rate, absolute: len, rest: t.free_length }
            }
            Inner::Rsda(r) => {
                let (_, th, rate) = r.angle_and_rate(bodies).unwrap_or_default();
                LinkMeasure { displacement: th - r.free_angle, velocity: rate, absolute: th, rest: r.free_angle }
            }
        }
    }

    /// The state sent to the model at `bodies` (lean or rich, [`super::state`]).
    pub fn inputs(&self, bodies: &BodySet, m: &LinkMeasure) -> Vec<f64> {
        let mut v = vec![m.displacement, m.velocity];
        if self.rich {
            v.extend([m.absolute, m.rest, self.rel_accel]);
            for h in self.bodies() {
                match bodies.get(h) {
                    Some(b) => v.extend(b.position.iter().chain(b.linvel.iter())),
                    None => v.extend([0.0; 6]),
                }
            }
        }
        v
    }

    /// The element's own coefficients (if combined) plus the external force as preload.
    fn apply(&mut self) {
        let [k, c, p] = if self.combine_native { self.native } else { [0.0; 3] };
        let preload = p + self.external;
        match &mut self.inner {
            Inner::Tsda(t) => (t.stiffness, t.damping, t.preload) = (k, c, preload),
            Inner::Rsda(r) => (r.stiffness, r.damping, r.preload) = (k, c, preload),
        }
    }

    fn element(&self) -> &dyn ForceElement {
        match &self.inner {
            Inner::Tsda(t) => t,
            Inner::Rsda(r) => r,
        }
    }
}

impl ForceElement for ExternalLink {
    fn name(&self) -> &str {
        self.element().name()
    }
    fn bodies(&self) -> [BodyHandle; 2] {
        self.element().bodies()
    }
    fn wrenches(&self, bodies: &BodySet) -> [Wrench; 2] {
        self.element().wrenches(bodies)
    }
    fn jacobian(&self, bodies: &BodySet) -> Option<(Block12, Block12)> {
        self.element().jacobian(bodies)
    }
    fn has_jacobian(&self) -> bool {
        self.element().has_jacobian()
    }
    fn link_power(&self, bodies: &BodySet) -> Option<f64> {
        self.element().link_power(bodies)
    }
    /// One call to the law per new time, the step's end `t + dt`, with the predicted state
    /// there; the relative acceleration is the change of velocity since the previous new time
    /// (0 on the first).
    fn begin_step(&mut self, step: &StepStart<'_>) -> Result<(), MbsError> {
        let (t, dt, bodies) = (step.t + step.dt, step.dt, step.predicted);
        let m = self.measure(bodies);
        if self.cache.last_time().is_none_or(|last| t > last) {
            self.rel_accel = match self.previous {
                Some((tp, vp)) if t > tp => (m.velocity - vp) / (t - tp),
                _ => 0.0,
            };
            self.previous = Some((t, m.velocity));
        }
        let inputs = self.inputs(bodies, &m);
        let name = self.name().to_string();
        let fail = |message: String| MbsError::External { name: name.clone(), message };
        let mut law = self.law.lock().map_err(|_| fail("its model failed earlier (lock poisoned)".into()))?;
        let out = self.cache.evaluate(&mut *law, t, dt, &inputs).map_err(|e| fail(e.0))?;
        let [f] = out else {
            return Err(fail(format!("the model returned {} outputs; a link takes exactly one", out.len())));
        };
        if !f.is_finite() {
            return Err(fail(format!("the model returned a force of {f} at t = {t} s")));
        }
        self.external = *f;
        drop(law);
        self.apply();
        Ok(())
    }
    fn wants_prediction(&self) -> bool {
        true
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::external::law::{ExternalLaw, ExternalLawError, FnLaw};
    use crate::solver::hht::Hht;
    use crate::system::MultibodySystem;
    use crate::ForceElementSet;
    use nalgebra::Vector3;
    use std::sync::{Arc, Mutex};

    /// `F = −c v`, counting its calls and keeping the inputs it got.
    #[derive(Debug)]
    struct Damper {
        c: f64,
        inputs: Vec<Vec<f64>>,
        commits: usize,
    }
    impl ExternalLaw for Damper {
        fn evaluate(&mut self, _t: f64, _dt: f64, inputs: &[f64]) -> Result<Vec<f64>, ExternalLawError> {
            self.inputs.push(inputs.to_vec());
            Ok(vec![-self.c * inputs[1]])
        }
        fn reset(&mut self) -> Result<(), ExternalLawError> {
            Ok(())
        }
        fn commit(&mut self) -> Result<(), ExternalLawError> {
            self.commits += 1;
            Ok(())
        }
        fn rollback(&mut self) -> Result<(), ExternalLawError> {
            Ok(())
        }
    }

    /// The shared slider (a 2 kg body on a prismatic joint, a TSDA "pto" from the origin).
    fn spring_mass(k: f64, c: f64) -> (MultibodySystem, Tsda, crate::BodyHandle) {
        let (bodies, joints, tsda, mass) = crate::fixtures::tsda_slider("pto", k, c);
        (MultibodySystem::from_parts(bodies, joints, ForceElementSet::new()), tsda, mass)
    }

    #[test]
    fn one_call_per_hht_step_and_close_to_the_builtin_damper() {
        let (k, c, dt) = (200.0, 6.0, 1e-3);
        let (mut builtin, tsda, body) = spring_mass(k, c);
        builtin.forces.insert(Box::new(tsda.clone()));
        let damper = Arc::new(Mutex::new(Damper { c, inputs: Vec::new(), commits: 0 }));
        let (mut ext, tsda, _) = spring_mass(k, c);
        // The spring stays native, the damper is external.
        let mut native_spring = tsda.clone();
        native_spring.damping = 0.0;
        let law: SharedLaw = damper.clone();
        ext.forces.insert(Box::new(ExternalLink::on_tsda(native_spring, law, true, true)));
        let (mut h1, mut h2) = (Hht::default(), Hht::default());
        let steps = 500;
        for n in 0..steps {
            let t = n as f64 * dt;
            builtin.step_at(&mut h1, t, dt).unwrap();
            ext.step_at(&mut h2, t, dt).unwrap();
            // Exactly one call per accepted step, however many Newton iterations HHT took.
            assert_eq!(damper.lock().unwrap().inputs.len(), n + 1);
        }
        let x = |s: &MultibodySystem| s.bodies.get(body).unwrap().com_position().x;
        let v = |s: &MultibodySystem| s.bodies.get(body).unwrap().linvel().x;
        // The external damper is held over the step at its value for the predicted end state:
        // an O(dt²) difference per step, under 0.01 % of the 0.1 m amplitude here.
        assert!((x(&builtin) - x(&ext)).abs() < 1e-5, "{} vs {}", x(&builtin), x(&ext));
        assert!((v(&builtin) - v(&ext)).abs() < 1e-4, "{} vs {}", v(&builtin), v(&ext));
        let d = damper.lock().unwrap();
        // Rich state: 17 channels, rel_accel 0 on the first call, then (v_n − v_{n−1}) / dt.
        assert_eq!(d.inputs[0].len(), 17);
        assert_eq!(d.inputs[0][4], 0.0);
        let (v1, v2) = (d.inputs[1][1], d.inputs[2][1]);
        assert!((d.inputs[2][4] - (v2 - v1) / dt).abs() < 1e-9 * (1.0 + d.inputs[2][4].abs()));
        // Displacement = length − free length; body 2's x position is the length here.
        assert!((d.inputs[3][0] - (d.inputs[3][2] - d.inputs[3][3])).abs() < 1e-15);
        assert_eq!(d.inputs[3][3], 1.0);
        assert!((d.inputs[3][11] - d.inputs[3][2]).abs() < 1e-12);
    }

    /// The largest position difference over 0.5 s between the built-in damper and the same
    /// damper as an external law, at step `dt`.
    fn largest_difference_from_the_builtin(dt: f64) -> f64 {
        let (k, c) = (200.0, 6.0);
        let (mut builtin, tsda, body) = spring_mass(k, c);
        builtin.forces.insert(Box::new(tsda.clone()));
        let (mut ext, mut spring, _) = spring_mass(k, c);
        spring.damping = 0.0;
        let law: SharedLaw = Arc::new(Mutex::new(FnLaw(move |_: f64, _: f64, i: &[f64]| Ok(vec![-c * i[1]]))));
        ext.forces.insert(Box::new(ExternalLink::on_tsda(spring, law, true, false)));
        let (mut h1, mut h2) = (Hht::default(), Hht::default());
        let x = |s: &MultibodySystem| s.bodies.get(body).unwrap().com_position().x;
        let steps = (0.5 / dt).round() as usize;
        (0..steps).fold(0.0_f64, |worst, n| {
            builtin.step_at(&mut h1, n as f64 * dt, dt).unwrap();
            ext.step_at(&mut h2, n as f64 * dt, dt).unwrap();
            worst.max((x(&builtin) - x(&ext)).abs())
        })
    }

    /// Asked at the predicted end-of-step state, the held force differs from the implicit
    /// damper's by O(dt²) per step: halving the step quarters the difference (a law asked at
    /// the step-start state would only halve it).
    #[test]
    fn the_held_force_converges_to_the_implicit_damper_at_second_order() {
        let (coarse, fine) = (largest_difference_from_the_builtin(2e-3), largest_difference_from_the_builtin(1e-3));
        let order = (coarse / fine).log2();
        assert!(order > 1.7, "order {order:.2}: {coarse:.3e} at 2 ms, {fine:.3e} at 1 ms");
    }

    #[test]
    fn replaces_the_native_law_and_reports_power() {
        let (mut sys, tsda, body) = spring_mass(500.0, 9.0);
        let law: SharedLaw = Arc::new(Mutex::new(Damper { c: 3.0, inputs: Vec::new(), commits: 0 }));
        let mut link = ExternalLink::on_tsda(tsda, law, false, false);
        sys.bodies.get_mut(body).unwrap().set_linvel(Vector3::new(0.5, 0.0, 0.0));
        link.begin_step(&StepStart { t: 0.0, dt: 0.1, bodies: &sys.bodies, predicted: &sys.bodies }).unwrap();
        // Only the external −3 v acts: k and c of the model are off.
        assert_eq!(link.external_force(), -1.5);
        let w = link.wrenches(&sys.bodies);
        assert!((w[1].force.x + 1.5).abs() < 1e-12);
        assert!((link.link_power(&sys.bodies).unwrap() - 0.75).abs() < 1e-12);
        // A Newton re-evaluation at the same time with another state keeps the force.
        sys.bodies.get_mut(body).unwrap().set_linvel(Vector3::new(2.0, 0.0, 0.0));
        link.begin_step(&StepStart { t: 0.0, dt: 0.1, bodies: &sys.bodies, predicted: &sys.bodies }).unwrap();
        assert_eq!(link.external_force(), -1.5);
        assert_eq!(link.cache().round_trips(), 1);
    }

    #[test]
    fn a_bad_output_names_the_link() {
        let (sys, tsda, _) = spring_mass(1.0, 1.0);
        let mut link = ExternalLink::on_tsda(
            tsda,
            Arc::new(Mutex::new(FnLaw(|_: f64, _: f64, _: &[f64]| Ok(vec![1.0, 2.0])))),
            false,
            false,
        );
        let e = link
            .begin_step(&StepStart { t: 0.0, dt: 0.1, bodies: &sys.bodies, predicted: &sys.bodies })
            .unwrap_err()
            .to_string();
        assert!(e.contains("`pto`") && e.contains("2 outputs"), "{e}");
    }
}
